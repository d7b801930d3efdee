/* req-job-acct.c: JOB_ACCT, finished jobs for gacct (docs/protocol.md,
 * 204). A month of a busy cluster is a million jobs: the reply is streamed
 * in frames of a few thousand jobs each, one frame per loop pass, read from
 * the store's read-only connection (store-acct.h), and the next frame waits
 * while the client has not read the last ones. The controller keeps
 * scheduling and answering in between, and its memory stays flat. */
#include <sys/types.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "common/array.h"
#include "common/frame.h"
#include "common/label.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-list.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req-job-acct.h"
#include "daemon/controller/req-int.h"
#include "daemon/controller/req.h"
#include "daemon/controller/store-acct.h"

static const struct timeval req_acct_at_once = { 0, 0 };

/* The most users one report names. */
#define REQ_JOB_ACCT_USERS	1024

/* A frame holds REQ_STREAM_JOBS jobs or REQ_STREAM_BYTES (req.h); the next
 * waits while the client has this much unread. */
#define REQ_JOB_ACCT_BACKLOG	(4U << 20)

struct req_job_acct {
	uint64_t		 peer;		/* peer_serial */
	json_t			*req;		/* its type and seq */
	char			*head;		/* each frame's start */
	struct job_field_set	 fields;
	struct job_list_plan	 plan;		/* what each record holds */
	bool			 runs;
	int64_t			 now;
	struct store_acct	*q;
	struct event		*ev;
	size_t			 count;
	struct req_job_acct	*next;
};

static void
req_job_acct_end(struct req_job_acct *a)
{
	struct req_state	*rs = req_state();
	struct req_job_acct	**pp;

	for (pp = &rs->accts; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == a) {
			*pp = a->next;
			break;
		}
	}
	store_acct_close(a->q);
	if (a->ev != NULL)
		event_free(a->ev);
	json_decref(a->req);
	free(a->head);
	free(a);
}

void
req_job_acct_free(void)
{
	struct req_state	*rs = req_state();

	while (rs->accts != NULL)
		req_job_acct_end(rs->accts);
	req_job_acct_report_free();
}

static void
req_job_acct_run(const struct store_run *r, void *arg)
{
	struct jtext	*b = arg;

	if (b->buf[b->len - 1] != '[')
		jtext_add(b, ",", 1);
	jtext_add(b, "{\"run\":", 7);
	jtext_int(b, r->run);
	jtext_add(b, ",\"start_time\":", 14);
	jtext_int(b, r->start_time);
	jtext_add(b, ",\"end_time\":", 12);
	jtext_int(b, r->end_time);
	jtext_add(b, ",\"end_state\":", 13);
	jtext_string(b, r->end_state);
	jtext_add(b, ",\"gpus\":", 8);
	jtext_int(b, r->gpus);
	jtext_add(b, ",\"alloc\":", 9);
	job_list_alloc(b, r->alloc != NULL ? r->alloc : "");
	jtext_add(b, ",\"exit_code\":", 13);
	if (r->has_exit)
		jtext_int(b, r->exit_code);
	else
		jtext_add(b, "null", 4);
	jtext_add(b, ",\"signal\":", 10);
	if (r->has_exit)
		jtext_int(b, r->signal);
	else
		jtext_add(b, "null", 4);
	jtext_add(b, ",\"preempt_time\":", 16);
	jtext_int(b, r->preempt_time);
	jtext_add(b, "}", 1);
}

/* Writes the next frame: its jobs and whether more follow. */
static void
req_job_acct_step(evutil_socket_t fd, short what, void *arg)
{
	struct req_job_acct	*a = arg;
	struct timeval		 later = { 0, 10000 };
	struct store_job	 row;
	struct jtext		 b;
	struct peer		*p;
	char			 err[256];
	size_t			 n = 0;
	int			 r = 1;

	(void)fd;
	(void)what;
	if ((p = peer_by_serial(a->peer)) == NULL) {
		req_job_acct_end(a);
		return;
	}
	if (peer_backlog(p) > REQ_JOB_ACCT_BACKLOG) {
		evtimer_add(a->ev, &later);
		return;
	}
	jtext_init(&b, REQ_STREAM_BYTES + 65536);
	b.len = FRAME_HEADER;
	jtext_add(&b, a->head, strlen(a->head));
	while (n < REQ_STREAM_JOBS && b.len < REQ_STREAM_BYTES &&
	    (r = store_acct_next(a->q, &row, err, sizeof err)) == 1) {
		if (n++ != 0)
			jtext_add(&b, ",", 1);
		job_list_row(&b, &row, a->now, &a->plan);
		if (a->runs) {
			b.len--;	/* the record's closing brace */
			jtext_add(&b, ",\"runs\":[", 9);
			(void)store_acct_runs(a->q, row.id, req_job_acct_run,
			    &b);
			jtext_add(&b, "]}", 2);
		}
	}
	a->count += n;
	if (r == -1) {
		/* The stream ends with the failure instead of its last jobs. */
		log_error("peer %s: JOB_ACCT: %s", peer_addr(p), err);
		free(b.buf);
		req_error(p, a->req, PROTO_E_INTERNAL, "reading the accounting "
		    "records failed: %s", err);
		req_job_acct_end(a);
		return;
	}
	jtext_add(&b, r == 1 ? "],\"more\":true}" : "],\"more\":false}",
	    r == 1 ? 14 : 15);
	req_text_send(p, &b);
	if (r == 1) {
		/* A timer due at once, not event_active: libevent runs the
		 * events activated during a pass in that same pass, so the
		 * whole stream would go out before the loop polled again. */
		evtimer_add(a->ev, &req_acct_at_once);
		return;
	}
	log_debug("peer %s: JOB_ACCT: %zu jobs", peer_addr(p), a->count);
	req_job_acct_end(a);
}

/* Reads a list member: an array whose elements pass check, as JSON text
 * for the query (a new string), or NULL when absent. */
static int
req_job_acct_list(const json_t *msg, const char *key,
    int (*check)(const json_t *), const char *what, char **out, char *err,
    size_t errlen)
{
	json_t	*v = json_object_get(msg, key);
	size_t	 i;

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return (0);
	if (!json_is_array(v)) {
		snprintf(err, errlen, "%s: expected an array of %s", key, what);
		return (-1);
	}
	for (i = 0; i < json_array_size(v); i++) {
		if (!check(json_array_get(v, i))) {
			snprintf(err, errlen, "%s: element %zu is not %s", key,
			    i + 1, what);
			return (-1);
		}
	}
	*out = json_dumps(v, JSON_COMPACT);
	return (0);
}

static int
req_job_acct_is_user(const json_t *v)
{
	return (json_is_string(v) && json_string_length(v) > 0 &&
	    json_string_length(v) < 256);
}

/* An account name as gbatchd keeps them (req-job-submit.c), and a
 * partition's (part.c). */
static int
req_job_acct_is_account(const json_t *v)
{
	return (json_is_string(v) && label_ok(json_string_value(v)));
}

static int
req_job_acct_is_state(const json_t *v)
{
	enum job_state	s;

	return (json_is_string(v) && job_state_parse(json_string_value(v),
	    &s) == 0 && job_state_is_terminal(s) &&
	    strcmp(job_state_name(s), json_string_value(v)) == 0);
}

/* The ids as the query takes them (a new string, JSON): job ids as they
 * are, which select a job and, for an array's id, each of its tasks (as
 * sacct -j does); each task of a string as "ID_TASK". At most
 * REQ_JOB_ACCT_TASKS tasks. */
#define REQ_JOB_ACCT_TASKS	100000
static int
req_job_acct_ids(const json_t *ids, char **out, char *err, size_t errlen)
{
	struct array_set	 tasks;
	json_t			*v, *q = json_array();
	uint64_t		 id;
	uint32_t		 t;
	size_t			 i, n = 0;
	char			 name[48], perr[256];
	bool			 ok;

	for (i = 0; i < json_array_size(ids); i++) {
		v = json_array_get(ids, i);
		if (json_is_integer(v)) {
			json_array_append(q, v);
			continue;
		}
		if (array_jobid_parse(json_string_value(v), &id, &tasks, perr,
		    sizeof perr) == -1)
			continue;
		if (array_count(&tasks) == 0)
			json_array_append_new(q, json_integer((json_int_t)id));
		for (ok = array_next(&tasks, 0, true, &t); ok && n <
		    REQ_JOB_ACCT_TASKS; ok = array_next(&tasks, t, false, &t)) {
			snprintf(name, sizeof name, "%llu_%u",
			    (unsigned long long)id, t);
			json_array_append_new(q, json_string(name));
			n++;
		}
		array_free(&tasks);
		if (ok) {
			snprintf(err, errlen, "ids: more than %d tasks",
			    REQ_JOB_ACCT_TASKS);
			json_decref(q);
			return (-1);
		}
	}
	*out = json_dumps(q, JSON_COMPACT);
	json_decref(q);
	return (0);
}

static int
req_job_acct_time(const json_t *msg, const char *key, int64_t *out,
    char *err, size_t errlen)
{
	json_t	*v = json_object_get(msg, key);

	if (v == NULL || json_is_null(v))
		return (0);
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		snprintf(err, errlen, "%s: expected seconds since the epoch",
		    key);
		return (-1);
	}
	*out = json_integer_value(v);
	return (0);
}

static void
req_job_acct(struct peer *p, const json_t *msg)
{
	struct req_state	*rs = req_state();
	struct store_acct_query	 q;
	struct req_job_acct	*a;
	json_t			*v, *users, *seq;
	char			 err[512], *users_text = NULL;
	char			*states_text = NULL, *ids_text = NULL, *text;
	char			*accounts_text = NULL, *parts_text = NULL;
	const char		*names[REQ_JOB_ACCT_USERS];
	size_t			 i, nnames;

	memset(&q, 0, sizeof q);
	q.until = INT64_MAX;
	/* The names are checked here: the commands read no accounts. */
	if (req_get_users(msg, "users", names, REQ_JOB_ACCT_USERS, &nnames,
	    err, sizeof err) != 0)
		goto invalid;
	if (req_job_acct_time(msg, "since", &q.since, err, sizeof err) != 0 ||
	    req_job_acct_time(msg, "until", &q.until, err, sizeof err) != 0 ||
	    req_job_acct_list(msg, "users", req_job_acct_is_user,
	    "a user name", &users_text, err, sizeof err) != 0 ||
	    req_job_acct_list(msg, "states", req_job_acct_is_state,
	    "a finished state (COMPLETED, FAILED, TIMEOUT, CANCELLED, "
	    "NODE_FAIL, OUT_OF_MEMORY)", &states_text, err, sizeof err) != 0 ||
	    req_job_acct_list(msg, "ids", req_is_job_id,
	    "a job id (a whole number >= 1, or an array's tasks as a string: "
	    "\"42_7\", \"42_[3-5]\")", &ids_text, err, sizeof err) != 0 ||
	    req_job_acct_list(msg, "accounts", req_job_acct_is_account,
	    "an account name (1 to 64 letters, digits, '.', '-' or '_')",
	    &accounts_text, err, sizeof err) != 0 ||
	    req_job_acct_list(msg, "partitions", req_job_acct_is_account,
	    "a partition name (1 to 64 letters, digits, '.', '-' or '_')",
	    &parts_text, err, sizeof err) != 0)
		goto invalid;
	if (ids_text != NULL) {
		free(ids_text);
		ids_text = NULL;
		if (req_job_acct_ids(json_object_get(msg, "ids"), &ids_text,
		    err, sizeof err) != 0)
			goto invalid;
	}
	v = json_object_get(msg, "runs");
	if (v != NULL && !json_is_boolean(v)) {
		snprintf(err, sizeof err, "runs: expected true or false");
		goto invalid;
	}
	a = xcalloc(1, sizeof *a);
	a->runs = json_is_true(v);
	if (job_list_fields(json_object_get(msg, "fields"), &a->fields, err,
	    sizeof err) != 0) {
		free(a);
		goto invalid;
	}
	job_list_plan(&a->plan, a->fields);
	job_preempt_modes(&a->plan.preempt, &ctx_conf()->qos,
	    ctx_conf()->preempt_plain);

	/* Users see their own jobs; operators everyone's. Asking for
	 * someone else's is refused, not answered with nothing. */
	if (!peer_is_operator(p)) {
		users = json_object_get(msg, "users");
		for (i = 0; i < json_array_size(users); i++) {
			if (strcmp(json_string_value(json_array_get(users, i)),
			    peer_user(p)) == 0)
				continue;
			req_error(p, msg, PROTO_E_PERMISSION, "you may see only "
			    "your own jobs (user %s), not %s's; operators see "
			    "everyone's", peer_user(p),
			    json_string_value(json_array_get(users, i)));
			free(a);
			goto out;
		}
		free(users_text);
		users = json_pack("[s]", peer_user(p));
		users_text = json_dumps(users, JSON_COMPACT);
		json_decref(users);
	}
	q.users = users_text;
	q.states = states_text;
	q.ids = ids_text;
	q.accounts = accounts_text;
	q.partitions = parts_text;
	q.fields = job_list_store_fields(a->fields);
	if ((v = json_object_get(msg, "report")) == NULL &&
	    json_object_get(msg, "bins") != NULL) {
		free(a);
		snprintf(err, sizeof err, "bins: only with report \"cluster\"");
		goto invalid;
	}
	if ((v = json_object_get(msg, "report")) != NULL) {
		free(a);
		if (!json_is_string(v)) {
			snprintf(err, sizeof err, "report: expected \"users\","
			    " \"cluster\", \"nodes\", \"accounts\" or"
			    " \"partitions\"");
			goto invalid;
		}
		req_job_acct_report(p, msg, json_string_value(v), &q);
		goto out;
	}
	if ((a->q = store_acct_open(&q, err, sizeof err)) == NULL) {
		req_error(p, msg, PROTO_E_INTERNAL, "%s", err);
		free(a);
		goto out;
	}
	a->peer = peer_serial(p);
	a->now = ctx_now();
	seq = json_object_get(msg, "seq");
	a->req = json_pack("{s:i}", "type", MSG_JOB_ACCT);
	if (seq != NULL)
		json_object_set(a->req, "seq", seq);
	text = seq != NULL ? json_dumps(seq, JSON_ENCODE_ANY | JSON_COMPACT) :
	    NULL;
	a->head = xasprintf("{\"re\":%d%s%s,\"ok\":true,\"now\":%" PRId64
	    ",\"jobs\":[", MSG_JOB_ACCT, text != NULL ? ",\"seq\":" : "",
	    text != NULL ? text : "", a->now);
	free(text);
	a->ev = event_new(ctx_base(), -1, 0, req_job_acct_step, a);
	a->next = rs->accts;
	rs->accts = a;
	req_job_acct_step(-1, 0, a);
	goto out;

invalid:
	req_error(p, msg, PROTO_E_INVALID, "%s", err);
out:
	free(users_text);
	free(states_text);
	free(ids_text);
	free(accounts_text);
	free(parts_text);
}

const struct req_entry req_job_acct_entry = {
	MSG_JOB_ACCT, "JOB_ACCT", REQ_CLIENT, false, true, req_job_acct, false
};
