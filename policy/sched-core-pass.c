/* sched-core-pass.c: a pass. Runs the due demotions and promotions, then
 * walks the pending jobs once in the order they are served: starts each
 * that fits (gang: all its GPUs at once, or it is skipped), and for one
 * that does not, preempts lower-priority jobs whose GPUs would make room
 * (sched-core-preempt.c), reserving for the rest of the pass what it was
 * promised. The walk stops as soon as neither the free GPUs nor any job
 * it could preempt can serve the jobs left, so a job that cannot start
 * costs O(1); a memo of placements that found no room answers like jobs
 * without placing them again. With backfill, the first jobs that can do
 * neither are promised a time (sched-core-backfill.c), and the jobs
 * behind them keep the promises. Advance reservations' windows
 * (sched-window.h) narrow the nodes each job may use at the pass's now,
 * and the memos are kept by what they leave it (the view's key). */
#include <sys/queue.h>

#include <stdint.h>
#include <string.h>

#include "policy/sched-core-int.h"

void
sched_core_pass_act(struct sched_core *core, enum sched_action_type type,
    struct sched_cjob *j)
{
	if (core->nacts == core->actsize) {
		core->actsize = core->actsize != 0 ? core->actsize * 2 : 64;
		core->acts = sched_core_xalloc(core->acts, core->actsize,
		    sizeof *core->acts);
	}
	core->acts[core->nacts].type = type;
	core->acts[core->nacts].job = j;
	core->nacts++;
}

uint64_t
sched_core_pass_hold(struct sched_core *core, const struct place_alloc *a,
    size_t n, struct place_alloc **held, size_t *nheld, size_t *size)
{
	size_t		i;
	uint64_t	m, gpus = 0;

	for (i = 0; i < n; i++) {
		m = a[i].mask & place_node_free_mask(core->cluster, a[i].node);
		if (m == 0)
			continue;
		if (*nheld == *size) {
			*size = *size != 0 ? *size * 2 : 16;
			*held = sched_core_xalloc(*held, *size, sizeof **held);
		}
		/* GPUs alone: what lower jobs must not take is the GPUs;
		 * the job's CPUs and memory are counted when it starts. */
		memset(&(*held)[*nheld], 0, sizeof **held);
		(*held)[*nheld].node = a[i].node;
		(*held)[*nheld].mask = m;
		place_take(core->cluster, &(*held)[*nheld], 1);
		(*nheld)++;
		gpus += sched_mask_count(m);
	}
	return (gpus);
}

/* Reserves for this pass the GPUs in a that are free now, so that jobs of
 * lower priority do not take what a waiting job was promised. */
static void
sched_core_pass_reserve(struct sched_core *core, const struct place_alloc *a,
    size_t n)
{
	(void)sched_core_pass_hold(core, a, n, &core->held, &core->nheld,
	    &core->heldsize);
}

/* GPUs of running jobs that p outranks and that may be preempted. For the
 * queue policies a sum over the lower queues (p's own too where
 * preempt_in_queue: an upper bound); for srtf the cursor walks the
 * running jobs (ordered by end) past those p does not outrank, and only
 * forward, since each pending job after p has at least p's remaining time. */
static uint64_t
sched_core_pass_victims(struct sched_core *core, const struct sched_cjob *p,
    struct otree_node **cursor, uint64_t *passed, int64_t now)
{
	struct sched_cjob	*r;
	uint64_t		 sum = 0;
	unsigned		 q;

	/* Tiers: a job may preempt any queue of a lower tier, and within
	 * its own as the policy says. The pending jobs are walked a higher
	 * tier first, so what a job may preempt only shrinks along the
	 * walk, as without tiers. */
	if (core->tiered > 0 && core->conf.policy != SCHED_FIFO) {
		sum = sched_core_victims_below(core, p);
		if (core->conf.policy == SCHED_SRTF)
			return (sum + core->tqvictim[p->tier][0]);
		for (q = p->queue + !core->conf.preempt_in_queue;
		    q < core->nqueues; q++)
			sum += core->tqvictim[p->tier][q];
		return (sum);
	}
	switch (core->conf.policy) {
	case SCHED_DLAS:
	case SCHED_GITTINS:
		for (q = p->queue + !core->conf.preempt_in_queue;
		    q < core->nqueues; q++)
			sum += core->qvictim[q];
		return (sum);
	case SCHED_SRTF:
		while (*cursor != NULL && !sched_core_preempt_outranks(core, p,
		    (r = SCHED_CJOB_OF(*cursor, qnode)), now)) {
			if (!r->shape->no_requeue)
				*passed += r->shape->gpus;
			*cursor = otree_next(*cursor);
		}
		return (core->victim_gpus - *passed);
	case SCHED_FIFO:
	default:
		return (0);
	}
}

/* The most a job behind p in the walk may preempt: with fair share a
 * job of a higher queue may come after p (a user below their share first),
 * so what a job of p's tier in the first queue may preempt; without, what
 * p may (it only shrinks along the walk). */
static uint64_t
sched_core_pass_victims_behind(const struct sched_core *core,
    const struct sched_cjob *p, uint64_t victims)
{
	uint64_t	sum = 0;
	unsigned	q;

	if (!core->conf.fairshare || p->queue == 0 ||
	    (core->conf.policy != SCHED_DLAS &&
	    core->conf.policy != SCHED_GITTINS))
		return (victims);
	/* From the second queue, or the first where a job preempts in
	 * its own queue. */
	if (core->tiered > 0) {
		sum = sched_core_victims_below(core, p);
		for (q = !core->conf.preempt_in_queue; q < core->nqueues; q++)
			sum += core->tqvictim[p->tier][q];
		return (sum);
	}
	for (q = !core->conf.preempt_in_queue; q < core->nqueues; q++)
		sum += core->qvictim[q];
	return (sum);
}

/* Whether p may be answered from this pass's misses: its placement draws
 * no random number. A job bound to nodes (its partitions, -w) is answered
 * by its shape's own miss alone, which names the same nodes. */
static bool
sched_core_pass_may_miss(const struct sched_core *core,
    const struct sched_cjob *p)
{
	return (sched_cjob_placement(core, p) != SCHED_PLACE_RANDOM);
}

/* Whether jobs a and b ask the same of the cluster: as many GPUs, in the
 * same shape and placement, with the same CPUs and memory beside them. */
static bool
sched_core_pass_alike(const struct sched_core *core,
    const struct sched_cjob *a, const struct sched_cjob *b)
{
	const struct sched_shape	*x = a->shape, *y = b->shape;

	/* Jobs asking the same mostly share one shape. */
	if (x == y)
		return (true);
	return (x->gpus == y->gpus && x->num_nodes == y->num_nodes &&
	    sched_cjob_placement(core, a) == sched_cjob_placement(core, b) &&
	    x->consolidate == y->consolidate &&
	    x->any_shape == y->any_shape && x->has_res == y->has_res &&
	    (!x->has_res || sched_shape_res_equal(&x->res, &y->res)));
}

/* sched_cjob_capped of p, from its shape's memo while nothing held or
 * joined since: a queue of 100,000 jobs that found no room reads its
 * limits' groups once, not at every pass. */
static enum sched_reason
sched_core_pass_capped(struct sched_core *core, const struct sched_cjob *p)
{
	struct sched_shape	*s = (struct sched_shape *)(uintptr_t)p->shape;

	if (s->cap_gen != core->cap_gen + 1) {
		s->cap_reason = (uint8_t)sched_cjob_capped(p);
		s->cap_gen = core->cap_gen + 1;
	}
	return ((enum sched_reason)s->cap_reason);
}

/* This pass's reason for a job like p that found no room, if there is
 * one still standing: *why gets it. */
static bool
sched_core_pass_missed(struct sched_core *core, const struct sched_cjob *p,
    enum sched_reason *why)
{
	const struct sched_shape	*s = p->shape;
	const struct sched_place_miss	*pm;
	uint64_t			 gen = place_generation(core->cluster);
	uint64_t			 wkey = sched_core_window_of(core,
					     p)->key;
	size_t				 i;

	if (!sched_core_pass_may_miss(core, p))
		return (false);
	if (s->miss_pass == core->npass && s->miss_generation == gen &&
	    s->miss_wkey == wkey) {
		*why = (enum sched_reason)s->miss_reason;
		return (true);
	}
	pm = &core->place_miss[s->place_key & (SCHED_PLACE_MISSES - 1)];
	if (pm->pass == core->npass && pm->generation == gen &&
	    pm->key == s->place_key && pm->gpus == s->gpus &&
	    pm->wkey == wkey) {
		*why = (enum sched_reason)pm->reason;
		return (true);
	}
	if (sched_cjob_listed(p) || wkey != 0)
		return (false);
	for (i = 0; i < core->nmiss; i++) {
		if (core->miss[i].generation == gen &&
		    sched_core_pass_alike(core, core->miss[i].job, p)) {
			*why = core->miss[i].reason;
			return (true);
		}
	}
	return (false);
}

/* Notes that p found no room, and why. */
static void
sched_core_pass_miss(struct sched_core *core, const struct sched_cjob *p,
    enum sched_reason why)
{
	struct sched_miss	*m;
	struct sched_place_miss	*pm;
	/* The memo is the core's, in a shape it interned: the shape's
	 * members that the set hashes stay as they are. */
	struct sched_shape	*s = (struct sched_shape *)(uintptr_t)p->shape;
	uint64_t		 wkey = sched_core_window_of(core, p)->key;

	if (!sched_core_pass_may_miss(core, p))
		return;
	s->miss_pass = core->npass;
	s->miss_generation = place_generation(core->cluster);
	s->miss_reason = (uint8_t)why;
	s->miss_wkey = wkey;
	pm = &core->place_miss[s->place_key & (SCHED_PLACE_MISSES - 1)];
	pm->key = s->place_key;
	pm->generation = s->miss_generation;
	pm->pass = core->npass;
	pm->gpus = s->gpus;
	pm->reason = (uint8_t)why;
	pm->wkey = wkey;
	if (sched_cjob_listed(p) || wkey != 0)
		return;
	if (core->nmiss < SCHED_MISSES)
		m = &core->miss[core->nmiss++];
	else
		m = &core->miss[core->miss_next++ % SCHED_MISSES];
	m->generation = place_generation(core->cluster);
	m->job = p;
	m->reason = why;
}

/* Whether a victim search for p would find none, as one for a job of its
 * shape, tier and queue did in this pass with nothing changed since
 * (dlas and gittins: there the search reads nothing else of p; not with
 * fair share's guarantee, whose victims depend on p's leaf). */
static bool
sched_core_pass_pmissed(struct sched_core *core, const struct sched_cjob *p)
{
	const struct sched_shape	*s = p->shape;

	return ((core->conf.policy == SCHED_DLAS ||
	    core->conf.policy == SCHED_GITTINS) &&
	    !core->conf.fairshare_preempt && !core->conf.preempt_in_queue &&
	    sched_core_pass_may_miss(core, p) &&
	    s->pmiss_pass == core->npass && s->pmiss_tier == p->tier &&
	    s->pmiss_queue == p->queue &&
	    s->pmiss_victims == core->victim_gen &&
	    s->pmiss_generation == place_generation(core->cluster) &&
	    s->pmiss_wkey == sched_core_window_of(core, p)->key);
}

/* Notes that a victim search for p found none. */
static void
sched_core_pass_pmiss(struct sched_core *core, const struct sched_cjob *p)
{
	/* The core's memo, in a shape it interned (as the misses'). */
	struct sched_shape	*s = (struct sched_shape *)(uintptr_t)p->shape;

	s->pmiss_pass = core->npass;
	s->pmiss_tier = p->tier;
	s->pmiss_queue = p->queue;
	s->pmiss_victims = core->victim_gen;
	s->pmiss_generation = place_generation(core->cluster);
	s->pmiss_wkey = sched_core_window_of(core, p)->key;
}

/* Jobs let in behind a promise on their predictions alone that still run
 * at its start are preempted (they can be requeued, from a checkpoint),
 * while a promise stood at the last pass: their GPUs, orphans, go to the
 * next job that needs GPUs, the promised one first. */
static void
sched_core_pass_overdue(struct sched_core *core, int64_t now)
{
	struct sched_cjob	*r;

	while ((r = sched_core_backfill_overdue(core, now)) != NULL) {
		if (r->state != SCHED_JOB_RUNNING || core->nresv == 0)
			continue;
		sched_core_unrun(core, r);
		r->state = SCHED_JOB_PREEMPTING;
		r->hold->preemptions++;
		r->hold->waiter = NULL;
		TAILQ_INSERT_TAIL(&core->preempting, r, hold->pentry);
		core->norphans++;
		sched_core_pass_act(core, SCHED_ACT_PREEMPT, r);
		sched_core_slice_victim(core, r);
	}
}

/* Whether all of a[0..n) is free: its GPUs, CPUs and memory. */
static bool
sched_core_pass_free(struct sched_core *core, const struct place_alloc *a,
    size_t n)
{
	return (place_fits(core->cluster, a, n));
}

/* The jobs that preempted for fair share's guarantee (core->fs_first)
 * go first: where their victims are gone, they start on what was stopped
 * for them (their plan), as a job ahead of them in the order would take
 * it, and they would preempt again; where not, their plans are held. One
 * whose plan is no longer free (its victims' GPUs went to a job that
 * preempted them first) leaves the list and waits its turn in the order.
 * Only their own plans: what Tiresias' preemptions stopped is their
 * waiters'. */
static void
sched_core_pass_first(struct sched_core *core, int64_t now)
{
	struct sched_cjob	*p, *next;

	for (p = TAILQ_FIRST(&core->fs_first); p != NULL; p = next) {
		next = TAILQ_NEXT(p, hold->fentry);
		if (p->hold->waiting > 0) {
			/* An elastic job resizing is its own victim: it
			 * claims no share, it holds what it has. */
			if (p->state == SCHED_JOB_PENDING)
				sched_core_fairshare_claim(core, p);
			sched_core_pass_reserve(core, p->hold->plan,
			    p->hold->nplan);
			continue;
		}
		sched_core_fairshare_unfirst(core, p);
		if (p->hold->nplan == 0 || !sched_core_pass_free(core,
		    p->hold->plan, p->hold->nplan))
			continue;
		sched_core_dequeue(core, p);
		sched_core_elastic_fit(core, p, p->hold->plan,
		    p->hold->nplan);
		sched_core_run(core, p, p->hold->plan, p->hold->nplan, now);
		sched_core_pass_act(core, SCHED_ACT_START, p);
	}
}

size_t
sched_core_pass(struct sched_core *core, int64_t now,
    const struct sched_action **acts)
{
	struct otree_node	*n, *next, *cursor;
	struct sched_cjob	*p, *r;
	uint64_t		 passed = 0, free_now, room, victims;
	size_t			 left[SCHED_MAX_GPUS_PER_NODE + 1];
	size_t			 got, k, i;
	unsigned		 minsize, b;
	enum sched_reason	 why;
	bool			 in_time, fs;

	core->nacts = 0;
	core->nheld = 0;
	core->ngrow = 0;
	core->nmiss = 0;
	core->npass++;
	core->wnow = now;
	core->tail_reason = SCHED_REASON_RESOURCES;
	sched_core_pass_overdue(core, now);
	sched_core_backfill_begin(core);
	sched_core_mlfq_due(core, now);
	sched_core_fairshare_begin(core);
	sched_core_pass_first(core, now);
	memcpy(left, core->psize, sizeof left);
	for (minsize = 0; minsize < SCHED_MAX_GPUS_PER_NODE &&
	    left[minsize] == 0; minsize++)
		;
	cursor = otree_first(&core->running);
	for (n = otree_first(&core->pending); n != NULL; n = next) {
		next = otree_next(n);
		p = SCHED_CJOB_OF(n, qnode);
		free_now = place_free_total(core->cluster);
		/* A GPU shared with a shard left may hold a shard job. */
		room = free_now + (place_shard_open(core->cluster) > 0);
		victims = sched_core_pass_victims(core, p, &cursor, &passed,
		    now);
		/* Neither the free GPUs (those promised among them, to a job
		 * that ends in time) nor any job p outranks can serve p or
		 * anything behind it (they rank lower still): stop here. */
		if (room + core->resv_gpus < minsize &&
		    sched_core_pass_victims_behind(core, p, victims) == 0 &&
		    core->norphans == 0 && !core->fs_chance) {
			/* The first that waits so is promised still, so
			 * that its expected start stays known. */
			if (core->nresv == 0 && sched_core_pass_capped(core,
			    p) == SCHED_REASON_NONE)
				sched_core_backfill_promise(core, p, now);
			break;
		}
		p->reason_pass = core->npass;
		b = sched_cjob_size_bucket(p);
		if (--left[b] == 0 && b == minsize) {
			while (minsize < SCHED_MAX_GPUS_PER_NODE &&
			    left[minsize] == 0)
				minsize++;
		}
		if ((why = sched_core_pass_capped(core, p)) !=
		    SCHED_REASON_NONE) {
			/* Its array is at its throttle, or a limit at its
			 * cap: whatever it was promised goes to the next. */
			p->reason = why;
			sched_core_preempt_forget(core, p);
			continue;
		}
		if (sched_core_window_of(core, p)->never) {
			/* Its reservation is not open: it waits for it,
			 * and takes, preempts and is promised nothing. */
			p->reason = SCHED_REASON_RESERVATION;
			sched_core_preempt_forget(core, p);
			continue;
		}
		if ((p->shape->shards > 0 ? room : free_now) < p->shape->gpus)
			p->reason = SCHED_REASON_RESOURCES;
		else if (sched_core_pass_missed(core, p, &why))
			p->reason = why;
		else {
			if ((got = sched_core_place_find(core, p)) > 0) {
				sched_core_dequeue(core, p);
				sched_core_run(core, p, core->scratch, got,
				    now);
				sched_core_pass_act(core, SCHED_ACT_START, p);
				sched_core_elastic_note(core, p);
				continue;
			}
			p->reason = sched_cjob_res(p) != NULL ||
			    sched_core_window_of(core, p)->maint ?
			    sched_core_place_short(core, p) :
			    SCHED_REASON_RESOURCES;
			sched_core_pass_miss(core, p, p->reason);
		}
		/* Behind a promise: the GPUs it holds are p's too if p ends
		 * by its start. */
		if (core->nrheld > 0 &&
		    free_now + core->resv_gpus >= p->shape->gpus &&
		    sched_core_backfill_in_time(core, p, now) &&
		    (got = sched_core_backfill_place(core, p)) > 0) {
			sched_core_dequeue(core, p);
			sched_core_run(core, p, core->scratch, got, now);
			/* In time by its prediction alone: gone by then. */
			if (p->limit_s == 0)
				sched_core_backfill_lean(core, p);
			sched_core_pass_act(core, SCHED_ACT_START, p);
			continue;
		}
		if (core->conf.policy == SCHED_FIFO && core->conf.strict) {
			/* Strict order: the rest wait behind p. */
			core->tail_reason = SCHED_REASON_PRIORITY;
			break;
		}
		/* A CPU job waits for CPUs to free up: it preempts no one,
		 * as stopping a GPU job for it would idle GPUs. */
		if (p->shape->gpus == 0)
			continue;
		if (sched_cjob_held(p)->waiting > 0 || (core->norphans > 0 &&
		    sched_core_preempt_orphans(core, p) > 0)) {
			/* Its victims are still stopping: hold what they
			 * were stopped for, and ask for nothing more. */
			p->reason = SCHED_REASON_PREEMPTING;
			sched_core_fairshare_claim(core, p);
			sched_core_pass_reserve(core, p->hold->plan,
			    p->hold->nplan);
			continue;
		}
		/* Behind a promise, p preempts only if it ends by its start:
		 * what it stops might be what was promised. Below its
		 * leaf's part of the cluster, it may preempt for that. */
		k = 0;
		if ((in_time = sched_core_backfill_in_time(core, p, now)) &&
		    victims > 0 && free_now + victims >= p->shape->gpus &&
		    !sched_core_pass_pmissed(core, p) &&
		    (k = sched_core_preempt_choose(core, p, now)) == 0)
			sched_core_pass_pmiss(core, p);
		if ((fs = k == 0 && in_time))
			k = sched_core_preempt_share(core, p);
		if (k == 0) {
			sched_core_backfill_promise(core, p, now);
			continue;
		}
		sched_core_fairshare_claim(core, p);
		sched_core_fairshare_first(core, p);
		sched_core_preempt_plan(core, p, k);
		for (i = 0; i < k; i++) {
			r = core->victims[i];
			if (&r->qnode == cursor)
				cursor = otree_next(cursor);
			sched_core_preempt_victim(core, r, p);
			sched_core_pass_act(core, SCHED_ACT_PREEMPT, r);
			sched_core_slice_victim(core, r);
		}
		p->reason = SCHED_REASON_PREEMPTING;
		sched_core_pass_reserve(core, p->hold->plan, p->hold->nplan);
	}
	/* Jobs that opted in and found no GPUs take turns on those of
	 * others (sched-core-slice.c). */
	sched_core_slice_pass(core, now);
	/* What is free still, with what is held for plans and promises
	 * kept out of it, goes to the elastic jobs started. */
	sched_core_elastic_grow(core, now);
	for (i = 0; i < core->nheld; i++)
		place_release(core->cluster, &core->held[i], 1);
	core->nheld = 0;
	sched_core_backfill_end(core);
	*acts = core->acts;
	return (core->nacts);
}
