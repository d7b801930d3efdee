/* sched-window.c (bench): what a pass costs with advance reservations'
 * windows at the scale issue 35 names, 100,000 pending jobs on 1,000
 * nodes x 8 GPUs, beside the same workload without them, in one run.
 * Three in four jobs have time limits of 10 minutes to a day, the others
 * none; each step is what gbatchd does on an event (a running job ends,
 * a job is submitted, a pass runs, timed), with the clock moving a second
 * a step, so windows near and far, their nodes held for jobs whose limits
 * do not fit, narrow most jobs' nodes. Prints the median, the 99th
 * percentile and the worst of the steps; never fails on time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "policy/sched-core.h"

#define W_NODES		1000
#define W_GPUS		8
#define W_PENDING	100000
#define W_STEPS		400
#define W_HOUR		INT64_C(3600000)

static uint32_t w_seed;

static uint32_t
w_rand(void)
{
	w_seed ^= w_seed << 13;
	w_seed ^= w_seed >> 17;
	w_seed ^= w_seed << 5;
	return (w_seed);
}

static double
w_clock(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static int
w_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* A job of 1 to 8 GPUs; one in nresv of a reservation (1..nresv) when
 * there are any. */
static void
w_submit(struct sched_core *core, uint64_t id, int64_t now, uint64_t nresv)
{
	static const uint32_t	 sizes[] = { 1, 1, 1, 1, 2, 2, 4, 8 };
	struct sched_jobspec	 spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = sizes[w_rand() % 8];
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	if (w_rand() % 4 != 0)
		spec.limit = (int64_t)1000 * (600 + w_rand() % 86400);
	if (nresv > 0 && w_rand() % 100 == 0)
		spec.resv = 1 + w_rand() % nresv;
	(void)sched_core_submit(core, &spec, now);
}

struct w_run {
	struct sched_cjob	**v;
	size_t			  n, size;
};

static void
w_started(struct w_run *r, const struct sched_action *acts, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (acts[i].type != SCHED_ACT_START)
			continue;
		if (r->n == r->size) {
			r->size = r->size != 0 ? r->size * 2 : 4096;
			if ((r->v = realloc(r->v, r->size * sizeof *r->v)) ==
			    NULL)
				abort();
		}
		r->v[r->n++] = acts[i].job;
	}
}

/* Windows of the case: none; a maintenance of 100 nodes in 2 hours;
 * every node's maintenance in 6 hours; 5 user reservations of 20 nodes
 * each, an hour apart, open or to come, beside the first maintenance. */
static uint64_t
w_windows(struct sched_core *core, int which, int64_t now)
{
	uint32_t	nodes[W_NODES];
	uint32_t	i, k;

	switch (which) {
	case 1:
		for (i = 0; i < 100; i++)
			nodes[i] = i * 10;
		sched_core_window_set(core, 1, now + 2 * W_HOUR,
		    now + 4 * W_HOUR, true, nodes, 100);
		return (0);
	case 2:
		for (i = 0; i < W_NODES; i++)
			nodes[i] = i;
		sched_core_window_set(core, 1, now + 6 * W_HOUR,
		    now + 8 * W_HOUR, true, nodes, W_NODES);
		return (0);
	case 3:
		for (k = 0; k < 5; k++) {
			for (i = 0; i < 20; i++)
				nodes[i] = 500 + k * 20 + i;
			sched_core_window_set(core, k + 1, now + (int64_t)k *
			    W_HOUR - W_HOUR / 2, now + (int64_t)(k + 2) *
			    W_HOUR, false, nodes, 20);
		}
		for (i = 0; i < 100; i++)
			nodes[i] = i * 10 + 1;
		sched_core_window_set(core, 6, now + 2 * W_HOUR,
		    now + 4 * W_HOUR, true, nodes, 100);
		return (5);
	default:
		return (0);
	}
}

static void
w_case(int which, const char *what)
{
	const struct sched_action	*acts;
	struct sched_conf		 conf;
	struct sched_core		*core;
	struct w_run			 run = { NULL, 0, 0 };
	double				 t[W_STEPS], t0;
	uint64_t			 id = 1, nresv;
	int64_t				 now = 1000 * W_HOUR;
	size_t				 i, k, n;
	char				 err[128];

	w_seed = 2463534242U;
	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	(void)sched_conf_thresholds_parse("3600,36000", &conf, err,
	    sizeof err);
	core = sched_core_create(&conf);
	for (i = 0; i < W_NODES; i++)
		place_node_add(sched_core_cluster(core), W_GPUS,
		    (uint32_t)(i % 16));
	nresv = w_windows(core, which, now);
	while (sched_core_pending(core) < W_PENDING)
		w_submit(core, id++, now, nresv);
	n = sched_core_pass(core, now, &acts);
	w_started(&run, acts, n);
	for (i = 0; i < W_STEPS; i++) {
		now += 1000;
		if (run.n > 0) {
			k = w_rand() % run.n;
			sched_core_end(core, run.v[k], now);
			run.v[k] = run.v[--run.n];
		}
		w_submit(core, id++, now, nresv);
		t0 = w_clock();
		n = sched_core_pass(core, now, &acts);
		t[i] = w_clock() - t0;
		w_started(&run, acts, n);
	}
	qsort(t, W_STEPS, sizeof t[0], w_cmp);
	printf("  %-44s median %7.3f ms  p99 %7.3f ms  worst %7.3f ms  "
	    "(%zu running)\n", what, t[W_STEPS / 2] * 1000,
	    t[W_STEPS * 99 / 100] * 1000, t[W_STEPS - 1] * 1000, run.n);
	free(run.v);
	sched_core_free(core);
}

/* The worst walk: every node has 1 GPU of 8 free, the others held by
 * jobs with limits; 100,000 jobs of 2 to 8 GPUs on one node wait, none of
 * which fits: each is examined, each through the windows (which of
 * which, every node's maintenance in 6 hours, narrow three in four to no
 * node and leave the others every node). */
static void
w_fragment(int which, const char *what)
{
	const struct sched_action	*acts;
	struct sched_conf		 conf;
	struct sched_core		*core;
	struct sched_jobspec		 spec;
	struct place_alloc		 a = { 0 };
	double				 t[20], t0;
	uint64_t			 id = 1;
	int64_t				 now = 1000 * W_HOUR;
	size_t				 i;
	char				 err[128];

	w_seed = 2463534242U;
	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	(void)sched_conf_thresholds_parse("3600,36000", &conf, err,
	    sizeof err);
	core = sched_core_create(&conf);
	for (i = 0; i < W_NODES; i++) {
		place_node_add(sched_core_cluster(core), W_GPUS, 0);
		a.node = (uint32_t)i;
		a.mask = 0xfe;
		memset(&spec, 0, sizeof spec);
		spec.id = id++;
		spec.gpus = 7;
		spec.no_requeue = true;
		spec.first_start = now;
		spec.last_stop = now;
		spec.limit = (int64_t)1000 * (3600 + w_rand() % 86400);
		(void)sched_core_adopt(core, &spec, &a, 1, now);
	}
	(void)w_windows(core, which, now);
	while (sched_core_pending(core) < W_PENDING) {
		memset(&spec, 0, sizeof spec);
		spec.id = id++;
		spec.gpus = 2 + w_rand() % 7;
		spec.num_nodes = 1;
		spec.submit = now;
		spec.first_start = SCHED_NEVER;
		spec.last_stop = now;
		if (w_rand() % 4 == 0)
			spec.limit = (int64_t)1000 * (600 + w_rand() % 3600);
		else
			spec.limit = (int64_t)1000 * (8 * 3600 + w_rand() %
			    86400);
		(void)sched_core_submit(core, &spec, now);
	}
	for (i = 0; i < 20; i++) {
		t0 = w_clock();
		(void)sched_core_pass(core, ++now, &acts);
		t[i] = w_clock() - t0;
	}
	qsort(t, 20, sizeof t[0], w_cmp);
	printf("  %-44s median %7.3f ms  worst %7.3f ms\n", what,
	    t[10] * 1000, t[19] * 1000);
	sched_core_free(core);
}

int
main(int argc, char **argv)
{
	/* A case alone (0 to 3), for a profiler. */
	if (argc > 1) {
		w_case(atoi(argv[1]), argv[1]);
		return (0);
	}
	printf("A pass per event (a job ends, one comes), %d steps: %d nodes "
	    "x %d GPUs, %d pending, 1-8 GPUs each, 3 in 4 with a limit\n",
	    W_STEPS, W_NODES, W_GPUS, W_PENDING);
	w_case(0, "no window");
	w_case(1, "a maintenance of 100 nodes in 2 h");
	w_case(2, "a maintenance of every node in 6 h");
	w_case(3, "5 user reservations (1% of jobs) + maint");
	printf("Fragmented: 1 GPU free on each node, %d jobs of 2-8 GPUs on "
	    "one node behind, none fits: every job examined\n", W_PENDING);
	w_fragment(0, "no window");
	w_fragment(2, "a maintenance of every node in 6 h");
	return (0);
}
