/* sched-core.c: the Tiresias core: multi-level feedback queues on attained
 * GPU-service (2D-LAS, 2D-Gittins), the FIFO and SRTF baselines, starvation
 * promotion, gang placement and preemption. The rules, and why, are in
 * docs/scheduling.md. This file holds the job table and a job's life
 * through it (submit, adopt, start, stop, end) and answers what callers
 * ask of the table; the rest of the core is in files of one concept each,
 * listed in sched-core-int.h with the structures they share.
 *
 * Every active job sits in one of two ordered trees: pending jobs in the
 * order a pass serves them, running jobs in priority order (the lowest last,
 * where victims are taken from). Jobs with a timer (running: the next
 * demotion; pending: the promotion) also sit in a tree by time, so a pass
 * finds what is due in O(log n) and the caller learns when to wake. */
#include <sys/queue.h>

#include <stdlib.h>
#include <string.h>

#include "policy/sched-core-int.h"

void *
sched_core_xalloc(void *p, size_t n, size_t size)
{
	if (n != 0 && size > SIZE_MAX / n)
		abort();
	if ((p = realloc(p, n * size == 0 ? 1 : n * size)) == NULL)
		abort();
	return (p);
}

struct sched_core *
sched_core_create(const struct sched_conf *conf)
{
	struct sched_core	*core;

	if ((core = calloc(1, sizeof *core)) == NULL)
		abort();
	core->conf = *conf;
	core->conf.samples = NULL;
	/* srtf orders by the time left alone (an oracle to compare with). */
	if (conf->policy == SCHED_SRTF)
		core->conf.fairshare = false;
	pool_init(&core->cjobs, sizeof(struct sched_cjob));
	core->nqueues = conf->nqueues;
	/* fifo and srtf order all jobs in one queue. */
	if (conf->policy != SCHED_DLAS && conf->policy != SCHED_GITTINS)
		core->nqueues = 1;
	if (core->nqueues < 1)
		core->nqueues = 1;
	otree_init(&core->pending, sched_core_order_pending(conf));
	otree_init(&core->running, sched_core_order_running(conf->policy));
	otree_init(&core->timers, sched_core_order_timers);
	otree_init(&core->ends, sched_core_order_ends);
	otree_init(&core->deadlines, sched_core_order_deadlines);
	TAILQ_INIT(&core->preempting);
	TAILQ_INIT(&core->suspended);
	TAILQ_INIT(&core->rings);
	core->slice_wake = SCHED_NEVER;
	TAILQ_INIT(&core->fs_first);
	core->elastic_wake = SCHED_NEVER;
	core->cluster = place_cluster_create(conf->seed);
	sched_gittins_init(&core->gittins, conf->samples, conf->nsamples);
	return (core);
}

void
sched_core_preempt_rule(struct sched_core *core, unsigned p, unsigned r,
    bool may)
{
	uint64_t	bit = UINT64_C(1) << (r % 64);

	if (p >= SCHED_CLASSES || r >= SCHED_CLASSES)
		return;
	if (may)
		core->pdeny[p][r / 64] &= ~bit;
	else {
		core->pdeny[p][r / 64] |= bit;
		core->prules = true;
	}
}

/* The pool of the cjobs of tier t. */
static struct pool *
sched_core_pool(struct sched_core *core, uint8_t t)
{
	if (t == 0)
		return (&core->cjobs);
	if (core->tpool[t] == NULL) {
		if ((core->tpool[t] = malloc(sizeof *core->tpool[t])) == NULL)
			abort();
		pool_init(core->tpool[t], sizeof(struct sched_cjob));
	}
	return (core->tpool[t]);
}

/* j's limits' groups count it among those holding GPUs (sign 1), or no
 * longer (-1). */
static void
sched_core_limits_hold(const struct sched_cjob *j, int sign)
{
	struct sched_group	*g;
	uint8_t			 i;

	for (i = 0; i < j->shape->nlimits; i++) {
		g = j->shape->limit[i];
		if (sign > 0) {
			g->holding++;
			g->gpus += j->shape->gpus;
		} else {
			g->holding--;
			g->gpus -= j->shape->gpus;
		}
	}
}

static void
sched_core_job_free(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_group	*g = sched_cjob_group(j);
	struct sched_group	*limit[SCHED_MAX_LIMITS];
	uint8_t			 i, n = j->shape->nlimits;

	if (j->tier != 0)
		core->tiered--;
	if (j->shape->gpus_max > 0)
		core->nelastic--;
	sched_core_fairshare_join(core, j, -1);
	if (j->hold != NULL) {
		free(j->hold->alloc);
		free(j->hold->plan);
		free(j->hold->speedup);
		free(j->hold);
	}
	if (j->gset != NULL) {
		sched_gittins_free(j->gset);
		free(j->gset);
	}
	/* The shape first: it points at the groups. */
	for (i = 0; i < n; i++)
		limit[i] = j->shape->limit[i];
	sched_shape_put(&core->shapes, j->shape);
	if (g != NULL)
		sched_group_leave(&core->groups, g);
	for (i = 0; i < n; i++)
		sched_group_leave(&core->groups, limit[i]);
	pool_put(sched_core_pool(core, j->tier), j);
}

void
sched_core_free(struct sched_core *core)
{
	struct otree_node	*n;
	struct sched_cjob	*j;
	size_t			 i;

	if (core == NULL)
		return;
	while ((n = otree_first(&core->pending)) != NULL) {
		otree_remove(&core->pending, n);
		sched_core_job_free(core, SCHED_CJOB_OF(n, qnode));
	}
	while ((n = otree_first(&core->running)) != NULL) {
		otree_remove(&core->running, n);
		sched_core_job_free(core, SCHED_CJOB_OF(n, qnode));
	}
	while ((j = TAILQ_FIRST(&core->preempting)) != NULL) {
		TAILQ_REMOVE(&core->preempting, j, hold->pentry);
		sched_core_job_free(core, j);
	}
	while ((j = TAILQ_FIRST(&core->suspended)) != NULL) {
		TAILQ_REMOVE(&core->suspended, j, hold->pentry);
		sched_core_job_free(core, j);
	}
	sched_core_slice_free(core);
	place_cluster_free(core->cluster);
	sched_shape_clear(&core->shapes);
	sched_group_clear(&core->groups);
	pool_free(&core->cjobs);
	for (i = 1; i < SCHED_TIERS; i++) {
		if (core->tpool[i] != NULL)
			pool_free(core->tpool[i]);
		free(core->tpool[i]);
	}
	for (i = 0; i < core->ncactive; i++)
		free(core->ctvictim[core->cactive[i]]);
	sched_gittins_free(&core->gittins);
	sched_window_free(&core->windows);
	free(core->wjob.ends);
	free(core->wjob.nodes);
	free(core->acts);
	free(core->usable);
	free(core->scratch);
	free(core->ascratch);
	free(core->dist);
	free(core->anodes);
	free(core->grow);
	free(core->held);
	free(core->rheld);
	free(core->rplan);
	free(core->runs);
	free(core->promises);
	for (i = 0; i < core->nfs; i++)
		free(core->fs[i]);
	free(core->fs);
	free(core->victims);
	free(core);
}

struct place_cluster *
sched_core_cluster(struct sched_core *core)
{
	return (core->cluster);
}

/* Makes j pending (its state already left running or new). */
void
sched_core_enqueue(struct sched_core *core, struct sched_cjob *j)
{
	j->state = SCHED_JOB_PENDING;
	j->reason = SCHED_REASON_RESOURCES;
	j->reason_pass = core->npass;
	sched_core_order_key(core, j);
	sched_core_fairshare_enqueue(core, j);
	otree_insert(&core->pending, &j->qnode);
	core->psize[sched_cjob_size_bucket(j)]++;
	if (j->shape->time_slice)
		core->nslice_pending++;
	sched_core_mlfq_promotion(core, j);
}

/* Takes j off the pending (to run, to end, or to be promoted). */
void
sched_core_dequeue(struct sched_core *core, struct sched_cjob *j)
{
	otree_remove(&core->pending, &j->qnode);
	sched_core_fairshare_dequeue(core, j);
	core->psize[sched_cjob_size_bucket(j)]--;
	if (j->shape->time_slice)
		core->nslice_pending--;
	sched_core_mlfq_timer(core, j, SCHED_NEVER);
}

/* The service rate of a part of shards of a GPU: its share of the GPU's
 * (at least 1, at most the GPU's). */
static uint32_t
sched_core_shard_rate(const struct sched_core *core,
    const struct place_alloc *a)
{
	uint32_t	of = place_shard_count(core->cluster, a->node);
	uint32_t	rate;

	rate = a->shards >= of ? SCHED_RATE_GPU : SCHED_RATE_GPU * a->shards /
	    of;
	return (rate > 0 ? rate : 1);
}

/* The service a ms of spec's run gives (sched_cjob's rate): a GPU's per
 * GPU; a CPU job's CPUs (on all its nodes) at the conf's CPUs per GPU or
 * else the cluster's, in thousandths of a GPU rounded down, at least one
 * so that a CPU job's service grows too. */
static uint32_t
sched_core_rate(const struct sched_core *core,
    const struct sched_jobspec *spec)
{
	uint64_t	cpus, gpus = 1, per = SCHED_CPUS_PER_GPU, rate;

	if (spec->gpus > 0)
		return (spec->gpus * SCHED_RATE_GPU);
	cpus = (uint64_t)spec->res.cpus_node *
	    (spec->num_nodes > 0 ? spec->num_nodes : 1);
	if (core->conf.cpus_per_gpu > 0)
		per = core->conf.cpus_per_gpu;
	else if ((per = place_cpus_known(core->cluster, &gpus)) == 0 ||
	    gpus == 0) {
		per = SCHED_CPUS_PER_GPU;
		gpus = 1;
	}
	rate = cpus * gpus * SCHED_RATE_GPU / per;
	if (rate > UINT32_MAX)
		return (UINT32_MAX);
	return (rate > 0 ? (uint32_t)rate : 1);
}

uint64_t
sched_core_service(const struct sched_core *core,
    const struct sched_jobspec *spec, int64_t ms)
{
	if (ms <= 0)
		return (0);
	return ((uint64_t)ms * sched_core_rate(core, spec) / SCHED_RATE_GPU);
}

/* ms as whole seconds, rounded up (a limit is not shortened), at most
 * what a uint32_t holds; 0 (or less) for not known. */
static uint32_t
sched_core_secs(int64_t ms)
{
	if (ms <= 0)
		return (0);
	if (ms / 1000 >= UINT32_MAX)
		return (UINT32_MAX);
	return ((uint32_t)((ms + 999) / 1000));
}

static struct sched_cjob *
sched_core_job_new(struct sched_core *core, const struct sched_jobspec *spec)
{
	struct sched_shape	 want;
	const struct sched_limit *l;
	struct sched_group	*g;
	struct sched_cjob	*j;
	struct sched_chold	*h;
	uint32_t		 i, most;

	j = pool_get(sched_core_pool(core, spec->tier));
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
	want.no_requeue = spec->no_requeue;
	/* A group's cap may change as a job joins it. */
	core->cap_gen++;
	want.pclass = spec->pclass;
	want.urgency = spec->urgency;
	want.resv = spec->resv;
	want.any_shape = spec->any_shape;
	/* Rigid GPU jobs outside reservations alone take turns. */
	want.time_slice = spec->time_slice && spec->gpus > 0 &&
	    spec->gpus_max <= spec->gpus && spec->resv == 0;
	want.gpu_mem = spec->gpu_mem;
	/* Shards of one GPU: a rigid job of one GPU on one node's. */
	if (spec->gpus == 1 && spec->gpus_max <= 1 && spec->num_nodes <= 1 &&
	    !want.time_slice)
		want.shards = spec->shards > PLACE_MAX_SHARDS ?
		    PLACE_MAX_SHARDS : spec->shards;
	if (spec->gpus > 0 && spec->gpus_max > spec->gpus) {
		want.gpus_min = spec->gpus;
		want.gpus_max = spec->gpus_max;
		core->nelastic++;
	}
	want.listed = spec->nodes != NULL;
	want.nsets = spec->nsets;
	if (spec->group != 0 && spec->group_cap > 0)
		want.group = sched_group_join(&core->groups, spec->group,
		    spec->group_cap, 0);
	for (i = 0; i < spec->nlimits && i < SCHED_MAX_LIMITS; i++) {
		l = &spec->limits[i];
		g = sched_group_join(&core->groups, l->id, l->jobs, l->gpus);
		g->jobs_reason = l->jobs_reason;
		g->gpus_reason = l->gpus_reason;
		want.limit[want.nlimits++] = g;
	}
	j->shape = sched_shape_get(&core->shapes, &want, spec->nodes,
	    spec->nnodes);
	/* A job that comes back with service (after a restart) or with a
	 * last stop of its own has a run's record from the start. */
	if (spec->attained != 0 || spec->executed != 0 ||
	    spec->total_executed != 0 || spec->first_start != SCHED_NEVER ||
	    spec->last_stop != spec->submit || spec->promotions != 0 ||
	    spec->preemptions != 0 || spec->resizes != 0) {
		h = sched_cjob_hold(j);
		h->attained = spec->attained;
		h->executed = spec->executed;
		h->total_executed = spec->total_executed;
		h->first_start = spec->first_start;
		h->last_stop = spec->last_stop;
		h->promotions = spec->promotions;
		h->preemptions = spec->preemptions;
		h->resizes = spec->resizes;
	}
	j->rate = sched_core_rate(core, spec);
	j->limit_s = sched_core_secs(spec->limit);
	j->fs_leaf = spec->fs_leaf < SCHED_FS_LEAVES ? spec->fs_leaf :
	    SCHED_FS_LEAVES - 1;
	sched_core_fairshare_join(core, j, 1);
	j->gset = NULL;
	if (core->conf.policy == SCHED_GITTINS && core->conf.gittins_similar &&
	    spec->ngsamples > 0) {
		j->gset = sched_core_xalloc(NULL, 1, sizeof *j->gset);
		sched_gittins_init(j->gset, spec->gsamples, spec->ngsamples);
	}
	j->expect_s = sched_core_secs(spec->expect);
	if ((j->tier = spec->tier) != 0)
		core->tiered++;
	j->queue = sched_core_mlfq_queue(core, sched_cjob_qservice(j));
	most = j->shape->gpus_max > spec->gpus ? j->shape->gpus_max :
	    spec->gpus;
	if (core->scratchsize < most ||
	    core->scratchsize < spec->num_nodes || core->scratchsize == 0) {
		core->scratchsize = most > spec->num_nodes ? most :
		    spec->num_nodes;
		if (core->scratchsize == 0)
			core->scratchsize = 1;
		core->scratch = sched_core_xalloc(core->scratch,
		    core->scratchsize, sizeof *core->scratch);
		core->ascratch = sched_core_xalloc(core->ascratch,
		    core->scratchsize, sizeof *core->ascratch);
		core->rplan = sched_core_xalloc(core->rplan,
		    core->scratchsize, sizeof *core->rplan);
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

/* sched_core_victims' count by class (with rules). */
static void
sched_core_victims_class(struct sched_core *core, const struct sched_cjob *j,
    int sign)
{
	uint64_t	*tree, g = j->shape->gpus;
	unsigned	 c = j->shape->pclass, t;

	if ((tree = core->ctvictim[c]) == NULL) {
		tree = core->ctvictim[c] = sched_core_xalloc(NULL,
		    SCHED_TIERS + 1, sizeof *tree);
		memset(tree, 0, (SCHED_TIERS + 1) * sizeof *tree);
		core->cactive[core->ncactive++] = (uint8_t)c;
	}
	for (t = j->tier + 1u; t <= SCHED_TIERS; t += t & -t) {
		if (sign > 0)
			tree[t] += g;
		else
			tree[t] -= g;
	}
}

void
sched_core_victims(struct sched_core *core, const struct sched_cjob *j,
    int sign)
{
	uint64_t	g = j->shape->gpus;
	unsigned	t;

	core->victim_gen++;
	if (j->shape->no_requeue)
		return;
	if (core->prules)
		sched_core_victims_class(core, j, sign);
	if (sign > 0) {
		core->victim_gpus += g;
		core->qvictim[j->queue] += g;
		core->tqvictim[j->tier][j->queue] += g;
		for (t = j->tier + 1u; t <= SCHED_TIERS; t += t & -t)
			core->tvictim[t] += g;
	} else {
		core->victim_gpus -= g;
		core->qvictim[j->queue] -= g;
		core->tqvictim[j->tier][j->queue] -= g;
		for (t = j->tier + 1u; t <= SCHED_TIERS; t += t & -t)
			core->tvictim[t] -= g;
	}
}

uint64_t
sched_core_victims_below(const struct sched_core *core,
    const struct sched_cjob *p)
{
	const uint64_t	*deny = core->pdeny[p->shape->pclass], *tree;
	uint64_t	 sum = 0;
	unsigned	 t, k, c;
	bool		 ruled = false;

	for (k = 0; core->prules && k < SCHED_CLASSES / 64; k++)
		ruled |= deny[k] != 0;
	/* Tiers 0 to tier - 1 are the tree's first tier entries. */
	if (!ruled) {
		for (t = p->tier; t > 0; t -= t & -t)
			sum += core->tvictim[t];
		return (sum);
	}
	for (k = 0; k < core->ncactive; k++) {
		c = core->cactive[k];
		if (deny[c / 64] >> (c % 64) & 1)
			continue;
		tree = core->ctvictim[c];
		for (t = p->tier; t > 0; t -= t & -t)
			sum += tree[t];
	}
	return (sum);
}

/* Moves a job onto its GPUs: pending (or new) to running. */
void
sched_core_run(struct sched_core *core, struct sched_cjob *j,
    const struct place_alloc *a, size_t n, int64_t now)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	struct sched_group	*g;

	h->alloc = sched_core_xalloc(h->alloc, n, sizeof *h->alloc);
	memcpy(h->alloc, a, n * sizeof *a);
	h->nalloc = (uint32_t)n;
	/* Shards of a GPU give their share of its service. */
	if (n == 1 && a[0].shards > 0)
		j->rate = sched_core_shard_rate(core, &a[0]);
	if (sched_core_slice_hold(core, j)) {
		/* Its ring holds the GPUs: it takes its CPUs and memory. */
		place_take_res(core->cluster, a, n);
	} else {
		place_take(core->cluster, a, n);
		sched_core_place_dist(core, a, n, 1);
	}
	if ((g = sched_cjob_group(j)) != NULL)
		g->holding++;
	sched_core_limits_hold(j, 1);
	core->cap_gen++;
	j->state = SCHED_JOB_RUNNING;
	j->reason = SCHED_REASON_NONE;
	h->acct_since = now;
	h->started = now;
	h->run_base = h->total_executed;
	if (h->first_start == SCHED_NEVER)
		h->first_start = now;
	if (core->conf.policy == SCHED_SRTF)
		h->end_key = now + sched_cjob_remaining(j);
	free(h->plan);
	h->plan = NULL;
	h->nplan = 0;
	sched_core_preempt_forget(core, j);
	sched_core_fairshare_unfirst(core, j);
	sched_core_onrun(core, j, now);
}

void
sched_core_onrun(struct sched_core *core, struct sched_cjob *j, int64_t now)
{
	otree_insert(&core->running, &j->qnode);
	sched_core_slice_onrun(j, now);
	sched_core_backfill_ends_add(core, j, now);
	sched_core_victims(core, j, 1);
	sched_core_fairshare_hold(core, j, 1);
	sched_core_mlfq_demotion(core, j);
}

struct sched_cjob *
sched_core_adopt(struct sched_core *core, const struct sched_jobspec *spec,
    const struct place_alloc *a, size_t n, int64_t now)
{
	struct sched_cjob	*j = sched_core_job_new(core, spec);
	struct place_alloc	*own;
	uint32_t		 gpus = 0;
	size_t			 i;

	/* An elastic job found grown runs on what it holds. */
	for (i = 0; i < n; i++)
		gpus += sched_mask_count(a[i].mask);
	if (j->shape->gpus_max > 0 && gpus != j->shape->gpus &&
	    gpus >= j->shape->gpus_min && gpus <= j->shape->gpus_max)
		sched_core_elastic_reshape(core, j, gpus);
	own = sched_core_xalloc(NULL, n, sizeof *own);
	for (i = 0; i < n; i++) {
		own[i] = a[i];
		if (a[i].shards > 0)
			place_shard_need(core->cluster, a[i].node,
			    sched_cjob_res(j), a[i].shards, &own[i].cpus,
			    &own[i].mem);
		else
			place_res_need(core->cluster, a[i].node,
			    sched_cjob_res(j), sched_mask_count(a[i].mask),
			    &own[i].cpus, &own[i].mem);
	}
	sched_core_slice_adopt(core, j, own, n);
	sched_core_run(core, j, own, n, now);
	free(own);
	if (spec->preempting) {
		/* Being stopped already: not a victim, no one waits yet. */
		sched_core_unrun(core, j);
		j->state = SCHED_JOB_PREEMPTING;
		TAILQ_INSERT_TAIL(&core->preempting, j, hold->pentry);
		core->norphans++;
	} else if (spec->suspended) {
		(void)sched_core_suspend(core, j, now);
		if (spec->sliced)
			sched_core_slice_suspended(j, true);
	}
	return (j);
}

size_t
sched_core_adopt_taken(const struct sched_core *core,
    const struct sched_jobspec *spec, const struct place_alloc *a, size_t n)
{
	uint64_t	open;
	size_t		i;

	/* A ring's GPUs are held once, by its first member found: the
	 * others join it. */
	if (spec->time_slice && sched_core_slice_at(core, a, n) != NULL)
		return (n);
	for (i = 0; i < n; i++) {
		open = place_node_free_mask(core->cluster, a[i].node);
		if (a[i].shards > 0)
			open |= place_shard_mask(core->cluster, a[i].node);
		if ((a[i].mask & ~open) != 0)
			return (i);
	}
	return (n);
}

/* Takes j off the running tree (it stops being a candidate victim). */
void
sched_core_unrun(struct sched_core *core, struct sched_cjob *j)
{
	otree_remove(&core->running, &j->qnode);
	sched_core_backfill_ends_remove(core, j);
	sched_core_backfill_unlean(core, j);
	sched_core_victims(core, j, -1);
	sched_core_fairshare_hold(core, j, -1);
	sched_core_mlfq_timer(core, j, SCHED_NEVER);
}

/* Frees j's GPUs and forgets which job it made room for. */
void
sched_core_unhold(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_chold	*h = sched_cjob_hold(j);
	struct sched_group	*g;

	if (sched_core_slice_leave(core, j)) {
		/* Others of its ring keep the GPUs. */
		place_release_res(core->cluster, h->alloc, h->nalloc);
	} else {
		place_release(core->cluster, h->alloc, h->nalloc);
		sched_core_place_dist(core, h->alloc, h->nalloc, -1);
	}
	if ((g = sched_cjob_group(j)) != NULL)
		g->holding--;
	sched_core_limits_hold(j, -1);
	core->cap_gen++;
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
		sched_core_preempt_forget(core, j);
		sched_core_fairshare_unfirst(core, j);
		break;
	case SCHED_JOB_RUNNING:
		sched_cjob_account(j, now);
		sched_core_unrun(core, j);
		sched_core_unhold(core, j);
		break;
	case SCHED_JOB_PREEMPTING:
		sched_cjob_account(j, now);
		TAILQ_REMOVE(&core->preempting, j, hold->pentry);
		if (j->hold->waiter == NULL)
			core->norphans--;
		sched_core_unhold(core, j);
		break;
	case SCHED_JOB_SUSPENDED:
		/* Accounted when it was suspended. */
		TAILQ_REMOVE(&core->suspended, j, hold->pentry);
		core->nsuspended--;
		sched_core_unhold(core, j);
		break;
	}
}

/* Suspended: frozen on its GPUs (gctl suspend, a round of time-slicing),
 * so it holds them but earns no service: off the running tree (no victim,
 * no demotion timer, no expected end) and back on it where it was, its
 * counters accounted to the instant it was suspended and counted again
 * from the instant it resumed. */
bool
sched_core_suspend(struct sched_core *core, struct sched_cjob *j,
    int64_t now)
{
	if (j->state != SCHED_JOB_RUNNING)
		return (false);
	sched_cjob_account(j, now);
	sched_core_unrun(core, j);
	j->state = SCHED_JOB_SUSPENDED;
	TAILQ_INSERT_TAIL(&core->suspended, j, hold->pentry);
	core->nsuspended++;
	sched_core_slice_suspended(j, false);
	return (true);
}

bool
sched_core_resume(struct sched_core *core, struct sched_cjob *j,
    int64_t now)
{
	struct sched_chold	*h;

	if (j->state != SCHED_JOB_SUSPENDED)
		return (false);
	h = sched_cjob_hold(j);
	TAILQ_REMOVE(&core->suspended, j, hold->pentry);
	core->nsuspended--;
	sched_core_slice_resumed(j);
	j->state = SCHED_JOB_RUNNING;
	h->acct_since = now;
	/* srtf orders the running by their projected end, which the
	 * suspension put off. */
	if (core->conf.policy == SCHED_SRTF)
		h->end_key = now + sched_cjob_remaining(j);
	sched_core_onrun(core, j, now);
	return (true);
}

size_t
sched_core_suspended(const struct sched_core *core)
{
	return (core->nsuspended);
}

uint64_t
sched_core_switches(const struct sched_core *core)
{
	return (core->switches);
}

void
sched_core_end(struct sched_core *core, struct sched_cjob *j, int64_t now)
{
	if (j == NULL)
		return;
	sched_core_detach(core, j, now);
	/* An elastic job resizing, ended before it restarted. */
	sched_core_fairshare_unfirst(core, j);
	sched_core_job_free(core, j);
}

void
sched_core_stopped(struct sched_core *core, struct sched_cjob *j,
    int64_t now)
{
	if (j->state == SCHED_JOB_PENDING)
		return;
	sched_core_detach(core, j, now);
	/* An elastic job waits for its fewest GPUs again. */
	if (j->shape->gpus_max > 0)
		sched_core_elastic_reshape(core, j, j->shape->gpus_min);
	j->queue = sched_core_mlfq_queue(core, sched_cjob_qservice(j));
	j->rank = 0;
	sched_cjob_hold(j)->last_stop = now;
	sched_core_enqueue(core, j);
}

void
sched_core_rekey(struct sched_core *core, struct sched_cjob *j, uint64_t id,
    void *arg)
{
	struct otree	*t = NULL;
	int64_t		 timer = sched_cjob_held(j)->timer;

	if (j->state == SCHED_JOB_PENDING)
		t = &core->pending;
	else if (j->state == SCHED_JOB_RUNNING)
		t = &core->running;
	if (t != NULL)
		otree_remove(t, &j->qnode);
	sched_core_mlfq_timer(core, j, SCHED_NEVER);
	j->id = id;
	j->arg = arg;
	if (t != NULL)
		otree_insert(t, &j->qnode);
	sched_core_mlfq_timer(core, j, timer);
}

int64_t
sched_core_next_wakeup(const struct sched_core *core)
{
	struct otree_node	*n = otree_first(&core->timers);
	int64_t			 t = n != NULL ? SCHED_CHOLD_OF(n)->timer :
				    SCHED_NEVER;
	int64_t			 w;

	/* A job let in on its prediction is preempted at its deadline. */
	if (sched_core_backfill_next(core) < t)
		t = sched_core_backfill_next(core);
	/* A window's opening or end lets a job start that could not. */
	if ((w = sched_window_next(&core->windows, core->wnow)) < t)
		t = w;
	/* An elastic job that may grow once its interval is over. */
	if (core->elastic_wake < t)
		t = core->elastic_wake;
	/* A turn that ends (time-slicing). */
	if (core->slice_wake < t)
		t = core->slice_wake;
	return (t);
}

void
sched_core_each_pending(const struct sched_core *core,
    void (*fn)(struct sched_cjob *, void *), void *arg)
{
	struct otree_node	*n;

	for (n = otree_first(&core->pending); n != NULL; n = otree_next(n))
		fn(SCHED_CJOB_OF(n, qnode), arg);
}

void
sched_core_rank(struct sched_core *core)
{
	struct otree_node	*n;
	uint32_t		 k = 0;

	for (n = otree_first(&core->pending); n != NULL; n = otree_next(n))
		SCHED_CJOB_OF(n, qnode)->rank = ++k;
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
