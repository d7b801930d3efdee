/* core.c: the controller's scheduling core (policy/sched-core.c, the code
 * gsim replays) and what it owns: every pending and running job, in its
 * queue, and the GPUs, CPUs and memory each running job holds on the
 * cluster's nodes, by their index in the core. This file keeps it in step
 * with the jobs (job-change.c tells core_job_changed of each transition)
 * and the nodes (synced before each pass, cheap: a flag per node), and
 * answers what the rest asks of it: a job's counters and queue, what a
 * node's running jobs hold, whether a job could ever run. It acts on
 * nothing: schedule.c runs the passes and carries out what they decide.
 *
 * Who holds each GPU of each node is its record too (core-hold.h), written
 * only here: at each start and end of a run, for each stale copy, and for
 * each running job at start-up. The listings, the ports and the node
 * reports ask it (core_gpu_job, core_node_use, core_node_free_mask). It is
 * apart from the scheduler's view because that view is rebuilt now and
 * then, leaves out nodes it cannot use yet and jobs it could not adopt,
 * and a listing must see every job's GPUs all the same.
 *
 * The core is rebuilt from the jobs when the settings change (gctl
 * reconfigure) or a node appears or changes its GPU count; a rebuild costs
 * O(jobs log jobs) and happens rarely. Times given to the core are
 * milliseconds of the wall clock, so service survives restarts. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "common/array.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/assoc-usage.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core-hold.h"
#include "daemon/controller/core-int.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/depend-wait.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job-learn.h"
#include "daemon/controller/job-preempt.h"
#include "daemon/controller/job.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/node.h"
#include "daemon/controller/store.h"
#include "policy/predict.h"
#include "policy/sched-core.h"

/* The controller's one core (core-int.h). Global: the files of the core
 * share it, and the jobs, nodes, passes and listings of the one
 * controller a process ask it through core.h. */
struct core_state core = {
	.stale = true,
	.next_begin = SCHED_NEVER,
};

void
core_mark_dirty(void)
{
	core.dirty = true;
	core.cap_valid = false;
	commit_want();
}

bool
core_is_dirty(void)
{
	return (core.dirty);
}

struct sched_core *
core_sched(void)
{
	if (core.sc == NULL || core.stale) {
		core_build_again();
		core_build_sync();
	}
	return (core.sc);
}

struct node *
core_node_at(uint32_t i, uint32_t *sw)
{
	if (i >= core.nnodes)
		return (NULL);
	*sw = core.node_sw[i];
	return (core.nodes[i]);
}

/* What j asks beside its GPUs on each node: its -c (per task: per node
 * with one task or K, per GPU with one per GPU) or --cpus-per-gpu, its
 * --mem (a node's) or --mem-per-gpu; else scheduler.cpus_per_gpu and
 * mem_per_gpu, else the node's share. A CPU job asks for CPUs and memory
 * alone. */
static void
core_res(const struct job *j, struct place_res *r)
{
	const struct conf	*c = ctx_conf();
	uint32_t		 k = job_tasks_fixed(job_tasks_per_node(j));
	uint32_t		 cpt = job_cpus_per_task(j);

	memset(r, 0, sizeof *r);
	if (job_gpus(j) == 0) {
		/* A CPU job: a CPU a task unless -c says more, its --mem or
		 * the node's memory for as many CPUs. */
		r->cpus_node = (k > 0 ? k : 1) * (cpt > 0 ? cpt : 1);
		r->mem_node = job_mem(j);
		r->mem_share = job_mem(j) == 0;
		return;
	}
	if (job_cpus_per_gpu(j) != 0)
		r->cpus_gpu = job_cpus_per_gpu(j);
	else if (cpt != 0 && k == 0)
		r->cpus_gpu = cpt;
	else if (cpt != 0)
		r->cpus_node = cpt * k;
	else if (c->cpus_per_gpu > 0)
		r->cpus_gpu = (uint32_t)c->cpus_per_gpu;
	else
		r->cpus_share = true;
	if (job_mem(j) != 0)
		r->mem_node = job_mem(j);
	else if (job_mem_per_gpu(j) != 0)
		r->mem_gpu = job_mem_per_gpu(j);
	else if (c->mem_per_gpu > 0)
		r->mem_gpu = (uint64_t)c->mem_per_gpu;
	else
		r->mem_share = true;
}

/* The CPUs and memory part of j holds on its node (0 where not known). */
static void
core_res_of(const struct job *j, const struct job_part *part, uint32_t *cpus,
    uint64_t *mem)
{
	struct place_res	 r;
	uint32_t		 k = node_sched_index(part->node);

	*cpus = 0;
	*mem = 0;
	if (core.sc == NULL || k == NODE_NO_INDEX ||
	    k >= place_nodes(sched_core_cluster(core.sc)))
		return;
	core_res(j, &r);
	place_res_need(sched_core_cluster(core.sc), k, &r,
	    sched_mask_count(part->mask), cpus, mem);
}

void
core_part_res(const struct job *j, size_t i, uint32_t *cpus,
    uint64_t *mem)
{
	core_res_of(j, job_part_const(j, i), cpus, mem);
}

uint32_t
core_parts_cpus(const struct job *j, const struct job_part *parts,
    size_t nparts)
{
	uint64_t	mem;
	uint32_t	cpus, total = 0;
	size_t		i;

	for (i = 0; i < nparts; i++) {
		core_res_of(j, &parts[i], &cpus, &mem);
		total += cpus;
	}
	return (total);
}

struct core_hold *
core_holds(void)
{
	if (core.hold == NULL)
		core.hold = core_hold_create();
	return (core.hold);
}

void
core_job_hold(struct job *j)
{
	const struct job_part	*part;
	size_t			 i;

	for (i = 0; i < job_nparts(j); i++) {
		part = job_part_const(j, i);
		if (part->node == NULL)
			continue;
		if (part->mask == 0)
			core_hold_cpu_take(core_holds(),
			    node_number(part->node), job_id(j));
		core_hold_take(core_holds(), node_number(part->node),
		    part->mask, job_id(j));
		node_gpu_handed(part->node, part->mask);
	}
}

void
core_job_release(struct job *j)
{
	const struct job_part	*part;
	uint64_t		 freed;
	size_t			 i;

	for (i = 0; i < job_nparts(j); i++) {
		part = job_part_const(j, i);
		if (part->node == NULL)
			continue;
		if (part->mask == 0)
			(void)core_hold_cpu_give(core_holds(),
			    node_number(part->node), job_id(j));
		freed = core_hold_give(core_holds(), node_number(part->node),
		    part->mask, job_id(j));
		node_gpu_handed(part->node, freed);
	}
}

uint64_t
core_node_held(const struct node *n)
{
	return (core_hold_busy(core_holds(), node_number(n)) &
	    node_gpus_mask(n));
}

uint32_t
core_node_busy(const struct node *n)
{
	return ((uint32_t)__builtin_popcountll(core_node_held(n)));
}

uint64_t
core_node_free_mask(const struct node *n)
{
	return (node_gpus_mask(n) & ~core_node_held(n));
}

uint64_t
core_gpu_job(const struct node *n, uint32_t i)
{
	if (i >= node_gpus_total(n))
		return (0);
	return (core_hold_job(core_holds(), node_number(n), i));
}

/* Adds id to ids[0..*n) unless it is there. */
static void
core_node_jobs_add(uint64_t *ids, size_t *n, uint64_t id)
{
	size_t	i;

	for (i = 0; i < *n && ids[i] != id; i++)
		;
	if (id != 0 && i == *n)
		ids[(*n)++] = id;
}

size_t
core_node_jobs(const struct node *n, uint64_t **ids)
{
	const struct core_hold_co	*co;
	const uint64_t			*cpu;
	size_t				 nco, ncpu, i, count = 0;
	uint32_t			 g;

	co = core_hold_co_jobs(core_holds(), node_number(n), &nco);
	cpu = core_hold_cpu_jobs(core_holds(), node_number(n), &ncpu);
	*ids = xcalloc(node_gpus_total(n) + nco + ncpu + 1, sizeof **ids);
	for (g = 0; g < node_gpus_total(n); g++)
		core_node_jobs_add(*ids, &count, core_gpu_job(n, g));
	for (i = 0; i < nco; i++)
		if (co[i].gpu < node_gpus_total(n))
			core_node_jobs_add(*ids, &count, co[i].job);
	for (i = 0; i < ncpu; i++)
		core_node_jobs_add(*ids, &count, cpu[i]);
	return (count);
}

void
core_node_use(const struct node *n, struct node_use *u)
{
	const struct parts	*ps = &ctx_conf()->parts;
	const struct resv	*r;
	struct place_cluster	*cl;
	uint32_t		 i = node_sched_index(n);
	size_t			 k, at = 0;

	memset(u, 0, sizeof *u);
	for (k = 0; k < ps->n && at < sizeof u->partitions; k++) {
		if (part_has_node(&ps->v[k], node_name(n)))
			at += (size_t)snprintf(u->partitions + at,
			    sizeof u->partitions - at, "%s%s", at > 0 ? "," :
			    "", ps->v[k].name);
	}
	/* The reservation open on it (a maintenance first). */
	if ((r = resv_tab_on_node(&core.resv, node_name(n), ctx_now())) !=
	    NULL) {
		snprintf(u->reservation, sizeof u->reservation, "%s", r->name);
		u->resv_maint = (r->flags & RESV_F_MAINT) != 0;
	}
	u->held = core_node_held(n);
	u->job = core_hold_jobs(core_holds(), node_number(n));
	u->co = core_hold_co_jobs(core_holds(), node_number(n), &u->nco);
	u->cpu_job = core_hold_cpu_jobs(core_holds(), node_number(n),
	    &u->ncpu_jobs);
	/* CPUs and memory: as the scheduler counts them. */
	if (core.sc == NULL || i == NODE_NO_INDEX ||
	    i >= place_nodes(cl = sched_core_cluster(core.sc)))
		return;
	u->cpus = place_node_cpus(cl, i) - place_node_cpus_free(cl, i);
	u->mem_mb = place_node_mem(cl, i) - place_node_mem_free(cl, i);
}

bool
core_stale_add(struct node *n, uint64_t mask, uint64_t job)
{
	uint64_t	taken;

	taken = core_hold_stale_take(core_holds(), node_number(n),
	    mask & node_gpus_mask(n), job);
	node_gpu_handed(n, taken);
	return (taken != 0);
}

bool
core_stale_release(struct node *n, uint64_t job)
{
	uint64_t	freed;

	freed = core_hold_stale_give(core_holds(), node_number(n), job);
	node_gpu_handed(n, freed);
	return (freed != 0);
}

uint64_t
core_stale_first(const struct node *n)
{
	return (core_hold_stale_first(core_holds(), node_number(n)));
}

/* The core's view of a job: what it received so far, with the run under
 * way (since start_time) added for a running job. */
static void
core_spec(struct job *j, struct sched_jobspec *spec, int64_t now)
{
	const struct job_service	*sv = job_service(j);
	uint32_t			 f = job_flags(j);
	int64_t				 run = 0;

	memset(spec, 0, sizeof *spec);
	spec->id = job_id(j);
	spec->gpus = job_gpus(j);
	spec->gpus_max = job_gpus_max(j);
	spec->submit = job_submit_time(j) * 1000;
	spec->consolidate = (f & JOB_F_CONSOLIDATE) != 0;
	if (f & JOB_F_SPREAD) {
		spec->own_placement = true;
		spec->placement = SCHED_PLACE_SPREAD;
	}
	/* Never a victim unless it can come back (job_preempt_mode). */
	spec->no_requeue = core_qos_preempt(j) == JOB_PREEMPT_NO;
	spec->num_nodes = job_num_nodes(j);
	spec->any_shape = (f & JOB_F_ANY_SHAPE) != 0;
	/* Time-slicing: asked by its user (or its QOS: core_qos_spec);
	 * frozen for another's turn, it waits for its own. */
	spec->time_slice = job_time_slice(j);
	spec->gpu_mem = (uint32_t)(job_gpu_mem(j) > UINT32_MAX ? UINT32_MAX :
	    job_gpu_mem(j));
	spec->sliced = job_state(j) == JOB_SUSPENDED &&
	    strcmp(job_reason(j), "TimeSlice") == 0;
	/* Shards of one GPU beside other such jobs (gsub --gpu-share). */
	spec->shards = job_gpu_share(j);
	core_res(j, &spec->res);
	/* A job array's tasks share its throttle. */
	spec->group = job_array_job_id(j);
	spec->group_cap = job_array_throttle(j);
	/* The caller frees the list once the core has its copy. */
	spec->nodes = core_part_job_nodes(j, &spec->nnodes, &spec->nsets,
	    &spec->tier);
	/* Its QOS's tier, class and limit; its association's and
	 * accounts' limits on jobs and GPUs. */
	core_qos_spec(j, spec);
	core_part_limits(j, spec);
	/* Its reservation's window (its time limit, below, the windows
	 * read too). */
	core_resv_spec(j, spec);
	/* Its place among the waiting jobs of its tier and queue. */
	spec->urgency = (int32_t)((int64_t)job_priority(j) - job_nice(j));
	spec->arg = j;
	/* What its run has run, its time suspended apart. */
	if (core_running(job_state(j)) && job_start_time(j) > 0 &&
	    (run = now - job_run_from_ms(j, now)) < 0)
		run = 0;
	spec->attained = sv->attained + sched_core_service(core.sc, spec,
	    run);
	spec->executed = sv->executed + run;
	spec->total_executed = sv->run_total + run;
	spec->first_start = sv->first_start != 0 ? sv->first_start :
	    SCHED_NEVER;
	spec->last_stop = sv->last_stop != 0 ? sv->last_stop : spec->submit;
	spec->preemptions = sv->preemptions;
	spec->promotions = sv->promotions;
	spec->resizes = sv->resizes;
	spec->preempting = job_state(j) == JOB_PREEMPTING;
	spec->suspended = job_state(j) == JOB_SUSPENDED;
	/* Backfill's and the windows': a run's time limit (each run has all
	 * of it; a job running already, what is left, at least a ms: it is
	 * due to end),
	 * and its run time predicted from the jobs like it that ended. */
	if (job_time_limit(j) > 0) {
		spec->limit = (int64_t)job_time_limit(j) * 1000 - run;
		if (spec->limit < 1)
			spec->limit = 1;
	}
	spec->expect = core_predict_run_ms(j);
	spec->fs_leaf = core_fairshare_leaf(j);
	/* Gittins by the jobs like it (the core copies them). */
	if (core.conf.gittins_similar && core.conf.policy == SCHED_GITTINS) {
		spec->ngsamples = (uint32_t)core_predict_similar(j,
		    core.gsamples, PREDICT_WINDOW);
		spec->gsamples = core.gsamples;
	}
}

/* The service ms of j's run gives (sched_core_service). */
static uint64_t
core_job_service(struct job *j, int64_t ms)
{
	struct sched_jobspec	spec;
	uint64_t		service;

	if (job_gpus(j) > 0 || core.sc == NULL)
		return (ms > 0 ? (uint64_t)ms * job_run_milli(j) / 1000 : 0);
	core_spec(j, &spec, 0);
	service = sched_core_service(core.sc, &spec, ms);
	free((void *)(uintptr_t)spec.nodes);
	return (service);
}

/* Hands a running job to the core with the GPUs it holds; leaves it out
 * (logged) when its node is unknown to the core or the GPUs are taken
 * (sched_core_adopt_taken: a ring's members share theirs). */
void
core_adopt(struct job *j, int64_t now)
{
	struct sched_jobspec	 spec;
	struct place_alloc	*a;
	size_t			 n = job_nparts(j), i;

	if (n == 0)
		return;
	a = xcalloc(n, sizeof *a);
	for (i = 0; i < n; i++) {
		a[i].node = node_sched_index(job_part_const(j, i)->node);
		a[i].mask = job_part_const(j, i)->mask;
		/* Its shards of its one GPU, which others may share: until
		 * its node says again how many a GPU has, the record is
		 * believed. */
		a[i].shards = n == 1 ? job_gpu_share(j) : 0;
		/* A CPU job's parts hold no GPU. */
		if (a[i].node == NODE_NO_INDEX ||
		    (a[i].mask == 0) != (job_gpus(j) == 0))
			break;
	}
	if (i == n) {
		core_spec(j, &spec, now);
		if ((i = sched_core_adopt_taken(core.sc, &spec, a, n)) == n)
			job_sched(j)->cjob = sched_core_adopt(core.sc, &spec,
			    a, n, now);
		free((void *)(uintptr_t)spec.nodes);
	}
	free(a);
	if (i < n) {
		log_warn("job %" PRIu64 ": its GPUs on %s are not free in the "
		    "scheduler; it runs unscheduled", job_id(j),
		    node_name(job_part_const(j, i)->node));
		return;
	}
	core_elastic_learnt(j);
}

/* Whether pending job j must stay out of the core until its begin time
 * (noted as a wake-up when it does). */
static bool
core_before_begin(const struct job *j, int64_t now)
{
	int64_t	at = job_begin_time(j) * 1000;

	if (at <= now)
		return (false);
	if (at < core.next_begin)
		core.next_begin = at;
	return (true);
}

/* Whether pending job j must stay out of the core for its dependencies
 * (depend-wait.h); its reason says which way they stand. */
static bool
core_before_deps(struct job *j)
{
	char	why[512];

	if (*job_dependency(j) == '\0')
		return (false);
	switch (depend_wait_judge(j, why, sizeof why)) {
	case DEPEND_MET:
		return (false);
	case DEPEND_WAIT:
		job_set_reason(j, "Dependency");
		break;
	case DEPEND_NEVER:
		job_set_reason(j, "DependencyNeverSatisfied");
		break;
	}
	return (true);
}

void
core_submit(struct job *j, int64_t now)
{
	struct sched_jobspec	spec;

	/* A job waits out its stale copies (job-report.c), its begin time,
	 * its reservation's start, its dependencies, its partitions' limits, its QOS's and its
	 * account's spent budget outside the core. */
	if (job_stale_copies(j) > 0 || core_before_begin(j, now) ||
	    core_resv_before(j, now) || core_before_deps(j) ||
	    core_part_before(j) || core_qos_before(j) || core_part_budget(j))
		return;
	core_spec(j, &spec, now);
	job_sched(j)->cjob = sched_core_submit(core.sc, &spec, now);
	free((void *)(uintptr_t)spec.nodes);
	core_elastic_learnt(j);
}

void
core_elastic_learnt(struct job *j)
{
	const double	*s;
	size_t		 n;

	if (job_sched(j)->cjob == NULL || job_gpus_max(j) == 0 ||
	    (s = job_learn_speedup(j, &n)) == NULL)
		return;
	sched_core_elastic_speedup(core.sc, job_sched(j)->cjob, s, n);
	core_mark_dirty();
}

void
core_begin_due(int64_t now)
{
	struct job	*j;

	if (core.next_begin > now)
		return;
	core.next_begin = SCHED_NEVER;
	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (job_state(j) == JOB_PENDING && job_sched(j)->cjob == NULL)
			core_submit(j, now);
	}
}

void
core_prepare(void)
{
	core.dirty = false;
	/* An account that spent its budget, or no longer has (raised, a
	 * new month): its waiting jobs are judged again, by a rebuild. A
	 * change of the accounts (core_reconfigure) forces a judgment. */
	if (assoc_usage_judge(core_usage(), &core.assoc, ctx_now(),
	    core.stale))
		core.stale = true;
	/* A reservation that ended is deleted: its window goes, and its
	 * waiting jobs wait for good (ReservationDeleted). */
	if (core_resv_expire())
		core.stale = true;
	if (core.sc != NULL && !core.stale)
		core_build_sync();
	if (core.sc == NULL || core.stale) {
		core_build_again();
		core_build_sync();
	}
}

bool
core_take_deps_all(void)
{
	bool	all = core.deps_all;

	core.deps_all = false;
	return (all);
}

size_t
core_pass(int64_t now, const struct sched_action **acts)
{
	uint64_t	promoted = sched_core_promotions(core.sc);
	size_t		n;

	core_fairshare_tick(now);
	n = sched_core_pass(core.sc, now, acts);
	metrics_count_promotions(sched_core_promotions(core.sc) - promoted);
	return (n);
}

static void
core_wake_cb(evutil_socket_t fd, short what, void *arg)
{
	core_mark_dirty();
}

void
core_wake_in(int64_t ms)
{
	struct timeval	tv;

	if (core.wake == NULL)
		core.wake = evtimer_new(ctx_base(), core_wake_cb, NULL);
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(core.wake, &tv);
}

void
core_wake_arm(int64_t now)
{
	int64_t	at = sched_core_next_wakeup(core.sc);
	int64_t	spent = assoc_usage_next(core_usage());

	if (core.next_begin < at)
		at = core.next_begin;
	/* A reservation's end, when it is deleted. */
	if (core_resv_next_end() < at)
		at = core_resv_next_end();
	/* The moment a budget is spent, or a month turns on one spent. */
	if (spent != BUDGET_NEVER && spent < at / 1000)
		at = spent * 1000;
	if (core.wake != NULL)
		evtimer_del(core.wake);
	if (at != SCHED_NEVER)
		core_wake_in(at > now ? at - now : 0);
}

struct job_part *
core_alloc(struct job *j, size_t *n)
{
	const struct place_alloc	*a;
	struct job_part			*parts;
	size_t				 i;

	a = sched_cjob_alloc(job_sched(j)->cjob, n);
	parts = xcalloc(*n, sizeof *parts);
	for (i = 0; i < *n; i++) {
		parts[i].node = core.nodes[a[i].node];
		parts[i].mask = a[i].mask;
	}
	return (parts);
}

void
core_not_started(struct job *j, int64_t now)
{
	sched_core_stopped(core.sc, job_sched(j)->cjob, now);
}

void
core_hand_over(struct job *j, struct job *t, int64_t now)
{
	struct sched_cjob	*cj = job_sched(j)->cjob;

	job_sched(j)->cjob = NULL;
	sched_core_rekey(core.sc, cj, job_id(t), t);
	job_sched(t)->cjob = cj;
	core_submit(j, now);
	core_mark_dirty();
}

void
core_job_new(struct job *j)
{
	if (core.sc != NULL && !core.stale)
		core_submit(j, ctx_now_ms());
	core_mark_dirty();
}

void
core_job_row(struct job *j, enum job_state to, struct store_job *row)
{
	struct sched_cjob	*cj = job_sched(j)->cjob;
	enum job_state		 from = job_state(j);
	int64_t			 now = ctx_now_ms(), run;

	if (cj != NULL) {
		row->attained = sched_cjob_attained(cj, now);
		row->executed = sched_cjob_executed(cj, now);
		row->run_total = sched_cjob_total_executed(cj, now);
		row->preemptions = sched_cjob_preemptions(cj);
		row->promotions = sched_cjob_promotions(cj);
		row->resizes = sched_cjob_resizes(cj);
		row->last_queue = (int)sched_cjob_queue(cj);
	} else if (core_running(from) && !core_running(to) &&
	    job_start_time(j) > 0 && (run = now - job_run_from_ms(j, now)) >
	    0) {
		/* A job the core did not hold still ran. */
		row->attained += core_job_service(j, run);
		row->executed += run;
		row->run_total += run;
	}
	if (to == JOB_RUNNING && row->first_start == 0)
		row->first_start = now;
	if (core_running(from) && !core_running(to))
		row->last_stop = now;
}

void
core_job_changed(struct job *j, enum job_state from, enum job_state to,
    const struct store_job *row)
{
	struct job_sched	*s = job_sched(j);
	int64_t			 now;

	/* It holds its GPUs from its start, whether or not the scheduler's
	 * view is ready to adopt it (core_job_release gives them back). */
	if (to == JOB_RUNNING)
		core_job_hold(j);
	/* A change may meet (or break) the conditions of the jobs waiting
	 * for this one. */
	if (depend_wait_changed(job_id(j)))
		core_mark_dirty();
	/* So may a task's, for the jobs waiting for its whole array. */
	if (job_array_job_id(j) != 0 && job_array_job_id(j) != job_id(j) &&
	    depend_wait_changed(job_array_job_id(j)))
		core_mark_dirty();
	/* What it ran since the last charge is its user's; suspended, it
	 * is charged no more until resumed. */
	if ((core_running(from) && !core_running(to) &&
	    from != JOB_SUSPENDED) || to == JOB_SUSPENDED)
		core_fairshare_stopped(j, ctx_now_ms());
	/* Its run teaches how long its like run. */
	if (to == JOB_COMPLETED)
		core_predict_learn(j, row);
	if (core.sc == NULL || core.stale)
		return;		/* the rebuild reads every job */
	now = ctx_now_ms();
	switch (to) {
	case JOB_PENDING:
		if (s->cjob != NULL && core_running(from))
			sched_core_stopped(core.sc, s->cjob, now);
		else if (s->cjob == NULL)
			core_submit(j, now);
		core_mark_dirty();
		break;
	case JOB_RUNNING:
		/* Started by a pass: the core knows. Resumed: the core
		 * has it suspended. Re-adopted from a node after a requeue:
		 * the core thinks it waits. */
		if (s->cjob != NULL &&
		    sched_cjob_state(s->cjob) == SCHED_JOB_RUNNING)
			break;
		if (s->cjob != NULL && from == JOB_SUSPENDED) {
			(void)sched_core_resume(core.sc, s->cjob, now);
			core_mark_dirty();
			break;
		}
		if (s->cjob != NULL)
			sched_core_end(core.sc, s->cjob, now);
		s->cjob = NULL;
		core_adopt(j, now);
		break;
	case JOB_SUSPENDED:
		/* An operator's (a pass's turn has the core's suspended
		 * already): where it held a time-slicing ring's turn, the
		 * next pass gives the turn on, so one is due now. */
		if (s->cjob != NULL &&
		    sched_core_suspend(core.sc, s->cjob, now))
			core_mark_dirty();
		break;
	case JOB_PREEMPTING:
		/* Thawed to be stopped: it runs its grace. */
		if (s->cjob != NULL && from == JOB_SUSPENDED)
			(void)sched_core_resume(core.sc, s->cjob, now);
		break;
	default:
		if (to == JOB_COMPLETED &&
		    ctx_conf()->sched.policy == SCHED_GITTINS &&
		    core.nsamples < CORE_GITTINS_HISTORY &&
		    ++core.completed > core.nsamples / 10)
			core.stale = true;
		/* Held or finished: out of the core, GPUs free. */
		if (s->cjob != NULL) {
			sched_core_end(core.sc, s->cjob, now);
			s->cjob = NULL;
			core_mark_dirty();
		}
		break;
	}
}

void
core_rank(void)
{
	sched_core_rank(core.sc);
}

void
core_job_view(const struct job *j, struct store_job *row, int64_t now,
    bool predict)
{
	const struct job_sched	*s = job_sched_const(j);
	const struct sched_cjob	*cj = s->cjob;
	struct predict_guess	 g;
	enum sched_reason	 r, r2;
	int64_t			 start;
	double			 step, gput;

	if (job_learn_now(j, &step, &gput)) {
		row->step_us = (uint64_t)(step * 1e6 + 0.5);
		row->goodput = gput > 0 && gput < 1e18 ? (uint64_t)(gput +
		    0.5) : 0;
	}
	if (predict && core_predict_guess(j, &g) && g.run_ms <= INT64_MAX) {
		row->predicted = (int64_t)g.run_ms;
		row->predicted_by = predict_how_name(g.how);
		row->predicted_runs = (uint32_t)g.samples;
	}
	if ((row->queue = core_job_queue(j)) == -1)
		return;
	if (job_state(j) == JOB_PENDING && sched_cjob_rank(cj) > 0)
		row->rank = (int)sched_cjob_rank(cj);
	row->attained = sched_cjob_attained(cj, now);
	row->run_total = sched_cjob_total_executed(cj, now);
	row->preemptions = sched_cjob_preemptions(cj);
	row->promotions = sched_cjob_promotions(cj);
	row->resizes = sched_cjob_resizes(cj);
	if (job_state(j) != JOB_PENDING)
		return;
	if ((start = sched_cjob_resv_start(core.sc, cj)) != SCHED_NEVER)
		row->expect_start = (start + 999) / 1000;
	/* Waiting for GPUs that no node taking jobs could ever give is
	 * waiting for nodes: say which kind. */
	r = sched_cjob_reason(core.sc, cj);
	if (r != SCHED_REASON_PREEMPTING) {
		r2 = core_unrunnable(job_gpus(j),
		    (job_flags(j) & JOB_F_CONSOLIDATE) != 0);
		if (r2 != SCHED_REASON_NONE)
			r = r2;
	}
	if (r != SCHED_REASON_NONE)
		row->reason = sched_reason_name(r);
}

int
core_job_queue(const struct job *j)
{
	const struct sched_cjob	*cj = job_sched_const(j)->cjob;

	return (cj != NULL ? (int)sched_cjob_queue(cj) : -1);
}

unsigned
core_queues(void)
{
	if (core.sc == NULL)
		return (ctx_conf()->sched.nqueues);
	return (sched_core_queues(core.sc));
}

void
core_job_stale_changed(struct job *j)
{
	struct job_sched	*s;

	core_mark_dirty();
	if (j == NULL || job_state(j) != JOB_PENDING || core.sc == NULL ||
	    core.stale)
		return;
	s = job_sched(j);
	if (job_stale_copies(j) == 0 && s->cjob == NULL)
		core_submit(j, ctx_now_ms());
	else if (job_stale_copies(j) > 0 && s->cjob != NULL) {
		sched_core_end(core.sc, s->cjob, ctx_now_ms());
		s->cjob = NULL;
	}
}

static void
core_capacity_add(struct sched_capacity *c, uint32_t gpus)
{
	c->total += gpus;
	if (gpus > c->largest)
		c->largest = gpus;
}

static void
core_capacity(void)
{
	struct node	*n;
	uint32_t	 gpus;

	if (core.cap_valid)
		return;
	memset(&core.cap_up, 0, sizeof core.cap_up);
	memset(&core.cap_drained, 0, sizeof core.cap_drained);
	core.cap_largest = 0;
	for (n = node_first(); n != NULL; n = node_next(n)) {
		gpus = node_gpus_total(n);
		if (gpus > core.cap_largest)
			core.cap_largest = gpus;
		/* Up: a node whose connection just dropped counts until
		 * node_timeout says otherwise (node-health.c). */
		if (!node_is_up(n))
			continue;
		if (!node_is_drained(n))
			core_capacity_add(&core.cap_up, gpus);
		core_capacity_add(&core.cap_drained, gpus);
	}
	core.cap_valid = true;
}

enum sched_reason
core_unrunnable(uint32_t gpus, bool consolidate)
{
	core_capacity();
	return (sched_capacity_reason(gpus, consolidate, core.cap_largest,
	    &core.cap_up, &core.cap_drained));
}

struct assoc_tab *
core_assoc(void)
{
	return (&core.assoc);
}

struct assoc_usage *
core_usage(void)
{
	if (core.usage == NULL) {
		core.usage = assoc_usage_create(ctx_now());
		assoc_usage_weigh(core.usage, &ctx_conf()->qos, ctx_now());
	}
	return (core.usage);
}

void
core_reconfigure(void)
{
	/* The QOS's usage factors charge the budgets from now on. */
	assoc_usage_weigh(core_usage(), &ctx_conf()->qos, ctx_now());
	core.stale = true;
	core_mark_dirty();
}

void
core_free(void)
{
	struct job	*j;

	for (j = job_table_first(); j != NULL; j = job_table_next(j))
		job_sched(j)->cjob = NULL;
	sched_core_free(core.sc);
	core.sc = NULL;
	free(core.nodes);
	core.nodes = NULL;
	free(core.node_sw);
	core.node_sw = NULL;
	free(core.node_outside);
	core.node_outside = NULL;
	core_hold_free(core.hold);
	core.hold = NULL;
	if (core.wake != NULL)
		event_free(core.wake);
	core.wake = NULL;
	while (core.nswitches > 0)
		free(core.switches[--core.nswitches]);
	free(core.switches);
	core.switches = NULL;
	core.nnodes = core.nodes_size = 0;
	free(core.samples);
	core.samples = NULL;
	assoc_usage_free(core.usage);
	core.usage = NULL;
	predict_free(core.predict);
	core.predict = NULL;
	core_fairshare_free();
	resv_tab_free(&core.resv);
}
