/* core-build.c: making the controller's core (core.h): at start-up, each
 * job handed in as it loads; after the settings or a node's GPUs changed,
 * rebuilt from every job; and before each pass, the nodes' state synced
 * into it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core-hold.h"
#include "daemon/controller/core-int.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/store.h"
#include "policy/sched-core.h"

/* The core's number for a node's topology label ("" is one too). */
static uint32_t
core_build_switch(const struct node *n)
{
	const char	*label = node_switch(n);
	size_t		 i;

	for (i = 0; i < core.nswitches; i++) {
		if (strcmp(core.switches[i], label) == 0)
			return ((uint32_t)i);
	}
	core.switches = xreallocarray(core.switches,
	    core.nswitches + 1, sizeof *core.switches);
	core.switches[core.nswitches] = xstrdup(label);
	return ((uint32_t)core.nswitches++);
}

/* The core's settings: the config's, with the Gittins distribution from
 * the jobs that completed (dlas order while there are none). */
static void
core_build_conf(struct sched_conf *c)
{
	size_t	n = 0;

	*c = ctx_conf()->sched;
	/* What gives a GPU job its CPUs prices a CPU job's in GPUs. */
	c->cpus_per_gpu = (uint32_t)ctx_conf()->cpus_per_gpu;
	free(core.samples);
	core.samples = NULL;
	core.nsamples = core.completed = 0;
	if (c->policy != SCHED_GITTINS)
		return;
	if (store_job_gpu_times(CORE_GITTINS_HISTORY, &core.samples,
	    &n) != 0 || n == 0) {
		log_warn("schedule: gittins needs the GPU-times of completed "
		    "jobs and there are none yet; ordering as dlas until one "
		    "completes");
		c->policy = SCHED_DLAS;
		return;
	}
	c->samples = core.samples;
	c->nsamples = core.nsamples = n;
	log_info("schedule: gittins index from %zu completed jobs", n);
}

/* Takes out of the core's cluster the GPUs of node i (its index) that
 * are held, as the record says, and that no job in the core holds: those
 * of stale copies, and of a running job the core could not adopt (its node
 * changed its GPUs, or another job claims one of them), so that no job is
 * placed on them; gives back those no longer held. */
static void
core_build_sync_held(uint32_t i)
{
	struct place_cluster	*cl = sched_core_cluster(core.sc);
	struct place_alloc	 a = { 0 };
	uint64_t		 all = node_gpus_mask(core.nodes[i]);
	uint64_t		 have = core.node_outside[i], jobs, want;

	jobs = all & ~place_node_free_mask(cl, i) & ~have;
	want = core_hold_busy(core_holds(), node_number(core.nodes[i])) &
	    all & ~jobs;
	if (want == have)
		return;
	a.node = i;
	if ((a.mask = have & ~want) != 0)
		place_release(cl, &a, 1);
	if ((a.mask = want & ~have & place_node_free_mask(cl, i)) != 0)
		place_take(cl, &a, 1);
	core.node_outside[i] = (have & want) | a.mask;
}

/* A new core with the nodes and none of the jobs (core_build_again,
 * core_build_begin). */
static void
core_build_new(void)
{
	struct sched_conf	*conf = &core.conf;
	struct place_cluster	*cl;
	struct node		*n;
	uint32_t		 gpus;
	char			 err[256];

	core.next_begin = SCHED_NEVER;
	core.deps_all = true;
	sched_core_free(core.sc);
	core_build_conf(conf);
	if (sched_conf_check(conf, err, sizeof err) != 0) {
		/* conf.c checked it; only a bug gets here. */
		log_error("schedule: %s; using the defaults", err);
		sched_conf_default(conf);
	}
	core.sc = sched_core_create(conf);
	core_qos_rules();
	core_fairshare_build();
	cl = sched_core_cluster(core.sc);
	core.nnodes = 0;
	for (n = node_first(); n != NULL; n = node_next(n)) {
		node_set_sched_index(n, NODE_NO_INDEX);
		if ((gpus = node_gpus_total(n)) == 0 || gpus > 64)
			continue;
		if (core.nnodes == core.nodes_size) {
			core.nodes_size = core.nodes_size * 2 + 16;
			core.nodes = xreallocarray(core.nodes,
			    core.nodes_size, sizeof *core.nodes);
			core.node_sw = xreallocarray(core.node_sw,
			    core.nodes_size, sizeof *core.node_sw);
			core.node_outside = xreallocarray(
			    core.node_outside, core.nodes_size,
			    sizeof *core.node_outside);
		}
		core.node_outside[core.nnodes] = 0;
		core.node_sw[core.nnodes] = core_build_switch(n);
		node_set_sched_index(n, place_node_add(cl, gpus,
		    core.node_sw[core.nnodes]));
		place_node_set_res(cl, node_sched_index(n), node_cpus(n),
		    node_memory_mb(n));
		place_shard_set(cl, node_sched_index(n), node_gpu_shards(n));
		core.nodes[core.nnodes++] = n;
		place_node_set_up(cl, node_sched_index(n),
		    node_is_schedulable(n));
	}
	/* The reservations' windows, on the nodes just numbered. */
	core_resv_windows();
}

/* Hands job j to a core being built: pending ones queue, running ones
 * keep their GPUs. */
static void
core_build_add(struct job *j, int64_t now)
{
	if (job_state(j) == JOB_PENDING)
		core_submit(j, now);
	else if (core_running(job_state(j)))
		core_adopt(j, now);
}

/* The core built holds every job it should. */
static void
core_build_done(void)
{
	const struct sched_conf	*conf = &core.conf;
	size_t			 i;

	for (i = 0; i < core.nnodes; i++)
		core_build_sync_held((uint32_t)i);
	core.stale = false;
	log_info("schedule: %s, %u queue%s, placement %s: %zu nodes, %zu "
	    "pending, %zu running", sched_conf_policy_name(conf->policy),
	    conf->nqueues, conf->nqueues == 1 ? "" : "s",
	    sched_conf_placement_name(conf->placement), core.nnodes,
	    sched_core_pending(core.sc),
	    sched_core_running(core.sc));
}

void
core_build_again(void)
{
	struct job	*j;
	int64_t		 now = ctx_now_ms();

	for (j = job_table_first(); j != NULL; j = job_table_next(j))
		job_sched(j)->cjob = NULL;
	core_build_new();
	for (j = job_table_first(); j != NULL; j = job_table_next(j))
		core_build_add(j, now);
	core_build_done();
}

void
core_build_begin(void)
{
	core_build_new();
	core.load_now = ctx_now_ms();
}

void
core_build_job(struct job *j)
{
	/* What it ran on before the restart is held, whether or not its
	 * nodes are back: the core gives it back when the job leaves. */
	if (core_running(job_state(j)))
		core_job_hold(j);
	/* Whether a dependency is met depends on jobs that may load
	 * later: the first pass judges every waiting job (deps_all). */
	if (*job_dependency(j) == '\0' || job_state(j) != JOB_PENDING)
		core_build_add(j, core.load_now);
}

void
core_build_end(void)
{
	core_build_done();
}

/* Up, down, drained: a flag per node. A node that is new or changed its
 * GPU count or its switch makes the core stale. */
void
core_build_sync(void)
{
	struct place_cluster	*cl = sched_core_cluster(core.sc);
	struct node		*n;
	uint32_t		 i, k, gpus;

	for (n = node_first(); n != NULL; n = node_next(n)) {
		i = node_sched_index(n);
		gpus = node_gpus_total(n);
		if (i == NODE_NO_INDEX) {
			if (gpus != 0 && gpus <= 64) {
				core.stale = true;
				return;
			}
			continue;
		}
		if (place_node_gpus(cl, i) != gpus ||
		    core.node_sw[i] != core_build_switch(n)) {
			core.stale = true;
			return;
		}
		/* What jobs hold stays held: only the totals change. */
		if (place_node_cpus(cl, i) != node_cpus(n) ||
		    place_node_mem(cl, i) != node_memory_mb(n))
			place_node_set_res(cl, i, node_cpus(n),
			    node_memory_mb(n));
		place_node_set_up(cl, i, node_is_schedulable(n));
		place_shard_set(cl, i, node_gpu_shards(n));
		core_build_sync_held(i);
		/* What time-slicing reads before it puts a job beside
		 * another on a GPU. */
		if (ctx_conf()->sched.time_slice > 0)
			for (k = 0; k < gpus; k++)
				(void)place_gpumem_set(cl, i, k,
				    node_gpu_mem_free(n, k));
	}
}
