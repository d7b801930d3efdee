/* sched-shape.h: what a job asks of the core that never changes and that
 * its siblings mostly ask alike: its GPUs, their shape and placement, what
 * it needs beside them, the nodes it is bound to, its array's cap. A queue
 * holds few distinct asks (a sweep, an array, a user's habit), so one copy
 * serves every job asking the same: interned in a hash, counted, freed
 * with its last job. 100,000 pending jobs thus hold a pointer each, not
 * 32 bytes and a node list each. Pure: no I/O, no clock. */
#ifndef GB_SCHED_SHAPE_H
#define GB_SCHED_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/place.h"
#include "policy/sched.h"

struct sched_group;

struct sched_shape {
	struct place_res	 res;		/* all 0: nothing */
	struct sched_group	*group;		/* its array's cap; NULL: none */
	/* Its limits' groups (nlimits of them), each capping its jobs or
	 * the GPUs they hold: the first it would pass names its reason. */
	struct sched_group	*limit[SCHED_MAX_LIMITS];
	uint8_t			 nlimits;
	uint32_t		 gpus;
	uint32_t		 num_nodes;	/* 0: any */
	uint8_t			 placement;	/* enum sched_placement */
	bool			 own_placement;	/* placement, not the conf's */
	bool			 consolidate;
	bool			 no_requeue;
	uint8_t			 pclass;	/* sched_jobspec's */
	uint64_t		 resv;		/* sched_jobspec's */
	int32_t			 urgency;	/* sched_jobspec's */
	bool			 any_shape;
	bool			 listed;	/* on nodes[] alone */
	/* An elastic job's range (sched_jobspec's gpus and gpus_max), gpus
	 * what it runs on or asks for now; both 0: rigid. */
	uint32_t		 gpus_min;
	uint32_t		 gpus_max;
	bool			 has_res;	/* res is not all 0 */
	/* sched_jobspec's time_slice and gpu_mem (sched-core-slice.c). */
	bool			 time_slice;
	uint32_t		 gpu_mem;
	uint32_t		 shards;	/* sched_jobspec's */
	/* What its placement asks, hashed: its GPUs, shape, placement,
	 * CPUs and memory, nodes and reservation, not its array, limits or
	 * requeue
	 * (sched-core-pass.c's memo of placements that found no room). */
	uint64_t		 place_key;
	/* The set's: its chain in the hash, the hash, the jobs counted. */
	struct sched_shape	*next;
	uint32_t		 hash;
	uint32_t		 refs;
	uint32_t		 nnodes;
	/* listed: nodes[] holds nsets sets (1, or more as sched_jobspec's
	 * nodes lays them out); sched_shape_set reads set k. */
	uint32_t		 nsets;
	/* The last pass that found no room for a job of this shape, the
	 * cluster's generation then and why: while the generation stands,
	 * the shape's next job finds none either (sched-core-pass.c), if
	 * the windows leave it the same nodes (the view's key). */
	uint64_t		 miss_generation;
	uint64_t		 miss_wkey;
	uint64_t		 pmiss_wkey;
	uint32_t		 miss_pass;
	uint8_t			 miss_reason;
	/* Likewise the last pass whose victim search for a job of this
	 * shape, tier and queue found none, with the generation and the
	 * core's victim_gen then (dlas and gittins only). */
	/* Its caps' verdict (sched_cjob_capped: what a shape's group and
	 * limits decide alone) while the core's cap_gen stands, + 1. */
	uint64_t		 cap_gen;
	uint8_t			 cap_reason;
	uint8_t			 pmiss_tier;
	uint8_t			 pmiss_queue;
	uint32_t		 pmiss_pass;
	uint64_t		 pmiss_generation;
	uint64_t		 pmiss_victims;
	uint32_t		 nodes[];	/* place.h's indexes, listed's */
};

/* Set k (< s->nsets, or 0 of a shape of one set) of listed s's nodes:
 * their count in *n. */
static inline const uint32_t *
sched_shape_set(const struct sched_shape *s, uint32_t k, uint32_t *n)
{
	uint32_t	start;

	if (s->nsets <= 1) {
		*n = s->nnodes;
		return (s->nodes);
	}
	start = k == 0 ? 0 : s->nodes[k - 1];
	*n = s->nodes[k] - start;
	return (s->nodes + s->nsets + start);
}

struct sched_shapes {
	struct sched_shape	**bucket;	/* chained */
	size_t			  size;		/* a power of two, or 0 */
	size_t			  n;
};

/* The set's shape equal to want (its members up to has_res; res, listed
 * and has_res as want has them) with nodes[0..nnodes) in want->nsets
 * sets when listed, one job more; made if new. has_res is set from res. */
const struct sched_shape *sched_shape_get(struct sched_shapes *,
			     const struct sched_shape *want,
			     const uint32_t *nodes, size_t nnodes);
/* One job fewer; the shape is freed with its last. NULL is ignored. */
void			 sched_shape_put(struct sched_shapes *,
			     const struct sched_shape *);
/* Whether two needs beside GPUs are the same. */
bool			 sched_shape_res_equal(const struct place_res *,
			     const struct place_res *);
/* Frees every shape: the set is empty, and may be used again. */
void			 sched_shape_clear(struct sched_shapes *);

#endif
