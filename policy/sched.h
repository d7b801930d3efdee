/* sched.h: what every part of policy/ shares: GPU masks and the reasons a
 * job waits. policy/ is pure: no I/O, no clock reads. The core is
 * sched-core.h; gbatchd and gsim drive the same code. */
#ifndef GB_SCHED_H
#define GB_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Groups of limits a job may be in beside its array's (its association
 * and each account up its tree: sched_jobspec's limits). */
#define SCHED_MAX_LIMITS	6

/* GPUs of one node as a bit mask: bit i is GPU index i. */
#define SCHED_MAX_GPUS_PER_NODE	64

enum sched_reason {
	SCHED_REASON_NONE = 0,	/* started in this pass */
	SCHED_REASON_RESOURCES,	/* waits for GPUs to free up */
	SCHED_REASON_PRIORITY,	/* waits behind a job ahead of it */
	SCHED_REASON_PREEMPTING,/* waits for the jobs it preempted to stop */
	SCHED_REASON_NODES_DOWN,   /* no up node set could ever hold it */
	SCHED_REASON_NODES_DRAINED,/* only drained nodes would make it fit */
	SCHED_REASON_GROUP_CAP,	/* its array holds its throttle's GPUs */
	SCHED_REASON_CPUS,	/* GPUs are free, not the CPUs beside them */
	SCHED_REASON_MEMORY,	/* GPUs and CPUs are free, not the memory */
	/* A limit of the caller's (sched_limit) holds it back: its user's
	 * association's, or an account's, on jobs running or GPUs held. */
	SCHED_REASON_ASSOC_JOBS,
	SCHED_REASON_ASSOC_GPUS,
	SCHED_REASON_ASSOC_GRP_JOBS,
	SCHED_REASON_ASSOC_GRP_GPUS,
	/* Its QOS's limit per user, on jobs running or GPUs held. */
	SCHED_REASON_QOS_JOBS,
	SCHED_REASON_QOS_GPUS,
	/* Its advance reservation is not open (sched-window.h). */
	SCHED_REASON_RESERVATION,
	/* A maintenance window holds nodes it would fit on now. */
	SCHED_REASON_RESV_MAINT,
};

/* A set of nodes' GPUs: in all, and on the largest node. */
struct sched_capacity {
	uint64_t	total;
	uint32_t	largest;
};

/* Why a job of gpus GPUs could never run on the nodes that take jobs now
 * (up), even were they idle: SCHED_REASON_NODES_DRAINED when the drained
 * ones would make it fit (up_drained: up and drained together),
 * SCHED_REASON_NODES_DOWN otherwise; SCHED_REASON_NONE when the up nodes
 * could hold it. A consolidating job needs one node of its size when any
 * node of the cluster (largest: the largest known) has that many. */
enum sched_reason sched_capacity_reason(uint32_t gpus, bool consolidate,
		    uint32_t largest, const struct sched_capacity *up,
		    const struct sched_capacity *up_drained);

/* Returns the number of GPUs set in mask. */
unsigned	sched_mask_count(uint64_t mask);

/* Returns the mask of the n lowest GPUs set in avail, or 0 when avail holds
 * fewer than n (or n is 0). */
uint64_t	sched_mask_lowest(uint64_t avail, uint32_t n);

/* Returns a display name: "None", "Resources", "Priority", "Preempting",
 * "NodesDown", "NodesDrained", "JobArrayTaskLimit", ..., "Reservation",
 * "ReqNodeNotAvail, Reserved for maintenance" (Slurm's names). */
const char *sched_reason_name(enum sched_reason);

#endif
