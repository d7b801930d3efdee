/* sched-core-place.c: where a job's GPUs are found: in its shape, on the
 * nodes it may use, with the CPUs and memory it needs beside them; and,
 * when they are not, why it waits. */
#include <string.h>

#include "policy/sched-core-int.h"

/* What p asks of its GPUs' placement: its shape, its nodes, what it
 * needs beside them. */
static void
sched_core_place_want(const struct sched_cjob *p, struct place_want *w)
{
	memset(w, 0, sizeof *w);
	w->gpus = p->shape->gpus;
	w->nnodes = p->shape->num_nodes;
	w->any_shape = p->shape->any_shape;
	w->sensitive = p->shape->consolidate;
	if (sched_cjob_listed(p)) {
		w->nodes = p->shape->nodes;
		w->nlisted = p->shape->nnodes;
	}
	w->res = sched_cjob_res(p);
}

/* Finds p's GPUs among the free ones, in its shape, on the nodes it may
 * use; the placement goes to core->scratch. */
size_t
sched_core_place_find(struct sched_core *core, const struct sched_cjob *p)
{
	struct place_want	w;

	sched_core_place_want(p, &w);
	return (place_find_want(core->cluster, sched_cjob_placement(core, p),
	    &w, core->scratch));
}

/* Why p, which did not fit though enough GPUs are free, waits: the GPUs
 * (their split), or the CPUs or the memory it needs beside them. Costs
 * up to two more placements, for a job with CPUs and memory to place. */
enum sched_reason
sched_core_place_short(struct sched_core *core, const struct sched_cjob *p)
{
	const struct place_res	*r = sched_cjob_res(p);
	struct place_res	 cpus_only;
	struct place_want	 w;
	enum sched_placement	 how = sched_cjob_placement(core, p);

	/* The GPUs alone first. */
	sched_core_place_want(p, &w);
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
