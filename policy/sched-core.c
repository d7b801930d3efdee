/* sched-core.c: the Tiresias core: multi-level feedback queues on attained
 * GPU-service (2D-LAS, 2D-Gittins), the FIFO and SRTF baselines, starvation
 * promotion, gang placement and preemption. The rules, and why, are in
 * docs/scheduling.md; this file keeps the structures that make them cheap.
 *
 * Every active job sits in one of two ordered trees: pending jobs in the
 * order a pass serves them, running jobs in priority order (the lowest last,
 * where victims are taken from). Jobs with a timer (running: the next
 * demotion; pending: the promotion) also sit in a tree by time, so a pass
 * finds what is due in O(log n) and the caller learns when to wake. */
#include <sys/queue.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy/otree.h"
#include "policy/pool.h"
#include "policy/sched-core.h"
#include "policy/sched-group.h"
#include "policy/sched-shape.h"

/* What a job has once it has run: its service, its GPUs while it holds
 * them, its part in a preemption, its timer (a demotion while it runs, a
 * promotion once it waits again with service). Apart from the job, as a
 * large queue is mostly jobs that never ran. Made the first time one member
 * is set (sched_core_hold), or with the job when it comes with service,
 * and kept until the job ends. */
struct sched_chold {
	struct sched_cjob		*job;
	uint64_t			 attained;	/* to acct_since */
	int64_t				 executed;	/* to acct_since */
	int64_t				 total_executed;/* to acct_since */
	int64_t				 first_start;	/* or SCHED_NEVER */
	int64_t				 last_stop;
	uint32_t			 promotions;
	uint32_t			 preemptions;
	struct place_alloc		*alloc;		/* nalloc */
	int64_t				 acct_since;	/* running: last accounted */
	int64_t				 end_key;	/* srtf: projected end */
	int64_t				 timer;		/* or SCHED_NEVER */
	/* Preemption bookkeeping: the job a victim makes room for, how many
	 * victims a job still waits on, and the GPUs it was promised. */
	struct sched_cjob		*waiter;
	struct place_alloc		*plan;		/* nplan */
	uint32_t			 nalloc;
	uint32_t			 nplan;
	uint32_t			 waiting;
	TAILQ_ENTRY(sched_cjob)		 pentry;	/* preempting */
	struct otree_node		 tnode;		/* timers */
};

/* Laid out for size, as a queue of 100,000 pending jobs holds 100,000 of
 * these: 64-bit members first, what never changes and jobs mostly share
 * apart (shape), and what only a job that ran has apart (hold). */
struct sched_cjob {
	uint64_t			 id;
	int64_t				 submit;
	/* What orders it within its queue beside its age, by the core's
	 * policy: srtf's duration (ms), gittins' index while pending. */
	union {
		int64_t			 duration;
		double			 gindex;
	}				 key;
	void				*arg;
	const struct sched_shape	*shape;
	struct sched_chold		*hold;		/* NULL: none yet */
	struct otree_node		 qnode;		/* pending or running */
	uint32_t			 reason_pass;	/* the pass that set it */
	uint32_t			 rank;		/* sched_core_rank; 0: none */
	uint8_t				 state;		/* sched_cjob_state */
	uint8_t				 queue;		/* < SCHED_MAX_QUEUES */
	uint8_t				 reason;	/* sched_reason */
};
TAILQ_HEAD(sched_cjobs, sched_cjob);

static const struct sched_chold	sched_chold_none = {
	.first_start = SCHED_NEVER,
	.timer = SCHED_NEVER
};

/* What j has of a run; for a job that never ran, none: no service, never
 * started, no GPUs, no timer. */
static const struct sched_chold *
sched_core_held(const struct sched_cjob *j)
{
	return (j->hold != NULL ? j->hold : &sched_chold_none);
}

/* The same, to be set: made when first needed. */
static struct sched_chold *
sched_core_hold(struct sched_cjob *j)
{
	if (j->hold == NULL) {
		if ((j->hold = calloc(1, sizeof *j->hold)) == NULL)
			abort();
		j->hold->job = j;
		j->hold->first_start = SCHED_NEVER;
		j->hold->last_stop = j->submit;
		j->hold->timer = SCHED_NEVER;
	}
	return (j->hold);
}

/* Whether j may run on its listed nodes only. */
static bool
sched_core_listed(const struct sched_cjob *j)
{
	return (j->shape->listed);
}

/* j's array's cap, NULL for none. */
static struct sched_group *
sched_core_group(const struct sched_cjob *j)
{
	return (j->shape->group);
}

/* Whether j's array holds all its cap allows. */
static bool
sched_core_capped(const struct sched_cjob *j)
{
	const struct sched_group	*g = sched_core_group(j);

	return (g != NULL && g->holding >= g->cap);
}

/* A placement that found no room in a pass, and why (sched_core_short):
 * while the cluster's generation stands (nothing was taken or freed), a
 * job asking the same finds none either, for the same reason. A queue of
 * like jobs behind GPUs that are free but short of CPUs or memory thus
 * costs one placement a pass, not one a job. */
#define SCHED_MISSES	8
struct sched_miss {
	uint64_t			 generation;
	const struct sched_cjob		*job;	/* pending all the pass */
	enum sched_reason		 reason;
};

struct sched_core {
	struct sched_conf	 conf;
	unsigned		 nqueues;	/* 1 for fifo and srtf */
	struct place_cluster	*cluster;
	struct otree		 pending;
	struct otree		 running;
	struct otree		 timers;
	struct sched_cjobs	 preempting;
	struct sched_groups	 groups;
	/* Preempting jobs no pending job waits for (adopted so after a
	 * restart, or whose waiter started or left): a job that needs GPUs
	 * takes their GPUs first rather than preempt more. */
	size_t			 norphans;
	uint64_t		*samples;	/* sorted, gittins */
	double			*prefix;	/* prefix sums of samples */
	size_t			 nsamples;
	uint64_t		 victim_gpus;	/* running, preemptable */
	uint64_t		 qvictim[SCHED_MAX_QUEUES];	/* by queue */
	/* Pending jobs by size (the last bucket: that size or more), so a
	 * pass knows when no job left could use the GPUs still free. */
	size_t			 psize[SCHED_MAX_GPUS_PER_NODE + 1];
	/* Passes so far, modulo 2^32: a job's reason_pass only tells
	 * whether the last pass reached it. */
	uint32_t		 npass;
	uint64_t		 npromoted;	/* promotions, in all */
	enum sched_reason	 tail_reason;	/* of jobs a pass did not reach */
	struct sched_action	*acts;
	size_t			 nacts, actsize;
	struct place_alloc	*scratch;	/* room for the largest job */
	size_t			 scratchsize;
	struct place_alloc	*held;		/* reservations of a pass */
	size_t			 nheld, heldsize;
	struct sched_cjob	**victims;
	size_t			 victimsize;
	struct sched_miss	 miss[SCHED_MISSES];	/* this pass's */
	size_t			 nmiss, miss_next;
	struct sched_shapes	 shapes;
	struct pool		 cjobs;		/* where each cjob is */
};

static void *
sched_core_xalloc(void *p, size_t n, size_t size)
{
	if (n != 0 && size > SIZE_MAX / n)
		abort();
	if ((p = realloc(p, n * size == 0 ? 1 : n * size)) == NULL)
		abort();
	return (p);
}

#define JOB_OF(n, member) otree_entry(n, struct sched_cjob, member)
#define HOLD_OF(n) otree_entry(n, struct sched_chold, tnode)

static int
sched_core_cmp_i64(int64_t a, int64_t b)
{
	return (a < b ? -1 : a > b);
}

static int
sched_core_cmp_tail(const struct sched_cjob *a, const struct sched_cjob *b)
{
	int	c;

	if ((c = sched_core_cmp_i64(a->submit, b->submit)) != 0)
		return (c);
	return (a->id < b->id ? -1 : a->id > b->id);
}

static int
sched_core_cmp_fifo(const struct otree_node *x, const struct otree_node *y)
{
	return (sched_core_cmp_tail(JOB_OF(x, qnode), JOB_OF(y, qnode)));
}

static int64_t
sched_core_remaining(const struct sched_cjob *j)
{
	return (j->key.duration - sched_core_held(j)->total_executed);
}

static int
sched_core_cmp_srtf(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_cjob	*a = JOB_OF(x, qnode), *b = JOB_OF(y, qnode);
	int			 c;

	c = sched_core_cmp_i64(sched_core_remaining(a),
	    sched_core_remaining(b));
	return (c != 0 ? c : sched_core_cmp_tail(a, b));
}

/* 2D-LAS within a queue: by the time a job first started; a job that
 * never ran by its submit time. */
static int
sched_core_cmp_dlas(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_cjob	*a = JOB_OF(x, qnode), *b = JOB_OF(y, qnode);
	int64_t			 ka, kb;
	int			 c;

	if (a->queue != b->queue)
		return (a->queue < b->queue ? -1 : 1);
	ka = sched_core_held(a)->first_start;
	kb = sched_core_held(b)->first_start;
	if (ka == SCHED_NEVER)
		ka = a->submit;
	if (kb == SCHED_NEVER)
		kb = b->submit;
	if ((c = sched_core_cmp_i64(ka, kb)) != 0)
		return (c);
	return (sched_core_cmp_tail(a, b));
}

/* 2D-Gittins within a queue: the higher index first. */
static int
sched_core_cmp_gittins(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_cjob	*a = JOB_OF(x, qnode), *b = JOB_OF(y, qnode);

	if (a->queue != b->queue)
		return (a->queue < b->queue ? -1 : 1);
	if (a->key.gindex != b->key.gindex)
		return (a->key.gindex > b->key.gindex ? -1 : 1);
	return (sched_core_cmp_tail(a, b));
}

/* Running jobs, highest priority first: by queue, then the earlier start.
 * The last one is the first victim. */
static int
sched_core_cmp_run_queue(const struct otree_node *x,
    const struct otree_node *y)
{
	const struct sched_cjob	*a = JOB_OF(x, qnode), *b = JOB_OF(y, qnode);
	int			 c;

	if (a->queue != b->queue)
		return (a->queue < b->queue ? -1 : 1);
	if ((c = sched_core_cmp_i64(sched_core_held(a)->first_start,
	    sched_core_held(b)->first_start)) != 0)
		return (c);
	return (sched_core_cmp_tail(a, b));
}

/* srtf: the running job that ends first has the highest priority; the
 * projected end does not move while the job runs. */
static int
sched_core_cmp_run_srtf(const struct otree_node *x,
    const struct otree_node *y)
{
	const struct sched_cjob	*a = JOB_OF(x, qnode), *b = JOB_OF(y, qnode);
	int			 c;

	if ((c = sched_core_cmp_i64(a->hold->end_key, b->hold->end_key)) != 0)
		return (c);
	return (sched_core_cmp_tail(a, b));
}

static int
sched_core_cmp_timer(const struct otree_node *x, const struct otree_node *y)
{
	const struct sched_chold	*a = HOLD_OF(x), *b = HOLD_OF(y);
	int				 c;

	if ((c = sched_core_cmp_i64(a->timer, b->timer)) != 0)
		return (c);
	return (a->job->id < b->job->id ? -1 :
	    a->job->id > b->job->id);
}

static int
sched_core_cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

struct sched_core *
sched_core_create(const struct sched_conf *conf)
{
	struct sched_core	*core;
	otree_cmp		 pcmp, rcmp = sched_core_cmp_run_queue;
	size_t			 i;

	if ((core = calloc(1, sizeof *core)) == NULL)
		abort();
	core->conf = *conf;
	core->conf.samples = NULL;
	pool_init(&core->cjobs, sizeof(struct sched_cjob));
	core->nqueues = conf->nqueues;
	switch (conf->policy) {
	case SCHED_SRTF:
		pcmp = sched_core_cmp_srtf;
		rcmp = sched_core_cmp_run_srtf;
		core->nqueues = 1;
		break;
	case SCHED_DLAS:
		pcmp = sched_core_cmp_dlas;
		break;
	case SCHED_GITTINS:
		pcmp = sched_core_cmp_gittins;
		break;
	case SCHED_FIFO:
	default:
		pcmp = sched_core_cmp_fifo;
		core->nqueues = 1;
		break;
	}
	if (core->nqueues < 1)
		core->nqueues = 1;
	otree_init(&core->pending, pcmp);
	otree_init(&core->running, rcmp);
	otree_init(&core->timers, sched_core_cmp_timer);
	TAILQ_INIT(&core->preempting);
	core->cluster = place_cluster_create(conf->seed);
	if (conf->nsamples > 0) {
		core->nsamples = conf->nsamples;
		core->samples = sched_core_xalloc(NULL, conf->nsamples,
		    sizeof *core->samples);
		memcpy(core->samples, conf->samples,
		    conf->nsamples * sizeof *core->samples);
		qsort(core->samples, core->nsamples, sizeof *core->samples,
		    sched_core_cmp_u64);
		core->prefix = sched_core_xalloc(NULL, core->nsamples + 1,
		    sizeof *core->prefix);
		core->prefix[0] = 0;
		for (i = 0; i < core->nsamples; i++)
			core->prefix[i + 1] = core->prefix[i] +
			    (double)core->samples[i];
	}
	return (core);
}

static void
sched_core_job_free(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_group	*g = sched_core_group(j);

	if (j->hold != NULL) {
		free(j->hold->alloc);
		free(j->hold->plan);
		free(j->hold);
	}
	/* The shape first: it points at the group. */
	sched_shape_put(&core->shapes, j->shape);
	if (g != NULL)
		sched_group_leave(&core->groups, g);
	pool_put(&core->cjobs, j);
}

void
sched_core_free(struct sched_core *core)
{
	struct otree_node	*n;
	struct sched_cjob	*j;

	if (core == NULL)
		return;
	while ((n = otree_first(&core->pending)) != NULL) {
		otree_remove(&core->pending, n);
		sched_core_job_free(core, JOB_OF(n, qnode));
	}
	while ((n = otree_first(&core->running)) != NULL) {
		otree_remove(&core->running, n);
		sched_core_job_free(core, JOB_OF(n, qnode));
	}
	while ((j = TAILQ_FIRST(&core->preempting)) != NULL) {
		TAILQ_REMOVE(&core->preempting, j, hold->pentry);
		sched_core_job_free(core, j);
	}
	place_cluster_free(core->cluster);
	sched_shapes_free(&core->shapes);
	sched_groups_free(&core->groups);
	pool_free(&core->cjobs);
	free(core->samples);
	free(core->prefix);
	free(core->acts);
	free(core->scratch);
	free(core->held);
	free(core->victims);
	free(core);
}

struct place_cluster *
sched_core_cluster(struct sched_core *core)
{
	return (core->cluster);
}

/* Binary search: the first sample above v. */
static size_t
sched_gittins_upper(const uint64_t *s, size_t n, uint64_t v)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

double
sched_gittins_index(const uint64_t *s, const double *prefix, size_t n,
    uint64_t a, uint64_t delta)
{
	size_t	lo, hi;
	double	done, sum, beyond, denom;

	lo = sched_gittins_upper(s, n, a);
	if (lo == n)
		return (0);	/* older than every sample: nothing known */
	hi = delta == 0 || a > UINT64_MAX - delta ? n :
	    sched_gittins_upper(s, n, a + delta);
	/* Among samples above a: those ending within delta count fully in
	 * the probability and by their remaining service in the expectation;
	 * the others count delta each. The common 1/|S > a| cancels. */
	done = (double)(hi - lo);
	sum = prefix[hi] - prefix[lo] - done * (double)a;
	beyond = (double)(n - hi) * (double)delta;
	denom = sum + beyond;
	if (denom <= 0)
		return (HUGE_VAL);
	return (done / denom);
}

/* The placement of a job: its own, else the cluster's. */
static enum sched_placement
sched_core_placement(const struct sched_core *core, const struct sched_cjob *j)
{
	return (j->shape->own_placement ?
	    (enum sched_placement)j->shape->placement : core->conf.placement);
}

/* What j needs beside its GPUs, or NULL for nothing. */
static const struct place_res *
sched_core_res(const struct sched_cjob *j)
{
	return (j->shape->has_res ? &j->shape->res : NULL);
}

/* What p asks of its GPUs' placement: its shape, its nodes, what it
 * needs beside them. */
static void
sched_core_want(const struct sched_cjob *p, struct place_want *w)
{
	memset(w, 0, sizeof *w);
	w->gpus = p->shape->gpus;
	w->nnodes = p->shape->num_nodes;
	w->any_shape = p->shape->any_shape;
	w->sensitive = p->shape->consolidate;
	if (sched_core_listed(p)) {
		w->nodes = p->shape->nodes;
		w->nlisted = p->shape->nnodes;
	}
	w->res = sched_core_res(p);
}

/* Finds p's GPUs among the free ones, in its shape, on the nodes it may
 * use; the placement goes to core->scratch. */
static size_t
sched_core_find(struct sched_core *core, const struct sched_cjob *p)
{
	struct place_want	w;

	sched_core_want(p, &w);
	return (place_find_want(core->cluster, sched_core_placement(core, p),
	    &w, core->scratch));
}

/* Why p, which did not fit though enough GPUs are free, waits: the GPUs
 * (their split), or the CPUs or the memory it needs beside them. Costs
 * up to two more placements, for a job with CPUs and memory to place. */
static enum sched_reason
sched_core_short(struct sched_core *core, const struct sched_cjob *p)
{
	const struct place_res	*r = sched_core_res(p);
	struct place_res	 cpus_only;
	struct place_want	 w;
	enum sched_placement	 how = sched_core_placement(core, p);

	/* The GPUs alone first. */
	sched_core_want(p, &w);
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

/* The service that places a job in a queue: GPUs x time run since its
 * last promotion (all its service until it is promoted). A promotion
 * thus gives the job a fresh quantum in Q0, as in the Tiresias simulator;
 * were its whole service kept, a promoted job would be demoted at once,
 * preempt and be preempted back in a storm. */
static uint64_t
sched_core_qservice(const struct sched_cjob *j)
{
	return ((uint64_t)sched_core_held(j)->executed * j->shape->gpus);
}

/* The queue a service level puts a job in. */
static unsigned
sched_core_queue_of(const struct sched_core *core, uint64_t attained)
{
	unsigned	q = 0;

	while (q + 1 < core->nqueues && attained >= core->conf.thresholds[q])
		q++;
	return (q);
}

static void
sched_core_timer_set(struct sched_core *core, struct sched_cjob *j,
    int64_t when)
{
	struct sched_chold	*h;

	if (when == SCHED_NEVER && j->hold == NULL)
		return;
	h = sched_core_hold(j);
	if (h->timer != SCHED_NEVER)
		otree_remove(&core->timers, &h->tnode);
	h->timer = when;
	if (when != SCHED_NEVER)
		otree_insert(&core->timers, &h->tnode);
}

/* Running job: the moment its service reaches its queue's threshold. */
static void
sched_core_arm_demotion(struct sched_core *core, struct sched_cjob *j)
{
	uint64_t	left;
	int64_t		ms;

	if (j->queue + 1u >= core->nqueues) {
		sched_core_timer_set(core, j, SCHED_NEVER);
		return;
	}
	/* Service grows by gpus per ms: round the wait up so that at the
	 * timer the threshold is reached, not one ms short. A job adopted
	 * with more service than its queue allows is due at once. */
	left = 0;
	if (sched_core_qservice(j) < core->conf.thresholds[j->queue])
		left = core->conf.thresholds[j->queue] -
		    sched_core_qservice(j);
	ms = (int64_t)((left + j->shape->gpus - 1) / j->shape->gpus);
	sched_core_timer_set(core, j, sched_core_held(j)->acct_since + ms);
}

/* Pending job that has run: when starvation promotion lifts it to Q0. */
static void
sched_core_arm_promotion(struct sched_core *core, struct sched_cjob *j)
{
	const struct sched_chold	*h = sched_core_held(j);
	double				 wait;

	if (core->conf.promote_knob <= 0 || j->queue == 0 ||
	    h->executed <= 0) {
		sched_core_timer_set(core, j, SCHED_NEVER);
		return;
	}
	wait = ceil(core->conf.promote_knob * (double)h->executed);
	if (wait > 4e18)
		sched_core_timer_set(core, j, SCHED_NEVER);
	else
		sched_core_timer_set(core, j, h->last_stop + (int64_t)wait);
}

static void
sched_core_gindex(struct sched_core *core, struct sched_cjob *j)
{
	uint64_t	delta = 0;

	if (core->conf.policy != SCHED_GITTINS || core->nsamples == 0)
		return;
	/* The quantum is the service left in the job's queue: discretized
	 * Gittins asks how likely the job is to finish before demotion. */
	if (j->queue + 1u < core->nqueues &&
	    sched_core_qservice(j) < core->conf.thresholds[j->queue])
		delta = core->conf.thresholds[j->queue] -
		    sched_core_qservice(j);
	j->key.gindex = sched_gittins_index(core->samples, core->prefix,
	    core->nsamples, sched_core_held(j)->attained, delta);
}

/* Makes j pending (its state already left running or new). */
static unsigned
sched_core_size_bucket(const struct sched_cjob *j)
{
	return (j->shape->gpus < SCHED_MAX_GPUS_PER_NODE ? j->shape->gpus :
	    SCHED_MAX_GPUS_PER_NODE);
}

static void
sched_core_enqueue(struct sched_core *core, struct sched_cjob *j)
{
	j->state = SCHED_JOB_PENDING;
	j->reason = SCHED_REASON_RESOURCES;
	j->reason_pass = core->npass;
	sched_core_gindex(core, j);
	otree_insert(&core->pending, &j->qnode);
	core->psize[sched_core_size_bucket(j)]++;
	sched_core_arm_promotion(core, j);
}

static void
sched_core_dequeue(struct sched_core *core, struct sched_cjob *j)
{
	otree_remove(&core->pending, &j->qnode);
	core->psize[sched_core_size_bucket(j)]--;
	sched_core_timer_set(core, j, SCHED_NEVER);
}

static struct sched_cjob *
sched_core_job_new(struct sched_core *core, const struct sched_jobspec *spec)
{
	struct sched_shape	 want;
	struct sched_cjob	*j;
	struct sched_chold	*h;

	j = pool_get(&core->cjobs);
	j->id = spec->id;
	j->submit = spec->submit;
	if (core->conf.policy == SCHED_SRTF)
		j->key.duration = spec->duration;
	j->arg = spec->arg;
	memset(&want, 0, sizeof want);
	want.res = spec->res;
	want.gpus = spec->gpus;
	want.num_nodes = spec->num_nodes;
	want.placement = (uint8_t)spec->placement;
	want.own_placement = spec->own_placement;
	want.consolidate = spec->consolidate;
	want.no_preempt = spec->no_preempt;
	want.any_shape = spec->any_shape;
	want.listed = spec->nodes != NULL;
	if (spec->group != 0 && spec->group_cap > 0)
		want.group = sched_group_join(&core->groups, spec->group,
		    spec->group_cap);
	j->shape = sched_shape_get(&core->shapes, &want, spec->nodes,
	    spec->nnodes);
	/* A job that comes back with service (after a restart) or with a
	 * last stop of its own has a run's record from the start. */
	if (spec->attained != 0 || spec->executed != 0 ||
	    spec->total_executed != 0 || spec->first_start != SCHED_NEVER ||
	    spec->last_stop != spec->submit || spec->promotions != 0 ||
	    spec->preemptions != 0) {
		h = sched_core_hold(j);
		h->attained = spec->attained;
		h->executed = spec->executed;
		h->total_executed = spec->total_executed;
		h->first_start = spec->first_start;
		h->last_stop = spec->last_stop;
		h->promotions = spec->promotions;
		h->preemptions = spec->preemptions;
	}
	j->queue = sched_core_queue_of(core, sched_core_qservice(j));
	if (core->scratchsize < spec->gpus) {
		core->scratchsize = spec->gpus;
		core->scratch = sched_core_xalloc(core->scratch,
		    core->scratchsize, sizeof *core->scratch);
	}
	return (j);
}

struct sched_cjob *
sched_core_submit(struct sched_core *core, const struct sched_jobspec *spec,
    int64_t now)
{
	struct sched_cjob	*j = sched_core_job_new(core, spec);

	(void)now;
	sched_core_enqueue(core, j);
	return (j);
}

/* j no longer waits for victims (it started, or left): those still
 * stopping make room for whoever comes next. */
static void
sched_core_forget_victims(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_cjob	*v;

	if (sched_core_held(j)->waiting == 0)
		return;
	TAILQ_FOREACH(v, &core->preempting, hold->pentry) {
		if (v->hold->waiter == j) {
			v->hold->waiter = NULL;
			core->norphans++;
		}
	}
	j->hold->waiting = 0;
}

/* Moves a job onto its GPUs: pending (or new) to running. */
static void
sched_core_run(struct sched_core *core, struct sched_cjob *j,
    const struct place_alloc *a, size_t n, int64_t now)
{
	struct sched_chold	*h = sched_core_hold(j);
	struct sched_group	*g;

	h->alloc = sched_core_xalloc(h->alloc, n, sizeof *h->alloc);
	memcpy(h->alloc, a, n * sizeof *a);
	h->nalloc = (uint32_t)n;
	place_take(core->cluster, a, n);
	if ((g = sched_core_group(j)) != NULL)
		g->holding++;
	j->state = SCHED_JOB_RUNNING;
	j->reason = SCHED_REASON_NONE;
	h->acct_since = now;
	if (h->first_start == SCHED_NEVER)
		h->first_start = now;
	if (core->conf.policy == SCHED_SRTF)
		h->end_key = now + sched_core_remaining(j);
	free(h->plan);
	h->plan = NULL;
	h->nplan = 0;
	sched_core_forget_victims(core, j);
	otree_insert(&core->running, &j->qnode);
	if (!j->shape->no_preempt) {
		core->victim_gpus += j->shape->gpus;
		core->qvictim[j->queue] += j->shape->gpus;
	}
	sched_core_arm_demotion(core, j);
}

static void	sched_core_unrun(struct sched_core *, struct sched_cjob *);

struct sched_cjob *
sched_core_adopt(struct sched_core *core, const struct sched_jobspec *spec,
    const struct place_alloc *a, size_t n, int64_t now)
{
	struct sched_cjob	*j = sched_core_job_new(core, spec);
	struct place_alloc	*own;
	size_t			 i;

	own = sched_core_xalloc(NULL, n, sizeof *own);
	for (i = 0; i < n; i++) {
		own[i] = a[i];
		place_res_need(core->cluster, a[i].node, sched_core_res(j),
		    sched_mask_count(a[i].mask), &own[i].cpus, &own[i].mem);
	}
	sched_core_run(core, j, own, n, now);
	free(own);
	if (spec->preempting) {
		/* Being stopped already: not a victim, no one waits yet. */
		sched_core_unrun(core, j);
		j->state = SCHED_JOB_PREEMPTING;
		TAILQ_INSERT_TAIL(&core->preempting, j, hold->pentry);
		core->norphans++;
	}
	return (j);
}

/* Counts service up to now for a job that holds GPUs. */
static void
sched_core_account(struct sched_cjob *j, int64_t now)
{
	struct sched_chold	*h = sched_core_hold(j);
	int64_t			 dt = now - h->acct_since;

	if (dt <= 0)
		return;
	h->attained += (uint64_t)dt * j->shape->gpus;
	h->executed += dt;
	h->total_executed += dt;
	h->acct_since = now;
}

/* Takes j off the running tree (it stops being a candidate victim). */
static void
sched_core_unrun(struct sched_core *core, struct sched_cjob *j)
{
	otree_remove(&core->running, &j->qnode);
	if (!j->shape->no_preempt) {
		core->victim_gpus -= j->shape->gpus;
		core->qvictim[j->queue] -= j->shape->gpus;
	}
	sched_core_timer_set(core, j, SCHED_NEVER);
}

/* Frees j's GPUs and forgets which job it made room for. */
static void
sched_core_unhold(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_chold	*h = sched_core_hold(j);
	struct sched_group	*g;

	place_release(core->cluster, h->alloc, h->nalloc);
	if ((g = sched_core_group(j)) != NULL)
		g->holding--;
	free(h->alloc);
	h->alloc = NULL;
	h->nalloc = 0;
	if (h->waiter != NULL) {
		h->waiter->hold->waiting--;
		h->waiter = NULL;
	}
}

static void
sched_core_detach(struct sched_core *core, struct sched_cjob *j, int64_t now)
{

	switch (j->state) {
	case SCHED_JOB_PENDING:
		sched_core_dequeue(core, j);
		sched_core_forget_victims(core, j);
		break;
	case SCHED_JOB_RUNNING:
		sched_core_account(j, now);
		sched_core_unrun(core, j);
		sched_core_unhold(core, j);
		break;
	case SCHED_JOB_PREEMPTING:
		sched_core_account(j, now);
		TAILQ_REMOVE(&core->preempting, j, hold->pentry);
		if (j->hold->waiter == NULL)
			core->norphans--;
		sched_core_unhold(core, j);
		break;
	}
}

void
sched_core_end(struct sched_core *core, struct sched_cjob *j, int64_t now)
{
	if (j == NULL)
		return;
	sched_core_detach(core, j, now);
	sched_core_job_free(core, j);
}

void
sched_core_stopped(struct sched_core *core, struct sched_cjob *j,
    int64_t now)
{
	if (j->state == SCHED_JOB_PENDING)
		return;
	sched_core_detach(core, j, now);
	j->queue = sched_core_queue_of(core, sched_core_qservice(j));
	j->rank = 0;
	sched_core_hold(j)->last_stop = now;
	sched_core_enqueue(core, j);
}

void
sched_core_rekey(struct sched_core *core, struct sched_cjob *j, uint64_t id,
    void *arg)
{
	struct otree	*t = NULL;
	int64_t		 timer = sched_core_held(j)->timer;

	if (j->state == SCHED_JOB_PENDING)
		t = &core->pending;
	else if (j->state == SCHED_JOB_RUNNING)
		t = &core->running;
	if (t != NULL)
		otree_remove(t, &j->qnode);
	sched_core_timer_set(core, j, SCHED_NEVER);
	j->id = id;
	j->arg = arg;
	if (t != NULL)
		otree_insert(t, &j->qnode);
	sched_core_timer_set(core, j, timer);
}

/* Demotions and promotions due by now. */
static void
sched_core_timers(struct sched_core *core, int64_t now)
{
	struct otree_node	*n;
	struct sched_cjob	*j;

	while ((n = otree_first(&core->timers)) != NULL) {
		j = HOLD_OF(n)->job;
		if (HOLD_OF(n)->timer > now)
			break;
		sched_core_timer_set(core, j, SCHED_NEVER);
		if (j->state == SCHED_JOB_RUNNING) {
			/* Demotion: new queue, new place among the running. */
			sched_core_account(j, now);
			otree_remove(&core->running, &j->qnode);
			if (!j->shape->no_preempt)
				core->qvictim[j->queue] -= j->shape->gpus;
			j->queue = sched_core_queue_of(core,
			    sched_core_qservice(j));
			if (!j->shape->no_preempt)
				core->qvictim[j->queue] += j->shape->gpus;
			otree_insert(&core->running, &j->qnode);
			sched_core_arm_demotion(core, j);
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

int64_t
sched_core_next_wakeup(const struct sched_core *core)
{
	struct otree_node	*n = otree_first(&core->timers);

	return (n != NULL ? HOLD_OF(n)->timer : SCHED_NEVER);
}

static void
sched_core_act(struct sched_core *core, enum sched_action_type type,
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

/* May running job r be preempted for pending job p? Across queues only
 * (within a queue the order decides who gets free GPUs, and preempting
 * there would thrash); under srtf, for a job with less time left. */
static bool
sched_core_outranks(const struct sched_core *core, const struct sched_cjob *p,
    const struct sched_cjob *r, int64_t now)
{
	switch (core->conf.policy) {
	case SCHED_SRTF:
		return (r->hold->end_key - now > sched_core_remaining(p));
	case SCHED_DLAS:
	case SCHED_GITTINS:
		return (r->queue > p->queue);
	case SCHED_FIFO:
	default:
		return (false);
	}
}

/* Reserves for this pass the GPUs in a that are free now, so that jobs of
 * lower priority do not take what a waiting job was promised. */
static void
sched_core_reserve(struct sched_core *core, const struct place_alloc *a,
    size_t n)
{
	size_t		i;
	uint64_t	m;

	for (i = 0; i < n; i++) {
		m = a[i].mask & place_node_free_mask(core->cluster, a[i].node);
		if (m == 0)
			continue;
		if (core->nheld == core->heldsize) {
			core->heldsize = core->heldsize != 0 ?
			    core->heldsize * 2 : 16;
			core->held = sched_core_xalloc(core->held,
			    core->heldsize, sizeof *core->held);
		}
		core->held[core->nheld].node = a[i].node;
		core->held[core->nheld].mask = m;
		place_take(core->cluster, &core->held[core->nheld], 1);
		core->nheld++;
	}
}

/* Would p fit if victims[0..n) (skipping skip) gave their GPUs back? On
 * success the placement is in core->scratch. */
static size_t
sched_core_fits_with(struct sched_core *core, struct sched_cjob *p,
    struct sched_cjob **victims, size_t n, size_t skip)
{
	size_t	i, got;

	for (i = 0; i < n; i++) {
		if (i != skip)
			place_release(core->cluster, victims[i]->hold->alloc,
			    victims[i]->hold->nalloc);
	}
	got = sched_core_find(core, p);
	for (i = 0; i < n; i++) {
		if (i != skip)
			place_take(core->cluster, victims[i]->hold->alloc,
			    victims[i]->hold->nalloc);
	}
	return (got);
}

/* Appends r to core->victims (k entries so far); returns the new count. */
static size_t
sched_core_victim_add(struct sched_core *core, size_t k, struct sched_cjob *r)
{
	if (k == core->victimsize) {
		core->victimsize = k != 0 ? k * 2 : 16;
		core->victims = sched_core_xalloc(core->victims,
		    core->victimsize, sizeof *core->victims);
	}
	core->victims[k] = r;
	return (k + 1);
}

/* Gives back the victims p can do without, the last taken first; the k
 * victims must make room for p. Returns how many are left. */
static size_t
sched_core_victim_prune(struct sched_core *core, struct sched_cjob *p,
    size_t k)
{
	size_t	i;

	for (i = k; i-- > 0;) {
		if (sched_core_fits_with(core, p, core->victims, k, i) == 0)
			continue;
		core->victims[i] = core->victims[--k];
	}
	return (k);
}

/* Records where p will run once the k victims have stopped. */
static void
sched_core_victim_plan(struct sched_core *core, struct sched_cjob *p,
    size_t k)
{
	struct sched_chold	*h;
	size_t			 got;

	got = sched_core_fits_with(core, p, core->victims, k, SIZE_MAX);
	h = sched_core_hold(p);
	h->plan = sched_core_xalloc(h->plan, got, sizeof *h->plan);
	memcpy(h->plan, core->scratch, got * sizeof *h->plan);
	h->nplan = (uint32_t)got;
}

/* Picks the fewest lowest-priority victims that make room for p: take
 * them from the bottom until p fits, then give back any p can do without,
 * the highest first. The running tree is in priority order, so the jobs p
 * outranks are a suffix of it. Returns the
 * number of victims in core->victims (0: preemption cannot help). */
static size_t
sched_core_choose(struct sched_core *core, struct sched_cjob *p, int64_t now)
{
	struct otree_node	*n;
	struct sched_cjob	*r;
	uint64_t		 have = place_free_total(core->cluster);
	size_t			 k = 0, fit = 0;

	for (n = otree_last(&core->running); n != NULL; n = otree_prev(n)) {
		r = JOB_OF(n, qnode);
		if (!sched_core_outranks(core, p, r, now))
			break;
		if (!r->shape->no_preempt) {
			k = sched_core_victim_add(core, k, r);
			have += r->shape->gpus;
			if (have >= p->shape->gpus &&
			    (fit = sched_core_fits_with(core, p, core->victims,
			    k, SIZE_MAX)) > 0)
				break;
		}
	}
	if (fit == 0)
		return (0);
	return (sched_core_victim_prune(core, p, k));
}

/* GPUs of running jobs that p outranks and that may be preempted. For the
 * queue policies a sum over the lower queues; for srtf the cursor walks the
 * running jobs (ordered by end) past those p does not outrank, and only
 * forward, since each pending job after p has at least p's remaining time. */
static uint64_t
sched_core_victims_for(struct sched_core *core, const struct sched_cjob *p,
    struct otree_node **cursor, uint64_t *passed, int64_t now)
{
	struct sched_cjob	*r;
	uint64_t		 sum = 0;
	unsigned		 q;

	switch (core->conf.policy) {
	case SCHED_DLAS:
	case SCHED_GITTINS:
		for (q = p->queue + 1; q < core->nqueues; q++)
			sum += core->qvictim[q];
		return (sum);
	case SCHED_SRTF:
		while (*cursor != NULL && !sched_core_outranks(core, p,
		    (r = JOB_OF(*cursor, qnode)), now)) {
			if (!r->shape->no_preempt)
				*passed += r->shape->gpus;
			*cursor = otree_next(*cursor);
		}
		return (core->victim_gpus - *passed);
	case SCHED_FIFO:
	default:
		return (0);
	}
}

/* Makes p wait for preempting jobs no one waits for when their GPUs (with
 * the free ones) can hold it: the fewest of them. Returns how many. */
static size_t
sched_core_take_orphans(struct sched_core *core, struct sched_cjob *p)
{
	struct sched_cjob	*r;
	uint64_t		 have = place_free_total(core->cluster);
	size_t			 k = 0, i;

	TAILQ_FOREACH(r, &core->preempting, hold->pentry) {
		if (r->hold->waiter != NULL)
			continue;
		k = sched_core_victim_add(core, k, r);
		have += r->shape->gpus;
	}
	if (have < p->shape->gpus ||
	    sched_core_fits_with(core, p, core->victims, k, SIZE_MAX) == 0)
		return (0);
	k = sched_core_victim_prune(core, p, k);
	sched_core_victim_plan(core, p, k);
	for (i = 0; i < k; i++) {
		core->victims[i]->hold->waiter = p;
		sched_core_hold(p)->waiting++;
		core->norphans--;
	}
	return (k);
}

/* Whether p may be answered from this pass's misses: it asks for GPUs
 * anywhere (no node list) and its placement draws no random number. */
static bool
sched_core_may_miss(const struct sched_core *core, const struct sched_cjob *p)
{
	return (!sched_core_listed(p) && sched_core_placement(core, p) !=
	    SCHED_PLACE_RANDOM);
}

/* Whether jobs a and b ask the same of the cluster: as many GPUs, in the
 * same shape and placement, with the same CPUs and memory beside them. */
static bool
sched_core_alike(const struct sched_core *core, const struct sched_cjob *a,
    const struct sched_cjob *b)
{
	const struct sched_shape	*x = a->shape, *y = b->shape;

	/* Jobs asking the same mostly share one shape. */
	if (x == y)
		return (true);
	return (x->gpus == y->gpus && x->num_nodes == y->num_nodes &&
	    sched_core_placement(core, a) == sched_core_placement(core, b) &&
	    x->consolidate == y->consolidate &&
	    x->any_shape == y->any_shape && x->has_res == y->has_res &&
	    (!x->has_res || sched_shape_res_equal(&x->res, &y->res)));
}

/* This pass's reason for a job like p that found no room, if there is
 * one still standing: *why gets it. */
static bool
sched_core_missed(struct sched_core *core, const struct sched_cjob *p,
    enum sched_reason *why)
{
	uint64_t	gen = place_generation(core->cluster);
	size_t		i;

	if (!sched_core_may_miss(core, p))
		return (false);
	for (i = 0; i < core->nmiss; i++) {
		if (core->miss[i].generation == gen &&
		    sched_core_alike(core, core->miss[i].job, p)) {
			*why = core->miss[i].reason;
			return (true);
		}
	}
	return (false);
}

/* Notes that p found no room, and why. */
static void
sched_core_miss(struct sched_core *core, const struct sched_cjob *p,
    enum sched_reason why)
{
	struct sched_miss	*m;

	if (!sched_core_may_miss(core, p))
		return;
	if (core->nmiss < SCHED_MISSES)
		m = &core->miss[core->nmiss++];
	else
		m = &core->miss[core->miss_next++ % SCHED_MISSES];
	m->generation = place_generation(core->cluster);
	m->job = p;
	m->reason = why;
}

size_t
sched_core_pass(struct sched_core *core, int64_t now,
    const struct sched_action **acts)
{
	struct otree_node	*n, *next, *cursor;
	struct sched_cjob	*p, *r;
	uint64_t		 passed = 0, free_now, victims;
	size_t			 left[SCHED_MAX_GPUS_PER_NODE + 1];
	size_t			 got, k, i;
	unsigned		 minsize, b;
	enum sched_reason	 why;

	core->nacts = 0;
	core->nheld = 0;
	core->nmiss = 0;
	core->npass++;
	core->tail_reason = SCHED_REASON_RESOURCES;
	sched_core_timers(core, now);
	memcpy(left, core->psize, sizeof left);
	for (minsize = 1; minsize < SCHED_MAX_GPUS_PER_NODE &&
	    left[minsize] == 0; minsize++)
		;
	cursor = otree_first(&core->running);
	for (n = otree_first(&core->pending); n != NULL; n = next) {
		next = otree_next(n);
		p = JOB_OF(n, qnode);
		free_now = place_free_total(core->cluster);
		victims = sched_core_victims_for(core, p, &cursor, &passed,
		    now);
		/* Neither the free GPUs nor any job p outranks can serve p or
		 * anything behind it (they rank lower still): stop here. */
		if (free_now < minsize && victims == 0 && core->norphans == 0)
			break;
		p->reason_pass = core->npass;
		b = sched_core_size_bucket(p);
		if (--left[b] == 0 && b == minsize) {
			while (minsize < SCHED_MAX_GPUS_PER_NODE &&
			    left[minsize] == 0)
				minsize++;
		}
		if (sched_core_capped(p)) {
			/* Its array is at its throttle: whatever it was
			 * promised goes to the next. */
			p->reason = SCHED_REASON_GROUP_CAP;
			sched_core_forget_victims(core, p);
			continue;
		}
		if (free_now < p->shape->gpus)
			p->reason = SCHED_REASON_RESOURCES;
		else if (sched_core_missed(core, p, &why))
			p->reason = why;
		else {
			if ((got = sched_core_find(core, p)) > 0) {
				sched_core_dequeue(core, p);
				sched_core_run(core, p, core->scratch, got,
				    now);
				sched_core_act(core, SCHED_ACT_START, p);
				continue;
			}
			p->reason = sched_core_res(p) != NULL ?
			    sched_core_short(core, p) : SCHED_REASON_RESOURCES;
			sched_core_miss(core, p, p->reason);
		}
		if (core->conf.policy == SCHED_FIFO && core->conf.strict) {
			/* Strict order: the rest wait behind p. */
			core->tail_reason = SCHED_REASON_PRIORITY;
			break;
		}
		/* Bound to some nodes: it waits for their GPUs. */
		if (sched_core_listed(p))
			continue;
		if (sched_core_held(p)->waiting > 0 || (core->norphans > 0 &&
		    sched_core_take_orphans(core, p) > 0)) {
			/* Its victims are still stopping: hold what they
			 * were stopped for, and ask for nothing more. */
			p->reason = SCHED_REASON_PREEMPTING;
			sched_core_reserve(core, p->hold->plan,
			    p->hold->nplan);
			continue;
		}
		if (victims == 0 || free_now + victims < p->shape->gpus ||
		    (k = sched_core_choose(core, p, now)) == 0)
			continue;
		sched_core_victim_plan(core, p, k);
		for (i = 0; i < k; i++) {
			r = core->victims[i];
			if (&r->qnode == cursor)
				cursor = otree_next(cursor);
			sched_core_unrun(core, r);
			r->state = SCHED_JOB_PREEMPTING;
			r->hold->preemptions++;
			r->hold->waiter = p;
			p->hold->waiting++;
			TAILQ_INSERT_TAIL(&core->preempting, r, hold->pentry);
			sched_core_act(core, SCHED_ACT_PREEMPT, r);
		}
		p->reason = SCHED_REASON_PREEMPTING;
		sched_core_reserve(core, p->hold->plan, p->hold->nplan);
	}
	for (i = 0; i < core->nheld; i++)
		place_release(core->cluster, &core->held[i], 1);
	core->nheld = 0;
	*acts = core->acts;
	return (core->nacts);
}

void
sched_core_each_pending(const struct sched_core *core,
    void (*fn)(struct sched_cjob *, void *), void *arg)
{
	struct otree_node	*n;

	for (n = otree_first(&core->pending); n != NULL; n = otree_next(n))
		fn(JOB_OF(n, qnode), arg);
}

void
sched_core_rank(struct sched_core *core)
{
	struct otree_node	*n;
	uint32_t		 k = 0;

	for (n = otree_first(&core->pending); n != NULL; n = otree_next(n))
		JOB_OF(n, qnode)->rank = ++k;
}

uint32_t
sched_core_group_holding(const struct sched_core *core, uint64_t id)
{
	const struct sched_group	*g = sched_group_find(&core->groups, id);

	return (g != NULL ? g->holding : 0);
}

size_t
sched_core_pending(const struct sched_core *core)
{
	return (core->pending.count);
}

size_t
sched_core_running(const struct sched_core *core)
{
	return (core->running.count);
}

unsigned
sched_core_queues(const struct sched_core *core)
{
	return (core->nqueues);
}

uint64_t
sched_core_promotions(const struct sched_core *core)
{
	return (core->npromoted);
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
	int64_t		since = sched_core_held(j)->acct_since;
	uint64_t	attained = sched_core_held(j)->attained;

	if (j->state == SCHED_JOB_PENDING || now <= since)
		return (attained);
	return (attained + (uint64_t)(now - since) * j->shape->gpus);
}

int64_t
sched_cjob_total_executed(const struct sched_cjob *j, int64_t now)
{
	int64_t	since = sched_core_held(j)->acct_since;
	int64_t	total = sched_core_held(j)->total_executed;

	if (j->state == SCHED_JOB_PENDING || now <= since)
		return (total);
	return (total + (now - since));
}

int64_t
sched_cjob_executed(const struct sched_cjob *j, int64_t now)
{
	int64_t	since = sched_core_held(j)->acct_since;
	int64_t	executed = sched_core_held(j)->executed;

	if (j->state == SCHED_JOB_PENDING || now <= since)
		return (executed);
	return (executed + (now - since));
}

uint32_t
sched_cjob_promotions(const struct sched_cjob *j)
{
	return (sched_core_held(j)->promotions);
}

uint32_t
sched_cjob_rank(const struct sched_cjob *j)
{
	return (j->rank);
}

uint32_t
sched_cjob_preemptions(const struct sched_cjob *j)
{
	return (sched_core_held(j)->preemptions);
}

enum sched_reason
sched_cjob_reason(const struct sched_core *core, const struct sched_cjob *j)
{
	if (j->state != SCHED_JOB_PENDING)
		return (SCHED_REASON_NONE);
	if (sched_core_held(j)->waiting > 0)
		return (SCHED_REASON_PREEMPTING);
	if (sched_core_capped(j))
		return (SCHED_REASON_GROUP_CAP);
	/* A pass that stopped early did not reach this job: it waits for
	 * the reason the pass stopped for. */
	if (j->reason_pass != core->npass)
		return (core->tail_reason);
	return ((enum sched_reason)j->reason);
}

const struct place_alloc *
sched_cjob_alloc(const struct sched_cjob *j, size_t *n)
{
	*n = sched_core_held(j)->nalloc;
	return (sched_core_held(j)->alloc);
}
