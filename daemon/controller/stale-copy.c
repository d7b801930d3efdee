/* stale-copy.c: what a node's report of a job it runs means (stale-copy.h). */
#include <stdio.h>

#include "daemon/controller/stale-copy.h"

static enum stale_copy_verdict
stale_copy_stop(char *why, size_t len, const char *text)
{
	snprintf(why, len, "%s", text);
	return (STALE_COPY_STOP);
}

enum stale_copy_verdict
stale_copy_judge(const struct stale_copy *c, char *why, size_t len)
{
	if (len > 0)
		why[0] = '\0';
	if (!c->known)
		return (stale_copy_stop(why, len, "the job has ended"));
	if (job_state_on_node(c->state)) {
		if (c->here)
			return (c->cancel_requested ? STALE_COPY_CANCEL :
			    STALE_COPY_RUNS);
		snprintf(why, len, "the job was requeued and runs on %s",
		    c->runs_on != NULL ? c->runs_on : "another node");
		return (STALE_COPY_STOP);
	}
	if (c->state != JOB_PENDING) {
		snprintf(why, len, "the job is %s", job_state_name(c->state));
		return (STALE_COPY_STOP);
	}
	/* Requeued while its node was away, yet still running there: take
	 * it back rather than run it twice, when it is the job's last run
	 * (a part of a gang cannot be taken back alone, nor a run older
	 * than the last) and its GPUs are free. */
	if (c->num_nodes > 1 ||
	    (uint32_t)__builtin_popcountll(c->mask) != c->gpus)
		return (stale_copy_stop(why, len, "it is one part of a "
		    "multi-node job that was requeued"));
	if (c->has_restarts && c->report_restarts + 1 !=
	    (int64_t)c->restarts)
		return (stale_copy_stop(why, len, "it is an older run than "
		    "the last"));
	/* A CPU job's copy holds no GPU: its CPUs are taken back with it. */
	if (c->gpus > 0 && (c->mask == 0 || (c->mask & ~c->free_mask) != 0))
		return (stale_copy_stop(why, len, "its GPUs were given to "
		    "another job"));
	return (STALE_COPY_READOPT);
}
