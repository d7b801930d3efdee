/* req-job-update.c: JOB_UPDATE, gctl hold, release and requeue, and set
 * (scontrol update JobId=... TimeLimit=...). A held job leaves the queues
 * until released; a requeued running job is preempted as the scheduler
 * would (checkpoint signal, grace, stop) and waits again with its id and
 * its service; a waiting job's time limit may change, lowered by its user,
 * raised only by an operator. Users act on their own jobs, operators on
 * all. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/array.h"
#include "common/duration.h"
#include "common/job-req.h"
#include "common/proto.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

/* set: j's time limit becomes limit (seconds, 0: none). Returns NULL, or
 * the error code with why filled. */
static const char *
req_job_update_set(struct peer *p, struct job *j, uint64_t limit, char *why,
    size_t len)
{
	enum job_state	s = job_state(j);
	uint64_t	old = job_time_limit(j), id = job_id(j);
	char		detail[128], a[32], b[32];

	if (s != JOB_PENDING && s != JOB_HELD) {
		snprintf(why, len, "job %" PRIu64 " is %s; only a waiting job's "
		    "time limit can change (a running one keeps the limit its "
		    "node enforces)", id, job_state_name(s));
		return (PROTO_E_INVALID);
	}
	if (!peer_is_operator(p) && (limit == 0 ? old != 0 : old != 0 &&
	    limit > old)) {
		snprintf(why, len, "job %" PRIu64 ": only an operator may raise "
		    "a time limit (from %s to %s); a user may lower it", id,
		    old == 0 ? "none" : duration_format(old, a, sizeof a),
		    limit == 0 ? "none" : duration_format(limit, b, sizeof b));
		return (PROTO_E_PERMISSION);
	}
	snprintf(detail, sizeof detail, "by %s", peer_user(p));
	if (job_change_time_limit(j, limit, detail) != 0) {
		snprintf(why, len, "job %" PRIu64 ": the store failed", id);
		return (PROTO_E_INTERNAL);
	}
	return (NULL);
}

/* Acts on j (set: its time limit becomes limit); returns NULL, or the
 * error code with why filled. */
static const char *
req_job_update_one(struct peer *p, struct job *j, const char *action,
    uint64_t limit, char *why, size_t len)
{
	struct job_change	 how = { 0 };
	enum job_state		 s = job_state(j), to;
	uint64_t		 id = job_id(j);
	char			 detail[128], target[64];

	snprintf(target, sizeof target, "job %" PRIu64, id);
	if (job_uid(j) != peer_uid(p) && !peer_is_operator(p)) {
		snprintf(why, len, "job %" PRIu64 " belongs to %s; you may %s "
		    "only your own jobs", id, job_user(j), action);
		audit_refused(p, action, target, "it belongs to %s",
		    job_user(j));
		return (PROTO_E_PERMISSION);
	}
	if (job_uid(j) != peer_uid(p))
		audit_done(p, action, target, "of %s", job_user(j));
	if (strcmp(action, "set") == 0)
		return (req_job_update_set(p, j, limit, why, len));
	snprintf(detail, sizeof detail, "%s by %s", strcmp(action,
	    "hold") == 0 ? "held" : strcmp(action, "release") == 0 ?
	    "released" : "requeued", peer_user(p));
	how.detail = detail;
	if (strcmp(action, "hold") == 0) {
		if (s != JOB_PENDING) {
			snprintf(why, len, "job %" PRIu64 " is %s; only a "
			    "pending job can be held%s", id,
			    job_state_name(s), s == JOB_RUNNING ? " (requeue "
			    "it first)" : "");
			return (PROTO_E_INVALID);
		}
		to = JOB_HELD;
	} else if (strcmp(action, "release") == 0) {
		if (s != JOB_HELD) {
			snprintf(why, len, "job %" PRIu64 " is %s; only a held "
			    "job can be released", id, job_state_name(s));
			return (PROTO_E_INVALID);
		}
		to = JOB_PENDING;
		how.reason = "None";
	} else {
		if (s != JOB_RUNNING) {
			snprintf(why, len, "job %" PRIu64 " is %s; only a "
			    "running job can be requeued", id,
			    job_state_name(s));
			return (PROTO_E_INVALID);
		}
		if (job_flags(j) & JOB_F_NO_REQUEUE) {
			snprintf(why, len, "job %" PRIu64 " was submitted "
			    "with --no-requeue; cancel it instead", id);
			return (PROTO_E_INVALID);
		}
		to = JOB_PREEMPTING;
	}
	if (job_change_state(j, to, &how) != 0) {
		snprintf(why, len, "job %" PRIu64 ": the store failed", id);
		return (PROTO_E_INTERNAL);
	}
	/* A node that is away stops the job when it comes back (its end
	 * is then reported and requeues it) or is declared lost. */
	if (to == JOB_PREEMPTING)
		(void)launch_preempt(j);
	return (NULL);
}

/* Whether action applies to a job in state s. */
static bool
req_job_update_fits(const char *action, enum job_state s)
{
	if (strcmp(action, "hold") == 0)
		return (s == JOB_PENDING);
	if (strcmp(action, "release") == 0)
		return (s == JOB_HELD);
	if (strcmp(action, "set") == 0)
		return (s == JOB_PENDING || s == JOB_HELD);
	return (s == JOB_RUNNING);
}

struct req_job_update_array {
	struct peer	*peer;
	const char	*action;
	uint64_t	 limit;		/* set's */
	const char	*code;		/* the first refusal */
	char		 why[256];
	unsigned	 done;
};

static void
req_job_update_member(struct job *j, void *arg)
{
	struct req_job_update_array	*a = arg;
	const char			*code;
	char				 why[256];

	if (!req_job_update_fits(a->action, job_state(j)))
		return;
	if ((code = req_job_update_one(a->peer, j, a->action, a->limit, why,
	    sizeof why)) != NULL) {
		if (a->code == NULL) {
			a->code = code;
			snprintf(a->why, sizeof a->why, "%s", why);
		}
		return;
	}
	a->done++;
}

/* A job array named by its id, or some of its tasks ("tasks"): the
 * action reaches every one it applies to (hold: those waiting, the
 * array's row with the tasks it stands for; release: those held; requeue:
 * those running). Returns NULL, or the error code with why filled. */
static const char *
req_job_update_array(struct peer *p, uint64_t id, const char *tasks,
    const char *action, uint64_t limit, char *why, size_t len)
{
	struct req_job_update_array	 a;
	struct array_set		 set;
	struct job			*j;
	uint32_t			 t;
	bool				 more;
	char				 err[200];

	memset(&a, 0, sizeof a);
	a.peer = p;
	a.action = action;
	a.limit = limit;
	if (tasks == NULL)
		job_array_each(id, req_job_update_member, &a);
	else {
		if (array_parse(tasks, &set, err, sizeof err) != 0) {
			snprintf(why, len, "tasks: %s", err);
			return (PROTO_E_INVALID);
		}
		for (more = array_next(&set, 0, true, &t); more;
		    more = array_next(&set, t, false, &t)) {
			/* A waiting task is split off its array's row
			 * first, to be held, released or changed alone. */
			j = job_array_task(id, t, strcmp(action, "requeue") !=
			    0);
			if (j != NULL)
				req_job_update_member(j, &a);
		}
		array_free(&set);
	}
	if (a.code != NULL) {
		snprintf(why, len, "%s", a.why);
		return (a.code);
	}
	if (a.done == 0) {
		snprintf(why, len, "array %" PRIu64 " has no %s task to %s",
		    id, strcmp(action, "hold") == 0 ? "pending" :
		    strcmp(action, "release") == 0 ? "held" :
		    strcmp(action, "set") == 0 ? "waiting" : "running",
		    strcmp(action, "set") == 0 ? "change" : action);
		return (PROTO_E_INVALID);
	}
	return (NULL);
}

static void
req_job_update(struct peer *p, const json_t *msg)
{
	struct job		*j;
	json_t			*reply, *tv;
	const char		*action, *code, *tasks = NULL;
	unsigned long long	 id = 0, limit = 0;
	char			 err[256];

	action = json_string_value(json_object_get(msg, "action"));
	if (action == NULL || (strcmp(action, "hold") != 0 &&
	    strcmp(action, "release") != 0 && strcmp(action, "requeue") != 0 &&
	    strcmp(action, "set") != 0)) {
		req_error(p, msg, PROTO_E_INVALID, "action: expected \"hold\", "
		    "\"release\", \"requeue\" or \"set\"");
		return;
	}
	if (strcmp(action, "set") == 0 && (json_object_get(msg,
	    "time_limit") == NULL || req_get_uint(msg, "time_limit",
	    JOB_REQ_MAX_TIME, &limit, err, sizeof err) != 0)) {
		req_error(p, msg, PROTO_E_INVALID, "set: expected time_limit, "
		    "seconds from 0 (none) to %llu",
		    (unsigned long long)JOB_REQ_MAX_TIME);
		return;
	}
	if (req_get_uint(msg, "id", INT64_MAX, &id, err, sizeof err) != 0 ||
	    id == 0) {
		req_error(p, msg, PROTO_E_INVALID, "id: expected a job id");
		return;
	}
	if ((tv = json_object_get(msg, "tasks")) != NULL &&
	    (tasks = json_string_value(tv)) == NULL) {
		req_error(p, msg, PROTO_E_INVALID, "tasks: expected a job "
		    "array's tasks, e.g. \"3-5\"");
		return;
	}
	j = job_table_find(id);
	if (tasks != NULL || job_array_named(id)) {
		code = req_job_update_array(p, id, tasks, action, limit, err,
		    sizeof err);
	} else if (j == NULL) {
		req_error(p, msg, PROTO_E_NOT_FOUND, "job %llu: no such job, "
		    "or it has finished", id);
		return;
	} else
		code = req_job_update_one(p, j, action, limit, err,
		    sizeof err);
	if (code != NULL) {
		req_error(p, msg, code, "%s", err);
		return;
	}
	reply = proto_reply_ok(msg);
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_job_update_entry = {
	MSG_JOB_UPDATE, "JOB_UPDATE", REQ_CLIENT, false, true, req_job_update
};
