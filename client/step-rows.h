/* step-rows.h: a job's steps as users see them. gbatchd keeps a record a
 * task (STEP_LIST, docs/protocol.md); a step is the tasks one srun (or
 * grun --jobid) started, named by its first task's number, JOBID.STEP as
 * sacct and gq -l show it: its tasks, its nodes, how it stands. Pure:
 * the reply is an argument. */
#ifndef GB_STEP_ROWS_H
#define GB_STEP_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct step_row {
	uint64_t	 job;
	uint32_t	 step;		/* its first task's number */
	unsigned	 ntasks;	/* the tasks recorded */
	char		*nodes;		/* "n1,n2", each once, in task order */
	unsigned	 nnodes;
	const char	*command;	/* the first task's; borrowed */
	int64_t		 start_time;	/* the first task's start */
	int64_t		 end_time;	/* the last task's end; 0: one runs */
	/* RUNNING while a task runs, else CANCELLED if one was, else
	 * FAILED if one failed, else COMPLETED. */
	const char	*state;
	int		 exit_code;	/* the highest of its tasks' */
	int		 signal;	/* the highest */
};

/* Groups STEP_LIST's "steps" (a record a task, any order) by job and
 * step, in the order of their numbers. Returns the rows (free with
 * step_rows_free; strings borrow from steps) and sets *n; NULL when there
 * are none. */
struct step_row	*step_rows_group(const json_t *steps, size_t *n);
void		 step_rows_free(struct step_row *, size_t n);

#endif
