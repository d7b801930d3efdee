/* job-state.c: state names and the legal transitions. */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "common/job-state.h"

static const struct {
	const char	*name;
	const char	*abbrev;
} job_state_names[JOB_STATE_COUNT] = {
	[JOB_PENDING] = { "PENDING", "PD" },
	[JOB_HELD] = { "HELD", "H" },
	[JOB_RUNNING] = { "RUNNING", "R" },
	[JOB_PREEMPTING] = { "PREEMPTING", "PR" },
	[JOB_SUSPENDED] = { "SUSPENDED", "S" },
	[JOB_COMPLETED] = { "COMPLETED", "CD" },
	[JOB_FAILED] = { "FAILED", "F" },
	[JOB_TIMEOUT] = { "TIMEOUT", "TO" },
	[JOB_CANCELLED] = { "CANCELLED", "CA" },
	[JOB_NODE_FAIL] = { "NODE_FAIL", "NF" },
	[JOB_OUT_OF_MEMORY] = { "OUT_OF_MEMORY", "OOM" },
};

const char *
job_state_name(enum job_state s)
{
	if ((unsigned)s >= JOB_STATE_COUNT)
		return ("UNKNOWN");
	return (job_state_names[s].name);
}

const char *
job_state_short(enum job_state s)
{
	if ((unsigned)s >= JOB_STATE_COUNT)
		return ("?");
	return (job_state_names[s].abbrev);
}

int
job_state_parse(const char *s, enum job_state *out)
{
	int	i;

	/* The store and the wire carry the names as written: matched
	 * first, as a million finished jobs are read back so. */
	for (i = 0; i < JOB_STATE_COUNT; i++) {
		if (s[0] == job_state_names[i].name[0] &&
		    strcmp(s, job_state_names[i].name) == 0) {
			*out = (enum job_state)i;
			return (0);
		}
	}
	for (i = 0; i < JOB_STATE_COUNT; i++) {
		if (strcasecmp(s, job_state_names[i].name) == 0 ||
		    strcasecmp(s, job_state_names[i].abbrev) == 0) {
			*out = (enum job_state)i;
			return (0);
		}
	}
	return (-1);
}

bool
job_state_is_terminal(enum job_state s)
{
	return (s >= JOB_COMPLETED);
}

bool
job_state_on_node(enum job_state s)
{
	return (s == JOB_RUNNING || s == JOB_PREEMPTING ||
	    s == JOB_SUSPENDED);
}

bool
job_state_is_legal(enum job_state from, enum job_state to)
{
	if (job_state_is_terminal(from) || from == to)
		return (false);
	switch (from) {
	case JOB_PENDING:
		return (to == JOB_HELD || to == JOB_RUNNING ||
		    to == JOB_CANCELLED);
	case JOB_HELD:
		return (to == JOB_PENDING || to == JOB_CANCELLED);
	case JOB_RUNNING:
		/* PENDING: node lost, job requeued. */
		return (to == JOB_PREEMPTING || to == JOB_PENDING ||
		    to == JOB_SUSPENDED || job_state_is_terminal(to));
	case JOB_SUSPENDED:
		/* RUNNING: resumed; PREEMPTING: requeued (thawed first);
		 * PENDING: node lost. */
		return (to == JOB_RUNNING || to == JOB_PREEMPTING ||
		    to == JOB_PENDING || job_state_is_terminal(to));
	case JOB_PREEMPTING:
		return (to == JOB_PENDING || job_state_is_terminal(to));
	default:
		return (false);
	}
}
