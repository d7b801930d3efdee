/* sched-core.c (bench): what the Tiresias core costs at the scale we design
 * for: 100,000 pending jobs and 10,000 nodes x 8 GPUs. Times one pass in
 * the shapes a cluster goes through, and the cost of the events that
 * update the core (submit, end). Prints figures; never fails on time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "policy/sched-core.h"

#define BENCH_PENDING	100000
#define BENCH_NODES	10000
#define BENCH_GPUS	8
#define BENCH_SWITCHES	32

static uint32_t bench_seed = 88172645U;

static uint32_t
bench_rand(void)
{
	bench_seed ^= bench_seed << 13;
	bench_seed ^= bench_seed >> 17;
	bench_seed ^= bench_seed << 5;
	return (bench_seed);
}

static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* Jobs of 1 to 8 GPUs, mostly small, as deep-learning queues are. */
static uint32_t
bench_size(void)
{
	static const uint32_t	sizes[] = { 1, 1, 1, 1, 2, 2, 4, 8 };

	return (sizes[bench_rand() % 8]);
}

static enum sched_placement bench_placement = SCHED_PLACE_CONSOLIDATE;

static struct sched_core *
bench_core(enum sched_policy policy, uint64_t *samples, size_t nsamples)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	char			 err[128];
	size_t			 i;

	sched_conf_default(&conf);
	conf.policy = policy;
	(void)sched_conf_thresholds_parse("3600,36000", &conf, err, sizeof err);
	conf.promote_knob = 8;
	conf.samples = samples;
	conf.nsamples = nsamples;
	conf.placement = bench_placement;
	core = sched_core_create(&conf);
	for (i = 0; i < BENCH_NODES; i++)
		place_node_add(sched_core_cluster(core), BENCH_GPUS,
		    (uint32_t)(i % BENCH_SWITCHES));
	return (core);
}

static struct sched_cjob *
bench_submit(struct sched_core *core, uint64_t id, int64_t now,
    uint64_t attained)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = bench_size();
	spec.submit = now;
	spec.duration = 1000 * (60 + bench_rand() % 86400);
	spec.first_start = attained > 0 ? now : SCHED_NEVER;
	spec.last_stop = now;
	spec.attained = attained;
	spec.executed = (int64_t)(attained / spec.gpus);
	spec.total_executed = spec.executed;
	return (sched_core_submit(core, &spec, now));
}

/* Fills the cluster: jobs submitted with `attained` service and started
 * by one pass. Returns the time that pass took. */
static double
bench_fill(struct sched_core *core, uint64_t *id, int64_t now,
    uint64_t attained)
{
	const struct sched_action	*acts;
	double				 t0;

	/* Jobs averaging 2.6 GPUs: submit until they would fill it twice. */
	while (sched_core_pending(core) * 2 <
	    place_free_total(sched_core_cluster(core)))
		bench_submit(core, (*id)++, now, attained);
	t0 = bench_now();
	(void)sched_core_pass(core, now, &acts);
	return (bench_now() - t0);
}

/* Every node with 7 of 8 GPUs held (by no_requeue jobs, so preemption
 * cannot help either) and 100,000 pending jobs of 2 to 8 GPUs. */
static void
bench_fragment(struct sched_core *core, uint64_t *id, int64_t now)
{
	struct place_alloc	 a = { 0 };
	struct sched_jobspec	 spec;
	uint32_t		 i;

	for (i = 0; i < BENCH_NODES; i++) {
		a.node = i;
		a.mask = 0xfe;
		memset(&spec, 0, sizeof spec);
		spec.id = (*id)++;
		spec.gpus = 7;
		spec.submit = now;
		spec.duration = 3600 * 1000;
		spec.no_requeue = true;
		spec.first_start = now;
		spec.last_stop = now;
		(void)sched_core_adopt(core, &spec, &a, 1, now);
	}
	while (sched_core_pending(core) < BENCH_PENDING) {
		memset(&spec, 0, sizeof spec);
		spec.id = (*id)++;
		spec.gpus = 2 + bench_rand() % 7;
		/* Split any way, as before shapes: an even split would take
		 * the nodes' single free GPUs (8 nodes x 1) and the cluster
		 * would be full, not fragmented. */
		spec.any_shape = true;
		spec.submit = now;
		spec.duration = 1000 * (60 + bench_rand() % 86400);
		spec.first_start = SCHED_NEVER;
		spec.last_stop = now;
		(void)sched_core_submit(core, &spec, now);
	}
}

/* The fastest of runs passes (at *now on, moved past them), with the
 * actions of the last in *n. */
static double
bench_best(struct sched_core *core, int64_t *now, size_t runs, size_t *n)
{
	const struct sched_action	*acts;
	double				 t0, t = 0;
	size_t				 i;

	for (i = 0; i < runs; i++) {
		t0 = bench_now();
		*n = sched_core_pass(core, ++*now, &acts);
		if (i == 0 || bench_now() - t0 < t)
			t = bench_now() - t0;
	}
	return (t);
}

static void
bench_line(const char *what, double s, size_t acts)
{
	printf("%-58s %8.2f ms  (%zu actions)\n", what, s * 1000, acts);
}

/* A job of spec's id and gpus (0: a CPU job of cpus CPUs), pending. */
static void
bench_submit_res(struct sched_core *core, uint64_t id, uint32_t gpus,
    uint32_t cpus, int64_t now)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = gpus;
	if (gpus == 0)
		spec.res.cpus_node = cpus;
	else
		spec.res.cpus_gpu = cpus;
	spec.submit = now;
	spec.duration = 1000 * (60 + bench_rand() % 86400);
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	(void)sched_core_submit(core, &spec, now);
}

/* CPU jobs (no GPU) on nodes of 64 CPUs: 10,000 of them of 1 to 8 CPUs
 * placed beside a full cluster's GPU jobs in one pass; then, every CPU
 * taken, 1,000 more waiting behind 100,000 GPU jobs, the pass walking
 * to the last of them (a CPU job can start though no GPU is free). */
static void
bench_cpu_jobs(enum sched_policy policy, uint64_t *samples, size_t nsamples,
    uint64_t *id, int64_t *now, size_t runs)
{
	const struct sched_action	*acts;
	struct sched_core		*core;
	double				 t0, t;
	size_t				 n, i;
	char				 what[128];

	core = bench_core(policy, samples, nsamples);
	for (i = 0; i < BENCH_NODES; i++)
		place_node_set_res(sched_core_cluster(core), (uint32_t)i, 64,
		    0);
	/* GPU jobs of 4 CPUs a GPU: a full node keeps 32 CPUs free. */
	while (sched_core_pending(core) * 2 <
	    place_free_total(sched_core_cluster(core)))
		bench_submit_res(core, (*id)++, bench_size(), 4, *now);
	(void)sched_core_pass(core, ++*now, &acts);
	for (i = 0; i < 10000; i++)
		bench_submit_res(core, (*id)++, 0, 1 + bench_rand() % 8, *now);
	t0 = bench_now();
	n = sched_core_pass(core, ++*now, &acts);
	t = bench_now() - t0;
	bench_line("  10,000 CPU jobs beside a full cluster's GPU jobs", t, n);
	/* No CPU left (each node has just the CPUs its jobs hold), then
	 * 100,000 GPU jobs and 1,000 CPU jobs behind them. */
	for (i = 0; i < BENCH_NODES; i++) {
		n = place_node_cpus(sched_core_cluster(core), (uint32_t)i) -
		    place_node_cpus_free(sched_core_cluster(core), (uint32_t)i);
		place_node_set_res(sched_core_cluster(core), (uint32_t)i,
		    (uint32_t)(n > 0 ? n : 1), 0);
	}
	for (i = sched_core_pending(core); i < BENCH_PENDING; i++)
		bench_submit_res(core, (*id)++, bench_size(), 4, *now);
	for (i = 0; i < 1000; i++)
		bench_submit_res(core, (*id)++, 0, 1 + bench_rand() % 8, *now);
	t = bench_best(core, now, runs, &n);
	snprintf(what, sizeof what, "  no CPU free, %zu pending, 1,000 CPU jobs "
	    "last, best of %zu", sched_core_pending(core), runs);
	bench_line(what, t, n);
	sched_core_free(core);
}

/* One policy through the shapes. */
static void
bench_policy(enum sched_policy policy, uint64_t *samples, size_t nsamples)
{
	struct sched_core		*core;
	const struct sched_action	*acts;
	struct sched_cjob		**extra;
	uint64_t			 id = 1;
	double				 t0, t;
	size_t				 n, i, runs = 5;
	int64_t				 now = 1000;
	char				 what[128];

	printf("%s:\n", sched_conf_policy_name(policy));
	core = bench_core(policy, samples, nsamples);

	/* An idle cluster filling up: every GPU placed in one pass. */
	t = bench_fill(core, &id, now, 0);
	snprintf(what, sizeof what, "  idle %d x %d GPUs filling up (%zu running)",
	    BENCH_NODES, BENCH_GPUS, sched_core_running(core));
	bench_line(what, t, sched_core_running(core));

	/* A full cluster with 100,000 pending behind it: nothing starts,
	 * nothing may be preempted (all in Q0). The pass every event runs. */
	for (i = sched_core_pending(core); i < BENCH_PENDING; i++)
		bench_submit(core, id++, now, 0);
	t = 1e9;
	for (i = 0; i < runs; i++) {
		t0 = bench_now();
		n = sched_core_pass(core, ++now, &acts);
		if (bench_now() - t0 < t)
			t = bench_now() - t0;
	}
	snprintf(what, sizeof what, "  full, %zu pending, best of %zu",
	    sched_core_pending(core), runs);
	bench_line(what, t, n);

	/* Events on that core: a submit and an end, each O(log n). */
	extra = calloc(10000, sizeof *extra);
	t0 = bench_now();
	for (i = 0; i < 10000; i++)
		extra[i] = bench_submit(core, id++, now, 0);
	t = bench_now() - t0;
	printf("  %-56s %8.3f us\n", "submit, per event, 100,000 pending",
	    t / 10000 * 1e6);
	t0 = bench_now();
	for (i = 0; i < 10000; i++)
		sched_core_end(core, extra[i], now);
	t = bench_now() - t0;
	printf("  %-56s %8.3f us\n", "end of a pending job, per event",
	    t / 10000 * 1e6);
	free(extra);
	sched_core_free(core);

	/* The worst walk: one GPU free on every node, yarn placement, jobs of
	 * 2 to 8 GPUs. 10,000 GPUs are free yet no job fits one node, so the
	 * pass looks at every one of the 100,000 and starts none. */
	bench_placement = SCHED_PLACE_YARN;
	core = bench_core(policy, samples, nsamples);
	bench_placement = SCHED_PLACE_CONSOLIDATE;
	bench_fragment(core, &id, now);
	t = bench_best(core, &now, runs, &n);
	snprintf(what, sizeof what, "  fragmented, %zu pending examined, "
	    "best of %zu", sched_core_pending(core), runs);
	bench_line(what, t, n);
	sched_core_free(core);

	/* GPUs free everywhere but CPUs short: every node has 1 CPU, every
	 * job asks 2 a GPU. No job fits, each for the same reason; the pass
	 * places the first of each kind and answers the rest from it
	 * (sched_core_miss). */
	core = bench_core(policy, samples, nsamples);
	for (i = 0; i < BENCH_NODES; i++)
		place_node_set_res(sched_core_cluster(core), (uint32_t)i, 1, 0);
	while (sched_core_pending(core) < BENCH_PENDING) {
		struct sched_jobspec	spec;

		memset(&spec, 0, sizeof spec);
		spec.id = id++;
		spec.gpus = bench_size();
		spec.res.cpus_gpu = 2;
		spec.submit = now;
		spec.duration = 1000 * (60 + bench_rand() % 86400);
		spec.first_start = SCHED_NEVER;
		spec.last_stop = now;
		(void)sched_core_submit(core, &spec, now);
	}
	t = bench_best(core, &now, runs, &n);
	snprintf(what, sizeof what, "  GPUs free, CPUs short, %zu pending, "
	    "best of %zu", sched_core_pending(core), runs);
	bench_line(what, t, n);
	sched_core_free(core);

	bench_cpu_jobs(policy, samples, nsamples, &id, &now, runs);

	if (policy == SCHED_FIFO)
		return;
	/* Every GPU held by Q1 jobs, 100,000 new Q0 jobs: the pass preempts
	 * across the whole cluster, the heaviest pass there is. */
	core = bench_core(policy, samples, nsamples);
	(void)bench_fill(core, &id, now, UINT64_C(4000) * 1000 * 8);
	for (i = sched_core_pending(core); i < BENCH_PENDING; i++)
		bench_submit(core, id++, now, 0);
	t0 = bench_now();
	n = sched_core_pass(core, ++now, &acts);
	t = bench_now() - t0;
	snprintf(what, sizeof what, "  full of Q1 jobs, %d new Q0 jobs: preempt",
	    BENCH_PENDING);
	bench_line(what, t, n);
	sched_core_free(core);
}

int
main(void)
{
	uint64_t	*samples;
	size_t		 i, n = 1000;

	printf("Tiresias core, %d nodes x %d GPUs (%d switches), %d pending "
	    "jobs\n", BENCH_NODES, BENCH_GPUS, BENCH_SWITCHES, BENCH_PENDING);
	samples = calloc(n, sizeof *samples);
	for (i = 0; i < n; i++)
		samples[i] = (uint64_t)1000 * (120 + bench_rand() % 500000);
	bench_policy(SCHED_DLAS, NULL, 0);
	bench_policy(SCHED_GITTINS, samples, n);
	bench_policy(SCHED_SRTF, NULL, 0);
	bench_policy(SCHED_FIFO, NULL, 0);
	free(samples);
	return (0);
}
