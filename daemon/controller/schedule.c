/* schedule.c: the controller's side of the scheduling core (policy/
 * sched-core.c, the code gsim replays). The core holds every pending and
 * running job and the cluster's GPUs. This file keeps it in step with the
 * jobs (job-change.c reports each transition) and the nodes (synced at the
 * start of each pass, cheap: a flag per node), runs a pass at the end of a
 * loop pass that changed something and when the core's wake-up comes (the
 * next demotion or promotion: a timer, never a poll), and carries out the
 * pass's actions: start a job on its GPUs, preempt a job.
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
#include "daemon/controller/commit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/depend-wait.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/node.h"
#include "daemon/controller/schedule.h"
#include "daemon/controller/store.h"
#include "policy/sched-core.h"

/* Finished jobs whose GPU-times make the Gittins distribution. */
#define SCHEDULE_GITTINS_HISTORY	10000

static struct sched_core	*schedule_core;
static struct node		**schedule_nodes;	/* by core index */
static uint32_t			*schedule_node_sw;	/* its switch */
/* The GPUs of stale copies (node_stale_mask) taken out of the core. */
static uint64_t			*schedule_node_stale;
static size_t			 schedule_nnodes, schedule_nodes_size;
/* Topology labels seen, numbered in order of appearance for the core. */
static char			**schedule_switches;
static size_t			 schedule_nswitches;
static bool			 schedule_dirty;
/* What the nodes could hold were they idle: those that take jobs, and
 * those with the drained ones too; the largest node known. Found again
 * after anything changed (schedule_mark_dirty). */
static struct sched_capacity	 schedule_cap_up, schedule_cap_drained;
static uint32_t			 schedule_cap_largest;
static bool			 schedule_cap_valid;
static bool			 schedule_stale = true;
static struct event		*schedule_wake_ev;
/* The earliest begin time (ms) of a pending job kept out of the core
 * until then (schedule_submit), or SCHED_NEVER. */
static int64_t			 schedule_next_begin = SCHED_NEVER;
/* Every waiting job is judged again (after a rebuild), not only those a
 * change concerns (depend_wait_take). */
static bool			 schedule_deps_all;
static uint64_t			*schedule_samples;
/* gittins: the samples the core has, and the jobs completed since. The
 * distribution is taken again once the new ones are a tenth of it (or the
 * first one completes): a rebuild costs a pass over the jobs. */
static size_t			 schedule_nsamples, schedule_completed;
/* The settings the core was made with; schedule_load_begin's time, for
 * every job of the load. */
static struct sched_conf	 schedule_core_conf;
static int64_t			 schedule_load_now;

void
schedule_mark_dirty(void)
{
	schedule_dirty = true;
	schedule_cap_valid = false;
	commit_want();
}

bool
schedule_is_dirty(void)
{
	return (schedule_dirty);
}

static void
schedule_wake_cb(evutil_socket_t fd, short what, void *arg)
{
	schedule_mark_dirty();
}

void
schedule_init(struct event_base *base)
{
	schedule_wake_ev = evtimer_new(base, schedule_wake_cb, NULL);
}

static bool
schedule_is_running(enum job_state s)
{
	return (s == JOB_RUNNING || s == JOB_PREEMPTING);
}

/* Whether name is one of list's ("n1,n2"). */
static bool
schedule_name_in(const char *name, const char *list)
{
	size_t		 len = strlen(name);
	const char	*p;

	for (p = list; (p = strstr(p, name)) != NULL; p += len) {
		if ((p == list || p[-1] == ',') && (p[len] == ',' ||
		    p[len] == '\0'))
			return (true);
	}
	return (false);
}

uint32_t *
schedule_nodes_for(const char *req, const char *exc, const char *type,
    uint32_t *n)
{
	const char	*name;
	uint32_t	*v, i, k = 0;

	*n = 0;
	if (*req == '\0' && *exc == '\0' && *type == '\0')
		return (NULL);
	v = xcalloc(schedule_nnodes + 1, sizeof *v);
	for (i = 0; i < schedule_nnodes; i++) {
		name = node_name(schedule_nodes[i]);
		if ((*req != '\0' && !schedule_name_in(name, req)) ||
		    (*exc != '\0' && schedule_name_in(name, exc)) ||
		    (*type != '\0' && !node_gpus_match(schedule_nodes[i],
		    type)))
			continue;
		v[k++] = i;
	}
	*n = k;
	return (v);
}

static uint32_t *
schedule_job_nodes(const struct job *j, uint32_t *n)
{
	return (schedule_nodes_for(job_req_nodes(j), job_exclude_nodes(j),
	    job_gpu_type(j), n));
}

static void	schedule_rebuild(void);
static void	schedule_sync_nodes(void);

struct sched_core *
schedule_core_now(void)
{
	if (schedule_core == NULL || schedule_stale) {
		schedule_rebuild();
		schedule_sync_nodes();
	}
	return (schedule_core);
}

struct node *
schedule_node_at(uint32_t i, uint32_t *sw)
{
	if (i >= schedule_nnodes)
		return (NULL);
	*sw = schedule_node_sw[i];
	return (schedule_nodes[i]);
}

/* What j asks beside its GPUs on each node: its -c (per task: per node
 * with one task or K, per GPU with one per GPU) or --cpus-per-gpu, its
 * --mem (a node's) or --mem-per-gpu; else scheduler.cpus_per_gpu and
 * mem_per_gpu, else the node's share. */
static void
schedule_res(const struct job *j, struct place_res *r)
{
	const struct conf	*c = ctx_conf();
	uint32_t		 k = job_tasks_fixed(job_tasks_per_node(j));
	uint32_t		 cpt = job_cpus_per_task(j);

	memset(r, 0, sizeof *r);
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

void
schedule_part_res(const struct job *j, size_t i, uint32_t *cpus,
    uint64_t *mem)
{
	const struct job_part	*part = job_part_const(j, i);
	struct place_res	 r;
	uint32_t		 k = node_sched_index(part->node);

	*cpus = 0;
	*mem = 0;
	if (schedule_core == NULL || k == NODE_NO_INDEX ||
	    k >= place_nodes(sched_core_cluster(schedule_core)))
		return;
	schedule_res(j, &r);
	place_res_need(sched_core_cluster(schedule_core), k, &r,
	    sched_mask_count(part->mask), cpus, mem);
}

void
schedule_node_res(const struct node *n, uint32_t *cpus, uint64_t *mem)
{
	struct place_cluster	*cl;
	uint32_t		 i = node_sched_index(n);

	*cpus = 0;
	*mem = 0;
	if (schedule_core == NULL || i == NODE_NO_INDEX ||
	    i >= place_nodes(cl = sched_core_cluster(schedule_core)))
		return;
	*cpus = place_node_cpus(cl, i) - place_node_cpus_free(cl, i);
	*mem = place_node_mem(cl, i) - place_node_mem_free(cl, i);
}

/* The core's view of a job: what it received so far, with the run under
 * way (since start_time) added for a running job. */
static void
schedule_spec(struct job *j, struct sched_jobspec *spec, int64_t now)
{
	const struct job_service	*sv = job_service(j);
	uint32_t			 f = job_flags(j);
	int64_t				 run = 0;

	memset(spec, 0, sizeof *spec);
	spec->id = job_id(j);
	spec->gpus = job_gpus(j);
	spec->submit = job_submit_time(j) * 1000;
	spec->consolidate = (f & JOB_F_CONSOLIDATE) != 0;
	if (f & JOB_F_SPREAD) {
		spec->own_placement = true;
		spec->placement = SCHED_PLACE_SPREAD;
	}
	spec->no_preempt = (f & JOB_F_NO_REQUEUE) != 0;
	spec->num_nodes = job_num_nodes(j);
	spec->any_shape = (f & JOB_F_ANY_SHAPE) != 0;
	schedule_res(j, &spec->res);
	/* A job array's tasks share its throttle. */
	spec->group = job_array_job_id(j);
	spec->group_cap = job_array_throttle(j);
	/* The caller frees the list once the core has its copy. */
	spec->nodes = schedule_job_nodes(j, &spec->nnodes);
	spec->arg = j;
	if (schedule_is_running(job_state(j)) && job_start_time(j) > 0 &&
	    (run = now - job_start_time(j) * 1000) < 0)
		run = 0;
	spec->attained = sv->attained + (uint64_t)run * job_gpus(j);
	spec->executed = sv->executed + run;
	spec->total_executed = sv->run_total + run;
	spec->first_start = sv->first_start != 0 ? sv->first_start :
	    SCHED_NEVER;
	spec->last_stop = sv->last_stop != 0 ? sv->last_stop : spec->submit;
	spec->preemptions = sv->preemptions;
	spec->promotions = sv->promotions;
	spec->preempting = job_state(j) == JOB_PREEMPTING;
}

/* Hands a running job to the core with the GPUs it holds; leaves it out
 * (logged) when its node is unknown to the core or the GPUs are taken. */
static void
schedule_adopt(struct job *j, int64_t now)
{
	struct sched_jobspec	 spec;
	struct place_alloc	*a;
	struct place_cluster	*cl = sched_core_cluster(schedule_core);
	const struct job_part	*part;
	size_t			 n = job_nparts(j), i;

	if (n == 0)
		return;
	a = xcalloc(n, sizeof *a);
	for (i = 0; i < n; i++) {
		part = job_part_const(j, i);
		a[i].node = node_sched_index(part->node);
		a[i].mask = part->mask;
		if (a[i].node == NODE_NO_INDEX || a[i].mask == 0 ||
		    (a[i].mask & ~place_node_free_mask(cl, a[i].node)) != 0) {
			log_warn("job %" PRIu64 ": its GPUs on %s are not free "
			    "in the scheduler; it runs unscheduled", job_id(j),
			    node_name(part->node));
			free(a);
			return;
		}
	}
	schedule_spec(j, &spec, now);
	job_sched(j)->cjob = sched_core_adopt(schedule_core, &spec, a, n, now);
	free((void *)(uintptr_t)spec.nodes);
	free(a);
}

/* Whether pending job j must stay out of the core until its begin time
 * (noted as a wake-up when it does). */
static bool
schedule_before_begin(const struct job *j, int64_t now)
{
	int64_t	at = job_begin_time(j) * 1000;

	if (at <= now)
		return (false);
	if (at < schedule_next_begin)
		schedule_next_begin = at;
	return (true);
}

/* Whether pending job j must stay out of the core for its dependencies
 * (depend-wait.h); its reason says which way they stand. */
static bool
schedule_before_deps(struct job *j)
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

static void
schedule_submit(struct job *j, int64_t now)
{
	struct sched_jobspec	spec;

	/* A job waits out its stale copies (job-report.c), its begin time
	 * and its dependencies outside the core. */
	if (job_stale_copies(j) > 0 || schedule_before_begin(j, now) ||
	    schedule_before_deps(j))
		return;
	schedule_spec(j, &spec, now);
	job_sched(j)->cjob = sched_core_submit(schedule_core, &spec, now);
	free((void *)(uintptr_t)spec.nodes);
}

/* The core's number for a node's topology label ("" is one too). */
static uint32_t
schedule_switch_of(const struct node *n)
{
	const char	*label = node_switch(n);
	size_t		 i;

	for (i = 0; i < schedule_nswitches; i++) {
		if (strcmp(schedule_switches[i], label) == 0)
			return ((uint32_t)i);
	}
	schedule_switches = xreallocarray(schedule_switches,
	    schedule_nswitches + 1, sizeof *schedule_switches);
	schedule_switches[schedule_nswitches] = xstrdup(label);
	return ((uint32_t)schedule_nswitches++);
}

/* The core's settings: the config's, with the Gittins distribution from
 * the jobs that completed (dlas order while there are none). */
static void
schedule_conf(struct sched_conf *c)
{
	size_t	n = 0;

	*c = ctx_conf()->sched;
	free(schedule_samples);
	schedule_samples = NULL;
	schedule_nsamples = schedule_completed = 0;
	if (c->policy != SCHED_GITTINS)
		return;
	if (store_job_gpu_times(SCHEDULE_GITTINS_HISTORY, &schedule_samples,
	    &n) != 0 || n == 0) {
		log_warn("schedule: gittins needs the GPU-times of completed "
		    "jobs and there are none yet; ordering as dlas until one "
		    "completes");
		c->policy = SCHED_DLAS;
		return;
	}
	c->samples = schedule_samples;
	c->nsamples = schedule_nsamples = n;
	log_info("schedule: gittins index from %zu completed jobs", n);
}

/* Takes the GPUs of node i's stale copies out of the core, and gives
 * back those whose copies have gone. */
static void
schedule_sync_stale(uint32_t i)
{
	struct place_cluster	*cl = sched_core_cluster(schedule_core);
	struct place_alloc	 a = { 0 };
	uint64_t		 want = node_stale_mask(schedule_nodes[i]);
	uint64_t		 have = schedule_node_stale[i];

	if (want == have)
		return;
	a.node = node_sched_index(schedule_nodes[i]);
	if ((a.mask = have & ~want) != 0)
		place_release(cl, &a, 1);
	if ((a.mask = want & ~have & place_node_free_mask(cl, a.node)) != 0)
		place_take(cl, &a, 1);
	schedule_node_stale[i] = (have & want) | a.mask;
}

/* A new core with the nodes and none of the jobs (schedule_rebuild,
 * schedule_load_begin). */
static void
schedule_core_new(void)
{
	struct sched_conf	*conf = &schedule_core_conf;
	struct place_cluster	*cl;
	struct node		*n;
	uint32_t		 gpus;
	char			 err[256];

	schedule_next_begin = SCHED_NEVER;
	schedule_deps_all = true;
	sched_core_free(schedule_core);
	schedule_conf(conf);
	if (sched_conf_check(conf, err, sizeof err) != 0) {
		/* conf.c checked it; only a bug gets here. */
		log_error("schedule: %s; using the defaults", err);
		sched_conf_default(conf);
	}
	schedule_core = sched_core_create(conf);
	cl = sched_core_cluster(schedule_core);
	schedule_nnodes = 0;
	for (n = node_first(); n != NULL; n = node_next(n)) {
		node_set_sched_index(n, NODE_NO_INDEX);
		if ((gpus = node_gpus_total(n)) == 0 || gpus > 64)
			continue;
		if (schedule_nnodes == schedule_nodes_size) {
			schedule_nodes_size = schedule_nodes_size * 2 + 16;
			schedule_nodes = xreallocarray(schedule_nodes,
			    schedule_nodes_size, sizeof *schedule_nodes);
			schedule_node_sw = xreallocarray(schedule_node_sw,
			    schedule_nodes_size, sizeof *schedule_node_sw);
			schedule_node_stale = xreallocarray(
			    schedule_node_stale, schedule_nodes_size,
			    sizeof *schedule_node_stale);
		}
		schedule_node_stale[schedule_nnodes] = 0;
		schedule_node_sw[schedule_nnodes] = schedule_switch_of(n);
		node_set_sched_index(n, place_node_add(cl, gpus,
		    schedule_node_sw[schedule_nnodes]));
		place_node_set_res(cl, node_sched_index(n), node_cpus(n),
		    node_memory_mb(n));
		schedule_nodes[schedule_nnodes++] = n;
		place_node_set_up(cl, node_sched_index(n),
		    node_is_schedulable(n));
	}
}

/* Hands job j to a core being built: pending ones queue, running ones
 * keep their GPUs. */
static void
schedule_core_add(struct job *j, int64_t now)
{
	if (job_state(j) == JOB_PENDING)
		schedule_submit(j, now);
	else if (schedule_is_running(job_state(j)))
		schedule_adopt(j, now);
}

/* The core built holds every job it should. */
static void
schedule_core_done(void)
{
	const struct sched_conf	*conf = &schedule_core_conf;
	size_t			 i;

	for (i = 0; i < schedule_nnodes; i++)
		schedule_sync_stale((uint32_t)i);
	schedule_stale = false;
	log_info("schedule: %s, %u queue%s, placement %s: %zu nodes, %zu "
	    "pending, %zu running", sched_policy_name(conf->policy),
	    conf->nqueues, conf->nqueues == 1 ? "" : "s",
	    sched_placement_name(conf->placement), schedule_nnodes,
	    sched_core_pending(schedule_core),
	    sched_core_running(schedule_core));
}

static void
schedule_rebuild(void)
{
	struct job	*j;
	int64_t		 now = ctx_now_ms();

	for (j = job_first(); j != NULL; j = job_next(j))
		job_sched(j)->cjob = NULL;
	schedule_core_new();
	for (j = job_first(); j != NULL; j = job_next(j))
		schedule_core_add(j, now);
	schedule_core_done();
}

void
schedule_load_begin(void)
{
	schedule_core_new();
	schedule_load_now = ctx_now_ms();
}

void
schedule_load_job(struct job *j)
{
	/* Whether a dependency is met depends on jobs that may load
	 * later: the first pass judges every waiting job (deps_all). */
	if (*job_dependency(j) == '\0' || job_state(j) != JOB_PENDING)
		schedule_core_add(j, schedule_load_now);
}

void
schedule_load_end(void)
{
	schedule_core_done();
}

/* Up, down, drained: a flag per node. A node that is new or changed its
 * GPU count or its switch makes the core stale. */
static void
schedule_sync_nodes(void)
{
	struct place_cluster	*cl = sched_core_cluster(schedule_core);
	struct node		*n;
	uint32_t		 i, gpus;

	for (n = node_first(); n != NULL; n = node_next(n)) {
		i = node_sched_index(n);
		gpus = node_gpus_total(n);
		if (i == NODE_NO_INDEX) {
			if (gpus != 0 && gpus <= 64) {
				schedule_stale = true;
				return;
			}
			continue;
		}
		if (place_node_gpus(cl, i) != gpus ||
		    schedule_node_sw[i] != schedule_switch_of(n)) {
			schedule_stale = true;
			return;
		}
		/* What jobs hold stays held: only the totals change. */
		if (place_node_cpus(cl, i) != node_cpus(n) ||
		    place_node_mem(cl, i) != node_memory_mb(n))
			place_node_set_res(cl, i, node_cpus(n),
			    node_memory_mb(n));
		place_node_set_up(cl, i, node_is_schedulable(n));
		schedule_sync_stale(i);
	}
}

/* (Re)arms the wake-up timer for ms from now. */
static void
schedule_wake_in(int64_t ms)
{
	struct timeval	tv;

	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(schedule_wake_ev, &tv);
}

/* Whether a job that can never start is cancelled: its own word, else
 * scheduler.kill_invalid_depend. */
static bool
schedule_kill_invalid(const struct job *j)
{
	uint32_t	f = job_flags(j);

	if (f & (JOB_F_KILL_INVALID_DEP | JOB_F_KEEP_INVALID_DEP))
		return ((f & JOB_F_KILL_INVALID_DEP) != 0);
	return (ctx_conf()->kill_invalid_depend);
}

/* After jobs changed: judges the jobs waiting for others again, hands the
 * core those whose conditions are met, and cancels those that can never
 * start where that is asked for. */
/* Judges waiting job j again: into the core when its conditions are met,
 * cancelled when they never can be and that is asked for. */
static void
schedule_deps_one(struct job *j, int64_t now)
{
	struct job_change	how;
	char			why[512], msg[640];

	if (job_state(j) != JOB_PENDING || job_sched(j)->cjob != NULL ||
	    *job_dependency(j) == '\0')
		return;
	schedule_submit(j, now);
	if (job_sched(j)->cjob != NULL || !schedule_kill_invalid(j) ||
	    depend_wait_judge(j, why, sizeof why) != DEPEND_NEVER)
		return;
	snprintf(msg, sizeof msg, "its dependency can never be satisfied "
	    "(%s)", why);
	memset(&how, 0, sizeof how);
	how.message = msg;
	how.detail = msg;
	if (job_change_state(j, JOB_CANCELLED, &how) != 0)
		log_error("job %" PRIu64 ": cannot cancel it: the store failed",
		    job_id(j));
}

static void
schedule_deps_due(int64_t now)
{
	struct job	*j, *next;
	uint64_t	*ids;
	size_t		 n, i;

	/* Taken first: the changes below add ids of their own, for the
	 * next pass. */
	n = depend_wait_take(&ids);
	if (schedule_deps_all) {
		schedule_deps_all = false;
		for (j = job_first(); j != NULL; j = next) {
			next = job_next(j);
			schedule_deps_one(j, now);
		}
	} else {
		for (i = 0; i < n; i++) {
			if ((j = job_find(ids[i])) != NULL)
				schedule_deps_one(j, now);
		}
	}
	free(ids);
}

/* Hands the core the pending jobs whose begin time has come. */
static void
schedule_begin_due(int64_t now)
{
	struct job	*j;

	if (schedule_next_begin > now)
		return;
	schedule_next_begin = SCHED_NEVER;
	for (j = job_first(); j != NULL; j = job_next(j)) {
		if (job_state(j) == JOB_PENDING && job_sched(j)->cjob == NULL)
			schedule_submit(j, now);
	}
}

/* Arms the timer for the core's next demotion or promotion, or the next
 * begin time. */
static void
schedule_arm(int64_t now)
{
	int64_t	at = sched_core_next_wakeup(schedule_core);

	if (schedule_next_begin < at)
		at = schedule_next_begin;

	evtimer_del(schedule_wake_ev);
	if (at != SCHED_NEVER)
		schedule_wake_in(at > now ? at - now : 0);
}

static void
schedule_start(struct job *j, int64_t now)
{
	struct job_change	 how = { 0 };
	struct sched_cjob	*cj = job_sched(j)->cjob;
	const struct place_alloc *a;
	struct job_part		*parts;
	size_t			 na, i;

	a = sched_cjob_alloc(cj, &na);
	parts = xcalloc(na, sizeof *parts);
	for (i = 0; i < na; i++) {
		parts[i].node = schedule_nodes[a[i].node];
		parts[i].mask = a[i].mask;
	}
	how.parts = parts;
	how.nparts = na;
	if (job_change_state(j, JOB_RUNNING, &how) != 0) {
		free(parts);
		sched_core_stopped(schedule_core, cj, now);
		return;
	}
	free(parts);
	metrics_count_start();
	launch_job(j);
}

/* The job that starts when the core starts j: j, or for a job array's
 * row that stands for more than one task, its lowest task split off it,
 * which takes j's handle; the row goes back in the queue for the rest,
 * at its place (its submit time and id), and a pass follows for them. */
static struct job *
schedule_task(struct job *j, int64_t now)
{
	struct sched_cjob	*cj = job_sched(j)->cjob;
	struct job		*t;

	if (!job_array_is_row(j))
		return (j);
	if ((t = job_array_split(j, array_min(job_array_left(j)))) == NULL)
		return (j);
	if (t == j)
		return (j);
	job_sched(j)->cjob = NULL;
	sched_core_rekey(schedule_core, cj, job_id(t), t);
	job_sched(t)->cjob = cj;
	schedule_submit(j, now);
	schedule_mark_dirty();
	return (t);
}

static void
schedule_preempt(struct job *j)
{
	struct job_change	how = { 0 };
	char			detail[96];

	/* Preempting already (a restarted controller asks again): the
	 * node ignores a second request, and the end requeues the job. */
	if (job_state(j) != JOB_PREEMPTING) {
		snprintf(detail, sizeof detail, "preempted in queue %u for a "
		    "job of a higher queue",
		    sched_cjob_queue(job_sched(j)->cjob));
		how.detail = detail;
		if (job_change_state(j, JOB_PREEMPTING, &how) != 0)
			return;
		metrics_count_preempt();
	}
	(void)launch_preempt(j);
}

/* After a restart, running jobs' nodes need a moment to say HELLO again.
 * Until they have (or node_timeout passed, when node-health.c requeues
 * what they ran), those nodes look down and their jobs' GPUs unusable: a
 * pass then would preempt or place around them for nothing. Returns the
 * ms to wait, or 0 once every such node is back. */
static int64_t
schedule_recovering(void)
{
	static bool	 recovered;
	struct job	*j;
	size_t		 i;
	int64_t		 left;

	if (recovered)
		return (0);
	left = (ctx_started() + ctx_conf()->node_timeout) * 1000 -
	    ctx_now_ms();
	if (left > 0) {
		for (j = job_first(); j != NULL; j = job_next(j)) {
			if (!schedule_is_running(job_state(j)))
				continue;
			for (i = 0; i < job_nparts(j); i++) {
				if (!node_seen_since_start(
				    job_part_const(j, i)->node))
					return (left);
			}
		}
	}
	recovered = true;
	return (0);
}

void
schedule_run(void)
{
	const struct sched_action	*acts;
	size_t				 n, i;
	int64_t				 now, wait, t0 = metrics_clock_us();
	uint64_t			 promoted;

	schedule_dirty = false;
	if (schedule_core != NULL && !schedule_stale)
		schedule_sync_nodes();
	if (schedule_core == NULL || schedule_stale) {
		schedule_rebuild();
		schedule_sync_nodes();
	}
	if ((wait = schedule_recovering()) > 0) {
		/* A HELLO marks the schedule dirty; this is the backstop. */
		schedule_wake_in(wait);
		return;
	}
	now = ctx_now_ms();
	schedule_begin_due(now);
	schedule_deps_due(now);
	promoted = sched_core_promotions(schedule_core);
	n = sched_core_pass(schedule_core, now, &acts);
	metrics_count_promotions(sched_core_promotions(schedule_core) -
	    promoted);
	for (i = 0; i < n; i++) {
		if (acts[i].type == SCHED_ACT_START)
			schedule_start(schedule_task(sched_cjob_arg(
			    acts[i].job), now), now);
		else
			schedule_preempt(sched_cjob_arg(acts[i].job));
	}
	schedule_arm(now);
	metrics_observe_pass_us(metrics_clock_us() - t0);
}

void
schedule_job_new(struct job *j)
{
	if (schedule_core != NULL && !schedule_stale)
		schedule_submit(j, ctx_now_ms());
	schedule_mark_dirty();
}

void
schedule_job_row(struct job *j, enum job_state to, struct store_job *row)
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
		row->last_queue = (int)sched_cjob_queue(cj);
	} else if (schedule_is_running(from) && !schedule_is_running(to) &&
	    job_start_time(j) > 0 && (run = now - job_start_time(j) * 1000) >
	    0) {
		/* A job the core did not hold still ran. */
		row->attained += (uint64_t)run * job_gpus(j);
		row->executed += run;
		row->run_total += run;
	}
	if (to == JOB_RUNNING && row->first_start == 0)
		row->first_start = now;
	if (schedule_is_running(from) && !schedule_is_running(to))
		row->last_stop = now;
}

void
schedule_job_changed(struct job *j, enum job_state from, enum job_state to)
{
	struct job_sched	*s = job_sched(j);
	int64_t			 now;

	/* A change may meet (or break) the conditions of the jobs waiting
	 * for this one. */
	if (depend_wait_changed(job_id(j)))
		schedule_mark_dirty();
	/* So may a task's, for the jobs waiting for its whole array. */
	if (job_array_job_id(j) != 0 && job_array_job_id(j) != job_id(j) &&
	    depend_wait_changed(job_array_job_id(j)))
		schedule_mark_dirty();
	if (schedule_core == NULL || schedule_stale)
		return;		/* the rebuild reads every job */
	now = ctx_now_ms();
	switch (to) {
	case JOB_PENDING:
		if (s->cjob != NULL && schedule_is_running(from))
			sched_core_stopped(schedule_core, s->cjob, now);
		else if (s->cjob == NULL)
			schedule_submit(j, now);
		schedule_mark_dirty();
		break;
	case JOB_RUNNING:
		/* Started by a pass: the core knows. Re-adopted from a node
		 * after a requeue: the core thinks it waits. */
		if (s->cjob != NULL &&
		    sched_cjob_state(s->cjob) == SCHED_JOB_RUNNING)
			break;
		if (s->cjob != NULL)
			sched_core_end(schedule_core, s->cjob, now);
		s->cjob = NULL;
		schedule_adopt(j, now);
		break;
	case JOB_PREEMPTING:
		break;
	default:
		if (to == JOB_COMPLETED &&
		    ctx_conf()->sched.policy == SCHED_GITTINS &&
		    schedule_nsamples < SCHEDULE_GITTINS_HISTORY &&
		    ++schedule_completed > schedule_nsamples / 10)
			schedule_stale = true;
		/* Held or finished: out of the core, GPUs free. */
		if (s->cjob != NULL) {
			sched_core_end(schedule_core, s->cjob, now);
			s->cjob = NULL;
			schedule_mark_dirty();
		}
		break;
	}
}

void
schedule_rank(void)
{
	sched_core_rank(schedule_core);
}

void
schedule_job_view(const struct job *j, struct store_job *row, int64_t now)
{
	const struct job_sched	*s = job_sched_const(j);
	const struct sched_cjob	*cj = s->cjob;
	enum sched_reason	 r, r2;

	if ((row->queue = schedule_job_queue(j)) == -1)
		return;
	if (job_state(j) == JOB_PENDING && sched_cjob_rank(cj) > 0)
		row->rank = (int)sched_cjob_rank(cj);
	row->attained = sched_cjob_attained(cj, now);
	row->run_total = sched_cjob_total_executed(cj, now);
	row->preemptions = sched_cjob_preemptions(cj);
	row->promotions = sched_cjob_promotions(cj);
	if (job_state(j) != JOB_PENDING)
		return;
	/* Waiting for GPUs that no node taking jobs could ever give is
	 * waiting for nodes: say which kind. */
	r = sched_cjob_reason(schedule_core, cj);
	if (r != SCHED_REASON_PREEMPTING) {
		r2 = schedule_unrunnable(job_gpus(j),
		    (job_flags(j) & JOB_F_CONSOLIDATE) != 0);
		if (r2 != SCHED_REASON_NONE)
			r = r2;
	}
	if (r != SCHED_REASON_NONE)
		row->reason = sched_reason_name(r);
}

int
schedule_job_queue(const struct job *j)
{
	const struct sched_cjob	*cj = job_sched_const(j)->cjob;

	return (cj != NULL ? (int)sched_cjob_queue(cj) : -1);
}

unsigned
schedule_queues(void)
{
	if (schedule_core == NULL)
		return (ctx_conf()->sched.nqueues);
	return (sched_core_queues(schedule_core));
}

void
schedule_job_stale_changed(struct job *j)
{
	struct job_sched	*s;

	schedule_mark_dirty();
	if (j == NULL || job_state(j) != JOB_PENDING || schedule_core == NULL ||
	    schedule_stale)
		return;
	s = job_sched(j);
	if (job_stale_copies(j) == 0 && s->cjob == NULL)
		schedule_submit(j, ctx_now_ms());
	else if (job_stale_copies(j) > 0 && s->cjob != NULL) {
		sched_core_end(schedule_core, s->cjob, ctx_now_ms());
		s->cjob = NULL;
	}
}

static void
schedule_capacity_add(struct sched_capacity *c, uint32_t gpus)
{
	c->total += gpus;
	if (gpus > c->largest)
		c->largest = gpus;
}

static void
schedule_capacity(void)
{
	struct node	*n;
	uint32_t	 gpus;

	if (schedule_cap_valid)
		return;
	memset(&schedule_cap_up, 0, sizeof schedule_cap_up);
	memset(&schedule_cap_drained, 0, sizeof schedule_cap_drained);
	schedule_cap_largest = 0;
	for (n = node_first(); n != NULL; n = node_next(n)) {
		gpus = node_gpus_total(n);
		if (gpus > schedule_cap_largest)
			schedule_cap_largest = gpus;
		/* Up: a node whose connection just dropped counts until
		 * node_timeout says otherwise (node-health.c). */
		if (!node_is_up(n))
			continue;
		if (!node_is_drained(n))
			schedule_capacity_add(&schedule_cap_up, gpus);
		schedule_capacity_add(&schedule_cap_drained, gpus);
	}
	schedule_cap_valid = true;
}

enum sched_reason
schedule_unrunnable(uint32_t gpus, bool consolidate)
{
	schedule_capacity();
	return (sched_capacity_reason(gpus, consolidate, schedule_cap_largest,
	    &schedule_cap_up, &schedule_cap_drained));
}

void
schedule_reconfigure(void)
{
	schedule_stale = true;
	schedule_mark_dirty();
}

void
schedule_free(void)
{
	struct job	*j;

	for (j = job_first(); j != NULL; j = job_next(j))
		job_sched(j)->cjob = NULL;
	sched_core_free(schedule_core);
	schedule_core = NULL;
	free(schedule_nodes);
	schedule_nodes = NULL;
	free(schedule_node_sw);
	schedule_node_sw = NULL;
	free(schedule_node_stale);
	schedule_node_stale = NULL;
	while (schedule_nswitches > 0)
		free(schedule_switches[--schedule_nswitches]);
	free(schedule_switches);
	schedule_switches = NULL;
	schedule_nnodes = schedule_nodes_size = 0;
	free(schedule_samples);
	schedule_samples = NULL;
	if (schedule_wake_ev != NULL)
		event_free(schedule_wake_ev);
	schedule_wake_ev = NULL;
}
