/* node-launch.c: decoding JOB_LAUNCH. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/job-req.h"
#include "common/outpat.h"
#include "common/xmalloc.h"
#include "daemon/node/node-launch.h"

/* What preemption does when the controller does not say. */
#define NODE_LAUNCH_CKPT_SIGNAL	SIGUSR1
#define NODE_LAUNCH_CKPT_GRACE	60

int
node_launch_id(const json_t *msg, uint64_t *id)
{
	json_t	*v;

	v = json_object_get(json_object_get(msg, "job"), "id");
	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		return (-1);
	*id = (uint64_t)json_integer_value(v);
	return (0);
}

static int
node_launch_str(const json_t *job, const char *key, int required, char **out,
    char *err, size_t errlen)
{
	json_t		*v;
	const char	*s;

	v = json_object_get(job, key);
	if (v == NULL && !required) {
		*out = xstrdup("");
		return (0);
	}
	if (!json_is_string(v)) {
		snprintf(err, errlen, "job.%s: expected a string", key);
		return (-1);
	}
	s = json_string_value(v);
	if (strlen(s) != json_string_length(v)) {
		snprintf(err, errlen, "job.%s: holds a NUL byte", key);
		return (-1);
	}
	*out = xstrdup(s);
	return (0);
}

static int
node_launch_uint(const json_t *job, const char *key, int required,
    json_int_t max, json_int_t *out, char *err, size_t errlen)
{
	json_t	*v;
	char	 got[96];

	v = json_object_get(job, key);
	if (v == NULL && !required) {
		*out = 0;
		return (0);
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > max) {
		snprintf(err, errlen, "job.%s: expected a whole number from 0 "
		    "to %lld, got %s", key, (long long)max, v == NULL ?
		    "nothing" : job_req_got(v, got, sizeof got));
		return (-1);
	}
	*out = json_integer_value(v);
	return (0);
}

/* Like node_launch_uint, for optional fields whose absence means def and
 * whose range does not start at 0. */
static int
node_launch_range(const json_t *job, const char *key, json_int_t min,
    json_int_t max, json_int_t def, json_int_t *out, char *err, size_t errlen)
{
	json_t	*v;
	char	 got[96];

	if ((v = json_object_get(job, key)) == NULL) {
		*out = def;
		return (0);
	}
	if (!json_is_integer(v) || json_integer_value(v) < min ||
	    json_integer_value(v) > max) {
		snprintf(err, errlen, "job.%s: expected a whole number from "
		    "%lld to %lld, got %s", key, (long long)min,
		    (long long)max, job_req_got(v, got, sizeof got));
		return (-1);
	}
	*out = json_integer_value(v);
	return (0);
}

/* A member of JOB_LAUNCH that carries a member of the request as
 * gbatchd took it: read through the same row of common/job-req.h, so the
 * node takes what gbatchd takes. def when absent (a controller from
 * before it was sent). */
static int
node_launch_req(const json_t *obj, enum job_req f, int64_t def, int64_t *out,
    char *err, size_t errlen)
{
	struct job_req_val	v;
	char			detail[512];

	if (job_req_get(obj, f, &v, detail, sizeof detail) == -1) {
		snprintf(err, errlen, "job.%s", detail);
		return (-1);
	}
	*out = v.json != NULL ? v.n : def;
	return (0);
}

/* The fields of a job that may be preempted and restarted, and of a
 * torch.distributed rendezvous. All are optional: an old controller sends
 * none of them. */
static int
node_launch_restart(struct node_launch *l, const json_t *job, char *err,
    size_t errlen)
{
	json_int_t	v;
	int64_t		n;

	if (node_launch_range(job, "restarts", 0, INT32_MAX, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->restarts = (unsigned)v;
	if (node_launch_req(job, JRQ_CKPT_SIGNAL, NODE_LAUNCH_CKPT_SIGNAL, &n,
	    err, errlen) == -1)
		return (-1);
	l->ckpt_signal = (int)n;
	if (node_launch_req(job, JRQ_CKPT_GRACE, NODE_LAUNCH_CKPT_GRACE, &n,
	    err, errlen) == -1)
		return (-1);
	l->ckpt_grace = (unsigned)n;
	if (node_launch_range(job, "master_port", 1, 65535, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->master_port = (unsigned)v;

	if (node_launch_req(job, JRQ_WARN_SIGNAL, 0, &n, err, errlen) == -1)
		return (-1);
	l->warn_signal = (int)n;
	if (node_launch_req(job, JRQ_WARN_TIME, 0, &n, err, errlen) == -1)
		return (-1);
	l->warn_time = (unsigned)n;
	if (node_launch_req(job, JRQ_WARN_BATCH, 0, &n, err, errlen) == -1)
		return (-1);
	l->warn_batch = n != 0;
	if (node_launch_req(job, JRQ_OPEN_MODE, -1, &n, err, errlen) == -1)
		return (-1);
	l->append = n == job_req_word(JRQ_OPEN_MODE, "append", 6);
	if (node_launch_str(job, "ckpt_dir", 0, &l->ckpt_dir, err,
	    errlen) == -1 ||
	    node_launch_str(job, "master_addr", 0, &l->master_addr, err,
	    errlen) == -1)
		return (-1);
	if (json_object_get(job, "ckpt_dir") != NULL &&
	    l->ckpt_dir[0] != '/') {
		snprintf(err, errlen, "job.ckpt_dir: expected an absolute path, "
		    "got \"%s\"", l->ckpt_dir);
		return (-1);
	}
	if (json_object_get(job, "master_addr") != NULL &&
	    l->master_addr[0] == '\0') {
		snprintf(err, errlen, "job.master_addr: expected a host name "
		    "or address, got \"\"");
		return (-1);
	}
	return (0);
}

static int
node_launch_lists(struct node_launch *l, const json_t *job, char *err,
    size_t errlen)
{
	json_t		*v, *e;
	const char	*k;
	size_t		 i;
	int64_t		 n;
	json_int_t	 share;

	/* Checked as gbatchd checked them at submit. */
	if (node_launch_req(job, JRQ_ARGV, 0, &n, err, errlen) == -1 ||
	    node_launch_req(job, JRQ_ENV, 0, &n, err, errlen) == -1)
		return (-1);
	v = json_object_get(job, "argv");
	l->argv = xcalloc(json_array_size(v) + 1, sizeof *l->argv);
	json_array_foreach(v, i, e)
		l->argv[i] = xstrdup(json_string_value(e));
	v = json_object_get(job, "env");
	l->env = xcalloc(json_object_size(v) + 1, sizeof *l->env);
	i = 0;
	json_object_foreach(v, k, e)
		l->env[i++] = xasprintf("%s=%s", k, json_string_value(e));

	v = json_object_get(job, "gpus");
	if (!json_is_array(v) || json_array_size(v) >
	    JOB_REQ_MAX_GPUS_PER_NODE) {
		snprintf(err, errlen, "job.gpus: expected an array of at most "
		    "%d GPU indices", JOB_REQ_MAX_GPUS_PER_NODE);
		return (-1);
	}
	l->ngpus = json_array_size(v);
	l->gpus = xcalloc(l->ngpus + 1, sizeof *l->gpus);
	json_array_foreach(v, i, e) {
		if (!json_is_integer(e) || json_integer_value(e) < 0 ||
		    json_integer_value(e) >= JOB_REQ_MAX_GPUS_PER_NODE) {
			snprintf(err, errlen, "job.gpus[%zu]: expected a GPU "
			    "index 0-%d", i, JOB_REQ_MAX_GPUS_PER_NODE - 1);
			return (-1);
		}
		l->gpus[i] = (unsigned)json_integer_value(e);
	}
	if (node_launch_range(job, "gpu_share", 0, JOB_REQ_MAX_SHARES, 0,
	    &share, err, errlen) == -1)
		return (-1);
	l->gpu_share = (unsigned)share;
	if (l->gpu_share > 0 && l->ngpus != 1) {
		snprintf(err, errlen, "job.gpu_share: shards are of one GPU; "
		    "expected job.gpus of one GPU with it, got %zu", l->ngpus);
		return (-1);
	}
	return (0);
}

/* "array": a job array's task (optional; none for other jobs). */
static int
node_launch_array(struct node_launch *l, const json_t *job, char *err,
    size_t errlen)
{
	const json_t	*a = json_object_get(job, "array");
	json_int_t	 v;

	l->array_task = -1;
	if (a == NULL)
		return (0);
	if (!json_is_object(a)) {
		snprintf(err, errlen, "job.array: expected an object");
		return (-1);
	}
	if (node_launch_range(a, "job", 1, INT64_MAX, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->array_job = (uint64_t)v;
	if (node_launch_range(a, "task", -1, UINT32_MAX, -1, &v, err,
	    errlen) == -1)
		return (-1);
	l->array_task = (long)v;
	if (node_launch_range(a, "count", 0, UINT32_MAX, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->array_count = (unsigned)v;
	if (node_launch_range(a, "min", 0, UINT32_MAX, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->array_min = (unsigned)v;
	if (node_launch_range(a, "max", 0, UINT32_MAX, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->array_max = (unsigned)v;
	if (node_launch_range(a, "step", 0, UINT32_MAX, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->array_step = (unsigned)v;
	return (0);
}

/* "tasks": this node's processes (optional: one, a controller from before
 * tasks sent none). */
static int
node_launch_tasks(struct node_launch *l, const json_t *job, char *err,
    size_t errlen)
{
	const json_t	*t = json_object_get(job, "tasks");
	json_int_t	 v;

	l->task_base = l->node_rank;
	l->tasks = 1;
	l->world_size = l->num_nodes;
	/* The most a job may ask of a node (common/job-req.h); 0: not
	 * said. */
	if (node_launch_range(job, "cpus", 0, JOB_REQ_MAX_CPUS, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->cpus = (unsigned)v;
	if (node_launch_range(job, "mem_mb", 0, JOB_REQ_MAX_MEM, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->mem_mb = (uint64_t)v;
	if (t == NULL)
		return (0);
	if (!json_is_object(t)) {
		snprintf(err, errlen, "job.tasks: expected an object");
		return (-1);
	}
	if (node_launch_range(t, "count", 1, JOB_REQ_MAX_TASKS, 1, &v, err,
	    errlen) == -1)
		return (-1);
	l->tasks = (unsigned)v;
	if (node_launch_range(t, "world_size", 1, INT32_MAX, l->tasks, &v,
	    err, errlen) == -1)
		return (-1);
	l->world_size = (unsigned)v;
	if (node_launch_range(t, "base", 0, l->world_size - l->tasks, 0, &v,
	    err, errlen) == -1)
		return (-1);
	l->task_base = (unsigned)v;
	if (node_launch_range(t, "local", 0, l->tasks - 1, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->task_local = (unsigned)v;
	if (node_launch_range(t, "first", 0, UINT32_MAX, 0, &v, err,
	    errlen) == -1)
		return (-1);
	l->step_first = (unsigned)v;
	l->task_per_gpu = json_is_true(json_object_get(t, "per_gpu"));
	l->gpu_bind_none = json_is_true(json_object_get(t, "gpu_bind_none"));
	if (l->task_per_gpu && l->tasks != l->ngpus) {
		snprintf(err, errlen, "job.tasks.count: expected one task per "
		    "GPU (%zu), got %u", l->ngpus, l->tasks);
		return (-1);
	}
	return (0);
}

/* "batch": "once" or "hold" (absent: a process a task). A script run
 * once sees all the part's GPUs, as its steps' tasks do. */
static int
node_launch_batch(struct node_launch *l, const json_t *job, char *err,
    size_t errlen)
{
	const json_t	*b = json_object_get(job, "batch");
	const char	*s = json_string_value(b);

	if (b == NULL)
		return (0);
	if (s != NULL && strcmp(s, "once") == 0) {
		l->batch = NODE_BATCH_ONCE;
		l->task_per_gpu = false;
	} else if (s != NULL && strcmp(s, "hold") == 0)
		l->batch = NODE_BATCH_HOLD;
	else {
		snprintf(err, errlen, "job.batch: expected \"once\" or "
		    "\"hold\"");
		return (-1);
	}
	return (0);
}

unsigned
node_launch_procs(const struct node_launch *l)
{
	return (l->batch != NODE_BATCH_TASKS ? 1 : l->tasks);
}

/* An interactive job's streams: "interactive": {"pty", "rows", "cols",
 * "stdin"}, all optional. */
static int
node_launch_io(struct node_launch *l, const json_t *job, char *err,
    size_t errlen)
{
	const json_t	*io = json_object_get(job, "interactive");
	int64_t		 n;

	l->io_fd[0] = l->io_fd[1] = l->io_fd[2] = -1;
	if (io == NULL)
		return (0);
	if (!json_is_object(io)) {
		snprintf(err, errlen, "job.interactive: expected an object");
		return (-1);
	}
	l->io = true;
	if (node_launch_req(io, JRQ_PTY, 0, &n, err, errlen) == -1)
		return (-1);
	l->io_pty = n != 0;
	l->io_stdin = json_is_true(json_object_get(io, "stdin"));
	if (node_launch_req(io, JRQ_ROWS, 24, &n, err, errlen) == -1)
		return (-1);
	l->io_rows = (unsigned)n;
	if (node_launch_req(io, JRQ_COLS, 80, &n, err, errlen) == -1)
		return (-1);
	l->io_cols = (unsigned)n;
	return (0);
}

struct node_launch *
node_launch_parse(const json_t *msg, char *err, size_t errlen)
{
	struct node_launch	*l;
	const json_t		*job;
	json_int_t		 v;
	int64_t			 n;

	job = json_object_get(msg, "job");
	if (!json_is_object(job)) {
		snprintf(err, errlen, "job: expected an object");
		return (NULL);
	}
	l = xcalloc(1, sizeof *l);
	l->io_fd[0] = l->io_fd[1] = l->io_fd[2] = -1;
	if (node_launch_uint(job, "id", 1, INT64_MAX, &v, err, errlen) == -1)
		goto fail;
	l->id = (uint64_t)v;
	if (l->id == 0) {
		snprintf(err, errlen, "job.id: expected a whole number >= 1");
		goto fail;
	}
	if (node_launch_uint(job, "uid", 1, UINT32_MAX - 1, &v, err,
	    errlen) == -1)
		goto fail;
	l->uid = (uid_t)v;
	if (node_launch_uint(job, "gid", 1, UINT32_MAX - 1, &v, err,
	    errlen) == -1)
		goto fail;
	l->gid = (gid_t)v;
	if (node_launch_req(job, JRQ_TIME_LIMIT, 0, &n, err, errlen) == -1)
		goto fail;
	l->time_limit = (uint64_t)n;
	/* The parts of a job: as many nodes as a request may name. */
	if (node_launch_uint(job, "num_nodes", 0, JOB_REQ_MAX_NODES, &v, err,
	    errlen) == -1)
		goto fail;
	l->num_nodes = v == 0 ? 1 : (unsigned)v;
	if (node_launch_uint(job, "node_rank", 0, JOB_REQ_MAX_NODES - 1, &v,
	    err, errlen) == -1)
		goto fail;
	l->node_rank = (unsigned)v;
	/* Optional: a controller from before it was sent. */
	if (node_launch_req(job, JRQ_UMASK, NODE_LAUNCH_UMASK, &n, err,
	    errlen) == -1)
		goto fail;
	l->umask = (mode_t)n;

	if (node_launch_str(job, "name", 0, &l->name, err, errlen) == -1 ||
	    node_launch_str(job, "partition", 0, &l->partition, err,
	    errlen) == -1 ||
	    node_launch_str(job, "user", 1, &l->user, err, errlen) == -1 ||
	    node_launch_str(job, "workdir", 1, &l->workdir, err, errlen) == -1 ||
	    node_launch_str(job, "stdout", 0, &l->out, err, errlen) == -1 ||
	    node_launch_str(job, "stderr", 0, &l->err, err, errlen) == -1 ||
	    node_launch_str(job, "script", 1, &l->script, err, errlen) == -1 ||
	    node_launch_str(job, "nodelist", 0, &l->nodelist, err,
	    errlen) == -1)
		goto fail;
	if (l->workdir[0] != '/') {
		snprintf(err, errlen, "job.workdir: expected an absolute path, "
		    "got \"%s\"", l->workdir);
		goto fail;
	}
	if (*l->out == '\0') {
		free(l->out);
		l->out = xstrdup(OUTPAT_DEFAULT);
	}
	if (*l->err == '\0') {
		free(l->err);
		l->err = xstrdup(l->out);
	}
	if (node_launch_restart(l, job, err, errlen) == -1 ||
	    node_launch_array(l, job, err, errlen) == -1 ||
	    node_launch_lists(l, job, err, errlen) == -1 ||
	    node_launch_tasks(l, job, err, errlen) == -1 ||
	    node_launch_batch(l, job, err, errlen) == -1 ||
	    node_launch_io(l, job, err, errlen) == -1)
		goto fail;
	if (*l->script == '\0' && l->argv[0] == NULL &&
	    l->batch != NODE_BATCH_HOLD) {
		snprintf(err, errlen, "job.script: expected the script's text, "
		    "or a command in job.argv");
		goto fail;
	}
	return (l);
fail:
	node_launch_free(l);
	return (NULL);
}

static void
node_launch_free_list(char **v)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

void
node_launch_free(struct node_launch *l)
{
	if (l == NULL)
		return;
	free(l->name);
	free(l->partition);
	free(l->user);
	free(l->workdir);
	free(l->out);
	free(l->err);
	free(l->script);
	free(l->nodelist);
	free(l->ckpt_dir);
	free(l->master_addr);
	free(l->cpuset);
	free(l->mps_pipe);
	free(l->mps_device);
	free(l->gpus);
	node_launch_free_list(l->argv);
	node_launch_free_list(l->env);
	free(l);
}

/* Checks what gnoded itself can refuse before forking anything. */
int
node_launch_check_user(const struct node_conf *conf,
    const struct node_launch *l, const char *what, char *err, size_t errlen)
{
	if (l->uid == 0 && !conf->allow_root_jobs) {
		snprintf(err, errlen, "root %ss are not allowed on node %s "
		    "(node.allow_root_jobs is false)", what, conf->name);
		return (-1);
	}
	if (geteuid() != 0 && l->uid != geteuid()) {
		snprintf(err, errlen, "gnoded on node %s runs as uid %lu and "
		    "cannot run a %s as %s (uid %lu); run gnoded as root",
		    conf->name, (unsigned long)geteuid(), what, l->user,
		    (unsigned long)l->uid);
		return (-1);
	}
	return (0);
}
