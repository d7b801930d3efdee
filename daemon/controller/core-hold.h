/* core-hold.h: who holds each GPU of each node: a part of a running job,
 * or a stale copy of a job being stopped (stale-copy.h), whose GPUs no
 * other job may have until its end is reported; and the CPU jobs (of no
 * GPU) running on each node. The scheduling core keeps
 * the controller's one record (core.c, the only writer: it is told of
 * every transition, stale copy and start-up) and answers from it what the
 * listings, the ports and the node reports ask; its scheduler's view of
 * the cluster (policy/place.h) is rebuilt now and then, this record never.
 *
 * Pure: nodes are numbers (node_number), jobs their ids, GPU i bit i of a
 * mask; what a node has is its owner's business, so a mask may name GPUs
 * past the node's count and the caller masks what it asks.
 * tests/unit/core-hold-test.c covers it. */
#ifndef GB_CTL_CORE_HOLD_H
#define GB_CTL_CORE_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct core_hold;

struct core_hold *core_hold_create(void);
void		 core_hold_free(struct core_hold *);

/* A part of running job (an id, not 0) holds the GPUs of mask on node k:
 * a stale copy that held one loses it; a running job that holds one keeps
 * it, job beside it (shards of a GPU, a time-slicing ring). */
void		 core_hold_take(struct core_hold *, uint32_t k, uint64_t mask,
		     uint64_t job);
/* Job gives up those GPUs of mask on node k it holds as a running job (a
 * stale copy of it keeps its own); returns those it freed, which no other
 * job holds (a GPU's next holder comes first in core_hold_job). */
uint64_t	 core_hold_give(struct core_hold *, uint32_t k, uint64_t mask,
		     uint64_t job);

/* A stale copy of job takes those GPUs of mask on node k that nobody
 * holds; returns them (0: none was free). */
uint64_t	 core_hold_stale_take(struct core_hold *, uint32_t k,
		     uint64_t mask, uint64_t job);
/* Frees the GPUs job's stale copy holds on node k; returns them (0: it
 * held none). */
uint64_t	 core_hold_stale_give(struct core_hold *, uint32_t k,
		     uint64_t job);
/* A job whose stale copy holds GPUs on node k (the lowest GPU's), or 0. */
uint64_t	 core_hold_stale_first(const struct core_hold *, uint32_t k);

/* The GPUs of node k held by anyone; those held by stale copies. */
uint64_t	 core_hold_busy(const struct core_hold *, uint32_t k);
uint64_t	 core_hold_stale(const struct core_hold *, uint32_t k);
/* The job holding GPU i of node k (its stale copy's included), or 0. */
uint64_t	 core_hold_job(const struct core_hold *, uint32_t k,
		     uint32_t i);
/* The same for each of node k's GPUs, all 64 (0: free), borrowed until
 * the record changes; NULL when nothing ever held them (nor those of any
 * node numbered above). A listing reads it once a node. */
const uint64_t	*core_hold_jobs(const struct core_hold *, uint32_t k);
/* The jobs on node k's GPUs beside those core_hold_job names, *n of them
 * in no order, borrowed until the record changes (NULL: none). */
struct core_hold_co {
	uint64_t	job;
	uint32_t	gpu;
};
const struct core_hold_co *core_hold_co_jobs(const struct core_hold *,
		     uint32_t k, size_t *n);

/* A part of CPU job (no GPU; an id, not 0) runs on node k, or no longer
 * does (false: it did not); the CPU jobs on node k, *n of them in no
 * order, borrowed until the record changes (NULL: none). */
void		 core_hold_cpu_take(struct core_hold *, uint32_t k,
		     uint64_t job);
bool		 core_hold_cpu_give(struct core_hold *, uint32_t k,
		     uint64_t job);
const uint64_t	*core_hold_cpu_jobs(const struct core_hold *, uint32_t k,
		     size_t *n);

#endif
