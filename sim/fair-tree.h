/* fair-tree.h: who is entitled to what share of the GPUs, for gsim's
 * fairness figures (fair.h). Accounts form a tree under the root, each with
 * shares among its siblings; below them are users, each a user in one
 * account (Slurm's association: a user who runs under two accounts is two
 * users here), with shares among its account's children. Account "" is
 * the root itself, as in policy/fairshare.h: a job of no account makes its
 * user a sibling of the accounts. A user's share is
 * renormalised over the part of the tree that is active: an account with
 * no active user gives its share to its siblings, and an inactive user's
 * share goes first to the rest of its own account (Slurm's Fair Tree
 * shape). Pure: no I/O. */
#ifndef GB_SIM_FAIR_TREE_H
#define GB_SIM_FAIR_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The root is node 0; every other node's parent comes before it, so a walk
 * in index order meets parents first. */
#define FAIR_TREE_ROOT	0

struct fair_tree;

struct fair_tree	*fair_tree_create(void);
void			 fair_tree_free(struct fair_tree *);

/* Adds account name (not empty) under parent (NULL or "": the root).
 * Returns its node, or -1 with the reason in err: the name is taken, or
 * parent is no account yet. */
int	fair_tree_add_account(struct fair_tree *, const char *name,
	    const char *parent, uint32_t shares, char *err, size_t errlen);
/* Adds user in account (NULL or "": the root), which must be there.
 * Returns its node, or -1 with the reason in err. */
int	fair_tree_add_user(struct fair_tree *, const char *user,
	    const char *account, uint32_t shares, char *err, size_t errlen);
/* The node of user in account ("" for either: none given; account "" is
 * the root), added when missing with 1 share, its account too (under the
 * root). Linear in the tree's size: look up each pair once. */
size_t	fair_tree_leaf(struct fair_tree *, const char *account,
	    const char *user);

size_t		 fair_tree_size(const struct fair_tree *);
/* The parent of node (not the root). */
size_t		 fair_tree_parent(const struct fair_tree *, size_t);
bool		 fair_tree_is_user(const struct fair_tree *, size_t);
/* The account's name, or the user's ("" for the unnamed one); borrowed
 * until the tree changes. */
const char	*fair_tree_name(const struct fair_tree *, size_t);
uint32_t	 fair_tree_shares(const struct fair_tree *, size_t);

/* Each node's fraction of the whole into share (fair_tree_size entries),
 * with only the users whose active entry is true taking part (the entries
 * of accounts are not read): down from the root, a node's fraction is its
 * parent's times its shares over those of its siblings that have an
 * active user at or below them. Nodes with none get 0; the active users'
 * fractions sum to 1 when any is active. */
void	fair_tree_norm(const struct fair_tree *, const bool *active,
	    double *share);

#endif
