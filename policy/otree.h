/* otree.h: an intrusive ordered tree (red-black). The element embeds a
 * struct otree_node; the tree never allocates. Insert and remove are
 * O(log n); first/last/next/prev walk in order. Keys must be unique under
 * cmp (break ties by an id), so the order is total and a walk is
 * deterministic. A node is three words: the parent's address carries the
 * node's colour in its low bit (nodes are pointer-aligned). */
#ifndef GB_OTREE_H
#define GB_OTREE_H

#include <stddef.h>
#include <stdint.h>

struct otree_node {
	uintptr_t		 parent_red;	/* the parent, | 1: red */
	struct otree_node	*left, *right;
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

/* n's parent (NULL at the root), and whether n is red (NULL is black). */
static inline struct otree_node *
otree_parent(const struct otree_node *n)
{
	return ((struct otree_node *)(n->parent_red & ~(uintptr_t)1));
}

static inline int
otree_red(const struct otree_node *n)
{
	return (n != NULL && (n->parent_red & 1) != 0);
}

#define otree_entry(n, type, member) \
	((type *)(void *)((char *)(n) - offsetof(type, member)))

#endif
