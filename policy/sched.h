/* sched.h: the scheduling core's view of the cluster. policy/ is pure: no
 * I/O, no clock reads, no allocation behind the caller's back. The caller
 * (gbatchd, later gsim) builds a snapshot, calls a pass, and carries out the
 * actions it returns. */
#ifndef GB_SCHED_H
#define GB_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* GPUs of one node as a bit mask: bit i is GPU index i. */
#define SCHED_MAX_GPUS_PER_NODE	64

struct sched_node {
	uint32_t	gpus_total;	/* GPUs the node has */
	uint64_t	free_mask;	/* GPUs not allocated to any job */
	bool		schedulable;	/* up and not drained */
};

/* Pending jobs, in queue order (submit order for FIFO). */
struct sched_job {
	uint64_t	id;
	uint32_t	gpus;
};

enum sched_reason {
	SCHED_REASON_NONE = 0,	/* started in this pass */
	SCHED_REASON_RESOURCES,	/* waits for GPUs to free up */
	SCHED_REASON_PRIORITY,	/* waits behind a job ahead of it */
	SCHED_REASON_PREEMPTING,/* waits for the jobs it preempted to stop */
};

/* One start decision: jobs[job] on nodes[node], GPUs in gpu_mask. */
struct sched_start {
	size_t		job;
	size_t		node;
	uint64_t	gpu_mask;
};

/* Returns the number of GPUs set in mask. */
unsigned	sched_mask_count(uint64_t mask);

/* Returns the mask of the n lowest GPUs set in avail, or 0 when avail holds
 * fewer than n (or n is 0). */
uint64_t	sched_mask_lowest(uint64_t avail, uint32_t n);

/* Returns the mask of a node's usable free GPUs: free_mask limited to the
 * gpus_total lowest indices, and 0 when the node is not schedulable. */
uint64_t	sched_node_free(const struct sched_node *);

/* Strict FIFO with gang allocation of whole GPUs on one node. Walks jobs in
 * order; each job that fits on a schedulable node starts there (best fit: the
 * node with the fewest free GPUs that still has enough, then the lowest node
 * index; its lowest free GPU indices). The first job that does not fit gets
 * SCHED_REASON_RESOURCES and blocks every job behind it
 * (SCHED_REASON_PRIORITY). nodes' free_mask is updated for each start.
 * Writes at most max starts to out and one reason per job to reasons (njobs
 * entries). Returns the number of starts. Never blocks or allocates.
 * A job asking for 0 GPUs or more than any schedulable node has free does not
 * fit, so it waits with Resources like any other. Once max starts are
 * written, the jobs not yet examined get Priority: they wait behind the
 * jobs just started and the next pass looks at them. Only bits below a
 * node's gpus_total count as free, and a node that is not schedulable is
 * never chosen. Cost: one walk over the nodes, a look-up per job, and per
 * start a walk on to the next node with the same number of free GPUs; jobs
 * behind a blocked one cost only their reason. */
size_t	sched_fifo_pass(const struct sched_job *jobs, size_t njobs,
	    struct sched_node *nodes, size_t nnodes, struct sched_start *out,
	    size_t max, enum sched_reason *reasons);

/* Returns a display name: "None", "Resources", "Priority". */
const char *sched_reason_name(enum sched_reason);

#endif
