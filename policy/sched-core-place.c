/* sched-core-place.c: where a job's GPUs are found: in its shape, on the
 * nodes it may use (its own sets, as the advance reservations' windows
 * leave them at the pass's now: sched-core-window.c), with the CPUs and
 * memory it needs beside them; and, when they are not, why it waits. */
#include <string.h>

#include "policy/sched-core-int.h"

/* What p asks of its GPUs' placement: its shape, its nodes (of set k,
 * as it may use them now), what it needs beside them. */
void
sched_core_place_want(struct sched_core *core, const struct sched_cjob *p,
    uint32_t k, struct place_want *w)
{
	uint32_t	n;

	memset(w, 0, sizeof *w);
	w->gpus = p->shape->gpus;
	w->nnodes = p->shape->num_nodes;
	w->any_shape = p->shape->any_shape;
	w->sensitive = p->shape->consolidate;
	if ((w->nodes = sched_core_window_nodes(core, p, k, &n)) != NULL)
		w->nlisted = n;
	w->res = sched_cjob_res(p);
	w->shards = p->shape->shards;
}

void
sched_core_place_dist(struct sched_core *core, const struct place_alloc *a,
    size_t n, int sign)
{
	size_t	i, old;

	if (n < 2)
		return;		/* one node: no network shared */
	for (i = 0; i < n; i++) {
		if (a[i].node >= core->distsize) {
			old = core->distsize;
			core->distsize = a[i].node + 64;
			core->dist = sched_core_xalloc(core->dist,
			    core->distsize, sizeof *core->dist);
			memset(core->dist + old, 0, (core->distsize - old) *
			    sizeof *core->dist);
		}
		if (sign > 0 && core->dist[a[i].node]++ == 0)
			core->ndist++;
		else if (sign < 0 && --core->dist[a[i].node] == 0)
			core->ndist--;
	}
}

/* Whether node i holds a part of a job on several nodes. */
static bool
sched_core_place_shared(const struct sched_core *core, uint32_t i)
{
	return (i < core->distsize && core->dist[i] > 0);
}

/* avoid_interference: p found got parts in core->scratch, on several
 * nodes, one of which holds a part of another such job; where its GPUs
 * fit on as many nodes of w's that hold none, or fewer, they replace it.
 * Returns the parts now in core->scratch. */
static size_t
sched_core_place_apart(struct sched_core *core, const struct sched_cjob *p,
    struct place_want *w, size_t got)
{
	size_t	i, n, all, alt;

	for (i = 0; i < got && !sched_core_place_shared(core,
	    core->scratch[i].node); i++)
		;
	if (i == got)
		return (got);	/* it shares no node already */
	all = w->nodes != NULL ? w->nlisted : place_nodes(core->cluster);
	if (core->anodesize < all) {
		core->anodesize = all;
		core->anodes = sched_core_xalloc(core->anodes, all,
		    sizeof *core->anodes);
	}
	for (i = n = 0; i < all; i++) {
		if (!sched_core_place_shared(core, w->nodes != NULL ?
		    w->nodes[i] : (uint32_t)i))
			core->anodes[n++] = w->nodes != NULL ? w->nodes[i] :
			    (uint32_t)i;
	}
	w->nodes = core->anodes;
	w->nlisted = n;
	if (n > 0 && (alt = place_find_want(core->cluster,
	    sched_cjob_placement(core, p), w, core->ascratch)) > 0 &&
	    alt <= got) {
		memcpy(core->scratch, core->ascratch, alt *
		    sizeof *core->scratch);
		return (alt);
	}
	return (got);
}

/* Finds p's GPUs among the free ones, in its shape, on the nodes it may
 * use: of its sets, the first that holds it; the placement goes to
 * core->scratch. On several nodes, apart from the other such jobs where
 * it can (avoid_interference). */
size_t
sched_core_place_find(struct sched_core *core, const struct sched_cjob *p)
{
	struct place_want	w;
	uint32_t		k = 0;
	size_t			got;

	do {
		sched_core_place_want(core, p, k, &w);
		if (w.nodes != NULL && w.nlisted == 0)
			continue;	/* an empty set holds nothing */
		if ((got = place_find_want(core->cluster,
		    sched_cjob_placement(core, p), &w, core->scratch)) > 0) {
			if (got > 1 && core->ndist > 0 &&
			    core->conf.avoid_interference)
				got = sched_core_place_apart(core, p, &w, got);
			return (got);
		}
	} while (++k < sched_core_window_nsets(p));
	return (0);
}

/* Whether p would fit now were no window in its way. */
static bool
sched_core_place_unwindowed(struct sched_core *core,
    const struct sched_cjob *p)
{
	size_t	got;

	core->wbypass = true;
	got = sched_core_place_find(core, p);
	core->wbypass = false;
	return (got > 0);
}

/* Why p, which did not fit though enough GPUs are free, waits: the GPUs
 * (their split), or the CPUs or the memory it needs beside them, as its
 * first set of nodes says; a maintenance window, when one holds nodes
 * that would take it now. Costs up to two more placements, for a job
 * with CPUs and memory to place, one more where a maintenance is in the
 * way. */
enum sched_reason
sched_core_place_short(struct sched_core *core, const struct sched_cjob *p)
{
	const struct place_res	*r = sched_cjob_res(p);
	struct place_res	 cpus_only;
	struct place_want	 w;
	enum sched_placement	 how = sched_cjob_placement(core, p);

	if (sched_core_window_of(core, p)->maint &&
	    sched_core_place_unwindowed(core, p))
		return (SCHED_REASON_RESV_MAINT);
	/* The GPUs alone first. */
	sched_core_place_want(core, p, 0, &w);
	w.res = NULL;
	if (r == NULL || place_find_want(core->cluster, how, &w,
	    core->scratch) == 0)
		return (SCHED_REASON_RESOURCES);
	cpus_only = *r;
	cpus_only.mem_node = cpus_only.mem_gpu = 0;
	cpus_only.mem_share = false;
	w.res = &cpus_only;
	return (place_find_want(core->cluster, how, &w, core->scratch) == 0 ?
	    SCHED_REASON_CPUS : SCHED_REASON_MEMORY);
}
