/* job-row.c: a job object's members and how each field is printed. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/job-row.h"
#include "client/job-row-int.h"
#include "common/array.h"
#include "common/duration.h"
#include "common/xmalloc.h"

static int
job_row_key(const struct jscan_val *key)
{
	return (job_field_by_wire(key->p, key->n));
}

int
job_row_knows(const struct jscan_val *key)
{
	return (job_row_key(key) != -1);
}

/* A listing's jobs carry their members in one order: the field the n-th
 * member named last time is tried first, before the search by name. */
static int	job_row_hint[JF_COUNT];

int
job_row_scan(const struct jscan_val *obj, struct job_row *row)
{
	struct jscan_val	key, val;
	const char		*w;
	size_t			pos = 0, n = 0;
	int			r, k;

	memset(row, 0, sizeof *row);
	row->obj = *obj;
	while ((r = jscan_member(obj, &pos, &key, &val)) == 1) {
		k = n < JF_COUNT ? job_row_hint[n] : -1;
		w = k >= 0 ? job_fields[k].wire : NULL;
		if (w == NULL || strncmp(w, key.p, key.n) != 0 ||
		    w[key.n] != '\0') {
			k = job_row_key(&key);
			if (n < JF_COUNT)
				job_row_hint[n] = k;
		}
		if (k != -1)
			row->v[k] = val;
		n++;
	}
	if (r == 0)
		jscan_close(&row->obj, pos);
	return (r);
}

int
job_row_scan_values(const struct jscan_val *arr, const int *columns,
    size_t ncolumns, struct job_row *row)
{
	struct jscan_val	vals[JOB_ROW_MAX_COLUMNS];
	size_t			i, n;

	row->obj = *arr;
	if (jscan_elements(&row->obj, vals, JOB_ROW_MAX_COLUMNS, &n) == -1 ||
	    n != ncolumns)
		return (-1);
	for (i = 0; i < n; i++) {
		if (columns[i] >= 0)
			row->v[columns[i]] = vals[i];
	}
	return (0);
}

const struct jscan_val *
job_row_v(const void *row, enum job_field k)
{
	return (&((const struct job_row *)row)->v[k]);
}

/* A string or number member as text; absent and null print as "-" (the
 * table prints empty cells so). */
const char *
job_row_text(const void *row, enum job_field k, char *buf, size_t len)
{
	const struct jscan_val	*v = job_row_v(row, k);

	if (v->type == JSCAN_NONE || v->type == JSCAN_NULL)
		return ("");
	jscan_string(v, buf, len);
	return (buf);
}

static const char *
job_row_seconds(const void *row, enum job_field k, char *buf, size_t len,
    const char *zero)
{
	long long	t;

	if (jscan_int(job_row_v(row, k), &t) == -1 || t < 0)
		return ("");
	if (t == 0 && zero != NULL)
		return (zero);
	return (duration_format((uint64_t)t, buf, len));
}

/* Local hours already formatted, by hour since the epoch: a year of jobs
 * ends in a few thousand hours, and localtime and strftime for each of a
 * million dates were a tenth of gacct's time. Submit, start and end times
 * fall in different hours, so one slot per field missed too often; a
 * slot is a hash of the hour. An hour is kept only when its UTC offset
 * holds from its start to its end (no zone change inside it). */
#define JOB_ROW_HOURS	512

static struct job_row_hour {
	time_t		 start;		/* 0: none */
	char		 text[24];	/* "YYYY-MM-DDTHH:" */
} job_row_hours[JOB_ROW_HOURS];

static const char *
job_row_date(const void *row, enum job_field k, char *buf, size_t len)
{
	long long	t;
	time_t		tt, hs, he;
	struct tm	tm, end, start;
	unsigned	s;
	struct job_row_hour *h;

	if (jscan_int(job_row_v(row, k), &t) == -1 || t <= 0 || len < 20)
		return ("");
	tt = (time_t)t;
	h = &job_row_hours[(uint64_t)tt / 3600 % JOB_ROW_HOURS];
	if (h->start == 0 || tt < h->start ||
	    tt >= h->start + 3600) {
		if (localtime_r(&tt, &tm) == NULL)
			return ("");
		hs = tt - tm.tm_min * 60 - tm.tm_sec;
		he = hs + 3599;
		h->start = 0;
		if (localtime_r(&hs, &start) != NULL &&
		    start.tm_gmtoff == tm.tm_gmtoff &&
		    start.tm_min == 0 && start.tm_sec == 0 &&
		    localtime_r(&he, &end) != NULL &&
		    end.tm_gmtoff == tm.tm_gmtoff && end.tm_hour == tm.tm_hour &&
		    strftime(h->text, sizeof h->text,
		    "%Y-%m-%dT%H:", &tm) == 14)
			h->start = hs;
		else if (strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
			return ("");
		else
			return (buf);
	}
	s = (unsigned)(tt - h->start);
	memcpy(buf, h->text, 14);
	buf[14] = (char)('0' + s / 600);
	buf[15] = (char)('0' + s / 60 % 10);
	buf[16] = ':';
	buf[17] = (char)('0' + s % 60 / 10);
	buf[18] = (char)('0' + s % 10);
	buf[19] = '\0';
	return (buf);
}

/* Whether the job waits: only then does a reason mean anything. */
static int
job_row_waits(const void *row)
{
	const struct jscan_val	*v = job_row_v(row, JF_STATE);

	return (jscan_key_is(v, "PENDING") || jscan_key_is(v, "HELD"));
}

size_t
job_row_jobid(const struct job_row *r, char *buf, size_t len)
{
	long long	 array = 0, task = -1;
	char		 tasks[512], spec[512];
	const char	*thr;

	if (jscan_int(&r->v[JF_ARRAY_JOB_ID], &array) != 0 || array <= 0) {
		jscan_string(&r->v[JF_ID], buf, len);
		return (strlen(buf));
	}
	if (jscan_int(&r->v[JF_ARRAY_TASK_ID], &task) == 0 && task >= 0)
		return ((size_t)snprintf(buf, len, "%lld_%lld", array, task));
	/* The array's row: the tasks it stands for, and the throttle. */
	jscan_string(&r->v[JF_ARRAY_TASKS], tasks, sizeof tasks);
	jscan_string(&r->v[JF_ARRAY_SPEC], spec, sizeof spec);
	thr = strchr(spec, '%');
	return ((size_t)snprintf(buf, len, "%lld_[%s%s]", array, tasks,
	    thr != NULL ? thr : ""));
}

/* -1 (none) prints as nothing. */
static const char *
job_row_get_array_task_id(const void *row, const void *ctx, char *buf,
    size_t len)
{
	long long	t;

	if (ctx != NULL) {
		snprintf(buf, len, "%u", *(const uint32_t *)ctx);
		return (buf);
	}
	if (jscan_int(job_row_v(row, JF_ARRAY_TASK_ID), &t) != 0 || t < 0)
		return ("");
	snprintf(buf, len, "%lld", t);
	return (buf);
}

int
job_row_tasks(const struct job_row *r, struct array_set *tasks)
{
	long long	 task;
	char		 buf[512], *text = buf, err[256];
	size_t		 len;
	int		 rc;

	if (jscan_int(&r->v[JF_ARRAY_TASK_ID], &task) != 0 || task >= 0)
		return (-1);
	len = jscan_string(&r->v[JF_ARRAY_TASKS], buf, sizeof buf);
	if (len >= sizeof buf) {
		text = xmalloc(len + 1);
		(void)jscan_string(&r->v[JF_ARRAY_TASKS], text, len + 1);
	}
	rc = *text != '\0' && array_parse(text, tasks, err, sizeof err) == 0 ?
	    0 : -1;
	if (text != buf)
		free(text);
	return (rc);
}

static const char *
job_row_get_id(const void *row, const void *ctx, char *buf, size_t len)
{
	long long	array;

	/* One task of an array's row, shown unfolded (gq -r). */
	if (ctx != NULL && jscan_int(job_row_v(row, JF_ARRAY_JOB_ID),
	    &array) == 0) {
		snprintf(buf, len, "%lld_%u", array, *(const uint32_t *)ctx);
		return (buf);
	}
	(void)job_row_jobid(row, buf, len);
	return (buf);
}

/* The columns that print one member as it is: their get functions here,
 * and job_row_plain for job_row_span. */
#define JOB_ROW_PLAIN(X)						\
	X(name, JF_NAME)						\
	X(user, JF_USER)						\
	X(uid, JF_UID)							\
	X(state, JF_STATE)						\
	X(nodes, JF_NODES)						\
	X(exit_code, JF_EXIT_CODE)					\
	X(signal, JF_SIGNAL)						\
	X(workdir, JF_WORKDIR)						\
	X(stdout, JF_STDOUT)						\
	X(stderr, JF_STDERR)						\
	X(command, JF_COMMAND)						\
	X(message, JF_MESSAGE)						\
	X(account, JF_ACCOUNT)						\
	X(partition, JF_PARTITION)					\
	X(qos, JF_QOS)							\
	X(reservation, JF_RESERVATION)					\
	X(nice, JF_NICE)						\
	X(priority, JF_PRIORITY)					\
	X(comment, JF_COMMENT)						\
	X(dependency, JF_DEPENDENCY)					\
	X(array_job_id, JF_ARRAY_JOB_ID)				\
	X(req_nodes, JF_REQ_NODES)					\
	X(exclude_nodes, JF_EXCLUDE_NODES)				\
	X(gpu_type, JF_GPU_TYPE)					\
	X(master_port, JF_MASTER_PORT)					\
	X(cpus_per_gpu, JF_CPUS_PER_GPU)				\
	X(cpus_per_task, JF_CPUS_PER_TASK)				\
	X(mem, JF_MEM)							\
	X(mem_per_gpu, JF_MEM_PER_GPU)					\
	X(time_slice, JF_TIME_SLICE)					\
	X(gpu_mem, JF_GPU_MEM)						\
	X(gpu_share, JF_GPU_SHARE)					\
	X(mem_peak, JF_MEM_PEAK)					\
	X(alloc_cpus, JF_ALLOC_CPUS)					\
	X(array_spec, JF_ARRAY_SPEC)					\
	X(restarts, JF_RESTARTS)					\
	X(preemptions, JF_PREEMPTIONS)					\
	X(preempt, JF_PREEMPT)						\
	X(promotions, JF_PROMOTIONS)					\
	X(resizes, JF_RESIZES)						\
	X(rank, JF_RANK)

#define JF_GET_TEXT(col, key)						\
static const char *							\
job_row_get_##col(const void *row, const void *ctx, char *buf,		\
    size_t len)								\
{									\
	return (job_row_text(row, key, buf, len));			\
}
JOB_ROW_PLAIN(JF_GET_TEXT)
#undef JF_GET_TEXT

/* The nodes asked for: "-" for any number. */
static const char *
job_row_get_num_nodes(const void *row, const void *ctx, char *buf,
    size_t len)
{
	const char	*s = job_row_text(row, JF_NUM_NODES, buf, len);

	return (strcmp(s, "0") == 0 || *s == '\0' ? "-" : s);
}
/* The processes a node starts: "1" when it says nothing. */
static const char *
job_row_get_tasks_per_node(const void *row, const void *ctx, char *buf,
    size_t len)
{
	const char	*s = job_row_text(row, JF_TASKS_PER_NODE, buf, len);

	return (*s == '\0' ? "1" : s);
}
/* An unfolded task stands for itself alone. */
static const char *
job_row_get_array_tasks(const void *row, const void *ctx, char *buf,
    size_t len)
{
	if (ctx != NULL) {
		snprintf(buf, len, "%u", *(const uint32_t *)ctx);
		return (buf);
	}
	return (job_row_text(row, JF_ARRAY_TASKS, buf, len));
}

/* "Q1": the scheduler's queue; none for a job it does not hold. */
static const char *
job_row_get_queue(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct jscan_val	*v = job_row_v(row, JF_QUEUE);
	long long		 q;

	if (jscan_int(v, &q) == -1 || q < 0)
		return ("");
	/* The number as it came, after a Q: no printf for each row. */
	if (v->n + 2 > len)
		return ("");
	buf[0] = 'Q';
	memcpy(buf + 1, v->p, v->n);
	buf[v->n + 1] = '\0';
	return (buf);
}

/* Attained service, GPU-seconds, as a duration: 2 GPUs for an hour read
 * 2:00:00. */
static const char *
job_row_get_attained(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JF_ATTAINED, buf, len, NULL));
}

/* A grun job: someone waits at its other end. */
static bool
job_row_interactive(const void *row)
{
	return (jscan_key_is(job_row_v(row, JF_KIND), "interactive"));
}

static const char *
job_row_get_kind(const void *row, const void *ctx, char *buf, size_t len)
{
	return (job_row_interactive(row) ? "INTERACTIVE" : "BATCH");
}

/* Why a job waits; a running grun job says it is one. */
static const char *
job_row_get_reason(const void *row, const void *ctx, char *buf, size_t len)
{
	/* Frozen for another's turn (time-slicing), or by an operator. */
	if (jscan_key_is(job_row_v(row, JF_STATE), "SUSPENDED"))
		return (jscan_key_is(job_row_v(row, JF_REASON), "TimeSlice") ?
		    "TimeSlice" : "");
	if (!job_row_waits(row))
		return (job_row_interactive(row) &&
		    (jscan_key_is(job_row_v(row, JF_STATE), "RUNNING") ||
		    jscan_key_is(job_row_v(row, JF_STATE), "PREEMPTING")) ?
		    "INTERACTIVE" : "");
	return (job_row_text(row, JF_REASON, buf, len));
}

const char *
job_row_reason_short(const char *reason)
{
	static const char *const shorts[][2] = {
		{ "Resources", "Res" }, { "Priority", "Prio" },
		{ "Preempting", "Preempt" }, { "Preempted", "Preemptd" },
		{ "NodesDown", "NodesDn" }, { "NodesDrained", "Drained" },
		{ "JobArrayTaskLimit", "ArrLimit" }, { "Memory", "Mem" },
		{ "BeginTime", "Begin" }, { "Dependency", "Dep" },
		{ "DependencyNeverSatisfied", "DepNever" },
		{ "StaleCopy", "Stale" }, { "Requeued", "Requeue" },
		{ "TimeSlice", "Slice" },
		{ "INTERACTIVE", "Interact" },
		{ "PartitionTimeLimit", "PartTime" },
		{ "PartitionGPULimit", "PartGPUs" },
		{ "PartitionNodeLimit", "PartNode" },
		{ "PartitionAccount", "PartAcct" },
		{ "PartitionConfig", "PartConf" },
		{ "AssocMaxJobs", "MaxJobs" }, { "AssocMaxGPUs", "MaxGPUs" },
		{ "AssocGrpJobs", "GrpJobs" }, { "AssocGrpGPUs", "GrpGPUs" },
		{ "PartitionQOS", "PartQOS" }, { "InvalidQOS", "BadQOS" },
		{ "QOSMaxJobsPerUserLimit", "QOSJobs" },
		{ "QOSMaxGRESPerUser", "QOSGPUs" },
		{ "QOSMaxWallDurationPerJobLimit", "QOSTime" },
		{ "AssocGPUHoursSpent", "GPUHours" },
	};
	size_t	i;

	for (i = 0; i < sizeof shorts / sizeof shorts[0]; i++) {
		if (strcmp(reason, shorts[i][0]) == 0)
			return (shorts[i][1]);
	}
	return (reason);
}

static const char *
job_row_get_time(const void *row, const void *ctx, char *buf, size_t len)
{
	return (job_row_seconds(row, JF_ELAPSED, buf, len, NULL));
}

static const char *
job_row_get_time_limit(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JF_TIME_LIMIT, buf, len,
	    "UNLIMITED"));
}

static const char *
job_row_get_submit_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JF_SUBMIT_TIME, buf, len));
}

static const char *
job_row_get_begin_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JF_BEGIN_TIME, buf, len));
}

static const char *
job_row_get_start_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JF_START_TIME, buf, len));
}

static const char *
job_row_get_end_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JF_END_TIME, buf, len));
}

static const char *
job_row_get_first_start(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JF_FIRST_START, buf, len));
}

static const char *
job_row_get_expect_start(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_date(row, JF_EXPECT_START, buf, len));
}

static const char *
job_row_get_predicted(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JF_PREDICTED, buf, len, ""));
}

/* How the prediction was made: "user's similar name (7 runs)". */
static const char *
job_row_get_predicted_by(const void *row, const void *ctx, char *buf,
    size_t len)
{
	char		how[64] = "";
	long long	runs;

	job_row_text(row, JF_PREDICTED_BY, how, sizeof how);
	if (how[0] == '\0' ||
	    jscan_int(job_row_v(row, JF_PREDICTED_RUNS), &runs) == -1)
		return ("");
	snprintf(buf, len, "%s (%lld run%s)", how, runs, runs == 1 ? "" :
	    "s");
	return (buf);
}

static const char *
job_row_get_run_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JF_RUN_TOTAL, buf, len, NULL));
}

static const char *
job_row_get_queue_delay(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JF_QUEUE_DELAY, buf, len, NULL));
}

static const char *
job_row_get_suspended(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JF_SUSPENDED, buf, len, NULL));
}

static const char *
job_row_get_cpu_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	return (job_row_seconds(row, JF_CPU_TIME, buf, len, NULL));
}

static const char *
job_row_get_jct(const void *row, const void *ctx, char *buf, size_t len)
{
	return (job_row_seconds(row, JF_JCT, buf, len, NULL));
}

static const char *
job_row_get_last_queue(const void *row, const void *ctx, char *buf,
    size_t len)
{
	long long	q;

	if (jscan_int(job_row_v(row, JF_LAST_QUEUE), &q) == -1 || q < 0)
		return ("");
	snprintf(buf, len, "Q%lld", q);
	return (buf);
}

/* Attained service in GPU-hours, two decimals: what billing sums. */
static const char *
job_row_get_gpu_hours(const void *row, const void *ctx, char *buf,
    size_t len)
{
	long long	t;

	char		 tmp[32], *p = tmp + sizeof tmp;
	long long	 c;

	if (jscan_int(job_row_v(row, JF_ATTAINED), &t) == -1 || t < 0 ||
	    len < sizeof tmp)
		return ("");
	/* "%lld.%02lld" by hand: billing exports print it for every job. */
	c = t % 3600 * 100 / 3600;
	t /= 3600;
	*--p = '\0';
	*--p = (char)('0' + c % 10);
	*--p = (char)('0' + c / 10);
	*--p = '.';
	do {
		*--p = (char)('0' + t % 10);
	} while ((t /= 10) != 0);
	memcpy(buf, p, (size_t)(tmp + sizeof tmp - p));
	return (buf);
}

/* Attained service in GPU-seconds, a whole number. */
static const char *
job_row_get_gpu_seconds(const void *row, const void *ctx, char *buf,
    size_t len)
{
	long long	t;

	if (jscan_int(job_row_v(row, JF_ATTAINED), &t) == -1 || t < 0)
		return ("");
	snprintf(buf, len, "%lld", t);
	return (buf);
}

/* The exit code and the signal that ended the job, as sacct's ExitCode
 * shows them: "0:9" for a job killed by SIGKILL, "3:0" for exit(3). */
static const char *
job_row_get_exit(const void *row, const void *ctx, char *buf, size_t len)
{
	long long	code, sig;

	if (jscan_int(job_row_v(row, JF_EXIT_CODE), &code) == -1)
		return ("");
	if (jscan_int(job_row_v(row, JF_SIGNAL), &sig) == -1)
		sig = 0;
	snprintf(buf, len, "%lld:%lld", code, sig);
	return (buf);
}

const char *
job_row_raw(const void *row, const void *ctx, const struct table_col *col,
    char *buf, size_t len)
{
	static const struct {
		const char	*(*get)(const void *, const void *, char *,
				    size_t);
		enum job_field	 field;
	} secs[] = {
		{ job_row_get_run_time, JF_RUN_TOTAL },
		{ job_row_get_queue_delay, JF_QUEUE_DELAY },
		{ job_row_get_suspended, JF_SUSPENDED },
		{ job_row_get_cpu_time, JF_CPU_TIME },
		{ job_row_get_jct, JF_JCT },
	};
	long long	t;
	size_t		i;

	(void)ctx;
	for (i = 0; i < sizeof secs / sizeof secs[0]; i++) {
		if (col->get != secs[i].get)
			continue;
		if (jscan_int(job_row_v(row, secs[i].field), &t) == -1 || t < 0)
			return ("");
		snprintf(buf, len, "%lld", t);
		return (buf);
	}
	if (col->get == job_row_get_gpu_hours)
		return (job_row_gpu_hours_exact(row, buf, len));
	return (NULL);
}

const char *
job_row_gpu_hours_exact(const struct job_row *row, char *buf, size_t len)
{
	long long	t;

	/* A second of one GPU is 0.000278: no job reads 0.00. */
	if (jscan_int(job_row_v(row, JF_ATTAINED), &t) == -1 || t < 0)
		return ("");
	snprintf(buf, len, "%lld.%06lld", t / 3600,
	    (t % 3600 * 1000000 + 1800) / 3600);
	return (buf);
}

/* The script's arguments, blank-separated (for reading, not for a shell). */
static const char *
job_row_get_argv(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct jscan_val	*argv = job_row_v(row, JF_ARGV);
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

/* The same columns, with their member, for job_row_span. */
static const struct {
	const char	*(*get)(const void *, const void *, char *, size_t);
	enum job_field	 field;
} job_row_plain[] = {
#define JF_PLAIN_ENTRY(col, key) { job_row_get_##col, key },
JOB_ROW_PLAIN(JF_PLAIN_ENTRY)
#undef JF_PLAIN_ENTRY
};

const struct table_col job_row_cols[] = {
	{ "id", "JOBID", true, job_row_get_id },
	{ "user", "USER", false, job_row_get_user },
	{ "uid", "UID", true, job_row_get_uid },
	{ "name", "NAME", false, job_row_get_name },
	{ "state", "STATE", false, job_row_get_state },
	{ "gpus", "GPUS", true, job_row_gpus_col },
	{ "gpus_range", "GPUS_RANGE", false, job_row_gpus_range },
	{ "nodes", "NODES", false, job_row_get_nodes },
	{ "gpu_ids", "GPU_IDS", false, job_row_gpus_ids },
	{ "time", "TIME", true, job_row_get_time },
	{ "time_limit", "TIME_LIMIT", true, job_row_get_time_limit },
	{ "reason", "REASON", false, job_row_get_reason },
	{ "kind", "KIND", false, job_row_get_kind },
	{ "preempt", "PREEMPT", false, job_row_get_preempt },
	{ "submit_time", "SUBMIT_TIME", false, job_row_get_submit_time },
	{ "begin_time", "BEGIN_TIME", false, job_row_get_begin_time },
	{ "start_time", "START_TIME", false, job_row_get_start_time },
	{ "end_time", "END_TIME", false, job_row_get_end_time },
	{ "exit_code", "EXIT_CODE", true, job_row_get_exit_code },
	{ "signal", "SIGNAL", true, job_row_get_signal },
	{ "exit", "EXIT", true, job_row_get_exit },
	{ "workdir", "WORKDIR", false, job_row_get_workdir },
	{ "command", "COMMAND", false, job_row_get_command },
	{ "argv", "ARGV", false, job_row_get_argv },
	{ "stdout", "STDOUT", false, job_row_get_stdout },
	{ "stderr", "STDERR", false, job_row_get_stderr },
	{ "message", "MESSAGE", false, job_row_get_message },
	{ "account", "ACCOUNT", false, job_row_get_account },
	{ "partition", "PARTITION", false, job_row_get_partition },
	{ "qos", "QOS", false, job_row_get_qos },
	{ "reservation", "RESERVATION", false, job_row_get_reservation },
	{ "nice", "NICE", true, job_row_get_nice },
	{ "priority", "PRIORITY", true, job_row_get_priority },
	{ "comment", "COMMENT", false, job_row_get_comment },
	{ "dependency", "DEPENDENCY", false, job_row_get_dependency },
	{ "array_job_id", "ARRAY_JOB_ID", true, job_row_get_array_job_id },
	{ "array_task_id", "ARRAY_TASK_ID", true, job_row_get_array_task_id },
	{ "array_tasks", "ARRAY_TASKS", false, job_row_get_array_tasks },
	{ "array_spec", "ARRAY_SPEC", false, job_row_get_array_spec },
	{ "req_nodes", "REQ_NODES", false, job_row_get_req_nodes },
	{ "exclude_nodes", "EXC_NODES", false, job_row_get_exclude_nodes },
	{ "gpu_type", "GPU_TYPE", false, job_row_get_gpu_type },
	{ "num_nodes", "NUM_NODES", true, job_row_get_num_nodes },
	{ "tasks_per_node", "TASKS_PER_NODE", false,
	    job_row_get_tasks_per_node },
	{ "master_port", "MASTER_PORT", true, job_row_get_master_port },
	{ "cpus_per_gpu", "CPUS_PER_GPU", true, job_row_get_cpus_per_gpu },
	{ "cpus_per_task", "CPUS_PER_TASK", true, job_row_get_cpus_per_task },
	{ "mem", "MEM_MB", true, job_row_get_mem },
	{ "mem_per_gpu", "MEM_PER_GPU_MB", true, job_row_get_mem_per_gpu },
	{ "time_slice", "TIME_SLICE", true, job_row_get_time_slice },
	{ "gpu_mem", "GPU_MEM_MB", true, job_row_get_gpu_mem },
	{ "gpu_share", "GPU_SHARE", true, job_row_get_gpu_share },
	{ "mem_peak", "MEM_PEAK_MB", true, job_row_get_mem_peak },
	{ "cpu_time", "CPU_TIME", true, job_row_get_cpu_time },
	{ "alloc_cpus", "CPUS", true, job_row_get_alloc_cpus },
	{ "queue", "QUEUE", false, job_row_get_queue },
	{ "rank", "RANK", true, job_row_get_rank },
	{ "expect_start", "EXPECT_START", false, job_row_get_expect_start },
	{ "predicted", "PREDICTED", true, job_row_get_predicted },
	{ "predicted_by", "PREDICTED_BY", false, job_row_get_predicted_by },
	{ "attained", "GPU_TIME", true, job_row_get_attained },
	{ "restarts", "RESTARTS", true, job_row_get_restarts },
	{ "preemptions", "PREEMPTED", true, job_row_get_preemptions },
	{ "promotions", "PROMOTED", true, job_row_get_promotions },
	{ "resizes", "RESIZES", true, job_row_get_resizes },
	{ "step_time", "STEP_TIME", true, job_row_gpus_step_time },
	{ "goodput", "GOODPUT", true, job_row_gpus_goodput },
	{ "first_start", "FIRST_START", false, job_row_get_first_start },
	{ "run_time", "RUN_TIME", true, job_row_get_run_time },
	{ "queue_delay", "QUEUE_DELAY", true, job_row_get_queue_delay },
	{ "suspended", "SUSPENDED", true, job_row_get_suspended },
	{ "jct", "JCT", true, job_row_get_jct },
	{ "last_queue", "LAST_QUEUE", false, job_row_get_last_queue },
	{ "gpu_hours", "GPU_HOURS", true, job_row_get_gpu_hours },
	{ "gpu_seconds", "GPU_SECONDS", true, job_row_get_gpu_seconds },
	{ "runs", "RUNS", false, job_row_gpus_runs },
};
const size_t job_row_ncols = sizeof job_row_cols / sizeof job_row_cols[0];

size_t
job_row_span(const void *row, const struct table_col *col, const char **p)
{
	/* Each column's member, or -1 (found once, by its get). */
	static int		 field[sizeof job_row_cols /
				    sizeof job_row_cols[0]];
	static bool		 known;
	const struct jscan_val	*v;
	size_t			 i, k;

	if (!known) {
		for (i = 0; i < job_row_ncols; i++) {
			field[i] = -1;
			for (k = 0; k < sizeof job_row_plain /
			    sizeof job_row_plain[0]; k++) {
				if (job_row_cols[i].get == job_row_plain[k].get)
					field[i] = (int)job_row_plain[k].field;
			}
		}
		known = true;
	}
	if (col < job_row_cols || col >= job_row_cols + job_row_ncols ||
	    field[col - job_row_cols] < 0)
		return ((size_t)-1);
	v = job_row_v(row, (enum job_field)field[col - job_row_cols]);
	switch (v->type) {
	case JSCAN_NONE:
	case JSCAN_NULL:
		*p = "";
		return (0);
	case JSCAN_NUMBER:
		*p = v->p;
		return (v->n);
	case JSCAN_STRING:
		if (memchr(v->p, '\\', v->n) != NULL)
			return ((size_t)-1);
		*p = v->p;
		return (v->n);
	default:
		return ((size_t)-1);
	}
}

/* Columns computed from members of another name; the others read the
 * member they are named after. The first member is what the column shows
 * (and sorts by). */
static const struct {
	const char	*col;
	const char	*keys[5];
} job_row_derived[] = {
	{ "id", { "id", "array_job_id", "array_task_id", "array_tasks",
	    "array_spec" } },
	{ "gpus", { "gpus", "gpus_max", "alloc", NULL } },
	{ "gpus_range", { "gpus_max", "gpus", NULL } },
	{ "step_time", { "step_us", NULL } },
	{ "gpu_ids", { "alloc", NULL } },
	{ "time", { "elapsed", NULL } },
	{ "reason", { "reason", "state", "kind", NULL } },
	{ "gpu_hours", { "attained", NULL } },
	{ "gpu_seconds", { "attained", NULL } },
	{ "exit", { "exit_code", "signal", NULL } },
	{ "runs", { "id", NULL } },
	{ "predicted_by", { "predicted_by", "predicted_runs", NULL } },
};

void
job_row_wire_fields(const char *col, json_t *fields)
{
	size_t	i, k;

	for (i = 0; i < sizeof job_row_derived / sizeof job_row_derived[0];
	    i++) {
		if (strcmp(col, job_row_derived[i].col) != 0)
			continue;
		for (k = 0; k < 5 && job_row_derived[i].keys[k] != NULL; k++)
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
	if ((k = job_field_by_wire(member, strlen(member))) == -1)
		return (-1);
	return (k);
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
		if (key == JF_TIME_LIMIT) {
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
