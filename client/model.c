/* model.c: what a client knows of the cluster (model.h). */
#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/model.h"
#include "common/array.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "common/xmalloc.h"

void
model_init(struct model *m, unsigned timeout_s)
{
	memset(m, 0, sizeof *m);
	m->timeout_s = timeout_s;
	job_filter_init(&m->filter);
}

static void
model_jobs_free(struct model_jobs *j)
{
	free(j->rows);
	free(j->body);
	memset(j, 0, sizeof *j);
}

void
model_free(struct model *m)
{
	int	i;

	client_free(m->c);
	job_filter_clear(&m->filter);
	model_jobs_free(&m->jobs);
	model_jobs_free(&m->job);
	for (i = 0; i < MODEL_ACCT_COUNT; i++)
		json_decref(m->acct[i]);
	model_nodes_free(&m->nodes);
	json_decref(m->ping);
	assoc_list_free(&m->assoc);
	memset(m, 0, sizeof *m);
}

void
model_set_timeout(struct model *m, unsigned timeout_s)
{
	m->timeout_s = timeout_s;
	if (m->c != NULL)
		client_set_timeout(m->c, timeout_s);
}

int
model_client(struct model *m, struct client **cp)
{
	int	r;

	if (m->c == NULL) {
		m->used = false;
		if ((r = client_open(m->timeout_s, &m->c, m->err,
		    sizeof m->err)) != 0) {
			m->c = NULL;
			return (m->status = r);
		}
	}
	*cp = m->c;
	return (0);
}

/* Sends req and waits for its reply: decoded into *reply when reply is
 * not NULL, else raw into *body. A kept connection that has died (gbatchd
 * restarted since the last call) is opened again, once. */
static int
model_call(struct model *m, json_t *req, json_t **reply, char **body,
    size_t *len)
{
	struct client	*c;
	bool		 kept;
	int		 r;

	for (;;) {
		if ((r = model_client(m, &c)) != 0)
			return (r);
		kept = m->used;
		r = reply != NULL ? client_call(c, req, reply, m->err,
		    sizeof m->err) : client_call_raw(c, req, body, len, m->err,
		    sizeof m->err);
		if (r == 0) {
			m->used = true;
			return (0);
		}
		if (r != EXIT_UNREACHABLE)
			return (r);
		client_free(m->c);
		m->c = NULL;
		if (!kept)
			return (r);
	}
}

int
model_request(struct model *m, json_t *req, json_t **reply)
{
	return (model_call(m, req, reply, NULL, NULL));
}

/* --me: the user the controller names this uid, resolved once, on the
 * model's connection, before the first listing that needs it. */
static int
model_resolve_me(struct model *m)
{
	struct client	*c;
	const char	*user;
	int		 r;

	if (!m->filter.me)
		return (0);
	if ((r = model_client(m, &c)) != 0)
		return (r);
	if ((r = client_whoami(c, &user, m->err, sizeof m->err)) != 0) {
		client_free(m->c);
		m->c = NULL;
		return (m->status = r);
	}
	m->used = true;
	if (job_filter_add_user(&m->filter, user, m->err, sizeof m->err) ==
	    -1)
		return (m->status = EXIT_USAGE);
	m->filter.me = false;
	return (0);
}

/* A "rows" listing's columns: each one's field (-1: not one job_row
 * knows), into *out (a new array the caller frees). Returns how many, or
 * -1 when cols is not an array of names. */
static ssize_t
model_scan_columns(const struct jscan_val *cols, int **out)
{
	struct jscan_val	 v;
	size_t			 pos = 0, n = 0;
	int			 r;

	*out = NULL;
	if (cols->type != JSCAN_ARRAY)
		return (-1);
	while ((r = jscan_element(cols, &pos, &v)) == 1) {
		if (v.type != JSCAN_STRING)
			break;
		*out = xreallocarray(*out, n + 1, sizeof **out);
		(*out)[n++] = job_field_by_wire(v.p, v.n);
	}
	if (r != 0) {
		free(*out);
		*out = NULL;
		return (-1);
	}
	return ((ssize_t)n);
}

/* Hands fn the rows of a JOB_LIST reply frame that the filter passes: job
 * objects, or arrays of values under "columns" (a listing asked with
 * "rows"); with whole, a job object's row holds the object alone (obj),
 * its members unread. Sets frame's missing (the ids not found; JSCAN_NONE
 * when the frame has none) and now, before the first row, and *more
 * (whether a streamed reply goes on). Returns 0, or -1 when the frame is
 * not a job list. */
static int
model_walk_jobs(const struct job_filter *f, const char *body, size_t len,
    void (*fn)(const struct job_row *, void *), void *arg, bool whole,
    struct model_jobs *frame, bool *more)
{
	struct jscan_val	*missing = &frame->missing;
	struct jscan_val	 top, key, val, job;
	struct job_row		 row;
	size_t			 pos = 0, jpos, at;
	ssize_t			 ncols = -1;
	int			*cols = NULL;
	bool			 jobs = false;
	int			 r;

	/* One walk over the reply, each job read where it lies: a listing
	 * can be megabytes. The row is cleared once: every job of the frame
	 * writes the same columns (job_row_scan_values). */
	memset(&row, 0, sizeof row);
	missing->type = JSCAN_NONE;
	*more = false;
	if (jscan_open(body, len, &top) == -1)
		return (-1);
	while ((r = jscan_member_lazy(&top, &pos, &key, &val)) == 1) {
		if (jscan_key_is(&key, "missing") || jscan_key_is(&key,
		    "columns")) {
			/* Read later: measured now. */
			at = (size_t)(val.p - top.p);
			if (jscan_value(top.p, top.n, &at, &val) == -1)
				goto bad;
			if (jscan_key_is(&key, "missing"))
				*missing = val;
			else if ((ncols = model_scan_columns(&val, &cols)) ==
			    -1)
				goto bad;
		} else if (jscan_key_is(&key, "more"))
			*more = jscan_true(&val);
		else if (jscan_key_is(&key, "now"))
			(void)jscan_int(&val, &frame->now);
		else if (jscan_key_is(&key, "jobs") && val.type ==
		    JSCAN_ARRAY) {
			jobs = true;
			jpos = 0;
			while ((r = jscan_element_lazy(&val, &jpos, &job)) ==
			    1) {
				if (ncols < 0 && whole && job.type ==
				    JSCAN_OBJECT) {
					/* The object alone, measured. */
					at = 0;
					if (jscan_value(job.p, job.n, &at,
					    &row.obj) == -1 || jscan_resume(
					    &val, &jpos, &row.obj) == -1)
						goto bad;
					fn(&row, arg);
					continue;
				}
				if ((ncols >= 0 ? job.type != JSCAN_ARRAY ||
				    job_row_scan_values(&job, cols,
				    (size_t)ncols, &row) != 0 :
				    job.type != JSCAN_OBJECT ||
				    job_row_scan(&job, &row) != 0) ||
				    jscan_resume(&val, &jpos, &row.obj) == -1)
					goto bad;
				if (f == NULL || job_filter_match(f, &row))
					fn(&row, arg);
			}
			if (r == -1)
				goto bad;
			jscan_close(&val, jpos);
		}
		if (jscan_resume(&top, &pos, &val) == -1)
			goto bad;
	}
	free(cols);
	return (r == -1 || !jobs ? -1 : 0);
bad:
	free(cols);
	return (-1);
}

static void
model_keep_row(const struct job_row *row, void *arg)
{
	struct model_jobs	*out = arg;

	if (out->n == out->size) {
		out->size = out->size != 0 ? out->size * 2 : 64;
		out->rows = xreallocarray(out->rows, out->size,
		    sizeof *out->rows);
	}
	out->rows[out->n++] = *row;
}

/* Keeps the rows of a whole JOB_LIST reply that the filter passes.
 * Returns 0, or -1 when the reply is not a job list. */
static int
model_scan_jobs(const struct job_filter *f, char *body, size_t len,
    struct model_jobs *out)
{
	bool	more;

	memset(out, 0, sizeof *out);
	out->body = body;
	return (model_walk_jobs(f, body, len, model_keep_row, out, false, out,
	    &more));
}

/* A listing's request: the filter's, with fields as rows (or every member
 * and the history), streamed or not; NULL with m's status set when --me
 * could not be resolved. */
static json_t *
model_list_request(struct model *m, const json_t *fields, bool stream)
{
	json_t	*req;

	if (model_resolve_me(m) != 0)
		return (NULL);
	req = proto_msg(MSG_JOB_LIST);
	/* A table's listing comes as rows of values, without a member
	 * name per value: a third less to write, send and read. */
	if (fields != NULL) {
		json_object_set(req, "fields", (json_t *)fields);
		json_object_set_new(req, "rows", json_true());
	} else
		json_object_set_new(req, "history", json_true());
	if (stream)
		json_object_set_new(req, "stream", json_true());
	job_filter_request(&m->filter, req);
	return (req);
}

int
model_refresh_jobs(struct model *m, const json_t *fields)
{
	struct model_jobs	 jobs;
	json_t			*req;
	char			*body;
	size_t			 len;
	int			 r;

	if ((req = model_list_request(m, fields, false)) == NULL)
		return (m->status);
	r = model_call(m, req, NULL, &body, &len);
	json_decref(req);
	if (r != 0)
		return (m->status = r);
	if (model_scan_jobs(&m->filter, body, len, &jobs) == -1) {
		model_jobs_free(&jobs);
		snprintf(m->err, sizeof m->err, "bad reply from gbatchd at %s: "
		    "not a job list", client_socket_path());
		return (m->status = EXIT_UNREACHABLE);
	}
	model_jobs_free(&m->jobs);
	m->jobs = jobs;
	m->jobs_gen++;
	m->refreshed = time(NULL);
	return (m->status = 0);
}

int
model_stream_jobs(struct model *m, const json_t *fields,
    void (*fn)(const struct job_row *, void *), void *arg)
{
	json_t	*req;
	char	*body;
	size_t	 len;
	bool	 more = true;
	int	 r;

	if ((req = model_list_request(m, fields, true)) == NULL)
		return (m->status);
	r = model_call(m, req, NULL, &body, &len);
	json_decref(req);
	/* Each frame replaces the last: m->jobs ends with the last one, its
	 * missing ids, and no rows. */
	model_jobs_free(&m->jobs);
	m->jobs_gen++;
	while (r == 0) {
		free(m->jobs.body);
		m->jobs.body = body;
		if (model_walk_jobs(&m->filter, body, len, fn, arg, fields ==
		    NULL && job_filter_trivial(&m->filter), &m->jobs,
		    &more) == -1) {
			model_jobs_free(&m->jobs);
			snprintf(m->err, sizeof m->err, "bad reply from gbatchd "
			    "at %s: not a job list", client_socket_path());
			return (m->status = EXIT_UNREACHABLE);
		}
		if (!more)
			break;
		r = client_next_raw(m->c, &body, &len, m->err, sizeof m->err);
	}
	if (r != 0) {
		model_jobs_free(&m->jobs);
		return (m->status = r);
	}
	m->refreshed = time(NULL);
	return (m->status = 0);
}

int
model_refresh_job(struct model *m, uint64_t id)
{
	struct model_jobs	 job;
	json_t			*req;
	char			*body;
	size_t			 len;
	int			 r;

	req = json_pack("{s:i,s:[I],s:b}", "type", MSG_JOB_LIST, "ids",
	    (json_int_t)id, "history", 1);
	r = model_call(m, req, NULL, &body, &len);
	json_decref(req);
	if (r != 0)
		return (m->status = r);
	if (model_scan_jobs(NULL, body, len, &job) == -1) {
		model_jobs_free(&job);
		snprintf(m->err, sizeof m->err, "bad reply from gbatchd at %s: "
		    "not a job list", client_socket_path());
		return (m->status = EXIT_UNREACHABLE);
	}
	model_jobs_free(&m->job);
	m->job = job;
	return (m->status = 0);
}

int
model_refresh_acct(struct model *m, enum model_acct slot, int64_t since,
    int bins)
{
	json_t	*req, *reply;
	int	 r;

	req = json_pack("{s:i,s:s,s:I}", "type", MSG_JOB_ACCT, "report",
	    "cluster", "since", (json_int_t)(since > 0 ? since : 0));
	if (bins > 0)
		json_object_set_new(req, "bins", json_integer(bins));
	r = model_call(m, req, &reply, NULL, NULL);
	json_decref(req);
	if (r != 0)
		return (m->status = r);
	if (!json_is_array(json_object_get(reply, "rows")) || (bins > 0 &&
	    !json_is_array(json_object_get(reply, "series")))) {
		json_decref(reply);
		snprintf(m->err, sizeof m->err, "bad reply from gbatchd at %s: "
		    "not a report", client_socket_path());
		return (m->status = EXIT_UNREACHABLE);
	}
	json_decref(m->acct[slot]);
	m->acct[slot] = reply;
	m->acct_at[slot] = time(NULL);
	return (m->status = 0);
}

int
model_refresh_assoc(struct model *m)
{
	struct assoc_list	l;
	int			r;

	if ((r = model_fetch_assoc(m, &l)) != 0)
		return (m->status = r);
	assoc_list_free(&m->assoc);
	m->assoc = l;
	return (m->status = 0);
}

int
model_refresh_ping(struct model *m)
{
	json_t	*req = proto_msg(MSG_PING), *reply;
	int	 r;

	r = model_call(m, req, &reply, NULL, NULL);
	json_decref(req);
	if (r != 0)
		return (m->status = r);
	json_decref(m->ping);
	m->ping = reply;
	return (m->status = 0);
}

int
model_refresh_nodes(struct model *m, bool brief)
{
	struct model_nodes	 nodes;
	json_t			*req = proto_msg(MSG_NODE_LIST);
	char			*body;
	size_t			 len;
	int			 r;

	if (brief)
		json_object_set_new(req, "brief", json_true());
	r = model_call(m, req, NULL, &body, &len);
	json_decref(req);
	if (r != 0)
		return (m->status = r);
	if (model_nodes_scan(body, len, &nodes) == -1) {
		snprintf(m->err, sizeof m->err, "bad reply from gbatchd at %s: "
		    "not a node list", client_socket_path());
		return (m->status = EXIT_UNREACHABLE);
	}
	model_nodes_free(&m->nodes);
	m->nodes = nodes;
	m->refreshed = time(NULL);
	return (m->status = 0);
}

int
model_node_action(struct model *m, const char *node, enum model_action a,
    const char *reason)
{
	json_t	*req, *reply;
	int	 r;

	req = json_pack("{s:i,s:s,s:s}", "type", MSG_NODE_UPDATE, "node", node,
	    "action", a == MODEL_DRAIN ? "drain" : "resume");
	if (a == MODEL_DRAIN && reason != NULL)
		json_object_set_new(req, "reason", json_string(reason));
	r = model_call(m, req, &reply, NULL, NULL);
	json_decref(req);
	if (r == 0)
		json_decref(reply);
	return (r);
}

json_t *
model_job_update_request(const char *id, const char *action, char *err,
    size_t errlen)
{
	struct array_set	 tasks;
	json_t			*req;
	uint64_t		 jid;
	char			*text;
	size_t			 len;

	if (strchr(id, '_') == NULL) {
		if (cmd_parse_id(id, &jid, err, errlen) == -1)
			return (NULL);
		return (json_pack("{s:i,s:I,s:s}", "type", MSG_JOB_UPDATE,
		    "id", (json_int_t)jid, "action", action));
	}
	if (array_jobid_parse(id, &jid, &tasks, err, errlen) == -1)
		return (NULL);
	len = array_format(&tasks, false, NULL, 0);
	text = xmalloc(len + 1);
	(void)array_format(&tasks, false, text, len + 1);
	array_free(&tasks);
	req = json_pack("{s:i,s:I,s:s,s:s}", "type", MSG_JOB_UPDATE, "id",
	    (json_int_t)jid, "action", action, "tasks", text);
	free(text);
	return (req);
}

json_t *
model_job_update_requests(int argc, char **argv, const char *action,
    char *err, size_t errlen)
{
	json_t	*ids = json_array(), *reqs = json_array(), *req;
	size_t	 i;
	int	 k;

	for (k = 0; k < argc; k++) {
		if (cmd_split(argv[k], "job id", cmd_add_string, ids, err,
		    errlen) == -1)
			goto fail;
	}
	for (i = 0; i < json_array_size(ids); i++) {
		if ((req = model_job_update_request(json_string_value(
		    json_array_get(ids, i)), action, err, errlen)) == NULL)
			goto fail;
		json_array_append_new(reqs, req);
	}
	json_decref(ids);
	return (reqs);
fail:
	json_decref(ids);
	json_decref(reqs);
	return (NULL);
}

int
model_job_action(struct model *m, uint64_t id, enum model_action a)
{
	static const char *const updates[] = {
		[MODEL_HOLD] = "hold",
		[MODEL_RELEASE] = "release",
		[MODEL_REQUEUE] = "requeue",
	};
	json_t		*req, *reply, *res;
	const char	*code, *msg;
	int		 r;

	if (a == MODEL_CANCEL)
		req = json_pack("{s:i,s:[I]}", "type", MSG_JOB_CANCEL, "ids",
		    (json_int_t)id);
	else
		req = json_pack("{s:i,s:I,s:s}", "type", MSG_JOB_UPDATE, "id",
		    (json_int_t)id, "action", updates[a]);
	r = model_call(m, req, &reply, NULL, NULL);
	json_decref(req);
	if (r != 0)
		return (r);
	/* A cancel answers per job: this one's result is the answer. */
	res = json_array_get(json_object_get(reply, "results"), 0);
	if (a == MODEL_CANCEL && res != NULL &&
	    !json_is_true(json_object_get(res, "ok"))) {
		code = json_string_value(json_object_get(res, "code"));
		msg = json_string_value(json_object_get(res, "message"));
		snprintf(m->err, sizeof m->err, "%s", msg != NULL ? msg :
		    "refused");
		r = code != NULL && strcmp(code, "permission") == 0 ?
		    EXIT_PERMISSION : EXIT_REFUSED;
	}
	json_decref(reply);
	return (r);
}

int
model_fetch_parts(struct model *m, struct slurm_parts *ps)
{
	json_t	*req = proto_msg(MSG_CONFIG_SHOW), *reply;
	int	 r;

	memset(ps, 0, sizeof *ps);
	r = model_request(m, req, &reply);
	json_decref(req);
	if (r != 0)
		return (r);
	if (slurm_part_read(ps, reply, m->err, sizeof m->err) == -1)
		return (EXIT_UNREACHABLE);
	return (0);
}

int
model_fetch_assoc(struct model *m, struct assoc_list *l)
{
	json_t	*req = proto_msg(MSG_ASSOC_LIST), *reply;
	int	 r;

	memset(l, 0, sizeof *l);
	r = model_request(m, req, &reply);
	json_decref(req);
	if (r != 0)
		return (r);
	if (assoc_list_read(l, reply, m->err, sizeof m->err) == -1)
		return (EXIT_UNREACHABLE);
	return (0);
}
