/* place-test.c: GPU placement (policy/place.c) on small hand-built
 * clusters: consolidate (best fit, fewest nodes, one switch when it can),
 * consolidation-sensitive jobs, yarn (first fit, whole idle nodes), spread
 * (emptiest first), random (seeded, valid), take and release, down nodes
 * and the free totals, CPU jobs (no GPU; the nodes with the fewest free
 * GPUs first, CPUs and memory counted). Expected placements follow docs/scheduling.md. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/place.h"
#include "policy/sched.h"
#include "tests/unit/tap.h"

#define MAXA	64

static struct place_alloc	t_out[MAXA];

/* A cluster of n nodes of gpus GPUs each under switch 0, with used[i]
 * already taken on node i (used may be NULL). */
static struct place_cluster *
t_cluster(uint32_t n, uint32_t gpus, const uint64_t *used)
{
	struct place_cluster	*cl = place_cluster_create(7);
	struct place_alloc	 a = { 0 };
	uint32_t		 i;

	for (i = 0; i < n; i++) {
		place_node_add(cl, gpus, 0);
		if (used != NULL && used[i] != 0) {
			a.node = i;
			a.mask = used[i];
			place_take(cl, &a, 1);
		}
	}
	return (cl);
}

/* The mask placed on node, or 0 when the placement does not use it. */
static uint64_t
t_on(size_t n, uint32_t node)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (t_out[i].node == node)
			return (t_out[i].mask);
	}
	return (0);
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

static void
test_consolidate(void)
{
	struct place_cluster	*cl;
	uint64_t		 used1[] = { 0, 0x3 };
	uint64_t		 used2[] = { 0, 0, 0x3 };
	uint64_t		 used3[] = { 0, 0x1, 0x1 };
	size_t			 n;

	/* Free 4 and 2: a 2-GPU job fills the node with exactly 2. */
	cl = t_cluster(2, 4, used1);
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 2, false, t_out);
	is_int(n, 1, "consolidate: 2 GPUs on one node");
	is_int(t_out[0].node, 1, "consolidate: best fit, the node with 2 free");
	is_int(t_out[0].mask, 0xc, "consolidate: its free GPUs 2 and 3");
	is_int(place_node_free_mask(cl, 1), 0xc, "find takes nothing");
	place_cluster_free(cl);

	/* Free 4, 4, 2: 6 GPUs take a whole empty node (the first) and the
	 * best fit for the other 2, node 2, rather than the second empty. */
	cl = t_cluster(3, 4, used2);
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 6, false, t_out);
	is_int(n, 2, "consolidate: 6 GPUs on 4-GPU nodes span two nodes");
	is_int(t_on(n, 0), 0xf, "consolidate: node 0 whole");
	is_int(t_on(n, 2), 0xc, "consolidate: the rest on the node with 2");
	is_int(t_on(n, 1), 0, "consolidate: the other empty node kept");
	place_cluster_free(cl);

	/* Free 4, 3, 3 (11): 10 GPUs need all three nodes. */
	cl = t_cluster(3, 4, used3);
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 10, false, t_out);
	is_int(n, 3, "consolidate: 10 of 11 free on three nodes");
	is_int(t_count(n), 10, "consolidate: exactly 10 GPUs");
	is_int(place_find(cl, SCHED_PLACE_CONSOLIDATE, 12, false, t_out), 0,
	    "consolidate: 12 GPUs with 11 free: none");
	is_int(place_find(cl, SCHED_PLACE_CONSOLIDATE, 0, false, t_out), 0,
	    "consolidate: a 0-GPU job gets nothing");
	place_cluster_free(cl);
}

static void
test_switch(void)
{
	struct place_cluster	*cl;
	struct place_alloc	 a = { 0 };
	size_t			 n;

	/* Switch 0: nodes 0 and 1, free 3 and 4 (7); switch 1: nodes 2 and
	 * 3, free 4 and 2 (6). A 6-GPU job goes under switch 1, which holds
	 * it most tightly, though node 1 is the lower empty node. */
	cl = place_cluster_create(1);
	place_node_add(cl, 4, 0);
	place_node_add(cl, 4, 0);
	place_node_add(cl, 4, 1);
	place_node_add(cl, 4, 1);
	a.node = 0;
	a.mask = 0x1;
	place_take(cl, &a, 1);
	a.node = 3;
	a.mask = 0x3;
	place_take(cl, &a, 1);
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 6, false, t_out);
	is_int(n, 2, "switch: two nodes");
	is_int(t_on(n, 2), 0xf, "switch: node 2 whole");
	is_int(t_on(n, 3), 0xc, "switch: node 3's two free GPUs");
	/* 8 GPUs: no switch holds them; across switches. */
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 8, false, t_out);
	ok(n >= 2 && t_count(n) == 8, "switch: 8 GPUs across switches");
	place_cluster_free(cl);
}

static void
test_sensitive(void)
{
	struct place_cluster	*cl;
	uint64_t		 used[] = { 0x1, 0x8 };
	size_t			 n;

	/* Free 3 and 3: 6 GPUs are free, but a sensitive 4-GPU job insists
	 * on ceil(4 / 4) = 1 node and waits. */
	cl = t_cluster(2, 4, used);
	is_int(place_find(cl, SCHED_PLACE_CONSOLIDATE, 4, true, t_out), 0,
	    "sensitive: 4 GPUs on one node or none");
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 4, false, t_out);
	is_int(n, 2, "not sensitive: the same job spans two nodes");
	is_int(t_count(n), 4, "not sensitive: 4 GPUs");
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 3, true, t_out);
	is_int(n, 1, "sensitive: 3 GPUs fit one node");
	place_cluster_free(cl);

	/* Idle 4 + 4: a sensitive job keeps to its fewest nodes under any
	 * placement; spread would otherwise use both. */
	cl = t_cluster(2, 4, NULL);
	n = place_find(cl, SCHED_PLACE_SPREAD, 4, true, t_out);
	is_int(n, 1, "sensitive under spread: one node");
	is_int(t_out[0].mask, 0xf, "sensitive under spread: all of it");
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 8, true, t_out);
	is_int(n, 2, "sensitive: 8 GPUs on two nodes is the fewest");
	place_cluster_free(cl);
}

static void
test_yarn(void)
{
	struct place_cluster	*cl;
	uint64_t		 used1[] = { 0x1, 0x3 };
	uint64_t		 used2[] = { 0x1, 0, 0x3, 0 };
	uint64_t		 used3[] = { 0x1, 0x1, 0x1 };
	size_t			 n;

	/* Free 3 and 2: first fit puts 2 GPUs on node 0, where best fit
	 * would take node 1. */
	cl = t_cluster(2, 4, used1);
	n = place_find(cl, SCHED_PLACE_YARN, 2, false, t_out);
	is_int(n, 1, "yarn: 2 GPUs on one node");
	is_int(t_out[0].node, 0, "yarn: the first node with room");
	is_int(t_out[0].mask, 0x6, "yarn: its lowest free GPUs 1 and 2");
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 2, false, t_out);
	is_int(t_out[0].node, 1, "consolidate on the same: node 1");
	place_cluster_free(cl);

	/* Free 3, 4, 2, 4: 6 GPUs take the first idle node (1) whole and
	 * the first other node with room for 2 (node 0). */
	cl = t_cluster(4, 4, used2);
	n = place_find(cl, SCHED_PLACE_YARN, 6, false, t_out);
	is_int(n, 2, "yarn: 6 GPUs on two nodes");
	is_int(t_on(n, 1), 0xf, "yarn: the first idle node whole");
	is_int(t_on(n, 0), 0x6, "yarn: the remainder first fit on node 0");
	n = place_find(cl, SCHED_PLACE_YARN, 10, false, t_out);
	is_int(n, 3, "yarn: 10 GPUs, two idle nodes and a remainder");
	ok(t_on(n, 1) == 0xf && t_on(n, 3) == 0xf && t_on(n, 0) == 0x6,
	    "yarn: nodes 1 and 3 whole, 2 GPUs of node 0");
	place_cluster_free(cl);

	/* Free 3, 3, 3: 9 GPUs free but no idle node for a 5-GPU job. */
	cl = t_cluster(3, 4, used3);
	is_int(place_find(cl, SCHED_PLACE_YARN, 5, false, t_out), 0,
	    "yarn: waits without a whole idle node");
	is_int(place_find(cl, SCHED_PLACE_CONSOLIDATE, 5, false, t_out), 2,
	    "consolidate places the same job on two nodes");
	place_cluster_free(cl);
}

static void
test_spread(void)
{
	struct place_cluster	*cl;
	uint64_t		 used[] = { 0, 0x3, 0x1 };
	size_t			 n;

	/* Free 4, 2, 3. */
	cl = t_cluster(3, 4, used);
	n = place_find(cl, SCHED_PLACE_SPREAD, 1, false, t_out);
	is_int(n, 1, "spread: 1 GPU on one node");
	is_int(t_out[0].node, 0, "spread: the emptiest node");
	n = place_find(cl, SCHED_PLACE_SPREAD, 6, false, t_out);
	is_int(n, 2, "spread: 6 GPUs on two nodes");
	is_int(t_on(n, 0), 0xf, "spread: the emptiest whole");
	is_int(t_on(n, 2), 0x6, "spread: then the next emptiest (3 free)");
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 6, false, t_out);
	is_int(t_on(n, 1), 0xc, "consolidate instead tops up the node with 2");
	n = place_find(cl, SCHED_PLACE_SPREAD, 9, false, t_out);
	is_int(n, 3, "spread: 9 GPUs, every free one");
	place_cluster_free(cl);
}

/* Runs 40 random placements, taking each, and writes node and mask of
 * each into log. Returns the number of invalid placements. */
static int
t_random_run(uint64_t seed, uint64_t *log)
{
	struct place_cluster	*cl = place_cluster_create(seed);
	uint64_t		 seen[8];
	uint32_t		 gpus;
	size_t			 n, i;
	int			 k, bad = 0;

	for (i = 0; i < 8; i++)
		place_node_add(cl, 8, (uint32_t)i / 4);
	for (k = 0; k < 40; k++) {
		gpus = 1 + (uint32_t)k % 5;
		if (place_free_total(cl) < gpus) {
			/* Empty the cluster and go on. */
			for (i = 0; i < 8; i++) {
				t_out[0].node = (uint32_t)i;
				t_out[0].mask = 0xff;
				place_release(cl, t_out, 1);
			}
		}
		memset(seen, 0, sizeof seen);
		n = place_find(cl, SCHED_PLACE_RANDOM, gpus, false, t_out);
		if (n == 0 || t_count(n) != gpus)
			bad++;
		for (i = 0; i < n; i++) {
			if ((t_out[i].mask &
			    ~place_node_free_mask(cl, t_out[i].node)) != 0 ||
			    seen[t_out[i].node] != 0)
				bad++;
			seen[t_out[i].node] = 1;
		}
		log[k] = (uint64_t)t_out[0].node << 32 | t_out[0].mask;
		place_take(cl, t_out, n);
	}
	place_cluster_free(cl);
	return (bad);
}

static void
test_random(void)
{
	uint64_t	a[40], b[40];
	int		k, nodes = 0, bada, badb;
	uint64_t	used = 0;

	bada = t_random_run(42, a);
	badb = t_random_run(42, b);
	is_int(bada + badb, 0, "random: every placement valid and exact");
	ok(memcmp(a, b, sizeof a) == 0, "random: the same seed, the same run");
	for (k = 0; k < 40; k++)
		used |= UINT64_C(1) << (a[k] >> 32);
	for (k = 0; k < 8; k++)
		nodes += (used >> k) & 1;
	ok(nodes >= 4, "random: 40 placements use %d of 8 nodes", nodes);
}

static void
test_take_release(void)
{
	struct place_cluster	*cl = t_cluster(2, 4, NULL);
	size_t			 n;

	is_int(place_free_total(cl), 8, "totals: 8 free");
	is_int(place_gpus_total(cl), 8, "totals: 8 GPUs");
	is_int(place_nodes(cl), 2, "totals: 2 nodes");
	is_int(place_node_gpus(cl, 1), 4, "totals: node 1 has 4");
	n = place_find(cl, SCHED_PLACE_CONSOLIDATE, 6, false, t_out);
	place_take(cl, t_out, n);
	is_int(place_free_total(cl), 2, "take: 2 free of 8");
	is_int(place_gpus_total(cl), 8, "take: still 8 GPUs");
	is_int(sched_mask_count(place_node_free_mask(cl, 0)) +
	    sched_mask_count(place_node_free_mask(cl, 1)), 2,
	    "take: the masks agree with the total");
	place_release(cl, t_out, n);
	is_int(place_free_total(cl), 8, "release: 8 free again");
	ok(place_node_free_mask(cl, 0) == 0xf &&
	    place_node_free_mask(cl, 1) == 0xf, "release: masks whole again");
	place_cluster_free(cl);
}

static void
test_down(void)
{
	struct place_cluster	*cl;
	uint64_t		 used[] = { 0x7, 0 };
	struct place_alloc	 a = { 0 };
	size_t			 n;

	/* Node 0 has 1 free, node 1 has 4; with node 1 down only 1 is
	 * offered, so a 2-GPU job waits. */
	cl = t_cluster(2, 4, used);
	place_node_set_up(cl, 1, false);
	is_int(place_free_total(cl), 1, "down: its GPUs are not free");
	is_int(place_gpus_total(cl), 4, "down: nor counted");
	is_int(place_find(cl, SCHED_PLACE_CONSOLIDATE, 2, false, t_out), 0,
	    "down: a 2-GPU job gets nothing");
	n = place_find(cl, SCHED_PLACE_SPREAD, 1, false, t_out);
	ok(n == 1 && t_out[0].node == 0, "down: spread avoids the down node");
	n = place_find(cl, SCHED_PLACE_RANDOM, 1, false, t_out);
	ok(n == 1 && t_out[0].node == 0, "down: random avoids it too");
	/* GPUs freed on node 0 while node 1 is down. */
	a.node = 0;
	a.mask = 0x7;
	place_release(cl, &a, 1);
	is_int(place_free_total(cl), 4, "down: node 0 back to 4 free");
	place_node_set_up(cl, 1, true);
	is_int(place_free_total(cl), 8, "up again: 8 free");
	is_int(place_gpus_total(cl), 8, "up again: 8 GPUs");
	n = place_find(cl, SCHED_PLACE_YARN, 8, false, t_out);
	is_int(n, 2, "up again: an 8-GPU job finds both nodes");
	place_cluster_free(cl);
}

/* CPU jobs: 3 nodes of 4 GPUs and 16 CPUs, 64 GB; node 1 has all its
 * GPUs taken, node 2 one. */
static void
test_cpus(void)
{
	uint64_t		 used[] = { 0, 0xf, 0x1 }, held;
	struct place_cluster	*cl = t_cluster(3, 4, used);
	struct place_res	 r = { .cpus_node = 6, .mem_node = 1000 };
	struct place_want	 w = { .gpus = 0, .res = &r };
	uint32_t		 only[] = { 2, 0 };
	uint64_t		 gpus;
	size_t			 n, i;

	for (i = 0; i < 3; i++)
		place_node_set_res(cl, (uint32_t)i, 16, 65536);
	is_int(place_cpus_known(cl, &gpus), 48, "cpus: 48 CPUs known");
	is_int(gpus, 12, "cpus: beside 12 GPUs");
	n = place_find_want(cl, SCHED_PLACE_SPREAD, &w, t_out);
	ok(n == 1 && t_out[0].node == 1 && t_out[0].mask == 0,
	    "cpus: on the node whose GPUs are all taken, no GPU");
	ok(t_out[0].cpus == 6 && t_out[0].mem == 1000,
	    "cpus: its CPUs and memory in the part");
	place_take(cl, t_out, n);
	is_int(place_node_cpus_free(cl, 1), 10, "cpus: 10 CPUs left there");
	is_int(place_free_total(cl), 7, "cpus: no GPU taken");
	/* 6 more do not fit on node 1 twice: 10 left, then 4. */
	place_take(cl, t_out, n);
	n = place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out);
	ok(n == 1 && t_out[0].node == 2,
	    "cpus: then the node with the fewest free GPUs that has them");
	/* Two nodes of them, in index order. */
	w.nnodes = 2;
	n = place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out);
	ok(n == 2 && t_out[0].node == 0 && t_out[1].node == 2,
	    "cpus: -N 2 takes two nodes, rank 0 the lowest");
	w.nnodes = 3;
	is_int(place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out), 0,
	    "cpus: three nodes with 6 CPUs free there are not");
	/* Listed nodes, and a down one. */
	w.nnodes = 1;
	w.nodes = only;
	w.nlisted = 1;
	place_node_set_up(cl, 2, false);
	is_int(place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out), 0,
	    "cpus: a down node takes none");
	w.nlisted = 2;
	n = place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out);
	ok(n == 1 && t_out[0].node == 0, "cpus: the listed node that is up");
	/* Memory: the node's share per CPU without --mem. */
	r.mem_node = 0;
	r.mem_share = true;
	n = place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out);
	ok(n == 1 && t_out[0].mem == 65536 * 6 / 16,
	    "cpus: memory by the node's share per CPU");
	r.mem_share = false;
	r.mem_node = 70000;
	is_int(place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out), 0,
	    "cpus: more memory than a node has fits nowhere");
	/* Released, the CPUs come back. */
	held = place_node_cpus_free(cl, 1);
	r.mem_node = 1000;
	w.nodes = NULL;
	w.nlisted = 0;
	t_out[0].node = 1;
	t_out[0].mask = 0;
	t_out[0].cpus = 6;
	t_out[0].mem = 1000;
	place_release(cl, t_out, 1);
	is_int(place_node_cpus_free(cl, 1), held + 6, "cpus: released");
	place_cluster_free(cl);
}

int
main(void)
{
	test_consolidate();
	test_switch();
	test_sensitive();
	test_yarn();
	test_spread();
	test_random();
	test_take_release();
	test_down();
	test_cpus();
	return (tap_done());
}
