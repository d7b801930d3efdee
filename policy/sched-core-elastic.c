/* sched-core-elastic.c: elastic jobs (issue 36). An elastic job is
 * ordered, started and preempted as a job of its fewest GPUs, so Tiresias'
 * order decides who runs; what a pass leaves free at its end then goes to
 * the elastic jobs it started, in the order it started them, each up to
 * its most. A job that is not yet running pays no restart for it, and no
 * job waiting is kept from anything: every job the pass could start has
 * started, and the GPUs held for a plan or a promise stay out of it.
 *
 * While nothing is known of how a job scales, its speedup is taken as
 * linear up to its most (the rule), and the first in the order
 * takes what it can use: under a linear speedup any split of the same
 * GPUs gives the same goodput, and the order is Tiresias'. */
#include <stdlib.h>
#include <string.h>

#include "policy/sched-core-int.h"
#include "policy/sched-group.h"

void
sched_core_elastic_note(struct sched_core *core, struct sched_cjob *j)
{
	if (j->shape->gpus_max == 0)
		return;
	if (core->ngrow == core->growsize) {
		core->growsize = core->growsize == 0 ? 8 : core->growsize * 2;
		core->grow = sched_core_xalloc(core->grow, core->growsize,
		    sizeof *core->grow);
	}
	core->grow[core->ngrow++] = j;
}

void
sched_core_elastic_reshape(struct sched_core *core, struct sched_cjob *j,
    uint32_t gpus)
{
	const struct sched_shape	*old = j->shape;
	struct sched_shape		 want;

	if (old->gpus == gpus)
		return;
	/* The members that say what the shape is; its memos start anew
	 * (a verdict on caps at one count is not one at another). */
	want = *old;
	want.gpus = gpus;
	want.next = NULL;
	want.cap_gen = 0;
	want.pmiss_generation = 0;
	want.pmiss_victims = 0;
	sched_core_fairshare_join(core, j, -1);
	j->shape = sched_shape_get(&core->shapes, &want, old->nodes,
	    old->nnodes);
	sched_shape_put(&core->shapes, old);
	j->rate = gpus * SCHED_RATE_GPU;
	sched_core_fairshare_join(core, j, 1);
}

/* The most GPUs j, holding none, may take: its most, the GPUs free, and
 * what its limits' GPU caps leave it. */
static uint32_t
sched_core_elastic_top(struct sched_core *core, const struct sched_cjob *j)
{
	const struct sched_group	*g;
	uint64_t			 top = j->shape->gpus_max, free_now;
	uint8_t				 i;

	free_now = place_free_total(core->cluster);
	if (top > free_now)
		top = free_now;
	for (i = 0; i < j->shape->nlimits; i++) {
		g = j->shape->limit[i];
		if (g->gpu_cap == 0)
			continue;
		if (g->gpus >= g->gpu_cap)
			return (0);
		if (top > g->gpu_cap - g->gpus)
			top = g->gpu_cap - g->gpus;
	}
	return ((uint32_t)top);
}

/* Moves j, started this pass on its fewest GPUs, onto the most it may
 * take now where its shape places them; where no more fit, it keeps what
 * it had. */
static void
sched_core_elastic_grow_one(struct sched_core *core, struct sched_cjob *j,
    int64_t now)
{
	struct place_alloc	*had;
	size_t			 nhad, got;
	uint32_t		 cur = j->shape->gpus, top, n;
	const struct place_alloc *a = sched_cjob_alloc(j, &nhad);

	if (place_free_total(core->cluster) == 0)
		return;
	had = sched_core_xalloc(NULL, nhad, sizeof *had);
	memcpy(had, a, nhad * sizeof *had);
	sched_core_unrun(core, j);
	sched_core_unhold(core, j);
	top = sched_core_elastic_top(core, j);
	for (n = top; n > cur; n--) {
		if (j->shape->num_nodes > 0 && n % j->shape->num_nodes != 0)
			continue;
		sched_core_elastic_reshape(core, j, n);
		if ((got = sched_core_place_find(core, j)) > 0) {
			sched_core_run(core, j, core->scratch, got, now);
			free(had);
			return;
		}
	}
	sched_core_elastic_reshape(core, j, cur);
	sched_core_run(core, j, had, nhad, now);
	free(had);
}

void
sched_core_elastic_grow(struct sched_core *core, int64_t now)
{
	size_t	i;

	for (i = 0; i < core->ngrow; i++)
		sched_core_elastic_grow_one(core, core->grow[i], now);
	core->ngrow = 0;
}
