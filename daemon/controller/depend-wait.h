/* depend-wait.h: jobs that wait for other jobs (sbatch's --dependency):
 * the text checked at submit, and judged against the other jobs as they
 * change. A job whose conditions are not met stays out of the scheduler's
 * queues (schedule.c), PENDING with reason Dependency; one whose
 * conditions can never be met shows DependencyNeverSatisfied, and is
 * cancelled when scheduler.kill_invalid_depend (or its own
 * --kill-on-invalid-dep) says so. The other jobs are read from memory
 * while active and from the store once finished; an ended job's outcome
 * is kept, so each is read from the store once. An index from each job
 * to the jobs waiting for it (and a list of the singleton waiters) tells
 * which waiting jobs a change concerns: a job's end costs its dependents,
 * not every waiting job. */
#ifndef GB_CTL_DEPEND_WAIT_H
#define GB_CTL_DEPEND_WAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/depend.h"

struct job;
struct job_dep;

/* At submit: parses text for a job of user named name, checks that every
 * job it names exists, and writes its normal form into norm (len bytes).
 * Returns 0, or -1 with err naming what is wrong. */
int		 depend_wait_check(const char *text, char *norm, size_t len,
		     char *err, size_t errlen);

/* Whether job j (PENDING or HELD) may take the dependency text, in the
 * normal form depend_wait_check wrote: not one that names j itself nor
 * its own job array, which would never be met. Returns 0, or -1 with err
 * naming the condition. */
int		 depend_wait_check_for(const struct job *j, const char *text,
		     char *err, size_t errlen);

/* How j's conditions stand now; why (len bytes), for one that can never
 * be met, names the condition ("afterok:12: job 12 FAILED"). A job
 * without conditions is DEPEND_MET. */
enum depend_state depend_wait_judge(struct job *j, char *why, size_t len);

/* Frees what judging kept for a job, its place in the index with it:
 * job.c calls it when the job is freed (job_table_set_dep_free). */
void		 depend_wait_forget(struct job_dep *);

/* Job id changed state: the jobs waiting for it, and every singleton
 * waiter, are to be judged again. Returns whether there are any. */
bool		 depend_wait_changed(uint64_t id);
/* The ids of the jobs to judge again since the last call, into *ids (a
 * new array the caller frees). Returns how many. */
size_t		 depend_wait_take(uint64_t **ids);
/* Frees the index's lists (at exit, after the jobs). */
void		 depend_wait_free(void);

#endif
