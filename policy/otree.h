/* otree.h: an intrusive ordered tree (AVL). The element embeds a struct
 * otree_node; the tree never allocates. Insert and remove are O(log n);
 * first/last/next/prev walk in order. Keys must be unique under cmp (break
 * ties by an id), so the order is total and a walk is deterministic. */
#ifndef GB_OTREE_H
#define GB_OTREE_H

#include <stddef.h>

struct otree_node {
	struct otree_node	*left, *right, *parent;
	int			 height;
};

/* Returns <0, 0 or >0 as a sorts before, equals or after b. */
typedef int (*otree_cmp)(const struct otree_node *, const struct otree_node *);

struct otree {
	struct otree_node	*root;
	otree_cmp		 cmp;
	size_t			 count;
};

void			 otree_init(struct otree *, otree_cmp);
/* Links n in; n must not be in a tree. */
void			 otree_insert(struct otree *, struct otree_node *);
/* Unlinks n, which must be in t. */
void			 otree_remove(struct otree *, struct otree_node *);
struct otree_node	*otree_first(const struct otree *);
struct otree_node	*otree_last(const struct otree *);
struct otree_node	*otree_next(const struct otree_node *);
struct otree_node	*otree_prev(const struct otree_node *);

#define otree_entry(n, type, member) \
	((type *)(void *)((char *)(n) - offsetof(type, member)))

#endif
