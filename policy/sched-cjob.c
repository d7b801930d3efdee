/* sched-cjob.c: a job's record in the core: what it asks (its shape), where
 * it stands (state, queue, rank, why it waits) and, once it has run, its
 * run record (sched_chold: service, GPUs, preemption, timer), made on
 * first need, as a large queue is mostly jobs that never ran. The readers
 * callers use are here; the core's own are inline in sched-core-int.h. */
#include <stdlib.h>

#include "policy/sched-core-int.h"

struct sched_chold *
sched_cjob_hold(struct sched_cjob *j)
{
	if (j->hold == NULL) {
		if ((j->hold = calloc(1, sizeof *j->hold)) == NULL)
			abort();
		j->hold->job = j;
		j->hold->first_start = SCHED_NEVER;
		j->hold->last_stop = j->submit;
		j->hold->timer = SCHED_NEVER;
		j->hold->expect_end = SCHED_NEVER;
		j->hold->bf_deadline = SCHED_NEVER;
	}
	return (j->hold);
}

/* Counts service up to now for a job that holds GPUs. */
void
sched_cjob_account(struct sched_cjob *j, int64_t now)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	int64_t			 dt = now - h->acct_since;

	if (dt <= 0)
		return;
	h->attained += (uint64_t)dt * j->rate / SCHED_RATE_GPU;
	h->executed += dt;
	h->total_executed += dt;
	h->acct_since = now;
}

void *
sched_cjob_arg(const struct sched_cjob *j)
{
	return (j->arg);
}

uint64_t
sched_cjob_id(const struct sched_cjob *j)
{
	return (j->id);
}

uint32_t
sched_cjob_resizes(const struct sched_cjob *j)
{
	return (sched_cjob_held(j)->resizes);
}

uint32_t
sched_cjob_gpus(const struct sched_cjob *j)
{
	return (j->shape->gpus);
}

enum sched_cjob_state
sched_cjob_state(const struct sched_cjob *j)
{
	return ((enum sched_cjob_state)j->state);
}

unsigned
sched_cjob_queue(const struct sched_cjob *j)
{
	return (j->queue);
}

uint64_t
sched_cjob_attained(const struct sched_cjob *j, int64_t now)
{
	int64_t		since = sched_cjob_held(j)->acct_since;
	uint64_t	attained = sched_cjob_held(j)->attained;

	if (j->state == SCHED_JOB_PENDING ||
	    j->state == SCHED_JOB_SUSPENDED || now <= since)
		return (attained);
	return (attained + (uint64_t)(now - since) * j->rate /
	    SCHED_RATE_GPU);
}

int64_t
sched_cjob_total_executed(const struct sched_cjob *j, int64_t now)
{
	int64_t	since = sched_cjob_held(j)->acct_since;
	int64_t	total = sched_cjob_held(j)->total_executed;

	if (j->state == SCHED_JOB_PENDING ||
	    j->state == SCHED_JOB_SUSPENDED || now <= since)
		return (total);
	return (total + (now - since));
}

int64_t
sched_cjob_executed(const struct sched_cjob *j, int64_t now)
{
	int64_t	since = sched_cjob_held(j)->acct_since;
	int64_t	executed = sched_cjob_held(j)->executed;

	if (j->state == SCHED_JOB_PENDING ||
	    j->state == SCHED_JOB_SUSPENDED || now <= since)
		return (executed);
	return (executed + (now - since));
}

uint32_t
sched_cjob_promotions(const struct sched_cjob *j)
{
	return (sched_cjob_held(j)->promotions);
}

uint32_t
sched_cjob_rank(const struct sched_cjob *j)
{
	return (j->rank);
}

uint32_t
sched_cjob_preemptions(const struct sched_cjob *j)
{
	return (sched_cjob_held(j)->preemptions);
}

enum sched_reason
sched_cjob_reason(const struct sched_core *core, const struct sched_cjob *j)
{
	enum sched_reason	 cap;

	if (j->state != SCHED_JOB_PENDING)
		return (SCHED_REASON_NONE);
	if (sched_cjob_held(j)->waiting > 0)
		return (SCHED_REASON_PREEMPTING);
	if ((cap = sched_cjob_capped(j)) != SCHED_REASON_NONE)
		return (cap);
	/* Its reservation not open, whether a pass reached it or not. */
	if (j->shape->resv != 0 && !sched_window_open(&core->windows,
	    j->shape->resv, core->wnow))
		return (SCHED_REASON_RESERVATION);
	/* A pass that stopped early did not reach this job: it waits for
	 * the reason the pass stopped for. */
	if (j->reason_pass != core->npass)
		return (core->tail_reason);
	return ((enum sched_reason)j->reason);
}

const struct place_alloc *
sched_cjob_alloc(const struct sched_cjob *j, size_t *n)
{
	*n = sched_cjob_held(j)->nalloc;
	return (sched_cjob_held(j)->alloc);
}

int64_t
sched_cjob_resv_start(const struct sched_core *core,
    const struct sched_cjob *j)
{
	uint32_t	i;

	if (j->state != SCHED_JOB_PENDING)
		return (SCHED_NEVER);
	for (i = 0; i < core->nresv; i++) {
		if (core->promises[i].id == j->id)
			return (core->promises[i].start);
	}
	return (SCHED_NEVER);
}

bool
sched_cjob_sliced(const struct sched_cjob *j)
{
	return (j->state == SCHED_JOB_SUSPENDED && j->hold != NULL &&
	    j->hold->sliced);
}

uint32_t
sched_cjob_ring(const struct sched_cjob *j)
{
	return (j->hold != NULL && j->hold->ring != NULL ?
	    sched_core_slice_members(j->hold->ring) : 1);
}
