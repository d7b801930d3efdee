/* job-array.h: job arrays in the controller (sbatch's --array). An array
 * is one job row while its tasks wait: the array's own row, standing for
 * every task not yet started (job_array_left). A task leaves it when it
 * starts, or is cancelled, held or released alone: job_array_split makes
 * it a job of its own, with a new id, the array's fields and its task id;
 * the last task takes the array's own row. A pending array is therefore
 * one row in memory and in the store whatever its size, and every task
 * that ran is a record of its own for accounting. */
#ifndef GB_CTL_JOB_ARRAY_H
#define GB_CTL_JOB_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

struct job;

/* Whether j is an array's own row that stands for tasks. */
bool		 job_array_is_row(const struct job *);

/* Makes task task (one j stands for) a job of its own, in j's state, and
 * returns it; when it is the last, j itself becomes it. The new job is
 * not in the scheduler yet. Returns NULL (logged) when j does not stand
 * for task or the store failed. */
struct job	*job_array_split(struct job *, uint32_t task);

/* The active job that is task task of array id, split off the array's row
 * when the row still stands for it (split false: NULL then). NULL when
 * the task is not active. */
struct job	*job_array_task(uint64_t id, uint32_t task, bool split);

/* Whether id names a job array with an active job: its row, a task, or
 * both (a plain job's id, or an ended array's, does not). */
bool		 job_array_named(uint64_t id);

/* Calls fn for each active job of array id: its row and its tasks. fn may
 * end (free) the job it is given. */
void		 job_array_each(uint64_t id, void (*fn)(struct job *, void *),
		     void *);

#endif
