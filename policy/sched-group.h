/* sched-group.h: jobs that share a cap on how many of them hold GPUs at
 * once (a job array's throttle, sbatch's --array=...%N; an association's
 * or an account's max_jobs), or on the GPUs they hold at once (max_gpus).
 * The core keeps one record per group with a cap, found by the group's id
 * in O(1): a pass passes over a job whose group is at its cap, or would
 * be past it. Pure: no I/O, no clock. */
#ifndef GB_SCHED_GROUP_H
#define GB_SCHED_GROUP_H

#include <stddef.h>
#include <stdint.h>

struct sched_group {
	uint64_t	 id;
	uint64_t	 gpus;		/* GPUs its members hold */
	uint32_t	 cap;		/* most members holding GPUs; 0: none */
	uint32_t	 gpu_cap;	/* most GPUs they hold; 0: none */
	uint32_t	 holding;	/* members running or preempting */
	uint32_t	 members;	/* members the core knows */
	/* Why a member waits at each cap (enum sched_reason). */
	uint8_t		 jobs_reason;
	uint8_t		 gpus_reason;
};

struct sched_groups {
	struct sched_group	**slot;	/* open addressing, NULL: empty */
	size_t			  size;	/* a power of two, or 0 */
	size_t			  n;
};

/* The group id, made with its caps if new (a known group takes the newer
 * caps), with one member more. */
struct sched_group	*sched_group_join(struct sched_groups *, uint64_t id,
			     uint32_t cap, uint32_t gpu_cap);
/* One member fewer; the group is freed with its last. */
void			 sched_group_leave(struct sched_groups *,
			     struct sched_group *);
/* The group id, or NULL. */
struct sched_group	*sched_group_find(const struct sched_groups *,
			     uint64_t id);
/* Frees every group: the table is empty, and may be used again. */
void			 sched_group_clear(struct sched_groups *);

#endif
