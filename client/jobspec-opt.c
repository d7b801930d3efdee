/* jobspec-opt.c: gsub's options: one row each, naming the value it sets,
 * the member of the request whose bounds it takes (common/job-req.h) and
 * how its text is read (jobspec-read.c). getopt's tables are made from
 * the rows, and one function takes any option's value (jobspec-int.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/jobspec-int.h"
#include "common/cmd.h"
#include "common/job-req.h"
#include "common/xmalloc.h"

#define REQ	required_argument
#define NO	no_argument

/* Every option that sets a value. A row's bounds are those of the request
 * member it names (req), gbatchd's and gnoded's too; an option that sets
 * no member gives its own (max). */
static const struct jobspec_opt jobspec_opts[] = {
	{ "gpus", 'G', REQ, JOBSPEC_F_GPUS, JRQ_GPUS, 0,
	    jobspec_read_gpus, NULL, 0 },
	{ "nodes", 'N', REQ, JOBSPEC_F_NODES, JRQ_NUM_NODES, 0,
	    jobspec_read_nodes, NULL, 0 },
	{ "gpus-per-node", 0, REQ, JOBSPEC_F_GPUS_PER_NODE, JRQ_COUNT,
	    JOB_REQ_MAX_GPUS_PER_NODE, jobspec_read_gpus, NULL, 0 },
	{ "any-shape", 0, NO, JOBSPEC_F_ANY_SHAPE, JRQ_ANY_SHAPE, 0, NULL,
	    NULL, JOBSPEC_OPT_AS_IS },
	{ "ntasks-per-node", 0, REQ, JOBSPEC_F_TASKS_PER_NODE,
	    JRQ_TASKS_PER_NODE, 0, jobspec_read_tasks, NULL, 0 },
	{ "ntasks", 'n', REQ, JOBSPEC_F_NTASKS, JRQ_COUNT,
	    (int64_t)JOB_REQ_MAX_NODES * JOB_REQ_MAX_TASKS,
	    jobspec_read_count, NULL, 0 },
	{ "gpus-per-task", 0, REQ, JOBSPEC_F_GPUS_PER_TASK, JRQ_GPUS, 0,
	    jobspec_read_gpus, NULL, 0 },
	{ "gpu-bind", 0, REQ, JOBSPEC_F_GPU_BIND, JRQ_GPU_BIND, 0,
	    jobspec_read_bind, NULL, 0 },
	{ "cpus-per-task", 'c', REQ, JOBSPEC_F_CPUS_PER_TASK,
	    JRQ_CPUS_PER_TASK, 0, jobspec_read_count, NULL,
	    JOBSPEC_OPT_AS_IS },
	{ "cpus-per-gpu", 0, REQ, JOBSPEC_F_CPUS_PER_GPU, JRQ_CPUS_PER_GPU,
	    0, jobspec_read_count, NULL, JOBSPEC_OPT_AS_IS },
	{ "mem", 0, REQ, JOBSPEC_F_MEM, JRQ_MEM, 0, jobspec_read_mem, NULL,
	    JOBSPEC_OPT_AS_IS },
	{ "mem-per-gpu", 0, REQ, JOBSPEC_F_MEM_PER_GPU, JRQ_MEM_PER_GPU, 0,
	    jobspec_read_mem, NULL, JOBSPEC_OPT_AS_IS },
	{ "time-slice", 0, NO, JOBSPEC_F_TIME_SLICE, JRQ_TIME_SLICE, 0,
	    NULL, NULL, JOBSPEC_OPT_AS_IS },
	{ "gpu-mem", 0, REQ, JOBSPEC_F_GPU_MEM, JRQ_GPU_MEM, 0,
	    jobspec_read_mem, NULL, JOBSPEC_OPT_AS_IS },
	{ "gpu-share", 0, REQ, JOBSPEC_F_GPU_SHARE, JRQ_GPU_SHARE, 0,
	    jobspec_read_count, NULL, JOBSPEC_OPT_AS_IS },
	{ "nodelist", 'w', REQ, JOBSPEC_F_NODELIST, JRQ_NODELIST, 0,
	    jobspec_read_parsed, NULL, JOBSPEC_OPT_AS_IS },
	{ "exclude", 'x', REQ, JOBSPEC_F_EXCLUDE, JRQ_EXCLUDE, 0,
	    jobspec_read_parsed, NULL, JOBSPEC_OPT_AS_IS },
	{ "job-name", 'J', REQ, JOBSPEC_F_NAME, JRQ_NAME, 0,
	    jobspec_read_line, NULL, 0 },
	{ "output", 'o', REQ, JOBSPEC_F_OUTPUT, JRQ_STDOUT, 0,
	    jobspec_read_pattern, NULL, 0 },
	{ "error", 'e', REQ, JOBSPEC_F_ERROR, JRQ_STDERR, 0,
	    jobspec_read_pattern, NULL, 0 },
	{ "chdir", 'D', REQ, JOBSPEC_F_CHDIR, JRQ_WORKDIR, 0,
	    jobspec_read_dir, NULL, 0 },
	{ "time", 't', REQ, JOBSPEC_F_TIME, JRQ_TIME_LIMIT, 0,
	    jobspec_read_duration, NULL, 0 },
	{ "begin", 'b', REQ, JOBSPEC_F_BEGIN, JRQ_BEGIN_TIME, 0,
	    jobspec_read_begin, NULL, JOBSPEC_OPT_AS_IS },
	{ "array", 'a', REQ, JOBSPEC_F_ARRAY, JRQ_ARRAY, 0,
	    jobspec_read_parsed, NULL, JOBSPEC_OPT_AS_IS },
	{ "dependency", 'd', REQ, JOBSPEC_F_DEPENDENCY, JRQ_DEPENDENCY, 0,
	    jobspec_read_parsed, NULL, JOBSPEC_OPT_AS_IS },
	{ "signal", 0, REQ, JOBSPEC_F_SIGNAL, JRQ_WARN_TIME, 0,
	    jobspec_read_warn, NULL, 0 },
	{ "open-mode", 0, REQ, JOBSPEC_F_OPEN_MODE, JRQ_OPEN_MODE, 0,
	    jobspec_read_word, NULL, JOBSPEC_OPT_AS_IS },
	{ "kill-on-invalid-dep", 0, REQ, JOBSPEC_F_KILL_DEP,
	    JRQ_KILL_INVALID_DEP, 0, jobspec_read_yesno, NULL,
	    JOBSPEC_OPT_AS_IS },
	{ "export", 0, REQ, JOBSPEC_F_EXPORT, JRQ_ENV, 0, jobspec_read_parsed,
	    NULL, 0 },
	{ "hold", 'H', NO, JOBSPEC_F_HOLD, JRQ_HOLD, 0, NULL, NULL, 0 },
	{ "account", 'A', REQ, JOBSPEC_F_ACCOUNT, JRQ_ACCOUNT, 0,
	    jobspec_read_account, NULL, JOBSPEC_OPT_AS_IS },
	{ "partition", 'p', REQ, JOBSPEC_F_PARTITION, JRQ_PARTITION, 0,
	    jobspec_read_partition, NULL, JOBSPEC_OPT_AS_IS },
	{ "qos", 'q', REQ, JOBSPEC_F_QOS, JRQ_QOS, 0, jobspec_read_account,
	    NULL, JOBSPEC_OPT_AS_IS },
	{ "reservation", 0, REQ, JOBSPEC_F_RESERVATION, JRQ_RESERVATION, 0,
	    jobspec_read_account, NULL, JOBSPEC_OPT_AS_IS },
	{ "nice", 0, REQ, JOBSPEC_F_NICE, JRQ_NICE, 0, jobspec_read_signed,
	    NULL, JOBSPEC_OPT_AS_IS },
	{ "priority", 0, REQ, JOBSPEC_F_PRIORITY, JRQ_PRIORITY, 0,
	    jobspec_read_signed, NULL, JOBSPEC_OPT_AS_IS },
	{ "comment", 0, REQ, JOBSPEC_F_COMMENT, JRQ_COMMENT, 0,
	    jobspec_read_line, NULL, JOBSPEC_OPT_AS_IS },
	{ "wait", 'W', NO, JOBSPEC_F_WAIT, JRQ_COUNT, 0, NULL, NULL, 0 },
	{ "test-only", 0, NO, JOBSPEC_F_TEST_ONLY, JRQ_COUNT, 0, NULL, NULL,
	    0 },
	{ "ckpt-signal", 0, REQ, JOBSPEC_F_CKPT_SIGNAL, JRQ_CKPT_SIGNAL, 0,
	    jobspec_read_signum, NULL, 0 },
	{ "ckpt-grace", 0, REQ, JOBSPEC_F_CKPT_GRACE, JRQ_CKPT_GRACE, 0,
	    jobspec_read_duration, NULL, 0 },
	{ "no-requeue", 0, NO, JOBSPEC_F_NO_REQUEUE, JRQ_REQUEUE, 0, NULL,
	    NULL, 0 },
	{ "consolidate", 0, NO, JOBSPEC_F_PLACEMENT, JRQ_PLACEMENT, 0, NULL,
	    "consolidate", 0 },
	{ "spread", 0, NO, JOBSPEC_F_PLACEMENT, JRQ_PLACEMENT, 0, NULL,
	    "spread", 0 },
	{ "parsable", 0, NO, JOBSPEC_F_PARSABLE, JRQ_COUNT, 0, NULL, NULL,
	    0 },
	{ "wrap", 0, REQ, JOBSPEC_F_WRAP, JRQ_COMMAND, 0, jobspec_read_wrap,
	    NULL, JOBSPEC_OPT_CMDLINE | JOBSPEC_OPT_GSUB },
	{ "pty", 0, NO, JOBSPEC_F_PTY, JRQ_PTY, 0, NULL, NULL,
	    JOBSPEC_OPT_GRUN },
	{ "jobid", 0, REQ, JOBSPEC_F_JOBID, JRQ_COUNT, INT64_MAX,
	    jobspec_read_jobid, NULL, JOBSPEC_OPT_GRUN },
	{ "preemptible", 0, NO, JOBSPEC_F_PREEMPTIBLE, JRQ_PREEMPTIBLE, 0,
	    NULL, NULL, JOBSPEC_OPT_GRUN },
};
#define JOBSPEC_NOPTS	(sizeof jobspec_opts / sizeof jobspec_opts[0])

/* The parser's own, after the rows: no value to store. */
static const struct option jobspec_opt_own[] = {
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
};
#define JOBSPEC_NOWN	(sizeof jobspec_opt_own / sizeof jobspec_opt_own[0])

/* getopt_long's tables: gsub's rows, the parser's own, and sbatch's
 * options gsub has not (slurm-opt.h), made once. */
static struct option	 jobspec_opt_long[JOBSPEC_NOPTS + JOBSPEC_NOWN + 160];
static char		 jobspec_opt_short[3 * (JOBSPEC_NOPTS + 40)];

/* Adds a short option to the optstring. */
static void
jobspec_opt_add_short(int letter, int has_arg)
{
	size_t	len = strlen(jobspec_opt_short);

	if (letter == 0 || len + 4 >= sizeof jobspec_opt_short)
		return;
	jobspec_opt_short[len++] = (char)letter;
	if (has_arg == required_argument)
		jobspec_opt_short[len++] = ':';
	else if (has_arg == optional_argument) {
		jobspec_opt_short[len++] = ':';
		jobspec_opt_short[len++] = ':';
	}
	jobspec_opt_short[len] = '\0';
}

static void
jobspec_opt_all(void)
{
	const struct slurm_opt	*t;
	size_t			 n, i, k = 0;

	if (jobspec_opt_long[0].name != NULL)
		return;
	/* '+': options stop at the script; ':': a missing value is told
	 * apart from an unknown option. */
	strcpy(jobspec_opt_short, "+:");
	for (i = 0; i < JOBSPEC_NOPTS; i++, k++) {
		jobspec_opt_long[k].name = jobspec_opts[i].name;
		jobspec_opt_long[k].has_arg = jobspec_opts[i].has_arg;
		jobspec_opt_long[k].val = jobspec_opts[i].letter != 0 ?
		    jobspec_opts[i].letter : JOBSPEC_OPT_BASE + (int)i;
		jobspec_opt_add_short(jobspec_opts[i].letter,
		    jobspec_opts[i].has_arg);
	}
	for (i = 0; i < JOBSPEC_NOWN; i++, k++) {
		jobspec_opt_long[k] = jobspec_opt_own[i];
		if (jobspec_opt_own[i].val < 0x100)
			jobspec_opt_add_short(jobspec_opt_own[i].val,
			    jobspec_opt_own[i].has_arg);
	}
	t = slurm_opt_table(&n);
	for (i = 0; i < n && k + 1 < sizeof jobspec_opt_long /
	    sizeof jobspec_opt_long[0]; i++) {
		if (t[i].what == SLURM_DO_SAME)
			continue;
		jobspec_opt_long[k].name = t[i].name;
		jobspec_opt_long[k].has_arg = t[i].has_arg;
		jobspec_opt_long[k].flag = NULL;
		jobspec_opt_long[k].val = JOBSPEC_OPT_SLURM + (int)i;
		k++;
		jobspec_opt_add_short(t[i].short_opt, t[i].has_arg);
	}
	memset(&jobspec_opt_long[k], 0, sizeof jobspec_opt_long[k]);
}

const struct option *
jobspec_opt_getopt(const char **shortopts)
{
	jobspec_opt_all();
	*shortopts = jobspec_opt_short;
	return (jobspec_opt_long);
}

/* The row of getopt's answer c, or NULL. */
static const struct jobspec_opt *
jobspec_opt_row(int c)
{
	size_t	i;

	if (c >= JOBSPEC_OPT_BASE && c < JOBSPEC_OPT_BASE + (int)JOBSPEC_NOPTS)
		return (&jobspec_opts[c - JOBSPEC_OPT_BASE]);
	for (i = 0; c > 0 && c < 0x100 && i < JOBSPEC_NOPTS; i++) {
		if (jobspec_opts[i].letter == c)
			return (&jobspec_opts[i]);
	}
	return (NULL);
}

int
jobspec_opt_code(const char *name)
{
	size_t	i;

	for (i = 0; i < JOBSPEC_NOPTS; i++) {
		if (strcmp(jobspec_opts[i].name, name) == 0)
			return (jobspec_opts[i].letter != 0 ?
			    jobspec_opts[i].letter : JOBSPEC_OPT_BASE + (int)i);
	}
	return (-1);
}

bool
jobspec_opt_cmdline(int c)
{
	const struct jobspec_opt	*o = jobspec_opt_row(c);

	return (o != NULL && (o->flags & JOBSPEC_OPT_CMDLINE) != 0);
}

const struct slurm_opt *
jobspec_opt_slurm_row(int c)
{
	const struct slurm_opt	*t;
	size_t			 n, i;

	t = slurm_opt_table(&n);
	if (c >= JOBSPEC_OPT_SLURM && c < JOBSPEC_OPT_SLURM + (int)n)
		return (&t[c - JOBSPEC_OPT_SLURM]);
	if (c > 0 && c < 0x100 && jobspec_opt_row(c) == NULL) {
		for (i = 0; i < n; i++) {
			if (t[i].short_opt == c && t[i].what != SLURM_DO_SAME)
				return (&t[i]);
		}
	}
	return (NULL);
}

/* The least and most o takes: its request member's, or its own. */
static int
jobspec_opt_allowed(const struct jobspec *js, const struct jobspec_opt *o,
    char *err, size_t errlen)
{
	if ((o->flags & JOBSPEC_OPT_GRUN) && !js->command) {
		snprintf(err, errlen, "--%s: an option of grun, which runs a "
		    "command in the foreground; gsub's jobs run in the "
		    "background", o->name);
		return (-1);
	}
	if ((o->flags & JOBSPEC_OPT_GSUB) && js->command) {
		snprintf(err, errlen, "--%s: grun runs the command given after "
		    "its options", o->name);
		return (-1);
	}
	return (0);
}

int
jobspec_opt_set(struct jobspec *js, int opt, const char *arg,
    enum jobspec_src src, char *err, size_t errlen)
{
	const struct jobspec_opt	*o = jobspec_opt_row(opt);
	struct jobspec_value		 v = { .src = src, .n = 1 };
	struct jobspec_value		*at;
	char				 detail[512];

	if (o == NULL) {
		snprintf(err, errlen, "option %d is not a job option", opt);
		return (-1);
	}
	if (jobspec_opt_allowed(js, o, err, errlen) == -1)
		return (-1);
	if (o->read != NULL && o->read(o, arg, &v, detail,
	    sizeof detail) == -1) {
		snprintf(err, errlen, "--%s: %s", o->name, detail);
		return (-1);
	}
	if (o->word != NULL)
		v.n = job_req_word(o->req, o->word, strlen(o->word));
	at = &js->v[o->field];
	if (src < at->src) {
		free(v.s);
		return (0);
	}
	/* The command line overrides a directive, but two placements from
	 * the same place contradict each other. */
	if (o->field == JOBSPEC_F_PLACEMENT && src == at->src && v.n != at->n) {
		snprintf(err, errlen, "--consolidate and --spread exclude each "
		    "other: the fewest nodes, or the emptiest ones; give one");
		return (-1);
	}
	/* -G sets the GPUs' model or clears it; --gpus-per-node and
	 * --gpus-per-task set one when they name it. */
	if (o->field == JOBSPEC_F_GPUS || (v.s != NULL &&
	    (o->field == JOBSPEC_F_GPUS_PER_NODE ||
	    o->field == JOBSPEC_F_GPUS_PER_TASK))) {
		free(js->gpu_type);
		js->gpu_type = v.s != NULL ? xstrdup(v.s) : NULL;
	}
	free(at->s);
	*at = v;
	return (0);
}

/* Option o's value v as its member's kind writes it (a new reference);
 * with omit, NULL for a number or a word that is what the member's
 * absence means. */
static json_t *
jobspec_opt_json(const struct jobspec_opt *o, const struct jobspec_value *v,
    bool omit)
{
	const struct job_req_desc	*d = &job_reqs[o->req];

	switch (d->kind) {
	case JRK_BOOL:
		return (json_boolean(v->n));
	case JRK_COUNT:
		return (omit && v->n == d->def ? NULL : json_integer(v->n));
	case JRK_WORD:
		return (omit && v->n == d->def ? NULL : json_string(v->s));
	default:
		return (json_string(v->s));
	}
}

void
jobspec_opt_build(const struct jobspec *js, json_t *job)
{
	const struct jobspec_opt	*o;
	const struct jobspec_value	*v;
	json_t				*m;
	size_t				 i;

	for (i = 0; i < JOBSPEC_NOPTS; i++) {
		o = &jobspec_opts[i];
		v = &js->v[o->field];
		if (!(o->flags & JOBSPEC_OPT_AS_IS) ||
		    v->src == JOBSPEC_SRC_NONE)
			continue;
		if ((m = jobspec_opt_json(o, v, true)) != NULL)
			json_object_set_new(job, job_reqs[o->req].member, m);
	}
}

int
jobspec_opt_value(const char *name, const char *arg, const char **member,
    json_t **value, char *err, size_t errlen)
{
	const struct jobspec_opt	*o = NULL;
	struct jobspec_value		 v = { .src = JOBSPEC_SRC_CMDLINE, .n = 1 };
	size_t				 i;

	for (i = 0; i < JOBSPEC_NOPTS && o == NULL; i++) {
		if (strcmp(jobspec_opts[i].name, name) == 0)
			o = &jobspec_opts[i];
	}
	/* A programmer's error: the callers name options of the table
	 * that set a member through a reader. */
	if (o == NULL || o->req == JRQ_COUNT || o->read == NULL) {
		snprintf(err, errlen, "--%s is not an option with a member",
		    name);
		return (-1);
	}
	if (o->read(o, arg, &v, err, errlen) == -1)
		return (-1);
	*member = job_reqs[o->req].member;
	*value = jobspec_opt_json(o, &v, false);
	free(v.s);
	if (*value == NULL) {
		snprintf(err, errlen, "expected UTF-8 text");
		return (-1);
	}
	return (0);
}

