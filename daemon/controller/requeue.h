/* requeue.h: the rules of a job going back to the queue (DESIGN.md, "Job
 * life" and "Checkpoint-based preemption"): what a stopped run becomes,
 * the counters a requeue changes, and the restart credit a re-adopted run
 * takes back. A job keeps its id across requeues; its restart count and
 * attained service travel with it.
 *
 * Pure: functions of the job's state and its row; the caller (job-report.c,
 * job-change.c) writes and logs. tests/unit/requeue-test.c covers them. */
#ifndef GB_CTL_REQUEUE_H
#define GB_CTL_REQUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/job-state.h"
#include "daemon/controller/store-row.h"

/* What a job becomes when its run has ended. */
struct requeue_end {
	enum job_state	 to;
	const char	*reason;	/* to PENDING: a job_reason name */
	const char	*detail;	/* to PENDING: the event's text */
};

/* A job in state (RUNNING or PREEMPTING) whose run ended as ended (its own
 * end, or its gang's, gang.h): a job its user cancelled ends CANCELLED
 * however its process died (cancelled while being preempted, it may die of
 * the checkpoint signal before SIGTERM); a preempted job waits again with
 * its service (reason Preempted), and so does a gang that stopped its
 * other parts after one was lost or killed (PartLost); any other ends as
 * it ended. reason and detail are NULL but for PENDING (static text). */
void		 requeue_end(enum job_state state, bool cancel_requested,
		     bool gang_stopping, enum job_state ended,
		     struct requeue_end *out);

/* Whether from -> to puts a run back in the queue. */
bool		 requeue_is_requeue(enum job_state from, enum job_state to);

/* The row of a job going from -> PENDING (held jobs released, requeued
 * runs): no node, no GPUs, no start; a run that stopped counts a restart;
 * reason is why it waits (NULL: Requeued). */
void		 requeue_pending_row(struct store_job *row, enum job_state from,
		     const char *reason);

/* How a run that stops on the way from -> to ended, for job_runs: the
 * finished state, or PREEMPTED (it stopped for a preemption) or REQUEUED. */
const char	*requeue_run_end(enum job_state from, enum job_state to);

/* The restart credit: row is a job re-adopted (a run found still going on
 * a node that came back after the job was requeued for it), its
 * start_time the run's start (seconds) and last_stop the requeue's stop
 * (ms). The requeue's restart and the service it credited to the stopped
 * run (GPU-ms for gpus GPUs, executed and run time) are taken back: the run
 * never stopped, and its service counts again from its start. Counters
 * never go below 0. */
void		 requeue_readopt(struct store_job *row, uint32_t gpus);

#endif
