/* sched-resv-test.c: backfill's reservation (policy/sched-resv.c) on
 * hand-made timelines: the earliest start among the running jobs' ends,
 * a placement the job accepts rather than a count of GPUs, ties given back
 * together, unknown ends, the walk's bound, overdue runs and the cluster
 * left as found. Which later jobs a promise lets start is the core's
 * (sched-backfill-test.c). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/place.h"
#include "policy/sched-resv.h"
#include "tests/unit/tap.h"

#define MAXA	16

/* The timeline most tests share, 2 nodes of 4 GPUs:
 *   node 0: A holds GPUs 0-3 until 100
 *   node 1: B holds GPUs 0-1 until 50, C holds GPUs 2-3 until 200
 * runs sorted by end: B (50), A (100), C (200). */
static struct place_alloc	t_a = { .node = 0, .mask = 0xf };
static struct place_alloc	t_b = { .node = 1, .mask = 0x3 };
static struct place_alloc	t_c = { .node = 1, .mask = 0xc };
static struct sched_resv_run	t_runs[3];
static struct place_alloc	t_plan[MAXA];

static struct place_cluster *
t_cluster(void)
{
	struct place_cluster	*cl = place_cluster_create(7);

	place_node_add(cl, 4, 0);
	place_node_add(cl, 4, 0);
	place_take(cl, &t_a, 1);
	place_take(cl, &t_b, 1);
	place_take(cl, &t_c, 1);
	t_runs[0] = (struct sched_resv_run){ &t_b, 1, 50 };
	t_runs[1] = (struct sched_resv_run){ &t_a, 1, 100 };
	t_runs[2] = (struct sched_resv_run){ &t_c, 1, 200 };
	return (cl);
}

static struct sched_resv
t_find(struct place_cluster *cl, const struct place_want *w,
    const struct sched_resv_run *runs, size_t n, size_t max, int64_t now)
{
	struct sched_resv	r;

	memset(t_plan, 0, sizeof t_plan);
	r.plan = t_plan;
	sched_resv_find(cl, SCHED_PLACE_CONSOLIDATE, w, runs, n, max, now,
	    &r);
	return (r);
}

/* Whether the cluster is as t_cluster left it. */
static bool
t_as_found(const struct place_cluster *cl)
{
	return (place_free_total(cl) == 0 &&
	    place_node_free_mask(cl, 0) == 0 &&
	    place_node_free_mask(cl, 1) == 0);
}

static void
t_earliest(void)
{
	struct place_cluster	*cl = t_cluster();
	struct place_want	 w = { .gpus = 4 };
	struct sched_resv	 r;

	/* At 50 two GPUs are free: too few. At 100 node 0 is whole. */
	r = t_find(cl, &w, t_runs, 3, 0, 10);
	is_int(r.start, 100, "4 GPUs: promised at A's end, 100");
	is_int(r.nplan, 1, "on one node");
	is_int(t_plan[0].node, 0, "node 0");
	is_int(t_plan[0].mask, 0xf, "all of its GPUs");
	is_int(r.walked, 2, "B and A were given back, C not");
	ok(t_as_found(cl), "the cluster is left as found");

	/* Two GPUs: at 50, on node 1's first two. */
	w.gpus = 2;
	r = t_find(cl, &w, t_runs, 3, 0, 10);
	is_int(r.start, 50, "2 GPUs: at B's end, 50");
	is_int(t_plan[0].node, 1, "on node 1");
	is_int(t_plan[0].mask, 0x3, "B's GPUs");
	is_int(r.walked, 1, "B alone was given back");
	ok(t_as_found(cl), "and the cluster is left as found again");
	place_cluster_free(cl);
}

static void
t_shape(void)
{
	struct place_cluster	*cl = t_cluster();
	struct place_want	 w = { .gpus = 6 };
	struct sched_resv	 r;

	/* At 100, 6 GPUs are free (4 + 2), but an even split is 3 + 3:
	 * node 1 has 2 until C ends. */
	r = t_find(cl, &w, t_runs, 3, 0, 10);
	is_int(r.start, 200, "6 GPUs split evenly: at C's end, 200, "
	    "not when 6 are free at 100");
	is_int(r.nplan, 2, "on both nodes");
	/* Any shape takes the 6 free at 100. */
	w.any_shape = true;
	r = t_find(cl, &w, t_runs, 3, 0, 10);
	is_int(r.start, 100, "6 GPUs of any shape: at 100");
	ok(t_as_found(cl), "the cluster is left as found");
	place_cluster_free(cl);
}

static void
t_nodes(void)
{
	struct place_cluster	*cl = t_cluster();
	uint32_t		 only0 = 0;
	struct place_want	 w = { .gpus = 2, .nodes = &only0,
	    .nlisted = 1 };
	struct sched_resv	 r;

	/* Bound to node 0 (a partition): B's end frees nothing there. */
	r = t_find(cl, &w, t_runs, 3, 0, 10);
	is_int(r.start, 100, "2 GPUs on node 0 alone: at A's end, 100");
	is_int(t_plan[0].node, 0, "on node 0");
	place_cluster_free(cl);
}

static void
t_now_and_overdue(void)
{
	struct place_cluster	*cl = t_cluster();
	struct place_want	 w = { .gpus = 2 };
	struct sched_resv	 r;

	/* B was expected to end at 50; it is 70 and it runs still. */
	r = t_find(cl, &w, t_runs, 3, 0, 70);
	is_int(r.start, 70, "an overdue run's GPUs are promised for now, "
	    "not for the past");
	place_release(cl, &t_b, 1);
	r = t_find(cl, &w, t_runs + 1, 2, 0, 70);
	is_int(r.start, 70, "a job that fits already starts now");
	is_int(r.walked, 0, "and nothing was given back");
	is_int(t_plan[0].mask, 0x3, "on the free GPUs");
	place_cluster_free(cl);
}

static void
t_ties(void)
{
	struct place_cluster	*cl = place_cluster_create(7);
	struct place_alloc	 x = { .node = 0, .mask = 0x3 }, y = { .node = 0, .mask = 0xc };
	struct place_alloc	 z = { .node = 1, .mask = 0x1 };
	struct sched_resv_run	 runs[3] = {
		{ &z, 1, 100 }, { &x, 1, 100 }, { &y, 1, 100 },
	};
	struct place_want	 w = { .gpus = 4 };
	struct sched_resv	 r;

	place_node_add(cl, 4, 0);
	place_node_add(cl, 4, 0);
	place_take(cl, &x, 1);
	place_take(cl, &y, 1);
	place_take(cl, &z, 1);
	/* Node 1 has 3 free now: 4 on one node only once x and y end. */
	r = t_find(cl, &w, runs, 3, 0, 0);
	is_int(r.start, 100, "at 100");
	is_int(r.walked, 3, "every run ending at 100 was given back first");
	is_int(r.nplan, 1, "one node");
	ok(place_free_total(cl) == 3 && place_node_free_mask(cl, 1) == 0xe,
	    "the cluster is left as found");
	place_cluster_free(cl);
}

static void
t_never_and_bound(void)
{
	struct place_cluster	*cl = t_cluster();
	struct place_want	 w = { .gpus = 8 };
	struct sched_resv	 r;

	t_runs[2].end = SCHED_RESV_NEVER;
	r = t_find(cl, &w, t_runs, 3, 0, 10);
	is_int(r.start, SCHED_RESV_NEVER, "8 GPUs need C's, whose end is "
	    "not known: no promise");
	is_int(r.walked, 2, "the unknown end was not given back");
	ok(t_as_found(cl), "the cluster is left as found");
	t_runs[2].end = 200;
	r = t_find(cl, &w, t_runs, 3, 0, 10);
	is_int(r.start, 200, "with C's end known: at 200");
	r = t_find(cl, &w, t_runs, 3, 2, 10);
	is_int(r.start, SCHED_RESV_NEVER, "a walk of 2 runs at most finds "
	    "none");
	is_int(r.walked, 2, "having given back 2");
	ok(t_as_found(cl), "the cluster is left as found");
	place_cluster_free(cl);
}

int
main(void)
{
	t_earliest();
	t_shape();
	t_nodes();
	t_now_and_overdue();
	t_ties();
	t_never_and_bound();
	return (tap_done());
}
