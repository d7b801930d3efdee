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
 *   4. A running job grows only where the growth pays for its restart:
 *      the time it saves the job (its work left over its speedup now,
 *      less that over its speedup after) is restart_s or more for each
 *      GPU it will run on. A restart idles all of them for restart_s,
 *      and a GPU-second lost is taken as a second of somebody's
 *      completion time; so a job on many GPUs grows only for a large
 *      saving, and one near its end not at all. A running job shrinks
 *      only where its GPUs are wanted: a shrink is undone while GPUs
 *      are left to undo it.
 *
 * Pure: no clock, no I/O; O(gpus x jobs x max). */
#ifndef GB_POLICY_ELASTIC_H
#define GB_POLICY_ELASTIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The share of its speedup a running job must gain for the live core to
 * resize it (sched-core-elastic.c): a restart costs it its checkpoint
 * and warm-up, and smaller steps churn. gsim's sharing (elastic_share)
 * asks instead that the time saved pay for the restart (rule 4). */
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
 * restart_s is what a restart costs a job, in seconds (rule 4). Returns
 * the GPUs left. */
uint32_t	elastic_share(struct elastic_job *jobs, size_t n, uint32_t gpus,
		    double restart_s);

#endif
