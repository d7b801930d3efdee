/* jobspec-build.c: JOB_SUBMIT's "job" from a job spec (jobspec.h). */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/jobenv.h"
#include "client/jobspec-int.h"
#include "common/job-req.h"
#include "common/xmalloc.h"

extern char **environ;

/* Makes path absolute against cwd. Returns a new string. */
static char *
jobspec_build_absolute(const char *path, const char *cwd)
{
	if (*path == '/')
		return (xstrdup(path));
	if (strcmp(path, ".") == 0)
		return (xstrdup(cwd));
	if (strncmp(path, "./", 2) == 0)
		path += 2;
	return (xasprintf("%s%s%s", cwd, cwd[strlen(cwd) - 1] == '/' ? "" :
	    "/", path));
}

/* Puts v as member f of the request (common/job-req.h names it). */
static void
jobspec_build_put(json_t *job, enum job_req f, json_t *v)
{
	json_object_set_new(job, job_reqs[f].member, v);
}

/* The members of the shape (jobspec_check resolved it) and the warning
 * before the time limit, with the checkpoint it implies. */
static void
jobspec_build_shape(const struct jobspec *js, json_t *job)
{
	const struct jobspec_shape_out	*o = &js->shaped;
	bool				 requeue;

	jobspec_build_put(job, JRQ_GPUS, json_integer(o->gpus));
	if (js->v[JOBSPEC_F_GPUS].n2 > 0)
		jobspec_build_put(job, JRQ_GPUS_MAX,
		    json_integer(js->v[JOBSPEC_F_GPUS].n2));
	if (o->num_nodes > 0)
		jobspec_build_put(job, JRQ_NUM_NODES,
		    json_integer(o->num_nodes));
	if (o->tasks_per_node == JOBSPEC_SHAPE_PER_GPU)
		jobspec_build_put(job, JRQ_TASKS_PER_NODE,
		    json_string(job_reqs[JRQ_TASKS_PER_NODE].words));
	else if (o->tasks_per_node > 1)
		jobspec_build_put(job, JRQ_TASKS_PER_NODE,
		    json_integer(o->tasks_per_node));
	if (JOBSPEC_N(js, JOBSPEC_F_GPU_BIND) != 0)
		jobspec_build_put(job, JRQ_GPU_BIND, json_string("none"));
	if (js->gpu_type != NULL)
		jobspec_build_put(job, JRQ_GPU_TYPE, json_string(js->gpu_type));
	if (JOBSPEC_SET(js, JOBSPEC_F_CKPT_SIGNAL))
		jobspec_build_put(job, JRQ_CKPT_SIGNAL,
		    json_integer(JOBSPEC_N(js, JOBSPEC_F_CKPT_SIGNAL)));
	if (JOBSPEC_SET(js, JOBSPEC_F_CKPT_GRACE))
		jobspec_build_put(job, JRQ_CKPT_GRACE,
		    json_integer(JOBSPEC_N(js, JOBSPEC_F_CKPT_GRACE)));
	requeue = !JOBSPEC_SET(js, JOBSPEC_F_NO_REQUEUE);
	if (js->warn.sig != 0) {
		jobspec_build_put(job, JRQ_WARN_SIGNAL,
		    json_integer(js->warn.sig));
		jobspec_build_put(job, JRQ_WARN_TIME,
		    json_integer(js->warn.secs));
		if (js->warn.batch)
			jobspec_build_put(job, JRQ_WARN_BATCH, json_true());
		/* The same warning before a preemption, unless the job
		 * named its checkpoint signal and grace itself. */
		if (requeue && !JOBSPEC_SET(js, JOBSPEC_F_CKPT_SIGNAL))
			jobspec_build_put(job, JRQ_CKPT_SIGNAL,
			    json_integer(js->warn.sig));
		if (requeue && !JOBSPEC_SET(js, JOBSPEC_F_CKPT_GRACE))
			jobspec_build_put(job, JRQ_CKPT_GRACE,
			    json_integer(js->warn.secs));
	}
	if (!requeue)
		jobspec_build_put(job, JRQ_REQUEUE, json_false());
	/* sbatch's: the script once, its tasks started by srun. */
	if (js->batch_once && !js->command)
		jobspec_build_put(job, JRQ_BATCH, json_string("once"));
	if (JOBSPEC_SET(js, JOBSPEC_F_PLACEMENT))
		jobspec_build_put(job, JRQ_PLACEMENT, json_string(
		    JOBSPEC_N(js, JOBSPEC_F_PLACEMENT) == job_req_word(
		    JRQ_PLACEMENT, "spread", 6) ? "spread" : "consolidate"));
}

json_t *
jobspec_build(const struct jobspec *js, char *const *env, const char *cwd,
    mode_t mask, char *err, size_t errlen)
{
	json_t		*job, *argv;
	const char	*base, *output, *wrap, *chdir, *export;
	char		*workdir, *command, *script;
	int		 i;

	wrap = JOBSPEC_S(js, JOBSPEC_F_WRAP);
	chdir = JOBSPEC_S(js, JOBSPEC_F_CHDIR);
	export = JOBSPEC_S(js, JOBSPEC_F_EXPORT);
	if (*cwd != '/') {
		snprintf(err, errlen, "the current directory \"%s\" is not an "
		    "absolute path", cwd);
		return (NULL);
	}
	if (wrap == NULL && js->script == NULL && !js->command) {
		snprintf(err, errlen, "no script loaded");
		return (NULL);
	}
	workdir = jobspec_build_absolute(chdir != NULL ? chdir : ".", cwd);
	if (js->command) {
		/* grun: the node runs the command itself, without a
		 * script. */
		command = xstrdup(js->argv[0]);
		script = xstrdup("");
		base = strrchr(js->argv[0], '/');
		base = base != NULL && base[1] != '\0' ? base + 1 :
		    js->argv[0];
	} else if (wrap != NULL) {
		command = xstrdup(wrap);
		script = xasprintf("#!/bin/sh\n%s\n", wrap);
		base = "wrap";
	} else if (strcmp(js->script_path, "-") == 0) {
		command = xstrdup("(" JOBSPEC_STDIN_NAME ")");
		script = xstrdup(js->script);
		base = JOBSPEC_STDIN_NAME;
	} else {
		command = jobspec_build_absolute(js->script_path, cwd);
		script = xstrdup(js->script);
		base = strrchr(js->script_path, '/');
		base = base != NULL ? base + 1 : js->script_path;
		if (*base == '\0')
			base = "script";
	}
	/* An array's tasks write a file each by default, as sbatch's. */
	if (JOBSPEC_SET(js, JOBSPEC_F_OUTPUT))
		output = JOBSPEC_S(js, JOBSPEC_F_OUTPUT);
	else if (JOBSPEC_SET(js, JOBSPEC_F_ARRAY))
		output = js->default_output != NULL ?
		    JOBSPEC_SBATCH_ARRAY_OUTPUT : JOBSPEC_ARRAY_OUTPUT;
	else
		output = js->default_output != NULL ? js->default_output :
		    JOBSPEC_DEFAULT_OUTPUT;
	/* grun's output goes to grun; no file is written. */
	if (js->command)
		output = "/dev/null";

	argv = json_array();
	for (i = 0; i < js->argc; i++)
		json_array_append_new(argv, json_string(js->argv[i]));
	job = json_object();
	jobspec_build_put(job, JRQ_NAME, json_string(JOBSPEC_SET(js,
	    JOBSPEC_F_NAME) ? JOBSPEC_S(js, JOBSPEC_F_NAME) : base));
	jobspec_build_put(job, JRQ_SCRIPT, json_string(script));
	jobspec_build_put(job, JRQ_COMMAND, json_string(command));
	jobspec_build_put(job, JRQ_ARGV, argv);
	jobspec_build_put(job, JRQ_WORKDIR, json_string(workdir));
	jobspec_build_put(job, JRQ_STDOUT, json_string(output));
	jobspec_build_put(job, JRQ_STDERR, json_string(JOBSPEC_SET(js,
	    JOBSPEC_F_ERROR) ? JOBSPEC_S(js, JOBSPEC_F_ERROR) : output));
	jobspec_build_put(job, JRQ_TIME_LIMIT, json_integer(JOBSPEC_N(js,
	    JOBSPEC_F_TIME)));
	jobspec_build_put(job, JRQ_ENV, jobenv_build(export != NULL ? export :
	    "ALL", env));
	jobspec_build_put(job, JRQ_HOLD, json_boolean(JOBSPEC_SET(js,
	    JOBSPEC_F_HOLD)));
	jobspec_build_put(job, JRQ_UMASK, json_integer(mask & 0777));
	jobspec_build_shape(js, job);
	/* The options whose value is their member's as it is. */
	jobspec_opt_build(js, job);
	free(script);
	free(command);
	free(workdir);

	/* A name from the script's file name may not be valid UTF-8, and the
	 * working directory may not be either. */
	if (json_object_get(job, "name") == NULL ||
	    json_object_get(job, "command") == NULL ||
	    json_object_get(job, "workdir") == NULL) {
		snprintf(err, errlen, "the script path or working directory is "
		    "not valid UTF-8 text; rename it, or give -J and -D");
		json_decref(job);
		return (NULL);
	}
	return (job);
}

json_t *
jobspec_build_here(const struct jobspec *js, char *err, size_t errlen)
{
	struct stat	 sb;
	json_t		*job;
	const char	*dir;
	char		 cwd[PATH_MAX];
	mode_t		 mask;

	if (getcwd(cwd, sizeof cwd) == NULL) {
		snprintf(err, errlen, "cannot find the current directory: %s",
		    strerror(errno));
		return (NULL);
	}
	/* The umask can only be read by setting it; nothing is created in
	 * between. The job's output files are made with it, as a shell's
	 * redirection would make them. */
	mask = umask(0);
	umask(mask);
	if ((job = jobspec_build(js, environ, cwd, mask, err, errlen)) ==
	    NULL)
		return (NULL);
	/* Caught here rather than as a failed job minutes later; on a
	 * cluster the working directory is on a shared file system. */
	dir = json_string_value(json_object_get(job, "workdir"));
	if (stat(dir, &sb) == -1)
		snprintf(err, errlen, "working directory %s: %s", dir,
		    strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		snprintf(err, errlen, "working directory %s: not a directory",
		    dir);
	else
		return (job);
	json_decref(job);
	return (NULL);
}
