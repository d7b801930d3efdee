/* place-int.h: the cluster's insides, shared by place.c (the indexes and
 * placement of any shape) and place-shape.c (exact and even shapes). Not
 * for use outside policy/place*.c. */
#ifndef GB_PLACE_INT_H
#define GB_PLACE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/place.h"
#include "policy/sched.h"

#define PLACE_NONE	UINT32_MAX

struct place_node {
	uint32_t	gpus;
	uint32_t	sw;
	uint64_t	free_mask;
	bool		up;
	uint32_t	nfree;		/* free GPUs offered: 0 when down */
	uint32_t	prev, next;	/* in bucket nfree */
	uint32_t	mark;		/* place_find's stamp */
	uint32_t	cpus, cpus_free;	/* 0 cpus: not counted */
	uint64_t	mem, mem_free;		/* MB; 0 mem: not counted */
	/* Each GPU's free memory (MB) as last measured, gpus of them;
	 * NULL: none known (place-gpumem.c). */
	uint32_t	*gpu_mem;
	/* Its GPUs' shards (place-shard.c): how many a GPU offers (0 or 1:
	 * none), those held of each GPU (NULL until one is), and the GPUs
	 * that have some held. */
	uint32_t	 shards;
	uint8_t		*shard_used;
	uint64_t	 shared_mask;
	bool		 shard_listed;	/* in shard_nodes */
};

struct place_cluster {
	struct place_node	*nodes;
	uint32_t		 n, cap;
	uint32_t		 head[SCHED_MAX_GPUS_PER_NODE + 1];
	uint64_t		 free_total, gpus_total;
	uint32_t		 max_gpus;	/* largest node seen */
	/* place_cpus_known's: the CPUs of the nodes with CPUs known, and
	 * their GPUs. */
	uint64_t		 cpus_known, cpus_known_gpus;
	uint32_t		*tree;		/* max of nfree; 2 * tcap */
	uint32_t		 tcap;		/* leaves, a power of two */
	uint64_t		*sw_free;	/* free GPUs per switch */
	uint32_t		*sw_count;	/* place-shape.c's, per switch */
	uint32_t		 nsw;
	uint32_t		 stamp;
	uint64_t		 rng;
	uint64_t		 generation;	/* place_generation */
	uint32_t		*scratch;	/* node indexes, n entries */
	/* The nodes that offer shards, in the order they came to
	 * (place_shard_set). */
	uint32_t		*shard_nodes;
	uint32_t		 nshard_nodes, shard_cap;
	/* The GPUs shared with a shard left (place_shard_open). */
	uint64_t		 shard_open;
	/* The CPUs and memory of the job being placed (place_find_want),
	 * which place_put gives each part; NULL: none. */
	const struct place_res	*res;
};

/* xorshift64: the same seed, the same random placements. */
uint64_t	place_rand(struct place_cluster *);
/* The first node at or after from with at least want free GPUs, or
 * PLACE_NONE. */
uint32_t	place_tree_first(const struct place_cluster *, uint32_t from,
		    uint32_t want);
/* Writes node i's share (want GPUs, its lowest free ones) to out and marks
 * it used by this placement; returns the GPUs it gives. */
uint32_t	place_put(struct place_cluster *, uint32_t i, uint32_t want,
		    struct place_alloc *out);
/* Takes (take) or gives back a's shards of its GPU on node nd, its free
 * mask and shared mask kept in line (place-shard.c). */
void		place_shard_move(struct place_cluster *, struct place_node *nd,
		    const struct place_alloc *a, bool take);
/* A new placement: no node is marked used. */
void		place_new_stamp(struct place_cluster *);
/* qsort comparators of node indexes: by index; by free GPUs, the fewest
 * (best fit) or the most first, then by index (qsort_r, the cluster as
 * its argument). */
int		place_by_index(const void *, const void *);
int		place_by_free_asc(const void *, const void *, void *);
int		place_by_free_desc(const void *, const void *, void *);

#endif
