/* jobspec.c: a job spec made and freed, what it says, and the options
 * that exclude each other (jobspec-int.h lists its other files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client/jobspec-int.h"
#include "common/job-req.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

struct jobspec *
jobspec_create(void)
{
	struct jobspec	*js;

	js = xcalloc(1, sizeof *js);
	js->v[JOBSPEC_F_GPUS].n = job_reqs[JRQ_GPUS].def;
	return (js);
}

const struct option *
jobspec_options(const char **shortopts)
{
	return (jobspec_opt_getopt(shortopts));
}

void
jobspec_sbatch(struct jobspec *js)
{
	js->default_output = JOBSPEC_SBATCH_OUTPUT;
	js->no_gpu_default = true;
	js->batch_once = true;
}

void
jobspec_free(struct jobspec *js)
{
	int	i;

	if (js == NULL)
		return;
	for (i = 0; i < JOBSPEC_F_COUNT; i++)
		free(js->v[i].s);
	free(js->gpu_type);
	free(js->script_path);
	free(js->script);
	for (i = 0; i < js->argc; i++)
		free(js->argv[i]);
	free(js->argv);
	free(js);
}

bool
jobspec_parsable(const struct jobspec *js)
{
	return (JOBSPEC_SET(js, JOBSPEC_F_PARSABLE));
}

bool
jobspec_quiet(const struct jobspec *js)
{
	return (js->quiet);
}

bool
jobspec_test_only(const struct jobspec *js)
{
	return (JOBSPEC_SET(js, JOBSPEC_F_TEST_ONLY));
}

void
jobspec_command(struct jobspec *js)
{
	js->command = true;
}

bool
jobspec_pty(const struct jobspec *js)
{
	return (JOBSPEC_SET(js, JOBSPEC_F_PTY));
}

bool
jobspec_preemptible(const struct jobspec *js)
{
	return (JOBSPEC_SET(js, JOBSPEC_F_PREEMPTIBLE));
}

uint64_t
jobspec_jobid(const struct jobspec *js)
{
	return (JOBSPEC_SET(js, JOBSPEC_F_JOBID) ?
	    (uint64_t)JOBSPEC_N(js, JOBSPEC_F_JOBID) : 0);
}

const char *
jobspec_nodelist(const struct jobspec *js)
{
	return (JOBSPEC_S(js, JOBSPEC_F_NODELIST));
}

bool
jobspec_wait(const struct jobspec *js)
{
	return (JOBSPEC_SET(js, JOBSPEC_F_WAIT));
}

unsigned
jobspec_timeout(const struct jobspec *js)
{
	return (js->timeout);
}

bool
jobspec_is_text(const char *s)
{
	json_t	*j;

	if ((j = json_string(s)) == NULL)
		return (false);
	json_decref(j);
	return (true);
}

bool
jobspec_printable(const char *s)
{
	return (safe_text_is_line(s, strlen(s)));
}

/* The shape options as jobspec_shape_resolve takes them. */
static void
jobspec_shape_in(const struct jobspec *js, struct jobspec_shape *s)
{
	s->cpus_per_task = (long)JOBSPEC_N(js, JOBSPEC_F_CPUS_PER_TASK);
	s->cpus_per_gpu = (long)JOBSPEC_N(js, JOBSPEC_F_CPUS_PER_GPU);
	s->mem = (uint64_t)JOBSPEC_N(js, JOBSPEC_F_MEM);
	s->mem_per_gpu = (uint64_t)JOBSPEC_N(js, JOBSPEC_F_MEM_PER_GPU);
	s->nodes = (long)JOBSPEC_N(js, JOBSPEC_F_NODES);
	s->gpus_per_node = (long)JOBSPEC_N(js, JOBSPEC_F_GPUS_PER_NODE);
	s->gpus_per_task = (long)JOBSPEC_N(js, JOBSPEC_F_GPUS_PER_TASK);
	s->ntasks = (long)JOBSPEC_N(js, JOBSPEC_F_NTASKS);
	s->tasks_per_node = (long)JOBSPEC_N(js, JOBSPEC_F_TASKS_PER_NODE);
	s->any_shape = JOBSPEC_SET(js, JOBSPEC_F_ANY_SHAPE);
	s->bind_none = JOBSPEC_N(js, JOBSPEC_F_GPU_BIND) != 0;
	s->no_gpu_default = js->no_gpu_default;
}

/* -G MIN-MAX: an elastic job's range. Before the shape is resolved
 * (shaped false): its GPUs per node or per task are the scheduler's to
 * choose; after: the range against the shape's GPUs (MIN) and nodes. */
static int
jobspec_check_elastic(const struct jobspec *js, bool shaped, char *err,
    size_t errlen)
{
	uint32_t	max = (uint32_t)js->v[JOBSPEC_F_GPUS].n2;
	char		detail[256];

	if (max == 0)
		return (0);
	if (JOBSPEC_SET(js, JOBSPEC_F_GPUS_PER_NODE) ||
	    JOBSPEC_SET(js, JOBSPEC_F_GPUS_PER_TASK)) {
		snprintf(err, errlen, "-G %u-%u: an elastic job's GPUs per "
		    "node and per task follow from the count it runs on; "
		    "expected -G MIN-MAX without --gpus-per-node or "
		    "--gpus-per-task", (unsigned)JOBSPEC_N(js, JOBSPEC_F_GPUS),
		    max);
		return (-1);
	}
	if (!shaped)
		return (0);
	if (job_req_check_elastic((uint32_t)js->shaped.gpus, max,
	    js->shaped.num_nodes, detail, sizeof detail) == -1) {
		snprintf(err, errlen, "-G %u-%u: %s",
		    (unsigned)js->shaped.gpus, max, detail);
		return (-1);
	}
	return (0);
}

int
jobspec_check(struct jobspec *js, char *err, size_t errlen)
{
	struct jobspec_shape	 shape;
	const char		*ckpt = NULL;
	char			 werr[256];

	if (JOBSPEC_SET(js, JOBSPEC_F_CKPT_SIGNAL))
		ckpt = "--ckpt-signal";
	else if (JOBSPEC_SET(js, JOBSPEC_F_CKPT_GRACE))
		ckpt = "--ckpt-grace";
	if (JOBSPEC_SET(js, JOBSPEC_F_NO_REQUEUE) && ckpt != NULL) {
		snprintf(err, errlen, "--no-requeue and %s exclude each other: "
		    "a job that is never preempted is never asked to "
		    "checkpoint; give one", ckpt);
		return (-1);
	}
	/* --signal was checked as it came. */
	if (JOBSPEC_SET(js, JOBSPEC_F_SIGNAL) && jobspec_read_signal(
	    JOBSPEC_S(js, JOBSPEC_F_SIGNAL), &js->warn, werr,
	    sizeof werr) == -1) {
		snprintf(err, errlen, "--signal: %s", werr);
		return (-1);
	}
	/* The shape, once -G and every shape option are in. */
	if (jobspec_check_elastic(js, false, err, errlen) == -1)
		return (-1);
	jobspec_shape_in(js, &shape);
	/* Shards are of one GPU, which sbatch --gres=shard:N asks alone
	 * (sbatch's GPUs are 0 unless asked). */
	if (jobspec_shape_resolve(&shape, (long)JOBSPEC_N(js,
	    JOBSPEC_F_GPUS), JOBSPEC_SET(js, JOBSPEC_F_GPUS) ||
	    JOBSPEC_SET(js, JOBSPEC_F_GPU_SHARE), &js->shaped, err,
	    errlen) == -1)
		return (-1);
	if (jobspec_check_elastic(js, true, err, errlen) == -1)
		return (-1);
	if (job_req_check_slice((uint32_t)js->shaped.gpus,
	    (uint32_t)js->v[JOBSPEC_F_GPUS].n2, JOBSPEC_SET(js,
	    JOBSPEC_F_TIME_SLICE), (uint64_t)JOBSPEC_N(js, JOBSPEC_F_GPU_MEM),
	    err, errlen) == -1)
		return (-1);
	return (job_req_check_share((uint32_t)JOBSPEC_N(js,
	    JOBSPEC_F_GPU_SHARE), (uint32_t)js->shaped.gpus,
	    (uint32_t)js->v[JOBSPEC_F_GPUS].n2, (uint32_t)js->shaped.num_nodes,
	    JOBSPEC_SET(js, JOBSPEC_F_TIME_SLICE), err, errlen));
}
