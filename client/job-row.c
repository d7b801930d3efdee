/* job-row.c: a job object's members and how each field is printed. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "client/job-row.h"
#include "common/duration.h"

static const char *const job_row_keys[JOB_ROW_COUNT] = {
	[JOB_ROW_ID] = "id",
	[JOB_ROW_NAME] = "name",
	[JOB_ROW_USER] = "user",
	[JOB_ROW_UID] = "uid",
	[JOB_ROW_STATE] = "state",
	[JOB_ROW_REASON] = "reason",
	[JOB_ROW_GPUS] = "gpus",
	[JOB_ROW_ALLOC] = "alloc",
	[JOB_ROW_NODES] = "nodes",
	[JOB_ROW_TIME_LIMIT] = "time_limit",
	[JOB_ROW_SUBMIT_TIME] = "submit_time",
	[JOB_ROW_START_TIME] = "start_time",
	[JOB_ROW_END_TIME] = "end_time",
	[JOB_ROW_ELAPSED] = "elapsed",
	[JOB_ROW_EXIT_CODE] = "exit_code",
	[JOB_ROW_SIGNAL] = "signal",
	[JOB_ROW_WORKDIR] = "workdir",
	[JOB_ROW_STDOUT] = "stdout",
	[JOB_ROW_STDERR] = "stderr",
	[JOB_ROW_COMMAND] = "command",
	[JOB_ROW_ARGV] = "argv",
	[JOB_ROW_MESSAGE] = "message",
	[JOB_ROW_QUEUE] = "queue",
	[JOB_ROW_ATTAINED] = "attained",
	[JOB_ROW_RESTARTS] = "restarts",
	[JOB_ROW_PREEMPTIONS] = "preemptions",
	[JOB_ROW_PROMOTIONS] = "promotions",
};

static int
job_row_key(const struct jscan_val *key)
{
	int	i;

	for (i = 0; i < JOB_ROW_COUNT; i++) {
		if (key->n > 0 && key->p[0] == job_row_keys[i][0] &&
		    jscan_key_is(key, job_row_keys[i]))
			return (i);
	}
	return (-1);
}

int
job_row_knows(const struct jscan_val *key)
{
	return (job_row_key(key) != -1);
}

int
job_row_scan(const struct jscan_val *obj, struct job_row *row)
{
	struct jscan_val	key, val;
	size_t			pos = 0;
	int			r, k;

	memset(row, 0, sizeof *row);
	row->obj = *obj;
	while ((r = jscan_member(obj, &pos, &key, &val)) == 1) {
		if ((k = job_row_key(&key)) != -1)
			row->v[k] = val;
	}
	return (r);
}

static const struct jscan_val *
job_row_v(const void *row, enum job_row_key k)
{
	return (&((const struct job_row *)row)->v[k]);
}

/* A string or number member as text; absent and null print as "-" (the
 * table prints empty cells so). */
static const char *
job_row_text(const void *row, enum job_row_key k, char *buf, size_t len)
{
	const struct jscan_val	*v = job_row_v(row, k);

	if (v->type == JSCAN_NONE || v->type == JSCAN_NULL)
		return ("");
	jscan_string(v, buf, len);
	return (buf);
}

static const char *
job_row_seconds(const void *row, enum job_row_key k, char *buf, size_t len,
    const char *zero)
{
	long long	t;

	if (jscan_int(job_row_v(row, k), &t) == -1 || t < 0)
		return ("");
	if (t == 0 && zero != NULL)
		return (zero);
	return (duration_format((uint64_t)t, buf, len));
}

static const char *
job_row_date(const void *row, enum job_row_key k, char *buf, size_t len)
{
	long long	t;
	time_t		tt;
	struct tm	tm;

	if (jscan_int(job_row_v(row, k), &t) == -1 || t <= 0)
		return ("");
	tt = (time_t)t;
	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		return ("");
	return (buf);
}

/* Whether the job waits: only then does a reason mean anything. */
static int
job_row_waits(const void *row)
{
	const struct jscan_val	*v = job_row_v(row, JOB_ROW_STATE);

	return (jscan_key_is(v, "PENDING") || jscan_key_is(v, "HELD"));
}

#define JOB_ROW_GET_TEXT(fn, key)					\
static const char *							\
fn(const void *row, const void *ctx, char *buf, size_t len)		\
{									\
	return (job_row_text(row, key, buf, len));			\
}
JOB_ROW_GET_TEXT(job_row_get_id, JOB_ROW_ID)
JOB_ROW_GET_TEXT(job_row_get_name, JOB_ROW_NAME)
JOB_ROW_GET_TEXT(job_row_get_user, JOB_ROW_USER)
JOB_ROW_GET_TEXT(job_row_get_uid, JOB_ROW_UID)
JOB_ROW_GET_TEXT(job_row_get_state, JOB_ROW_STATE)
JOB_ROW_GET_TEXT(job_row_get_gpus, JOB_ROW_GPUS)
JOB_ROW_GET_TEXT(job_row_get_nodes, JOB_ROW_NODES)
JOB_ROW_GET_TEXT(job_row_get_exit_code, JOB_ROW_EXIT_CODE)
JOB_ROW_GET_TEXT(job_row_get_signal, JOB_ROW_SIGNAL)
JOB_ROW_GET_TEXT(job_row_get_workdir, JOB_ROW_WORKDIR)
JOB_ROW_GET_TEXT(job_row_get_stdout, JOB_ROW_STDOUT)
JOB_ROW_GET_TEXT(job_row_get_stderr, JOB_ROW_STDERR)
JOB_ROW_GET_TEXT(job_row_get_command, JOB_ROW_COMMAND)
JOB_ROW_GET_TEXT(job_row_get_message, JOB_ROW_MESSAGE)
JOB_ROW_GET_TEXT(job_row_get_restarts, JOB_ROW_RESTARTS)
JOB_ROW_GET_TEXT(job_row_get_preemptions, JOB_ROW_PREEMPTIONS)
JOB_ROW_GET_TEXT(job_row_get_promotions, JOB_ROW_PROMOTIONS)

/* "Q1": the scheduler's queue; none for a job it does not hold. */
static const char *
job_row_get_queue(const void *row, const void *ctx, char *buf, size_t len)
{
	long long	q;

	if (jscan_int(job_row_v(row, JOB_ROW_QUEUE), &q) == -1 || q < 0)
		return ("");
	snprintf(buf, len, "Q%lld", q);
	return (buf);
}

/* Attained service, GPU-seconds, as a duration: 2 GPUs for an hour read
 * 2:00:00. */
static const char *
job_row_get_attained(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JOB_ROW_ATTAINED, buf, len, NULL));
}

static const char *
job_row_get_reason(const void *row, const void *ctx, char *buf, size_t len)
{
	if (!job_row_waits(row))
		return ("");
	return (job_row_text(row, JOB_ROW_REASON, buf, len));
}

static const char *
job_row_get_time(const void *row, const void *ctx, char *buf, size_t len)
{
	return (job_row_seconds(row, JOB_ROW_ELAPSED, buf, len, NULL));
}

static const char *
job_row_get_time_limit(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JOB_ROW_TIME_LIMIT, buf, len,
	    "UNLIMITED"));
}

static const char *
job_row_get_submit_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JOB_ROW_SUBMIT_TIME, buf, len));
}

static const char *
job_row_get_start_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JOB_ROW_START_TIME, buf, len));
}

static const char *
job_row_get_end_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JOB_ROW_END_TIME, buf, len));
}

/* "n1:0,1" per node, ";" between nodes: no blanks, so awk still splits
 * gq's columns right. */
static const char *
job_row_get_gpu_ids(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct jscan_val	*alloc = job_row_v(row, JOB_ROW_ALLOC);
	struct jscan_val	 part, node, gpus, g;
	size_t			 apos = 0, gpos, n = 0;
	char			 name[256];
	int			 first;

	buf[0] = '\0';
	while (n < len && jscan_element(alloc, &apos, &part) == 1) {
		jscan_get(&part, "node", &node);
		jscan_get(&part, "gpus", &gpus);
		jscan_string(&node, name, sizeof name);
		n += (size_t)snprintf(buf + n, len - n, "%s%s:", n > 0 ? ";" :
		    "", name);
		first = 1;
		gpos = 0;
		while (n < len && jscan_element(&gpus, &gpos, &g) == 1) {
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s",
			    first ? "" : ",", (int)g.n, g.p);
			first = 0;
		}
	}
	return (buf);
}

/* The script's arguments, blank-separated (for reading, not for a shell). */
static const char *
job_row_get_argv(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct jscan_val	*argv = job_row_v(row, JOB_ROW_ARGV);
	struct jscan_val	 a;
	size_t			 pos = 0, n = 0;

	buf[0] = '\0';
	while (n + 1 < len && jscan_element(argv, &pos, &a) == 1) {
		if (n > 0)
			buf[n++] = ' ';
		jscan_string(&a, buf + n, len - n);
		n += strlen(buf + n);
	}
	return (buf);
}

const struct table_col job_row_cols[] = {
	{ "id", "JOBID", true, job_row_get_id },
	{ "user", "USER", false, job_row_get_user },
	{ "uid", "UID", true, job_row_get_uid },
	{ "name", "NAME", false, job_row_get_name },
	{ "state", "STATE", false, job_row_get_state },
	{ "gpus", "GPUS", true, job_row_get_gpus },
	{ "nodes", "NODES", false, job_row_get_nodes },
	{ "gpu_ids", "GPU_IDS", false, job_row_get_gpu_ids },
	{ "time", "TIME", true, job_row_get_time },
	{ "time_limit", "TIME_LIMIT", true, job_row_get_time_limit },
	{ "reason", "REASON", false, job_row_get_reason },
	{ "submit_time", "SUBMIT_TIME", false, job_row_get_submit_time },
	{ "start_time", "START_TIME", false, job_row_get_start_time },
	{ "end_time", "END_TIME", false, job_row_get_end_time },
	{ "exit_code", "EXIT_CODE", true, job_row_get_exit_code },
	{ "signal", "SIGNAL", true, job_row_get_signal },
	{ "workdir", "WORKDIR", false, job_row_get_workdir },
	{ "command", "COMMAND", false, job_row_get_command },
	{ "argv", "ARGV", false, job_row_get_argv },
	{ "stdout", "STDOUT", false, job_row_get_stdout },
	{ "stderr", "STDERR", false, job_row_get_stderr },
	{ "message", "MESSAGE", false, job_row_get_message },
	{ "queue", "QUEUE", false, job_row_get_queue },
	{ "attained", "GPU_TIME", true, job_row_get_attained },
	{ "restarts", "RESTARTS", true, job_row_get_restarts },
	{ "preemptions", "PREEMPTED", true, job_row_get_preemptions },
	{ "promotions", "PROMOTED", true, job_row_get_promotions },
};
const size_t job_row_ncols = sizeof job_row_cols / sizeof job_row_cols[0];

/* Columns computed from members of another name; the others read the
 * member they are named after. The first member is what the column shows
 * (and sorts by). */
static const struct {
	const char	*col;
	const char	*keys[2];
} job_row_derived[] = {
	{ "gpu_ids", { "alloc", NULL } },
	{ "time", { "elapsed", NULL } },
	{ "reason", { "reason", "state" } },
};

void
job_row_wire_fields(const char *col, json_t *fields)
{
	size_t	i, k;

	for (i = 0; i < sizeof job_row_derived / sizeof job_row_derived[0];
	    i++) {
		if (strcmp(col, job_row_derived[i].col) != 0)
			continue;
		for (k = 0; k < 2 && job_row_derived[i].keys[k] != NULL; k++)
			json_array_append_new(fields,
			    json_string(job_row_derived[i].keys[k]));
		return;
	}
	json_array_append_new(fields, json_string(col));
}

int
job_row_sort_key(const char *col)
{
	const char	*member = col;
	size_t		 i;
	int		 k;

	for (i = 0; i < sizeof job_row_derived / sizeof job_row_derived[0];
	    i++) {
		if (strcmp(col, job_row_derived[i].col) == 0)
			member = job_row_derived[i].keys[0];
	}
	for (k = 0; k < JOB_ROW_COUNT; k++) {
		if (strcmp(member, job_row_keys[k]) == 0)
			return (k);
	}
	return (-1);
}

int
job_row_compare(const struct job_row *a, const struct job_row *b, int key)
{
	const struct jscan_val	*va = &a->v[key], *vb = &b->v[key];
	long long		 ia, ib;
	char			 sa[1024], sb[1024];
	int			 r;

	if (va->type == JSCAN_NONE || va->type == JSCAN_NULL ||
	    vb->type == JSCAN_NONE || vb->type == JSCAN_NULL)
		return ((vb->type == JSCAN_NONE || vb->type == JSCAN_NULL) -
		    (va->type == JSCAN_NONE || va->type == JSCAN_NULL));
	if (jscan_int(va, &ia) == 0 && jscan_int(vb, &ib) == 0) {
		/* No limit is the longest limit, not the shortest. */
		if (key == JOB_ROW_TIME_LIMIT) {
			ia = ia == 0 ? LLONG_MAX : ia;
			ib = ib == 0 ? LLONG_MAX : ib;
		}
		return ((ia > ib) - (ia < ib));
	}
	if (va->type == JSCAN_STRING && vb->type == JSCAN_STRING) {
		jscan_string(va, sa, sizeof sa);
		jscan_string(vb, sb, sizeof sb);
		return (strcmp(sa, sb));
	}
	/* Arrays (alloc): their text, which starts with the first node. */
	r = memcmp(va->p, vb->p, va->n < vb->n ? va->n : vb->n);
	return (r != 0 ? r : (va->n > vb->n) - (va->n < vb->n));
}
