/* sim-shard-test.c: gsim's replay of jobs of shards of a GPU (the trace's
 * gpu_share, gsim --gpu-shards): the check before a replay refuses a job
 * the nodes' shards cannot hold, naming the remedy; the replay packs jobs
 * of shards onto a shared GPU, keeps whole-GPU jobs off it, and counts a
 * job's GPU-time at its part of the GPU. Times are ms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched-conf.h"
#include "sim/sim-fit.h"
#include "sim/sim.h"
#include "tests/unit/tap.h"

#define T_JOBS	4

static struct sim_job	t_jobs[T_JOBS];

/* Job i of the trace: id i + 1, at 0, on line i + 2. */
static void
t_job(size_t i, uint32_t gpus, uint32_t shards, int64_t ms)
{
	memset(&t_jobs[i], 0, sizeof t_jobs[i]);
	t_jobs[i].id = i + 1;
	t_jobs[i].gpus = gpus;
	t_jobs[i].shards = shards;
	t_jobs[i].duration_ms = ms;
	t_jobs[i].line = (unsigned)i + 2;
}

/* A (2 shards, 100 s), B (3 shards, 60 s), W (a whole GPU, 50 s) and D
 * (1 shard, 20 s), all at 0. */
static void
t_trace(struct sim_trace *t)
{
	memset(t, 0, sizeof *t);
	t_job(0, 1, 2, 100000);
	t_job(1, 1, 3, 60000);
	t_job(2, 1, 0, 50000);
	t_job(3, 1, 1, 20000);
	t->jobs = t_jobs;
	t->njobs = T_JOBS;
}

static void
t_fit(void)
{
	struct sim_trace	t;
	struct sim_cluster	c;
	char			err[512] = "";

	t_trace(&t);
	memset(&c, 0, sizeof c);
	c.switches = c.nodes_per_switch = 1;
	c.gpus_per_node = 2;
	ok(sim_fit_check("s.csv", &t, &c, false, err, sizeof err) == -1 &&
	    strstr(err, "s.csv:2: job 1 takes gpu_share 2 of a GPU, but the "
	    "nodes offer no shards: give --gpu-shards N") != NULL,
	    "no shards offered: refused, naming the first such job and "
	    "--gpu-shards");
	c.gpu_shards = 2;
	ok(sim_fit_check("s.csv", &t, &c, false, err, sizeof err) == -1 &&
	    strstr(err, "s.csv:3: job 2 takes gpu_share 3 of a GPU; the nodes "
	    "offer each GPU in 2 shards (give --gpu-shards 3 or more)") !=
	    NULL, "3 shards of 2: refused");
	c.gpu_shards = 4;
	is_int(sim_fit_check("s.csv", &t, &c, false, err, sizeof err), 0,
	    "4 shards a GPU hold them all");
	/* 2 CPUs a node: the jobs that take the node's share fit, but no
	 * node holds a job of shards that asks for 3. */
	c.cpus_per_node = 2;
	t_jobs[3].cpus = 3;
	ok(sim_fit_check("s.csv", &t, &c, false, err, sizeof err) == -1 &&
	    strstr(err, "s.csv:5: job 4, of shards of a GPU, finds no node "
	    "with the CPUs and memory it needs") != NULL,
	    "too many CPUs for a node: refused as such");
}

/* One node of 2 GPUs of 4 shards, fifo. Not strict:
 *   0    A takes 2 shards of GPU 0; B's 3 do not fit beside them, and
 *        it takes GPU 1; W finds no GPU free of shards and is passed
 *        over; D's 1 packs onto GPU 1, the GPU with the fewest left
 *   20   D ends
 *   60   B ends: GPU 1 is free, W runs 60-110
 *   100  A ends.
 * Strict, W holds D back: D packs beside A at 60 and ends at 80.
 * GPU-time either way: A 100 x 2/4 + B 60 x 3/4 + W 50 + D 20 x 1/4 =
 * 150 GPU-s over a makespan of 110. */
static void
t_replay(bool strict)
{
	struct sim_trace	t;
	struct sim_cluster	c;
	struct sched_conf	conf;
	struct sim_opts		o;
	struct sim_result	res;
	const char		*how = strict ? "strict" : "not strict";
	char			err[512] = "";

	t_trace(&t);
	memset(&c, 0, sizeof c);
	c.switches = c.nodes_per_switch = 1;
	c.gpus_per_node = 2;
	c.gpu_shards = 4;
	sched_conf_default(&conf);
	conf.policy = SCHED_FIFO;
	conf.strict = strict;
	memset(&o, 0, sizeof o);
	if (sim_run(&t, &c, &conf, &o, &res, err, sizeof err) != 0) {
		ok(0, "%s: the replay: %s", how, err);
		return;
	}
	ok(res.jobs[0].start_ms == 0 && res.jobs[0].end_ms == 100000,
	    "%s: A runs 0-100", how);
	ok(res.jobs[1].start_ms == 0 && res.jobs[1].end_ms == 60000,
	    "%s: B runs 0-60 beside it, on the other GPU", how);
	ok(res.jobs[2].start_ms == 60000 && res.jobs[2].end_ms == 110000,
	    "%s: W waits for a GPU free of shards: 60-110", how);
	if (strict)
		ok(res.jobs[3].start_ms == 60000 && res.jobs[3].end_ms == 80000,
		    "strict: D waits behind W, then packs beside A: 60-80");
	else
		ok(res.jobs[3].start_ms == 0 && res.jobs[3].end_ms == 20000,
		    "not strict: D packs beside B at once: 0-20");
	is_int(res.busy_gpu_ms, 150000, "%s: 150 GPU-s busy", how);
	is_int(res.makespan_ms, 110000, "%s: makespan 110 s", how);
	sim_result_free(&res);
}

int
main(void)
{
	t_fit();
	t_replay(false);
	t_replay(true);
	return (tap_done());
}
