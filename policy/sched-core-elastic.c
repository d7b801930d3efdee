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
 * GPUs gives the same goodput, and the order is Tiresias'. Once the
 * caller gives a job's speedups (sched_core_elastic_speedup, from what it
 * reported), it takes the count of the best speedup it can be placed on,
 * the fewest of equals: GPUs that add nothing stay free for others.
 *
 * A running elastic job grows too, by a restart: no sooner than
 * elastic_interval after its start, onto GPUs still free once the pass
 * has started all it can, where its speedup grows by half or more
 * (elastic.h's ELASTIC_MIN_GAIN) and the time that saves pays
 * elastic_overhead.
 * It is stopped at its checkpoint (SCHED_ACT_RESIZE), its own victim,
 * with the GPUs it grows onto held for it, and restarts first on its new
 * count (sched_core_pass_first). It shrinks as any job is preempted:
 * whole, to restart on what is left. */
#include <stdlib.h>
#include <string.h>

#include "policy/elastic.h"
#include "policy/sched-core-int.h"
#include "policy/sched-group.h"

/* The most counts a speedup table holds: a node's most GPUs times the
 * nodes of a large gang. */
#define SCHED_ELASTIC_MAX_TABLE	4097

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

void
sched_core_elastic_speedup(struct sched_core *core, struct sched_cjob *j,
    const double *s, size_t ns)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	size_t			 n;

	(void)core;
	free(h->speedup);
	h->speedup = NULL;
	h->nspeedup = 0;
	if (s == NULL || ns < 2)
		return;
	if (ns > SCHED_ELASTIC_MAX_TABLE)
		ns = SCHED_ELASTIC_MAX_TABLE;
	h->speedup = sched_core_xalloc(NULL, ns, sizeof *h->speedup);
	h->speedup[0] = 0;
	for (n = 1; n < ns; n++)
		h->speedup[n] = s[n] > 0 && s[n] < (double)n ? s[n] :
		    s[n] > 0 ? (double)n : 0;
	h->nspeedup = (uint32_t)ns;
}

/* j's speedup on n GPUs (sched_core_elastic_speedup). */
static double
sched_core_elastic_s(const struct sched_cjob *j, uint32_t n)
{
	const struct sched_chold	*h = j->hold;

	if (h == NULL || h->speedup == NULL)
		return ((double)n);
	return (h->speedup[n < h->nspeedup ? n : h->nspeedup - 1]);
}

void
sched_core_elastic_fit(struct sched_core *core, struct sched_cjob *j,
    const struct place_alloc *a, size_t n)
{
	uint32_t	gpus = 0;
	size_t		i;

	if (j->shape->gpus_max == 0)
		return;
	for (i = 0; i < n; i++)
		gpus += sched_mask_count(a[i].mask);
	if (gpus >= j->shape->gpus_min && gpus <= j->shape->gpus_max)
		sched_core_elastic_reshape(core, j, gpus);
}

/* The most GPUs j, holding own of them, may run on: its most, the GPUs
 * free and its own, and what its limits' GPU caps leave it. */
static uint32_t
sched_core_elastic_top(struct sched_core *core, const struct sched_cjob *j,
    uint32_t own)
{
	const struct sched_group	*g;
	uint64_t			 top = j->shape->gpus_max, free_now;
	uint8_t				 i;

	free_now = place_free_total(core->cluster) + own;
	if (top > free_now)
		top = free_now;
	for (i = 0; i < j->shape->nlimits; i++) {
		g = j->shape->limit[i];
		if (g->gpu_cap == 0)
			continue;
		if (g->gpus - own >= g->gpu_cap)
			return (0);
		if (top > g->gpu_cap - (g->gpus - own))
			top = g->gpu_cap - (g->gpus - own);
	}
	return ((uint32_t)top);
}

/* Moves j, started this pass on its fewest GPUs, onto the count of its
 * best speedup, cap at most, that its shape places now; where none does,
 * it keeps what it had. */
static void
sched_core_elastic_grow_one(struct sched_core *core, struct sched_cjob *j,
    uint32_t cap, int64_t now)
{
	struct place_alloc	*had;
	size_t			 nhad, got;
	uint32_t		 cur = j->shape->gpus, top, n, best;
	double			 bs;
	const struct place_alloc *a = sched_cjob_alloc(j, &nhad);

	if (place_free_total(core->cluster) == 0)
		return;
	had = sched_core_xalloc(NULL, nhad, sizeof *had);
	memcpy(had, a, nhad * sizeof *had);
	sched_core_unrun(core, j);
	sched_core_unhold(core, j);
	if ((top = sched_core_elastic_top(core, j, 0)) > cap)
		top = cap;
	/* The best speedup it can be placed on, the fewest GPUs of equals;
	 * under a linear one, the most it can be placed on. */
	best = cur;
	bs = sched_core_elastic_s(j, cur);
	for (n = top; n > cur; n--) {
		if ((j->shape->num_nodes > 0 && n % j->shape->num_nodes != 0) ||
		    sched_core_elastic_s(j, n) < bs)
			continue;
		sched_core_elastic_reshape(core, j, n);
		if (sched_core_place_find(core, j) > 0) {
			best = n;
			bs = sched_core_elastic_s(j, n);
		}
	}
	sched_core_elastic_reshape(core, j, best);
	if (best != cur && (got = sched_core_place_find(core, j)) > 0)
		sched_core_run(core, j, core->scratch, got, now);
	else {
		sched_core_elastic_reshape(core, j, cur);
		sched_core_run(core, j, had, nhad, now);
	}
	free(had);
}

/* How much longer running j is expected to run (ms): its prediction's
 * rest, else its time limit's, else as long as it has run in all (a job
 * that ran T is as likely to run T more). */
static int64_t
sched_core_elastic_left(const struct sched_cjob *j, int64_t now)
{
	const struct sched_chold	*h = j->hold;
	int64_t				 total, ran = now - h->started;

	total = sched_cjob_total_executed(j, now);
	if (j->expect_s > 0 && (int64_t)j->expect_s * 1000 > total)
		return ((int64_t)j->expect_s * 1000 - total);
	if (j->limit_s > 0 && (int64_t)j->limit_s * 1000 > ran)
		return ((int64_t)j->limit_s * 1000 - ran);
	return (total);
}

/* Where running j would run on n GPUs, its own counted as free: the
 * placement in core->scratch, its length returned (0: none). */
static size_t
sched_core_elastic_place(struct sched_core *core, const struct sched_cjob *j,
    uint32_t n)
{
	struct place_want	w;
	uint32_t		k = 0;
	size_t			got = 0;

	place_release(core->cluster, j->hold->alloc, j->hold->nalloc);
	do {
		sched_core_place_want(core, j, k, &w);
		w.gpus = n;
		if (w.nodes != NULL && w.nlisted == 0)
			continue;
		if ((got = place_find_want(core->cluster,
		    sched_cjob_placement(core, j), &w, core->scratch)) > 0)
			break;
	} while (++k < sched_core_window_nsets(j));
	place_take(core->cluster, j->hold->alloc, j->hold->nalloc);
	return (got);
}

/* Whether running j is to be resized now, and to what: its plan set,
 * its count returned (0: not now). */
static uint32_t
sched_core_elastic_target(struct sched_core *core, struct sched_cjob *j,
    int64_t now)
{
	struct sched_chold	*h = j->hold;
	uint32_t		 cur = j->shape->gpus, top, n, best = 0;
	int64_t			 due, left, cost;
	double			 sc, sn, bs = 0;
	size_t			 got;

	if (j->shape->no_requeue || cur >= j->shape->gpus_max ||
	    place_free_total(core->cluster) == 0)
		return (0);
	due = h->started + (int64_t)core->conf.elastic_interval * 1000;
	if (now < due) {
		if (due < core->elastic_wake)
			core->elastic_wake = due;
		return (0);
	}
	top = sched_core_elastic_top(core, j, cur);
	left = sched_core_elastic_left(j, now);
	cost = (int64_t)core->conf.elastic_overhead * 1000;
	sc = sched_core_elastic_s(j, cur);
	/* The best speedup it can be placed on, the fewest GPUs of equals,
	 * half above what it has and paying the restart: what is left
	 * then runs sc / sn as long. */
	for (n = top; n > cur; n--) {
		sn = sched_core_elastic_s(j, n);
		if ((j->shape->num_nodes > 0 && n % j->shape->num_nodes != 0) ||
		    sn < bs || sn < sc * (1 + ELASTIC_MIN_GAIN) ||
		    (double)left * (1 - sc / sn) < (double)cost)
			continue;
		if (sched_core_elastic_place(core, j, n) > 0) {
			best = n;
			bs = sn;
		}
	}
	if (best == 0 || (got = sched_core_elastic_place(core, j, best)) == 0)
		return (0);
	h->plan = sched_core_xalloc(h->plan, got, sizeof *h->plan);
	memcpy(h->plan, core->scratch, got * sizeof *h->plan);
	h->nplan = (uint32_t)got;
	return (best);
}

/* j, running, stops at its checkpoint to restart first on its plan: its
 * own victim, the GPUs it grows onto held for it. */
static void
sched_core_elastic_resize(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_chold	*h = j->hold;

	sched_core_unrun(core, j);
	j->state = SCHED_JOB_PREEMPTING;
	h->resizes++;
	h->waiter = j;
	h->waiting = 1;
	TAILQ_INSERT_TAIL(&core->preempting, j, hold->pentry);
	if (!h->fs_first) {
		h->fs_first = true;
		TAILQ_INSERT_TAIL(&core->fs_first, j, hold->fentry);
	}
	(void)sched_core_pass_hold(core, h->plan, h->nplan, &core->held,
	    &core->nheld, &core->heldsize);
	sched_core_pass_act(core, SCHED_ACT_RESIZE, j);
}

/* How far each of the elastic jobs the pass started, core->grow[0..ngrow),
 * should grow (cap[i]): the GPUs free go a step at a time to the job
 * whose speedup grows the most per GPU over its best next step (k more:
 * a dip where it spills onto another node is seen past), each up to what
 * it may take; the first in the order among equals. Under linear
 * speedups, the first takes what it can use, then the next (Tiresias'
 * order); with learnt ones, the cluster's speedup is what grows. */
static void
sched_core_elastic_caps(struct sched_core *core, uint32_t *cap)
{
	struct sched_cjob	*j;
	uint32_t		*top, left, k, bstep = 0;
	double			 gain, bgain;
	size_t			 i, best;

	top = sched_core_xalloc(NULL, core->ngrow, sizeof *top);
	left = (uint32_t)place_free_total(core->cluster);
	for (i = 0; i < core->ngrow; i++) {
		j = core->grow[i];
		cap[i] = j->shape->gpus;
		top[i] = sched_core_elastic_top(core, j, j->shape->gpus);
	}
	while (left > 0) {
		best = core->ngrow;
		bgain = 1e-9;
		for (i = 0; i < core->ngrow; i++) {
			j = core->grow[i];
			for (k = 1; k <= left && cap[i] + k <= top[i]; k++) {
				gain = (sched_core_elastic_s(j, cap[i] + k) -
				    sched_core_elastic_s(j, cap[i])) / k;
				if (gain > bgain + 1e-9) {
					bgain = gain;
					best = i;
					bstep = k;
				}
			}
		}
		if (best == core->ngrow)
			break;
		cap[best] += bstep;
		left -= bstep;
	}
	free(top);
}

void
sched_core_elastic_grow(struct sched_core *core, int64_t now)
{
	struct otree_node	*n;
	struct sched_cjob	*j;
	uint32_t		*cap;
	size_t			 i;

	if (core->ngrow > 0) {
		cap = sched_core_xalloc(NULL, core->ngrow, sizeof *cap);
		sched_core_elastic_caps(core, cap);
		for (i = 0; i < core->ngrow; i++)
			sched_core_elastic_grow_one(core, core->grow[i],
			    cap[i], now);
		free(cap);
	}
	core->ngrow = 0;
	core->elastic_wake = SCHED_NEVER;
	if (core->nelastic == 0 || core->conf.elastic_interval == 0)
		return;
	/* The running elastic jobs that may grow, in priority order,
	 * gathered first: a resize takes its job off the running tree. */
	for (n = otree_first(&core->running); n != NULL; n = otree_next(n)) {
		j = SCHED_CJOB_OF(n, qnode);
		if (j->shape->gpus_max > j->shape->gpus)
			sched_core_elastic_note(core, j);
	}
	for (i = 0; i < core->ngrow; i++) {
		j = core->grow[i];
		if (sched_core_elastic_target(core, j, now) > 0)
			sched_core_elastic_resize(core, j);
	}
	core->ngrow = 0;
}
