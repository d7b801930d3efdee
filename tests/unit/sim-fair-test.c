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

/* The tree of t_norm: root -> A (2) -> a1 (1), a2 (3); B (1) -> b1 (1);
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

static void
t_norm(void)
{
	struct fair_tree	*t;
	size_t			 a1, a2, b1, c1, n;
	bool			*on;
	double			*share;
	char			 err[256];

	t = t_tree(&a1, &a2, &b1, &c1);
	is_int(fair_tree_shares(t, a2), 3, "a2 keeps its 3 shares");
	is_int(fair_tree_shares(t, b1), 1, "b1, not given, has 1");
	n = fair_tree_size(t);
	is_int(n, 9, "root, 4 accounts, 4 users");
	on = calloc(n, sizeof *on);
	share = calloc(n, sizeof *share);
	/* All active: A 2/4, B 1/4, C 1/4; a1 = 1/2 x 1/4, a2 = 1/2 x 3/4,
	 * c1 all of C1, all of C. */
	on[a1] = on[a2] = on[b1] = on[c1] = true;
	fair_tree_norm(t, on, share);
	is_near(share[a1], 0.125, "all active: a1 1/8");
	is_near(share[a2], 0.375, "all active: a2 3/8");
	is_near(share[b1], 0.25, "all active: b1 1/4");
	is_near(share[c1], 0.25, "all active: c1 1/4 through C1");
	/* a2 idle: its share stays in A (a1 takes all of A's 1/2); it does
	 * not spread to B and C. */
	on[a2] = false;
	fair_tree_norm(t, on, share);
	is_near(share[a1], 0.5, "a2 idle: a1 takes A's half");
	is_near(share[a2], 0, "a2 idle: none");
	is_near(share[b1], 0.25, "a2 idle: b1 still 1/4");
	/* c1 idle too: C (and C1) have no active user, so A and B split the
	 * root 2 : 1. */
	on[c1] = false;
	fair_tree_norm(t, on, share);
	is_near(share[a1], 2.0 / 3, "C idle: a1 2/3");
	is_near(share[b1], 1.0 / 3, "C idle: b1 1/3");
	is_near(share[c1], 0, "C idle: c1 none");
	/* Nothing active: all 0. */
	on[a1] = on[b1] = false;
	fair_tree_norm(t, on, share);
	ok(share[a1] == 0 && share[b1] == 0 && share[0] == 0,
	    "nothing active: every share 0");

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
	free(share);
	free(on);
	fair_tree_free(t);

	/* A user of no account is a sibling of the accounts: root -> A (3)
	 * -> a1, and r (1) under the root: a1 3/4, r 1/4. */
	t = fair_tree_create();
	ok(fair_tree_add_account(t, "A", NULL, 3, err, sizeof err) > 0,
	    "A is added");
	ok(fair_tree_add_user(t, "r", "", 1, err, sizeof err) > 0,
	    "r is added under the root");
	a1 = fair_tree_leaf(t, "A", "a1");
	ok(fair_tree_leaf(t, "", "r") == 2 && fair_tree_parent(t, 2) == 0,
	    "r is found under the root");
	n = fair_tree_size(t);
	on = calloc(n, sizeof *on);
	share = calloc(n, sizeof *share);
	on[a1] = on[2] = true;
	fair_tree_norm(t, on, share);
	is_near(share[a1], 0.75, "a1 3/4");
	is_near(share[2], 0.25, "r, beside A, 1/4");
	free(share);
	free(on);
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
 * a waits 0-100 s and runs 2 GPUs x 100 s then 1 GPU x 100 s, 300 GPU-s;
 * b waits 10-100 s and runs 1 GPU x 100 s. Delivered 400, each entitled
 * 200: a 1.5, b 0.5, min 0.5, Jain 0.8. */
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
	fair_usage_waited(u, a, 0, 100000);
	fair_usage_ran(u, a, 1, 100000, 200000);
	fair_usage_waited(u, b, 10000, 100000);
	fair_usage_ran(u, b, 1, 100000, 200000);
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
	fair_usage_waited(u, a, 0, 10000);
	fair_usage_ran(u, a, 4, 10000, 100000);
	fair_usage_figures(u, &f);
	is_int(f.windows_counted, 0, "one user alone: no window counts");
	ok(isnan(f.jain) && isnan(f.min_share), "nothing to measure: NAN");
	fair_figures_free(&f);
	fair_usage_free(u);
	fair_tree_free(t);
}

/* A user who runs and never waits competes (takes its share of the
 * window) but has no pair that counts: c runs 4 GPUs over 100 s; a and b
 * each wait and run 2 GPUs. Delivered 800, each of three entitled 800/3:
 * a and b 200 / (800/3) = 0.75. c's ratio is not measured: it got what it
 * asked for. */
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
	fair_usage_waited(u, a, 0, 50000);
	fair_usage_ran(u, a, 2, 0, 100000);
	fair_usage_waited(u, b, 0, 50000);
	fair_usage_ran(u, b, 2, 0, 100000);
	fair_usage_figures(u, &f);
	is_near(f.received[a] / f.entitled[a], 0.75, "a: 200 of 800/3");
	is_near(f.entitled[c], 0, "c never waited: no pair counts");
	is_near(f.jain, 1, "a and b alike: Jain 1");
	is_near(f.min_share, 0.75, "min 0.75");
	fair_figures_free(&f);
	fair_usage_free(u);

	/* A window where users wait but nothing runs is skipped. */
	u = fair_usage_create(t, 0, 6 * H);
	fair_usage_waited(u, a, 7 * H, 8 * H);
	fair_usage_waited(u, b, 7 * H, 8 * H);
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
	t_norm();
	t_jain();
	t_figures();
	t_satisfied();
	return (tap_done());
}
