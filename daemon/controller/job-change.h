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

/* Hears of a transition once it is written and memory follows it: j went
 * from -> to, row is what was written (j is freed right after a
 * listener hears of a finished state). */
typedef void	(*job_change_fn)(struct job *j, enum job_state from,
		    enum job_state to, const struct store_job *row);

/* Adds a listener, called in the order added: the composition root
 * (gbatchd.c) registers the modules above this one that follow jobs (the
 * scheduler, interactive sessions), so that this module calls none of
 * them. At most JOB_CHANGE_LISTENERS. */
#define JOB_CHANGE_LISTENERS	4
void	job_change_listen(job_change_fn);
/* Forgets every listener (at the controller's close). */
void	job_change_unlisten_all(void);

/* Moves job to state to: checks job_state_is_legal(), updates memory and
 * the node's GPUs, writes the job's row and a job_events row in the open
 * transaction and logs the change once. A job that finishes is freed: the
 * caller must not use it afterwards. Returns 0, or -1 (illegal or the
 * store failed; nothing changed in memory). */
int	job_change_state(struct job *, enum job_state to,
	    const struct job_change *how);

#endif
