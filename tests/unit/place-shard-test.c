/* place-shard-test.c: shards of a GPU (policy/place-shard.c) on small
 * hand-built clusters: a shard job packs onto the GPU already shared with
 * the fewest shards left before it opens a free one; a shared GPU leaves
 * the free mask until its last shard is given back, so that no job of
 * whole GPUs lands on it; nodes that offer no shards, or fewer than
 * asked, are passed over; the node shares of CPUs and memory scale to the
 * shards; place_fits counts the shards left. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/place.h"
#include "policy/sched.h"
#include "tests/unit/tap.h"

static struct place_alloc	t_out[8];

/* n nodes of gpus GPUs, each offering shards shards a GPU. */
static struct place_cluster *
t_cluster(uint32_t n, uint32_t gpus, uint32_t shards)
{
	struct place_cluster	*cl = place_cluster_create(7);
	uint32_t		 i;

	for (i = 0; i < n; i++) {
		place_node_add(cl, gpus, 0);
		place_shard_set(cl, i, shards);
	}
	return (cl);
}

/* Places and takes a job of shards shards; returns its node * 100 + its
 * GPU, or -1 when it does not fit. */
static int
t_shard(struct place_cluster *cl, enum sched_placement how, uint32_t shards,
    struct place_alloc *a)
{
	struct place_want	w;

	memset(&w, 0, sizeof w);
	w.gpus = 1;
	w.shards = shards;
	if (place_find_want(cl, how, &w, a) != 1)
		return (-1);
	place_take(cl, a, 1);
	return ((int)a->node * 100 + __builtin_ctzll(a->mask));
}

static void
test_pack(void)
{
	struct place_cluster	*cl = t_cluster(2, 2, 4);
	struct place_alloc	 a, b, c, d, e;

	/* The first opens GPU 0 of node 0; the next fill it (3 + 1). */
	is_int(t_shard(cl, SCHED_PLACE_CONSOLIDATE, 3, &a), 0,
	    "pack: the first opens node 0's GPU 0");
	is_int(place_node_free_mask(cl, 0), 2, "pack: GPU 0 leaves the free "
	    "mask");
	is_int(place_shard_mask(cl, 0), 1, "pack: and is shared");
	is_int(t_shard(cl, SCHED_PLACE_CONSOLIDATE, 2, &b), 1,
	    "pack: 2 do not fit beside 3 of 4: GPU 1 opens");
	is_int(t_shard(cl, SCHED_PLACE_CONSOLIDATE, 1, &c), 0,
	    "pack: 1 goes where 1 is left (GPU 0), not where 2 are");
	is_int(place_shard_used(cl, 0, 0), 4, "pack: GPU 0 full");
	is_int((int)place_shard_open(cl), 1, "pack: GPU 1 alone has room");
	is_int(t_shard(cl, SCHED_PLACE_CONSOLIDATE, 2, &d), 1,
	    "pack: 2 fill GPU 1");
	is_int(place_free_total(cl), 2, "pack: node 1's two GPUs free");
	is_int((int)place_shard_open(cl), 0, "pack: no shared GPU has room");
	/* Consolidate opens the fullest node's GPU: node 1 is emptier than
	 * none; node 0 has none free, so node 1. */
	is_int(t_shard(cl, SCHED_PLACE_CONSOLIDATE, 4, &e), 100,
	    "pack: a job of all 4 shards opens node 1's GPU 0");
	/* A job of whole GPUs cannot have a shared GPU. */
	{
		struct place_want	w;

		memset(&w, 0, sizeof w);
		w.gpus = 2;
		is_int(place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out),
		    0, "pack: 2 whole GPUs: only node 1's GPU 1 is free");
		w.gpus = 1;
		is_int(place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, t_out),
		    1, "pack: 1 whole GPU fits");
		is_int(t_out[0].node * 100 + __builtin_ctzll(t_out[0].mask),
		    101, "pack: on node 1's GPU 1");
	}
	/* GPU 0 of node 0 is free again once its last shard is back. */
	place_release(cl, &a, 1);
	is_int(place_node_free_mask(cl, 0), 0, "release: one of two holders "
	    "gone, GPU 0 still shared");
	is_int(place_shard_used(cl, 0, 0), 1, "release: 1 shard held");
	place_release(cl, &c, 1);
	is_int(place_node_free_mask(cl, 0), 1, "release: the last gone, GPU "
	    "0 free");
	is_int(place_shard_mask(cl, 0), 2, "release: GPU 0 no longer "
	    "shared, GPU 1 still");
	is_int(place_free_total(cl), 2, "release: the free total counts it");
	place_release(cl, &b, 1);
	place_release(cl, &d, 1);
	place_release(cl, &e, 1);
	is_int(place_free_total(cl), 4, "release: all free");
	place_cluster_free(cl);
}

static void
test_nodes(void)
{
	struct place_cluster	*cl = place_cluster_create(7);
	struct place_alloc	 a;
	uint32_t		 only[1] = { 1 };
	struct place_want	 w;

	place_node_add(cl, 4, 0);		/* node 0: no shards */
	place_node_add(cl, 4, 0);		/* node 1: 2 a GPU */
	place_node_add(cl, 4, 0);		/* node 2: 8 a GPU */
	place_shard_set(cl, 1, 2);
	place_shard_set(cl, 2, 8);
	is_int(place_shard_count(cl, 0), 1, "nodes: 1 shard is none");
	is_int(t_shard(cl, SCHED_PLACE_YARN, 1, &a), 100,
	    "nodes: yarn: the first node that offers shards");
	is_int(t_shard(cl, SCHED_PLACE_YARN, 3, &a), 200,
	    "nodes: 3 shards: node 1's 2 are too few");
	is_int(t_shard(cl, SCHED_PLACE_YARN, 9, &a), -1,
	    "nodes: 9: no node offers so many");
	memset(&w, 0, sizeof w);
	w.gpus = 1;
	w.shards = 1;
	w.nodes = only;
	w.nlisted = 1;
	/* The listed node 1 has GPU 0 shared with 1 left: packed there. */
	is_int((int)place_find_want(cl, SCHED_PLACE_YARN, &w, t_out), 1,
	    "nodes: listed: fits");
	is_int(t_out[0].node * 100 + __builtin_ctzll(t_out[0].mask), 100,
	    "nodes: listed: node 1's shared GPU 0");
	place_node_set_up(cl, 1, false);
	is_int((int)place_find_want(cl, SCHED_PLACE_YARN, &w, t_out), 0,
	    "nodes: a down node offers none");
	place_node_set_up(cl, 1, true);
	/* Packing comes before any placement's choice: node 1's shared GPU
	 * has 1 shard left, node 2's 5. */
	is_int(t_shard(cl, SCHED_PLACE_SPREAD, 2, &a), 200,
	    "nodes: spread packs too: node 2's shared GPU 0");
	place_cluster_free(cl);
}

/* Which free GPU a shard job opens, where no shared GPU holds it: node 0
 * has 2 GPUs free, node 1 3, node 2 4. */
static void
test_open(void)
{
	static const struct {
		enum sched_placement	how;
		int			at;
		const char		*what;
	} c[] = {
		{ SCHED_PLACE_CONSOLIDATE, 2, "consolidate: the fullest node" },
		{ SCHED_PLACE_SPREAD, 200, "spread: the emptiest node" },
		{ SCHED_PLACE_YARN, 2, "yarn: the first node with one free" },
	};
	struct place_cluster	*cl;
	struct place_alloc	 a;
	size_t			 i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		cl = t_cluster(3, 4, 4);
		memset(&a, 0, sizeof a);
		a.mask = 3;
		place_take(cl, &a, 1);
		a.node = 1;
		a.mask = 1;
		place_take(cl, &a, 1);
		is_int(t_shard(cl, c[i].how, 4, &a), c[i].at, "open: %s",
		    c[i].what);
		place_cluster_free(cl);
	}
}

static void
test_res(void)
{
	struct place_cluster	*cl = t_cluster(1, 4, 4);
	struct place_res	 r;
	struct place_alloc	 a;
	struct place_want	 w;
	uint32_t		 cpus;
	uint64_t		 mem;

	/* 32 CPUs and 64000 MB on 4 GPUs of 4 shards: a shard's share is 2
	 * CPUs and 4000 MB. */
	place_node_set_res(cl, 0, 32, 64000);
	memset(&r, 0, sizeof r);
	r.cpus_share = r.mem_share = true;
	place_shard_need(cl, 0, &r, 3, &cpus, &mem);
	is_int(cpus, 6, "res: 3 shards' share of CPUs");
	is_int((int)mem, 12000, "res: and of memory");
	r.cpus_share = false;
	r.cpus_gpu = 5;
	r.cpus_node = 1;
	place_shard_need(cl, 0, &r, 3, &cpus, &mem);
	is_int(cpus, 6, "res: --cpus-per-gpu 5 and 1 a node: its one GPU's");
	memset(&w, 0, sizeof w);
	w.gpus = 1;
	w.shards = 3;
	w.res = &r;
	is_int((int)place_find_want(cl, SCHED_PLACE_CONSOLIDATE, &w, &a), 1,
	    "res: fits");
	is_int(a.cpus, 6, "res: the part carries its CPUs");
	is_int((int)a.mem, 12000, "res: and its memory");
	place_take(cl, &a, 1);
	is_int(place_node_cpus_free(cl, 0), 26, "res: taken with its shards");
	/* place_fits: 1 more shard of GPU 0 fits, 2 do not. */
	a.cpus = 0;
	a.mem = 0;
	a.shards = 1;
	ok(place_fits(cl, &a, 1), "fits: 1 shard left on GPU 0");
	a.shards = 2;
	ok(!place_fits(cl, &a, 1), "fits: 2 do not");
	a.shards = 0;
	ok(!place_fits(cl, &a, 1), "fits: nor does GPU 0 whole");
	a.mask = 2;
	ok(place_fits(cl, &a, 1), "fits: GPU 1 whole does");
	place_cluster_free(cl);
}

int
main(void)
{
	test_pack();
	test_nodes();
	test_open();
	test_res();
	return (tap_done());
}
