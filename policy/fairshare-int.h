/* fairshare-int.h: the fair-share tree's insides, shared by fairshare.c
 * (the tree, charges and decay), fairshare-rank.c (Fair Tree's ranking),
 * fairshare-report.c (the report's rows) and fairshare-targets.c (each
 * leaf's part of the cluster now). Not for use outside
 * policy/fairshare*.c. */
#ifndef GB_FAIRSHARE_INT_H
#define GB_FAIRSHARE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/fairshare.h"
#include "policy/otree.h"

/* An account (user NULL; the root is account "") or a user's leaf. */
struct fairshare_node {
	struct otree_node	 link;		/* in the tree's nodes, by key */
	char			*account;	/* a leaf's: its account's */
	char			*user;		/* NULL on an account */
	struct fairshare_node	*parent;	/* NULL: the root */
	/* Leaves by user, then accounts by name: the report's order. */
	struct fairshare_node	**child;
	size_t			 nchild, childcap;
	uint32_t		 shares;
	uint64_t		 child_shares;	/* the children's, summed */
	/* GPU-ms scaled to the epoch: the usage at t is usage times
	 * 2^-((t - epoch) / H). An account's is the sum of its leaves'. */
	double			 usage;
	bool			 listed;	/* a tree's, not made by a charge */
	/* A leaf's, as of the last ranking. */
	uint32_t		 standing;
	double			 factor;
	double			 lf_key;	/* fairshare-rank.c's */
	/* fairshare-targets.c's: the GPUs wanted below it, and its part. */
	double			 demand;
	double			 part;
};

/* The nodes by key (account, then user with NULL first) and the root. */
struct fairshare_tree {
	struct otree		 nodes;
	struct fairshare_node	*root;
	size_t			 nnodes, nleaves;
};

struct fairshare {
	struct fairshare_tree	 tree;
	uint64_t		 half_life;	/* ms; 0: no decay */
	int64_t			 epoch;		/* usage is scaled to it */
	int64_t			 last;		/* the latest now seen */
	bool			 started;	/* epoch and last are set */
	uint64_t		 generation;
	bool			 dirty;		/* changed since the last rank */
};

/* The node of user (NULL: the account itself) and account, or NULL. */
struct fairshare_node *fairshare_find(const struct fairshare_tree *,
	    const char *user, const char *account);
/* Siblings that tie on what orders them: leaves first, then by account,
 * then by user, so that a sort's order is total (and the sums it drives
 * are rounded alike whatever the sort). */
int	fairshare_sibling_cmp(const struct fairshare_node *,
	    const struct fairshare_node *);
/* now, or the latest now seen if later; moves the epoch up to it when
 * it is 64 half-lives behind. */
int64_t	fairshare_clock(struct fairshare *, int64_t now);
/* What a stored usage is multiplied by to give the usage at now. */
double	fairshare_decay(const struct fairshare *, int64_t now);
/* n's level fair share among its siblings: INFINITY when it has no
 * usage; n must not be the root. */
double	fairshare_level_fs(const struct fairshare_node *n);

#endif
