/* fair-tree.h: who is entitled to what share of the GPUs, for gsim's
 * fairness figures (fair.h). Accounts form a tree under the root, each with
 * shares among its siblings; below them are users, each a user in one
 * account (Slurm's association: a user who runs under two accounts is two
 * users here), with shares among its account's children. Account "" is
 * the root itself, as in policy/fairshare.h: a job of no account makes its
 * user a sibling of the accounts. fair_tree_fill shares GPU-time out over
 * this tree (Slurm's Fair Tree shape). Pure: no I/O. */
#ifndef GB_SIM_FAIR_TREE_H
#define GB_SIM_FAIR_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/fairshare.h"

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

/* t's accounts and users as policy/fairshare.h's fairshare_set_tree takes
 * them, so gsim --fairshare schedules by the shares the figures measure
 * against: two new arrays the caller frees, their strings t's (borrowed
 * until t is freed). */
void	fair_tree_export(const struct fair_tree *,
	    struct fairshare_account **acc, size_t *nacc,
	    struct fairshare_user **usr, size_t *nusr);

/* Shares total out between the users by weighted max-min fairness down
 * the tree, each user capped at want (fair_tree_size entries; accounts'
 * are not read): from the root, each account's part is split between its
 * children in proportion to their shares, but none gets more than its
 * cap (a user's want, an account's the sum of its users'); what a capped
 * child leaves is split again between its siblings, so an account's
 * unused share goes to its siblings and a user's to the rest of its own
 * account first. Each node's part goes to alloc (fair_tree_size
 * entries); the users' parts sum to total, or to all they want when
 * that is less. */
void	fair_tree_fill(const struct fair_tree *, const double *want,
	    double total, double *alloc);

#endif
