/* sched-core-order.c: the orders the core keeps its jobs in, by policy.
 * Each order of jobs puts a higher tier first (sched_jobspec's tier);
 * within a tier, the pending jobs in the order a pass serves them (fifo
 * by submit, srtf by the time left, 2D-LAS by queue then first start,
 * 2D-Gittins by queue then index; with fair share the lower key of
 * sched-core-fairshare.c before the queue; within a queue a higher urgency, the
 * caller's priority - nice, before either), the running jobs by priority (the last
 * is the first victim). The timers are by when they are due. Each order
 * ends on the id (the jobs' on the submit time first), so it is total and
 * a walk is deterministic. */
#include "policy/sched-core-int.h"

static int
sched_core_order_i64(int64_t a, int64_t b)
{
	return (a < b ? -1 : a > b);
}

/* The last word of every order of jobs: the earlier submit, then the
 * lower id (ids are unique). */
static int
sched_core_order_tail(const struct sched_cjob *a, const struct sched_cjob *b)
{
	int	c;

	if ((c = sched_core_order_i64(a->submit, b->submit)) != 0)
		return (c);
	return (a->id < b->id ? -1 : a->id > b->id);
}

/* A higher tier first: 0 within one. */
static inline int
sched_core_order_tier(const struct sched_cjob *a, const struct sched_cjob *b)
{
	return (a->tier == b->tier ? 0 : a->tier > b->tier ? -1 : 1);
}

/* Waiting jobs: the lower fair-share key first (sched-core-fairshare.c; 0 for
 * all without fair share). */
static inline int
sched_core_order_fs(const struct sched_cjob *a, const struct sched_cjob *b)
{
	return (a->fskey == b->fskey ? 0 : a->fskey < b->fskey ? -1 : 1);
}

/* Waiting jobs: a higher urgency first (the caller's priority - nice); 0
 * for equals. */
static inline int
sched_core_order_urgency(const struct sched_cjob *a,
    const struct sched_cjob *b)
{
	int32_t	ua = a->shape->urgency, ub = b->shape->urgency;

	return (ua == ub ? 0 : ua > ub ? -1 : 1);
}

static int
sched_core_order_fifo(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_cjob	*a = SCHED_CJOB_OF(x, qnode);
	const struct sched_cjob	*b = SCHED_CJOB_OF(y, qnode);
	int			 c;

	if ((c = sched_core_order_tier(a, b)) != 0 ||
	    (c = sched_core_order_fs(a, b)) != 0 ||
	    (c = sched_core_order_urgency(a, b)) != 0)
		return (c);
	return (sched_core_order_tail(a, b));
}

/* srtf: the least time left first. */
static int
sched_core_order_srtf(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_cjob	*a = SCHED_CJOB_OF(x, qnode);
	const struct sched_cjob	*b = SCHED_CJOB_OF(y, qnode);
	int			 c;

	if ((c = sched_core_order_tier(a, b)) != 0 ||
	    (c = sched_core_order_urgency(a, b)) != 0)
		return (c);
	c = sched_core_order_i64(sched_cjob_remaining(a),
	    sched_cjob_remaining(b));
	return (c != 0 ? c : sched_core_order_tail(a, b));
}

/* The queue policies' waiting jobs, before their order within a queue: a
 * higher tier, the fair-share key, the queue, the urgency. */
static inline int
sched_core_order_queued(const struct sched_cjob *a, const struct sched_cjob *b)
{
	int	c;

	if ((c = sched_core_order_tier(a, b)) != 0 ||
	    (c = sched_core_order_fs(a, b)) != 0)
		return (c);
	if (a->queue != b->queue)
		return (a->queue < b->queue ? -1 : 1);
	return (sched_core_order_urgency(a, b));
}

/* 2D-LAS within a queue: by the time a job first started; a job that
 * never ran by its submit time. */
static int
sched_core_order_dlas(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_cjob	*a = SCHED_CJOB_OF(x, qnode);
	const struct sched_cjob	*b = SCHED_CJOB_OF(y, qnode);
	int64_t			 ka, kb;
	int			 c;

	if ((c = sched_core_order_queued(a, b)) != 0)
		return (c);
	ka = sched_cjob_held(a)->first_start;
	kb = sched_cjob_held(b)->first_start;
	if (ka == SCHED_NEVER)
		ka = a->submit;
	if (kb == SCHED_NEVER)
		kb = b->submit;
	if ((c = sched_core_order_i64(ka, kb)) != 0)
		return (c);
	return (sched_core_order_tail(a, b));
}

/* dlas with preempt_in_queue: within a queue by submit, the order its
 * preemption follows (a job that ran does not pass ahead of one that came
 * before it, which would preempt it again). */
static int
sched_core_order_dlas_arrival(const struct otree_node *x,
    const struct otree_node *y)
{
	const struct sched_cjob	*a = SCHED_CJOB_OF(x, qnode);
	const struct sched_cjob	*b = SCHED_CJOB_OF(y, qnode);
	int			 c;

	if ((c = sched_core_order_queued(a, b)) != 0)
		return (c);
	return (sched_core_order_tail(a, b));
}

/* 2D-Gittins within a queue: the higher index first. */
static int
sched_core_order_gittins(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_cjob	*a = SCHED_CJOB_OF(x, qnode);
	const struct sched_cjob	*b = SCHED_CJOB_OF(y, qnode);
	int			 c;

	if ((c = sched_core_order_queued(a, b)) != 0)
		return (c);
	if (a->key.gindex != b->key.gindex)
		return (a->key.gindex > b->key.gindex ? -1 : 1);
	return (sched_core_order_tail(a, b));
}

/* Running jobs, highest priority first: by queue, then the earlier start.
 * The last one is the first victim. */
static int
sched_core_order_run_queue(const struct otree_node *x,
    const struct otree_node *y)
{
	const struct sched_cjob	*a = SCHED_CJOB_OF(x, qnode);
	const struct sched_cjob	*b = SCHED_CJOB_OF(y, qnode);
	int			 c;

	if ((c = sched_core_order_tier(a, b)) != 0)
		return (c);
	if (a->queue != b->queue)
		return (a->queue < b->queue ? -1 : 1);
	if ((c = sched_core_order_i64(sched_cjob_held(a)->first_start,
	    sched_cjob_held(b)->first_start)) != 0)
		return (c);
	return (sched_core_order_tail(a, b));
}

/* srtf: the running job that ends first has the highest priority; the
 * projected end does not move while the job runs. */
static int
sched_core_order_run_srtf(const struct otree_node *x,
    const struct otree_node *y)
{
	const struct sched_cjob	*a = SCHED_CJOB_OF(x, qnode);
	const struct sched_cjob	*b = SCHED_CJOB_OF(y, qnode);
	int			 c;

	if ((c = sched_core_order_tier(a, b)) != 0)
		return (c);
	if ((c = sched_core_order_i64(a->hold->end_key, b->hold->end_key)) != 0)
		return (c);
	return (sched_core_order_tail(a, b));
}

/* Timers: the earliest first. */
int
sched_core_order_timers(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_chold	*a = SCHED_CHOLD_OF(x);
	const struct sched_chold	*b = SCHED_CHOLD_OF(y);
	int				 c;

	if ((c = sched_core_order_i64(a->timer, b->timer)) != 0)
		return (c);
	return (a->job->id < b->job->id ? -1 :
	    a->job->id > b->job->id);
}

/* Expected ends: the earliest first. */
int
sched_core_order_ends(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_chold	*a = SCHED_CHOLD_OF_END(x);
	const struct sched_chold	*b = SCHED_CHOLD_OF_END(y);
	int				 c;

	if ((c = sched_core_order_i64(a->expect_end, b->expect_end)) != 0)
		return (c);
	return (a->job->id < b->job->id ? -1 :
	    a->job->id > b->job->id);
}

/* Backfill's deadlines: the earliest first. */
int
sched_core_order_deadlines(const struct otree_node *x,
    const struct otree_node *y)
{
	const struct sched_chold	*a = SCHED_CHOLD_OF_DL(x);
	const struct sched_chold	*b = SCHED_CHOLD_OF_DL(y);
	int				 c;

	if ((c = sched_core_order_i64(a->bf_deadline, b->bf_deadline)) != 0)
		return (c);
	return (a->job->id < b->job->id ? -1 :
	    a->job->id > b->job->id);
}

otree_cmp
sched_core_order_pending(const struct sched_conf *conf)
{
	switch (conf->policy) {
	case SCHED_SRTF:
		return (sched_core_order_srtf);
	case SCHED_DLAS:
		return (conf->preempt_in_queue ?
		    sched_core_order_dlas_arrival : sched_core_order_dlas);
	case SCHED_GITTINS:
		return (sched_core_order_gittins);
	case SCHED_FIFO:
	default:
		return (sched_core_order_fifo);
	}
}

otree_cmp
sched_core_order_running(enum sched_policy policy)
{
	return (policy == SCHED_SRTF ? sched_core_order_run_srtf :
	    sched_core_order_run_queue);
}

void
sched_core_order_key(struct sched_core *core, struct sched_cjob *j)
{
	const struct sched_gittins	*g = j->gset != NULL ? j->gset :
					    &core->gittins;
	uint64_t			 delta = 0;

	if (core->conf.policy != SCHED_GITTINS || g->n == 0)
		return;
	/* The quantum is the service left in the job's queue: discretized
	 * Gittins asks how likely the job is to finish before demotion. */
	if (j->queue + 1u < core->nqueues &&
	    sched_cjob_qservice(j) < core->conf.thresholds[j->queue])
		delta = core->conf.thresholds[j->queue] -
		    sched_cjob_qservice(j);
	j->key.gindex = sched_gittins_index(g->samples, g->prefix, g->n,
	    sched_cjob_held(j)->attained, delta);
}
