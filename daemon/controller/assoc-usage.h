/* assoc-usage.h: what each account used in the budget's month
 * (budget.h), and which accounts have spent their budget. An account's
 * use is the GPU-seconds of its runs that ended in the month, read from
 * the store at start (assoc_load_usage) and added as each run ends, and
 * the part so far of its runs under way, counted to the moment asked: a
 * budget is judged against the account's own use and that of every
 * account below it. Nothing here scans: a run's start or end is a lookup
 * by name, a judgment a walk of each account's parents.
 *
 * Pure: the caller passes now, the accounts' table and the QOS settings;
 * no clock, store or job table (tested alone,
 * tests/unit/assoc-usage-test.c). The core owns the controller's one
 * (core_usage): job-change.c tells it of runs, each pass judges it, and a
 * job charged to an account that has spent its budget waits outside the
 * core (core-part.c).
 *
 * Each figure comes twice: as run (GPUs x time; a job of shards of a
 * GPU holds its fraction of one) and charged, each run's
 * GPU-seconds x its QOS's usage factor (qos_weight, in thousandths:
 * budget.h's BUDGET_MILLI), which is what a budget is judged against. A
 * GPU-second is charged at the factor in force when it is used: a reload
 * that changes a factor (assoc_usage_weigh) changes what the runs under
 * way are charged from then on, not what was charged before; the month's
 * runs read at start are charged at the factors then in force. Use is
 * kept by account and QOS, so that a factor applies to its QOS's runs
 * alone and a run's end finds what its start added. */
#ifndef GB_CTL_ASSOC_USAGE_H
#define GB_CTL_ASSOC_USAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/controller/assoc-tab.h"
#include "daemon/controller/budget.h"
#include "daemon/controller/qos.h"

struct assoc_usage;

/* A new one for the month holding now, with nothing used; every QOS is
 * charged at a factor of 1 until assoc_usage_weigh says otherwise. */
struct assoc_usage *assoc_usage_create(int64_t now);
void	assoc_usage_free(struct assoc_usage *);

/* The usage factors of qs (copied) are those in force from now on: a
 * run under way whose QOS's factor changed is charged at the old one up
 * to now and at the new one after. */
void	assoc_usage_weigh(struct assoc_usage *, const struct qoses *qs,
	    int64_t now);

/* Below, a run is charged to account ("": none, not counted) in QOS qos
 * (its job's, as job_runs keeps it: '' is the default's). */

/* Runs that ended in the month, milli_s thousandths of GPU-seconds in
 * all (their part within the month), as the store has them at start. */
void	assoc_usage_add(struct assoc_usage *, const char *account,
	    const char *qos, uint64_t milli_s, int64_t now);
/* A run holding milli thousandths of GPUs (a GPU is BUDGET_MILLI; a job
 * of shards its fraction of one: job_run_milli), under way since start,
 * from now on counted as it goes. */
void	assoc_usage_run_start(struct assoc_usage *, const char *account,
	    const char *qos, uint32_t milli, int64_t start, int64_t now);
/* That run ended at end (now): its part within the month is done. */
void	assoc_usage_run_end(struct assoc_usage *, const char *account,
	    const char *qos, uint32_t milli, int64_t start, int64_t end);
/* A run that ended at stop goes on (a job re-adopted from its node after
 * it was requeued): what its end added is taken back, and it counts
 * from start again, as the store's record of it now says. */
void	assoc_usage_run_reopen(struct assoc_usage *, const char *account,
	    const char *qos, uint32_t milli, int64_t start, int64_t stop,
	    int64_t now);

/* The start of the month the figures are for, now's (the figures start
 * afresh when a month turns). */
int64_t	assoc_usage_month(struct assoc_usage *, int64_t now);

/* What a subtree of accounts used in the month, and its runs under way:
 * the account's own and every account's below it. */
struct assoc_usage_sum {
	struct budget_use	 use;		/* as run (budget.h) */
	/* The same with each QOS's factor applied: what the budget
	 * counts. The sums hold while the charged rate of the runs under
	 * way under an account x a month's seconds stay below 2^63: 3
	 * million GPUs at a factor of 1, 3,000 at the factor's most
	 * (1000). */
	struct budget_use	 charged;
	uint32_t		 jobs;
};
/* Fills sums[i] for each account t->acc[i] at now (the caller's array of
 * t->nacc). O(accounts used x depth of the tree). */
void	assoc_usage_tree(struct assoc_usage *, const struct assoc_tab *t,
	    int64_t now, struct assoc_usage_sum *sums);

/* What sum's accounts were charged by now (thousandths of GPU-seconds),
 * and whether that spent a budget of budget GPU-seconds (0: none, never
 * spent): the rule the judgment below applies. What they used as run is
 * budget_used(&sum->use, now), also in thousandths. */
uint64_t assoc_usage_charged(const struct assoc_usage_sum *, int64_t now);
bool	assoc_usage_is_spent(const struct assoc_usage_sum *, uint64_t budget,
	    int64_t now);

/* Judges every budget of t at now against the charged use: which
 * accounts have spent theirs.
 * Costs nothing unless a run started or ended, the month turned, a
 * budget may have been spent since the last judgment (assoc_usage_next)
 * or force (the table changed). Returns whether the accounts that have
 * spent their budget changed: the jobs waiting are then to be judged
 * again. */
bool	assoc_usage_judge(struct assoc_usage *, const struct assoc_tab *t,
	    int64_t now, bool force);
/* Whether a job charged to account may not start as it or an account
 * above it had spent its budget at the last judgment; *who (when not
 * NULL) names that account, borrowed until the next judgment. */
bool	assoc_usage_held(const struct assoc_usage *,
	    const struct assoc_tab *t, const char *account, const char **who);
/* When the last judgment may next change without a run starting or
 * ending: the moment the first budget is spent at the rate its
 * account's runs spend it, or the next month's start while a budget is
 * spent; BUDGET_NEVER. */
int64_t	assoc_usage_next(const struct assoc_usage *);

#endif
