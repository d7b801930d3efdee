/* sched-backfill.c (bench): what a pass costs with backfill's promises
 * at the scale issue 35 names, 100,000 pending jobs on 1,000 nodes x 8
 * GPUs, beside the same workload without them, in one run. The cluster is
 * full of jobs with time limits; the queue mixes small jobs with gangs of
 * 16 to 64 GPUs, so the first waiting job is a gang that needs a promise.
 * Each step is what gbatchd does on an event: a running job ends, a job
 * is submitted, and a pass runs; the pass is timed. Prints the median,
 * the 99th percentile and the worst of the steps; never fails on time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "policy/sched-core.h"

#define BF_NODES	1000
#define BF_GPUS		8
#define BF_PENDING	100000
#define BF_STEPS	400

static uint32_t bf_seed;

static uint32_t
bf_rand(void)
{
	bf_seed ^= bf_seed << 13;
	bf_seed ^= bf_seed >> 17;
	bf_seed ^= bf_seed << 5;
	return (bf_seed);
}

static double
bf_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* Mostly small jobs, one in 20 a gang of 16, 32 or 64 GPUs. */
static uint32_t
bf_size(void)
{
	static const uint32_t	small[] = { 1, 1, 1, 1, 2, 2, 4, 8 };
	static const uint32_t	gang[] = { 16, 32, 64 };

	if (bf_rand() % 20 == 0)
		return (gang[bf_rand() % 3]);
	return (small[bf_rand() % 8]);
}

static struct sched_cjob *
bf_submit(struct sched_core *core, uint64_t id, int64_t now)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = bf_size();
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	/* Limits of 10 minutes to a day; one job in four without. */
	if (bf_rand() % 4 != 0)
		spec.limit = (int64_t)1000 * (600 + bf_rand() % 86400);
	return (sched_core_submit(core, &spec, now));
}

static int
bf_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* A dlas core with backfill at depth, BF_NODES nodes of BF_GPUS under
 * switches switches, and the random draws from their start. */
static struct sched_core *
bf_core(uint32_t depth, uint32_t switches)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	char			 err[128];
	uint32_t		 i;

	bf_seed = 2463534242U;
	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	(void)sched_conf_thresholds_parse("3600,36000", &conf, err,
	    sizeof err);
	conf.backfill_depth = depth;
	core = sched_core_create(&conf);
	for (i = 0; i < BF_NODES; i++)
		place_node_add(sched_core_cluster(core), BF_GPUS,
		    i % switches);
	return (core);
}

/* The running jobs, to end one at random at each step. */
struct bf_run {
	struct sched_cjob	**v;
	size_t			  n, size;
};

static void
bf_started(struct bf_run *r, const struct sched_action *acts, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (acts[i].type != SCHED_ACT_START)
			continue;
		if (r->n == r->size) {
			r->size = r->size != 0 ? r->size * 2 : 4096;
			r->v = realloc(r->v, r->size * sizeof *r->v);
			if (r->v == NULL)
				abort();
		}
		r->v[r->n++] = acts[i].job;
	}
}

static void
bf_run(uint32_t depth)
{
	const struct sched_action	*acts;
	struct sched_core		*core;
	struct bf_run			 run = { NULL, 0, 0 };
	double				 t[BF_STEPS], t0;
	uint64_t			 id = 1;
	int64_t				 now = 1000;
	size_t				 i, k, n;

	core = bf_core(depth, 16);
	while (sched_core_pending(core) < BF_PENDING)
		bf_submit(core, id++, now);
	n = sched_core_pass(core, now, &acts);
	bf_started(&run, acts, n);
	for (i = 0; i < BF_STEPS; i++) {
		now += 1000;
		if (run.n > 0) {
			k = bf_rand() % run.n;
			sched_core_end(core, run.v[k], now);
			run.v[k] = run.v[--run.n];
		}
		bf_submit(core, id++, now);
		t0 = bf_now();
		n = sched_core_pass(core, now, &acts);
		t[i] = bf_now() - t0;
		bf_started(&run, acts, n);
	}
	qsort(t, BF_STEPS, sizeof t[0], bf_cmp);
	printf("  backfill_depth %-3u  median %7.3f ms  p99 %7.3f ms  worst "
	    "%7.3f ms  (%zu running, %zu pending)\n", depth,
	    t[BF_STEPS / 2] * 1000, t[BF_STEPS * 99 / 100] * 1000,
	    t[BF_STEPS - 1] * 1000, sched_core_running(core),
	    sched_core_pending(core));
	free(run.v);
	sched_core_free(core);
}

/* The worst walk: every node has 1 GPU of 8 free, the others held by
 * jobs with limits; the first job waiting is a gang of 64 GPUs, promised
 * the free GPU of each of 64 nodes; behind it 100,000 jobs of 2 to 8 GPUs
 * with short limits, each in time for the promise, none of which fits
 * single free GPUs. */
static void
bf_fragment(uint32_t depth)
{
	const struct sched_action	*acts;
	struct sched_core		*core;
	struct sched_jobspec		 spec;
	struct place_alloc		 a = { 0 };
	double				 t[20], t0;
	uint64_t			 id = 1;
	int64_t				 now = 1000;
	size_t				 i;

	core = bf_core(depth, 1);
	for (i = 0; i < BF_NODES; i++) {
		a.node = (uint32_t)i;
		a.mask = 0xfe;
		memset(&spec, 0, sizeof spec);
		spec.id = id++;
		spec.gpus = 7;
		spec.no_requeue = true;
		spec.first_start = now;
		spec.last_stop = now;
		spec.limit = (int64_t)1000 * (3600 + bf_rand() % 86400);
		(void)sched_core_adopt(core, &spec, &a, 1, now);
	}
	memset(&spec, 0, sizeof spec);
	spec.id = id++;
	spec.gpus = 64;
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	(void)sched_core_submit(core, &spec, now);
	while (sched_core_pending(core) < BF_PENDING) {
		memset(&spec, 0, sizeof spec);
		spec.id = id++;
		spec.gpus = 2 + bf_rand() % 7;
		spec.num_nodes = 1;
		spec.submit = now;
		spec.first_start = SCHED_NEVER;
		spec.last_stop = now;
		spec.limit = 600 * 1000;
		(void)sched_core_submit(core, &spec, now);
	}
	for (i = 0; i < 20; i++) {
		t0 = bf_now();
		(void)sched_core_pass(core, ++now, &acts);
		t[i] = bf_now() - t0;
	}
	qsort(t, 20, sizeof t[0], bf_cmp);
	printf("  backfill_depth %-3u  median %7.3f ms  worst %7.3f ms\n",
	    depth, t[10] * 1000, t[19] * 1000);
	sched_core_free(core);
}

int
main(void)
{
	printf("A pass per event (a job ends, one comes), %d steps: %d nodes "
	    "x %d GPUs, %d pending, one job in 20 a gang of 16-64 GPUs\n",
	    BF_STEPS, BF_NODES, BF_GPUS, BF_PENDING);
	bf_run(0);
	bf_run(1);
	bf_run(4);
	printf("Fragmented: 1 GPU free on each node, a gang of 8 whole nodes first, "
	    "%d jobs of 2-8 GPUs behind it, each in time for its promise\n",
	    BF_PENDING);
	bf_fragment(0);
	bf_fragment(1);
	return (0);
}
