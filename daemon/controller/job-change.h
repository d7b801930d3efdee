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
	/* To PENDING: why (a job_reason name); to SUSPENDED: "TimeSlice"
	 * for a turn of time-slicing, NULL for an operator's. */
	const char	*reason;
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

/* What scontrol update changes in a waiting job's request (JOB_UPDATE's
 * set). A text NULL, has_time_limit false or num_nodes 0 is left as it
 * is; each was checked as a submit's is (common/job-req.h). */
struct job_change_req {
	const char	*name;		/* "": the one a submit gives */
	const char	*comment;	/* "": none */
	const char	*dependency;	/* common/depend.h's normal form, "":
					   none */
	uint64_t	 time_limit;	/* seconds, 0: none */
	bool		 has_time_limit;
	uint32_t	 num_nodes;	/* exactly that many nodes */
	const char	*partition;	/* part.h's list, checked */
	const char	*qos;		/* a QOS's name, checked */
	const char	*account;	/* resolved for the job's user */
	uint32_t	 gpus;		/* 0: unchanged */
	bool		 has_begin;
	int64_t		 begin_time;	/* s since the epoch; 0: at once */
	bool		 has_nice, has_priority;
	int		 nice;
	uint32_t	 priority;
};

/* Changes job's request (job_set_asked) as req says, all of it or none:
 * the job's row (store_job_edit) and, for each field that changes, an
 * event in its history from what to what and detail ("by alice"), in the
 * open transaction, each logged once. Not a state change: the caller
 * checks the job may take it (PENDING or HELD), who asks and the values.
 * A pending job leaves the scheduling core and enters it again, so that
 * it waits in its new shape and for its new conditions (its reason says
 * which way they stand); the jobs waiting for it are judged again (a
 * singleton's name). Returns 0 (also when nothing changes), or -1 when
 * the store failed (nothing changed in memory). */
int	job_change_request(struct job *, const struct job_change_req *req,
	    const char *detail);

#endif
