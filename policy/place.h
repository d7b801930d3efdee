/* place.h: the cluster's GPUs and where a job's GPUs come from. Nodes have
 * up to SCHED_MAX_GPUS_PER_NODE GPUs, a switch (topology label) and an up
 * flag; a job gets whole GPUs, on one node or several. Indexes keep finding
 * GPUs cheap on 10,000 nodes: lists of nodes by free count (best and worst
 * fit), a max tree over node order (first fit) and free totals per switch.
 * Pure: no I/O, no clock; random placement draws from a seeded generator. */
#ifndef GB_PLACE_H
#define GB_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/sched-conf.h"

/* One node's share of a job: GPU i of node is in the job if bit i is set;
 * cpus CPUs and mem MB of the node's beside them (place_res). With shards
 * (not 0) the job holds that many of the shards of the one GPU of mask,
 * which other such jobs share (place-shard.c); else its GPUs whole. */
struct place_alloc {
	uint32_t	node;
	uint64_t	mask;
	uint32_t	cpus;
	uint32_t	shards;
	uint64_t	mem;
};

/* What a job asks of a node's CPUs and memory (MB) beside g of its GPUs:
 * per_node + per_gpu x g of each, or with share the node's own per GPU
 * (its CPUs or memory x g / its GPUs, rounded down: 0 CPUs where the node
 * has fewer CPUs than GPUs, so that the shares never strand a GPU). A
 * node whose CPUs or memory are not known (0) holds any amount of them.
 * A CPU job (no GPU: g is 0) takes cpus_node CPUs, and mem_node MB or
 * with mem_share the node's memory per CPU for them. */
struct place_res {
	uint64_t	mem_node;
	uint64_t	mem_gpu;
	uint32_t	cpus_node;
	uint32_t	cpus_gpu;
	bool		cpus_share;
	bool		mem_share;
};

struct place_cluster;

struct place_cluster	*place_cluster_create(uint64_t seed);
/* A count that moves whenever what is free or a node changes (place_take,
 * place_release, place_node_add, place_node_set_up, place_node_set_res):
 * while it stands, a placement finds what it found before. */
uint64_t		 place_generation(const struct place_cluster *);
void			 place_cluster_free(struct place_cluster *);

/* Adds a node of gpus GPUs (1..64) under switch sw, up and idle; returns
 * its index (nodes are numbered from 0 in the order added). */
uint32_t	place_node_add(struct place_cluster *, uint32_t gpus,
		    uint32_t sw);
/* Node i's CPUs and memory in MB (0: not known, not counted). What jobs
 * hold of them stays held. */
void		place_node_set_res(struct place_cluster *, uint32_t,
		    uint32_t cpus, uint64_t mem);
uint32_t	place_node_cpus(const struct place_cluster *, uint32_t);
uint32_t	place_node_cpus_free(const struct place_cluster *, uint32_t);
uint64_t	place_node_mem(const struct place_cluster *, uint32_t);
uint64_t	place_node_mem_free(const struct place_cluster *, uint32_t);
/* What a part of g GPUs on node i needs of res (NULL: nothing). */
void		place_res_need(const struct place_cluster *, uint32_t i,
		    const struct place_res *, uint32_t g, uint32_t *cpus,
		    uint64_t *mem);
/* Whether node i has what a part of g GPUs needs of res, beside them. */
bool		place_res_fits(const struct place_cluster *, uint32_t i,
		    const struct place_res *, uint32_t g);
/* A node that is down or drained offers none of its free GPUs. */
void		place_node_set_up(struct place_cluster *, uint32_t, bool);
size_t		place_nodes(const struct place_cluster *);
uint32_t	place_node_gpus(const struct place_cluster *, uint32_t);
uint64_t	place_node_free_mask(const struct place_cluster *, uint32_t);
/* GPUs free on up nodes, and all GPUs of up nodes. */
uint64_t	place_free_total(const struct place_cluster *);
uint64_t	place_gpus_total(const struct place_cluster *);

/* Finds gpus GPUs under the placement (sensitive: the job insists on the
 * fewest nodes a job of its size can have, and waits otherwise). Writes
 * one entry per node to out (room for gpus entries) and returns how many,
 * or 0 when the free GPUs cannot hold the job. Takes nothing. */
size_t		place_find(struct place_cluster *, enum sched_placement,
		    uint32_t gpus, bool sensitive, struct place_alloc *out);
/* place_find among the nodes of nodes[0..nnodes) alone (the others, and
 * indexes past the cluster's, are passed over): a job that may run only on
 * some nodes (sbatch's -w, -x, a GPU type). Costs the nodes listed, not
 * the cluster's indexes: first fit in index order for yarn and random,
 * the most free GPUs first for spread, and for consolidate the best fit
 * of one node, else the emptiest nodes whole and the best fit for the
 * rest. */
size_t		place_find_in(struct place_cluster *, enum sched_placement,
		    uint32_t gpus, bool sensitive, const uint32_t *nodes,
		    size_t nnodes, struct place_alloc *out);
/* Exactly nnodes nodes with per free GPUs each, per from each (the
 * listed nodes alone when nodes is not NULL), chosen as how says: the
 * fullest that hold per under one switch when one has nnodes of them
 * (consolidate), the emptiest (spread), the first in index order (yarn,
 * and random from a random node). Returns nnodes, or 0. */
size_t		place_find_shape(struct place_cluster *, enum sched_placement,
		    uint32_t nnodes, uint32_t per, const uint32_t *nodes,
		    size_t nlisted, struct place_alloc *out);

/* What a job asks of its GPUs. */
struct place_want {
	uint32_t	 gpus;		/* 0: a CPU job (place_cpu_find) */
	/* Exactly nnodes nodes of gpus / nnodes GPUs each (sbatch's -N with
	 * --gpus-per-node); 0: free, as any_shape says. */
	uint32_t	 nnodes;
	/* Free shape: one node when one holds the job, else an even split,
	 * k nodes of gpus / k each for the fewest k that fits (a job waits
	 * for one); any_shape: whatever place_find finds. */
	bool		 any_shape;
	bool		 sensitive;	/* the fewest nodes its size allows */
	const uint32_t	*nodes;		/* the nodes it may run on; NULL: any */
	size_t		 nlisted;
	/* Its CPUs and memory beside the GPUs, on each node (NULL: none):
	 * a node qualifies only when it has them free too. */
	const struct place_res *res;
	/* Not 0: that many shards of one GPU (gpus is 1), on a node that
	 * offers its GPUs in at least as many (place_shard_find). */
	uint32_t	 shards;
};

/* Finds a job's GPUs as w asks (place_find_shape, place_find_in or
 * place_find; place_cpu_find for a CPU job, place_shard_find for shards
 * of a GPU); out has room for gpus
 * entries (a CPU job's nnodes, at least one). Returns the entries, or 0.
 * Takes nothing. */
size_t		place_find_want(struct place_cluster *, enum sched_placement,
		    const struct place_want *, struct place_alloc *out);
/* Nodes for a CPU job (w->gpus 0): w->nnodes of them (0: one), each
 * with w->res's CPUs and memory free (NULL: any up node), none of their
 * GPUs: the nodes with the fewest free GPUs first (place-cpu.c). Writes
 * a part of mask 0 per node, in index order; returns their count, or 0. */
size_t		place_cpu_find(struct place_cluster *,
		    const struct place_want *, struct place_alloc *out);
/* The CPUs of the nodes whose CPUs are known, and those nodes' GPUs: what
 * a CPU is worth in GPUs on this cluster (0 and 0 while none is known). */
uint64_t	place_cpus_known(const struct place_cluster *,
		    uint64_t *gpus);
/* Marks the GPUs of allocs allocated (they must be free) or free again,
 * with their CPUs and memory; a part with shards takes or gives back
 * those shards of its GPU, which is free again once none is held. */
void		place_take(struct place_cluster *, const struct place_alloc *,
		    size_t);
void		place_release(struct place_cluster *,
		    const struct place_alloc *, size_t);
/* The same for a[0..n)'s CPUs and memory alone, its GPUs held already (a
 * job taking its turn on the GPUs of a time-sliced ring). */
void		place_take_res(struct place_cluster *,
		    const struct place_alloc *, size_t);
void		place_release_res(struct place_cluster *,
		    const struct place_alloc *, size_t);

/* Whether all of a[0..n) is free: its GPUs (or their shards), CPUs and
 * memory. */
bool		place_fits(const struct place_cluster *,
		    const struct place_alloc *, size_t);

/* Shards of a GPU (place-shard.c). Node i offers each of its GPUs in
 * shards shards (1, the default, for none: its GPUs go whole alone; at
 * most PLACE_MAX_SHARDS). A GPU of which some shards are held is not
 * free for a job of whole GPUs, and is free again once its last shard is
 * given back; shards held past a lowered count stay held. */
#define PLACE_MAX_SHARDS	64
void		place_shard_set(struct place_cluster *, uint32_t i,
		    uint32_t shards);
uint32_t	place_shard_count(const struct place_cluster *, uint32_t i);
/* The shards held of GPU g of node i; the GPUs of node i that have some
 * held (and so are not in its free mask). */
uint32_t	place_shard_used(const struct place_cluster *, uint32_t i,
		    uint32_t g);
uint64_t	place_shard_mask(const struct place_cluster *,
		    uint32_t i);
/* The GPUs shared with a shard left (down nodes' too: a pass asks it
 * only to know whether a job of shards may fit where no GPU is free). */
uint64_t	place_shard_open(const struct place_cluster *);
/* What a part of shards shards of one GPU of node i needs of res: a
 * GPU's worth of what res asks per GPU, and the node's own shares scaled
 * to the shards (so that the shards of a GPU together take its share). */
void		place_shard_need(const struct place_cluster *, uint32_t i,
		    const struct place_res *, uint32_t shards, uint32_t *cpus,
		    uint64_t *mem);
/* One part of w->shards shards of a GPU, on an up node that offers at
 * least as many (of w's nodes when it lists some) with w->res free
 * beside them: the GPU already shared with the fewest shards left that
 * still hold it (packing, lowest node first), else a free GPU, its node
 * chosen as how says (consolidate: the fewest free GPUs; spread: the
 * most; yarn and random: the first). Returns 1, or 0. Takes nothing. */
size_t		place_shard_find(struct place_cluster *,
		    enum sched_placement, const struct place_want *,
		    struct place_alloc *out);

/* A GPU's free memory (MB), as the node last measured it (NVML's total
 * less what is used, the jobs frozen on it included): what time-slicing
 * reads before it puts another job on it (sched-core-slice.c).
 * place_gpumem_free returns PLACE_GPUMEM_UNKNOWN for a GPU never set. */
#define PLACE_GPUMEM_UNKNOWN	UINT32_MAX
int		place_gpumem_set(struct place_cluster *, uint32_t node,
		    uint32_t gpu, uint32_t free_mb);
uint32_t	place_gpumem_free(const struct place_cluster *, uint32_t node,
		    uint32_t gpu);

#endif
