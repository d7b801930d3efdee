/* fairshare-test.c: policy/fairshare.c's decay, tree and Fair Tree
 * ranking. Every expected figure is worked out by hand in the comment
 * above its check: LF = (shares / siblings' shares) / (usage / siblings'
 * usage), siblings sorted by LF, leaves placed depth first; standing =
 * leaves placed before the leaf's tie, factor = (N - standing) / N. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/fairshare.h"
#include "tests/unit/tap.h"

#define is_real(got, want, ...) do {					\
	double tap_gd = (got), tap_wd = (want);				\
	if (!ok(tap_gd == tap_wd ||					\
	    fabs(tap_gd - tap_wd) <= 1e-9 * fmax(1, fabs(tap_wd)),	\
	    __VA_ARGS__))						\
		printf("#   got %.12g, want %.12g\n", tap_gd, tap_wd);	\
} while (0)

#define T_HOUR	3600000		/* ms */
#define T_NELEM(a)	(sizeof (a) / sizeof (a)[0])

static struct fairshare *
t_tree(const struct fairshare_account *acc, size_t nacc,
    const struct fairshare_user *usr, size_t nusr)
{
	struct fairshare	*fs = fairshare_create(0);
	char			 err[256] = "";

	if (fairshare_set_tree(fs, acc, nacc, usr, nusr, err,
	    sizeof err) == -1)
		printf("# t_tree: %s\n", err);
	return (fs);
}

/* The report's row of user (NULL: the account's) under account; a zeroed
 * row with depth 99 when there is none. */
static struct fairshare_row
t_row(const struct fairshare *fs, const char *user, const char *account,
    int64_t now)
{
	struct fairshare_row	*rows, r;
	size_t			 n, i;

	memset(&r, 0, sizeof r);
	r.depth = 99;
	rows = fairshare_report(fs, now, &n);
	for (i = 0; i < n; i++) {
		if (strcmp(rows[i].account, account) == 0 &&
		    (user == NULL ? rows[i].user == NULL :
		    rows[i].user != NULL && strcmp(rows[i].user, user) == 0))
			r = rows[i];
	}
	free(rows);
	return (r);
}

static void
t_decay(void)
{
	struct fairshare	*fs = fairshare_create(1000);

	/* 1000 at 0: 500 after one half-life, 250 after two. */
	fairshare_charge(fs, "u", "", 1000, 0);
	is_real(fairshare_usage(fs, "u", "", 0), 1000, "decay: at the charge");
	is_real(fairshare_usage(fs, "u", "", 1000), 500,
	    "decay: one half-life halves");
	is_real(fairshare_usage(fs, "u", "", 2000), 250,
	    "decay: two half-lives quarter");
	/* 500 left at 1000, plus 1000: 1500; 750 at 2000. */
	fairshare_charge(fs, "u", "", 1000, 1000);
	is_real(fairshare_usage(fs, "u", "", 2000), 750,
	    "decay: a later charge decays from its own time");
	is_real(t_row(fs, "u", "", 2000).raw_usage_s, 0.75,
	    "decay: the report's raw usage is in GPU-seconds");
	/* A now before the latest (2000, seen by the charge below) counts
	 * as 2000: 750 + 250, not 375 + 250 decayed back. */
	fairshare_charge(fs, "u", "", 250, 2000);
	fairshare_charge(fs, "v", "", 100, 500);
	is_real(fairshare_usage(fs, "u", "", 2000), 1000,
	    "decay: charges add at the same time");
	is_real(fairshare_usage(fs, "v", "", 2000), 100,
	    "decay: a now that went back counts as the latest");
	/* The half-life changed at 3000 keeps what is left then: 500 of
	 * u's 1000 at 2000; no decay from then on. */
	fairshare_set_half_life(fs, 0, 3000);
	is_real(fairshare_usage(fs, "u", "", 3000 + 100 * T_HOUR), 500,
	    "decay: a new half-life keeps the usage at its change");
	fairshare_free(fs);

	/* Half-life 0: no decay, however long. */
	fs = fairshare_create(0);
	fairshare_charge(fs, "u", "", 1000, 0);
	is_real(fairshare_usage(fs, "u", "", INT64_C(1) << 50), 1000,
	    "decay: half-life 0 keeps the usage");
	fairshare_free(fs);

	/* 1024 at 0 and at 63000 (2^63 times the first, scaled to the
	 * epoch 0), then 1 at 64 half-lives, where the epoch moves up to
	 * 64000: 1024 * 2^-64 + 512 + 1 then, half of it 1000 later. */
	fs = fairshare_create(1000);
	fairshare_charge(fs, "u", "", 1024, 0);
	fairshare_charge(fs, "u", "", 1024, 63000);
	fairshare_charge(fs, "u", "", 1, 64000);
	is_real(fairshare_usage(fs, "u", "", 64000), 513 + ldexp(1024, -64),
	    "decay: the epoch moving up keeps the usage");
	is_real(fairshare_usage(fs, "u", "", 65000), 256.5 + ldexp(512, -64),
	    "decay: and decays it on");
	fairshare_free(fs);

	/* Years of uptime at a 1 ms half-life: the old usage is gone, the
	 * new exact, nothing infinite or NaN. */
	fs = fairshare_create(1);
	fairshare_charge(fs, "u", "a", 1000, INT64_MIN + 1);
	fairshare_charge(fs, "u", "a", 7, INT64_C(1) << 50);
	is_real(fairshare_usage(fs, "u", "a", INT64_C(1) << 50), 7,
	    "decay: 2^50 half-lives later, only the new charge is left");
	fairshare_charge(fs, "v", "a", 5, INT64_MAX);
	ok(fairshare_usage(fs, "u", "a", INT64_MAX) == 0 &&
	    fairshare_usage(fs, NULL, "a", INT64_MAX) == 5,
	    "decay: at INT64_MAX, u's is 0 and the account's v's 5");
	fairshare_rank(fs, INT64_MAX);
	ok(isfinite(t_row(fs, NULL, "a", INT64_MAX).level_fs) &&
	    !isnan(t_row(fs, "u", "a", INT64_MAX).level_fs) &&
	    !isnan(t_row(fs, NULL, "a", INT64_MAX).raw_usage_s),
	    "decay: no NaN after the longest time");
	fairshare_free(fs);
}

static void
t_ancestors(void)
{
	static const struct fairshare_account	acc[] = {
		{ "B", "A", 1 }, { "A", "", 1 },
	};
	static const struct fairshare_user	usr[] = {
		{ "u", "B", 0 }, { "v", "A", 0 },
	};
	struct fairshare	*fs = t_tree(acc, 2, usr, 2);

	/* u in B below A: 300 to u, B, A and the root; v's 100 to A and
	 * the root only. */
	fairshare_charge(fs, "u", "B", 300, 0);
	fairshare_charge(fs, "v", "A", 100, 0);
	is_real(fairshare_usage(fs, "u", "B", 0), 300, "ancestors: the leaf");
	is_real(fairshare_usage(fs, NULL, "B", 0), 300,
	    "ancestors: its account");
	is_real(fairshare_usage(fs, NULL, "A", 0), 400,
	    "ancestors: the account above, with v's");
	is_real(fairshare_usage(fs, NULL, "", 0), 400, "ancestors: the root");
	is_real(fairshare_usage(fs, "v", "B", 0), 0,
	    "ancestors: no leaf, no usage");
	fairshare_charge(fs, NULL, "A", 50, 0);
	is_real(fairshare_usage(fs, NULL, "A", 0), 400,
	    "ancestors: a charge without a user charges nobody");
	fairshare_free(fs);
}

/* root -> {A(1), B(1)}, A -> {a1, a2}, B -> {b1}. */
static const struct fairshare_account	t_ab_acc[] = {
	{ "A", "", 1 }, { "B", NULL, 1 },
};
static const struct fairshare_user	t_ab_usr[] = {
	{ "a1", "A", 0 }, { "a2", "A", 0 }, { "b1", "B", 0 },
};

static void
t_siblings(void)
{
	struct fairshare	*fs;

	/* a1 20, a2 0, b1 30. A: 0.5 / (20/50) = 1.25, B: 0.5 / (30/50)
	 * = 0.833: A first. In A, a2 (no usage) first, a1 next, b1 last:
	 * a2's unused share went to a1 before b1, though a1 is further
	 * over its norm share (20/50 of 0.25) than b1 (30/50 of 0.5). */
	fs = t_tree(t_ab_acc, 2, t_ab_usr, 3);
	fairshare_charge(fs, "a1", "A", 20, 0);
	fairshare_charge(fs, "b1", "B", 30, 0);
	fairshare_rank(fs, 0);
	is_int(fairshare_standing(fs, "a2", "A"), 0, "siblings: a2 first");
	is_int(fairshare_standing(fs, "a1", "A"), 1,
	    "siblings: a1 gets A's unused share before b1");
	is_int(fairshare_standing(fs, "b1", "B"), 2, "siblings: b1 last");
	is_real(t_row(fs, NULL, "A", 0).level_fs, 1.25, "siblings: A's LF");
	is_real(t_row(fs, NULL, "B", 0).level_fs, 0.5 / 0.6,
	    "siblings: B's LF");
	is_real(t_row(fs, "a1", "A", 0).factor, 2.0 / 3,
	    "siblings: a1's factor 2/3");
	fairshare_free(fs);

	/* a1 50, a2 5, b1 20. A: 0.5 / (55/75) = 0.68, B: 0.5 / (20/75) =
	 * 1.875: B first, though a2 used less than b1. In A, a2: 0.5 /
	 * (5/55) = 5.5 before a1: 0.5 / (50/55) = 0.55, the heavy a1 sinks
	 * below a2. */
	fs = t_tree(t_ab_acc, 2, t_ab_usr, 3);
	fairshare_charge(fs, "a1", "A", 50, 0);
	fairshare_charge(fs, "a2", "A", 5, 0);
	fairshare_charge(fs, "b1", "B", 20, 0);
	fairshare_rank(fs, 0);
	is_int(fairshare_standing(fs, "b1", "B"), 0,
	    "siblings: A as a whole against B decides first");
	is_int(fairshare_standing(fs, "a2", "A"), 1, "siblings: then a2");
	is_int(fairshare_standing(fs, "a1", "A"), 2,
	    "siblings: the heavy a1 below a2");
	is_real(t_row(fs, "a2", "A", 0).level_fs, 5.5, "siblings: a2's LF");
	fairshare_free(fs);
}

static void
t_fair_tree(void)
{
	/* root -> {A(3), B(1)}, A -> {a1(1), C(1)}, C -> {c1(1), c2(3)},
	 * B -> {b1, b2}. */
	static const struct fairshare_account	acc[] = {
		{ "C", "A", 1 }, { "B", "", 1 }, { "A", "", 3 },
	};
	static const struct fairshare_user	usr[] = {
		{ "b2", "B", 1 }, { "c2", "C", 3 }, { "a1", "A", 0 },
		{ "c1", "C", 1 }, { "b1", "B", 0 },
	};
	static const struct {
		const char	*user, *account;
		double		 gpu_s;
		uint32_t	 standing;
	} want[] = {
		/* A 70, B 30 of 100: A 0.75/0.7 = 1.07 before B 0.25/0.3
		 * = 0.83. In A (70): a1 0.5/(10/70) = 3.5 before C
		 * 0.5/(60/70) = 0.58. In C (60): c2 0.75/0.5 = 1.5 before
		 * c1 0.25/0.5 = 0.5. In B (30): b1 0.5/(5/30) = 3 before
		 * b2 0.5/(25/30) = 0.6. */
		{ "a1", "A", 10, 0 }, { "c2", "C", 30, 1 },
		{ "c1", "C", 30, 2 }, { "b1", "B", 5, 3 },
		{ "b2", "B", 25, 4 },
	};
	/* The report in tree order: leaves before accounts below each. */
	static const struct {
		const char	*account, *user;
		unsigned	 depth;
		double		 norm_shares, effective, lf;
	} rows[] = {
		{ "", NULL, 0, 1, 1, 0 },
		{ "A", NULL, 1, 0.75, 0.7, 0.75 / 0.7 },
		{ "A", "a1", 2, 0.375, 10.0 / 70, 3.5 },
		{ "C", NULL, 2, 0.375, 60.0 / 70, 0.5 / (60.0 / 70) },
		{ "C", "c1", 3, 0.09375, 0.5, 0.5 },
		{ "C", "c2", 3, 0.28125, 0.5, 1.5 },
		{ "B", NULL, 1, 0.25, 0.3, 0.25 / 0.3 },
		{ "B", "b1", 2, 0.125, 5.0 / 30, 3 },
		{ "B", "b2", 2, 0.125, 25.0 / 30, 0.6 },
	};
	struct fairshare	*fs = t_tree(acc, 3, usr, 5);
	struct fairshare_row	*r;
	size_t			 i, n;

	for (i = 0; i < T_NELEM(want); i++)
		fairshare_charge(fs, want[i].user, want[i].account,
		    want[i].gpu_s * 1000, 0);
	fairshare_rank(fs, 0);
	for (i = 0; i < T_NELEM(want); i++) {
		is_int(fairshare_standing(fs, want[i].user, want[i].account),
		    want[i].standing, "fair tree: %s's standing",
		    want[i].user);
		is_real(t_row(fs, want[i].user, want[i].account, 0).factor,
		    (5.0 - want[i].standing) / 5, "fair tree: %s's factor",
		    want[i].user);
	}
	r = fairshare_report(fs, 0, &n);
	is_int(n, T_NELEM(rows), "fair tree: a row per node");
	for (i = 0; i < n && i < T_NELEM(rows); i++) {
		ok(strcmp(r[i].account, rows[i].account) == 0 &&
		    (rows[i].user == NULL ? r[i].user == NULL :
		    r[i].user != NULL && strcmp(r[i].user, rows[i].user) == 0) &&
		    r[i].depth == rows[i].depth,
		    "fair tree: row %zu is %s %s at depth %u", i,
		    rows[i].account, rows[i].user ? rows[i].user : "-",
		    rows[i].depth);
		is_real(r[i].norm_shares, rows[i].norm_shares,
		    "fair tree: row %zu's norm shares", i);
		is_real(r[i].effective_usage, rows[i].effective,
		    "fair tree: row %zu's effective usage", i);
		is_real(r[i].level_fs, rows[i].lf,
		    "fair tree: row %zu's level FS", i);
	}
	/* c1's 30 GPU-s of the root's 100. */
	is_real(r[4].norm_usage, 0.3, "fair tree: c1's norm usage");
	is_real(r[4].raw_usage_s, 30, "fair tree: c1's raw usage");
	is_real(r[0].raw_usage_s, 100, "fair tree: the root's raw usage");
	free(r);
	fairshare_free(fs);
}

static void
t_ties(void)
{
	static const struct fairshare_account	acc[] = {
		{ "A", "", 1 }, { "B", "", 1 },
	};
	static const struct fairshare_user	usr[] = {
		{ "a1", "A", 0 }, { "a2", "A", 0 }, { "b1", "B", 0 },
		{ "b2", "B", 0 },
	};
	struct fairshare	*fs;

	/* Nobody used anything: everyone ties first. */
	fs = t_tree(acc, 2, usr, 4);
	fairshare_rank(fs, 0);
	ok(fairshare_standing(fs, "a1", "A") == 0 &&
	    fairshare_standing(fs, "a2", "A") == 0 &&
	    fairshare_standing(fs, "b1", "B") == 0 &&
	    fairshare_standing(fs, "b2", "B") == 0 &&
	    t_row(fs, "b2", "B", 0).factor == 1,
	    "ties: no usage at all, every leaf first, factor 1");

	/* a1 8, a2 2, b1 5, b2 5: A and B tie (0.5 / 0.5 = 1), so their
	 * children are sorted as one list: a2 0.5/0.2 = 2.5, b1 = b2 =
	 * 0.5/0.5 = 1, a1 0.5/0.8 = 0.625. By name, A's a1 would come
	 * before B's. */
	fairshare_charge(fs, "a1", "A", 8, 0);
	fairshare_charge(fs, "a2", "A", 2, 0);
	fairshare_charge(fs, "b1", "B", 5, 0);
	fairshare_charge(fs, "b2", "B", 5, 0);
	fairshare_rank(fs, 0);
	is_int(fairshare_standing(fs, "a2", "A"), 0, "ties: a2 first");
	ok(fairshare_standing(fs, "b1", "B") == 1 &&
	    fairshare_standing(fs, "b2", "B") == 1,
	    "ties: b1 and b2 share the second place");
	is_int(fairshare_standing(fs, "a1", "A"), 3,
	    "ties: tied accounts' children merged, a1 after B's");
	is_real(t_row(fs, "b2", "B", 0).factor, 0.75,
	    "ties: a tie's factor counts the whole tie");
	fairshare_free(fs);

	/* The same with A and B's usage swapped: the names do not decide. */
	fs = t_tree(acc, 2, usr, 4);
	fairshare_charge(fs, "b1", "B", 8, 0);
	fairshare_charge(fs, "b2", "B", 2, 0);
	fairshare_charge(fs, "a1", "A", 5, 0);
	fairshare_charge(fs, "a2", "A", 5, 0);
	fairshare_rank(fs, 0);
	ok(fairshare_standing(fs, "b2", "B") == 0 &&
	    fairshare_standing(fs, "a1", "A") == 1 &&
	    fairshare_standing(fs, "a2", "A") == 1 &&
	    fairshare_standing(fs, "b1", "B") == 3,
	    "ties: swapped, b2 0, a1 and a2 1, b1 3");
	fairshare_free(fs);

	/* Under the root, x 10, y 10, z 20: x = y = (1/3)/(1/4) before z
	 * (1/3)/(1/2); and u's leaf under the root (10) ties with A (a1
	 * 10): both (1/2)/(1/2). */
	fs = fairshare_create(0);
	fairshare_charge(fs, "x", "", 10, 0);
	fairshare_charge(fs, "y", "", 10, 0);
	fairshare_charge(fs, "z", "", 20, 0);
	fairshare_rank(fs, 0);
	ok(fairshare_standing(fs, "x", "") == 0 &&
	    fairshare_standing(fs, "y", "") == 0 &&
	    fairshare_standing(fs, "z", "") == 2,
	    "ties: x and y first, z third");
	fairshare_free(fs);
	/* u's leaf under the root (10) ties with A (10): both (1/2)/(1/2).
	 * u takes the first place, and A's best, a1 (2): (1/2)/(2/10),
	 * ties with it; a2 (8) is third. */
	fs = t_tree(acc, 1, usr, 2);
	fairshare_charge(fs, "u", "", 10, 0);
	fairshare_charge(fs, "a1", "A", 2, 0);
	fairshare_charge(fs, "a2", "A", 8, 0);
	fairshare_rank(fs, 0);
	ok(fairshare_standing(fs, "u", "") == 0 &&
	    fairshare_standing(fs, "a1", "A") == 0 &&
	    fairshare_standing(fs, "a2", "A") == 2,
	    "ties: an account's best leaf ties with a sibling leaf of its LF");
	/* 10 + 1/10 + 2/10 is not 8 + 2 + 3/10 in binary; the LFs of u
	 * and A still tie. */
	fairshare_charge(fs, "u", "", 0.1, 0);
	fairshare_charge(fs, "u", "", 0.2, 0);
	fairshare_charge(fs, "a2", "A", 0.3, 0);
	fairshare_rank(fs, 0);
	ok(fairshare_standing(fs, "u", "") == 0 &&
	    fairshare_standing(fs, "a1", "A") == 0 &&
	    fairshare_standing(fs, "a2", "A") == 2,
	    "ties: LFs equal but for rounding tie");
	fairshare_free(fs);
}

static void
t_rebuild(void)
{
	static const struct fairshare_account	acc1[] = {
		{ "A", "", 1 }, { "B", "", 1 },
	};
	static const struct fairshare_user	usr1[] = {
		{ "u", "A", 0 }, { "v", "B", 0 },
	};
	/* A moves below B, C is new. */
	static const struct fairshare_account	acc2[] = {
		{ "A", "B", 2 }, { "B", "", 1 }, { "C", "", 1 },
	};
	static const struct fairshare_user	usr2[] = {
		{ "u", "A", 0 }, { "v", "B", 0 }, { "x", "C", 0 },
	};
	static const struct fairshare_account	acc3[] = {
		{ "A", "B", 2 }, { "B", "", 1 }, { "C", "", 1 }, { "X", "", 4 },
	};
	static const struct fairshare_user	usr3[] = {
		{ "u", "A", 0 }, { "w", "X", 0 },
	};
	static const struct fairshare_account	bad[][2] = {
		{ { "A", "B", 1 }, { "B", "A", 1 } },
		{ { "A", "Z", 1 }, { "B", "", 1 } },
		{ { "A", "", 0 }, { "B", "", 1 } },
		{ { "A", "", 1 }, { "A", "", 1 } },
		{ { "", "", 1 }, { "B", "", 1 } },
	};
	static const struct fairshare_user	bad_usr[][2] = {
		{ { "u", "Z", 0 }, { "v", "B", 0 } },
		{ { "u", "A", 0 }, { "u", "A", 2 } },
	};
	struct fairshare	*fs = t_tree(acc1, 2, usr1, 2);
	char			 err[256];
	size_t			 i;
	int			 refused = 0;

	fairshare_charge(fs, "u", "A", 100, 0);
	fairshare_charge(fs, "v", "B", 300, 0);
	fairshare_charge(fs, "w", "X", 50, 0);	/* X is no account */
	is_real(fairshare_usage(fs, NULL, "X", 0), 50,
	    "rebuild: an unknown account is made for a charge");
	is_int(t_row(fs, NULL, "X", 0).depth, 1,
	    "rebuild: under the root");
	is_int(t_row(fs, NULL, "X", 0).shares, 1, "rebuild: with 1 share");
	ok(fairshare_set_tree(fs, acc2, 3, usr2, 3, err, sizeof err) == 0,
	    "rebuild: a new tree");
	is_real(fairshare_usage(fs, "u", "A", 0), 100, "rebuild: u keeps 100");
	is_real(fairshare_usage(fs, "v", "B", 0), 300, "rebuild: v keeps 300");
	is_real(fairshare_usage(fs, NULL, "B", 0), 400,
	    "rebuild: B has A's 100 below it now");
	is_real(fairshare_usage(fs, "w", "X", 0), 50,
	    "rebuild: a made leaf stays");
	is_real(fairshare_usage(fs, NULL, "", 0), 450, "rebuild: the root");
	is_int(t_row(fs, NULL, "A", 0).depth, 2, "rebuild: A below B");
	/* Refusals leave the tree as it was. */
	for (i = 0; i < T_NELEM(bad); i++)
		refused += fairshare_set_tree(fs, bad[i], 2, NULL, 0, err,
		    sizeof err) == -1;
	for (i = 0; i < T_NELEM(bad_usr); i++)
		refused += fairshare_set_tree(fs, acc1, 2, bad_usr[i], 2, err,
		    sizeof err) == -1;
	is_int(refused, T_NELEM(bad) + T_NELEM(bad_usr),
	    "rebuild: circles, unknown parents and accounts, 0 shares, "
	    "names twice, no name: refused");
	is_str(err, "user u: account A listed twice",
	    "rebuild: the refusal says what is wrong");
	ok(fairshare_set_tree(fs, bad[0], 2, NULL, 0, err,
	    sizeof err) == -1 && strcmp(err, "account A: is below itself") == 0,
	    "rebuild: a circle is named");
	is_real(fairshare_usage(fs, NULL, "B", 0), 400,
	    "rebuild: a refused tree changes nothing");
	/* The tree again, without v, and listing X (4 shares) with w: v's
	 * leaf goes with its 300; w's is the tree's now, with its 50. */
	ok(fairshare_set_tree(fs, acc3, 4, usr3, 2, err, sizeof err) == 0,
	    "rebuild: v's association dropped, X listed");
	is_real(fairshare_usage(fs, NULL, "B", 0), 100,
	    "rebuild: a dropped leaf's usage leaves its accounts");
	is_real(fairshare_usage(fs, "v", "B", 0), 0,
	    "rebuild: and is gone");
	is_real(fairshare_usage(fs, "w", "X", 0), 50,
	    "rebuild: a made leaf listed keeps its usage");
	is_int(t_row(fs, NULL, "X", 0).shares, 4,
	    "rebuild: its account has the tree's shares");
	fairshare_free(fs);
}

static void
t_two_accounts(void)
{
	static const struct fairshare_account	acc[] = {
		{ "A", "", 1 }, { "B", "", 1 },
	};
	static const struct fairshare_user	usr[] = {
		{ "u", "A", 0 }, { "u", "B", 0 }, { "v", "B", 0 },
	};
	struct fairshare	*fs = t_tree(acc, 2, usr, 3);

	/* u's 100 in A, v's 50 in B: B (1/3 of the usage) first; in B,
	 * u's leaf has none: first; then v; then u's leaf in A. */
	fairshare_charge(fs, "u", "A", 100, 0);
	fairshare_charge(fs, "v", "B", 50, 0);
	fairshare_rank(fs, 0);
	is_real(fairshare_usage(fs, "u", "B", 0), 0,
	    "two accounts: a charge in A is not B's");
	is_int(fairshare_standing(fs, "u", "B"), 0,
	    "two accounts: u first in B");
	is_int(fairshare_standing(fs, "v", "B"), 1, "two accounts: v next");
	is_int(fairshare_standing(fs, "u", "A"), 2,
	    "two accounts: u last in A");
	fairshare_free(fs);
}

static void
t_zero_usage(void)
{
	static const struct fairshare_account	acc[] = { { "A", "", 1 } };
	static const struct fairshare_user	usr[] = {
		{ "p", "A", 0 }, { "q", "A", 0 }, { "r", "A", 0 },
	};
	struct fairshare	*fs = t_tree(acc, 1, usr, 3);

	/* p 10, q 5, r none: r, q, p. */
	fairshare_charge(fs, "p", "A", 10, 0);
	fairshare_charge(fs, "q", "A", 5, 0);
	fairshare_rank(fs, 0);
	ok(fairshare_standing(fs, "r", "A") == 0 &&
	    fairshare_standing(fs, "q", "A") == 1 &&
	    fairshare_standing(fs, "p", "A") == 2,
	    "zero usage: r first, then q, then p");
	ok(isinf(t_row(fs, "r", "A", 0).level_fs),
	    "zero usage: r's LF is infinity");
	fairshare_free(fs);
}

static void
t_single_user(void)
{
	static const struct fairshare_account	acc[] = {
		{ "A", "", 1 }, { "B", "", 5 },
	};
	static const struct fairshare_user	usr[] = { { "alice", "A", 0 } };
	struct fairshare	*fs;
	int64_t			 now = 0;
	int			 i, all = 1;

	/* No tree (gsim's traces): alice's charges move nothing. */
	fs = fairshare_create(7 * 24 * (uint64_t)T_HOUR);
	for (i = 0; i < 200; i++) {
		now += tap_rand() % T_HOUR;
		fairshare_charge(fs, "alice", "proj", tap_rand() % 100000,
		    now);
		fairshare_rank(fs, now);
		all &= fairshare_standing(fs, "alice", "proj") == 0;
	}
	ok(all, "single user: every standing 0, however she is charged");
	is_int(fairshare_generation(fs), 0,
	    "single user: the generation never moves");
	fairshare_free(fs);

	/* A tree where she is the only user. */
	fs = t_tree(acc, 2, usr, 1);
	for (i = 0; i < 50; i++) {
		fairshare_charge(fs, "alice", "A", tap_rand() % 100000, i);
		fairshare_rank(fs, i);
	}
	ok(fairshare_standing(fs, "alice", "A") == 0 &&
	    fairshare_generation(fs) == 0,
	    "single user: the only leaf of a tree, standing 0 throughout");
	fairshare_free(fs);
}

static void
t_generation(void)
{
	static const struct fairshare_user	usr[] = {
		{ "x", "", 0 }, { "y", "", 0 },
	};
	struct fairshare	*fs = fairshare_create(0);
	char			 err[256];
	uint64_t		 g;

	fairshare_rank(fs, 0);
	is_int(fairshare_generation(fs), 0, "generation: 0 to begin with");
	is_int(fairshare_standing(fs, "nobody", "A"), 0,
	    "generation: an unknown user stands at 0");
	/* x 10, y none: y 0, x 1: x moved. */
	fairshare_charge(fs, "x", "", 10, 0);
	fairshare_charge(fs, "y", "", 0, 0);
	fairshare_rank(fs, 0);
	is_int(fairshare_standing(fs, "x", ""), 1, "generation: x second");
	g = fairshare_generation(fs);
	is_int(g, 1, "generation: a leaf moved");
	/* x 20: the same order. */
	fairshare_charge(fs, "x", "", 10, 1);
	fairshare_rank(fs, 1);
	is_int(fairshare_generation(fs), g,
	    "generation: a charge that moves nobody keeps it");
	/* y 100: y second now. */
	fairshare_charge(fs, "y", "", 100, 2);
	fairshare_rank(fs, 2);
	fairshare_rank(fs, 3);
	is_int(fairshare_generation(fs), g + 1,
	    "generation: x and y swapped, once");
	/* The tree lists them: nobody moves; then y (standing 1) goes. */
	fairshare_set_tree(fs, NULL, 0, usr, 2, err, sizeof err);
	fairshare_rank(fs, 3);
	is_int(fairshare_generation(fs), g + 1,
	    "generation: the same leaves listed keep it");
	fairshare_set_tree(fs, NULL, 0, usr, 1, err, sizeof err);
	is_int(fairshare_generation(fs), g + 2,
	    "generation: a dropped leaf that stood at 1 moves it");
	fairshare_rank(fs, 3);
	is_int(fairshare_generation(fs), g + 2,
	    "generation: x alone stays at 0");
	fairshare_free(fs);
}

int
main(void)
{
	t_decay();
	t_ancestors();
	t_siblings();
	t_fair_tree();
	t_ties();
	t_rebuild();
	t_two_accounts();
	t_zero_usage();
	t_single_user();
	t_generation();
	return (tap_done());
}
