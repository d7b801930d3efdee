/* sim-trace.c: reads a job trace or a file of GPU-time samples; see
 * sim-trace.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "policy/place.h"
#include "sim/csv.h"
#include "sim/sim-trace.h"

/* Most GPUs a trace job may ask for; the cluster check comes later. */
#define TRACE_MAX_GPUS	1000000

static const char *const trace_col_submit[] = { "submit_time", "time",
    NULL };
static const char *const trace_col_gpus[] = { "num_gpus", "num_gpu",
    "num_replicas", NULL };
static const char *const trace_col_duration[] = { "duration", NULL };
static const char *const trace_col_id[] = { "job_id", NULL };
static const char *const trace_col_name[] = { "name", "model_name", NULL };
static const char *const trace_col_user[] = { "user", NULL };
static const char *const trace_col_array[] = { "array_id", NULL };
static const char *const trace_col_throttle[] = { "array_throttle", NULL };
static const char *const trace_col_nodes[] = { "num_nodes", NULL };
static const char *const trace_col_cpus[] = { "num_cpu", "num_cpus", NULL };
static const char *const trace_col_mem[] = { "mem_gb", NULL };
static const char *const trace_col_account[] = { "account", NULL };
static const char *const trace_col_part[] = { "partition", NULL };
static const char *const trace_col_limit[] = { "time_limit", NULL };
static const char *const trace_col_qos[] = { "qos", NULL };
static const char *const trace_col_app[] = { "application", NULL };
static const char *const trace_col_batch[] = { "batch_size", NULL };
static const char *const trace_col_slice[] = { "time_slice", NULL };
static const char *const trace_col_share[] = { "gpu_share", NULL };
static const char *const trace_col_sample[] = { "duration", "gpu_time",
    NULL };

/* Finds a column every record needs; else names what the header has. */
static int
trace_need(const struct csv *c, const char *const *names, const char *what,
    int *col, char *err, size_t errlen)
{
	char	*have;

	if ((*col = csv_column(c, names)) >= 0)
		return (0);
	have = csv_header(c);
	snprintf(err, errlen, "%s:1: no %s column; the header has: %s "
	    "(expected %s)", c->path, what, have,
	    "submit_time or time, num_gpus (num_gpu, num_replicas), "
	    "duration or application; optional job_id, name or model_name, "
	    "user, array_id, array_throttle, num_nodes, num_cpu, mem_gb, "
	    "batch_size, time_slice, gpu_share");
	free(have);
	return (-1);
}

static int
trace_by_submit(const void *a, const void *b)
{
	const struct sim_job	*x = a, *y = b;

	if (x->submit_ms != y->submit_ms)
		return (x->submit_ms < y->submit_ms ? -1 : 1);
	return (x->line < y->line ? -1 : x->line > y->line);
}

static int
trace_by_id(const void *a, const void *b)
{
	const struct sim_job	*x = *(struct sim_job *const *)a;
	const struct sim_job	*y = *(struct sim_job *const *)b;

	if (x->id != y->id)
		return (x->id < y->id ? -1 : 1);
	return (x->line < y->line ? -1 : x->line > y->line);
}

/* Job ids name jobs in gsim's per-job output, so each must be unique. */
static int
trace_check_ids(const char *path, const struct sim_trace *t, char *err,
    size_t errlen)
{
	const struct sim_job	**v;
	size_t			  i;
	int			  ret = 0;

	v = xcalloc(t->njobs, sizeof *v);
	for (i = 0; i < t->njobs; i++)
		v[i] = &t->jobs[i];
	qsort(v, t->njobs, sizeof *v, trace_by_id);
	for (i = 1; i < t->njobs; i++) {
		if (v[i]->id == v[i - 1]->id) {
			snprintf(err, errlen, "%s:%u: job_id %llu is taken by "
			    "line %u; each job needs its own id", path,
			    v[i]->line, (unsigned long long)v[i]->id,
			    v[i - 1]->line);
			ret = -1;
			break;
		}
	}
	free(v);
	return (ret);
}

/* Reads j's gpu_share from column col: shards of one GPU, which a job
 * of several GPUs (or none), of turns or of an application cannot take
 * (gpus names j's GPU column). */
static int
trace_shards(const struct csv *c, int col, const char *gpus,
    struct sim_job *j, char *err, size_t errlen)
{
	uint64_t	v;

	if (col < 0 || *csv_field(c, col) == '\0')
		return (0);
	if (csv_uint(c, col, "gpu_share", 0, PLACE_MAX_SHARDS, &v, err,
	    errlen) != 0)
		return (-1);
	if ((j->shards = (uint32_t)v) == 0)
		return (0);
	if (j->gpus != 1) {
		snprintf(err, errlen, "%s:%u: gpu_share %u takes shards of "
		    "one GPU: %s must be 1, got %u (gpu_share 0 or empty: "
		    "whole GPUs)", c->path, c->line, j->shards, gpus, j->gpus);
		return (-1);
	}
	if (j->time_slice || j->app != NULL) {
		snprintf(err, errlen, "%s:%u: gpu_share %u with %s: a job "
		    "takes shards of a GPU, or whole GPUs %s, not both",
		    c->path, c->line, j->shards, j->time_slice ?
		    "time_slice 1" : "an application", j->time_slice ?
		    "in turns" : "to train on");
		return (-1);
	}
	return (0);
}

/* Reads one record into j. */
static int
trace_record(const struct csv *c, const int *col, size_t row,
    struct sim_job *j, char *err, size_t errlen)
{
	uint64_t	v;
	const char	*s;

	memset(j, 0, sizeof *j);
	j->line = c->line;
	j->id = row;
	if (col[3] >= 0) {
		if (csv_uint(c, col[3], "job_id", 0, UINT64_MAX, &v, err,
		    errlen) != 0)
			return (-1);
		j->id = v;
	}
	if (csv_uint(c, col[1], c->names[col[1]], 0, TRACE_MAX_GPUS, &v, err,
	    errlen) != 0)
		return (-1);
	j->gpus = (uint32_t)v;
	if (csv_seconds(c, col[0], c->names[col[0]], 0, &j->submit_ms, err,
	    errlen) != 0)
		return (-1);
	/* A job that trains an application runs as long as its placement
	 * makes it (gsim --apps): a duration of its own is not read. */
	if (col[15] >= 0) {
		if (*(s = csv_field(c, col[15])) == '\0') {
			snprintf(err, errlen, "%s:%u: application: empty; "
			    "expected the name of an application of --apps",
			    c->path, c->line);
			return (-1);
		}
		j->app = xstrdup(s);
		if (j->gpus == 0) {
			snprintf(err, errlen, "%s:%u: %s: 0; a job that "
			    "trains an application needs a GPU at least",
			    c->path, c->line, c->names[col[1]]);
			return (-1);
		}
	} else if (csv_seconds(c, col[2], "duration", 1, &j->duration_ms,
	    err, errlen) != 0)
		return (-1);
	if (col[16] >= 0 && *csv_field(c, col[16]) != '\0') {
		if (csv_uint(c, col[16], "batch_size", 1, UINT32_MAX, &v, err,
		    errlen) != 0)
			return (-1);
		j->batch = (uint32_t)v;
	}
	if (col[4] >= 0 && *(s = csv_field(c, col[4])) != '\0')
		j->name = xstrdup(s);
	if (col[5] >= 0 && *(s = csv_field(c, col[5])) != '\0')
		j->user = xstrdup(s);
	if (col[6] >= 0 && *csv_field(c, col[6]) != '\0') {
		if (csv_uint(c, col[6], "array_id", 1, UINT64_MAX, &v, err,
		    errlen) != 0)
			return (-1);
		j->array_id = v;
	}
	if (col[7] >= 0 && *csv_field(c, col[7]) != '\0') {
		if (csv_uint(c, col[7], "array_throttle", 0, UINT32_MAX, &v,
		    err, errlen) != 0)
			return (-1);
		j->array_throttle = (uint32_t)v;
	}
	if (col[8] >= 0 && *csv_field(c, col[8]) != '\0') {
		if (csv_uint(c, col[8], "num_nodes", 0, j->gpus > 0 ?
		    j->gpus : TRACE_MAX_GPUS, &v, err, errlen) != 0)
			return (-1);
		j->num_nodes = (uint32_t)v;
		if (v != 0 && j->gpus % v != 0) {
			snprintf(err, errlen, "%s:%u: %u GPUs do not split "
			    "evenly over num_nodes %u; num_gpus must be a "
			    "multiple of num_nodes", c->path, c->line, j->gpus,
			    j->num_nodes);
			return (-1);
		}
	}
	if (col[9] >= 0 && *csv_field(c, col[9]) != '\0') {
		if (csv_uint(c, col[9], c->names[col[9]], 0, 1 << 24, &v, err,
		    errlen) != 0)
			return (-1);
		j->cpus = (uint32_t)v;
	}
	if (col[10] >= 0 && *csv_field(c, col[10]) != '\0') {
		if (csv_uint(c, col[10], "mem_gb", 0, 1 << 24, &v, err,
		    errlen) != 0)
			return (-1);
		j->mem = v * 1024;
	}
	if (col[11] >= 0 && *(s = csv_field(c, col[11])) != '\0')
		j->account = xstrdup(s);
	if (col[12] >= 0 && *(s = csv_field(c, col[12])) != '\0')
		j->partition = xstrdup(s);
	if (col[13] >= 0 && *csv_field(c, col[13]) != '\0') {
		if (csv_uint(c, col[13], "time_limit", 0, UINT32_MAX, &v, err,
		    errlen) != 0)
			return (-1);
		j->time_limit = v;
	}
	if (col[14] >= 0 && *(s = csv_field(c, col[14])) != '\0')
		j->qos = xstrdup(s);
	if (col[17] >= 0 && *csv_field(c, col[17]) != '\0') {
		if (csv_uint(c, col[17], "time_slice", 0, 1, &v, err,
		    errlen) != 0)
			return (-1);
		j->time_slice = v == 1;
	}
	return (trace_shards(c, col[18], c->names[col[1]], j, err, errlen));
}

int
sim_trace_load(const char *path, struct sim_trace *t, char *err,
    size_t errlen)
{
	struct csv	c;
	size_t		size = 0;
	int		col[19], r;

	memset(t, 0, sizeof *t);
	if (csv_open(&c, path, err, errlen) != 0)
		return (-1);
	col[2] = -1;
	col[15] = csv_column(&c, trace_col_app);
	col[16] = csv_column(&c, trace_col_batch);
	if (trace_need(&c, trace_col_submit, "submit_time", &col[0], err,
	    errlen) != 0 || trace_need(&c, trace_col_gpus, "num_gpus",
	    &col[1], err, errlen) != 0 || (col[15] < 0 &&
	    trace_need(&c, trace_col_duration, "duration", &col[2], err,
	    errlen) != 0))
		goto fail;
	col[3] = csv_column(&c, trace_col_id);
	col[4] = csv_column(&c, trace_col_name);
	col[5] = csv_column(&c, trace_col_user);
	col[6] = csv_column(&c, trace_col_array);
	col[7] = csv_column(&c, trace_col_throttle);
	col[8] = csv_column(&c, trace_col_nodes);
	col[9] = csv_column(&c, trace_col_cpus);
	col[10] = csv_column(&c, trace_col_mem);
	col[11] = csv_column(&c, trace_col_account);
	col[12] = csv_column(&c, trace_col_part);
	col[13] = csv_column(&c, trace_col_limit);
	col[14] = csv_column(&c, trace_col_qos);
	col[17] = csv_column(&c, trace_col_slice);
	col[18] = csv_column(&c, trace_col_share);
	t->has_time_slice = col[17] >= 0;

	while ((r = csv_next(&c, err, errlen)) == 1) {
		if (t->njobs == size) {
			size = size != 0 ? size * 2 : 1024;
			t->jobs = xreallocarray(t->jobs, size, sizeof *t->jobs);
		}
		/* A record refused halfway is counted too, so that the
		 * strings it read are freed with the others. */
		r = trace_record(&c, col, t->njobs, &t->jobs[t->njobs], err,
		    errlen);
		t->njobs++;
		if (r != 0)
			goto fail;
	}
	if (r < 0)
		goto fail;
	if (t->njobs == 0) {
		snprintf(err, errlen, "%s: no jobs after the header", path);
		goto fail;
	}
	if (trace_check_ids(path, t, err, errlen) != 0)
		goto fail;
	qsort(t->jobs, t->njobs, sizeof *t->jobs, trace_by_submit);
	csv_close(&c);
	return (0);

fail:
	csv_close(&c);
	sim_trace_free(t);
	return (-1);
}

void
sim_trace_free(struct sim_trace *t)
{
	size_t	i;

	for (i = 0; i < t->njobs; i++) {
		free(t->jobs[i].name);
		free(t->jobs[i].user);
		free(t->jobs[i].account);
		free(t->jobs[i].partition);
		free(t->jobs[i].qos);
		free(t->jobs[i].app);
	}
	free(t->jobs);
	t->jobs = NULL;
	t->njobs = 0;
}

int
sim_trace_load_samples(const char *path, uint64_t **samples, size_t *n,
    char *err, size_t errlen)
{
	struct csv	 c;
	uint64_t	*v = NULL;
	size_t		 size = 0;
	int64_t		 ms;
	int		 col, r;
	char		*have;

	*samples = NULL;
	*n = 0;
	if (csv_open(&c, path, err, errlen) != 0)
		return (-1);
	if ((col = csv_column(&c, trace_col_sample)) < 0) {
		have = csv_header(&c);
		snprintf(err, errlen, "%s:1: no duration column; the header "
		    "has: %s (expected one GPU-time in GPU-seconds per line "
		    "under \"duration\")", path, have);
		free(have);
		goto fail;
	}
	while ((r = csv_next(&c, err, errlen)) == 1) {
		if (csv_seconds(&c, col, "duration", 1, &ms, err, errlen) != 0)
			goto fail;
		if (*n == size) {
			size = size != 0 ? size * 2 : 1024;
			v = xreallocarray(v, size, sizeof *v);
		}
		v[(*n)++] = (uint64_t)ms;
	}
	if (r < 0)
		goto fail;
	if (*n == 0) {
		snprintf(err, errlen, "%s: no samples after the header", path);
		goto fail;
	}
	csv_close(&c);
	*samples = v;
	return (0);

fail:
	csv_close(&c);
	free(v);
	*n = 0;
	return (-1);
}

void
sim_trace_slice_share(struct sim_trace *t, double share)
{
	size_t	i;

	for (i = 0; i < t->njobs; i++) {
		if (t->jobs[i].shards > 0)
			continue;
		if (share >= 0)
			t->jobs[i].time_slice = (uint64_t)((double)(i + 1) *
			    share + 1e-9) > (uint64_t)((double)i * share +
			    1e-9);
		else if (!t->has_time_slice)
			t->jobs[i].time_slice = true;
	}
}
