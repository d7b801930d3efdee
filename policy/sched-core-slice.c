/* sched-core-slice.c: time-slicing, Gandiva's suspend-resume scheduling
 * (sched_conf's time_slice, sched_jobspec's time_slice).
 *
 * A job that opted in and runs is a ring of one: the jobs that share its
 * GPUs in turns. A waiting job that opted in and found no GPUs in the pass
 * joins a ring whose running job has had a whole turn (time_slice) and
 * asks as many GPUs, where its nodes, memory, CPUs and each GPU's memory
 * allow and the ring has fewer than slice_jobs: that job is suspended
 * (frozen on its GPUs: SCHED_ACT_SUSPEND) and the newcomer starts on them
 * at once. It thus runs within one turn of its arrival, as Gandiva gives
 * a new job its first iterations early. A ring whose running job has had
 * its turn while others wait in it hands the GPUs round: the running job
 * goes to the back of the turns, the one at the front resumes.
 *
 * The ring holds its GPUs once (place_take) while any member is in it,
 * and its CPUs once (a frozen job uses none: as Slurm's gang scheduling,
 * the members share them; a member that asks more adds what it asks
 * beyond them); each member holds its own memory (a frozen job keeps its
 * pages), and counts against its limits, as a suspended job does. A ring's running job preempted for a
 * job of higher priority takes the whole ring with it (its GPUs are free
 * once all have stopped); one that ends or is suspended by an operator
 * gives the turn to the next at the next pass. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched-core-int.h"

struct sched_ring {
	TAILQ_ENTRY(sched_ring)	 entry;
	/* Its members, in the order they came. */
	struct sched_cjobs	 all;
	/* The members suspended for another's turn, the next first. */
	struct sched_cjobs	 turns;
	/* The member running now (NULL: none, until the next pass), and
	 * one an operator's resume put beside it, suspended at the next
	 * pass (NULL: none). */
	struct sched_cjob	*active;
	struct sched_cjob	*evict;
	uint32_t		 members;
	/* The pass that gave the turn last: one change a ring a pass. */
	uint32_t		 pass;
};

uint32_t
sched_core_slice_members(const struct sched_ring *r)
{
	return (r->members);
}

static struct sched_ring *
sched_core_slice_ring(struct sched_core *core)
{
	struct sched_ring	*r;

	r = sched_core_xalloc(NULL, 1, sizeof *r);
	memset(r, 0, sizeof *r);
	TAILQ_INIT(&r->turns);
	TAILQ_INIT(&r->all);
	TAILQ_INSERT_TAIL(&core->rings, r, entry);
	core->nrings++;
	return (r);
}

/* The CPUs a ring holds on its part i: what its members hold there (a
 * job frozen for its turn uses none, so the members share them, as
 * Slurm's gang scheduling shares CPUs; each holds its own memory). */
static uint32_t
sched_core_slice_cpus(const struct sched_ring *r, size_t i)
{
	const struct sched_cjob	*m;
	uint32_t		 cpus = 0;

	TAILQ_FOREACH(m, &r->all, hold->mentry)
		cpus += m->hold->alloc[i].cpus;
	return (cpus);
}

/* Hands the CPUs h holds to to, a member that stays on them. */
static void
sched_core_slice_cpus_to(struct sched_cjob *to, struct sched_chold *h)
{
	size_t	i;

	for (i = 0; i < h->nalloc; i++) {
		to->hold->alloc[i].cpus += h->alloc[i].cpus;
		h->alloc[i].cpus = 0;
	}
}

bool
sched_core_slice_hold(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	struct sched_ring	*r = h->ring;
	bool			 shared = r != NULL && r->members > 0;

	if (r == NULL) {
		if (core->conf.time_slice == 0 || !j->shape->time_slice)
			return (false);
		r = h->ring = sched_core_slice_ring(core);
	}
	r->members++;
	TAILQ_INSERT_TAIL(&r->all, j, hold->mentry);
	return (shared);
}

struct sched_ring *
sched_core_slice_at(const struct sched_core *core,
    const struct place_alloc *a, size_t n)
{
	struct sched_ring	*r;
	const struct sched_cjob	*m;
	size_t			 i;

	TAILQ_FOREACH(r, &core->rings, entry) {
		m = TAILQ_FIRST(&r->all);
		if (m == NULL || m->hold->nalloc != n)
			continue;
		for (i = 0; i < n; i++)
			if (m->hold->alloc[i].node != a[i].node ||
			    m->hold->alloc[i].mask != a[i].mask)
				break;
		if (i == n)
			return (r);
	}
	return (NULL);
}

/* Found after a restart, a job that takes turns is put back in its ring
 * (or one of its own) even where time-slicing is now off: the jobs
 * suspended for their turns are then resumed one after the other as the
 * running ones end, and no job joins them. */
void
sched_core_slice_adopt(struct sched_core *core, struct sched_cjob *j,
    struct place_alloc *a, size_t n)
{
	struct sched_ring	*r;
	uint32_t		 k;
	size_t			 i;

	if (!j->shape->time_slice)
		return;
	if ((r = sched_core_slice_at(core, a, n)) == NULL) {
		sched_cjob_hold(j)->ring = sched_core_slice_ring(core);
		return;
	}
	sched_cjob_hold(j)->ring = r;
	for (i = 0; i < n; i++) {
		k = sched_core_slice_cpus(r, i);
		a[i].cpus = a[i].cpus > k ? a[i].cpus - k : 0;
	}
}

void
sched_core_slice_onrun(struct sched_cjob *j, int64_t now)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	struct sched_ring	*r = h->ring;

	h->slice_since = now;
	h->sliced = false;
	if (r == NULL)
		return;
	if (j->state == SCHED_JOB_RUNNING && r->active != j) {
		/* An operator resumed it beside the ring's running job,
		 * or it was found running so after a restart: that job
		 * gives way at the next pass. */
		if (r->active != NULL && r->active != j)
			r->evict = r->active;
		r->active = j;
	}
}

void
sched_core_slice_suspended(struct sched_cjob *j, bool sliced)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	struct sched_ring	*r = h->ring;

	h->sliced = sliced && r != NULL;
	if (r == NULL)
		return;
	/* The job it had displaced keeps the turn. */
	if (r->active == j) {
		r->active = r->evict;
		r->evict = NULL;
	} else if (r->evict == j)
		r->evict = NULL;
	if (h->sliced)
		TAILQ_INSERT_TAIL(&r->turns, j, hold->rentry);
}

void
sched_core_slice_resumed(struct sched_cjob *j)
{
	struct sched_chold	*h = sched_cjob_hold(j);

	if (h->ring != NULL && h->sliced)
		TAILQ_REMOVE(&h->ring->turns, j, hold->rentry);
	h->sliced = false;
}

bool
sched_core_slice_leave(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	struct sched_ring	*r = h->ring;

	if (r == NULL)
		return (false);
	if (h->sliced)
		TAILQ_REMOVE(&r->turns, j, hold->rentry);
	h->sliced = false;
	h->ring = NULL;
	TAILQ_REMOVE(&r->all, j, hold->mentry);
	if (r->active == j)
		r->active = NULL;
	if (r->evict == j)
		r->evict = NULL;
	if (--r->members > 0) {
		/* The ring's CPUs stay while any member is on them: what
		 * j held of them passes to one that stays. */
		sched_core_slice_cpus_to(TAILQ_FIRST(&r->all), h);
		return (true);
	}
	TAILQ_REMOVE(&core->rings, r, entry);
	core->nrings--;
	free(r);
	return (false);
}

void
sched_core_slice_free(struct sched_core *core)
{
	struct sched_ring	*r;

	while ((r = TAILQ_FIRST(&core->rings)) != NULL) {
		TAILQ_REMOVE(&core->rings, r, entry);
		free(r);
	}
	core->nrings = 0;
}

/* j's turn is over: frozen, to the back of its ring's turns. */
static void
sched_core_slice_park(struct sched_core *core, struct sched_cjob *j,
    int64_t now)
{
	(void)sched_core_suspend(core, j, now);
	sched_core_slice_suspended(j, true);
	core->switches++;
	sched_core_pass_act(core, SCHED_ACT_SUSPEND, j);
}

static void
sched_core_slice_turn(struct sched_core *core, struct sched_ring *r,
    int64_t now)
{
	struct sched_cjob	*j = TAILQ_FIRST(&r->turns);

	(void)sched_core_resume(core, j, now);
	sched_core_pass_act(core, SCHED_ACT_RESUME, j);
}

/* A turn, ms: time_slice's, or with time-slicing off (rings found after
 * a restart that drain) SCHED_SLICE_DRAIN_MS. */
static int64_t
sched_core_slice_ms(const struct sched_core *core)
{
	return (core->conf.time_slice > 0 ?
	    (int64_t)core->conf.time_slice * 1000 : SCHED_SLICE_DRAIN_MS);
}

/* Whether a ring's running job took its turn by now. */
static bool
sched_core_slice_due(const struct sched_core *core, const struct sched_ring *r,
    int64_t now)
{
	return (r->active != NULL && r->active->state == SCHED_JOB_RUNNING &&
	    r->pass != core->npass && now - r->active->hold->slice_since >=
	    sched_core_slice_ms(core));
}

/* Whether node is one p may run on (its nodes, any of its sets). */
static bool
sched_core_slice_node_ok(const struct sched_shape *s, uint32_t node)
{
	const uint32_t	*set;
	uint32_t	 k, n, i;

	if (!s->listed)
		return (true);
	for (k = 0; k < (s->nsets > 1 ? s->nsets : 1); k++) {
		set = sched_shape_set(s, k, &n);
		for (i = 0; i < n; i++)
			if (set[i] == node)
				return (true);
	}
	return (false);
}

/* Whether p fits in a's place beside the jobs there: the same GPUs in
 * all and as many nodes as it asks, its nodes, its memory free on each
 * and its CPUs among the ring's and those free, and its GPU memory free
 * on each GPU where both are known. On success, core->scratch holds its
 * parts (a's GPUs, the CPUs it adds to the ring's, its own memory). */
static bool
sched_core_slice_fits(struct sched_core *core, const struct sched_cjob *p,
    const struct sched_cjob *a)
{
	const struct sched_shape	*s = p->shape;
	const struct sched_chold	*h = a->hold;
	uint32_t			 i, g, gpus = 0, freemb, ring;

	if (a->shape->gpus != s->gpus ||
	    (s->num_nodes > 0 && h->nalloc != s->num_nodes))
		return (false);
	for (i = 0; i < h->nalloc; i++) {
		if (!sched_core_slice_node_ok(s, h->alloc[i].node))
			return (false);
		g = sched_mask_count(h->alloc[i].mask);
		gpus += g;
		core->scratch[i] = h->alloc[i];
		place_res_need(core->cluster, h->alloc[i].node,
		    sched_cjob_res(p), g, &core->scratch[i].cpus,
		    &core->scratch[i].mem);
		/* It takes the CPUs it needs beyond the ring's. */
		ring = h->ring != NULL ? sched_core_slice_cpus(h->ring, i) : 0;
		core->scratch[i].cpus = core->scratch[i].cpus > ring ?
		    core->scratch[i].cpus - ring : 0;
		if (core->scratch[i].cpus > place_node_cpus_free(
		    core->cluster, h->alloc[i].node) ||
		    core->scratch[i].mem > place_node_mem_free(core->cluster,
		    h->alloc[i].node))
			return (false);
		for (g = 0; s->gpu_mem > 0 && g < SCHED_MAX_GPUS_PER_NODE;
		    g++) {
			if ((h->alloc[i].mask >> g & 1) == 0)
				continue;
			freemb = place_gpumem_free(core->cluster,
			    h->alloc[i].node, g);
			if (freemb != PLACE_GPUMEM_UNKNOWN &&
			    freemb < s->gpu_mem)
				return (false);
		}
	}
	return (gpus == s->gpus);
}

/* A waiting job that opted in and may start now, but for GPUs. */
static bool
sched_core_slice_wants(struct sched_core *core, const struct sched_cjob *p)
{
	const struct sched_window_view	*v;

	if (core->conf.time_slice == 0 || !p->shape->time_slice ||
	    sched_cjob_held(p)->waiting > 0 ||
	    (p->reason != SCHED_REASON_RESOURCES &&
	    p->reason != SCHED_REASON_PRIORITY))
		return (false);
	if (sched_cjob_capped(p) != SCHED_REASON_NONE)
		return (false);
	/* Windows it is bound by: it takes no GPUs they might need. */
	v = sched_core_window_of(core, p);
	return (!v->never && v->key == 0);
}

/* The ring p joins now: of those whose running job had its turn and
 * where p fits, the one of fewest members, then the longest over its
 * turn; NULL: none. Leaves p's parts in core->scratch. */
static struct sched_ring *
sched_core_slice_find(struct sched_core *core, const struct sched_cjob *p,
    int64_t now)
{
	struct sched_ring	*r, *best = NULL;

	TAILQ_FOREACH(r, &core->rings, entry) {
		if (r->members >= core->conf.slice_jobs ||
		    !sched_core_slice_due(core, r, now) ||
		    (best != NULL && (r->members > best->members ||
		    (r->members == best->members &&
		    r->active->hold->slice_since >=
		    best->active->hold->slice_since))))
			continue;
		if (sched_core_slice_fits(core, p, r->active))
			best = r;
	}
	if (best != NULL)
		(void)sched_core_slice_fits(core, p, best->active);
	return (best);
}

/* The core wakes when r's running job's turn ends, if that is to come. */
static void
sched_core_slice_wake(struct sched_core *core, const struct sched_ring *r,
    int64_t now)
{
	int64_t	end;

	if (r->active == NULL)
		return;
	end = r->active->hold->slice_since + sched_core_slice_ms(core);
	if (end > now && end < core->slice_wake)
		core->slice_wake = end;
}

void
sched_core_slice_pass(struct sched_core *core, int64_t now)
{
	struct otree_node	*n, *next;
	struct sched_ring	*r;
	struct sched_cjob	*p, *a;
	size_t			 k, due = 0, wanting = 0;

	core->slice_wake = SCHED_NEVER;
	if (core->nrings == 0)
		return;
	/* An operator's resume: the job it displaced gives way. */
	TAILQ_FOREACH(r, &core->rings, entry) {
		if (r->evict != NULL) {
			a = r->evict;
			r->evict = NULL;
			if (a->state == SCHED_JOB_RUNNING)
				sched_core_slice_park(core, a, now);
			r->pass = core->npass;
		}
	}
	/* Newcomers first: each takes the turn of a ring that had its
	 * own, in the order the pass considered them. */
	if (core->nslice_pending > 0)
		TAILQ_FOREACH(r, &core->rings, entry)
			if (r->members < core->conf.slice_jobs &&
			    sched_core_slice_due(core, r, now))
				due++;
	for (n = otree_first(&core->pending); n != NULL && due > 0;
	    n = next) {
		next = otree_next(n);
		p = SCHED_CJOB_OF(n, qnode);
		if (!sched_core_slice_wants(core, p))
			continue;
		if ((r = sched_core_slice_find(core, p, now)) == NULL) {
			wanting++;
			continue;
		}
		due--;
		a = r->active;
		k = a->hold->nalloc;
		sched_core_slice_park(core, a, now);
		r->pass = core->npass;
		sched_cjob_hold(p)->ring = r;
		sched_core_dequeue(core, p);
		sched_core_run(core, p, core->scratch, k, now);
		sched_core_pass_act(core, SCHED_ACT_START, p);
	}
	/* Then the turns go round, and a ring whose running job left
	 * gives the turn to the next. */
	TAILQ_FOREACH(r, &core->rings, entry) {
		if (TAILQ_EMPTY(&r->turns))
			continue;
		if (r->active == NULL) {
			sched_core_slice_turn(core, r, now);
			r->pass = core->npass;
		} else if (sched_core_slice_due(core, r, now)) {
			sched_core_slice_park(core, r->active, now);
			sched_core_slice_turn(core, r, now);
			r->pass = core->npass;
		}
		if (!TAILQ_EMPTY(&r->turns))
			sched_core_slice_wake(core, r, now);
	}
	/* A waiting newcomer wakes the core when a turn ends: one that
	 * found no ring due, or any while none was. A turn over already
	 * that it does not fit wakes nothing: an end or an arrival will. */
	if (wanting > 0 || (core->nslice_pending > 0 && due == 0))
		TAILQ_FOREACH(r, &core->rings, entry)
			if (r->members < core->conf.slice_jobs)
				sched_core_slice_wake(core, r, now);
}

/* r, a ring's running job, is preempted for a job: the members waiting
 * their turn on its GPUs are stopped with it (thawed to be checkpointed),
 * and those an operator suspended on them, and the job waits for them
 * too: the GPUs are free once all have stopped. */
void
sched_core_slice_victim(struct sched_core *core, struct sched_cjob *r)
{
	struct sched_ring	*ring = r->hold->ring;
	struct sched_cjob	*q;

	if (ring == NULL)
		return;
	TAILQ_FOREACH(q, &ring->all, hold->mentry) {
		if (q->state != SCHED_JOB_SUSPENDED)
			continue;
		if (q->hold->sliced)
			TAILQ_REMOVE(&ring->turns, q, hold->rentry);
		q->hold->sliced = false;
		TAILQ_REMOVE(&core->suspended, q, hold->pentry);
		core->nsuspended--;
		q->state = SCHED_JOB_PREEMPTING;
		q->hold->preemptions++;
		q->hold->waiter = r->hold->waiter;
		if (q->hold->waiter != NULL)
			q->hold->waiter->hold->waiting++;
		else
			core->norphans++;
		TAILQ_INSERT_TAIL(&core->preempting, q, hold->pentry);
		sched_core_pass_act(core, SCHED_ACT_PREEMPT, q);
	}
}
