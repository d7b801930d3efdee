/* gang.h: the rules of a job whose parts run as one, one part per node,
 * rank 0 first (a gang; DESIGN.md, "Job life": a gang never runs partly).
 * What a part's end means for the others, how the gang stops when a part
 * fails, is killed or loses its node, and the state the gang ends in.
 *
 * Pure: the caller describes the job (struct gang) and carries out the
 * decision (job-report.c: state changes, signals, acknowledgements, log
 * lines). Nothing here reads the clock, the store or the job and node
 * tables. tests/unit/gang-test.c covers every decision. */
#ifndef GB_CTL_GANG_H
#define GB_CTL_GANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-state.h"
#include "daemon/controller/job.h"

struct node;

/* How often a gang is requeued when one of its parts is killed (SIGKILL:
 * the OOM killer, an admin) before it fails instead: a part the OOM killer
 * takes every time must end. */
#define GANG_KILLED_REQUEUES	3

/* A running job as the rules see it. Borrowed from the caller. */
struct gang {
	enum job_state		 state;		/* RUNNING or PREEMPTING */
	bool			 cancel_requested;
	bool			 stopping;	/* its other parts are stopping */
	bool			 no_requeue;	/* gsub --no-requeue */
	bool			 interactive;	/* a client waits at its terminal */
	/* sbatch's: rank 0 runs the batch script once, the other parts
	 * hold their nodes for its steps; the job is rank 0's. */
	bool			 batch_once;
	uint32_t		 restarts;
	/* Its parts, rank 0 first, with the ends known so far. */
	const struct job_part	*parts;
	size_t			 nparts;
	/* The name of a part's node, for the text of why (node_name). */
	const char		*(*node_name)(const struct node *);
};

/* What follows when one part of a gang of two or more parts ends. */
enum gang_step {
	GANG_WAIT,		/* nothing: others run on, or are stopping */
	GANG_STOP_OTHERS,	/* it failed first (or, batch_once, it is
				 * rank 0, whatever its end): it is what the
				 * gang ends as; the others are stopped
				 * (SIGTERM) */
	GANG_REQUEUE,		/* it was killed: the gang goes PREEMPTING,
				 * the others are stopped, and it is
				 * requeued once they have */
	GANG_END,		/* it was the last: the gang ends (gang_end) */
};

/* The parts of g not yet ended. */
size_t		gang_left(const struct gang *g);

/* Part rank of g (two or more parts) has ended: g's parts already say so
 * (ended, end_state, signal). Returns what follows; *left is the parts
 * still running. For GANG_REQUEUE, detail (len bytes) says why ("rank 1
 * on n2 was killed; stopping the others to requeue"); for GANG_STOP_OTHERS
 * and GANG_REQUEUE, the caller marks the part its first failure and g as
 * stopping. */
enum gang_step	gang_part_ended(const struct gang *g, size_t rank,
		    size_t *left, char *detail, size_t len);

/* How a gang ended, for the job's record. */
struct gang_end {
	enum job_state	 state;
	int		 rank;		/* the part it ends as; -1: none */
	bool		 has_exit;
	int		 exit_code;	/* rank's, when rank >= 0 */
	int		 signal;	/* rank's, when rank >= 0 */
};

/* The state g ends in once every part has: that of the part whose end
 * stopped the others (a batch_once job's rank 0, which may have
 * completed), else of the lowest rank that failed on its own (not
 * CANCELLED: the others were stopped because of it), else of one that was
 * cancelled, else COMPLETED (rank -1; the exit is known: has_exit). When a
 * rank that did not complete decides, detail (len bytes) is "rank R on
 * NODE ended STATE[: its message]", the job's message and the event's
 * text; else "". */
enum job_state	gang_end(const struct gang *g, struct gang_end *end,
		    char *detail, size_t len);

/* What follows when a running job loses the node of its part rank. */
enum gang_loss {
	GANG_LOST_ALONE,	/* one part (or none there): it goes to *to */
	GANG_LOST_END,		/* the part ends NODE_FAIL and was the last:
				 * the job goes to *to */
	GANG_LOST_WAIT,		/* the part ends NODE_FAIL; the others are
				 * stopping already */
	GANG_LOST_STOP_OTHERS,	/* the part ends NODE_FAIL; the gang goes
				 * PREEMPTING and the others are preempted
				 * (they save their work before they stop) */
};

/* Job g, running, lost the node of its part rank (-1: it has no part
 * there). *to is the state it goes to for GANG_LOST_ALONE and
 * GANG_LOST_END: PENDING (requeued), NODE_FAIL for an interactive job
 * (its session is broken; a run started again would be another session),
 * CANCELLED for a gang its user cancelled while it was preempted. A job
 * cancelled while RUNNING (the cancel sent, its end not yet reported) is
 * requeued all the same, unlike an end reported (requeue_end): the rule
 * as it was; whether such a job should end CANCELLED is an open
 * question. */
enum gang_loss	gang_lost(const struct gang *g, int rank, enum job_state *to);

#endif
