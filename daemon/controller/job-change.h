/* job-change.h: the one place that changes a job's state. */
#ifndef GB_CTL_JOB_CHANGE_H
#define GB_CTL_JOB_CHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/job-state.h"

struct job;
struct job_part;
struct node;
struct store_job;

/* What a transition needs besides the new state; zero what does not
 * apply. */
struct job_change {
	struct node	*node;		/* to RUNNING on one node: where */
	uint64_t	 mask;		/* to RUNNING on one node: its GPUs */
	/* To RUNNING on several nodes (or one): the parts, rank 0 first. */
	const struct job_part *parts;
	size_t		 nparts;
	int64_t		 start_time;	/* to RUNNING: 0 means now */
	bool		 has_exit;	/* to a finished state */
	int		 exit_code;
	int		 signal;
	int64_t		 end_time;	/* to a finished state: 0 means now */
	const char	*message;	/* shown by gq -l */
	const char	*reason;	/* to PENDING: why (a job_reason name) */
	const char	*detail;	/* event log and log line */
	/* PENDING -> RUNNING: a run found still going on a node that came
	 * back after the job was requeued for it. The requeue's restart and
	 * the run it credited are taken back: the run never stopped. */
	bool		 readopt;
};


/* Moves job to state to: checks job_state_is_legal(), updates memory and
 * the node's GPUs, writes the job's row and a job_events row in the open
 * transaction, logs the change once and tells the job table's listeners
 * (job_table_listen). A job that finishes is freed: the caller must not
 * use it afterwards. Returns 0, or -1 (illegal or the store failed;
 * nothing changed in memory). */
int	job_change_state(struct job *, enum job_state to,
	    const struct job_change *how);

/* Sets job's time limit (seconds, 0: none), saved, with an event in its
 * history saying from what to what and detail ("by alice"). Not a state
 * change: the caller checks the job may take it. Returns 0, or -1 when
 * the store failed (the job keeps its old limit). */
int	job_change_time_limit(struct job *, uint64_t secs, const char *detail);

#endif
