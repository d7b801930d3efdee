/* place-shape.c: placement of a job with a shape: k nodes of g GPUs each.
 *
 * A distributed training job runs the same number of processes on each of
 * its nodes, so it wants its GPUs split evenly: sbatch's -N 2
 * --gpus-per-node 4 asks for exactly that, and a job of 8 GPUs that asks
 * for no shape is better served by 2 x 4 or 4 x 2 than by 6 + 2. The
 * placement policy still chooses which nodes: the fullest that hold g
 * (consolidate, under one switch when one has k of them), the emptiest
 * (spread), the first (yarn) or the first from a random one (random).
 *
 * The candidates come from the index by free count, so a shape costs
 * about the nodes it looks at, not the cluster's. */
#include <stdlib.h>
#include <string.h>

#include "policy/place.h"
#include "policy/place-int.h"

/* The listed nodes with per free GPUs, in the order how prefers. */
static uint32_t
place_shape_listed(struct place_cluster *cl, enum sched_placement how,
    uint32_t per, const uint32_t *nodes, size_t nlisted)
{
	uint32_t	k = 0, i;
	size_t		j;

	for (j = 0; j < nlisted && k < cl->n; j++) {
		i = nodes[j];
		if (i < cl->n && cl->nodes[i].nfree >= per &&
		    cl->nodes[i].mark != cl->stamp &&
		    place_res_fits(cl, i, cl->res, per)) {
			cl->nodes[i].mark = cl->stamp;	/* listed twice: once */
			cl->scratch[k++] = i;
		}
	}
	if (how == SCHED_PLACE_CONSOLIDATE)
		qsort_r(cl->scratch, k, sizeof *cl->scratch,
		    place_by_free_asc, cl);
	else if (how == SCHED_PLACE_SPREAD)
		qsort_r(cl->scratch, k, sizeof *cl->scratch,
		    place_by_free_desc, cl);
	else
		qsort(cl->scratch, k, sizeof *cl->scratch, place_by_index);
	return (k);
}

/* Appends the nodes with c free GPUs that have what the job needs beside
 * per GPUs to the candidates (k so far), up to want of them: a shape
 * costs the nodes it takes, not the bucket's (10,000 idle nodes share
 * one). Returns the new count. */
static uint32_t
place_shape_bucket(struct place_cluster *cl, uint32_t c, uint32_t per,
    uint32_t k, uint32_t want)
{
	uint32_t	i;

	for (i = cl->head[c]; i != PLACE_NONE && k < want;
	    i = cl->nodes[i].next) {
		if (place_res_fits(cl, i, cl->res, per))
			cl->scratch[k++] = i;
	}
	return (k);
}

/* Best fit across switches: the fullest nodes that hold per, counted per
 * switch, until one switch has want of them (place_shape_switch keeps
 * those) or there are no more. Costs the nodes it walks. */
static uint32_t
place_shape_tight(struct place_cluster *cl, uint32_t want, uint32_t per)
{
	uint32_t	k = 0, c, i;

	memset(cl->sw_count, 0, cl->nsw * sizeof *cl->sw_count);
	for (c = per; c <= SCHED_MAX_GPUS_PER_NODE; c++) {
		for (i = cl->head[c]; i != PLACE_NONE; i = cl->nodes[i].next) {
			if (!place_res_fits(cl, i, cl->res, per))
				continue;
			cl->scratch[k++] = i;
			if (++cl->sw_count[cl->nodes[i].sw] == want)
				return (k);
		}
	}
	return (k);
}

/* The up nodes with per free GPUs, in the order how prefers, at least
 * want of them where there are. */
static uint32_t
place_shape_all(struct place_cluster *cl, enum sched_placement how,
    uint32_t want, uint32_t per)
{
	uint32_t	k = 0, c, i, start;

	switch (how) {
	case SCHED_PLACE_YARN:
		for (i = place_tree_first(cl, 0, per); i != PLACE_NONE &&
		    k < want; i = place_tree_first(cl, i + 1, per)) {
			if (place_res_fits(cl, i, cl->res, per))
				cl->scratch[k++] = i;
		}
		break;
	case SCHED_PLACE_RANDOM:
		start = (uint32_t)(place_rand(cl) % cl->n);
		for (i = place_tree_first(cl, start, per); i != PLACE_NONE &&
		    k < want; i = place_tree_first(cl, i + 1, per)) {
			if (place_res_fits(cl, i, cl->res, per))
				cl->scratch[k++] = i;
		}
		for (i = place_tree_first(cl, 0, per); i != PLACE_NONE &&
		    i < start && k < want; i = place_tree_first(cl, i + 1, per)) {
			if (place_res_fits(cl, i, cl->res, per))
				cl->scratch[k++] = i;
		}
		break;
	case SCHED_PLACE_SPREAD:
		for (c = SCHED_MAX_GPUS_PER_NODE; c >= per && k < want; c--)
			k = place_shape_bucket(cl, c, per, k, want);
		break;
	case SCHED_PLACE_CONSOLIDATE:
	default:
		/* One node needs no switch; several prefer one. */
		if (cl->nsw > 1 && want > 1)
			return (place_shape_tight(cl, want, per));
		for (c = per; c <= SCHED_MAX_GPUS_PER_NODE && k < want; c++)
			k = place_shape_bucket(cl, c, per, k, want);
		break;
	}
	return (k);
}

/* Keeps in cl->scratch[0..k) the first want candidates of the switch
 * that gathers want of them first in the order given (the fullest nodes
 * first: the switch that holds the job most tightly), or the first want
 * across switches when no switch has want. */
static uint32_t
place_shape_switch(struct place_cluster *cl, uint32_t k, uint32_t want)
{
	uint32_t	j, n = 0, sw = PLACE_NONE;

	if (cl->nsw <= 1)
		return (k < want ? k : want);
	memset(cl->sw_count, 0, cl->nsw * sizeof *cl->sw_count);
	for (j = 0; j < k && sw == PLACE_NONE; j++) {
		if (++cl->sw_count[cl->nodes[cl->scratch[j]].sw] == want)
			sw = cl->nodes[cl->scratch[j]].sw;
	}
	if (sw == PLACE_NONE)
		return (k < want ? k : want);
	for (j = 0; j < k && n < want; j++) {
		if (cl->nodes[cl->scratch[j]].sw == sw)
			cl->scratch[n++] = cl->scratch[j];
	}
	return (n);
}

size_t
place_find_shape(struct place_cluster *cl, enum sched_placement how,
    uint32_t nnodes, uint32_t per, const uint32_t *nodes, size_t nlisted,
    struct place_alloc *out)
{
	uint32_t	k, j;

	/* The tree's root is the most free GPUs any node has. */
	if (nnodes == 0 || per == 0 || per > cl->max_gpus ||
	    nnodes > cl->n || (uint64_t)nnodes * per > cl->free_total ||
	    cl->tree == NULL || cl->tree[1] < per)
		return (0);
	place_new_stamp(cl);
	if (nodes != NULL)
		k = place_shape_listed(cl, how, per, nodes, nlisted);
	else
		k = place_shape_all(cl, how, nnodes, per);
	if (how == SCHED_PLACE_CONSOLIDATE)
		k = place_shape_switch(cl, k, nnodes);
	if (k < nnodes)
		return (0);
	/* Ranks in node order: the choice above does not depend on it, but
	 * rank 0 on the lowest node reads as people expect. */
	qsort(cl->scratch, nnodes, sizeof *cl->scratch, place_by_index);
	place_new_stamp(cl);
	for (j = 0; j < nnodes; j++)
		place_put(cl, cl->scratch[j], per, &out[j]);
	return (nnodes);
}

/* Any split, as place_find and place_find_in find it; then every part
 * must have the CPUs and memory it needs too. */
static size_t
place_find_any(struct place_cluster *cl, enum sched_placement how,
    const struct place_want *w, struct place_alloc *out)
{
	size_t	n, i;

	if (w->nodes != NULL)
		n = place_find_in(cl, how, w->gpus, w->sensitive, w->nodes,
		    w->nlisted, out);
	else
		n = place_find(cl, how, w->gpus, w->sensitive, out);
	for (i = 0; i < n; i++) {
		if (!place_res_fits(cl, out[i].node, cl->res,
		    sched_mask_count(out[i].mask)))
			return (0);
	}
	return (n);
}

static size_t
place_find_res(struct place_cluster *cl, enum sched_placement how,
    const struct place_want *w, struct place_alloc *out)
{
	uint32_t	k = 1;
	size_t		n;

	if (w->gpus == 0 || cl->free_total < w->gpus)
		return (0);
	if (w->nnodes > 0)
		return (w->gpus % w->nnodes != 0 ? 0 : place_find_shape(cl,
		    how, w->nnodes, w->gpus / w->nnodes, w->nodes, w->nlisted,
		    out));
	if (w->any_shape)
		return (place_find_any(cl, how, w, out));
	/* One node if one holds it, found as place_find finds it (in
	 * O(1) for best fit), else the fewest nodes of an even split that
	 * fit; a sensitive job waits for the fewest its size allows. */
	if (w->gpus <= cl->max_gpus && w->nodes == NULL) {
		n = place_find(cl, how, w->gpus, false, out);
		if (n == 1 && place_res_fits(cl, out[0].node, cl->res, w->gpus))
			return (1);
		/* No node holds it, when nothing else rules nodes out. */
		if (n != 1 && cl->res == NULL)
			k = 2;
		if (n != 1 && cl->res == NULL && w->sensitive)
			return (0);
	}
	for (; k <= w->gpus && k <= cl->n; k++) {
		if (w->gpus % k != 0 || w->gpus / k > cl->max_gpus)
			continue;
		n = place_find_shape(cl, how, k, w->gpus / k, w->nodes,
		    w->nlisted, out);
		if (n > 0 || w->sensitive)
			return (n);
	}
	return (0);
}

size_t
place_find_want(struct place_cluster *cl, enum sched_placement how,
    const struct place_want *w, struct place_alloc *out)
{
	size_t	n;

	/* The parts place_put writes carry what the job needs beside its
	 * GPUs, and the candidates are the nodes that have it. */
	cl->res = w->res;
	if (w->shards > 0)
		n = place_shard_find(cl, how, w, out);
	else
		n = w->gpus == 0 ? place_cpu_find(cl, w, out) :
		    place_find_res(cl, how, w, out);
	cl->res = NULL;
	return (n);
}
