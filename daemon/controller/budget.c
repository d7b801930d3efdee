/* budget.c: budgets' months and figures (budget.h). The calendar is
 * worked out from days since the epoch (Howard Hinnant's civil-date
 * algorithms), not with gmtime and timegm: the same answer with no
 * time zone, locale or libc extension in the way. */
#include <stdio.h>

#include "daemon/controller/budget.h"

#define BUDGET_DAY	86400

/* Days since 1970-01-01 of year y, month m (1-12), day 1. */
static int64_t
budget_days(int64_t y, int m)
{
	int64_t	era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468);
}

/* The year and month of day z (days since the epoch). */
static void
budget_civil(int64_t z, int64_t *y, int *m)
{
	int64_t	era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* The day t is in, rounded down for times before the epoch too. */
static int64_t
budget_day_of(int64_t t)
{
	return (t >= 0 ? t / BUDGET_DAY : -((-t + BUDGET_DAY - 1) /
	    BUDGET_DAY));
}

int64_t
budget_month_start(int64_t t)
{
	int64_t	y;
	int	m;

	budget_civil(budget_day_of(t), &y, &m);
	return (budget_days(y, m) * BUDGET_DAY);
}

int64_t
budget_month_next(int64_t t)
{
	int64_t	y;
	int	m;

	budget_civil(budget_day_of(t), &y, &m);
	if (m == 12)
		return (budget_days(y + 1, 1) * BUDGET_DAY);
	return (budget_days(y, m + 1) * BUDGET_DAY);
}

const char *
budget_month_name(int64_t t, char *buf, size_t len)
{
	int64_t	y;
	int	m;

	budget_civil(budget_day_of(t), &y, &m);
	snprintf(buf, len, "%04lld-%02d", (long long)y, m);
	return (buf);
}

uint64_t
budget_used(const struct budget_use *u, int64_t now)
{
	int64_t	running = (int64_t)u->rate * (now - u->origin) - u->since;

	/* A clock stepped back reads as no time run, not a negative. */
	return (u->done + (running > 0 ? (uint64_t)running / BUDGET_MILLI :
	    0));
}

bool
budget_is_spent(uint64_t budget, uint64_t used)
{
	return (budget > 0 && used >= budget);
}

int64_t
budget_spent_at(uint64_t budget, const struct budget_use *u, int64_t now)
{
	uint64_t	used = budget_used(u, now), left;

	if (budget == 0)
		return (BUDGET_NEVER);
	if (used >= budget)
		return (now);
	if (u->rate == 0)
		return (BUDGET_NEVER);
	/* Rounded up: at that second it is spent, not a second short (in
	 * millionths, what is left fits: a budget is at most 3.6e15
	 * thousandths). */
	left = (budget - used) * BUDGET_MILLI;
	return (now + (int64_t)((left + u->rate - 1) / u->rate));
}

int
budget_from_hours(double hours, uint64_t *secs, char *err, size_t errlen)
{
	uint64_t	s;

	if (!(hours >= 0) || hours > BUDGET_MAX_HOURS) {
		snprintf(err, errlen, "gpu_hours: expected 0 (no budget) to "
		    "%.0f GPU-hours, got %g", BUDGET_MAX_HOURS, hours);
		return (-1);
	}
	/* Rounded to the nearest (no libm: it is not negative). */
	s = (uint64_t)(hours * 3600 + 0.5);
	if (hours > 0 && s == 0) {
		snprintf(err, errlen, "gpu_hours: %g is less than a "
		    "GPU-second; expected 0 (no budget), or 0.0003 (about a "
		    "GPU-second) or more", hours);
		return (-1);
	}
	*secs = s;
	return (0);
}

double
budget_hours(uint64_t secs)
{
	return ((double)secs / 3600);
}

double
budget_charged_seconds(uint64_t milli)
{
	return ((double)milli / BUDGET_MILLI);
}

double
budget_percent(uint64_t used, uint64_t budget)
{
	if (budget == 0)
		return (0);
	return (100.0 * (double)used / (double)budget);
}
