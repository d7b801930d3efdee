/* job-learn.h: what a running job's reports teach the scheduler of it
 * (issue 36): the newest report of its run (GBATCH_PROGRESS, passed on by
 * its rank 0's node in NODE_HEARTBEAT, common/progress.h), and a model of
 * its step time and statistical efficiency fitted from every allocation
 * it reported from (policy/goodput.h), kept with the job across its runs.
 * Made at a job's first report; what a job never reports costs nothing.
 * It holds no pointer: job.c frees it with the job. */
#ifndef GB_JOB_LEARN_H
#define GB_JOB_LEARN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/progress.h"
#include "daemon/controller/job.h"

/* j, running, reports p: its newest, and a configuration of its model at
 * the GPUs and nodes its run holds. */
void	job_learn_report(struct job *, const struct progress *);
/* The step time it reported last (s), and the goodput its model expects
 * on the GPUs it holds now: samples a second, counted as at the batch
 * size of its first report (a larger batch's samples count for less where
 * it reported gradient statistics). False while it reported nothing. */
bool	job_learn_now(const struct job *, double *step_s, double *goodput);
/* Its speedups by GPU count over one, s[0..*n) (s[0] 0), as its model
 * put them at its last report: on n GPUs packed on nodes of its first
 * node's size, the global batch it reported split over them, none past
 * what the model may be trusted on (twice the most GPUs it reported
 * from: flat beyond); NULL while it reported nothing or its model knows
 * no rate. For sched_core_elastic_speedup. */
#define JOB_LEARN_TABLE	257
const double *job_learn_speedup(const struct job *, size_t *n);

#endif
