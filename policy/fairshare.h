/* fairshare.h: fair share between accounts and users (issue 35), as
 * Slurm's Fair Tree ranks them. Accounts form a tree with shares; a
 * user's association with an account is a leaf below it. Each node's
 * usage is the GPU-service charged to the leaves below it (GPU-ms times
 * the QOS usage factor), decayed with a half-life. A leaf's standing says
 * how far it is below its share against everyone else's, through its
 * ancestors' standing among their siblings first: the scheduling core
 * orders jobs by it, and sshare and gacct --report fairshare print the
 * figures behind it.
 *
 * Pure: no I/O, no clock. `now` is an argument, in milliseconds on any
 * fixed origin, and should not go back: a `now` before the latest one
 * seen counts as the latest. libc and libm only.
 *
 * The rules, which the tests check by hand-computed figures:
 *
 * Decay. Usage charged at t0 counts u * 2^-((t - t0) / H) at t; H 0: no
 * decay. Every node decays alike, so the module keeps usage scaled to one
 * epoch and a charge costs O(depth); the epoch moves up (every node
 * rescaled, O(nodes)) once `now` is 64 half-lives past it, so the scale
 * stays below 2^64 however long the daemon runs.
 *
 * Level fair share. Among the children of an account (its users' leaves
 * and the accounts below it, siblings alike), a child's LF = S / U, S its
 * shares over its siblings' (itself included), U its usage over theirs.
 * A child with no usage has LF infinity: it ranks above every sibling
 * that has some, and siblings with none tie. LFs equal to 32 significant
 * bits tie, so that rounding in the sums does not decide.
 *
 * Ranking (Fair Tree). From the root, the children are sorted by LF,
 * highest first, and visited in that order: a leaf takes the next place,
 * an account is descended into. So every leaf of an account that ranks
 * above a sibling account ranks above every leaf of that sibling: an
 * account's unused share goes to its own children first. Ties: leaves of
 * equal LF share one place; accounts of equal LF are descended into as
 * one, their children merged and sorted together (Slurm's merge), and the
 * first of them ties with a leaf of the same LF before it. Among tied
 * siblings leaves come before accounts; names never decide a place.
 *
 * Standing and factor. A leaf's standing is the number of leaves placed
 * strictly before its tie: 0 is the first place, smaller goes first,
 * ties are equal. Its fair-share factor is Slurm's: the leaves at or
 * below its place (its whole tie counted) over all leaves, 1 for the
 * first, 1/N for a last one alone.
 *
 * Unknown names. A charge to a user and account that the tree has no
 * leaf for makes one, with 1 share, under that account; an account the
 * tree does not have is made too, with 1 share, under the root; account
 * "" is the root itself. These made leaves and accounts stay, with their
 * usage, across fairshare_set_tree, until a tree lists them (then they
 * are the tree's, usage kept). */
#ifndef GB_FAIRSHARE_H
#define GB_FAIRSHARE_H

#include <stddef.h>
#include <stdint.h>

struct fairshare;

/* An account of the tree given to fairshare_set_tree; strings borrowed
 * for the call. */
struct fairshare_account {
	const char	*name;		/* not "" */
	const char	*parent;	/* "" or NULL: under the root */
	uint32_t	 shares;	/* at least 1 */
};

/* A user's association with an account: a leaf below it. */
struct fairshare_user {
	const char	*user;		/* not "" */
	const char	*account;	/* "" or NULL: under the root */
	uint32_t	 shares;	/* 0: the default, 1 */
};

/* A line of the report, in tree order: the root's (account "", depth 0,
 * 1 share), then each account's, its users' leaves (by user) and the
 * accounts below it (by name), depth first. Strings borrowed until the
 * tree changes. */
struct fairshare_row {
	const char	*account;	/* a leaf's: its account */
	const char	*user;		/* NULL on an account's line */
	unsigned	 depth;		/* the root 0, its children 1, ... */
	uint32_t	 shares;
	double		 norm_shares;	/* shares over siblings', down the tree */
	double		 raw_usage_s;	/* GPU-seconds, decayed to now */
	double		 norm_usage;	/* usage over the root's (NormUsage) */
	/* Usage over the parent's, the root's 1: Slurm's EffectvUsage
	 * under Fair Tree. */
	double		 effective_usage;
	double		 level_fs;	/* LF; INFINITY: no usage; root 0 */
	/* A leaf's, as of the last fairshare_rank (before the first: 0 and
	 * 1, the first place); 0 on an account's line. */
	uint32_t	 standing;
	double		 factor;
};

/* A module with an empty tree (the root alone) and half-life half_life_ms
 * (0: no decay). Aborts when memory is out. */
struct fairshare	*fairshare_create(uint64_t half_life_ms);
void			 fairshare_free(struct fairshare *);

/* Changes the half-life from now on: the usage at now is kept. */
void	fairshare_set_half_life(struct fairshare *, uint64_t half_life_ms,
	    int64_t now);

/* Replaces the tree by acc[0..nacc) and usr[0..nusr) (any order). Each
 * leaf whose user and account the old tree had keeps its usage and
 * standing; a leaf the old tree had made for a charge stays (see above);
 * a leaf listed before and not now goes with its usage. An account's
 * usage is then its leaves'. Refused, the tree unchanged, when an
 * account has no name, 0 shares, a parent that is not an account, or
 * is below itself, or when a name or a user's account is listed twice or
 * names no account. Returns 0, or -1 with err saying what is wrong. */
int	fairshare_set_tree(struct fairshare *,
	    const struct fairshare_account *acc, size_t nacc,
	    const struct fairshare_user *usr, size_t nusr, char *err,
	    size_t errlen);

/* Charges gpu_ms (GPU-milliseconds times the QOS usage factor) at now to
 * user's leaf under account ("" or NULL: the root) and to every account
 * above it, making the leaf if need be (see above). A charge that is not
 * a positive finite number adds nothing, but still makes the leaf: a 0
 * charge puts a new user in the next ranking. user NULL: nothing. */
void	fairshare_charge(struct fairshare *, const char *user,
	    const char *account, double gpu_ms, int64_t now);

/* Ranks the leaves again (O(nodes log nodes)) if a charge or a tree
 * changed anything since the last ranking; otherwise does nothing (the
 * ranking does not depend on time alone: every usage decays alike). */
void	fairshare_rank(struct fairshare *, int64_t now);

/* user's leaf's standing under account as of the last fairshare_rank:
 * smaller goes first, equal for leaves that tie. 0 for a leaf not ranked
 * yet and for a user and account the tree has no leaf for. */
uint32_t fairshare_standing(const struct fairshare *, const char *user,
	    const char *account);

/* Changes exactly when fairshare_standing's answer changes for some user
 * and account: at a fairshare_rank that moves a leaf, or at a
 * fairshare_set_tree that drops a leaf whose standing was not 0. The
 * core re-keys its jobs only then. */
uint64_t fairshare_generation(const struct fairshare *);

/* What a leaf wants now, for fairshare_targets: the GPUs of its jobs
 * that wait or run (user and account as fairshare_charge's). */
struct fairshare_want {
	const char	*user;
	const char	*account;
	double		 gpus;
};

/* Each leaf's part of capacity GPUs now (fair share's guarantee): from
 * the root down, an account's part is shared among its children that
 * want GPUs by weighted max-min fairness on their shares (a child wanting
 * less than its weight's portion gets what it wants, and the rest is
 * shared among the others likewise), so that an account's unused part
 * goes to its siblings first, as in the ranking. out[i] is want[i]'s: at
 * most what it wants; 0 for a user and account the tree has no leaf for
 * (a charge makes one) and for a leaf listed twice after the first. The
 * parts do not depend on usage: the standing orders, the parts bound
 * what preemption may take. O(nodes log nodes + n log nodes). */
void	fairshare_targets(struct fairshare *, const struct fairshare_want *want,
	    size_t n, double capacity, double *out);

/* The usage at now, in GPU-ms, of user's leaf under account, or of the
 * account itself when user is NULL (account "": the root, everyone's);
 * 0 when the tree has none. */
double	fairshare_usage(const struct fairshare *, const char *user,
	    const char *account, int64_t now);

/* The report at now: one row per node, in tree order (see struct
 * fairshare_row), *n of them. The array belongs to the caller (free());
 * its strings are borrowed until the tree changes. Aborts when memory is
 * out. */
struct fairshare_row *fairshare_report(const struct fairshare *,
	    int64_t now, size_t *n);

#endif
