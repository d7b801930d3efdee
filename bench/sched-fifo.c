/* sched-fifo.c (bench): how long one FIFO pass takes on a large snapshot:
 * 10,000 pending jobs over 1,000 nodes x 8 GPUs, in the shapes a real
 * cluster goes through. Prints figures; never fails on time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "policy/sched.h"

#define BENCH_JOBS	10000
#define BENCH_NODES	1000
#define BENCH_GPUS	8

static struct sched_job		bench_jobs[BENCH_JOBS];
static struct sched_node	bench_nodes[BENCH_NODES];
static struct sched_node	bench_snapshot[BENCH_NODES];
static struct sched_start	bench_out[BENCH_JOBS];
static enum sched_reason	bench_reasons[BENCH_JOBS];

/* A deterministic generator, so runs compare. */
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

/* Jobs of 1, 2, 4 or 8 GPUs, mostly small, as deep-learning queues are. */
static void
bench_make_jobs(void)
{
	static const uint32_t	sizes[] = { 1, 1, 1, 1, 2, 2, 4, 8 };
	size_t			i;

	for (i = 0; i < BENCH_JOBS; i++) {
		bench_jobs[i].id = i + 1;
		bench_jobs[i].gpus = sizes[bench_rand() % 8];
	}
}

/* Each node gets each GPU free with probability pct_free percent. */
static void
bench_make_nodes(unsigned pct_free)
{
	size_t		i, g;

	for (i = 0; i < BENCH_NODES; i++) {
		bench_snapshot[i].gpus_total = BENCH_GPUS;
		bench_snapshot[i].schedulable = true;
		bench_snapshot[i].free_mask = 0;
		for (g = 0; g < BENCH_GPUS; g++) {
			if (bench_rand() % 100 < pct_free)
				bench_snapshot[i].free_mask |= UINT64_C(1) << g;
		}
	}
}

static void
bench_run(const char *what, size_t first_job)
{
	double		t0, elapsed;
	size_t		starts = 0;
	int		passes = 0;

	t0 = bench_now();
	do {
		/* The pass consumes free GPUs; each pass starts from the same
		 * snapshot. The copy (32 KB) is part of what gbatchd pays. */
		memcpy(bench_nodes, bench_snapshot, sizeof bench_nodes);
		starts = sched_fifo_pass(bench_jobs + first_job,
		    BENCH_JOBS - first_job, bench_nodes, BENCH_NODES, bench_out,
		    BENCH_JOBS, bench_reasons);
		passes++;
		elapsed = bench_now() - t0;
	} while (elapsed < 0.5 && passes < 100000);
	printf("%-44s %8.1f us/pass  (%zu starts, %d passes)\n", what,
	    elapsed / passes * 1e6, starts, passes);
}

int
main(int argc, char **argv)
{
	size_t	i;

	if (argc > 1) {
		fprintf(stderr, "usage: %s\n(no arguments: prints microseconds "
		    "per FIFO pass over %d jobs and %d nodes x %d GPUs)\n",
		    argv[0], BENCH_JOBS, BENCH_NODES, BENCH_GPUS);
		return (2);
	}
	printf("sched_fifo_pass: %d pending jobs, %d nodes x %d GPUs\n",
	    BENCH_JOBS, BENCH_NODES, BENCH_GPUS);
	bench_make_jobs();

	bench_make_nodes(100);
	bench_run("idle cluster (starts until full)", 0);

	bench_make_nodes(10);
	bench_run("busy cluster, 10% GPUs free", 0);

	bench_make_nodes(0);
	bench_run("full cluster (head blocks at once)", 0);

	/* Worst case for a blocked head: an 8-GPU job scans every node,
	 * each with a few GPUs free, then the rest just get Priority. */
	bench_make_nodes(50);
	for (i = 0; i < BENCH_NODES; i++)
		bench_snapshot[i].free_mask &= 0x7f;
	bench_jobs[0].gpus = 8;
	bench_run("fragmented, 8-GPU head blocks after a scan", 0);
	return (0);
}
