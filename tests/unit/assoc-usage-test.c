/* assoc-usage-test.c: each account's use of its budget
 * (daemon/controller/assoc-usage.c): runs that end and runs under way,
 * a parent's budget spent by the accounts below it, a month's turn, a
 * re-adopted run, and when a judgment changes; each run charged at its
 * QOS's usage factor, and a reload that changes one. Times are seconds
 * within 2024-03 (from 1709251200) unless said. */
#include <string.h>

#include "daemon/controller/assoc-usage.h"
#include "tests/unit/tap.h"

#define MAR	1709251200	/* 2024-03-01 00:00 UTC */
#define APR	1711929600	/* 2024-04-01 00:00 UTC */
/* n GPUs (or GPU-seconds) in the thousandths the figures are kept in. */
#define G(n)	((n) * BUDGET_MILLI)

static void
add_account(struct assoc_tab *t, const char *name, const char *parent,
    uint64_t budget)
{
	struct assoc_account	a;

	memset(&a, 0, sizeof a);
	a.name = (char *)name;
	a.parent = (char *)parent;
	a.description = (char *)"";
	a.shares = 1;
	a.budget = budget;
	assoc_tab_account_put(t, &a);
}

/* The use of account t's account at index of name, at now, in whole
 * GPU-seconds. */
static uint64_t
used_of(struct assoc_usage *u, const struct assoc_tab *t, const char *name,
    int64_t now, uint32_t *jobs)
{
	struct assoc_usage_sum	 sums[8];
	const struct assoc_account *a = assoc_tab_account(t, name);

	assoc_usage_tree(u, t, now, sums);
	if (jobs != NULL)
		*jobs = sums[a - t->acc].jobs;
	return (budget_used(&sums[a - t->acc].use, now) / BUDGET_MILLI);
}

/* What account name (and those below it) was charged by now, in
 * GPU-seconds (the figures are thousandths). */
static double
charged_of(struct assoc_usage *u, const struct assoc_tab *t,
    const char *name, int64_t now)
{
	struct assoc_usage_sum	 sums[8];
	const struct assoc_account *a = assoc_tab_account(t, name);

	assoc_usage_tree(u, t, now, sums);
	return (budget_charged_seconds(budget_used(&sums[a - t->acc].charged,
	    now)));
}

/* The QOS of the tests below: normal (1, the default), high (2),
 * scavenger (0) and half (0.5); factor changes normal's. */
static struct qos t_qos[4];
static struct qoses t_qoses = { t_qos, 4 };

static void
set_qos(double factor)
{
	static const char *const names[] = { "normal", "high", "scavenger",
	    "half" };
	static const double factors[] = { 1, 2, 0, 0.5 };
	size_t	i;

	memset(t_qos, 0, sizeof t_qos);
	for (i = 0; i < 4; i++) {
		t_qos[i].name = (char *)names[i];
		t_qos[i].usage_factor = factors[i];
	}
	t_qos[0].is_default = true;
	t_qos[0].usage_factor = factor;
}

/* A new use at now, under t_qos with normal's factor factor. */
static struct assoc_usage *
usage_at(int64_t now, double factor)
{
	struct assoc_usage	*u = assoc_usage_create(now);

	set_qos(factor);
	assoc_usage_weigh(u, &t_qoses, now);
	return (u);
}

static void
is_real(double got, double want, const char *what)
{
	ok(got == want, "%s (got %g, want %g)", what, got, want);
}

static void
test_tree(void)
{
	struct assoc_tab	 t;
	struct assoc_usage	*u;
	uint32_t		 jobs;

	memset(&t, 0, sizeof t);
	add_account(&t, "science", "", 0);
	add_account(&t, "phys", "science", 0);
	add_account(&t, "chem", "science", 0);
	u = assoc_usage_create(MAR + 10);
	/* From the store: 1000 GPU-s of phys's runs ended this month. */
	assoc_usage_add(u, "phys", "", G(1000), MAR + 10);
	/* chem: 2 GPUs from MAR + 100; phys: 4 GPUs from MAR + 200. */
	assoc_usage_run_start(u, "chem", "", G(2), MAR + 100, MAR + 100);
	assoc_usage_run_start(u, "phys", "", G(4), MAR + 200, MAR + 200);
	/* An account not in the table counts for itself alone; none
	 * counts nowhere. */
	assoc_usage_run_start(u, "other", "", G(1), MAR + 200, MAR + 200);
	assoc_usage_run_start(u, "", "", G(8), MAR + 200, MAR + 200);
	is_int(used_of(u, &t, "chem", MAR + 300, &jobs), 400,
	    "chem: 2 GPUs x 200 s so far");
	is_int(jobs, 1, "chem: one run under way");
	is_int(used_of(u, &t, "phys", MAR + 300, NULL), 1000 + 400,
	    "phys: done plus 4 GPUs x 100 s");
	is_int(used_of(u, &t, "science", MAR + 300, &jobs), 1800,
	    "science: its own (none) and both below it");
	is_int(jobs, 2, "science: the two runs below it");
	/* chem's run ends: its part is done, and no longer grows. */
	assoc_usage_run_end(u, "chem", "", G(2), MAR + 100, MAR + 400);
	is_int(used_of(u, &t, "chem", MAR + 1000, &jobs), 600,
	    "chem: 2 GPUs x 300 s, done");
	is_int(jobs, 0, "chem: none under way");
	is_int(used_of(u, &t, "science", MAR + 1000, NULL),
	    600 + 1000 + 4 * 800, "science after chem's end");
	assoc_usage_free(u);
	assoc_tab_free(&t);
}

static void
test_month(void)
{
	struct assoc_tab	 t;
	struct assoc_usage	*u;

	memset(&t, 0, sizeof t);
	add_account(&t, "phys", "", 0);
	/* A run from 100 s before April, and 5000 GPU-s done in March. */
	u = assoc_usage_create(APR - 500);
	assoc_usage_add(u, "phys", "", G(5000), APR - 500);
	assoc_usage_run_start(u, "phys", "", G(2), APR - 100, APR - 100);
	is_int(assoc_usage_month(u, APR - 1), MAR, "March's figures");
	is_int(used_of(u, &t, "phys", APR - 1, NULL), 5000 + 2 * 99,
	    "a second before April");
	/* April: March's use is gone, the run counts from April 1. */
	is_int(used_of(u, &t, "phys", APR + 50, NULL), 2 * 50,
	    "April: only the run's part since its start");
	is_int(assoc_usage_month(u, APR + 50), APR, "April's figures");
	assoc_usage_run_end(u, "phys", "", G(2), APR - 100, APR + 60);
	is_int(used_of(u, &t, "phys", APR + 1000, NULL), 2 * 60,
	    "its end adds only its part in April");
	/* A clock stepped back into March changes nothing. */
	is_int(assoc_usage_month(u, APR - 10), APR, "no month back");
	assoc_usage_free(u);
	assoc_tab_free(&t);
}

static void
test_reopen(void)
{
	struct assoc_tab	 t;
	struct assoc_usage	*u;

	memset(&t, 0, sizeof t);
	add_account(&t, "phys", "", 0);
	u = assoc_usage_create(MAR);
	/* Ran from 100, requeued at 300 (its node lost), found running
	 * when the node came back at 500: one run from 100 on. */
	assoc_usage_run_start(u, "phys", "", G(1), MAR + 100, MAR + 100);
	assoc_usage_run_end(u, "phys", "", G(1), MAR + 100, MAR + 300);
	is_int(used_of(u, &t, "phys", MAR + 500, NULL), 200, "ended: 200");
	assoc_usage_run_reopen(u, "phys", "", G(1), MAR + 100, MAR + 300, MAR + 500);
	is_int(used_of(u, &t, "phys", MAR + 500, NULL), 400,
	    "re-adopted: one run of 400 s so far, not 200 twice");
	assoc_usage_run_end(u, "phys", "", G(1), MAR + 100, MAR + 600);
	is_int(used_of(u, &t, "phys", MAR + 900, NULL), 500, "ended at 600");
	assoc_usage_free(u);
	assoc_tab_free(&t);
}

static void
test_judge(void)
{
	struct assoc_tab	 t;
	struct assoc_account	 a;
	struct assoc_usage	*u;
	const char		*who = NULL;

	memset(&t, 0, sizeof t);
	/* science: 1000 GPU-s for all of it; phys below, no budget of its
	 * own; chem 100 of its own. */
	add_account(&t, "science", "", 1000);
	add_account(&t, "phys", "science", 0);
	add_account(&t, "chem", "science", 100);
	u = assoc_usage_create(MAR);
	ok(!assoc_usage_judge(u, &t, MAR, false), "nothing spent at first");
	is_int(assoc_usage_next(u), BUDGET_NEVER, "nothing runs: never");
	ok(!assoc_usage_held(u, &t, "phys", NULL), "phys's jobs may start");
	/* phys runs 2 GPUs from MAR: science's 1000 spent at MAR + 500. */
	assoc_usage_run_start(u, "phys", "", G(2), MAR, MAR);
	ok(!assoc_usage_judge(u, &t, MAR, false), "a start spends nothing");
	is_int(assoc_usage_next(u), MAR + 500, "spent at MAR + 500");
	ok(!assoc_usage_judge(u, &t, MAR + 499, false), "not at 499");
	ok(assoc_usage_judge(u, &t, MAR + 500, false), "spent at 500: a "
	    "change");
	ok(assoc_usage_held(u, &t, "phys", &who), "phys's jobs wait");
	is_str(who, "science", "for science's budget");
	ok(assoc_usage_held(u, &t, "chem", &who), "so do chem's");
	ok(!assoc_usage_held(u, &t, "other", NULL), "an account outside "
	    "the tree does not");
	ok(!assoc_usage_held(u, &t, "", NULL), "nor a job of no account");
	is_int(assoc_usage_next(u), APR, "then April, when it is no longer");
	ok(!assoc_usage_judge(u, &t, MAR + 600, false), "still spent: no "
	    "change");
	/* Raised: judged again when told the table changed. */
	a = *assoc_tab_account(&t, "science");
	a.budget = 3000;
	assoc_tab_account_put(&t, &a);
	ok(!assoc_usage_judge(u, &t, MAR + 700, false), "unseen until "
	    "forced");
	ok(assoc_usage_judge(u, &t, MAR + 700, true), "raised: a change");
	ok(!assoc_usage_held(u, &t, "phys", NULL), "phys's jobs may start "
	    "again");
	is_int(assoc_usage_next(u), MAR + 1500, "3000 spent at MAR + 1500");
	/* chem's own budget: spent by chem alone. */
	assoc_usage_add(u, "chem", "", G(100), MAR + 800);
	ok(assoc_usage_judge(u, &t, MAR + 800, false), "chem spent its own");
	ok(assoc_usage_held(u, &t, "chem", &who), "chem's jobs wait");
	is_str(who, "chem", "for chem's own budget");
	ok(!assoc_usage_held(u, &t, "phys", NULL), "phys's do not");
	/* The month turns: nothing is spent. */
	ok(assoc_usage_judge(u, &t, APR, false), "April: a change");
	ok(!assoc_usage_held(u, &t, "chem", NULL), "chem's jobs may start");
	assoc_usage_free(u);
	assoc_tab_free(&t);
}

/* Each run is charged at its QOS's factor: a scavenger's not at all, a
 * high one's twice; the raw figures count them all alike. */
static void
test_factors(void)
{
	struct assoc_tab	 t;
	struct assoc_usage	*u;
	const char		*who = NULL;

	memset(&t, 0, sizeof t);
	add_account(&t, "phys", "", 1000);
	u = usage_at(MAR, 1);
	/* From the store: 300 GPU-s of scavenger's, 100 of half's. */
	assoc_usage_add(u, "phys", "scavenger", G(300), MAR);
	assoc_usage_add(u, "phys", "half", G(100), MAR);
	is_int(used_of(u, &t, "phys", MAR, NULL), 400, "400 GPU-s as run");
	is_real(charged_of(u, &t, "phys", MAR), 50, "50 charged: 0 x 300 + "
	    "0.5 x 100");
	/* 8 scavenger GPUs for a day: nothing charged, never spent. */
	assoc_usage_run_start(u, "phys", "scavenger", G(8), MAR, MAR);
	ok(!assoc_usage_judge(u, &t, MAR + 86400, false), "8 free GPUs for a "
	    "day spend no budget");
	is_int(used_of(u, &t, "phys", MAR + 86400, NULL), 400 + 8 * 86400,
	    "though they are counted as run");
	is_int(assoc_usage_next(u), BUDGET_NEVER, "and never will");
	/* One normal GPU ('' is the default's), one high: 3 a second. */
	assoc_usage_run_start(u, "phys", "", G(1), MAR + 86400, MAR + 86400);
	assoc_usage_run_start(u, "phys", "high", G(1), MAR + 86400, MAR + 86400);
	ok(!assoc_usage_judge(u, &t, MAR + 86400, false), "not spent yet");
	/* 950 left at 3 a second: 317 s, rounded up. */
	is_int(assoc_usage_next(u), MAR + 86400 + 317, "spent 317 s on");
	ok(assoc_usage_judge(u, &t, MAR + 86400 + 317, false) &&
	    assoc_usage_held(u, &t, "phys", &who), "then spent");
	is_real(charged_of(u, &t, "phys", MAR + 86400 + 317), 50 + 3 * 317,
	    "at 50 + 3 x 317");
	/* The high run ends: 2 x 400 charged for it, done. */
	assoc_usage_run_end(u, "phys", "high", G(1), MAR + 86400,
	    MAR + 86400 + 400);
	is_real(charged_of(u, &t, "phys", MAR + 86400 + 500), 50 + 2 * 400 +
	    500, "high's 400 s at 2, normal's 500 at 1");
	assoc_usage_free(u);
	assoc_tab_free(&t);
}

/* A reload that changes a factor charges the runs under way at the new
 * one from then on, and leaves what was charged before. */
static void
test_reweigh(void)
{
	struct assoc_tab	 t;
	struct assoc_usage	*u;

	memset(&t, 0, sizeof t);
	add_account(&t, "phys", "", 0);
	add_account(&t, "chem", "", 3000);
	u = usage_at(MAR, 1);
	assoc_usage_add(u, "phys", "normal", G(1000), MAR);
	assoc_usage_run_start(u, "phys", "normal", G(2), MAR + 100, MAR + 100);
	assoc_usage_run_start(u, "phys", "high", G(1), MAR + 100, MAR + 100);
	/* At 200 normal becomes 3. */
	set_qos(3);
	assoc_usage_weigh(u, &t_qoses, MAR + 200);
	is_real(charged_of(u, &t, "phys", MAR + 300), 1000 + 2 * 100 * 1 +
	    2 * 100 * 3 + 1 * 200 * 2, "the ended runs as they were, the "
	    "normal run's 100 s at 1 then 100 at 3, high's at 2 throughout");
	is_int(used_of(u, &t, "phys", MAR + 300, NULL), 1000 + 2 * 200 + 200,
	    "as run: unchanged by the factors");
	/* Its end finds what its start and the fold left. */
	assoc_usage_run_end(u, "phys", "normal", G(2), MAR + 100, MAR + 400);
	is_real(charged_of(u, &t, "phys", MAR + 1000), 1000 + 200 + 2 * 200 *
	    3 + 1 * 900 * 2, "ended at 400: 200 at 1, 400 at 3");
	is_int(used_of(u, &t, "phys", MAR + 1000, NULL), 1000 + 600 + 900,
	    "and 600 GPU-s as run");
	/* A run started after the reload: at 3 from its start. */
	assoc_usage_run_start(u, "chem", "", G(1), MAR + 1000, MAR + 1000);
	ok(!assoc_usage_judge(u, &t, MAR + 1000, true), "chem: not spent");
	is_int(assoc_usage_next(u), MAR + 2000, "chem's 3000 spent in 1000 s "
	    "at 3");
	/* Back to 1 with nothing of normal's... but chem's running: a
	 * fold, and 1 a second from now. */
	set_qos(1);
	assoc_usage_weigh(u, &t_qoses, MAR + 1500);
	ok(!assoc_usage_judge(u, &t, MAR + 1500, false), "not spent at 1500");
	is_int(assoc_usage_next(u), MAR + 3000, "1500 charged, 1500 left at "
	    "1 a second");
	/* A run re-adopted across the fold: taken back from the fold on,
	 * and counted again from there. */
	assoc_usage_run_end(u, "chem", "", G(1), MAR + 1000, MAR + 1600);
	assoc_usage_run_reopen(u, "chem", "", G(1), MAR + 1000, MAR + 1600,
	    MAR + 1700);
	is_real(charged_of(u, &t, "chem", MAR + 1700), 1500 + 200,
	    "500 at 3, then 200 at 1");
	assoc_usage_free(u);
	assoc_tab_free(&t);
}

/* A change of a factor of a QOS with nothing running charges nothing
 * again, and the month's turn starts the charges afresh. */
static void
test_reweigh_idle(void)
{
	struct assoc_tab	 t;
	struct assoc_usage	*u;

	memset(&t, 0, sizeof t);
	add_account(&t, "phys", "", 0);
	u = usage_at(APR - 1000, 1);
	assoc_usage_add(u, "phys", "half", G(100), APR - 1000);
	assoc_usage_run_start(u, "phys", "high", G(1), APR - 100, APR - 100);
	set_qos(5);
	assoc_usage_weigh(u, &t_qoses, APR - 50);
	is_real(charged_of(u, &t, "phys", APR - 10), 50 + 2 * 90,
	    "normal's factor, unused, changes nothing");
	is_real(charged_of(u, &t, "phys", APR + 10), 2 * 10, "April: the run "
	    "alone, from April 1");
	assoc_usage_free(u);
	assoc_tab_free(&t);
}

/* A job of shards holds its fraction of a GPU: half of one (2 of 4
 * shards) and a third (333 thousandths, rounded) charge their part, as
 * run and at their QOS's factor, and spend a budget at that rate. */
static void
test_shards(void)
{
	struct assoc_tab	 t;
	struct assoc_usage	*u;
	uint32_t		 jobs;

	memset(&t, 0, sizeof t);
	add_account(&t, "phys", "", 1000);
	u = usage_at(MAR, 1);
	assoc_usage_run_start(u, "phys", "", 500, MAR + 100, MAR + 100);
	is_int(used_of(u, &t, "phys", MAR + 400, &jobs), 150,
	    "half a GPU for 300 s: 150 GPU-s");
	is_int(jobs, 1, "one run under way");
	ok(!assoc_usage_judge(u, &t, MAR + 100, false), "not spent");
	is_int(assoc_usage_next(u), MAR + 100 + 2000, "1000 GPU-s at half a "
	    "GPU-second a second: 2000 s on");
	assoc_usage_run_start(u, "phys", "high", 333, MAR + 400, MAR + 400);
	is_real(charged_of(u, &t, "phys", MAR + 1000), 450 + 2 * 0.333 * 600,
	    "a third of a GPU at a factor of 2 for 600 s beside it");
	assoc_usage_run_end(u, "phys", "high", 333, MAR + 400, MAR + 1000);
	assoc_usage_run_end(u, "phys", "", 500, MAR + 100, MAR + 1100);
	is_int(used_of(u, &t, "phys", MAR + 5000, &jobs), 500 + 199,
	    "ended: 500 GPU-s and 199.8, counted to the whole GPU-second");
	is_int(jobs, 0, "none under way: the fractions came off whole");
	is_real(charged_of(u, &t, "phys", MAR + 5000), 500 + 399.6,
	    "charged: 500 and 2 x 199.8");
	assoc_usage_free(u);
	assoc_tab_free(&t);
}

int
main(void)
{
	test_tree();
	test_shards();
	test_month();
	test_reopen();
	test_judge();
	test_factors();
	test_reweigh();
	test_reweigh_idle();
	return (tap_done());
}
