/* sched-cpu-test.c: CPU jobs in the scheduling core (policy/sched-core*.c,
 * policy/place-cpu.c): a job of no GPU starts beside GPU jobs on CPUs and
 * memory alone, gains service at its CPUs' worth in GPUs (the conf's CPUs
 * per GPU, else the cluster's, else SCHED_CPUS_PER_GPU) and is demoted on
 * it, waits for CPUs with its reason, and neither preempts nor is
 * preempted. Expected values are worked out in the comments from
 * docs/scheduling.md. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"


/* dlas, two queues at thr0 GPU-ms, one node of 4 GPUs with cpus CPUs (0:
 * not known) and 64,000 MB. */
static struct sched_core *
t_core(uint64_t thr0, uint32_t cpus_per_gpu, uint32_t cpus)
{
	struct sched_conf	 conf;
	struct sched_core	*core;

	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	conf.thresholds[0] = thr0;
	conf.cpus_per_gpu = cpus_per_gpu;
	core = sched_core_create(&conf);
	place_node_add(sched_core_cluster(core), 4, 0);
	if (cpus != 0)
		place_node_set_res(sched_core_cluster(core), 0, cpus, 64000);
	return (core);
}

/* A job of gpus GPUs (0: a CPU job of cpus CPUs), or of gpus GPUs with
 * cpus CPUs per GPU. */
static struct sched_cjob *
t_submit(struct sched_core *core, uint64_t id, uint32_t gpus, uint32_t cpus,
    int64_t now)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = gpus;
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	if (gpus == 0)
		spec.res.cpus_node = cpus;
	else
		spec.res.cpus_gpu = cpus;
	return (sched_core_submit(core, &spec, now));
}

static bool
t_preempted_any(void)
{
	size_t	i;

	for (i = 0; i < t_nacts; i++) {
		if (t_acts[i].type == SCHED_ACT_PREEMPT)
			return (true);
	}
	return (false);
}

/* A CPU job beside a GPU job: its CPUs, no GPU, and service at the
 * cluster's 8 CPUs per GPU (32 CPUs, 4 GPUs). */
static void
test_beside(void)
{
	struct sched_core		*core = t_core(10000, 0, 32);
	struct sched_cjob		*g, *c;
	const struct place_alloc	*a;
	size_t				 n;

	g = t_submit(core, 1, 4, 4, 0);
	c = t_submit(core, 2, 0, 8, 0);
	is_int(t_pass(core, 0), 2, "beside: both start");
	ok(t_did(SCHED_ACT_START, g) && t_did(SCHED_ACT_START, c),
	    "beside: the GPU job and the CPU job");
	a = sched_cjob_alloc(c, &n);
	ok(n == 1 && a[0].node == 0 && a[0].mask == 0 && a[0].cpus == 8,
	    "beside: the CPU job holds 8 CPUs and no GPU");
	is_int(place_node_cpus_free(sched_core_cluster(core), 0), 8,
	    "beside: 32 - 16 - 8 CPUs left");
	/* 8 CPUs at 8 per GPU: one GPU's worth, 1 GPU-ms a ms. */
	is_int(sched_cjob_attained(c, 1000), 1000,
	    "beside: 8 CPUs gain 1,000 GPU-ms in a second");
	is_int(sched_cjob_attained(g, 1000), 4000,
	    "beside: the 4-GPU job 4,000");
	/* Both reach 10,000 GPU-ms: the GPU job at 2,500 ms, the CPU job
	 * at 10,000 ms. */
	is_int(sched_core_next_wakeup(core), 2500,
	    "beside: the GPU job's demotion first");
	t_pass(core, 2500);
	is_int(sched_cjob_queue(g), 1, "beside: the GPU job demoted at 2.5 s");
	is_int(sched_cjob_queue(c), 0, "beside: the CPU job not yet");
	is_int(sched_core_next_wakeup(core), 10000,
	    "beside: the CPU job's demotion at 10 s");
	t_pass(core, 10000);
	is_int(sched_cjob_queue(c), 1, "beside: demoted at 10 s");
	sched_core_end(core, c, 10000);
	is_int(place_node_cpus_free(sched_core_cluster(core), 0), 16,
	    "beside: its CPUs back when it ends");
	is_int(place_free_total(sched_core_cluster(core)), 0,
	    "beside: the GPUs still the GPU job's");
	sched_core_free(core);
}

/* The conf's CPUs per GPU rules over the cluster's; with neither known,
 * SCHED_CPUS_PER_GPU. */
static void
test_rate(void)
{
	struct sched_core	*core;
	struct sched_cjob	*c;

	core = t_core(10000, 4, 32);
	c = t_submit(core, 1, 0, 8, 0);
	t_pass(core, 0);
	is_int(sched_cjob_attained(c, 1000), 2000,
	    "rate: 8 CPUs at 4 per GPU: 2 GPU-ms a ms");
	sched_core_free(core);
	core = t_core(10000, 0, 0);
	c = t_submit(core, 1, 0, 2, 0);
	t_pass(core, 0);
	is_int(sched_cjob_attained(c, 1000), 1000 * 2 / SCHED_CPUS_PER_GPU,
	    "rate: no CPUs known: 2 CPUs at SCHED_CPUS_PER_GPU");
	sched_core_free(core);
	/* One CPU at 40 per GPU: 25 thousandths of a GPU. */
	core = t_core(10000, 40, 32);
	c = t_submit(core, 1, 0, 1, 0);
	t_pass(core, 0);
	is_int(sched_cjob_attained(c, 40000), 1000,
	    "rate: 1 CPU at 40 per GPU: 1,000 GPU-ms in 40 s");
	sched_core_free(core);
	/* At 64 per GPU, 15.6 thousandths round down to 15. */
	core = t_core(10000, 64, 32);
	c = t_submit(core, 1, 0, 1, 0);
	t_pass(core, 0);
	is_int(sched_cjob_attained(c, 64000), 960,
	    "rate: 1 CPU at 64 per GPU: 15 thousandths of a GPU");
	sched_core_free(core);
}

/* Waiting for CPUs: the reason, and no preemption either way. */
static void
test_no_preempt(void)
{
	struct sched_core	*core = t_core(1000, 0, 32);
	struct sched_cjob	*c, *g, *c2, *g2;

	/* A CPU job takes 24 of the 32 CPUs; at 3 GPUs' worth it is in Q1
	 * after 333 ms. */
	c = t_submit(core, 1, 0, 24, 0);
	t_pass(core, 0);
	ok(sched_cjob_state(c) == SCHED_JOB_RUNNING, "no preempt: c runs");
	t_pass(core, 400);
	is_int(sched_cjob_queue(c), 1, "no preempt: c demoted to Q1");
	/* A new GPU job in Q0 needs 4 GPUs x 4 CPUs: 16 > 8 free. It waits
	 * for CPUs and does not stop the CPU job, whose stop frees no GPU. */
	g = t_submit(core, 2, 4, 4, 400);
	t_pass(core, 400);
	ok(sched_cjob_state(g) == SCHED_JOB_PENDING && !t_preempted_any(),
	    "no preempt: the GPU job waits, no one preempted");
	is_int(sched_cjob_reason(core, g), SCHED_REASON_CPUS,
	    "no preempt: it waits for CPUs");
	sched_core_end(core, g, 400);
	/* A GPU job of 2 GPUs x 4 CPUs runs, and is in Q1 after 500 ms. A
	 * CPU job in Q0 that needs more CPUs than are free waits for them:
	 * it never stops a GPU job. */
	g2 = t_submit(core, 3, 2, 4, 400);
	t_pass(core, 400);
	ok(sched_cjob_state(g2) == SCHED_JOB_RUNNING, "no preempt: g2 runs");
	t_pass(core, 1000);
	is_int(sched_cjob_queue(g2), 1, "no preempt: g2 in Q1");
	c2 = t_submit(core, 4, 0, 8, 1000);
	t_pass(core, 1000);
	ok(sched_cjob_state(c2) == SCHED_JOB_PENDING && !t_preempted_any(),
	    "no preempt: the CPU job waits, no one preempted");
	is_int(sched_cjob_reason(core, c2), SCHED_REASON_CPUS,
	    "no preempt: for CPUs");
	/* The CPU job ends: the waiting CPU job starts. */
	sched_core_end(core, c, 1000);
	t_pass(core, 1000);
	ok(t_did(SCHED_ACT_START, c2), "no preempt: c2 starts once c ends");
	sched_core_free(core);
}

/* With every GPU taken, a pass still reaches CPU jobs behind GPU jobs. */
static void
test_gpus_full(void)
{
	struct sched_core	*core = t_core(100000, 0, 32);
	struct sched_cjob	*g, *g2, *c;

	g = t_submit(core, 1, 4, 1, 0);
	t_pass(core, 0);
	g2 = t_submit(core, 2, 4, 1, 1);
	c = t_submit(core, 3, 0, 4, 2);
	t_pass(core, 2);
	ok(sched_cjob_state(g) == SCHED_JOB_RUNNING &&
	    sched_cjob_state(g2) == SCHED_JOB_PENDING,
	    "full: the second GPU job waits");
	ok(t_did(SCHED_ACT_START, c),
	    "full: the CPU job behind it starts on the node's CPUs");
	sched_core_free(core);
}

int
main(void)
{
	test_beside();
	test_rate();
	test_no_preempt();
	test_gpus_full();
	return (tap_done());
}
