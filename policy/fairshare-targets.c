/* fairshare-targets.c: each leaf's part of the cluster now, for fair
 * share's guarantee (fairshare.h's fairshare_targets): weighted max-min
 * fairness on the shares, from the root down, over what the leaves want.
 * One walk down the tree, each node's wanting children sorted once, so
 * O(nodes log nodes) beside the n lookups. */
#include <stdlib.h>

#include "policy/fairshare-int.h"

/* By what a child wants per share, the least first: the water-filling
 * order, in which a child that wants less than its portion is served
 * before the portions of those after it are known. Names break ties, so
 * the order (and the rounding of the sums) does not depend on the sort. */
static int
fairshare_targets_cmp(const void *a, const void *b)
{
	const struct fairshare_node	*x = *(struct fairshare_node *const *)a;
	const struct fairshare_node	*y = *(struct fairshare_node *const *)b;
	double				 u = x->demand / x->shares;
	double				 v = y->demand / y->shares;

	if (u != v)
		return (u < v ? -1 : 1);
	return (fairshare_sibling_cmp(x, y));
}

/* Shares n's part among its children that want GPUs; appends the
 * accounts among them to queue (at *tail). sorted is scratch. */
static void
fairshare_targets_split(struct fairshare_node *n, struct fairshare_node **sorted,
    struct fairshare_node **queue, size_t *tail)
{
	double	left = n->part, shares = 0, portion;
	size_t	i, k = 0;

	for (i = 0; i < n->nchild; i++) {
		if (n->child[i]->demand > 0) {
			sorted[k++] = n->child[i];
			shares += n->child[i]->shares;
		}
	}
	qsort(sorted, k, sizeof *sorted, fairshare_targets_cmp);
	for (i = 0; i < k; i++) {
		portion = left * sorted[i]->shares / shares;
		sorted[i]->part = sorted[i]->demand < portion ?
		    sorted[i]->demand : portion;
		left -= sorted[i]->part;
		if (left < 0)
			left = 0;
		shares -= sorted[i]->shares;
		if (sorted[i]->user == NULL)
			queue[(*tail)++] = sorted[i];
	}
}

void
fairshare_targets(struct fairshare *fs, const struct fairshare_want *want,
    size_t n, double capacity, double *out)
{
	struct fairshare_tree	*t = &fs->tree;
	struct fairshare_node	**leaf, **queue, **sorted, *m;
	struct otree_node	*o;
	size_t			 i, head = 0, tail = 0;

	for (o = otree_first(&t->nodes); o != NULL; o = otree_next(o)) {
		m = otree_entry(o, struct fairshare_node, link);
		m->demand = 0;
		m->part = 0;
	}
	leaf = calloc(n != 0 ? n : 1, sizeof *leaf);
	queue = calloc(t->nnodes, sizeof *queue);
	sorted = calloc(t->nnodes, sizeof *sorted);
	if (leaf == NULL || queue == NULL || sorted == NULL)
		abort();
	/* Each leaf's wants, up to the root; part marks a leaf seen, so
	 * that one listed twice counts once. */
	for (i = 0; i < n; i++) {
		m = fairshare_find(t, want[i].user, want[i].account != NULL ?
		    want[i].account : "");
		if (want[i].user == NULL || m == NULL || m->part != 0)
			continue;
		m->part = 1;
		leaf[i] = m;
		if (!(want[i].gpus > 0))
			continue;
		for (; m != NULL; m = m->parent)
			m->demand += want[i].gpus;
	}
	for (i = 0; i < n; i++) {
		if (leaf[i] != NULL)
			leaf[i]->part = 0;
	}
	m = t->root;
	m->part = capacity > 0 ? (m->demand < capacity ? m->demand :
	    capacity) : 0;
	queue[tail++] = m;
	while (head < tail)
		fairshare_targets_split(queue[head++], sorted, queue, &tail);
	for (i = 0; i < n; i++)
		out[i] = leaf[i] != NULL ? leaf[i]->part : 0;
	free(sorted);
	free(queue);
	free(leaf);
}
