/* sim-cluster.h: the cluster gsim simulates: switches x nodes per switch x
 * GPUs per node, from a flag ("3x4" is 3 nodes of 4 GPUs on one switch,
 * "2x16x8" is 2 switches of 16 nodes of 8 GPUs) or a Tiresias cluster-spec
 * CSV (num_switch,num_node_p_switch,num_gpu_p_node, and num_cpu_p_node and
 * mem_p_node in GB when it has them). Its nodes may offer each GPU in
 * shards (gsim --gpu-shards), for the jobs of the trace's gpu_share. */
#ifndef GB_SIM_CLUSTER_H
#define GB_SIM_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "policy/place.h"

struct sim_cluster {
	uint32_t	switches;		/* >= 1 */
	uint32_t	nodes_per_switch;	/* >= 1 */
	uint32_t	gpus_per_node;		/* 1..64 */
	/* Each node's CPUs and memory (MB); 0: not simulated. */
	uint32_t	cpus_per_node;
	uint64_t	mem_per_node;
	/* The shards each GPU is offered in (place_shard_set), 2 to
	 * PLACE_MAX_SHARDS; 0 or 1: none, GPUs go whole. */
	uint32_t	gpu_shards;
};

/* "NxG" or "SxNxG". Returns 0, or -1 with the reason in err. */
int		sim_cluster_parse(const char *, struct sim_cluster *, char *,
		    size_t);
/* A cluster-spec CSV; errors name the file and line. */
int		sim_cluster_load(const char *path, struct sim_cluster *, char *,
		    size_t);
uint64_t	sim_cluster_gpus(const struct sim_cluster *);
/* The GPUs a job of gpus GPUs holds, or with shards (not 0) a job of
 * that many shards of one GPU: shards over the shards a GPU of c is
 * offered in (2 of 4: half a GPU). Its GPU-time is this times its run,
 * as the core counts its service. */
double		sim_cluster_held(const struct sim_cluster *, uint32_t gpus,
		    uint32_t shards);
/* Adds the cluster's nodes, switch by switch, with their CPUs, memory
 * and shards, to pl (empty). */
void		sim_cluster_build(const struct sim_cluster *,
		    struct place_cluster *pl);

#endif
