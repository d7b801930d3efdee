/* sched.c: what every scheduling policy shares: GPU masks and reason names. */
#include "policy/sched.h"

static const char *const sched_reason_names[] = {
	[SCHED_REASON_NONE] = "None",
	[SCHED_REASON_RESOURCES] = "Resources",
	[SCHED_REASON_PRIORITY] = "Priority",
	[SCHED_REASON_PREEMPTING] = "Preempting",
	[SCHED_REASON_NODES_DOWN] = "NodesDown",
	[SCHED_REASON_NODES_DRAINED] = "NodesDrained",
	[SCHED_REASON_GROUP_CAP] = "JobArrayTaskLimit",
	[SCHED_REASON_CPUS] = "CPUs",
	[SCHED_REASON_MEMORY] = "Memory",
	[SCHED_REASON_ASSOC_JOBS] = "AssocMaxJobs",
	[SCHED_REASON_ASSOC_GPUS] = "AssocMaxGPUs",
	[SCHED_REASON_ASSOC_GRP_JOBS] = "AssocGrpJobs",
	[SCHED_REASON_ASSOC_GRP_GPUS] = "AssocGrpGPUs",
	[SCHED_REASON_QOS_JOBS] = "QOSMaxJobsPerUserLimit",
	[SCHED_REASON_QOS_GPUS] = "QOSMaxGRESPerUser",
	[SCHED_REASON_RESERVATION] = "Reservation",
	/* Slurm's words, which tools match on. */
	[SCHED_REASON_RESV_MAINT] = "ReqNodeNotAvail, Reserved for maintenance",
};

static bool
sched_capacity_fits(uint32_t gpus, bool consolidate, uint32_t largest,
    const struct sched_capacity *c)
{
	if (c->total < gpus)
		return (false);
	return (!consolidate || gpus > largest || c->largest >= gpus);
}

enum sched_reason
sched_capacity_reason(uint32_t gpus, bool consolidate, uint32_t largest,
    const struct sched_capacity *up, const struct sched_capacity *up_drained)
{
	if (sched_capacity_fits(gpus, consolidate, largest, up))
		return (SCHED_REASON_NONE);
	if (sched_capacity_fits(gpus, consolidate, largest, up_drained))
		return (SCHED_REASON_NODES_DRAINED);
	return (SCHED_REASON_NODES_DOWN);
}

const char *
sched_reason_name(enum sched_reason r)
{
	/* The controller stores reasons as numbers; a value from a newer
	 * build must still print as something. */
	if ((unsigned)r >= sizeof sched_reason_names / sizeof *sched_reason_names)
		return ("Unknown");
	return (sched_reason_names[r]);
}

unsigned
sched_mask_count(uint64_t mask)
{
#if defined(__GNUC__)
	return ((unsigned)__builtin_popcountll(mask));
#else
	unsigned	n = 0;

	for (; mask != 0; mask &= mask - 1)
		n++;
	return (n);
#endif
}

uint64_t
sched_mask_lowest(uint64_t avail, uint32_t n)
{
	uint64_t	mask = 0, bit;

	if (n == 0 || sched_mask_count(avail) < n)
		return (0);
	while (n-- > 0) {
		bit = avail & (~avail + 1);	/* lowest set bit */
		mask |= bit;
		avail &= ~bit;
	}
	return (mask);
}
