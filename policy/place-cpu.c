/* place-cpu.c: where a CPU job runs. A job that asks for no GPU takes CPUs
 * and memory on its nodes (place_res_need of 0 GPUs), never a GPU. It goes
 * where it keeps the fewest GPUs from work: to the nodes with the fewest
 * free GPUs first, as a node whose GPUs are all taken has CPUs no GPU job
 * can use, while an idle node's CPUs go with its GPUs. Among equals, the
 * lowest index first on the nodes a job lists, the index's own order
 * otherwise. Pure: no I/O, no clock. */
#include <stdlib.h>

#include "policy/place.h"
#include "policy/place-int.h"
#include "policy/sched.h"

/* Whether node i can take a part of the CPU job being placed. */
static bool
place_cpu_fits(const struct place_cluster *cl, uint32_t i)
{
	const struct place_node	*nd = &cl->nodes[i];

	return (nd->up && nd->mark != cl->stamp &&
	    place_res_fits(cl, i, cl->res, 0));
}

/* Up to want nodes that fit, among nodes[0..nlisted), into cl->scratch:
 * the fewest free GPUs first. Returns how many. */
static uint32_t
place_cpu_listed(struct place_cluster *cl, uint32_t want,
    const uint32_t *nodes, size_t nlisted)
{
	uint32_t	n = 0;
	size_t		k;

	for (k = 0; k < nlisted; k++) {
		if (nodes[k] >= cl->n || !place_cpu_fits(cl, nodes[k]))
			continue;
		cl->nodes[nodes[k]].mark = cl->stamp;
		cl->scratch[n++] = nodes[k];
	}
	qsort_r(cl->scratch, n, sizeof *cl->scratch, place_by_free_asc, cl);
	return (n < want ? n : want);
}

/* Up to want nodes that fit into cl->scratch, walking the buckets from no
 * free GPU up, each in its own order. Returns how many. */
static uint32_t
place_cpu_all(struct place_cluster *cl, uint32_t want)
{
	uint32_t	n = 0, c, i;

	for (c = 0; c <= SCHED_MAX_GPUS_PER_NODE && n < want; c++) {
		for (i = cl->head[c]; i != PLACE_NONE && n < want;
		    i = cl->nodes[i].next) {
			if (!place_cpu_fits(cl, i))
				continue;
			cl->nodes[i].mark = cl->stamp;
			cl->scratch[n++] = i;
		}
	}
	return (n);
}

size_t
place_cpu_find(struct place_cluster *cl, const struct place_want *w,
    struct place_alloc *out)
{
	uint32_t	want = w->nnodes > 0 ? w->nnodes : 1, n, j;

	if (want > cl->n)
		return (0);
	place_new_stamp(cl);
	if (w->nodes != NULL)
		n = place_cpu_listed(cl, want, w->nodes, w->nlisted);
	else
		n = place_cpu_all(cl, want);
	if (n < want)
		return (0);
	/* Rank 0 on the lowest node, as for GPU jobs. */
	qsort(cl->scratch, n, sizeof *cl->scratch, place_by_index);
	place_new_stamp(cl);
	for (j = 0; j < n; j++)
		place_put(cl, cl->scratch[j], 0, &out[j]);
	return (n);
}
