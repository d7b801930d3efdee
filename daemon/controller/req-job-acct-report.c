/* req-job-acct-report.c: JOB_ACCT with "report" (docs/protocol.md, 204):
 * gacct --report users, cluster, nodes, accounts, partitions or qos (the
 * rows of the last three are req-job-acct-group.c's). The figures are aggregated here
 * (acct-report.c) from rows read on the store's read-only connection in
 * steps of REQ_ACCT_REPORT_ROWS, one step per loop pass, so a year of a busy
 * cluster costs the loop no long stall and the reply is one small frame:
 * a row per user, per node or per group, never a row per job.
 *
 * The jobs, most of a report's rows, are read meanwhile on a thread of
 * their own, into a report of their own merged at the end: on a connection
 * of its own, touching nothing of the loop's (worker.h). A million jobs' report then takes about the time of
 * its jobs, not of its jobs and runs one after the other. With
 * REQ_ACCT_REPORT_THREADS such threads busy, or none to be had, the loop
 * reads the jobs in its steps too. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/acct-report.h"
#include "daemon/controller/acct-series.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/qos.h"
#include "daemon/controller/req-job-acct.h"
#include "daemon/controller/req-int.h"
#include "daemon/controller/req.h"
#include "daemon/controller/store-acct.h"
#include "daemon/controller/worker.h"

static const struct timeval req_acct_at_once = { 0, 0 };

/* Rows fed per loop pass: about 20 ms of SQLite and aggregation. */
#define REQ_ACCT_REPORT_ROWS	50000
/* Reports whose jobs are read on threads at once. */
#define REQ_ACCT_REPORT_THREADS	2

/* The reports by name. Those by account, partition and QOS are keyed
 * as the users' are (store-acct.h), their rows written in
 * req-job-acct-group.c. */
static const char *const req_job_acct_report_names[STORE_ACCT_NREPORTS] = {
	[STORE_ACCT_USERS] = "users",
	[STORE_ACCT_CLUSTER] = "cluster",
	[STORE_ACCT_NODES] = "nodes",
	[STORE_ACCT_ACCOUNTS] = "accounts",
	[STORE_ACCT_PARTITIONS] = "partitions",
	[STORE_ACCT_QOS] = "qos",
};

/* Whether a report's rows are keyed (acct-report.h's rows by user):
 * by user, account, partition or QOS. */
static bool
req_job_acct_report_keyed(enum store_acct_report kind)
{
	return (kind != STORE_ACCT_CLUSTER && kind != STORE_ACCT_NODES);
}

struct req_job_acct_report {
	uint64_t		 peer;		/* peer_serial */
	json_t			*req;		/* its type and seq */
	enum store_acct_report	 kind;
	/* The users (accounts, partitions) whose rows go out; NULL:
	 * all. */
	json_t			*only;
	int64_t			 since;
	int64_t			 until;
	int64_t			 now;
	int			 bins;		/* of the series; 0: none */
	/* The QOS settings at the request, which the runs are charged
	 * at and the QOS report's rows are of, whatever a reload does
	 * meanwhile. */
	struct qoses		 qos;
	struct store_acct_rep	*q;		/* read in the loop */
	struct acct_report	*r;
	struct event		*ev;
	bool			 loop_done;	/* q is read to its end */
	/* The jobs, read on a thread while the loop reads q (tq NULL when
	 * q reads them). The thread owns tq, tr, th_rc and th_err until
	 * it has ended. */
	struct store_acct_rep	*tq;
	struct acct_report	*tr;
	struct worker		*th;		/* NULL once ended */
	int			 th_rc;		/* store_acct_report_step's */
	char			 th_err[256];
	struct req_job_acct_report	*next;
};

static void
req_job_acct_report_end(struct req_job_acct_report *a)
{
	struct req_state		*rs = req_state();
	struct req_job_acct_report	**pp;

	for (pp = &rs->reports; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == a) {
			*pp = a->next;
			break;
		}
	}
	if (a->th != NULL) {
		/* A client gone or a shutdown: the thread stops soon. */
		log_debug("JOB_ACCT report: interrupting its thread");
		store_acct_report_interrupt(a->tq);
		worker_join(a->th);
		a->th = NULL;
		rs->report_threads--;
	}
	store_acct_report_close(a->tq);
	acct_report_free(a->tr);
	store_acct_report_close(a->q);
	acct_report_free(a->r);
	if (a->ev != NULL)
		event_free(a->ev);
	json_decref(a->req);
	json_decref(a->only);
	qos_clear(&a->qos);
	free(a);
}

void
req_job_acct_report_free(void)
{
	struct req_state	*rs = req_state();

	while (rs->reports != NULL)
		req_job_acct_report_end(rs->reports);
}

json_t *
req_job_acct_report_pct(uint64_t part, uint64_t whole)
{
	if (whole == 0)
		return (json_null());
	return (json_real(100.0 * (double)part / (double)whole));
}

void
req_job_acct_report_jobs(json_t *o, uint64_t jobs, const uint64_t *by_state,
    const struct acct_stat *jct, const struct acct_stat *wait,
    uint64_t preemptions, bool wait_all)
{
	char	key[32];
	int	i;

	json_object_set_new(o, "jobs", json_integer((json_int_t)jobs));
	for (i = 0; i < ACCT_NSTATES; i++) {
		snprintf(key, sizeof key, "%s", job_state_name(
		    acct_report_state(i)));
		for (char *k = key; *k != '\0'; k++)
			*k = (char)(*k >= 'A' && *k <= 'Z' ? *k - 'A' + 'a' :
			    *k);
		json_object_set_new(o, key, json_integer(
		    (json_int_t)by_state[i]));
	}
	json_object_set_new(o, "jct_avg", jct->n != 0 ? json_real(jct->avg) :
	    json_null());
	json_object_set_new(o, "jct_median", jct->n != 0 ?
	    json_integer(jct->median) : json_null());
	json_object_set_new(o, "jct_p95", jct->n != 0 ?
	    json_integer(jct->p95) : json_null());
	json_object_set_new(o, "wait_avg", wait->n != 0 ?
	    json_real(wait->avg / 1000) : json_null());
	if (wait_all) {
		json_object_set_new(o, "wait_median", wait->n != 0 ?
		    json_real((double)wait->median / 1000) : json_null());
		json_object_set_new(o, "wait_p95", wait->n != 0 ?
		    json_real((double)wait->p95 / 1000) : json_null());
	}
	json_object_set_new(o, "preemptions", json_integer(
	    (json_int_t)preemptions));
}

static bool
req_job_acct_report_wanted(const struct req_job_acct_report *a,
    const char *user)
{
	size_t	i;

	if (a->only == NULL)
		return (true);
	for (i = 0; i < json_array_size(a->only); i++) {
		if (strcmp(json_string_value(json_array_get(a->only, i)),
		    user) == 0)
			return (true);
	}
	return (false);
}

static void
req_job_acct_report_users(const struct req_job_acct_report *a, json_t *rows)
{
	const struct acct_report_user	*u;
	const struct acct_report_cluster *c = acct_report_cluster(a->r);
	json_t				*o;
	size_t				 n, i;

	n = acct_report_users(a->r, &u);
	for (i = 0; i < n; i++) {
		if (!req_job_acct_report_wanted(a, u[i].user))
			continue;
		o = json_pack("{s:s}", "user", u[i].user);
		req_job_acct_report_jobs(o, u[i].jobs, u[i].by_state, &u[i].jct,
		    &u[i].wait, u[i].preemptions, false);
		json_object_set_new(o, "gpu_seconds", json_integer(
		    (json_int_t)u[i].gpu_s));
		json_object_set_new(o, "share",
		    req_job_acct_report_pct(u[i].gpu_s, c->gpu_s));
		json_array_append_new(rows, o);
	}
}

static json_t *
req_job_acct_report_group(const char *group, const char *key,
    const struct acct_report_group *g)
{
	json_t	*o = json_pack("{s:s,s:s}", "group", group, "key", key);

	req_job_acct_report_jobs(o, g->jobs, g->by_state, &g->jct, &g->wait,
	    g->preemptions, true);
	return (o);
}

static void
req_job_acct_report_cluster(const struct req_job_acct_report *a, json_t *rows)
{
	const struct acct_report_cluster *c = acct_report_cluster(a->r);
	json_t				*o;
	char				 key[16];
	int				 i;

	o = req_job_acct_report_group("all", "", &c->all);
	json_object_set_new(o, "gpu_seconds", json_integer(
	    (json_int_t)c->gpu_s));
	json_object_set_new(o, "capacity_seconds", json_integer(
	    (json_int_t)c->capacity_s));
	/* Runs on nodes the nodes table no longer lists use GPUs outside
	 * the capacity: idle is never below 0. */
	json_object_set_new(o, "idle_seconds", json_integer(
	    c->capacity_s > c->gpu_s ? (json_int_t)(c->capacity_s -
	    c->gpu_s) : 0));
	json_object_set_new(o, "utilization", req_job_acct_report_pct(c->gpu_s,
	    c->capacity_s));
	json_object_set_new(o, "down_seconds", json_integer(
	    (json_int_t)c->down_gpu_s));
	json_object_set_new(o, "drained_seconds", json_integer(
	    (json_int_t)c->drained_gpu_s));
	json_array_append_new(rows, o);
	for (i = 0; i < c->nqueues; i++) {
		snprintf(key, sizeof key, "Q%d", i);
		json_array_append_new(rows, req_job_acct_report_group("queue",
		    key, &c->queue[i]));
	}
	for (i = 0; i < ACCT_NBUCKETS; i++)
		json_array_append_new(rows, req_job_acct_report_group("gpus",
		    acct_report_bucket_name(i), &c->bucket[i]));
	for (i = 0; i < ACCT_NJCT; i++)
		json_array_append_new(rows, req_job_acct_report_group("jct",
		    acct_report_jct_name(i), &c->jct[i]));
}

/* An average over secs seconds, one decimal's worth of precision. */
static json_t *
req_job_acct_report_avg(uint64_t sum, int64_t secs)
{
	return (json_real(secs > 0 ? (double)sum / (double)secs : 0));
}

static json_t *
req_job_acct_report_series(const struct req_job_acct_report *a)
{
	const struct acct_series_bin	*b;
	json_t				*series = json_array();
	size_t				 n, i;

	n = acct_report_series_bins(a->r, &b);
	for (i = 0; i < n; i++) {
		json_array_append_new(series, json_pack("{s:I,s:I,s:I,s:I,"
		    "s:I,s:o,s:o,s:o}", "start", (json_int_t)b[i].start, "end",
		    (json_int_t)b[i].end, "jobs", (json_int_t)b[i].jobs,
		    "gpu_seconds", (json_int_t)b[i].gpu_s, "capacity_seconds",
		    (json_int_t)b[i].capacity_s, "utilization",
		    req_job_acct_report_pct(b[i].gpu_s, b[i].capacity_s),
		    "running", req_job_acct_report_avg(b[i].run_s, b[i].end -
		    b[i].start), "waiting", req_job_acct_report_avg(b[i].wait_s,
		    b[i].end - b[i].start)));
	}
	return (series);
}

static void
req_job_acct_report_nodes(const struct req_job_acct_report *a, json_t *rows)
{
	const struct acct_report_node	*n;
	size_t				 count, i;

	count = acct_report_nodes(a->r, &n);
	for (i = 0; i < count; i++) {
		json_array_append_new(rows, json_pack("{s:s,s:i,s:I,s:I,s:o,"
		    "s:I,s:I}", "node", n[i].name, "gpus", (int)n[i].gpus,
		    "gpu_seconds", (json_int_t)n[i].gpu_s, "capacity_seconds",
		    (json_int_t)n[i].capacity_s, "utilization",
		    req_job_acct_report_pct(n[i].gpu_s, n[i].capacity_s),
		    "down_seconds", (json_int_t)n[i].down_s,
		    "drained_seconds", (json_int_t)n[i].drained_s));
	}
}

static void
req_job_acct_report_reply(struct req_job_acct_report *a, struct peer *p)
{
	json_t	*reply, *rows = json_array();

	acct_report_finish(a->r);
	switch (a->kind) {
	case STORE_ACCT_USERS:
		req_job_acct_report_users(a, rows);
		break;
	case STORE_ACCT_CLUSTER:
		req_job_acct_report_cluster(a, rows);
		break;
	case STORE_ACCT_NODES:
		req_job_acct_report_nodes(a, rows);
		break;
	case STORE_ACCT_ACCOUNTS:
		req_job_acct_group_accounts(a->r, a->only, a->now, rows);
		break;
	case STORE_ACCT_PARTITIONS:
		req_job_acct_group_partitions(a->r, a->only, rows);
		break;
	case STORE_ACCT_QOS:
		req_job_acct_group_qos(a->r, &a->qos, rows);
		break;
	}
	reply = proto_reply_ok(a->req);
	json_object_set_new(reply, "report", json_string(
	    req_job_acct_report_names[a->kind]));
	json_object_set_new(reply, "since", json_integer(a->since));
	json_object_set_new(reply, "until", json_integer(a->until));
	json_object_set_new(reply, "now", json_integer(a->now));
	if (a->kind == STORE_ACCT_ACCOUNTS)
		req_job_acct_group_month(reply, a->now);
	json_object_set_new(reply, "rows", rows);
	if (a->bins != 0)
		json_object_set_new(reply, "series",
		    req_job_acct_report_series(a));
	peer_send(p, reply);
	json_decref(reply);
}

/* Answers once both the loop's part and the thread's are read. */
static void
req_job_acct_report_done(struct req_job_acct_report *a)
{
	struct peer	*p;

	if (!a->loop_done || a->th != NULL)
		return;
	if ((p = peer_by_serial(a->peer)) == NULL) {
		req_job_acct_report_end(a);
		return;
	}
	if (a->tq != NULL && a->th_rc == -1) {
		log_error("peer %s: JOB_ACCT report: %s", peer_addr(p),
		    a->th_err);
		req_error(p, a->req, PROTO_E_INTERNAL, "reading the accounting "
		    "records failed: %s", a->th_err);
		req_job_acct_report_end(a);
		return;
	}
	if (a->tr != NULL)
		acct_report_merge(a->r, a->tr);
	req_job_acct_report_reply(a, p);
	req_job_acct_report_end(a);
}

static void
req_job_acct_report_step(evutil_socket_t fd, short what, void *arg)
{
	struct req_job_acct_report	*a = arg;
	struct peer		*p;
	char			 err[256];
	int			 r;

	(void)fd;
	(void)what;
	if ((p = peer_by_serial(a->peer)) == NULL) {
		req_job_acct_report_end(a);
		return;
	}
	r = store_acct_report_step(a->q, a->r, REQ_ACCT_REPORT_ROWS, err,
	    sizeof err);
	if (r == 1) {
		/* A timer due at once, not event_active: libevent runs the
		 * events activated during a pass in that same pass, so the
		 * whole stream would go out before the loop polled again. */
		evtimer_add(a->ev, &req_acct_at_once);
		return;
	}
	if (r == -1) {
		log_error("peer %s: JOB_ACCT report: %s", peer_addr(p), err);
		req_error(p, a->req, PROTO_E_INTERNAL, "reading the accounting "
		    "records failed: %s", err);
		req_job_acct_report_end(a);
		return;
	}
	a->loop_done = true;
	req_job_acct_report_done(a);
}

static void
req_job_acct_report_thread(void *arg)
{
	struct req_job_acct_report	*a = arg;

	a->th_rc = store_acct_report_step(a->tq, a->tr, SIZE_MAX, a->th_err,
	    sizeof a->th_err);
}

static void
req_job_acct_report_thread_done(void *arg)
{
	struct req_state		*rs = req_state();
	struct req_job_acct_report	*a = arg;

	a->th = NULL;
	rs->report_threads--;
	req_job_acct_report_done(a);
}

/* Opens the jobs' part for a thread (not started yet). Returns 0, or -1
 * when the loop should read the jobs itself. */
static int
req_job_acct_report_thread_open(struct req_job_acct_report *a,
    const struct store_acct_query *q)
{
	struct req_state	*rs = req_state();
	char			 err[256];

	if (a->kind == STORE_ACCT_NODES)
		return (-1);
	if (rs->report_threads >= REQ_ACCT_REPORT_THREADS) {
		log_debug("JOB_ACCT report: %d threads busy, the jobs are "
		    "read in the loop", rs->report_threads);
		return (-1);
	}
	if ((a->tq = store_acct_report_open(q, a->kind, STORE_ACCT_PART_JOBS |
	    STORE_ACCT_PART_OWN, err, sizeof err)) == NULL) {
		log_warn("accounting report: reading the jobs in the loop: "
		    "%s", err);
		return (-1);
	}
	a->tr = acct_report_create(a->since, a->until);
	if (req_job_acct_report_keyed(a->kind))
		acct_report_users_only(a->tr);
	if (a->bins != 0)
		acct_report_series(a->tr, a->bins);
	return (0);
}

/* A run of QOS qos is charged at the usage factor of the report's
 * settings (arg). */
static uint32_t
req_job_acct_report_weigh(const char *qos, const void *arg)
{
	return (qos_weight(arg, qos));
}

void
req_job_acct_report(struct peer *p, const json_t *msg, const char *name,
    struct store_acct_query *q)
{
	struct req_state	*rs = req_state();
	struct req_job_acct_report	*a;
	json_t			*users = json_object_get(msg, "users"), *seq;
	json_t			*bins = json_object_get(msg, "bins");
	const char		*bad = NULL;
	char			 err[256];
	unsigned		 parts = STORE_ACCT_PART_JOBS | STORE_ACCT_PART_REST;
	int			 kind;

	for (kind = 0; kind < STORE_ACCT_NREPORTS; kind++) {
		if (strcmp(name, req_job_acct_report_names[kind]) == 0)
			break;
	}
	if (kind == STORE_ACCT_NREPORTS) {
		req_error(p, msg, PROTO_E_INVALID, "report: expected \"users\", "
		    "\"cluster\", \"nodes\", \"accounts\", \"partitions\" or "
		    "\"qos\", got \"%s\"", name);
		return;
	}
	if (json_object_get(msg, "ids") != NULL)
		bad = "ids";
	else if (json_object_get(msg, "fields") != NULL)
		bad = "fields";
	else if (json_object_get(msg, "runs") != NULL)
		bad = "runs";
	else if (kind != STORE_ACCT_ACCOUNTS &&
	    json_object_get(msg, "accounts") != NULL)
		bad = "accounts";
	else if (kind != STORE_ACCT_PARTITIONS &&
	    json_object_get(msg, "partitions") != NULL)
		bad = "partitions";
	else if (kind != STORE_ACCT_USERS && json_array_size(users) > 0)
		bad = "users";
	else if (kind == STORE_ACCT_NODES && json_object_get(msg, "states") !=
	    NULL)
		bad = "states";
	else if (kind != STORE_ACCT_CLUSTER && bins != NULL)
		bad = "bins";
	if (bad != NULL) {
		req_error(p, msg, PROTO_E_INVALID, "%s: not with report %s",
		    bad, name);
		return;
	}
	if (bins != NULL && (!json_is_integer(bins) ||
	    json_integer_value(bins) < 1 ||
	    json_integer_value(bins) > ACCT_SERIES_MAX_BINS)) {
		req_error(p, msg, PROTO_E_INVALID, "bins: expected a whole "
		    "number from 1 to %d", ACCT_SERIES_MAX_BINS);
		return;
	}
	/* The waiting jobs of a series count every job alive. */
	if (bins != NULL && json_object_get(msg, "states") != NULL) {
		req_error(p, msg, PROTO_E_INVALID, "bins: not with states (the "
		    "series counts the jobs of every state)");
		return;
	}
	a = xcalloc(1, sizeof *a);
	a->kind = (enum store_acct_report)kind;
	qos_copy(&a->qos, &ctx_conf()->qos);
	q->weigh = req_job_acct_report_weigh;
	q->weigh_arg = &a->qos;
	q->qos_default = qos_key(&a->qos, "");
	if (bins != NULL) {
		a->bins = (int)json_integer_value(bins);
		q->alive = true;
	}
	/* Another user's row is their private data: a user's users report
	 * holds only their own (req_job_acct refused asking for others'),
	 * but its share is still of the whole cluster's use. */
	if (kind == STORE_ACCT_USERS) {
		if (!peer_is_operator(p))
			a->only = json_pack("[s]", peer_user(p));
		else if (json_array_size(users) > 0)
			a->only = json_incref(users);
	} else
		q->users = NULL;
	/* An account's or a partition's row sums its users' jobs: anyone
	 * may see it, as anyone may list the accounts and their budgets.
	 * The rows asked for are cut here, not in the query: a share is
	 * still of the whole cluster's use. */
	if (kind == STORE_ACCT_ACCOUNTS && q->accounts != NULL)
		a->only = json_incref(json_object_get(msg, "accounts"));
	if (kind == STORE_ACCT_PARTITIONS && q->partitions != NULL)
		a->only = json_incref(json_object_get(msg, "partitions"));
	q->accounts = NULL;
	q->partitions = NULL;
	a->now = ctx_now();
	if (q->until > a->now)
		q->until = a->now;
	if (q->since > q->until)
		q->since = q->until;
	a->since = q->since;
	a->until = q->until;
	if (req_job_acct_report_thread_open(a, q) == 0)
		parts = STORE_ACCT_PART_REST;
	if ((a->q = store_acct_report_open(q, a->kind, parts, err,
	    sizeof err)) == NULL) {
		req_error(p, msg, PROTO_E_INTERNAL, "%s", err);
		req_job_acct_report_end(a);
		return;
	}
	a->r = acct_report_create(a->since, a->until);
	if (req_job_acct_report_keyed(a->kind))
		acct_report_users_only(a->r);
	if (a->bins != 0)
		acct_report_series(a->r, a->bins);
	a->peer = peer_serial(p);
	seq = json_object_get(msg, "seq");
	a->req = json_pack("{s:i}", "type", MSG_JOB_ACCT);
	if (seq != NULL)
		json_object_set(a->req, "seq", seq);
	a->ev = event_new(ctx_base(), -1, 0, req_job_acct_report_step, a);
	a->next = rs->reports;
	rs->reports = a;
	if (a->tq != NULL && (a->th = worker_start(ctx_base(),
	    req_job_acct_report_thread, req_job_acct_report_thread_done,
	    a)) != NULL) {
		rs->report_threads++;
		log_debug("JOB_ACCT report: the jobs are read on a thread");
	}
	else if (a->tq != NULL) {
		/* No thread: the loop reads the jobs too. */
		store_acct_report_close(a->q);
		store_acct_report_close(a->tq);
		a->tq = NULL;
		acct_report_free(a->tr);
		a->tr = NULL;
		if ((a->q = store_acct_report_open(q, a->kind,
		    STORE_ACCT_PART_JOBS | STORE_ACCT_PART_REST, err,
		    sizeof err)) == NULL) {
			req_error(p, msg, PROTO_E_INTERNAL, "%s", err);
			req_job_acct_report_end(a);
			return;
		}
	}
	event_active(a->ev, EV_TIMEOUT, 0);
}
