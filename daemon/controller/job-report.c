/* job-report.c: node reports. The node's word about a job wins when it
 * agrees with the store; when it does not (the job was requeued or
 * cancelled meanwhile), the controller's record wins and the node is told
 * to stop the job. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/proto.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job-report.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"

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

void
job_report_running(struct node *n, struct peer *p, const json_t *r)
{
	struct job_change	 how = { 0 };
	struct job		*j;
	json_t			*g;
	uint64_t		 id = job_report_id(r), mask = 0;
	size_t			 i;
	json_int_t		 gi;

	if (id == 0) {
		log_warn("node %s: ignoring a job report without an id",
		    node_name(n));
		return;
	}
	if ((j = job_find(id)) == NULL) {
		job_report_kill(p, id, "the controller has it finished or "
		    "never had it");
		return;
	}
	if (job_state(j) == JOB_RUNNING || job_state(j) == JOB_PREEMPTING) {
		if (job_node(j) == n) {
			log_info("job %" PRIu64 ": re-adopted on %s", id,
			    node_name(n));
			if (job_cancel_requested(j))
				job_report_kill(p, id, "cancelled while its "
				    "node was away");
			return;
		}
		job_report_kill(p, id, "it runs on another node");
		return;
	}
	if (job_state(j) != JOB_PENDING) {
		job_report_kill(p, id, "the job is not pending or running");
		return;
	}
	/* Requeued while its node was away, yet still running there: take
	 * it back if its GPUs are free rather than run it twice. */
	json_array_foreach(json_object_get(r, "gpus"), i, g) {
		gi = json_integer_value(g);
		if (!json_is_integer(g) || gi < 0 || gi >= 64) {
			job_report_kill(p, id, "its report names bad GPUs");
			return;
		}
		mask |= UINT64_C(1) << gi;
	}
	if (mask == 0 || (mask & ~node_free_mask(n)) != 0 ||
	    (uint32_t)__builtin_popcountll(mask) != job_gpus(j)) {
		job_report_kill(p, id, "it was requeued and its GPUs are "
		    "taken");
		return;
	}
	how.node = n;
	how.mask = mask;
	how.start_time = json_integer_value(json_object_get(r, "start_time"));
	how.detail = "re-adopted after requeue";
	(void)job_change_state(j, JOB_RUNNING, &how);
}

void
job_report_ended(struct node *n, struct peer *p, const json_t *r)
{
	struct job_change	 how = { 0 };
	struct job		*j;
	enum job_state		 to;
	const char		*state;
	json_t			*ack, *v;
	uint64_t		 id = job_report_id(r);

	if (id == 0) {
		log_warn("node %s: ignoring a job end without an id",
		    node_name(n));
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
	j = job_find(id);
	if (j != NULL && job_node(j) == n && (job_state(j) == JOB_RUNNING ||
	    job_state(j) == JOB_PREEMPTING)) {
		v = json_object_get(r, "exit_code");
		how.has_exit = json_is_integer(v);
		how.exit_code = (int)json_integer_value(v);
		how.signal = (int)json_integer_value(json_object_get(r,
		    "signal"));
		how.end_time = json_integer_value(json_object_get(r,
		    "end_time"));
		how.message = json_string_value(json_object_get(r, "message"));
		if (how.message != NULL && *how.message != '\0')
			how.detail = how.message;
		/* A preempted job stopped: it waits again with its service,
		 * unless its user cancelled it meanwhile. */
		if (job_state(j) == JOB_PREEMPTING &&
		    !job_cancel_requested(j)) {
			to = JOB_PENDING;
			how.reason = "Preempted";
			how.detail = "stopped after its preemption; requeued";
		}
		if (job_change_state(j, to, &how) != 0)
			return;		/* no ACK: the node repeats it */
	} else
		log_debug("job %" PRIu64 ": end reported by %s already known "
		    "or stale", id, node_name(n));
	ack = json_pack("{s:i,s:I}", "type", MSG_JOB_ENDED_ACK,
	    "id", (json_int_t)id);
	peer_send(p, ack);
	json_decref(ack);
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
	for (j = job_first(); j != NULL; j = next) {
		next = job_next(j);
		if (job_node(j) != n || (job_state(j) != JOB_RUNNING &&
		    job_state(j) != JOB_PREEMPTING))
			continue;
		if (job_report_lists(reports, job_id(j)))
			continue;
		(void)job_change_state(j, JOB_PENDING, &how);
	}
}
