/* job-state.h: the job states and which transitions are legal (DESIGN.md,
 * "Job life"). The controller's job_state_set() is the one place that makes a
 * transition; this module only knows the rules, so the clients share them. */
#ifndef GB_JOB_STATE_H
#define GB_JOB_STATE_H

#include <stdbool.h>

enum job_state {
	JOB_PENDING = 0,
	JOB_HELD,
	JOB_RUNNING,
	JOB_PREEMPTING,
	/* Frozen on its nodes, its GPUs kept (gctl suspend); RUNNING again
	 * when resumed. */
	JOB_SUSPENDED,
	JOB_COMPLETED,
	JOB_FAILED,
	JOB_TIMEOUT,
	JOB_CANCELLED,
	JOB_NODE_FAIL,
	JOB_OUT_OF_MEMORY,	/* killed over its memory limit */
};
#define JOB_STATE_COUNT	(JOB_OUT_OF_MEMORY + 1)

/* "PENDING", "RUNNING", ...; never NULL for a valid state. */
const char	*job_state_name(enum job_state);
/* Short form as squeue prints it: PD, H, R, PR, S, CD, F, TO, CA, NF,
 * OOM. */
const char	*job_state_short(enum job_state);
/* Accepts the name or the short form, any case. Returns 0 or -1. */
int		 job_state_parse(const char *, enum job_state *);
bool		 job_state_is_terminal(enum job_state);
/* Whether a job in the state has processes on its nodes and holds its
 * GPUs there: RUNNING, PREEMPTING or SUSPENDED. */
bool		 job_state_on_node(enum job_state);
bool		 job_state_is_legal(enum job_state from, enum job_state to);

#endif
