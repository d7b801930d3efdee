/* job-change.c: job state transitions (DESIGN.md, "Job life"). Every
 * caller comes through here, so the row, the event log and the log line can
 * never disagree. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-alloc.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/master-port.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/node.h"
#include "daemon/controller/requeue.h"
#include "daemon/controller/store.h"

/* Appends "0,1,3" for the GPUs of mask to buf (len bytes in all). */
static void
job_change_gpus(uint64_t mask, char *buf, size_t len)
{
	size_t		off = strlen(buf), start = off;
	unsigned	i;
	int		n;

	for (i = 0; i < 64 && off < len; i++) {
		if ((mask & (UINT64_C(1) << i)) == 0)
			continue;
		n = snprintf(buf + off, len - off, "%s%u", off > start ? "," :
		    "", i);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

/* "n1 GPUs 0,1, n2 GPUs 0,1" for the log and the event record. */
static void
job_change_where(const struct job_part *parts, size_t n, char *buf,
    size_t len)
{
	size_t	i, off;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		off = strlen(buf);
		snprintf(buf + off, len - off, "%s%s GPUs ", i > 0 ? ", " : "",
		    node_name(parts[i].node));
		job_change_gpus(parts[i].mask, buf, len);
	}
}

/* Records the run a transition starts, ends or marks preempted in
 * job_runs, in the transaction that writes the row. */
static int
job_change_run(const struct job *j, enum job_state from, enum job_state to,
    const struct store_job *row, const struct job_change *how,
    const struct job_part *parts, size_t nparts, int64_t now)
{
	char	*alloc;
	int	 rc;

	if (to == JOB_RUNNING && from == JOB_PENDING && how->readopt)
		return (store_run_reopen(row->id));
	if (to == JOB_RUNNING) {
		/* Every part, one too: the run's own record of its GPUs. */
		alloc = job_alloc_text_all(parts, nparts);
		rc = store_run_start(row->id, row->restarts, row->start_time,
		    job_gpus(j), alloc);
		free(alloc);
		return (rc);
	}
	if (from == JOB_RUNNING && to == JOB_PREEMPTING)
		return (store_run_preempt(row->id, now));
	if (from == JOB_RUNNING || from == JOB_PREEMPTING)
		return (store_run_end(row->id, job_state_is_terminal(to) ?
		    row->end_time : now, requeue_run_end(from, to),
		    how->has_exit, how->exit_code, how->signal));
	return (0);
}

int
job_change_state(struct job *j, enum job_state to,
    const struct job_change *how)
{
	static const struct job_change	 none;
	struct store_job		 row;
	struct node			*node = job_node(j);
	struct job_part			 one;
	const struct job_part		*parts = NULL;
	enum job_state			 from = job_state(j);
	int64_t				 now = ctx_now(), now_ms;
	char				 gpus[600], what[900], extra[300];
	char				*alloc = NULL;
	size_t				 len, nparts = 0;
	uint64_t			 id = job_id(j);
	int				 rc = -1;

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
		parts = how->parts;
		nparts = how->nparts;
		if (nparts == 0) {
			memset(&one, 0, sizeof one);
			one.node = how->node;
			one.mask = how->mask;
			parts = &one;
			nparts = 1;
		}
		row.node = node_name(parts[0].node);
		row.gpu_mask = parts[0].mask;
		alloc = job_alloc_text(parts, nparts);
		row.start_time = how->start_time != 0 ? how->start_time : now;
		row.reason = "None";
	} else if (to == JOB_PENDING)
		requeue_pending_row(&row, from, how->reason);
	else if (to == JOB_HELD)
		row.reason = "Held";
	else if (to == JOB_PREEMPTING)
		row.reason = "None";
	if (to != JOB_RUNNING && to != JOB_PENDING)
		alloc = job_alloc_text(job_part_const(j, 0), job_nparts(j));
	row.alloc = alloc;
	core_job_row(j, to, &row);
	if (to == JOB_RUNNING && from == JOB_PENDING && how->readopt)
		requeue_readopt(&row, job_gpus(j));
	/* Its rendezvous port, while it runs; a job found running keeps
	 * the one it has. */
	if (to == JOB_RUNNING && !how->readopt)
		row.master_port = master_port_pick(parts[0].node, id);
	/* The CPUs the run holds: kept with the job once it ends. */
	if (to == JOB_RUNNING)
		row.alloc_cpus = core_parts_cpus(j, parts, nparts);
	else if (to == JOB_PENDING || job_state_is_terminal(to))
		row.master_port = 0;
	/* Time spent waiting: held time is not. */
	now_ms = ctx_now_ms();
	if (from == JOB_PENDING && to != JOB_PENDING && row.pending_since > 0 &&
	    now_ms > row.pending_since)
		row.queue_delay += now_ms - row.pending_since;
	if (to == JOB_PENDING)
		row.pending_since = now_ms;
	/* Released before its begin time: it waits from then on. */
	if (to == JOB_PENDING && job_begin_time(j) * 1000 > now_ms) {
		row.pending_since = job_begin_time(j) * 1000;
		row.reason = "BeginTime";
	}
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
		job_change_where(parts, nparts, gpus, sizeof gpus);
		snprintf(what, sizeof what, "on %s%s%s%s", gpus,
		    extra[0] != '\0' ? " (" : "", extra,
		    extra[0] != '\0' ? ")" : "");
	} else if (extra[0] != '\0')
		snprintf(what, sizeof what, "(%s)", extra);

	if (store_job_update(&row) != 0 ||
	    store_event_insert(id, now, job_state_name(from),
	    job_state_name(to), what) != 0 ||
	    job_change_run(j, from, to, &row, how, parts, nparts, now) != 0)
		goto out;

	log_info("job %" PRIu64 ": %s -> %s%s%s", id, job_state_name(from),
	    job_state_name(to), what[0] != '\0' ? " " : "", what);

	/* GPUs held in the old state go back: the core owns who holds
	 * them, and hears it while the job's parts still say which. Those
	 * of the new run it takes as it hears of the start (its listener,
	 * core_job_changed). */
	if ((from == JOB_RUNNING || from == JOB_PREEMPTING) &&
	    to != JOB_PREEMPTING)
		core_job_release(j);
	job_set_state(j, to);
	job_set_reason(j, row.reason);
	job_set_sched_row(j, &row);
	job_set_master_port(j, row.master_port);
	job_set_alloc_cpus(j, row.alloc_cpus);
	if (to == JOB_RUNNING) {
		job_set_restarts(j, row.restarts);
		job_set_run(j, parts, nparts, row.start_time);
	} else if (requeue_is_requeue(from, to))
		job_set_requeued(j);
	job_table_tell(j, from, to, &row);
	if (job_state_is_terminal(to)) {
		metrics_count_finished(to);
		job_free(j);
	}
	rc = 0;
out:
	free(alloc);
	return (rc);
}

int
job_change_time_limit(struct job *j, uint64_t secs, const char *detail)
{
	struct store_job	 row;
	const char		*state = job_state_name(job_state(j));
	uint64_t		 old = job_time_limit(j);
	char			 from[32], to[32], what[256];

	snprintf(what, sizeof what, "time limit %s -> %s%s%s", old == 0 ?
	    "none" : duration_format(old, from, sizeof from), secs == 0 ?
	    "none" : duration_format(secs, to, sizeof to), detail != NULL ?
	    ", " : "", detail != NULL ? detail : "");
	job_set_time_limit(j, secs);
	job_to_row(j, &row);
	if (store_job_update(&row) != 0 || store_event_insert(job_id(j),
	    ctx_now(), state, state, what) != 0) {
		job_set_time_limit(j, old);
		return (-1);
	}
	log_info("job %" PRIu64 ": %s", job_id(j), what);
	return (0);
}
