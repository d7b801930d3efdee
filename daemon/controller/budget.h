/* budget.h: an account's GPU-hour budget and the month it is for
 * (docs/scheduling.md, "Budgets"): which month a time is in (the
 * calendar month, UTC), how much a budget's account used by now, whether
 * it spent the budget and when it will at the rate it spends now, and
 * the budget's unit. Pure: no clock, no tables; tested alone
 * (tests/unit/budget-test.c). */
#ifndef GB_CTL_BUDGET_H
#define GB_CTL_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A time that never comes. */
#define BUDGET_NEVER		INT64_MAX

/* Charged use, a run's GPU-seconds x its QOS's usage factor (qos.h), is
 * kept in thousandths of a GPU-second, as a factor is kept to a
 * thousandth (qos_weight): a factor of 1 is BUDGET_MILLI, and a budget of
 * B GPU-seconds is spent once the charged use reaches B x BUDGET_MILLI. */
#define BUDGET_MILLI		1000

/* The most GPU-hours a budget may be: far past any cluster's month. */
#define BUDGET_MAX_HOURS	1000000000.0

/* The start of the calendar month (UTC) that holds t, and of the one
 * after it; seconds since the epoch. */
int64_t	budget_month_start(int64_t t);
int64_t	budget_month_next(int64_t t);
/* The month that holds t as "YYYY-MM" into buf (8 bytes suffice).
 * Returns buf. */
const char *budget_month_name(int64_t t, char *buf, size_t len);

/* What an account (or a subtree of accounts) used in a month, in a form
 * that costs nothing to keep up to date as runs start and end. Use is
 * kept in thousandths of a GPU-second (as charged use is; a job of
 * shards of a GPU holds its fraction of one):
 * done: what the runs that ended in the month used;
 * rate: what its runs under way use a second, in millionths of a
 *   GPU-second (BUDGET_MILLI x the thousandths of GPUs they hold, x
 *   their factor in thousandths for charged use);
 * since: the sum, over those runs, of their rate x the time they started
 *   in seconds from origin (the month's start; 0 for a run that started
 *   before it);
 * origin: the month's start.
 * At now, a run under way has used its rate x (now - its start), so the
 * whole is done + (rate x (now - origin) - since) / BUDGET_MILLI. */
struct budget_use {
	uint64_t	 done;
	uint64_t	 rate;
	int64_t		 since;
	int64_t		 origin;
};

/* Thousandths of GPU-seconds used by now (never below done). */
uint64_t budget_used(const struct budget_use *, int64_t now);
/* Whether a budget of budget (thousandths of GPU-seconds) is spent with
 * used used: a budget of 0 is none, never spent; otherwise spent once
 * used reaches it. */
bool	budget_is_spent(uint64_t budget, uint64_t used);
/* When a budget (thousandths of GPU-seconds) not spent at now will be,
 * if the GPUs running now keep running: BUDGET_NEVER without a budget or
 * with no GPU running, now when it is spent already. */
int64_t	budget_spent_at(uint64_t budget, const struct budget_use *,
	    int64_t now);

/* The unit: a budget is given in GPU-hours, a decimal number (0.5 is 30
 * GPU-minutes), and kept in whole GPU-seconds, rounded to the nearest.
 * budget_from_hours takes 0 (none) to BUDGET_MAX_HOURS; a budget that
 * would round to no GPU-second at all is refused rather than taken as
 * none. Returns 0 with *secs, or -1 with err saying what is accepted. */
int	budget_from_hours(double hours, uint64_t *secs, char *err,
	    size_t errlen);
/* GPU-seconds as GPU-hours. */
double	budget_hours(uint64_t secs);
/* Charged use (thousandths of a GPU-second) as GPU-seconds. */
double	budget_charged_seconds(uint64_t milli);
/* used as a percentage of budget (0 for no budget). */
double	budget_percent(uint64_t used, uint64_t budget);

#endif
