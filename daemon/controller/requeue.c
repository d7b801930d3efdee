/* requeue.c: the rules of a job going back to the queue (requeue.h). */
#include <stddef.h>

#include "daemon/controller/requeue.h"

void
requeue_end(enum job_state state, bool cancel_requested, bool gang_stopping,
    enum job_state ended, struct requeue_end *out)
{
	out->to = ended;
	out->reason = NULL;
	out->detail = NULL;
	if (cancel_requested)
		out->to = JOB_CANCELLED;
	else if (state == JOB_PREEMPTING) {
		out->to = JOB_PENDING;
		if (gang_stopping) {
			out->reason = "PartLost";
			out->detail = "its other parts stopped after one was "
			    "lost; requeued";
		} else {
			out->reason = "Preempted";
			out->detail = "stopped after its preemption; requeued";
		}
	}
}

bool
requeue_is_requeue(enum job_state from, enum job_state to)
{
	return (to == JOB_PENDING && job_state_on_node(from));
}

void
requeue_pending_row(struct store_job *row, enum job_state from,
    const char *reason)
{
	row->node = NULL;
	row->gpu_mask = 0;
	row->start_time = 0;
	if (requeue_is_requeue(from, JOB_PENDING))
		row->restarts++;
	row->reason = reason != NULL ? reason : "Requeued";
}

const char *
requeue_run_end(enum job_state from, enum job_state to)
{
	if (job_state_is_terminal(to))
		return (job_state_name(to));
	return (from == JOB_PREEMPTING ? "PREEMPTED" : "REQUEUED");
}

void
requeue_readopt(struct store_job *row, uint32_t gpus)
{
	int64_t		credited = row->last_stop - row->start_time * 1000;
	uint64_t	gpu_ms;

	if (row->restarts > 0)
		row->restarts--;
	/* The stop came before the run's start (a clock stepped back): the
	 * requeue credited nothing. */
	if (credited <= 0)
		return;
	gpu_ms = (uint64_t)credited * gpus;
	row->attained -= gpu_ms < row->attained ? gpu_ms : row->attained;
	row->executed -= credited < row->executed ? credited : row->executed;
	row->run_total -= credited < row->run_total ? credited :
	    row->run_total;
}
