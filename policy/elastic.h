/* elastic.h: how many GPUs each elastic job runs on (issue 36), Pollux's
 * way in spirit: the GPUs go where they add the most goodput. Each job
 * brings its speedup, the goodput it would have on n GPUs over the
 * goodput on one (its caller's model: measured, fitted, or linear while
 * nothing is known), and the rule shares the cluster's GPUs:
 *
 *   1. A job that may not change now (resized within the caller's
 *      interval) keeps what it has.
 *   2. The others, least attained service first (Tiresias' order: a new
 *      job first), get one GPU each while GPUs are left: a job on one GPU
 *      before any job on two.
 *   3. What is left goes, a step at a time, to the job whose speedup
 *      grows the most per GPU over its best next step (k more GPUs, the
 *      gain over k: a speedup that dips where a job crosses onto another
 *      node, and climbs past it, is seen past the dip), while a step
 *      gains anything.
 *   4. A running job grows or shrinks only where its speedup changes by
 *      min_gain or more of it (a restart costs the job time, and a
 *      change worth less than that is not worth it); otherwise it keeps
 *      its GPUs while they are there to keep.
 *
 * Pure: no clock, no I/O; O(gpus x jobs x max). */
#ifndef GB_POLICY_ELASTIC_H
#define GB_POLICY_ELASTIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The share of its speedup a running job must gain (or lose) for its
 * allocation to change: a restart costs it its checkpoint and warm-up,
 * and gsim's elastic runs found smaller steps churn. gsim's rule 4 and
 * the live core's resizes (sched-core-elastic.c) both use it. */
#define ELASTIC_MIN_GAIN	0.25

struct elastic_job {
	const double	*speedup;	/* [0..max]: [0] 0, [1] 1 */
	uint32_t	 max;		/* the most GPUs it can use, >= 1 */
	uint32_t	 now;		/* GPUs it runs on; 0: waiting */
	uint64_t	 attained;	/* its service so far: less first */
	bool		 fixed;		/* keeps now, whatever (rule 1) */
	uint32_t	 want;		/* out: the GPUs it should run on */
};

/* Shares gpus GPUs among jobs[0..n) (rules above), setting each want;
 * min_gain is rule 4's, a fraction (0.05: 5%). Returns the GPUs left. */
uint32_t	elastic_share(struct elastic_job *jobs, size_t n, uint32_t gpus,
		    double min_gain);

#endif
