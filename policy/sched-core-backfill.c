/* sched-core-backfill.c: backfill with promises (sched-resv.h) in the
 * core. Running jobs whose end is expected are kept in the order of it
 * (the ends tree). A pass promises the first backfill_depth jobs that can
 * neither start nor make room by preemption the earliest time their GPUs
 * will be free, holds for the rest of the pass the promised GPUs that are
 * free now, and lets a job behind take those only when it ends by the
 * earliest promise: by its time limit, or by its predicted end when it
 * can be requeued (stopped then). GPUs no promise needs are anyone's.
 *
 * A promise is made on the nodes the advance reservations' windows leave
 * the job now (sched-window.h): a job they keep off a node is promised
 * none of it, though a window may end before the promise is due.
 *
 * A second promise is made on the cluster as the first left it: the
 * GPUs the first holds now are not given back to it, but those the first
 * will have once running jobs end may be promised to both. Promises are
 * made again at every pass, so one that two share is settled when the
 * first starts. */
#include <string.h>

#include "policy/sched-core-int.h"

/* ms from seconds, as the jobspec's were kept. */
#define SCHED_BF_MS(s)	((int64_t)(s) * 1000)

void
sched_core_backfill_ends_add(struct sched_core *core, struct sched_cjob *j,
    int64_t now)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	int64_t			 left;

	h->expect_end = SCHED_NEVER;
	/* Kept only where promises are made: no cost otherwise. */
	if (core->conf.backfill_depth == 0)
		return;
	if (j->limit_s > 0) {
		/* Less what the run has run (a resumed job's). */
		left = SCHED_BF_MS(j->limit_s) - (h->total_executed -
		    h->run_base);
		h->expect_end = now + (left > 0 ? left : 0);
	} else if (j->expect_s > 0) {
		/* Run time in all, less what earlier runs did; a job past
		 * its prediction is expected to end any moment. */
		left = SCHED_BF_MS(j->expect_s) - h->total_executed;
		h->expect_end = now + (left > 0 ? left : 0);
	}
	if (h->expect_end != SCHED_NEVER)
		otree_insert(&core->ends, &h->enode);
}

void
sched_core_backfill_ends_remove(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_chold	*h = j->hold;

	if (h == NULL || h->expect_end == SCHED_NEVER)
		return;
	otree_remove(&core->ends, &h->enode);
	h->expect_end = SCHED_NEVER;
}

void
sched_core_backfill_begin(struct sched_core *core)
{
	core->nresv = 0;
	core->resv_start = SCHED_NEVER;
	core->resv_gpus = 0;
	core->nrheld = 0;
	core->nbf_miss = 0;
}

void
sched_core_backfill_end(struct sched_core *core)
{
	place_release(core->cluster, core->rheld, core->nrheld);
	core->nrheld = 0;
	core->resv_gpus = 0;
}

/* The running jobs by expected end, the earliest first, backfill_window
 * of them at most: core->runs, their count. */
static size_t
sched_core_backfill_runs(struct sched_core *core)
{
	struct otree_node	*e;
	struct sched_chold	*h;
	size_t			 n = 0, max = core->conf.backfill_window;

	for (e = otree_first(&core->ends); e != NULL &&
	    (max == 0 || n < max); e = otree_next(e)) {
		h = SCHED_CHOLD_OF_END(e);
		if (n == core->runsize) {
			core->runsize = core->runsize != 0 ?
			    core->runsize * 2 : 64;
			core->runs = sched_core_xalloc(core->runs,
			    core->runsize, sizeof *core->runs);
		}
		core->runs[n].alloc = h->alloc;
		core->runs[n].n = h->nalloc;
		core->runs[n].end = h->expect_end;
		n++;
	}
	return (n);
}

bool
sched_core_backfill_promise(struct sched_core *core, struct sched_cjob *p,
    int64_t now)
{
	struct place_want	 w;
	struct sched_resv	 r;
	size_t			 nruns;
	uint32_t		 k = 0;

	if (core->nresv >= core->conf.backfill_depth || p->shape->gpus == 0 ||
	    sched_core_window_of(core, p)->never)
		return (false);
	nruns = sched_core_backfill_runs(core);
	r.plan = core->rplan;
	r.start = SCHED_RESV_NEVER;	/* should every set be empty */
	/* Its sets of nodes in order, as it would start: the first that
	 * can hold it at some known time is promised. */
	do {
		sched_core_place_want(core, p, k, &w);
		if (w.nodes != NULL && w.nlisted == 0)
			continue;
		sched_resv_find(core->cluster, sched_cjob_placement(core, p),
		    &w, core->runs, nruns, 0, now, &r);
		if (r.start != SCHED_RESV_NEVER)
			break;
	} while (++k < sched_core_window_nsets(p));
	if (r.start == SCHED_RESV_NEVER)
		return (false);
	/* The promised GPUs free now are held for the rest of the pass. */
	core->resv_gpus += sched_core_pass_hold(core, r.plan, r.nplan,
	    &core->rheld, &core->nrheld, &core->rheldsize);
	core->promises = sched_core_xalloc(core->promises, core->nresv + 1,
	    sizeof *core->promises);
	core->promises[core->nresv].id = p->id;
	core->promises[core->nresv].start = r.start;
	core->nresv++;
	if (r.start < core->resv_start)
		core->resv_start = r.start;
	return (true);
}

bool
sched_core_backfill_in_time(const struct sched_core *core,
    const struct sched_cjob *p, int64_t now)
{
	int64_t	left;

	if (core->nresv == 0)
		return (true);
	if (p->limit_s > 0)
		return (now + SCHED_BF_MS(p->limit_s) <= core->resv_start);
	/* A prediction may overrun: only a job that can be stopped at the
	 * promise's start (requeued, from its checkpoint) may lean on it,
	 * and only while it promises some time to run before then (one past
	 * its prediction, or a promise due now, would be stopped as it
	 * starts, again and again). */
	if (p->expect_s == 0 || p->shape->no_requeue)
		return (false);
	left = SCHED_BF_MS(p->expect_s) - sched_cjob_held(p)->total_executed;
	return (left > 0 && now + left <= core->resv_start);
}

/* Whether a placement like p's found none on the promised GPUs with the
 * cluster as it stands (random placement is never answered so). */
static bool
sched_core_backfill_missed(struct sched_core *core, const struct sched_cjob *p)
{
	uint64_t	wkey;
	size_t		i;

	if (core->bf_gen != place_generation(core->cluster) ||
	    sched_cjob_placement(core, p) == SCHED_PLACE_RANDOM)
		return (false);
	wkey = sched_core_window_of(core, p)->key;
	for (i = 0; i < core->nbf_miss; i++) {
		if (core->bf_miss[i].key == p->shape->place_key &&
		    core->bf_miss[i].gpus == p->shape->gpus &&
		    core->bf_miss[i].wkey == wkey)
			return (true);
	}
	return (false);
}

/* Notes that p found no room on the promised GPUs, tried with the
 * cluster at generation gen and left as it was (its generation moved all
 * the same: what stood at gen stands). */
static void
sched_core_backfill_miss(struct sched_core *core, const struct sched_cjob *p,
    uint64_t gen)
{
	size_t	i;

	if (core->bf_gen != gen)
		core->nbf_miss = 0;
	core->bf_gen = place_generation(core->cluster);
	i = core->nbf_miss < SCHED_MISSES ? core->nbf_miss++ :
	    (size_t)(p->id % SCHED_MISSES);
	core->bf_miss[i].key = p->shape->place_key;
	core->bf_miss[i].gpus = p->shape->gpus;
	core->bf_miss[i].wkey = sched_core_window_of(core, p)->key;
}

size_t
sched_core_backfill_place(struct sched_core *core, const struct sched_cjob *p)
{
	struct place_alloc	*a;
	uint64_t		 gen = place_generation(core->cluster);
	size_t			 got, i, j, n = 0;

	if (core->nrheld == 0 || sched_core_backfill_missed(core, p))
		return (0);
	place_release(core->cluster, core->rheld, core->nrheld);
	got = sched_core_place_find(core, p);
	/* Held again, but for what p takes (it starts at once). */
	core->resv_gpus = 0;
	for (i = 0; i < core->nrheld; i++) {
		a = &core->rheld[i];
		for (j = 0; j < got; j++) {
			if (core->scratch[j].node == a->node)
				a->mask &= ~core->scratch[j].mask;
		}
		if (a->mask == 0)
			continue;
		core->rheld[n++] = *a;
		core->resv_gpus += sched_mask_count(a->mask);
	}
	core->nrheld = n;
	place_take(core->cluster, core->rheld, core->nrheld);
	if (got == 0)
		sched_core_backfill_miss(core, p, gen);
	return (got);
}

void
sched_core_backfill_lean(struct sched_core *core, struct sched_cjob *p)
{
	struct sched_chold	*h = sched_cjob_hold(p);

	h->bf_deadline = core->resv_start;
	otree_insert(&core->deadlines, &h->dnode);
}

void
sched_core_backfill_unlean(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_chold	*h = j->hold;

	if (h == NULL || h->bf_deadline == SCHED_NEVER)
		return;
	otree_remove(&core->deadlines, &h->dnode);
	h->bf_deadline = SCHED_NEVER;
}

struct sched_cjob *
sched_core_backfill_overdue(struct sched_core *core, int64_t now)
{
	struct otree_node	*n = otree_first(&core->deadlines);
	struct sched_cjob	*j;

	if (n == NULL || SCHED_CHOLD_OF_DL(n)->bf_deadline > now)
		return (NULL);
	j = SCHED_CHOLD_OF_DL(n)->job;
	sched_core_backfill_unlean(core, j);
	return (j);
}

int64_t
sched_core_backfill_next(const struct sched_core *core)
{
	struct otree_node	*n = otree_first(&core->deadlines);

	return (n != NULL ? SCHED_CHOLD_OF_DL(n)->bf_deadline : SCHED_NEVER);
}
