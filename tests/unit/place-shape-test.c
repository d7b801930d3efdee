/* place-shape-test.c: placement in shapes (policy/place-shape.c): exact
 * shapes (k nodes of g GPUs) under each policy, on listed nodes alone and
 * under one switch; even splits for a job that asks for no shape, the
 * fewest nodes first; any shape as place_find has it. Worked by hand. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/place.h"
#include "policy/sched.h"
#include "tests/unit/tap.h"

#define MAXA	64

static struct place_alloc	t_out[MAXA];

/* Nodes of gpus GPUs, node i under switch sw[i] (NULL: all under 0), with
 * used[i] taken on it. */
static struct place_cluster *
t_cluster(uint32_t n, uint32_t gpus, const uint32_t *sw, const uint64_t *used)
{
	struct place_cluster	*cl = place_cluster_create(7);
	struct place_alloc	 a = { 0 };
	uint32_t		 i;

	for (i = 0; i < n; i++) {
		place_node_add(cl, gpus, sw != NULL ? sw[i] : 0);
		if (used[i] != 0) {
			a.node = i;
			a.mask = used[i];
			place_take(cl, &a, 1);
		}
	}
	return (cl);
}

static unsigned
t_count(size_t n)
{
	unsigned	c = 0;
	size_t		i;

	for (i = 0; i < n; i++)
		c += sched_mask_count(t_out[i].mask);
	return (c);
}

/* The nodes of a placement of n parts as a bit set, and whether every
 * part has per GPUs. */
static uint32_t
t_nodes(size_t n, unsigned per, bool *even)
{
	uint32_t	set = 0;
	size_t		i;

	*even = true;
	for (i = 0; i < n; i++) {
		set |= UINT32_C(1) << t_out[i].node;
		if (sched_mask_count(t_out[i].mask) != per)
			*even = false;
	}
	return (set);
}

static size_t
t_want(struct place_cluster *cl, enum sched_placement how, uint32_t gpus,
    uint32_t nnodes, bool any, bool sensitive)
{
	struct place_want	w = {
		.gpus = gpus,
		.nnodes = nnodes,
		.any_shape = any,
		.sensitive = sensitive,
	};

	return (place_find_want(cl, how, &w, t_out));
}

static void
test_exact(void)
{
	/* Free 1, 3, 4, 4. */
	uint64_t		 used[] = { 0x7, 0x1, 0, 0 };
	uint32_t		 list[] = { 0, 1, 2, 1 };
	struct place_cluster	*cl = t_cluster(4, 4, NULL, used);
	bool			 even;
	size_t			 n;

	n = place_find_shape(cl, SCHED_PLACE_CONSOLIDATE, 2, 3, NULL, 0,
	    t_out);
	is_int(n, 2, "exact 2x3: two parts");
	ok(t_nodes(n, 3, &even) & 0x2, "exact 2x3 consolidate: best fit first, "
	    "the node with 3 free");
	ok(even, "exact 2x3: 3 GPUs on each");
	is_int(place_node_free_mask(cl, 1), 0xe, "exact: find takes nothing");

	n = place_find_shape(cl, SCHED_PLACE_SPREAD, 3, 1, NULL, 0, t_out);
	is_int(t_nodes(n, 1, &even), 0xe, "exact 3x1 spread: the emptiest "
	    "three (nodes 1, 2, 3), not the node with 1 free");
	ok(even, "exact 3x1: 1 GPU on each");

	n = place_find_shape(cl, SCHED_PLACE_YARN, 2, 3, NULL, 0, t_out);
	is_int(t_nodes(n, 3, &even), 0x6, "exact 2x3 yarn: the first two "
	    "that hold 3, nodes 1 and 2");

	n = place_find_shape(cl, SCHED_PLACE_RANDOM, 2, 4, NULL, 0, t_out);
	is_int(t_nodes(n, 4, &even), 0xc, "exact 2x4 random: the only two "
	    "nodes with 4 free");

	is_int(place_find_shape(cl, SCHED_PLACE_CONSOLIDATE, 3, 4, NULL, 0,
	    t_out), 0, "exact 3x4: two nodes have 4 free: none");
	is_int(place_find_shape(cl, SCHED_PLACE_CONSOLIDATE, 1, 5, NULL, 0,
	    t_out), 0, "exact 1x5: more than any node has: none");
	is_int(place_find_shape(cl, SCHED_PLACE_CONSOLIDATE, 5, 1, NULL, 0,
	    t_out), 0, "exact 5x1: more nodes than the cluster's: none");

	/* Listed nodes 0, 1, 2 (1 twice): 2 x 3 fits on 1 and 2 alone. */
	n = place_find_shape(cl, SCHED_PLACE_CONSOLIDATE, 2, 3, list, 4,
	    t_out);
	is_int(t_nodes(n, 3, &even), 0x6, "exact 2x3 on listed nodes: 1, 2");
	is_int(place_find_shape(cl, SCHED_PLACE_CONSOLIDATE, 2, 4, list, 4,
	    t_out), 0, "exact 2x4 on listed nodes: only node 2 has 4: none");
	place_cluster_free(cl);
}

static void
test_switch(void)
{
	/* Switch 0: nodes 0 (2 free) and 1 (4); switch 1: nodes 2 (2) and
	 * 3 (3). Best fit order 0, 2, 3, 1: switch 1 gathers two first. */
	uint32_t		 sw[] = { 0, 0, 1, 1 };
	uint64_t		 used[] = { 0x3, 0, 0x3, 0x1 };
	struct place_cluster	*cl = t_cluster(4, 4, sw, used);
	bool			 even;
	size_t			 n;

	n = place_find_shape(cl, SCHED_PLACE_CONSOLIDATE, 2, 2, NULL, 0,
	    t_out);
	is_int(t_nodes(n, 2, &even), 0xc, "switch: 2x2 under one switch, the "
	    "tighter one (nodes 2 and 3), not the two fullest (0 and 2)");
	n = place_find_shape(cl, SCHED_PLACE_CONSOLIDATE, 3, 2, NULL, 0,
	    t_out);
	is_int(t_nodes(n, 2, &even), 0xd, "switch: 3x2, which no switch "
	    "holds, across switches: the fullest three, 0, 2, 3");
	ok(even, "switch: 2 on each");
	place_cluster_free(cl);
}

static void
test_even(void)
{
	/* Free 1, 3, 4, 4. */
	uint64_t		 used[] = { 0x7, 0x1, 0, 0 };
	struct place_cluster	*cl = t_cluster(4, 4, NULL, used);
	uint32_t		 set;
	bool			 even;
	size_t			 n;

	n = t_want(cl, SCHED_PLACE_CONSOLIDATE, 3, 0, false, false);
	is_int(t_nodes(n, 3, &even), 0x2, "even: 3 GPUs on one node, the "
	    "best fit");
	n = t_want(cl, SCHED_PLACE_CONSOLIDATE, 6, 0, false, false);
	set = t_nodes(n, 3, &even);
	ok(n == 2 && (set == 0x6 || set == 0xa), "even: 6 on 4-GPU nodes: two "
	    "nodes, the best fit (node 1) and an idle one");
	is_int(t_out[0].node, 1, "even: ranks in node order, node 1 first");
	ok(even, "even: 3 and 3");
	n = t_want(cl, SCHED_PLACE_CONSOLIDATE, 6, 0, true, false);
	is_int(t_count(n), 6, "any shape: 6 GPUs");
	t_nodes(n, 3, &even);
	ok(!even, "any shape: 4 + 2, not even");
	n = t_want(cl, SCHED_PLACE_CONSOLIDATE, 8, 0, false, true);
	is_int(t_nodes(n, 4, &even), 0xc, "even, sensitive: 8 as 2 x 4");
	/* 12 GPUs: 3 x 4 does not fit (two nodes have 4), 4 x 3 does not
	 * (node 0 has 1), 6 x 2 needs six nodes, 12 x 1 twelve. */
	is_int(t_want(cl, SCHED_PLACE_CONSOLIDATE, 12, 0, false, false), 0,
	    "even: 12 of 12 free, no even split: waits");
	is_int(t_want(cl, SCHED_PLACE_CONSOLIDATE, 12, 0, true, false), 4,
	    "any shape: 12 of 12 free on four nodes");
	/* 7 is prime: one node, or 7 x 1. */
	is_int(t_want(cl, SCHED_PLACE_CONSOLIDATE, 7, 0, false, false), 0,
	    "even: 7 GPUs on four 4-GPU nodes: none");
	n = t_want(cl, SCHED_PLACE_CONSOLIDATE, 4, 0, false, false);
	is_int(n, 1, "even: 4 GPUs fit one node: one node");
	n = t_want(cl, SCHED_PLACE_CONSOLIDATE, 9, 3, false, false);
	is_int(n, 3, "exact via place_want: 3 x 3");
	is_int(t_want(cl, SCHED_PLACE_CONSOLIDATE, 9, 2, false, false), 0,
	    "exact via place_want: 9 over 2 nodes is no shape");
	place_cluster_free(cl);
}

static void
test_res(void)
{
	/* Four 4-GPU nodes of 16 CPUs and 64 GB (65536 MB), idle. */
	uint64_t		 used[] = { 0, 0, 0, 0 };
	struct place_cluster	*cl = t_cluster(4, 4, NULL, used);
	struct place_res	 share = { .cpus_share = true,
				    .mem_share = true };
	struct place_res	 big = { .cpus_gpu = 6, .mem_node = 1024 };
	struct place_want	 w = { .gpus = 2, .res = &share };
	struct place_alloc	 a = { 0 };
	uint32_t		 i, cpus;
	uint64_t		 mem;
	bool			 even;
	size_t			 n;

	for (i = 0; i < 4; i++)
		place_node_set_res(cl, i, 16, 65536);
	place_res_need(cl, 0, &share, 2, &cpus, &mem);
	is_int(cpus, 8, "res: the node's share of CPUs for 2 of its 4 GPUs");
	is_int(mem, 32768, "res: and of its memory");
	place_res_need(cl, 0, &big, 2, &cpus, &mem);
	ok(cpus == 12 && mem == 1024, "res: 6 CPUs a GPU, 1 GB a node");
	n = place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out);
	is_int(n, 1, "res: 2 GPUs with their share on one node");
	ok(t_out[0].cpus == 8 && t_out[0].mem == 32768,
	    "res: the part carries its CPUs and memory");
	/* Node 0's CPUs all held by a job of no GPUs' worth beside them:
	 * its free GPUs no longer hold a job that needs CPUs. */
	a.node = 0;
	a.cpus = 16;
	place_take(cl, &a, 1);
	is_int(place_node_cpus_free(cl, 0), 0, "res: take holds CPUs");
	w.gpus = 4;
	w.res = &big;		/* 24 CPUs: more than a node has */
	w.nnodes = 1;
	is_int(place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out), 0,
	    "res: 4 GPUs x 6 CPUs on one node fit no 16-CPU node: none");
	w.nnodes = 0;
	n = place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out);
	ok(n == 2 && t_out[0].cpus == 12 && t_out[1].cpus == 12,
	    "res: an even split does: 2 x 2 GPUs with 12 CPUs each");
	big.cpus_gpu = 4;	/* 16 CPUs, not on node 0 */
	n = place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out);
	ok(n == 1 && t_out[0].node != 0, "res: 4 x 4 CPUs on a node with "
	    "its CPUs free, not node 0");
	/* 8 GPUs even: 2 x 4 on nodes 1-3, never node 0. */
	w.gpus = 8;
	n = place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out);
	is_int(t_nodes(n, 4, &even) & 0x1, 0, "res: even split avoids the "
	    "node without CPUs");
	is_int(n, 2, "res: on two nodes");
	/* Any shape that lands on node 0 is refused whole. */
	w.any_shape = true;
	w.gpus = 16;
	is_int(place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out), 0,
	    "res: any shape needing node 0's GPUs: none");
	place_release(cl, &a, 1);
	is_int(place_node_cpus_free(cl, 0), 16, "res: release frees them");
	/* Memory alone short. */
	w.any_shape = false;
	w.gpus = 1;
	big.cpus_gpu = 1;
	big.mem_node = 70000;
	is_int(place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out), 0,
	    "res: more memory than a node has: none");
	place_cluster_free(cl);
}

/* The default share on a node with fewer CPUs than GPUs (the quickstart's
 * 2 CPUs beside 4 GPUs): it rounds down, to no CPU for one GPU, so that
 * one-GPU jobs fill every GPU rather than leave two idle for want of
 * CPUs. */
static void
test_res_few_cpus(void)
{
	uint64_t		 used[] = { 0 };
	struct place_cluster	*cl = t_cluster(1, 4, NULL, used);
	struct place_res	 share = { .cpus_share = true };
	struct place_want	 w = { .gpus = 1, .res = &share };
	uint32_t		 cpus, k, placed = 0;
	uint64_t		 mem;

	place_node_set_res(cl, 0, 2, 8192);
	place_res_need(cl, 0, &share, 1, &cpus, &mem);
	is_int(cpus, 0, "few CPUs: one GPU's share is no CPU");
	place_res_need(cl, 0, &share, 2, &cpus, &mem);
	is_int(cpus, 1, "few CPUs: two GPUs' share is one");
	place_res_need(cl, 0, &share, 4, &cpus, &mem);
	is_int(cpus, 2, "few CPUs: all four, both");
	for (k = 0; k < 4; k++) {
		if (place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w,
		    t_out) == 1) {
			place_take(cl, t_out, 1);
			placed++;
		}
	}
	is_int(placed, 4, "few CPUs: four one-GPU jobs take all four GPUs");
	place_cluster_free(cl);
}

int
main(void)
{
	test_exact();
	test_switch();
	test_even();
	test_res();
	test_res_few_cpus();
	return (tap_done());
}
