/* fairshare-targets-test.c: policy/fairshare-targets.c, each leaf's part of
 * the cluster now (fair share's guarantee): weighted max-min fairness on
 * the shares, from the root down, over what the leaves want. Every part
 * is worked out by hand in the comment above its check: the children
 * that want GPUs are served by wants per share, the least first, each
 * min(want, what is left x its shares / the shares left). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "policy/fairshare.h"
#include "tests/unit/tap.h"

#define is_real(got, want, ...) do {					\
	double tap_gd = (got), tap_wd = (want);				\
	if (!ok(fabs(tap_gd - tap_wd) <= 1e-9 * fmax(1, fabs(tap_wd)),	\
	    __VA_ARGS__))						\
		printf("#   got %.12g, want %.12g\n", tap_gd, tap_wd);	\
} while (0)

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

/* Users u1, u2, u3 of account a, shares 1, 1, 2, on 16 GPUs, wanting 2,
 * 10, 10. By want per share: u1 (2), u3 (5), u2 (10). u1: min(2, 16 x 1/4
 * = 4) = 2, 14 left of 3 shares; u3: min(10, 14 x 2/3) = 28/3, 14/3 left
 * of 1 share; u2: min(10, 14/3) = 14/3. All 16 are shared out. */
static void
test_flat(void)
{
	const struct fairshare_account	acc[] = { { "a", NULL, 1 } };
	const struct fairshare_user	usr[] = { { "u1", "a", 1 },
	    { "u2", "a", 1 }, { "u3", "a", 2 } };
	const struct fairshare_want	want[] = { { "u1", "a", 2 },
	    { "u2", "a", 10 }, { "u3", "a", 10 } };
	struct fairshare		*fs = t_tree(acc, 1, usr, 3);
	double				 part[3];

	fairshare_targets(fs, want, 3, 16, part);
	is_real(part[0], 2, "flat: u1 wants less than its portion: 2");
	is_real(part[1], 14.0 / 3, "flat: u2 gets what u3 leaves: 14/3");
	is_real(part[2], 28.0 / 3, "flat: u3 twice u2's portion: 28/3");
	/* More GPUs than all want: each what it wants. */
	fairshare_targets(fs, want, 3, 100, part);
	ok(part[0] == 2 && part[1] == 10 && part[2] == 10,
	    "flat: room for all, each what it wants");
	/* No GPUs: no parts. */
	fairshare_targets(fs, want, 3, 0, part);
	ok(part[0] == 0 && part[1] == 0 && part[2] == 0,
	    "flat: no GPUs, no parts");
	fairshare_free(fs);
}

/* Accounts A (2 shares) and B (1), C (1) under B; users a1 in A, b1 in B,
 * c1 in C; 12 GPUs; a1 wants 3, b1 10, c1 10. The root: A wants 3 (1.5 a
 * share), B 20: A min(3, 12 x 2/3 = 8) = 3, B the 9 left. B: b1 and C,
 * one share each, wanting 10 each: 4.5 each; c1 C's 4.5. */
static void
test_tree(void)
{
	const struct fairshare_account	acc[] = { { "A", NULL, 2 },
	    { "B", NULL, 1 }, { "C", "B", 1 } };
	const struct fairshare_user	usr[] = { { "a1", "A", 1 },
	    { "b1", "B", 1 }, { "c1", "C", 1 } };
	const struct fairshare_want	want[] = { { "a1", "A", 3 },
	    { "b1", "B", 10 }, { "c1", "C", 10 } };
	struct fairshare		*fs = t_tree(acc, 3, usr, 3);
	double				 part[3];

	fairshare_targets(fs, want, 3, 12, part);
	is_real(part[0], 3, "tree: a1 wants less than A's 8: 3");
	is_real(part[1], 4.5, "tree: b1 half of B's 9");
	is_real(part[2], 4.5, "tree: c1 C's half of B's 9");
	fairshare_free(fs);
}

/* An account's unused part goes to its own children first. Accounts X
 * and Y, one share each; x1, x2 in X, y1 in Y; 8 GPUs; x1 wants 1, x2 8,
 * y1 8. The root: Y wants 8, X 9 (per share): Y min(8, 4) = 4, X 4. X:
 * x1 min(1, 2) = 1, x2 the 3 left: x1's unused GPU goes to x2, not y1. */
static void
test_siblings_first(void)
{
	const struct fairshare_account	acc[] = { { "X", NULL, 1 },
	    { "Y", NULL, 1 } };
	const struct fairshare_user	usr[] = { { "x1", "X", 1 },
	    { "x2", "X", 1 }, { "y1", "Y", 1 } };
	const struct fairshare_want	want[] = { { "x1", "X", 1 },
	    { "x2", "X", 8 }, { "y1", "Y", 8 } };
	struct fairshare		*fs = t_tree(acc, 2, usr, 3);
	double				 part[3];

	fairshare_targets(fs, want, 3, 8, part);
	is_real(part[0], 1, "siblings: x1 what it wants");
	is_real(part[1], 3, "siblings: x2 the rest of X's 4");
	is_real(part[2], 4, "siblings: y1 Y's 4, not more");
	fairshare_free(fs);
}

/* A leaf the tree does not have, one listed twice and one wanting
 * nothing: 0 each; the others share as if they were not there. Users
 * u1, u2 of a, one share each, 4 GPUs: u1 wants 4, u2 0, ghost 4: u1
 * alone wants, so all 4. */
static void
test_odd_wants(void)
{
	const struct fairshare_account	acc[] = { { "a", NULL, 1 } };
	const struct fairshare_user	usr[] = { { "u1", "a", 1 },
	    { "u2", "a", 1 } };
	const struct fairshare_want	want[] = { { "u1", "a", 4 },
	    { "u2", "a", 0 }, { "ghost", "a", 4 }, { "u1", "a", 4 },
	    { NULL, "a", 4 } };
	struct fairshare		*fs = t_tree(acc, 1, usr, 2);
	double				 part[T_NELEM(want)];

	fairshare_targets(fs, want, T_NELEM(want), 4, part);
	is_real(part[0], 4, "odd: u1 alone wants: all 4");
	ok(part[1] == 0, "odd: u2 wants none: 0");
	ok(part[2] == 0, "odd: a user the tree has no leaf for: 0");
	ok(part[3] == 0, "odd: u1 listed again: 0, counted once");
	ok(part[4] == 0, "odd: no user: 0");
	/* A charge makes the ghost's leaf (one share): it shares now. */
	fairshare_charge(fs, "ghost", "a", 0, 0);
	fairshare_targets(fs, want, 3, 4, part);
	is_real(part[0], 2, "odd: once charged, the ghost shares: u1 2");
	is_real(part[2], 2, "odd: the ghost 2");
	fairshare_free(fs);
}

int
main(void)
{
	test_flat();
	test_tree();
	test_siblings_first();
	test_odd_wants();
	return (tap_done());
}
