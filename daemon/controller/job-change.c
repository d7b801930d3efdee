/* job-change.c: job state transitions (DESIGN.md, "Job life"). Every
 * caller comes through here, so the row, the event log and the log line can
 * never disagree. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "daemon/controller/gbatchd.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/schedule.h"
#include "daemon/controller/store.h"

/* Writes "0,1,3" for the GPUs of mask. */
static void
job_change_gpus(uint64_t mask, char *buf, size_t len)
{
	size_t		off = 0;
	unsigned	i;
	int		n;

	buf[0] = '\0';
	for (i = 0; i < 64 && off < len; i++) {
		if ((mask & (UINT64_C(1) << i)) == 0)
			continue;
		n = snprintf(buf + off, len - off, "%s%u", off ? "," : "", i);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

int
job_change_state(struct job *j, enum job_state to,
    const struct job_change *how)
{
	static const struct job_change	 none;
	struct store_job		 row;
	struct node			*node = job_node(j);
	enum job_state			 from = job_state(j);
	int64_t				 now = gbatchd_now();
	char				 gpus[200], what[600], extra[300];
	size_t				 len;
	uint64_t			 id = job_id(j);

	if (how == NULL)
		how = &none;
	if (!job_state_is_legal(from, to)) {
		log_error("job %" PRIu64 ": refused illegal change %s -> %s",
		    id, job_state_name(from), job_state_name(to));
		return (-1);
	}

	/* Write first: if the store refuses, memory stays as it was. */
	job_to_row(j, &row);
	row.state = to;
	row.node = node != NULL ? node_name(node) : NULL;
	if (to == JOB_RUNNING) {
		row.node = node_name(how->node);
		row.gpu_mask = how->mask;
		row.start_time = how->start_time != 0 ? how->start_time : now;
		row.reason = "None";
	} else if (to == JOB_PENDING) {
		row.node = NULL;
		row.gpu_mask = 0;
		row.start_time = 0;
		if (from == JOB_RUNNING || from == JOB_PREEMPTING)
			row.restarts++;
		row.reason = how->reason != NULL ? how->reason : "Requeued";
	} else if (to == JOB_HELD)
		row.reason = "Held";
	else if (to == JOB_PREEMPTING)
		row.reason = "None";
	schedule_job_row(j, to, &row);
	if (job_state_is_terminal(to)) {
		row.end_time = how->end_time != 0 ? how->end_time : now;
		row.has_exit = how->has_exit;
		row.exit_code = how->exit_code;
		row.signal = how->signal;
		if (how->message != NULL)
			row.message = how->message;
		row.reason = "None";
	}

	/* "on n1 GPUs 0,1 (detail)", "(exit 7, detail)". */
	what[0] = extra[0] = '\0';
	if (job_state_is_terminal(to) && how->has_exit) {
		if (how->signal != 0)
			snprintf(extra, sizeof extra, "signal %d", how->signal);
		else
			snprintf(extra, sizeof extra, "exit %d",
			    how->exit_code);
	}
	if (how->detail != NULL && *how->detail != '\0') {
		len = strlen(extra);
		snprintf(extra + len, sizeof extra - len, "%s%s",
		    len != 0 ? ", " : "", how->detail);
	}
	if (to == JOB_RUNNING) {
		job_change_gpus(how->mask, gpus, sizeof gpus);
		snprintf(what, sizeof what, "on %s GPUs %s%s%s%s", row.node,
		    gpus, extra[0] != '\0' ? " (" : "", extra,
		    extra[0] != '\0' ? ")" : "");
	} else if (extra[0] != '\0')
		snprintf(what, sizeof what, "(%s)", extra);

	if (store_job_update(&row) != 0 ||
	    store_event_insert(id, now, job_state_name(from),
	    job_state_name(to), what) != 0)
		return (-1);

	log_info("job %" PRIu64 ": %s -> %s%s%s", id, job_state_name(from),
	    job_state_name(to), what[0] != '\0' ? " " : "", what);

	/* GPUs held in the old state go back to the node. */
	if ((from == JOB_RUNNING || from == JOB_PREEMPTING) &&
	    to != JOB_PREEMPTING && node != NULL)
		node_release(node, job_gpu_mask(j));
	job_set_state(j, to);
	job_set_reason(j, job_reason_intern(row.reason));
	job_set_sched_row(j, &row);
	if (to == JOB_RUNNING) {
		job_set_run(j, how->node, how->mask, row.start_time);
		node_alloc(how->node, how->mask, id);
	} else if (to == JOB_PENDING && (from == JOB_RUNNING ||
	    from == JOB_PREEMPTING))
		job_set_requeued(j);
	schedule_job_changed(j, from, to);
	if (job_state_is_terminal(to))
		job_free(j);
	return (0);
}
