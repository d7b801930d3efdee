/* req-job-cancel.c: JOB_CANCEL. Pending and held jobs are cancelled at
 * once; running ones are signalled through their node and become CANCELLED
 * when the node reports the end. With "signal" the signal is only relayed. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"
#include "daemon/controller/store.h"

struct req_job_cancel {
	struct peer	*peer;
	json_t		*results;
	int		 signal;	/* 0: cancel */
	const char	*name;		/* "42_7": what the user named */
};

/* One job's result. Its message does not name the job: the result's id
 * does, and gcancel prints "job N: " before the message. */
static void
req_job_cancel_result(struct req_job_cancel *c, uint64_t id,
    const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
req_job_cancel_result(struct req_job_cancel *c, uint64_t id,
    const char *code, const char *fmt, ...)
{
	json_t	*r;
	va_list	 ap;
	char	 text[256];

	r = json_pack("{s:I,s:b}", "id", (json_int_t)id, "ok", code == NULL);
	if (c->name != NULL)
		json_object_set_new(r, "job", json_string(c->name));
	if (code != NULL) {
		va_start(ap, fmt);
		vsnprintf(text, sizeof text, fmt, ap);
		va_end(ap);
		json_object_set_new(r, "code", json_string(code));
		json_object_set_new(r, "message", json_string(text));
	}
	json_array_append_new(c->results, r);
}

/* Acts on one job the caller may see. */
static void
req_job_cancel_one(struct req_job_cancel *c, struct job *j)
{
	uint64_t		 id = job_id(j);
	enum job_state		 s = job_state(j);
	char			 detail[128], target[64];

	snprintf(target, sizeof target, "job %" PRIu64, id);
	if (job_uid(j) != peer_uid(c->peer) && !peer_is_operator(c->peer)) {
		req_job_cancel_result(c, id, PROTO_E_PERMISSION, "it belongs "
		    "to %s; you may cancel only your own jobs", job_user(j));
		audit_refused(c->peer, c->signal != 0 ? "signal" : "cancel",
		    target, "it belongs to %s", job_user(j));
		return;
	}
	/* An operator acting on another user's job: the attempt is what
	 * the log records, whatever the job's state makes of it. */
	if (job_uid(j) != peer_uid(c->peer)) {
		if (c->signal != 0)
			audit_done(c->peer, "signal", target, "of %s, signal "
			    "%d", job_user(j), c->signal);
		else
			audit_done(c->peer, "cancel", target, "of %s",
			    job_user(j));
	}
	if (c->signal != 0) {
		if (s != JOB_RUNNING && s != JOB_PREEMPTING)
			req_job_cancel_result(c, id, PROTO_E_INVALID, "it is "
			    "%s; only running jobs can be signalled",
			    job_state_name(s));
		else if (launch_signal(j, c->signal, false) != 0)
			req_job_cancel_result(c, id, PROTO_E_INVALID, "its "
			    "node is not connected");
		else
			req_job_cancel_result(c, id, NULL, NULL);
		return;
	}
	snprintf(detail, sizeof detail, "cancelled by %s",
	    peer_user(c->peer));
	if (launch_cancel(j, detail) != 0) {
		req_job_cancel_result(c, id, PROTO_E_INTERNAL, "the store "
		    "failed; see gbatchd's log");
		return;
	}
	req_job_cancel_result(c, id, NULL, NULL);
}

static void
req_job_cancel_each(struct job *j, void *arg)
{
	req_job_cancel_one(arg, j);
}

/* A job the user named by id: a job array's id (its row, or the task that
 * took it, or tasks left after it ended) is the whole array. */
static void
req_job_cancel_id(struct req_job_cancel *c, uint64_t id)
{
	struct store_job	 row;
	struct job		*j = job_table_find(id);

	if (job_array_named(id)) {
		job_array_each(id, req_job_cancel_each, c);
		return;
	}
	if (j != NULL) {
		req_job_cancel_one(c, j);
		return;
	}
	if (store_job_get(id, &row) == 1) {
		req_job_cancel_result(c, id, PROTO_E_INVALID, "it already "
		    "finished (%s)", job_state_name(row.state));
		store_job_done();
	} else
		req_job_cancel_result(c, id, PROTO_E_NOT_FOUND, "no such job");
}

/* "42_7", "42_[3-5]": tasks of array 42, split off its row when they
 * still wait there (a signal reaches running tasks only). */
static void
req_job_cancel_tasks(struct req_job_cancel *c, uint64_t id,
    const struct array_set *tasks)
{
	struct job	*j;
	uint32_t	 t;
	bool		 ok;
	char		 name[48];

	for (ok = array_next(tasks, 0, true, &t); ok;
	    ok = array_next(tasks, t, false, &t)) {
		snprintf(name, sizeof name, "%" PRIu64 "_%" PRIu32, id, t);
		c->name = name;
		if ((j = job_array_task(id, t, c->signal == 0)) != NULL)
			req_job_cancel_one(c, j);
		else
			req_job_cancel_result(c, id, PROTO_E_NOT_FOUND,
			    "no such array task waiting or running");
		c->name = NULL;
	}
}

static void
req_job_cancel(struct peer *p, const json_t *msg)
{
	struct req_job_cancel	 c;
	struct array_set	 tasks;
	struct job		*j, *next;
	json_t			*ids, *states, *v, *reply;
	const char		*user;
	bool			 want[JOB_STATE_COUNT] = { false };
	unsigned long long	 sig = 0;
	enum job_state		 s;
	char			 err[256];
	size_t			 i;
	uint64_t		 id;

	ids = json_object_get(msg, "ids");
	states = json_object_get(msg, "states");
	v = json_object_get(msg, "user");
	user = json_string_value(v);
	if ((v != NULL && !json_is_null(v) && user == NULL) ||
	    (ids != NULL && !json_is_array(ids)) ||
	    (states != NULL && !json_is_array(states))) {
		req_error(p, msg, PROTO_E_INVALID, "expected ids (array of job "
		    "ids), user (a name) and/or states (array of names)");
		return;
	}
	if (user != NULL && !req_user_exists(user)) {
		req_error(p, msg, PROTO_E_INVALID, "no such user \"%s\"",
		    user);
		return;
	}
	if (json_array_size(ids) == 0 && user == NULL &&
	    json_array_size(states) == 0) {
		req_error(p, msg, PROTO_E_INVALID, "no job selected: give ids, "
		    "a user or states");
		return;
	}
	if (req_get_uint(msg, "signal", 64, &sig, err, sizeof err) != 0) {
		req_error(p, msg, PROTO_E_INVALID, "%s", err);
		return;
	}
	if (json_object_get(msg, "signal") != NULL && sig == 0) {
		req_error(p, msg, PROTO_E_INVALID, "signal: expected a signal "
		    "number from 1 to 64, got 0");
		return;
	}
	json_array_foreach(ids, i, v) {
		if (json_is_string(v)) {
			if (array_jobid_parse(json_string_value(v), &id,
			    &tasks, err, sizeof err) != 0) {
				req_error(p, msg, PROTO_E_INVALID, "ids: "
				    "element %zu: %s", i + 1, err);
				return;
			}
			array_free(&tasks);
		} else if (!json_is_integer(v) || json_integer_value(v) <= 0) {
			req_error(p, msg, PROTO_E_INVALID, "ids: element %zu "
			    "is not a job id (a whole number >= 1, or a "
			    "string \"ID\", \"ID_TASK\" or \"ID_[TASKS]\")",
			    i + 1);
			return;
		}
	}
	json_array_foreach(states, i, v) {
		if (!json_is_string(v) ||
		    job_state_parse(json_string_value(v), &s) != 0) {
			req_error(p, msg, PROTO_E_INVALID, "states: element "
			    "%zu is not a job state (PENDING, RUNNING, ...)",
			    i + 1);
			return;
		}
		want[s] = true;
	}

	c.peer = p;
	c.results = json_array();
	c.signal = (int)sig;
	c.name = NULL;
	if (json_array_size(ids) > 0) {
		json_array_foreach(ids, i, v) {
			if (!json_is_string(v)) {
				req_job_cancel_id(&c,
				    (uint64_t)json_integer_value(v));
				continue;
			}
			(void)array_jobid_parse(json_string_value(v), &id,
			    &tasks, err, sizeof err);
			if (tasks.n == 0)
				req_job_cancel_id(&c, id);
			else
				req_job_cancel_tasks(&c, id, &tasks);
			array_free(&tasks);
		}
	} else {
		for (j = job_table_first(); j != NULL; j = next) {
			next = job_table_next(j);
			if (user != NULL && strcmp(job_user(j), user) != 0)
				continue;
			if (json_array_size(states) > 0 && !want[job_state(j)])
				continue;
			/* Selecting by state or user never reaches other
			 * users' jobs unless the caller is an operator. */
			if (job_uid(j) != peer_uid(p) && !peer_is_operator(p) &&
			    user == NULL)
				continue;
			req_job_cancel_one(&c, j);
		}
	}
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "results", c.results);
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_job_cancel_entry = {
	MSG_JOB_CANCEL, "JOB_CANCEL", REQ_CLIENT, false, true, req_job_cancel,
	false
};
