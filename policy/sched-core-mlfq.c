/* sched-core-mlfq.c: the multi-level feedback queues: the queue a job's
 * service puts it in, and the timers that move it: a demotion when a
 * running job's service reaches its queue's threshold, a starvation
 * promotion to Q0 when a pending job that has run has waited long enough.
 * Timers sit in a tree by when they are due, so a pass finds the due ones
 * in O(log n) and the caller learns when to wake (sched_core_next_wakeup). */
#include <math.h>

#include "policy/sched-core-int.h"

/* The queue a service level puts a job in. */
unsigned
sched_core_mlfq_queue(const struct sched_core *core, uint64_t attained)
{
	unsigned	q = 0;

	while (q + 1 < core->nqueues && attained >= core->conf.thresholds[q])
		q++;
	return (q);
}

/* Sets j's timer to when (SCHED_NEVER: none). */
void
sched_core_mlfq_timer(struct sched_core *core, struct sched_cjob *j,
    int64_t when)
{
	struct sched_chold	*h;

	if (when == SCHED_NEVER && j->hold == NULL)
		return;
	h = sched_cjob_hold(j);
	if (h->timer != SCHED_NEVER)
		otree_remove(&core->timers, &h->tnode);
	h->timer = when;
	if (when != SCHED_NEVER)
		otree_insert(&core->timers, &h->tnode);
}

/* Running job: the moment its service reaches its queue's threshold. */
void
sched_core_mlfq_demotion(struct sched_core *core, struct sched_cjob *j)
{
	uint64_t	threshold, need;
	int64_t		ms = 0;

	if (j->queue + 1u >= core->nqueues ||
	    (threshold = core->conf.thresholds[j->queue]) >
	    UINT64_MAX / SCHED_RATE_GPU) {
		sched_core_mlfq_timer(core, j, SCHED_NEVER);
		return;
	}
	/* Service grows by rate / SCHED_RATE_GPU per ms: the run that
	 * reaches the threshold, rounded up so that at the timer it is
	 * reached, not one ms short. A job adopted with more service than
	 * its queue allows is due at once. */
	need = (threshold * SCHED_RATE_GPU + j->rate - 1) / j->rate;
	if (need > (uint64_t)sched_cjob_held(j)->executed)
		ms = (int64_t)(need - (uint64_t)sched_cjob_held(j)->executed);
	sched_core_mlfq_timer(core, j, sched_cjob_held(j)->acct_since + ms);
}

/* Pending job that has run: when starvation promotion lifts it to Q0. */
void
sched_core_mlfq_promotion(struct sched_core *core, struct sched_cjob *j)
{
	const struct sched_chold	*h = sched_cjob_held(j);
	double				 wait;

	if (core->conf.promote_knob <= 0 || j->queue == 0 ||
	    h->executed <= 0) {
		sched_core_mlfq_timer(core, j, SCHED_NEVER);
		return;
	}
	wait = ceil(core->conf.promote_knob * (double)h->executed);
	if (wait > 4e18)
		sched_core_mlfq_timer(core, j, SCHED_NEVER);
	else
		sched_core_mlfq_timer(core, j, h->last_stop + (int64_t)wait);
}

/* Demotions and promotions due by now. */
void
sched_core_mlfq_due(struct sched_core *core, int64_t now)
{
	struct otree_node	*n;
	struct sched_cjob	*j;

	while ((n = otree_first(&core->timers)) != NULL) {
		j = SCHED_CHOLD_OF(n)->job;
		if (SCHED_CHOLD_OF(n)->timer > now)
			break;
		sched_core_mlfq_timer(core, j, SCHED_NEVER);
		if (j->state == SCHED_JOB_RUNNING) {
			/* Demotion: new queue, new place among the running. */
			sched_cjob_account(j, now);
			otree_remove(&core->running, &j->qnode);
			sched_core_victims(core, j, -1);
			j->queue = sched_core_mlfq_queue(core,
			    sched_cjob_qservice(j));
			sched_core_victims(core, j, 1);
			otree_insert(&core->running, &j->qnode);
			sched_core_mlfq_demotion(core, j);
		} else if (j->state == SCHED_JOB_PENDING) {
			/* Promotion: back to Q0 with its counters reset. */
			sched_core_dequeue(core, j);
			j->queue = 0;
			j->hold->executed = 0;
			j->hold->last_stop = now;
			j->hold->promotions++;
			core->npromoted++;
			sched_core_enqueue(core, j);
		}
	}
}
