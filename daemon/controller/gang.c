/* gang.c: the rules of a job whose parts run as one (gang.h). */
#include <stdio.h>

#include "daemon/controller/gang.h"

size_t
gang_left(const struct gang *g)
{
	size_t	i, left = 0;

	for (i = 0; i < g->nparts; i++)
		left += !g->parts[i].ended;
	return (left);
}

enum gang_step
gang_part_ended(const struct gang *g, size_t rank, size_t *left,
    char *detail, size_t len)
{
	const struct job_part	*part = &g->parts[rank];

	if ((*left = gang_left(g)) == 0)
		return (GANG_END);
	/* One that ends while the gang is stopping already (preempted,
	 * cancelled, or after the first failure) waits for the others: they
	 * are told once. */
	if (g->state != JOB_RUNNING || g->cancel_requested || g->stopping)
		return (GANG_WAIT);
	/* The batch script of a batch_once job is the job: its end, however
	 * it ended, ends the parts that hold the other nodes. */
	if (g->batch_once && rank == 0)
		return (GANG_STOP_OTHERS);
	/* A part that completed waits for the others. */
	if (part->end_state == JOB_COMPLETED)
		return (GANG_WAIT);
	/* Killed from outside (SIGKILL: the OOM killer, an admin): as a lost
	 * node does, it requeues the gang, a few times at most. */
	if (part->signal == 9 && g->restarts < GANG_KILLED_REQUEUES &&
	    !g->no_requeue) {
		snprintf(detail, len, "rank %zu on %s was killed; stopping the "
		    "others to requeue", rank, g->node_name(part->node));
		return (GANG_REQUEUE);
	}
	return (GANG_STOP_OTHERS);
}

enum job_state
gang_end(const struct gang *g, struct gang_end *end, char *detail,
    size_t len)
{
	const struct job_part	*part;
	size_t			 i, pass;

	/* Pass 0: the first failure; 1: any other but a cancelled one;
	 * 2: a cancelled one. */
	/* Pass 0 takes a batch_once job's rank 0 even when it completed:
	 * the others were stopped because it ended. */
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < g->nparts; i++) {
			part = &g->parts[i];
			if ((part->end_state == JOB_COMPLETED &&
			    (pass > 0 || !part->first_failure)) ||
			    (pass == 0 && !part->first_failure) ||
			    (pass == 1 && part->end_state == JOB_CANCELLED))
				continue;
			end->state = part->end_state;
			end->rank = (int)i;
			end->has_exit = part->has_exit;
			end->exit_code = part->exit_code;
			end->signal = part->signal;
			detail[0] = '\0';
			if (part->end_state != JOB_COMPLETED)
				snprintf(detail, len, "rank %zu on %s ended "
				    "%s%s%s", i, g->node_name(part->node),
				    job_state_name(part->end_state),
				    part->message != NULL ? ": " : "",
				    part->message != NULL ? part->message :
				    "");
			return (end->state);
		}
	}
	end->state = JOB_COMPLETED;
	end->rank = -1;
	end->has_exit = true;
	end->exit_code = 0;
	end->signal = 0;
	return (JOB_COMPLETED);
}

enum gang_loss
gang_lost(const struct gang *g, int rank, enum job_state *to)
{
	size_t	i, left = 0;

	*to = g->interactive ? JOB_NODE_FAIL : JOB_PENDING;
	if (g->nparts <= 1 || rank < 0)
		return (GANG_LOST_ALONE);
	/* The lost part has ended; a gang is requeued once its other parts
	 * have stopped too (their GPUs are not free before). */
	for (i = 0; i < g->nparts; i++)
		left += i != (size_t)rank && !g->parts[i].ended;
	if (left == 0) {
		if (g->state == JOB_PREEMPTING && g->cancel_requested)
			*to = JOB_CANCELLED;
		return (GANG_LOST_END);
	}
	if (g->stopping || g->cancel_requested)
		return (GANG_LOST_WAIT);
	return (GANG_LOST_STOP_OTHERS);
}
