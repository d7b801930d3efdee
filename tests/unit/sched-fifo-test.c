/* sched-fifo-test.c: the FIFO pass (policy/sched-fifo.c) on hand-built
 * snapshots: gang placement, best fit, strict order and its reasons. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched.h"
#include "tests/unit/tap.h"

#define NJOBS	16
#define NNODES	8

static struct sched_job		t_jobs[NJOBS];
static struct sched_node	t_nodes[NNODES];
static struct sched_start	t_out[NJOBS];
static enum sched_reason	t_reasons[NJOBS];
static size_t			t_njobs, t_nnodes;

static void
t_reset(void)
{
	size_t	i;

	memset(t_jobs, 0, sizeof t_jobs);
	memset(t_nodes, 0, sizeof t_nodes);
	memset(t_out, 0xa5, sizeof t_out);
	/* A value no pass writes, so an entry left untouched shows. */
	for (i = 0; i < NJOBS; i++)
		t_reasons[i] = (enum sched_reason)77;
	t_njobs = t_nnodes = 0;
}

static void
t_job(uint32_t gpus)
{
	t_jobs[t_njobs].id = 100 + t_njobs;
	t_jobs[t_njobs].gpus = gpus;
	t_njobs++;
}

/* Adds a schedulable node with total GPUs, of which those in used are taken. */
static void
t_node(uint32_t total, uint64_t used)
{
	t_nodes[t_nnodes].gpus_total = total;
	t_nodes[t_nnodes].free_mask = (total >= 64 ? UINT64_MAX :
	    (UINT64_C(1) << total) - 1) & ~used;
	t_nodes[t_nnodes].schedulable = true;
	t_nnodes++;
}

static size_t
t_pass(size_t max)
{
	return (sched_fifo_pass(t_jobs, t_njobs, t_nodes, t_nnodes, t_out, max,
	    t_reasons));
}

static void
test_helpers(void)
{
	struct sched_node	n = { 4, 0xff, true };

	is_int(sched_mask_count(0), 0, "count of an empty mask");
	is_int(sched_mask_count(UINT64_MAX), 64, "count of a full mask");
	is_int(sched_mask_count(0x8000000000000001ULL), 2, "count of the end bits");
	is_int(sched_mask_lowest(0xf0, 2), 0x30, "lowest two of 0xf0");
	is_int(sched_mask_lowest(0x5, 3), 0, "three of two is none");
	is_int(sched_mask_lowest(0x5, 0), 0, "zero GPUs is no mask");
	ok(sched_mask_lowest(UINT64_MAX, 64) == UINT64_MAX, "all 64 GPUs");
	is_int(sched_node_free(&n), 0xf, "bits above gpus_total are not free");
	n.schedulable = false;
	is_int(sched_node_free(&n), 0, "an unschedulable node has nothing free");
	is_str(sched_reason_name(SCHED_REASON_NONE), "None", "reason None");
	is_str(sched_reason_name(SCHED_REASON_RESOURCES), "Resources",
	    "reason Resources");
	is_str(sched_reason_name(SCHED_REASON_PRIORITY), "Priority",
	    "reason Priority");
	is_str(sched_reason_name((enum sched_reason)42), "Unknown",
	    "an unknown reason still has a name");
}

static void
test_empty(void)
{
	t_reset();
	t_node(4, 0);
	is_int(t_pass(NJOBS), 0, "no jobs: no starts");
	ok(t_nodes[0].free_mask == 0xf, "no jobs: node untouched");

	t_reset();
	t_job(1);
	t_job(1);
	is_int(t_pass(NJOBS), 0, "no nodes: no starts");
	is_int(t_reasons[0], SCHED_REASON_RESOURCES, "no nodes: head waits for Resources");
	is_int(t_reasons[1], SCHED_REASON_PRIORITY, "no nodes: second waits for Priority");

	t_reset();
	is_int(sched_fifo_pass(NULL, 0, NULL, 0, NULL, 0, NULL), 0,
	    "nothing at all: no starts, no access");
}

static void
test_gang(void)
{
	/* Two nodes with 3 free GPUs each: 6 free in all, but a 4-GPU job
	 * needs them on one node. */
	t_reset();
	t_node(4, 0x1);
	t_node(4, 0x8);
	t_job(4);
	is_int(t_pass(NJOBS), 0, "gang: 4 GPUs are not split over two nodes");
	is_int(t_reasons[0], SCHED_REASON_RESOURCES, "gang: waits for Resources");
	ok(t_nodes[0].free_mask == 0xe && t_nodes[1].free_mask == 0x7,
	    "gang: no GPU taken when the job does not start");

	t_reset();
	t_node(4, 0x1);
	t_node(4, 0);
	t_job(4);
	is_int(t_pass(NJOBS), 1, "gang: whole node found");
	is_int(t_out[0].node, 1, "gang: on the node that has all 4");
	ok(t_out[0].gpu_mask == 0xf, "gang: all four GPUs");
	is_int(t_out[0].job, 0, "gang: start names the job index");
	is_int(t_reasons[0], SCHED_REASON_NONE, "started job has reason None");
	ok(t_nodes[1].free_mask == 0, "gang: node now full");
	ok(t_nodes[0].free_mask == 0xe, "gang: other node untouched");
}

static void
test_best_fit(void)
{
	/* Free: 4, 2, 3, 2 GPUs. A 2-GPU job fits best on node 1 (the first
	 * of the two fullest that fit); a 3-GPU job on node 2. */
	t_reset();
	t_node(4, 0);
	t_node(4, 0x3);
	t_node(4, 0x1);
	t_node(4, 0x9);
	t_job(2);
	t_job(3);
	t_job(2);
	t_job(4);
	is_int(t_pass(NJOBS), 4, "best fit: all four start");
	is_int(t_out[0].node, 1, "best fit: 2 GPUs on the first node with exactly 2");
	ok(t_out[0].gpu_mask == 0xc, "best fit: its lowest free GPUs (2,3)");
	is_int(t_out[1].node, 2, "best fit: 3 GPUs on the node with 3 free");
	ok(t_out[1].gpu_mask == 0xe, "best fit: GPUs 1-3");
	is_int(t_out[2].node, 3, "best fit: next 2 GPUs on the other node with 2");
	ok(t_out[2].gpu_mask == 0x6, "best fit: GPUs 1,2");
	is_int(t_out[3].node, 0, "best fit: 4 GPUs on the empty node");
	ok(t_nodes[0].free_mask == 0 && t_nodes[1].free_mask == 0 &&
	    t_nodes[2].free_mask == 0 && t_nodes[3].free_mask == 0,
	    "best fit: every free mask updated");

	/* Fullest that still fits, not the first that fits: 8 free, 1 free,
	 * 5 free; a 1-GPU job goes to node 1, a 4-GPU job to node 2. */
	t_reset();
	t_node(8, 0);
	t_node(8, 0xfe);
	t_node(8, 0x7);
	t_job(1);
	t_job(4);
	is_int(t_pass(NJOBS), 2, "best fit: two start");
	is_int(t_out[0].node, 1, "best fit: 1 GPU fills the almost-full node");
	ok(t_out[0].gpu_mask == 0x1, "best fit: GPU 0 there");
	is_int(t_out[1].node, 2, "best fit: 4 GPUs on the node with 5 free");
	ok(t_out[1].gpu_mask == 0x78, "best fit: GPUs 3-6");
	ok(t_nodes[0].free_mask == 0xff, "best fit: the empty node kept whole");
}

static void
test_strict_order(void)
{
	/* The head needs 4 but only 3 are free on one node; the 1-GPU jobs
	 * behind it would fit, yet must wait. */
	t_reset();
	t_node(4, 0x1);
	t_job(1);
	t_job(4);
	t_job(1);
	t_job(1);
	is_int(t_pass(NJOBS), 1, "strict: only the job before the blocked one starts");
	is_int(t_reasons[0], SCHED_REASON_NONE, "strict: first started");
	is_int(t_reasons[1], SCHED_REASON_RESOURCES, "strict: blocked job waits for Resources");
	is_int(t_reasons[2], SCHED_REASON_PRIORITY, "strict: job behind it waits for Priority");
	is_int(t_reasons[3], SCHED_REASON_PRIORITY, "strict: every job behind it waits for Priority");
	ok(t_nodes[0].free_mask == 0xc, "strict: only the first job's GPU taken");

	/* A job larger than any node blocks the queue too (it may fit once
	 * a bigger node comes back). */
	t_reset();
	t_node(4, 0);
	t_job(8);
	t_job(1);
	is_int(t_pass(NJOBS), 0, "strict: an oversized head blocks");
	is_int(t_reasons[0], SCHED_REASON_RESOURCES, "oversized head: Resources");
	is_int(t_reasons[1], SCHED_REASON_PRIORITY, "behind oversized head: Priority");

	t_reset();
	t_node(4, 0);
	t_job(0);
	t_job(65);
	is_int(t_pass(NJOBS), 0, "a 0-GPU job never starts");
	is_int(t_reasons[0], SCHED_REASON_RESOURCES, "0-GPU job: Resources");
	is_int(t_reasons[1], SCHED_REASON_PRIORITY, "behind it: Priority");
	ok(t_nodes[0].free_mask == 0xf, "0-GPU job takes nothing");
}

static void
test_unschedulable(void)
{
	t_reset();
	t_node(8, 0);
	t_node(2, 0);
	t_nodes[0].schedulable = false;
	t_job(4);
	is_int(t_pass(NJOBS), 0, "unschedulable: a drained node is not used");
	is_int(t_reasons[0], SCHED_REASON_RESOURCES, "unschedulable: Resources");
	ok(t_nodes[0].free_mask == 0xff, "unschedulable: its mask untouched");

	/* The down node would be the best fit; the pass must skip it. */
	t_reset();
	t_node(4, 0x7);
	t_node(4, 0);
	t_nodes[0].schedulable = false;
	t_job(1);
	is_int(t_pass(NJOBS), 1, "unschedulable: job starts elsewhere");
	is_int(t_out[0].node, 1, "unschedulable: on the schedulable node");

	/* Stray bits above gpus_total are not GPUs. */
	t_reset();
	t_node(2, 0);
	t_nodes[0].free_mask = 0xff;
	t_job(3);
	is_int(t_pass(NJOBS), 0, "bits above gpus_total are not GPUs");
}

static void
test_lowest_indices(void)
{
	t_reset();
	t_node(8, 0x25);	/* GPUs 0, 2, 5 taken */
	t_job(3);
	t_job(2);
	is_int(t_pass(NJOBS), 2, "lowest: both start");
	ok(t_out[0].gpu_mask == 0x1a, "lowest: GPUs 1,3,4 for the first");
	ok(t_out[1].gpu_mask == 0xc0, "lowest: GPUs 6,7 for the second");
	ok(t_nodes[0].free_mask == 0, "lowest: node full");

	t_reset();
	t_node(64, 0);
	t_job(64);
	is_int(t_pass(NJOBS), 1, "64-GPU node: whole node job starts");
	ok(t_out[0].gpu_mask == UINT64_MAX, "64-GPU node: every GPU");
}

static void
test_max(void)
{
	int	i;

	t_reset();
	t_node(8, 0);
	for (i = 0; i < 5; i++)
		t_job(1);
	is_int(t_pass(2), 2, "max: at most 2 starts");
	is_int(t_out[0].job, 0, "max: first start is job 0");
	is_int(t_out[1].job, 1, "max: second start is job 1");
	ok(t_out[2].job == (size_t)0xa5a5a5a5a5a5a5a5ULL, "max: nothing written past max");
	is_int(t_reasons[2], SCHED_REASON_PRIORITY, "max: unexamined jobs wait for Priority");
	is_int(t_reasons[4], SCHED_REASON_PRIORITY, "max: the last job has a reason too");
	ok(t_nodes[0].free_mask == 0xfc, "max: only two GPUs taken");

	t_reset();
	t_node(8, 0);
	t_job(1);
	is_int(t_pass(0), 0, "max 0: no starts");
	is_int(t_reasons[0], SCHED_REASON_PRIORITY, "max 0: job still has a reason");

	/* A second pass over the same snapshot picks up where the first
	 * stopped, now that the started jobs are gone from the queue. */
	t_reset();
	t_node(2, 0);
	t_job(1);
	t_job(1);
	t_job(1);
	is_int(t_pass(NJOBS), 2, "full node: two of three start");
	is_int(t_reasons[2], SCHED_REASON_RESOURCES, "full node: third waits for Resources");
	t_nodes[0].free_mask = 0x2;	/* job on GPU 1 ended */
	is_int(sched_fifo_pass(&t_jobs[2], 1, t_nodes, t_nnodes, t_out,
	    NJOBS, t_reasons), 1, "next pass: the waiting job starts");
	ok(t_out[0].gpu_mask == 0x2, "next pass: on the freed GPU");
}

/* The contract of sched.h written the obvious way (a walk over every node
 * for each job), to check the indexed pass against on random snapshots. */
static size_t
t_reference(const struct sched_job *jobs, size_t njobs,
    struct sched_node *nodes, size_t nnodes, struct sched_start *out,
    size_t max, enum sched_reason *reasons)
{
	size_t		i, j, best, n = 0;
	unsigned	avail, best_avail = 0;
	int		blocked = 0;

	for (i = 0; i < njobs; i++) {
		if (blocked || n == max) {
			reasons[i] = SCHED_REASON_PRIORITY;
			continue;
		}
		best = nnodes;
		for (j = 0; j < nnodes && jobs[i].gpus > 0; j++) {
			avail = sched_mask_count(sched_node_free(&nodes[j]));
			if (avail >= jobs[i].gpus &&
			    (best == nnodes || avail < best_avail)) {
				best = j;
				best_avail = avail;
			}
		}
		if (best == nnodes) {
			reasons[i] = SCHED_REASON_RESOURCES;
			blocked = 1;
			continue;
		}
		out[n].job = i;
		out[n].node = best;
		out[n].gpu_mask = sched_mask_lowest(sched_node_free(&nodes[best]),
		    jobs[i].gpus);
		nodes[best].free_mask &= ~out[n].gpu_mask;
		reasons[i] = SCHED_REASON_NONE;
		n++;
	}
	return (n);
}

static void
test_random(void)
{
	enum { RJOBS = 40, RNODES = 24 };
	struct sched_job	jobs[RJOBS];
	struct sched_node	a[RNODES], b[RNODES];
	struct sched_start	oa[RJOBS], ob[RJOBS];
	enum sched_reason	ra[RJOBS], rb[RJOBS];
	size_t			nj, nn, max, na, nb, i;
	int			iter, bad = 0, started = 0;
	static const uint32_t	totals[] = { 1, 2, 4, 8, 8, 8, 16, 64 };

	for (iter = 0; iter < 3000; iter++) {
		nj = tap_rand() % (RJOBS + 1);
		nn = tap_rand() % (RNODES + 1);
		max = tap_rand() % 4 == 0 ? tap_rand() % (RJOBS + 1) : RJOBS;
		for (i = 0; i < nj; i++) {
			jobs[i].id = i;
			jobs[i].gpus = tap_rand() % 10 == 0 ? tap_rand() % 70 :
			    1U << (tap_rand() % 4);
		}
		for (i = 0; i < nn; i++) {
			a[i].gpus_total = totals[tap_rand() % 8];
			/* Random masks, stray bits above the total included. */
			a[i].free_mask = (uint64_t)tap_rand() << 32 | tap_rand();
			if (tap_rand() % 3 == 0)
				a[i].free_mask = UINT64_MAX;
			a[i].schedulable = tap_rand() % 8 != 0;
		}
		memcpy(b, a, sizeof a);
		na = sched_fifo_pass(jobs, nj, a, nn, oa, max, ra);
		nb = t_reference(jobs, nj, b, nn, ob, max, rb);
		started += (int)na;
		if (na != nb || memcmp(a, b, nn * sizeof *a) != 0 ||
		    memcmp(ra, rb, nj * sizeof *ra) != 0) {
			bad++;
			continue;
		}
		for (i = 0; i < na; i++) {
			if (oa[i].job != ob[i].job || oa[i].node != ob[i].node ||
			    oa[i].gpu_mask != ob[i].gpu_mask)
				bad++;
		}
	}
	is_int(bad, 0, "random: 3000 snapshots agree with the plain walk "
	    "(%d starts)", started);
}

int
main(void)
{
	test_helpers();
	test_empty();
	test_gang();
	test_best_fit();
	test_strict_order();
	test_unschedulable();
	test_lowest_indices();
	test_max();
	test_random();
	return (tap_done());
}
