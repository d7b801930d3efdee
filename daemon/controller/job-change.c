/* job-change.c: job state transitions (DESIGN.md, "Job life"), and the
 * changes scontrol update makes to a waiting job's request. Every caller
 * comes through here, so the row, the event log and the log line can
 * never disagree. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/duration.h"
#include "common/job-req.h"
#include "common/label.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/assoc-usage.h"
#include "daemon/controller/core.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/depend-wait.h"
#include "daemon/controller/job-alloc.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/master-port.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/node.h"
#include "daemon/controller/qos.h"
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
	char	*alloc, part[LABEL_MAX + 1];
	int	 rc;

	/* A run suspended and resumed is one run. */
	if (to == JOB_SUSPENDED || (from == JOB_SUSPENDED &&
	    to == JOB_RUNNING))
		return (0);
	if (to == JOB_RUNNING && from == JOB_PENDING && how->readopt)
		return (store_run_reopen(row->id));
	if (to == JOB_RUNNING) {
		/* Every part, one too: the run's own record of its GPUs. */
		alloc = job_alloc_text_all(parts, nparts, job_gpu_share(j));
		rc = store_run_start(row->id, row->restarts, row->start_time,
		    job_run_gpus(j), alloc, core_part_run_on(j, parts, nparts,
		    part, sizeof part));
		free(alloc);
		return (rc);
	}
	if ((from == JOB_RUNNING || from == JOB_SUSPENDED) &&
	    to == JOB_PREEMPTING)
		return (store_run_preempt(row->id, now));
	/* A step whose end never came (its node lost) ends with the run. */
	if (job_state_on_node(from) &&
	    store_step_close(row->id, now, "CANCELLED") != 0)
		return (-1);
	if (job_state_on_node(from))
		return (store_run_end(row->id, job_state_is_terminal(to) ?
		    row->end_time : now, requeue_run_end(from, to),
		    how->has_exit, how->exit_code, how->signal));
	return (0);
}

/* A run of j ended at end (as job_runs records it: its node's word for
 * a finished job): its GPU-seconds, its time suspended apart, to its
 * account's use of its budget (where it was not suspended: a suspension
 * ended its part there) and to its partition's, account's and QOS's
 * counts. */
static void
job_change_gpu_seconds(const struct job *j, int64_t end)
{
	char		part[LABEL_MAX + 1];
	const char	*names[METRICS_BY_COUNT];
	uint64_t	gpu_s;
	int64_t		from = job_run_from_ms(j, end * 1000) / 1000;

	if (job_state(j) != JOB_SUSPENDED)
		assoc_usage_run_end(core_usage(), job_account(j), job_qos(j),
		    job_run_milli(j), from, end);
	if (from <= 0 || end <= from)
		return;
	gpu_s = ((uint64_t)(end - from) * job_run_milli(j) + 500) / 1000;
	names[METRICS_BY_PARTITION] = core_part_run(j, part, sizeof part);
	names[METRICS_BY_ACCOUNT] = job_account(j);
	names[METRICS_BY_QOS] = qos_key(&ctx_conf()->qos, job_qos(j));
	metrics_count_gpu_seconds(names, gpu_s);
}

/* A run of j started (row): its account's use of its budget counts it
 * from its start on. A job re-adopted from its node after it was
 * requeued goes on with the run its requeue ended (row->last_stop, ms),
 * as the store's record of it does. */
static void
job_change_run_started(const struct job *j, enum job_state from,
    const struct store_job *row, const struct job_change *how,
    int64_t now)
{
	if (from == JOB_PENDING && how->readopt && row->last_stop > 0)
		assoc_usage_run_reopen(core_usage(), job_account(j),
		    job_qos(j), job_run_milli(j), row->start_time,
		    row->last_stop / 1000, now);
	else
		assoc_usage_run_start(core_usage(), job_account(j),
		    job_qos(j), job_run_milli(j), row->start_time, now);
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
	/* A resume goes on with the run: it is no start. */
	bool				 start = to == JOB_RUNNING &&
					    from != JOB_SUSPENDED;
	int64_t				 now = ctx_now(), now_ms;
	int64_t				 run_from;
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
	if (start) {
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
	else if (to == JOB_SUSPENDED)	/* "TimeSlice", or an operator's */
		row.reason = how->reason != NULL ? how->reason : "None";
	else if (to == JOB_RUNNING)	/* resumed */
		row.reason = "None";
	if (!start && to != JOB_PENDING)
		alloc = job_alloc_text(job_part_const(j, 0), job_nparts(j));
	row.alloc = alloc;
	core_job_row(j, to, &row);
	if (to == JOB_RUNNING && from == JOB_PENDING && how->readopt)
		requeue_readopt(&row, job_run_gpus(j));
	/* Its rendezvous port, while it runs; a job found running keeps
	 * the one it has. */
	if (start && !how->readopt)
		row.master_port = master_port_pick(parts[0].node, id);
	/* The CPUs the run holds: kept with the job once it ends. */
	if (start)
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
	/* Time suspended: the run's and in all. */
	run_from = job_run_from_ms(j, now_ms);
	if (start)
		row.run_suspended = 0;
	if (to == JOB_SUSPENDED)
		row.suspend_since = now_ms;
	if (from == JOB_SUSPENDED) {
		if (now_ms > row.suspend_since) {
			row.suspended += now_ms - row.suspend_since;
			row.run_suspended += now_ms - row.suspend_since;
		}
		row.suspend_since = 0;
	}
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
	if (start) {
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
	if (job_state_on_node(from) && !job_state_on_node(to)) {
		job_change_gpu_seconds(j, job_state_is_terminal(to) ?
		    row.end_time : now);
		core_job_release(j);
	}
	/* Suspended, its run stops counting against its budget; resumed,
	 * it counts again, from its start put off by the suspension. */
	if (to == JOB_SUSPENDED)
		assoc_usage_run_end(core_usage(), job_account(j), job_qos(j),
		    job_run_milli(j), run_from / 1000, now);
	job_set_state(j, to);
	job_set_reason(j, row.reason);
	job_set_sched_row(j, &row);
	job_set_master_port(j, row.master_port);
	job_set_alloc_cpus(j, row.alloc_cpus);
	if (start) {
		job_set_restarts(j, row.restarts);
		job_set_run(j, parts, nparts, row.start_time);
		job_set_run_shards(j, node_gpu_shards(parts[0].node));
		job_change_run_started(j, from, &row, how, now);
	} else if (from == JOB_SUSPENDED && job_state_on_node(to)) {
		/* Resumed, or thawed to be stopped (PREEMPTING). */
		job_set_resumed(j, now_ms);
		assoc_usage_run_reopen(core_usage(), job_account(j),
		    job_qos(j), job_run_milli(j), job_run_from_ms(j, now_ms) /
		    1000, now, now);
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

/* Appends to ev (*n so far) the event of one field of a request that
 * changes, from from to to: "name "a" -> "b", by alice"; a text is
 * quoted, and "" is none. */
static void
job_change_req_event(char **ev, size_t *n, const char *label,
    const char *from, const char *to, bool quote, const char *detail)
{
	const char	*qf = quote && *from != '\0' ? "\"" : "";
	const char	*qt = quote && *to != '\0' ? "\"" : "";

	if (strcmp(from, to) == 0)
		return;
	ev[(*n)++] = xasprintf("%s %s%s%s -> %s%s%s%s%s", label, qf,
	    *from != '\0' ? from : "none", qf, qt, *to != '\0' ? to : "none",
	    qt, detail != NULL ? ", " : "", detail != NULL ? detail : "");
}

/* The core takes a job's request as the job enters it (core_submit) and
 * has no call to change it: a pending job whose request changed leaves
 * it and enters again, as a hold and a release have it do, but with no
 * change of state. What the core counted while the job waited (a
 * promotion) is kept first, as a transition keeps it (core_job_row). */
static void
job_change_core_leave(struct job *j)
{
	struct store_job	row;

	job_to_row(j, &row);
	core_job_row(j, JOB_PENDING, &row);
	job_set_sched_row(j, &row);
	core_job_changed(j, JOB_PENDING, JOB_HELD, &row);
}

/* Its dependency is judged as it enters: its reason then says which way
 * it stands (Dependency, DependencyNeverSatisfied), or None. */
static void
job_change_core_enter(struct job *j)
{
	struct store_job	row;

	if (strncmp(job_reason(j), "Dependency", 10) == 0)
		job_set_reason(j, "None");
	job_to_row(j, &row);
	core_job_changed(j, JOB_HELD, JOB_PENDING, &row);
}

/* A begin time as the history shows it: local ISO 8601, or "none". */
static void
job_change_when(int64_t t, char *buf, size_t len)
{
	time_t		 tt = (time_t)t;
	struct tm	 tm;

	if (t == 0 || localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(buf, len, "none");
}

int
job_change_request(struct job *j, const struct job_change_req *req,
    const char *detail)
{
	struct store_job	 was, row;
	const char		*state = job_state_name(job_state(j));
	char			*ev[12], from[32], to[32];
	size_t			 n = 0, i;
	bool			 again, renamed;
	int			 rc = -1;

	job_to_row(j, &was);
	row = was;
	if (req->name != NULL)
		row.name = *req->name != '\0' ? req->name :
		    job_req_default_name(row.command);
	if (req->comment != NULL)
		row.comment = req->comment;
	if (req->dependency != NULL)
		row.dependency = req->dependency;
	if (req->has_time_limit)
		row.time_limit = req->time_limit;
	if (req->partition != NULL)
		row.partition = req->partition;
	if (req->qos != NULL)
		row.qos = req->qos;
	if (req->account != NULL)
		row.account = req->account;
	if (req->gpus != 0)
		row.gpus = req->gpus;
	if (req->has_begin)
		row.begin_time = req->begin_time;
	if (req->has_nice)
		row.nice = req->nice;
	if (req->has_priority)
		row.priority = req->priority;
	if (req->num_nodes != 0 && req->num_nodes != row.num_nodes) {
		row.num_nodes = req->num_nodes;
		/* A shape asked for is not any shape (--any-shape, or a job
		 * of a store before schema 14): the two exclude each other
		 * at submit. */
		row.flags &= ~(uint32_t)JOB_F_ANY_SHAPE;
	}
	job_change_req_event(ev, &n, "name", was.name, row.name, true,
	    detail);
	job_change_req_event(ev, &n, "comment", was.comment, row.comment,
	    true, detail);
	job_change_req_event(ev, &n, "dependency", was.dependency,
	    row.dependency, false, detail);
	job_change_req_event(ev, &n, "time limit", was.time_limit == 0 ?
	    "none" : duration_format(was.time_limit, from, sizeof from),
	    row.time_limit == 0 ? "none" : duration_format(row.time_limit, to,
	    sizeof to), false, detail);
	snprintf(from, sizeof from, "%u", was.num_nodes);
	snprintf(to, sizeof to, "%u", row.num_nodes);
	job_change_req_event(ev, &n, "nodes", was.num_nodes == 0 ? "any" :
	    from, row.num_nodes == 0 ? "any" : to, false, detail);
	job_change_req_event(ev, &n, "partition", was.partition,
	    row.partition, false, detail);
	job_change_req_event(ev, &n, "QOS", *was.qos != '\0' ? was.qos :
	    "the default", row.qos, false, detail);
	job_change_req_event(ev, &n, "account", was.account, row.account,
	    false, detail);
	snprintf(from, sizeof from, "%u", was.gpus);
	snprintf(to, sizeof to, "%u", row.gpus);
	job_change_req_event(ev, &n, "GPUs", from, to, false, detail);
	job_change_when(was.begin_time, from, sizeof from);
	job_change_when(row.begin_time, to, sizeof to);
	job_change_req_event(ev, &n, "begin time", from, to, false, detail);
	snprintf(from, sizeof from, "%d", was.nice);
	snprintf(to, sizeof to, "%d", row.nice);
	job_change_req_event(ev, &n, "nice", from, to, false, detail);
	snprintf(from, sizeof from, "%u", was.priority);
	snprintf(to, sizeof to, "%u", row.priority);
	job_change_req_event(ev, &n, "priority", from, to, false, detail);
	if (n == 0)
		return (0);
	renamed = strcmp(was.name, row.name) != 0;
	/* The partitions judge the time limit too. */
	again = job_state(j) == JOB_PENDING && (renamed ||
	    strcmp(was.dependency, row.dependency) != 0 ||
	    was.num_nodes != row.num_nodes ||
	    was.time_limit != row.time_limit ||
	    strcmp(was.partition, row.partition) != 0 ||
	    strcmp(was.qos, row.qos) != 0 || was.nice != row.nice ||
	    was.priority != row.priority ||
	    strcmp(was.account, row.account) != 0 ||
	    was.begin_time != row.begin_time || was.gpus != row.gpus);
	/* Its reason as a submit writes it; memory has it as the core
	 * judges it (job_change_core_enter). */
	if (job_state(j) == JOB_PENDING && strcmp(was.dependency,
	    row.dependency) != 0)
		row.reason = *row.dependency != '\0' ? "Dependency" :
		    strncmp(was.reason, "Dependency", 10) == 0 ? "None" :
		    was.reason;
	if (store_job_edit(&row) != 0 || (strcmp(row.reason,
	    was.reason) != 0 && store_job_update(&row) != 0))
		goto out;
	for (i = 0; i < n; i++) {
		if (store_event_insert(job_id(j), ctx_now(), state, state,
		    ev[i]) != 0)
			goto out;
	}
	for (i = 0; i < n; i++)
		log_info("job %" PRIu64 ": %s", job_id(j), ev[i]);

	if (again)
		job_change_core_leave(j);
	/* was and row borrow the job's strings, which this replaces. */
	job_set_asked(j, &row);
	if (again)
		job_change_core_enter(j);
	/* A held job's name is a singleton's too: those waiting for one
	 * of its user and name are judged again. */
	if (renamed && depend_wait_changed(job_id(j)))
		core_mark_dirty();
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(ev[i]);
	return (rc);
}
