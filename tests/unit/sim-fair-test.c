/* sim-fair-test.c: gsim's fairness figures (sim/fair-tree.c, sim/fair.c):
 * GPU-time split at window boundaries, shares renormalised over the active
 * part of the tree, Jain's index, and the figures of small replays worked
 * out by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/fair.h"
#include "tests/unit/tap.h"

#define H	(3600 * INT64_C(1000))

/* Whether a and b agree to 1e-9. */
static int
t_near(double a, double b)
{
	return (fabs(a - b) < 1e-9);
}

#define is_near(got, want, ...) do {					\
	double t_g = (got), t_w = (want);				\
	if (!ok(t_near(t_g, t_w), __VA_ARGS__))				\
		printf("#   got %.12g, want %.12g\n", t_g, t_w);	\
} while (0)

static void
t_windows(void)
{
	struct fair_tree	*t = fair_tree_create();
	struct fair_usage	*u;
	size_t			 a;

	a = fair_tree_leaf(t, "", "a");
	u = fair_usage_create(t, 1000, 6 * H);
	/* 2 GPUs from 5 h to 13 h after the origin: 1 h in window 0, all 6
	 * of window 1, 1 h of window 2. */
	fair_usage_ran(u, a, 2, 1000 + 5 * H, 1000 + 13 * H);
	is_int(fair_usage_windows(u), 3, "a run over 5-13 h reaches window 2");
	is_int(fair_usage_gpu_ms(u, a, 0), 2 * H, "window 0: 1 h x 2 GPUs");
	is_int(fair_usage_gpu_ms(u, a, 1), 12 * H, "window 1: 6 h x 2 GPUs");
	is_int(fair_usage_gpu_ms(u, a, 2), 2 * H, "window 2: 1 h x 2 GPUs");
	is_int(fair_usage_gpu_ms(u, a, 3), 0, "past the last window: 0");
	/* Ending on a boundary touches nothing after it; starting on one
	 * touches nothing before it. */
	fair_usage_ran(u, a, 1, 1000 + 17 * H, 1000 + 18 * H);
	is_int(fair_usage_windows(u), 3, "a run ending on a boundary stays in "
	    "window 2");
	fair_usage_ran(u, a, 1, 1000 + 18 * H, 1000 + 19 * H);
	is_int(fair_usage_windows(u), 4, "a run starting on a boundary is in "
	    "window 3");
	is_int(fair_usage_gpu_ms(u, a, 2), 3 * H, "window 2: 1 h x 2, 1 h x 1");
	is_int(fair_usage_gpu_ms(u, a, 3), H, "window 3: 1 h x 1");
	/* Before the origin counts from it. */
	fair_usage_ran(u, a, 1, 0, 1000 + H);
	is_int(fair_usage_gpu_ms(u, a, 0), 3 * H, "before the origin: from it");
	fair_usage_free(u);
	fair_tree_free(t);
}

/* The tree of t_shares: root -> A (2) -> a1 (1), a2 (3); B (1) -> b1 (1);
 * C (1) -> C1 (1) -> c1 (1). */
static struct fair_tree *
t_tree(size_t *a1, size_t *a2, size_t *b1, size_t *c1)
{
	struct fair_tree	*t = fair_tree_create();
	char			 err[256];

	ok(fair_tree_add_account(t, "A", NULL, 2, err, sizeof err) > 0 &&
	    fair_tree_add_account(t, "B", "", 1, err, sizeof err) > 0 &&
	    fair_tree_add_account(t, "C", NULL, 1, err, sizeof err) > 0 &&
	    fair_tree_add_account(t, "C1", "C", 1, err, sizeof err) > 0 &&
	    fair_tree_add_user(t, "a1", "A", 1, err, sizeof err) > 0 &&
	    fair_tree_add_user(t, "a2", "A", 3, err, sizeof err) > 0,
	    "the tree is built");
	*a1 = fair_tree_leaf(t, "A", "a1");
	*a2 = fair_tree_leaf(t, "A", "a2");
	*b1 = fair_tree_leaf(t, "B", "b1");
	*c1 = fair_tree_leaf(t, "C1", "c1");
	return (t);
}

/* Shares 100 out over t_tree's users, each wanting want[] (indexed a1,
 * a2, b1, c1), into got[] likewise. */
static void
t_fill(struct fair_tree *t, const size_t *node, const double *want,
    double *got)
{
	size_t	 i, n = fair_tree_size(t);
	double	*w = calloc(n, sizeof *w), *alloc = calloc(n, sizeof *alloc);

	for (i = 0; i < 4; i++)
		w[node[i]] = want[i];
	fair_tree_fill(t, w, 100, alloc);
	for (i = 0; i < 4; i++)
		got[i] = alloc[node[i]];
	free(alloc);
	free(w);
}

static void
t_shares(void)
{
	struct fair_tree	*t;
	size_t			 node[4], a1;
	double			 got[4], *w, *alloc;
	char			 err[256];

	t = t_tree(&node[0], &node[1], &node[2], &node[3]);
	is_int(fair_tree_shares(t, node[1]), 3, "a2 keeps its 3 shares");
	is_int(fair_tree_shares(t, node[2]), 1, "b1, not given, has 1");
	is_int(fair_tree_size(t), 9, "root, 4 accounts, 4 users");
	/* Everyone wants more than 100: A 2/4, B 1/4, C 1/4; a1 1/4 of A's
	 * 50, a2 3/4 of it; c1 all of C1's, all of C's. */
	t_fill(t, node, (double []){ 1000, 1000, 1000, 1000 }, got);
	is_near(got[0], 12.5, "all want: a1 1/8");
	is_near(got[1], 37.5, "all want: a2 3/8");
	is_near(got[2], 25, "all want: b1 1/4");
	is_near(got[3], 25, "all want: c1 1/4 through C1");
	/* a2 wants nothing: its share stays in A (a1 takes all of A's 50);
	 * it does not spread to B and C. */
	t_fill(t, node, (double []){ 1000, 0, 1000, 1000 }, got);
	is_near(got[0], 50, "a2 idle: a1 takes A's half");
	is_near(got[1], 0, "a2 idle: none");
	is_near(got[2], 25, "a2 idle: b1 still 1/4");
	/* c1 too: C has nobody, so A and B split the root 2 : 1. */
	t_fill(t, node, (double []){ 1000, 0, 1000, 0 }, got);
	is_near(got[0], 200.0 / 3, "C idle: a1 2/3");
	is_near(got[2], 100.0 / 3, "C idle: b1 1/3");
	is_near(got[3], 0, "C idle: c1 none");
	/* b1 wants 5: B keeps 5 and the 95 left go to A and C, 2 : 1, then
	 * down: a1 1/4 and a2 3/4 of A's 63.33. */
	t_fill(t, node, (double []){ 1000, 1000, 5, 1000 }, got);
	is_near(got[2], 5, "b1 capped at what it wants");
	is_near(got[3], 95.0 / 3, "c1: 1/3 of the 95 left");
	is_near(got[0], 95.0 * 2 / 3 / 4, "a1: 1/4 of A's 2/3 of 95");
	is_near(got[1], 95.0 * 2 / 3 * 3 / 4, "a2: 3/4 of it");
	/* a2 wants 10: A still has its 50, and a1 takes what a2 leaves; B
	 * and C keep 25 each. */
	t_fill(t, node, (double []){ 1000, 10, 1000, 1000 }, got);
	is_near(got[1], 10, "a2 capped at 10");
	is_near(got[0], 40, "a1 takes the rest of A's 50");
	is_near(got[2], 25, "b1 keeps 1/4");
	/* Wanting less than there is: each gets what it wants. */
	t_fill(t, node, (double []){ 10, 0, 20, 0 }, got);
	ok(t_near(got[0], 10) && t_near(got[2], 20) && got[1] == 0,
	    "less wanted than there is: each its want");
	t_fill(t, node, (double []){ 0, 0, 0, 0 }, got);
	ok(got[0] == 0 && got[2] == 0, "nothing wanted: nothing given");

	ok(fair_tree_add_account(t, "A", NULL, 1, err, sizeof err) == -1,
	    "an account is given once");
	is_str(err, "account \"A\" is given twice", "its error");
	ok(fair_tree_add_account(t, "D", "Z", 1, err, sizeof err) == -1,
	    "a parent must be an account");
	is_str(err, "account \"D\": parent \"Z\" is no account", "its error");
	ok(fair_tree_add_user(t, "a1", "A", 1, err, sizeof err) == -1,
	    "a user is given once in an account");
	ok(fair_tree_add_user(t, "a1", "B", 1, err, sizeof err) > 0,
	    "the same user may be in another account");
	fair_tree_free(t);

	/* A user of no account is a sibling of the accounts: root -> A (3)
	 * -> a1, and r (1) under the root: a1 75, r 25. */
	t = fair_tree_create();
	ok(fair_tree_add_account(t, "A", NULL, 3, err, sizeof err) > 0,
	    "A is added");
	ok(fair_tree_add_user(t, "r", "", 1, err, sizeof err) > 0,
	    "r is added under the root");
	a1 = fair_tree_leaf(t, "A", "a1");
	ok(fair_tree_leaf(t, "", "r") == 2 && fair_tree_parent(t, 2) == 0,
	    "r is found under the root");
	w = calloc(fair_tree_size(t), sizeof *w);
	alloc = calloc(fair_tree_size(t), sizeof *alloc);
	w[a1] = w[2] = 1000;
	fair_tree_fill(t, w, 100, alloc);
	is_near(alloc[a1], 75, "a1 3/4");
	is_near(alloc[2], 25, "r, beside A, 1/4");
	free(alloc);
	free(w);
	fair_tree_free(t);
}

static void
t_jain(void)
{
	double	x[3];

	x[0] = x[1] = x[2] = 0.7;
	is_near(fair_jain(x, 3), 1, "all equal: 1");
	x[0] = 1.5;
	x[1] = 0.5;
	/* (1.5 + 0.5)^2 / (2 x (2.25 + 0.25)) = 4 / 5 */
	is_near(fair_jain(x, 2), 0.8, "1.5 and 0.5: 0.8");
	x[0] = 3;
	x[1] = 1;
	x[2] = 0;
	/* 4^2 / (3 x 10) */
	is_near(fair_jain(x, 3), 16.0 / 30, "3, 1, 0: 16/30");
	x[0] = 2;
	x[1] = 0;
	is_near(fair_jain(x, 2), 0.5, "one has all of two: 1/2");
	ok(isnan(fair_jain(x, 0)), "no user: NAN");
	x[0] = 0;
	ok(isnan(fair_jain(x, 2)), "all 0: NAN");
}

/* Two users, equal shares, one window (gsim.bats has the same replay):
 * a's 1-GPU job waits 0-100 s while its 2-GPU job runs, then runs 100 s:
 * 300 GPU-s run, 400 wanted; b's 1-GPU job waits 0-100 s and runs 100 s:
 * 100 run, 200 wanted. Delivered 400, 200 each (neither wants less):
 * a 1.5, b 0.5, min 0.5, Jain 0.8. */
static void
t_figures(void)
{
	struct fair_tree	*t = fair_tree_create();
	struct fair_usage	*u;
	struct fair_figures	 f;
	size_t			 a, b, acct;

	a = fair_tree_leaf(t, "", "a");
	b = fair_tree_leaf(t, "", "b");
	acct = fair_tree_parent(t, a);
	u = fair_usage_create(t, 0, 6 * H);
	fair_usage_ran(u, a, 2, 0, 100000);
	fair_usage_waited(u, a, 1, 0, 100000);
	fair_usage_ran(u, a, 1, 100000, 200000);
	fair_usage_waited(u, b, 1, 0, 100000);
	fair_usage_ran(u, b, 1, 100000, 200000);
	is_int(fair_usage_want_ms(u, a, 0), 400000, "a wanted 400 GPU-s");
	is_int(fair_usage_want_ms(u, b, 0), 200000, "b wanted 200 GPU-s");
	fair_usage_figures(u, &f);
	is_near(f.received[a], 300000, "a received 300 GPU-s");
	is_near(f.entitled[a], 200000, "a entitled 200 GPU-s");
	is_near(f.received[b] / f.entitled[b], 0.5, "b: 0.5");
	is_near(f.min_share, 0.5, "min window share 0.5");
	is_near(f.jain, 0.8, "Jain 0.8");
	is_int(acct, FAIR_TREE_ROOT, "no account: under the root itself");
	is_near(f.entitled[acct], 400000, "the root: its users' sum");
	is_int(f.gpu_ms[acct], 400000, "the root ran 400 GPU-s");
	is_int(f.windows_counted, 1, "one window counts");
	fair_figures_free(&f);
	fair_usage_free(u);

	/* One user alone competes with nobody: no window counts. */
	u = fair_usage_create(t, 0, 6 * H);
	fair_usage_waited(u, a, 4, 0, 10000);
	fair_usage_ran(u, a, 4, 10000, 100000);
	fair_usage_figures(u, &f);
	is_int(f.windows_counted, 0, "one user alone: no window counts");
	ok(isnan(f.jain) && isnan(f.min_share), "nothing to measure: NAN");
	fair_figures_free(&f);
	fair_usage_free(u);
	fair_tree_free(t);
}

/* A user who runs and never waits competes but has no pair that counts:
 * c runs 4 GPUs over 100 s; a and b each run 2 GPUs over 100 s while a
 * 2-GPU job waits 50 s: 300 GPU-s wanted each. Delivered 800, each of
 * three due 800/3 (all want more): a and b 200 / (800/3) = 0.75. c's
 * ratio is not measured: it got what it asked for. */
static void
t_satisfied(void)
{
	struct fair_tree	*t = fair_tree_create();
	struct fair_usage	*u;
	struct fair_figures	 f;
	size_t			 a, b, c;

	a = fair_tree_leaf(t, "", "a");
	b = fair_tree_leaf(t, "", "b");
	c = fair_tree_leaf(t, "", "c");
	u = fair_usage_create(t, 0, 6 * H);
	fair_usage_ran(u, c, 4, 0, 100000);
	fair_usage_waited(u, a, 2, 0, 50000);
	fair_usage_ran(u, a, 2, 0, 100000);
	fair_usage_waited(u, b, 2, 0, 50000);
	fair_usage_ran(u, b, 2, 0, 100000);
	fair_usage_figures(u, &f);
	is_near(f.received[a] / f.entitled[a], 0.75, "a: 200 of 800/3");
	is_near(f.entitled[c], 0, "c never waited: no pair counts");
	is_near(f.jain, 1, "a and b alike: Jain 1");
	is_near(f.min_share, 0.75, "min 0.75");
	fair_figures_free(&f);
	fair_usage_free(u);

	/* c wants one GPU and holds it: it is due no more than its 100
	 * GPU-s, and a and b split the other 400 of the 500 delivered: 200
	 * each, what they got. */
	u = fair_usage_create(t, 0, 6 * H);
	fair_usage_ran(u, c, 1, 0, 100000);
	fair_usage_waited(u, a, 2, 0, 50000);
	fair_usage_ran(u, a, 2, 0, 100000);
	fair_usage_waited(u, b, 2, 0, 50000);
	fair_usage_ran(u, b, 2, 0, 100000);
	fair_usage_figures(u, &f);
	is_near(f.min_share, 1, "c wants less than its share: a and b 1");
	is_near(f.entitled[a], 200000, "a due 200 GPU-s");
	is_near(f.jain, 1, "Jain 1");
	fair_figures_free(&f);
	fair_usage_free(u);

	/* b wants less than its share (a 1-GPU job that waits 10 s, then
	 * runs 100 s, beside a's 3 GPUs running and a 4-GPU job waiting):
	 * delivered 400, b due only its 110 wanted, a the other 290 of
	 * which it got 300: b 100 / 110, a 300 / 290. */
	u = fair_usage_create(t, 0, 6 * H);
	fair_usage_waited(u, b, 1, 0, 10000);
	fair_usage_ran(u, b, 1, 10000, 110000);
	fair_usage_ran(u, a, 3, 0, 100000);
	fair_usage_waited(u, a, 4, 0, 100000);
	fair_usage_figures(u, &f);
	is_near(f.entitled[b], 110000, "b due what it wanted");
	is_near(f.entitled[a], 290000, "a due the rest");
	is_near(f.min_share, 100.0 / 110, "min: b's 100 / 110");
	fair_figures_free(&f);
	fair_usage_free(u);

	/* A window where users wait but nothing runs is skipped. */
	u = fair_usage_create(t, 0, 6 * H);
	fair_usage_waited(u, a, 1, 7 * H, 8 * H);
	fair_usage_waited(u, b, 1, 7 * H, 8 * H);
	fair_usage_figures(u, &f);
	is_int(f.windows, 2, "two windows seen");
	is_int(f.windows_counted, 0, "nothing delivered: none counts");
	fair_figures_free(&f);
	fair_usage_free(u);
	fair_tree_free(t);
}

int
main(void)
{
	t_windows();
	t_shares();
	t_jain();
	t_figures();
	t_satisfied();
	return (tap_done());
}
