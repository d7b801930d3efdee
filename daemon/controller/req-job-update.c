/* req-job-update.c: JOB_UPDATE, gctl hold, release, requeue, suspend and
 * resume, and set
 * (scontrol update JobId=... with TimeLimit, Name, Comment, Dependency,
 * NumNodes, Partition and QOS). A held job leaves the queues until
 * released; a requeued running job is preempted as the scheduler would (checkpoint signal,
 * grace, stop) and waits again with its id and its service; a waiting
 * job's request may change, all of what one set asks or none of it, its
 * time limit lowered by its user and raised only by an operator. A running
 * job is suspended (frozen on its nodes, its GPUs kept, its time limit
 * stopped) and resumed by operators alone (scontrol suspend, resume). Users
 * act on their own jobs, operators on all. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/duration.h"
#include "common/job-req.h"
#include "common/label.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/assoc-tab.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/depend-wait.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job-fit.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

/* The members of set, each a row of common/job-req.h read with its bounds
 * (a submit's), and what a message calls it. */
static const struct {
	enum job_req	 f;
	const char	*label;
} req_job_update_sets[] = {
	{ JRQ_NAME, "name" },
	{ JRQ_COMMENT, "comment" },
	{ JRQ_DEPENDENCY, "dependency" },
	{ JRQ_TIME_LIMIT, "time limit" },
	{ JRQ_NUM_NODES, "number of nodes" },
	{ JRQ_PARTITION, "partition" },
	{ JRQ_QOS, "QOS" },
	{ JRQ_NICE, "nice" },
	{ JRQ_PRIORITY, "priority" },
	{ JRQ_ACCOUNT, "account" },
	{ JRQ_GPUS, "GPUs" },
	{ JRQ_BEGIN_TIME, "begin time" },
};
#define REQ_JOB_UPDATE_NSETS						\
	(sizeof req_job_update_sets / sizeof req_job_update_sets[0])

/* Whether req changes member f. */
static bool
req_job_update_has(const struct job_change_req *req, enum job_req f)
{
	switch (f) {
	case JRQ_NAME:
		return (req->name != NULL);
	case JRQ_COMMENT:
		return (req->comment != NULL);
	case JRQ_DEPENDENCY:
		return (req->dependency != NULL);
	case JRQ_TIME_LIMIT:
		return (req->has_time_limit);
	case JRQ_NUM_NODES:
		return (req->num_nodes != 0);
	case JRQ_PARTITION:
		return (req->partition != NULL);
	case JRQ_QOS:
		return (req->qos != NULL);
	case JRQ_NICE:
		return (req->has_nice);
	case JRQ_PRIORITY:
		return (req->has_priority);
	case JRQ_ACCOUNT:
		return (req->account != NULL);
	case JRQ_GPUS:
		return (req->gpus != 0);
	case JRQ_BEGIN_TIME:
		return (req->has_begin);
	default:
		return (false);
	}
}

/* assoc_tab_submit_check's count of waiting jobs, for a job that waits
 * already (counted at its submit): none more. */
static size_t
req_job_update_none_waiting(const char *user, const char *account,
    void *arg)
{
	(void)user;
	(void)account;
	(void)arg;
	return (0);
}

/* Whether req changes the time limit and nothing else. */
static bool
req_job_update_only_limit(const struct job_change_req *req)
{
	size_t	i;

	for (i = 0; i < REQ_JOB_UPDATE_NSETS; i++) {
		if (req_job_update_sets[i].f != JRQ_TIME_LIMIT &&
		    req_job_update_has(req, req_job_update_sets[i].f))
			return (false);
	}
	return (true);
}

/* What req changes, for a message: "its name and time limit". */
static void
req_job_update_what(const struct job_change_req *req, char *buf, size_t len)
{
	size_t	i, n = 0, k = 0, off;

	for (i = 0; i < REQ_JOB_UPDATE_NSETS; i++)
		n += req_job_update_has(req, req_job_update_sets[i].f);
	snprintf(buf, len, "its");
	for (i = 0; i < REQ_JOB_UPDATE_NSETS; i++) {
		if (!req_job_update_has(req, req_job_update_sets[i].f))
			continue;
		off = strlen(buf);
		snprintf(buf + off, len - off, "%s%s", k == 0 ? " " : k + 1 ==
		    n ? " and " : ", ", req_job_update_sets[i].label);
		k++;
	}
}

/* Whether a partition of j's list (req's, if it changes it) takes j as
 * req leaves it, as at submit: 0, or -1 with why naming each refusal. */
static int
req_job_update_parts(const struct job *j, const struct job_change_req *req,
    char *why, size_t len)
{
	const struct parts	*ps = &ctx_conf()->parts;
	const char		*list = req->partition != NULL ?
				    req->partition : job_partition(j);
	struct part_ask		 a;
	char			 err[384];

	if (ps->n == 0)
		return (0);
	memset(&a, 0, sizeof a);
	a.time_limit = req->has_time_limit ? req->time_limit :
	    job_time_limit(j);
	a.gpus = req->gpus != 0 ? req->gpus : job_gpus(j);
	a.nodes = req->num_nodes != 0 ? req->num_nodes : job_num_nodes(j);
	a.account = req->account != NULL ? req->account : job_account(j);
	a.qos = req->qos != NULL ? req->qos : job_qos(j);
	if (part_choose(ps, list, &a, job_req_nodes(j), NULL, err,
	    sizeof err) != NULL)
		return (0);
	snprintf(why, len, "job %" PRIu64 ": %s %.80s takes it so: %s",
	    job_id(j), strchr(list, ',') != NULL ? "no partition of" :
	    "partition", list, err);
	return (-1);
}

/* Whether j may have the QOS req gives (its own, if req changes only the
 * time limit): one of a higher priority than its own only by an
 * operator's hand, and its limits take the job as at submit. Returns
 * NULL, or the error code with why filled. */
static const char *
req_job_update_qos(struct peer *p, const struct job *j,
    const struct job_change_req *req, char *why, size_t len)
{
	const struct qoses	*qs = &ctx_conf()->qos;
	const struct qos	*was, *to;
	uint64_t		 limit = req->has_time_limit ? req->time_limit :
				    job_time_limit(j);
	char			 err[256];

	was = *job_qos(j) != '\0' ? qos_find(qs, job_qos(j)) :
	    qos_default(qs);
	to = req->qos != NULL ? qos_find(qs, req->qos) : was;
	if (to == NULL)
		return (NULL);
	if (req->qos != NULL && !peer_is_operator(p) && (was == NULL ||
	    to->priority > was->priority)) {
		snprintf(why, len, "job %" PRIu64 ": only an operator may move "
		    "a job to a QOS of a higher priority (%s is %u, %s %u)",
		    job_id(j), to->name, to->priority, was != NULL ? was->name :
		    job_qos(j), was != NULL ? was->priority : 0);
		return (PROTO_E_PERMISSION);
	}
	/* A job without a time limit keeps none unless the QOS caps it. */
	if (limit == 0 && to->max_time != 0 && !req->has_time_limit) {
		snprintf(why, len, "job %" PRIu64 ": QOS %s has a max_time; "
		    "give a TimeLimit with the QOS", job_id(j), to->name);
		return (PROTO_E_INVALID);
	}
	if (qos_admits(to, &limit, req->gpus != 0 ? req->gpus : job_gpus(j),
	    err, sizeof err) != 0) {
		snprintf(why, len, "job %" PRIu64 ": %s", job_id(j), err);
		return (PROTO_E_INVALID);
	}
	return (NULL);
}

/* set: j's request changes as req says, all or nothing. Returns NULL, or
 * the error code with why filled. */
static const char *
req_job_update_set(struct peer *p, struct job *j,
    const struct job_change_req *req, char *why, size_t len)
{
	struct job_change_req mine = *req;
	enum job_state	s = job_state(j);
	const char	*code, *account;
	uint32_t	 gpus, nodes;
	bool		 running;
	uint64_t	old = job_time_limit(j), id = job_id(j);
	uint64_t	limit = req->time_limit;
	char		detail[128], a[32], b[32], what[128], split[160];
	char		refusal[256];
	char		*unfit;

	/* An account is the job's user's: with controller.enforce_accounts
	 * one of theirs; "" their default. */
	if (req->account != NULL) {
		if (assoc_tab_resolve(core_assoc(), job_user(j), req->account,
		    ctx_conf()->enforce_accounts, &account, refusal,
		    sizeof refusal) != 0) {
			snprintf(why, len, "job %" PRIu64 ": %s", id, refusal);
			return (PROTO_E_INVALID);
		}
		mine.account = account;
		req = &mine;
	}
	/* A running job's time limit alone may change: its nodes are
	 * told, and enforce it from its start. */
	running = s == JOB_RUNNING && req->has_time_limit &&
	    req_job_update_only_limit(req);
	if (s != JOB_PENDING && s != JOB_HELD && !running) {
		req_job_update_what(req, what, sizeof what);
		snprintf(why, len, "job %" PRIu64 " is %s: %s can change only "
		    "while it waits (PENDING or HELD)%s", id,
		    job_state_name(s), what, s == JOB_RUNNING ?
		    "; of a running job, the time limit alone" : "");
		return (PROTO_E_INVALID);
	}
	if (req->has_time_limit && !peer_is_operator(p) && (limit == 0 ?
	    old != 0 : old != 0 && limit > old)) {
		snprintf(why, len, "job %" PRIu64 ": only an operator may raise "
		    "a time limit (from %s to %s); a user may lower it", id,
		    old == 0 ? "none" : duration_format(old, a, sizeof a),
		    limit == 0 ? "none" : duration_format(limit, b, sizeof b));
		return (PROTO_E_PERMISSION);
	}
	if (req->gpus != 0 && job_gpus(j) == 0) {
		snprintf(why, len, "job %" PRIu64 " is a CPU job: it asks for "
		    "no GPU, and stays so", id);
		return (PROTO_E_INVALID);
	}
	if (req->num_nodes != 0 || req->gpus != 0) {
		gpus = req->gpus != 0 ? req->gpus : job_gpus(j);
		nodes = req->num_nodes != 0 ? req->num_nodes :
		    job_num_nodes(j);
		if (job_gpus_max(j) > 0 && gpus > job_gpus_max(j)) {
			snprintf(why, len, "job %" PRIu64 ": %u GPUs is more "
			    "than its elastic range's most (gsub -G %u-%u); "
			    "expected 1 to %u", id, gpus, job_gpus(j),
			    job_gpus_max(j), job_gpus_max(j));
			return (PROTO_E_INVALID);
		}
		if (job_req_check_split(gpus, nodes, split,
		    sizeof split) != 0 || job_req_check_elastic(gpus,
		    job_gpus_max(j), nodes, split, sizeof split) != 0) {
			snprintf(why, len, "job %" PRIu64 ": %s", id, split);
			return (PROTO_E_INVALID);
		}
		if ((unfit = job_fit_shape(gpus, nodes, req->num_nodes == 0 &&
		    (job_flags(j) & JOB_F_ANY_SHAPE) != 0)) != NULL) {
			snprintf(why, len, "job %" PRIu64 ": %s", id, unfit);
			free(unfit);
			return (PROTO_E_UNSATISFIABLE);
		}
	}
	if (req->dependency != NULL && depend_wait_check_for(j,
	    req->dependency, why, len) != 0)
		return (PROTO_E_INVALID);
	if ((req->partition != NULL || req->has_time_limit ||
	    req->num_nodes != 0 || req->qos != NULL || req->account != NULL ||
	    req->gpus != 0) &&
	    req_job_update_parts(j, req, why, len) != 0)
		return (PROTO_E_INVALID);
	if ((req->account != NULL || req->has_time_limit ||
	    req->gpus != 0) && assoc_tab_submit_check(core_assoc(),
	    job_user(j), req->account != NULL ? req->account :
	    job_account(j), req->has_time_limit ? req->time_limit :
	    job_time_limit(j), req->gpus != 0 ? req->gpus : job_gpus(j),
	    req_job_update_none_waiting, NULL, refusal,
	    sizeof refusal) != 0) {
		snprintf(why, len, "job %" PRIu64 ": %s", id, refusal);
		return (PROTO_E_INVALID);
	}
	if ((req->qos != NULL || req->has_time_limit || req->gpus != 0) &&
	    (code = req_job_update_qos(p, j, req, why, len)) != NULL)
		return (code);
	if (((req->has_nice && req->nice < 0) || (req->has_priority &&
	    req->priority != job_priority(j))) && !peer_is_operator(p)) {
		snprintf(why, len, "job %" PRIu64 ": only an operator may give "
		    "%s; a user may set a nice of 0 to %d", id,
		    req->has_nice && req->nice < 0 ? "a negative nice" :
		    "a priority", JOB_REQ_MAX_NICE);
		return (PROTO_E_PERMISSION);
	}
	snprintf(detail, sizeof detail, "by %s", peer_user(p));
	if (job_change_request(j, req, detail) != 0) {
		snprintf(why, len, "job %" PRIu64 ": the store failed", id);
		return (PROTO_E_INTERNAL);
	}
	/* A node away now enforces the limit it had; it is told again
	 * should it come back with the job (job-report.c). */
	if (running && job_time_limit(j) != old && launch_limit(j) != 0)
		log_warn("job %" PRIu64 ": its time limit changed, but no node "
		    "of it is connected to be told", id);
	return (NULL);
}

#define REQ_JOB_STATE(s)	(1u << (s))

/* JOB_UPDATE's actions: what each is called, the jobs it applies to and
 * where it takes them. */
static const struct req_job_action {
	const char	*name;		/* JOB_UPDATE's "action" */
	const char	*verb;		/* in refusals: "may hold" */
	/* The event's detail ("held by root"); NULL for set, which
	 * changes the request and judges the state itself. */
	const char	*done;
	const char	*which;		/* the jobs it takes: "pending" */
	unsigned	 states;	/* REQ_JOB_STATE of each of them */
	enum job_state	 to;
	bool		 operators;	/* for operators alone */
	/* A waiting task named alone is split off its array's row first,
	 * to be acted on alone. */
	bool		 split;
} req_job_actions[] = {
	{ "hold", "hold", "held", "pending", REQ_JOB_STATE(JOB_PENDING),
	    JOB_HELD, false, true },
	{ "release", "release", "released", "held", REQ_JOB_STATE(JOB_HELD),
	    JOB_PENDING, false, true },
	{ "requeue", "requeue", "requeued", "running or suspended",
	    REQ_JOB_STATE(JOB_RUNNING) | REQ_JOB_STATE(JOB_SUSPENDED),
	    JOB_PREEMPTING, false, false },
	{ "suspend", "suspend", "suspended", "running",
	    REQ_JOB_STATE(JOB_RUNNING), JOB_SUSPENDED, true, false },
	{ "resume", "resume", "resumed", "suspended",
	    REQ_JOB_STATE(JOB_SUSPENDED), JOB_RUNNING, true, false },
	{ "set", "change", NULL, "waiting", REQ_JOB_STATE(JOB_PENDING) |
	    REQ_JOB_STATE(JOB_HELD), JOB_PENDING, false, true },
};
#define REQ_JOB_NACTIONS \
	(sizeof req_job_actions / sizeof req_job_actions[0])

/* The action named name, or NULL. */
static const struct req_job_action *
req_job_update_action(const char *name)
{
	size_t	i;

	for (i = 0; name != NULL && i < REQ_JOB_NACTIONS; i++) {
		if (strcmp(name, req_job_actions[i].name) == 0)
			return (&req_job_actions[i]);
	}
	return (NULL);
}

/* Whether every node j runs on is connected and able to freeze it
 * (gctl suspend). Returns NULL, or the error code with why filled. */
static const char *
req_job_update_freeze(const struct job *j, char *why, size_t len)
{
	const struct job_part	*part;
	size_t			 i;

	for (i = 0; i < job_nparts(j); i++) {
		part = job_part_const(j, i);
		if (part->ended)
			continue;
		if (node_peer(part->node) == NULL) {
			snprintf(why, len, "job %" PRIu64 " runs on %s, which "
			    "is not connected; it cannot be suspended now",
			    job_id(j), node_name(part->node));
			return (PROTO_E_INVALID);
		}
		if (!node_freezer(part->node)) {
			snprintf(why, len, "job %" PRIu64 " runs on %s, whose "
			    "gnoded cannot freeze jobs (it needs node.cgroups "
			    "= true, with cgroup v2's cgroup.freeze or v1's "
			    "freezer)", job_id(j), node_name(part->node));
			return (PROTO_E_INVALID);
		}
	}
	return (NULL);
}

/* Acts on j (set: its request changes as req says); returns NULL, or the
 * error code with why filled. */
static const char *
req_job_update_one(struct peer *p, struct job *j,
    const struct req_job_action *a, const struct job_change_req *req,
    char *why, size_t len)
{
	struct job_change	 how = { 0 };
	const char		*code;
	enum job_state		 s = job_state(j);
	uint64_t		 id = job_id(j);
	char			 detail[128], target[64];

	snprintf(target, sizeof target, "job %" PRIu64, id);
	if (a->operators && !peer_is_operator(p)) {
		snprintf(why, len, "only operators may %s jobs (a job's user "
		    "may requeue or cancel it)", a->verb);
		audit_refused(p, a->name, target, "not an operator");
		return (PROTO_E_PERMISSION);
	}
	if (job_uid(j) != peer_uid(p) && !peer_is_operator(p)) {
		snprintf(why, len, "job %" PRIu64 " belongs to %s; you may %s "
		    "only your own jobs", id, job_user(j), a->verb);
		audit_refused(p, a->name, target, "it belongs to %s",
		    job_user(j));
		return (PROTO_E_PERMISSION);
	}
	if (job_uid(j) != peer_uid(p))
		audit_done(p, a->name, target, "of %s", job_user(j));
	if (a->done == NULL) {
		/* set. What only an operator may do, asked by a user. */
		if ((code = req_job_update_set(p, j, req, why, len)) !=
		    NULL && strcmp(code, PROTO_E_PERMISSION) == 0)
			audit_refused(p, a->name, target, "%s", why);
		return (code);
	}
	if ((a->states & REQ_JOB_STATE(s)) == 0) {
		snprintf(why, len, "job %" PRIu64 " is %s; only a %s job can "
		    "be %s%s", id, job_state_name(s), a->which, a->done,
		    a->to == JOB_HELD && s == JOB_RUNNING ? " (requeue it "
		    "first)" : "");
		return (PROTO_E_INVALID);
	}
	if (a->to == JOB_SUSPENDED &&
	    (code = req_job_update_freeze(j, why, len)) != NULL)
		return (code);
	if (a->to == JOB_PREEMPTING && (job_flags(j) & JOB_F_NO_REQUEUE)) {
		snprintf(why, len, "job %" PRIu64 " was submitted with "
		    "--no-requeue; cancel it instead", id);
		return (PROTO_E_INVALID);
	}
	snprintf(detail, sizeof detail, "%s by %s", a->done, peer_user(p));
	how.detail = detail;
	if (a->to == JOB_PENDING)
		how.reason = "None";
	if (job_change_state(j, a->to, &how) != 0) {
		snprintf(why, len, "job %" PRIu64 ": the store failed", id);
		return (PROTO_E_INTERNAL);
	}
	/* A node that is away stops the job when it comes back (its end
	 * is then reported and requeues it) or is declared lost. */
	if (a->to == JOB_PREEMPTING)
		(void)launch_preempt(j);
	else if (s == JOB_SUSPENDED || a->to == JOB_SUSPENDED)
		(void)launch_suspend(j, a->to == JOB_SUSPENDED);
	return (NULL);
}

struct req_job_update_array {
	struct peer	*peer;
	const struct req_job_action *action;
	const struct job_change_req *req;	/* set's */
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

	if ((a->action->states & REQ_JOB_STATE(job_state(j))) == 0)
		return;
	if ((code = req_job_update_one(a->peer, j, a->action, a->req, why,
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
    const struct req_job_action *action, const struct job_change_req *req,
    char *why, size_t len)
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
	a.req = req;
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
			j = job_array_task(id, t, action->split);
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
		    id, action->which, action->verb);
		return (PROTO_E_INVALID);
	}
	return (NULL);
}

/* set's members (req_job_update_sets) into req, dependency into depend
 * (JOB_REQ_MAX_DEPEND + 1 bytes) in its normal form once checked as a
 * submit's. Returns NULL, or the error code with err filled. */
static const char *
req_job_update_read(const json_t *msg, struct job_change_req *req,
    char *depend, char *part, size_t partlen, char *qos, size_t qoslen,
    char *err, size_t errlen)
{
	struct job_req_val	 v;
	size_t			 i, n = 0, off;
	char			 members[192];
	int			 f;

	memset(req, 0, sizeof *req);
	/* "name, comment, ... or num_nodes", for the messages. */
	members[0] = '\0';
	for (i = 0; i < REQ_JOB_UPDATE_NSETS; i++) {
		off = strlen(members);
		snprintf(members + off, sizeof members - off, "%s%s", i == 0 ?
		    "" : i + 1 == REQ_JOB_UPDATE_NSETS ? " or " : ", ",
		    job_reqs[req_job_update_sets[i].f].member);
	}
	/* A member of a job's request that set does not change is refused,
	 * not left out: the peer asked for a change that did not happen. */
	for (f = 0; f < JRQ_COUNT; f++) {
		for (i = 0; i < REQ_JOB_UPDATE_NSETS; i++) {
			if (req_job_update_sets[i].f == (enum job_req)f)
				break;
		}
		if (i == REQ_JOB_UPDATE_NSETS && job_reqs[f].parent ==
		    JOB_REQ_TOP && json_object_get(msg,
		    job_reqs[f].member) != NULL) {
			snprintf(err, errlen, "set: a job's %s cannot change; "
			    "expected %s", job_reqs[f].member, members);
			return (PROTO_E_INVALID);
		}
	}
	for (i = 0; i < REQ_JOB_UPDATE_NSETS; i++) {
		f = req_job_update_sets[i].f;
		if (job_req_get(msg, f, &v, err, errlen) != 0)
			return (PROTO_E_INVALID);
		if (v.json == NULL)
			continue;
		n++;
		switch (f) {
		case JRQ_NAME:
			req->name = v.s;
			break;
		case JRQ_COMMENT:
			req->comment = v.s;
			break;
		case JRQ_DEPENDENCY:
			/* What it waits for must exist, as at submit; ""
			 * waits for nothing. */
			*depend = '\0';
			if (v.len > 0 && depend_wait_check(v.s, depend,
			    JOB_REQ_MAX_DEPEND + 1, err, errlen) != 0)
				return (PROTO_E_INVALID);
			req->dependency = depend;
			break;
		case JRQ_TIME_LIMIT:
			req->has_time_limit = true;
			req->time_limit = (uint64_t)v.n;
			break;
		case JRQ_NUM_NODES:
			req->num_nodes = (uint32_t)v.n;
			break;
		case JRQ_PARTITION:
			/* Each name known, as gbatch keeps the list; whether
			 * one takes the job is req_job_update_parts's. */
			if (part_resolve(&ctx_conf()->parts, v.s, part,
			    partlen, err, errlen) != 0)
				return (PROTO_E_INVALID);
			req->partition = part;
			break;
		case JRQ_QOS:
			if (qos_resolve(&ctx_conf()->qos, v.s, qos, qoslen,
			    err, errlen) != 0)
				return (PROTO_E_INVALID);
			req->qos = qos;
			break;
		case JRQ_NICE:
			req->has_nice = true;
			req->nice = (int)v.n;
			break;
		case JRQ_PRIORITY:
			req->has_priority = true;
			req->priority = (uint32_t)v.n;
			break;
		case JRQ_ACCOUNT:
			/* What gacct -A matches on: a label, or "" for the
			 * user's default; whose is the job's to say. */
			if (v.len > 0 && !label_ok(v.s)) {
				snprintf(err, errlen, "account: expected 1 to %d "
				    "letters, digits, '.', '-' or '_', got "
				    "\"%s\"", LABEL_MAX, v.s);
				return (PROTO_E_INVALID);
			}
			req->account = v.s;
			break;
		case JRQ_BEGIN_TIME:
			req->has_begin = true;
			req->begin_time = v.n;
			break;
		case JRQ_GPUS:
			/* A CPU job (0) stays one, a GPU job a GPU job. */
			if (v.n == 0) {
				snprintf(err, errlen, "gpus: expected 1 or more; "
				    "a GPU job stays one (cancel it and submit "
				    "a CPU job)");
				return (PROTO_E_INVALID);
			}
			req->gpus = (uint32_t)v.n;
			break;
		}
	}
	if (n == 0) {
		snprintf(err, errlen, "set: expected one or more of %s",
		    members);
		return (PROTO_E_INVALID);
	}
	return (NULL);
}

static void
req_job_update(struct peer *p, const json_t *msg)
{
	struct job_change_req	 req;
	struct job		*j;
	json_t			*reply, *tv;
	const struct req_job_action *action;
	const char		*code, *tasks = NULL;
	unsigned long long	 id = 0;
	char			 err[512], *depend = NULL, part[1100];
	char			 qos[LABEL_MAX + 1];
	size_t			 i, off;

	if ((action = req_job_update_action(json_string_value(
	    json_object_get(msg, "action")))) == NULL) {
		off = snprintf(err, sizeof err, "action: expected");
		for (i = 0; i < REQ_JOB_NACTIONS; i++)
			off += snprintf(err + off, sizeof err - off, "%s\"%s\"",
			    i == 0 ? " " : i + 1 == REQ_JOB_NACTIONS ?
			    " or " : ", ", req_job_actions[i].name);
		req_error(p, msg, PROTO_E_INVALID, "%s", err);
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
	memset(&req, 0, sizeof req);
	if (action->done == NULL) {	/* set */
		depend = xmalloc(JOB_REQ_MAX_DEPEND + 1);
		if ((code = req_job_update_read(msg, &req, depend, part,
		    sizeof part, qos, sizeof qos, err, sizeof err)) != NULL)
			goto fail;
	}
	j = job_table_find(id);
	if (tasks != NULL || job_array_named(id))
		code = req_job_update_array(p, id, tasks, action, &req, err,
		    sizeof err);
	else if (j == NULL) {
		snprintf(err, sizeof err, "job %llu: no such job, or it has "
		    "finished", id);
		code = PROTO_E_NOT_FOUND;
	} else
		code = req_job_update_one(p, j, action, &req, err,
		    sizeof err);
	if (code != NULL)
		goto fail;
	reply = proto_reply_ok(msg);
	peer_send(p, reply);
	json_decref(reply);
	free(depend);
	return;
fail:
	req_error(p, msg, code, "%s", err);
	free(depend);
}

const struct req_entry req_job_update_entry = {
	MSG_JOB_UPDATE, "JOB_UPDATE", REQ_CLIENT, false, true, req_job_update,
	false
};
