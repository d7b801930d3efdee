/* budget-test.c: budgets' rules (daemon/controller/budget.c): the month
 * a time is in (UTC calendar months, leap years, before the epoch), what
 * was used by now, when a budget is spent, and the unit. The expected
 * times were worked out with Python's calendar.timegm. */
#include <string.h>

#include "daemon/controller/budget.h"
#include "tests/unit/tap.h"

static void
test_months(void)
{
	char	buf[16];

	/* A leap February, its last second, the next month's first. */
	is_int(budget_month_start(1709208000), 1706745600,
	    "2024-02-29 12:00 is in the month from 2024-02-01");
	is_int(budget_month_start(1709251199), 1706745600,
	    "2024-02-29 23:59:59 still is");
	is_int(budget_month_start(1709251200), 1709251200,
	    "2024-03-01 00:00 starts a month of its own");
	is_int(budget_month_next(1709208000), 1709251200,
	    "the month after 2024-02 starts on 2024-03-01");
	/* December into January of the next year. */
	is_int(budget_month_start(1704067199), 1701388800,
	    "2023-12-31 23:59:59 is in 2023-12");
	is_int(budget_month_next(1704067199), 1704067200,
	    "the month after 2023-12 is 2024-01");
	/* Century years: 2000 is a leap year, 2100 and 1900 are not. */
	is_int(budget_month_start(950572800), 949363200,
	    "2000-02-15 is in the month from 2000-02-01");
	is_int(budget_month_next(950572800), 951868800,
	    "2000-02 has 29 days");
	is_int(budget_month_start(4107542400), 4107542400,
	    "2100-03-01 starts its month");
	is_int(budget_month_next(4107542400), 4110220800,
	    "2100-03 ends on 2100-04-01");
	is_int(budget_month_start(-2203891200), -2203891200,
	    "1900-03-01, before the epoch, starts its month");
	is_int(budget_month_next(-2203891200), -2201212800,
	    "1900-03 ends on 1900-04-01");
	/* The second before the epoch. */
	is_int(budget_month_start(-1), -2678400, "1969-12-31 23:59:59 is in "
	    "1969-12");
	is_int(budget_month_next(-1), 0, "the month after it starts at 0");
	is_int(budget_month_start(0), 0, "the epoch starts 1970-01");
	is_str(budget_month_name(1709208000, buf, sizeof buf), "2024-02",
	    "the month's name");
	is_str(budget_month_name(-1, buf, sizeof buf), "1969-12",
	    "before the epoch too");
}

#define M	INT64_C(1000)	/* BUDGET_MILLI, 64 bits wide */

static void
test_used(void)
{
	struct budget_use	u;

	memset(&u, 0, sizeof u);
	is_int(budget_used(&u, 1000), 0, "nothing used");
	/* 100 GPU-s done; 4 GPUs running since 500 and 2 since 900, in
	 * thousandths (rates in millionths), times from an origin of 0. */
	u.done = 100 * M;
	u.rate = 6 * M * M;
	u.since = 4 * M * M * 500 + 2 * M * M * 900;
	is_int(budget_used(&u, 1000), (100 + 4 * 500 + 2 * 100) * M,
	    "done plus each run's GPUs x its time so far");
	/* A clock stepped back before the runs' starts. */
	is_int(budget_used(&u, 400), 100 * M,
	    "a clock stepped back adds nothing");
	/* The same from an origin (the month's start): times count from
	 * it. */
	u.origin = 1000000;
	is_int(budget_used(&u, 1001000), (100 + 4 * 500 + 2 * 100) * M,
	    "times from the origin");
	/* Half a GPU (a job of 2 of 4 shards) since 0, for 3 s: 1.5. */
	memset(&u, 0, sizeof u);
	u.rate = 500 * M;
	is_int(budget_used(&u, 3), 1500, "half a GPU for 3 s: 1500 "
	    "thousandths");
}

static void
test_spent(void)
{
	struct budget_use	u;

	ok(!budget_is_spent(0, 1000000), "no budget is never spent");
	ok(!budget_is_spent(3600, 3599), "a second short is not spent");
	ok(budget_is_spent(3600, 3600), "reached is spent");
	ok(budget_is_spent(3600, 7200), "passed is spent");

	memset(&u, 0, sizeof u);
	u.done = 1000 * M;
	is_int(budget_spent_at(0, &u, 50), BUDGET_NEVER, "no budget: never");
	is_int(budget_spent_at(2000 * M, &u, 50), BUDGET_NEVER,
	    "nothing running: never");
	is_int(budget_spent_at(1000 * M, &u, 50), 50, "spent already: now");
	/* 3 GPUs from 50 on: 1000 left, 333.3 s: spent at 384. */
	u.rate = 3 * M * M;
	u.since = 3 * M * M * 50;
	is_int(budget_spent_at(2000 * M, &u, 50), 50 + 334,
	    "rounded up to the second it is spent");
	ok(!budget_is_spent(2000 * M, budget_used(&u, 383)), "not at 383");
	ok(budget_is_spent(2000 * M, budget_used(&u, 384)), "spent at 384");
	/* A quarter of a GPU from 50 on: 1000 left, 4000 s. */
	u.rate = 250 * M;
	u.since = 250 * M * 50;
	is_int(budget_spent_at(2000 * M, &u, 50), 50 + 4000,
	    "a quarter of a GPU spends it in 4000 s");
	is_int(budget_percent(500, 2000), 25, "a quarter used");
	is_int(budget_percent(500, 0), 0, "no budget: 0%%");
}

static void
test_unit(void)
{
	uint64_t	s = 99;
	char		err[256];

	ok(budget_from_hours(500, &s, err, sizeof err) == 0 && s == 1800000,
	    "500 GPU-hours are 1,800,000 GPU-seconds");
	ok(budget_from_hours(0.5, &s, err, sizeof err) == 0 && s == 1800,
	    "0.5 GPU-hours are 30 GPU-minutes");
	ok(budget_from_hours(0.001, &s, err, sizeof err) == 0 && s == 4,
	    "0.001 GPU-hours round to 4 GPU-seconds (3.6)");
	ok(budget_from_hours(0, &s, err, sizeof err) == 0 && s == 0,
	    "0 is no budget");
	ok(budget_from_hours(0.0001, &s, err, sizeof err) == -1,
	    "below half a GPU-second is refused, not taken as none");
	is_str(err, "gpu_hours: 0.0001 is less than a GPU-second; expected 0 "
	    "(no budget), or 0.0003 (about a GPU-second) or more",
	    "the refusal says what is accepted");
	ok(budget_from_hours(-1, &s, err, sizeof err) == -1, "negative");
	ok(budget_from_hours(2e9, &s, err, sizeof err) == -1, "too large");
	is_str(err, "gpu_hours: expected 0 (no budget) to 1000000000 "
	    "GPU-hours, got 2e+09", "the refusal names the range");
	ok(budget_hours(5400) == 1.5, "5400 GPU-seconds are 1.5 GPU-hours");
}

/* Charged use, in thousandths of a GPU-second: the same rules with the
 * GPUs weighed by their QOS's factor (rates in millionths: thousandths
 * of GPUs x the factor's thousandths). */
static void
test_charged(void)
{
	struct budget_use	u;
	uint64_t		budget = 100 * BUDGET_MILLI;

	/* 2 GPUs at a factor of 0.5 and 1 at 2 since 0; 10 GPU-s done at
	 * a factor of 1. */
	memset(&u, 0, sizeof u);
	u.done = 10 * BUDGET_MILLI;
	u.rate = (2 * 500 + 1 * 2000) * M;
	is_int(budget_used(&u, 10), 10 * 1000 + 3000 * 10, "40 GPU-s charged "
	    "at 10: 10 done, 2 x 0.5 x 10 and 2 x 10 running");
	is_int(budget_spent_at(budget, &u, 10), 30, "the 100 GPU-s budget "
	    "spent 20 s on, at 3 charged GPU-s a second");
	ok(!budget_is_spent(budget, budget_used(&u, 29)) &&
	    budget_is_spent(budget, budget_used(&u, 30)), "spent at 30, not "
	    "at 29");
	/* Only a factor of 0 running: never spent by it. */
	u.rate = 0;
	is_int(budget_spent_at(budget, &u, 10), BUDGET_NEVER, "free GPUs "
	    "never spend it");
	ok(budget_charged_seconds(1500) == 1.5, "1500 thousandths are 1.5 "
	    "GPU-s");
}

int
main(void)
{
	test_months();
	test_used();
	test_spent();
	test_unit();
	test_charged();
	return (tap_done());
}
