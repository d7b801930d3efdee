/* elastic.h: how many GPUs each elastic job runs on (issue 36), Pollux's
 * way in spirit: the GPUs go where they add the most goodput. Each job
 * brings its speedup, the goodput it would have on n GPUs over the
 * goodput on one (its caller's model: measured, fitted, or linear while
 * nothing is known), and the rule shares the cluster's GPUs:
 *
 *   1. A job that may not change now (resized within the caller's
 *      interval) keeps what it has.
 *   2. The others, least work left first, get one GPU each while GPUs
 *      are left: a job on one GPU before any job on two.
 *   3. What is left goes, a step at a time, to the job whose speedup
 *      grows the most per GPU over its best next step (k more GPUs, the
 *      gain over k: a speedup that dips where a job crosses onto another
 *      node, and climbs past it, is seen past the dip), each gain
 *      divided by the job's work left, while a step gains anything.
 *
 * A job's work left is in seconds on one GPU: what it has still to train
 * over what one GPU trains a second. Sharing by speedup over work left
 * is Smith's rule for the sum of completion times (a job's share of its
 * remaining work done a second), so the cluster's mean JCT, not its
 * goodput alone, is what rules 2 and 3 serve: a short job grows before
 * a long one that scales as well, and finishes, giving its GPUs back.
 * Where the caller does not know it, a job's work left is taken as its
 * attained service in GPU-seconds plus ELASTIC_LEFT_GUESS_S (Tiresias'
 * least-attained-service guess: a job that has run long will run long).
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
 * and smaller steps churn: gsim's replays of Pollux's workloads (bench/
 * pollux) ran 5% longer on average at a quarter than at a half. gsim's
 * rule 4 and the live core's resizes (sched-core-elastic.c) both use
 * it. */
#define ELASTIC_MIN_GAIN	0.5

/* The work left, in seconds on one GPU, of a job of unknown work that
 * has attained nothing (a minute: Pollux's scheduling interval). */
#define ELASTIC_LEFT_GUESS_S	60.0

struct elastic_job {
	const double	*speedup;	/* [0..max]: [0] 0, [1] 1 */
	uint32_t	 max;		/* the most GPUs it can use, >= 1 */
	uint32_t	 now;		/* GPUs it runs on; 0: waiting */
	uint64_t	 attained;	/* its service so far, GPU-ms */
	double		 left;		/* its work left, s on one GPU; 0:
					 * unknown (from attained, above) */
	bool		 fixed;		/* keeps now, whatever (rule 1) */
	uint32_t	 want;		/* out: the GPUs it should run on */
};

/* Shares gpus GPUs among jobs[0..n) (rules above), setting each want;
 * min_gain is rule 4's, a fraction (0.05: 5%). Returns the GPUs left. */
uint32_t	elastic_share(struct elastic_job *jobs, size_t n, uint32_t gpus,
		    double min_gain);

#endif
