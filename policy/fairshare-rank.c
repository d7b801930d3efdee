/* fairshare-rank.c: Fair Tree's ranking of the leaves (fairshare.h says
 * the rules). One walk down the tree, each list of siblings sorted by
 * level fair share; the lists of tied accounts are merged, so the walk
 * sorts each node once, in O(nodes log nodes) in all. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy/fairshare-int.h"

/* LFs are compared to this many significant bits. */
#define FAIRSHARE_RANK_BITS	32

struct fairshare_rank_walk {
	/* The lists being walked, one above the other: each node is in
	 * exactly one (its parent's, merged or not), so nnodes are room. */
	struct fairshare_node	**stack;
	size_t			  top;
	uint32_t		  placed;	/* leaves placed so far */
	uint32_t		  tie;		/* the current tie's place */
	uint32_t		  nleaves;
	bool			  moved;	/* some standing changed */
};

/* v to FAIRSHARE_RANK_BITS significant bits; infinity stays. */
static double
fairshare_rank_round(double v)
{
	double	m;
	int	e;

	if (!isfinite(v) || v == 0)
		return (v);
	m = frexp(v, &e);
	return (ldexp(round(ldexp(m, FAIRSHARE_RANK_BITS)),
	    e - FAIRSHARE_RANK_BITS));
}

/* LF highest first; among equals leaves first; then by name, so that
 * the order is total (it decides no place: see fairshare_rank_list). */
static int
fairshare_rank_cmp(const void *a, const void *b)
{
	const struct fairshare_node	*x = *(struct fairshare_node *const *)a;
	const struct fairshare_node	*y = *(struct fairshare_node *const *)b;

	if (x->lf_key != y->lf_key)
		return (x->lf_key > y->lf_key ? -1 : 1);
	return (fairshare_sibling_cmp(x, y));
}

/* Places leaf n; tied: it ties with the leaf placed before it. */
static void
fairshare_rank_place(struct fairshare_rank_walk *w, struct fairshare_node *n,
    bool tied)
{
	if (!tied || w->placed == 0)
		w->tie = w->placed;
	if (n->standing != w->tie)
		w->moved = true;
	n->standing = w->tie;
	n->factor = (double)(w->nleaves - w->tie) / (double)w->nleaves;
	w->placed++;
}

/* Ranks the leaves at and below list[0..n), siblings or the merged
 * children of tied accounts; tied: the first ties with the leaf placed
 * before. Within a run of equal LF, the leaves all take one place and
 * the accounts are walked as one list of their children, so that no
 * order among equals (their names) decides anything. */
static void
fairshare_rank_list(struct fairshare_rank_walk *w,
    struct fairshare_node **list, size_t n, bool tied)
{
	struct fairshare_node	*a;
	size_t			 i, j, k, base;
	double			 key;

	for (i = 0; i < n; i++)
		list[i]->lf_key = fairshare_rank_round(
		    fairshare_level_fs(list[i]));
	qsort(list, n, sizeof *list, fairshare_rank_cmp);
	for (i = 0; i < n; i = j) {
		key = list[i]->lf_key;
		if (i > 0)
			tied = key == list[i - 1]->lf_key;
		if (list[i]->user != NULL) {
			fairshare_rank_place(w, list[i], tied);
			j = i + 1;
			continue;
		}
		base = w->top;
		for (j = i; j < n && list[j]->user == NULL &&
		    list[j]->lf_key == key; j++) {
			a = list[j];
			for (k = 0; k < a->nchild; k++)
				w->stack[w->top++] = a->child[k];
		}
		fairshare_rank_list(w, w->stack + base, w->top - base, tied);
	}
}

void
fairshare_rank(struct fairshare *fs, int64_t now)
{
	struct fairshare_rank_walk	 w;
	struct fairshare_node		*root = fs->tree.root;

	fairshare_clock(fs, now);
	if (!fs->dirty)
		return;
	fs->dirty = false;
	memset(&w, 0, sizeof w);
	if ((w.stack = calloc(fs->tree.nnodes, sizeof *w.stack)) == NULL)
		abort();
	w.nleaves = (uint32_t)fs->tree.nleaves;
	for (w.top = 0; w.top < root->nchild; w.top++)
		w.stack[w.top] = root->child[w.top];
	fairshare_rank_list(&w, w.stack, root->nchild, false);
	free(w.stack);
	if (w.moved)
		fs->generation++;
}
