/* job-report.c: node reports. The node's word about a job wins when it
 * agrees with the store; when it does not (the job was requeued or
 * cancelled meanwhile), the controller's record wins and the node is told
 * to stop the job. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/core.h"
#include "daemon/controller/gang.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job-report.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/requeue.h"
#include "daemon/controller/stale-copy.h"

/* The longest end message taken from a node (the rest is cut). */
#define JOB_REPORT_MSG_MAX	1024

static uint64_t
job_report_id(const json_t *r)
{
	json_t	*v = json_object_get(r, "id");

	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		return (0);
	return ((uint64_t)json_integer_value(v));
}

static void
job_report_kill(struct peer *p, uint64_t id, const char *why)
{
	json_t	*msg;

	log_warn("job %" PRIu64 ": stopping it on %s: %s", id, peer_addr(p),
	    why);
	msg = json_pack("{s:i,s:I,s:i,s:b}", "type", MSG_JOB_SIGNAL,
	    "id", (json_int_t)id, "signal", 15, "cancel", 1);
	peer_send(p, msg);
	json_decref(msg);
}

/* Tells the node of p j's time limit, which may have changed while the
 * node was away (gctl update job TimeLimit= of a running job); a
 * suspended job is frozen again (gnoded may have restarted). */
static void
job_report_limit(struct peer *p, const struct job *j)
{
	json_t	*msg;

	if (job_state(j) == JOB_SUSPENDED)
		msg = launch_suspend_msg(j, true);
	else
		msg = json_pack("{s:i,s:I,s:I}", "type", MSG_JOB_LIMIT, "id",
		    (json_int_t)job_id(j), "time_limit",
		    (json_int_t)launch_run_limit(j));
	peer_send(p, msg);
	json_decref(msg);
}

/* The GPUs a report names, as a mask; -1 when it names bad ones. */
static int
job_report_mask(const json_t *r, uint64_t *mask)
{
	json_t		*g;
	json_int_t	 gi;
	size_t		 i;

	*mask = 0;
	json_array_foreach(json_object_get(r, "gpus"), i, g) {
		gi = json_integer_value(g);
		if (!json_is_integer(g) || gi < 0 || gi >= 64)
			return (-1);
		*mask |= UINT64_C(1) << gi;
	}
	return (0);
}

/* A copy of job id that must not run on (its job was requeued, or has
 * ended, while n was away): n is asked to stop it as it would preempt it,
 * checkpoint signal first so its work is saved, and its GPUs stay out of
 * reach until its end is reported (job_report_ended). A pending job waits
 * for its stale copies (job_stale_copies). */
static void
job_report_stop_stale(struct node *n, struct peer *p, uint64_t id,
    uint64_t mask, const char *why)
{
	struct job	*j = job_table_find(id);
	json_t		*msg;

	log_warn("job %" PRIu64 ": a stale copy runs on %s (%s); stopping it "
	    "through its checkpoint signal", id, node_name(n), why);
	if (core_stale_release(n, id) && j != NULL)
		job_set_stale_copies(j, job_stale_copies(j) - 1);
	if (core_stale_add(n, mask, id) && j != NULL) {
		job_set_stale_copies(j, job_stale_copies(j) + 1);
		if (job_state(j) == JOB_PENDING)
			job_set_reason(j, "StaleCopy");
	}
	msg = json_pack("{s:i,s:I}", "type", MSG_JOB_PREEMPT,
	    "id", (json_int_t)id);
	peer_send(p, msg);
	json_decref(msg);
	core_job_stale_changed(j);
}

/* The stale copy of job id on n has ended (or n is gone): its GPUs are
 * free again, and the job may run once no other copy is left. Returns
 * whether n had a stale copy of id. */
static bool
job_report_stale_gone(struct node *n, uint64_t id)
{
	struct job	*j = job_table_find(id);

	if (!core_stale_release(n, id))
		return (false);
	log_info("job %" PRIu64 ": its stale copy on %s is gone", id,
	    node_name(n));
	if (j != NULL && job_stale_copies(j) > 0) {
		job_set_stale_copies(j, job_stale_copies(j) - 1);
		if (job_stale_copies(j) == 0 && job_state(j) == JOB_PENDING)
			job_set_reason(j, "Requeued");
	}
	core_job_stale_changed(j);
	return (true);
}

void
job_report_stale_forget(struct node *n)
{
	uint64_t	id;

	while ((id = core_stale_first(n)) != 0)
		(void)job_report_stale_gone(n, id);
}

void
job_report_running(struct node *n, struct peer *p, const json_t *r)
{
	struct job_change	 how = { 0 };
	struct stale_copy	 c = { 0 };
	enum stale_copy_verdict	 verdict;
	struct job		*j;
	json_t			*v;
	uint64_t		 id = job_report_id(r), mask;
	char			 why[160];

	if (id == 0) {
		log_warn("node %s: ignoring a job report without an id",
		    node_name(n));
		return;
	}
	if (job_report_mask(r, &mask) != 0) {
		job_report_kill(p, id, "its report names bad GPUs");
		return;
	}
	if ((j = job_table_find(id)) != NULL) {
		c.known = true;
		c.state = job_state(j);
		c.here = job_rank_on(j, n) >= 0;
		c.cancel_requested = job_cancel_requested(j);
		if (!c.here && job_node(j) != NULL)
			c.runs_on = node_name(job_node(j));
		c.gpus = job_run_gpus(j);
		c.restarts = job_restarts(j);
	}
	c.mask = mask;
	c.num_nodes = json_integer_value(json_object_get(r, "num_nodes"));
	v = json_object_get(r, "restarts");
	c.has_restarts = json_is_integer(v);
	c.report_restarts = json_integer_value(v);
	c.free_mask = core_node_free_mask(n);
	switch ((verdict = stale_copy_judge(&c, why, sizeof why))) {
	case STALE_COPY_RUNS:
	case STALE_COPY_CANCEL:
		log_info("job %" PRIu64 ": re-adopted on %s", id, node_name(n));
		if (verdict == STALE_COPY_CANCEL)
			job_report_kill(p, id, "cancelled while its node was "
			    "away");
		else if (j != NULL)
			job_report_limit(p, j);
		return;
	case STALE_COPY_STOP:
		job_report_stop_stale(n, p, id, mask, why);
		return;
	case STALE_COPY_READOPT:
		break;
	}
	how.node = n;
	how.mask = mask;
	how.start_time = json_integer_value(json_object_get(r, "start_time"));
	how.detail = "re-adopted: it ran on while its node was away";
	how.readopt = true;
	(void)job_change_state(j, JOB_RUNNING, &how);
}

static void
job_report_ack(struct peer *p, uint64_t id)
{
	json_t	*ack;

	if (p == NULL)
		return;
	ack = json_pack("{s:i,s:I}", "type", MSG_JOB_ENDED_ACK,
	    "id", (json_int_t)id);
	peer_send(p, ack);
	json_decref(ack);
}

/* j as gang.h's rules see it. */
static void
job_report_gang(const struct job *j, struct gang *g)
{
	memset(g, 0, sizeof *g);
	g->state = job_state(j);
	g->cancel_requested = job_cancel_requested(j);
	g->stopping = job_gang_stopping(j);
	g->no_requeue = (job_flags(j) & JOB_F_NO_REQUEUE) != 0;
	g->interactive = job_is_interactive(j);
	g->batch_once = (job_flags(j) & JOB_F_BATCH_ONCE) != 0;
	g->restarts = job_restarts(j);
	g->parts = job_part_const(j, 0);
	g->nparts = job_nparts(j);
	g->node_name = node_name;
}

/* A report's whole number member from 0 to 2^53, 0 otherwise. */
static uint64_t
job_report_u64(const json_t *r, const char *key)
{
	const json_t	*v = json_object_get(r, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > (json_int_t)1 << 53)
		return (0);
	return ((uint64_t)json_integer_value(v));
}

void
job_report_ended(struct node *n, struct peer *p, const json_t *r)
{
	struct job_change	 how = { 0 };
	struct job_part		*part;
	struct job		*j;
	struct peer		**acks = NULL;
	struct gang		 g;
	struct gang_end		 end;
	struct requeue_end	 next;
	enum gang_step		 step;
	enum job_state		 to;
	const char		*state;
	json_t			*v;
	char			 detail[JOB_REPORT_MSG_MAX + 128];
	char			 msgbuf[JOB_REPORT_MSG_MAX + 4];
	uint64_t		 id = job_report_id(r);
	size_t			 i, left, nacks = 0, cut;
	int			 rank;

	if (id == 0) {
		log_warn("node %s: ignoring a job end without an id",
		    node_name(n));
		return;
	}
	/* The end of a stale copy: it is gone, nothing else to record. */
	if (job_report_stale_gone(n, id)) {
		job_report_ack(p, id);
		return;
	}
	state = json_string_value(json_object_get(r, "state"));
	if (state == NULL || job_state_parse(state, &to) != 0 ||
	    !job_state_is_terminal(to)) {
		log_warn("job %" PRIu64 ": node %s reports an end with state "
		    "\"%s\"; expected COMPLETED, FAILED, TIMEOUT or "
		    "CANCELLED", id, node_name(n), state != NULL ? state : "");
		to = JOB_FAILED;
	}
	j = job_table_find(id);
	if (j == NULL || (rank = job_rank_on(j, n)) < 0 ||
	    !job_state_on_node(job_state(j))) {
		log_debug("job %" PRIu64 ": end reported by %s already known "
		    "or stale", id, node_name(n));
		job_report_ack(p, id);
		return;
	}
	v = json_object_get(r, "exit_code");
	how.has_exit = json_is_integer(v);
	how.exit_code = (int)json_integer_value(v);
	how.signal = (int)json_integer_value(json_object_get(r, "signal"));
	how.end_time = json_integer_value(json_object_get(r, "end_time"));
	how.message = json_string_value(json_object_get(r, "message"));
	/* What the run used, where the node's cgroup counted it: kept
	 * before the state changes, which writes the row. */
	job_add_usage(j, job_report_u64(r, "mem_peak_mb"),
	    (int64_t)job_report_u64(r, "cpu_time_ms"));
	/* A node's word on how a job ended is kept with the job and shown:
	 * bounded, cut where a UTF-8 character starts. */
	if (how.message != NULL && strlen(how.message) > JOB_REPORT_MSG_MAX) {
		cut = JOB_REPORT_MSG_MAX;
		while (cut > 0 && (how.message[cut] & 0xc0) == 0x80)
			cut--;
		snprintf(msgbuf, sizeof msgbuf, "%.*s...", (int)cut,
		    how.message);
		how.message = msgbuf;
	}
	if (how.message != NULL && *how.message != '\0')
		how.detail = how.message;

	if (job_nparts(j) > 1) {
		/* A gang ends when its last part does; until then the
		 * node's report waits unacknowledged. */
		part = job_part(j, (size_t)rank);
		part->ended = true;
		part->end_state = to;
		part->has_exit = how.has_exit;
		part->exit_code = how.exit_code;
		part->signal = how.signal;
		free(part->message);
		part->message = how.message != NULL && *how.message != '\0' ?
		    xstrdup(how.message) : NULL;
		job_report_gang(j, &g);
		step = gang_part_ended(&g, (size_t)rank, &left, detail,
		    sizeof detail);
		if (step != GANG_END)
			log_info("job %" PRIu64 ": rank %d on %s ended %s; %zu "
			    "part%s left", id, rank, node_name(n),
			    job_state_name(to), left, left == 1 ? "" : "s");
		switch (step) {
		case GANG_WAIT:
			return;
		case GANG_STOP_OTHERS:
		case GANG_REQUEUE:
			/* The part whose failure stops the others is the one
			 * the job ends as: they fail because of it (a torch
			 * rank sees its peer's connection close). */
			part->first_failure = true;
			job_set_gang_stopping(j, true);
			if (step == GANG_REQUEUE) {
				how.detail = detail;
				if (job_change_state(j, JOB_PREEMPTING,
				    &how) != 0)
					return;
			}
			(void)launch_signal(j, 15, true);
			return;
		case GANG_END:
			break;
		}
		to = gang_end(&g, &end, detail, sizeof detail);
		how.has_exit = end.has_exit;
		if (end.rank >= 0) {
			how.exit_code = end.exit_code;
			how.signal = end.signal;
			how.message = *detail != '\0' ? detail : NULL;
			how.detail = how.message;
		}
		/* Every part's node is told once the job's end is written. */
		acks = xcalloc(job_nparts(j), sizeof *acks);
		for (i = 0; i < job_nparts(j); i++)
			acks[nacks++] = node_peer(job_part_const(j, i)->node);
	}
	/* Cancelled, it ends CANCELLED; preempted (or a gang that stopped
	 * after losing a part), it waits again (requeue.h). */
	requeue_end(job_state(j), job_cancel_requested(j),
	    job_gang_stopping(j), to, &next);
	to = next.to;
	if (next.reason != NULL) {
		how.reason = next.reason;
		how.detail = next.detail;
	}
	if (job_change_state(j, to, &how) != 0) {
		free(acks);
		return;		/* no ACK: the nodes repeat it */
	}
	if (acks == NULL)
		job_report_ack(p, id);
	for (i = 0; i < nacks; i++)
		job_report_ack(acks[i], id);
	free(acks);
}

void
job_report_lost(struct job *j, struct node *n, const struct job_change *how)
{
	struct job_part	*part;
	struct gang	 g;
	enum gang_loss	 loss;
	enum job_state	 to;
	int		 rank = job_rank_on(j, n);

	job_report_gang(j, &g);
	loss = gang_lost(&g, rank, &to);
	if (loss != GANG_LOST_ALONE) {
		part = job_part(j, (size_t)rank);
		part->ended = true;
		part->end_state = JOB_NODE_FAIL;
	}
	switch (loss) {
	case GANG_LOST_ALONE:
	case GANG_LOST_END:
		(void)job_change_state(j, to, how);
		return;
	case GANG_LOST_WAIT:
		return;
	case GANG_LOST_STOP_OTHERS:
		break;
	}
	/* A gang never runs partly: its other parts stop, and it is
	 * requeued once they have (their GPUs are not free before). */
	job_set_gang_stopping(j, true);
	if ((job_state(j) == JOB_RUNNING || job_state(j) == JOB_SUSPENDED) &&
	    job_change_state(j, JOB_PREEMPTING, how) != 0)
		return;
	/* As a preemption: the parts save their work before they stop. */
	(void)launch_preempt(j);
}

static bool
job_report_lists(const json_t *reports, uint64_t id)
{
	const json_t	*r;
	const char	*state;
	size_t		 i;

	json_array_foreach(reports, i, r) {
		state = json_string_value(json_object_get(r, "state"));
		if (job_report_id(r) == id && state != NULL &&
		    strcmp(state, "RUNNING") == 0)
			return (true);
	}
	return (false);
}

void
job_report_missing(struct node *n, const json_t *reports)
{
	struct job_change	 how = { 0 };
	struct job		*j, *next;
	char			 detail[200];

	snprintf(detail, sizeof detail, "node %s re-registered without it",
	    node_name(n));
	how.reason = "NodeLost";
	how.detail = detail;
	for (j = job_table_first(); j != NULL; j = next) {
		next = job_table_next(j);
		if (job_rank_on(j, n) < 0 || !job_state_on_node(job_state(j)))
			continue;
		if (job_report_lists(reports, job_id(j)))
			continue;
		if (job_part_const(j, (size_t)job_rank_on(j, n))->ended)
			continue;
		job_report_lost(j, n, &how);
	}
}
