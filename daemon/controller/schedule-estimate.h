/* schedule-estimate.h: where and when a job would start were it submitted
 * now (sbatch's --test-only), nothing submitted. An estimate on the
 * cluster as it is: running jobs end when backfill expects them to
 * (core_predict_end: their time limits, else their run times predicted
 * from the completed jobs like them; one with neither never does), the
 * pending jobs the scheduler would serve before it (every one of a single
 * queue; under dlas and gittins, those of the first queue, which a new
 * job joins last) take GPUs first, in their order, as they fit, each for
 * as long (core_predict_run_for); the job takes the first GPUs that fit
 * after them. Preemption, promotions and jobs submitted later are not
 * foreseen, so it errs late for a short job under dlas, and an exact start
 * needs time limits. */
#ifndef GB_CTL_SCHEDULE_ESTIMATE_H
#define GB_CTL_SCHEDULE_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/controller/store.h"

struct schedule_estimate {
	bool		 found;		/* a start could be foreseen */
	int64_t		 start;		/* seconds since the epoch */
	char		 where[1024];	/* "n1 GPUs 0,1, n2 GPU 3" */
	char		 nodes[1024];	/* "n1,n2" */
	size_t		 ahead;		/* pending jobs served first */
	/* No start found: the cluster cannot hold it at all, or the jobs
	 * in the way never reach a time limit. */
	bool		 never_fits;
};

/* Estimates row's start (gpus, num_nodes, flags, req_nodes, exclude_nodes,
 * gpu_type, time_limit) at now (ms since the epoch). */
void	schedule_estimate(const struct store_job *row, int64_t now,
	    struct schedule_estimate *out);

#endif
