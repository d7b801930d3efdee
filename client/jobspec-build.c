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

json_t *
jobspec_build(const struct jobspec *js, char *const *env, const char *cwd,
    mode_t mask, char *err, size_t errlen)
{
	json_t		*job, *argv;
	const char	*base, *output;
	char		*workdir, *command, *script;
	int		 i;

	if (*cwd != '/') {
		snprintf(err, errlen, "the current directory \"%s\" is not an "
		    "absolute path", cwd);
		return (NULL);
	}
	if (js->wrap == NULL && js->script == NULL && !js->command) {
		snprintf(err, errlen, "no script loaded");
		return (NULL);
	}
	workdir = jobspec_build_absolute(js->chdir != NULL ? js->chdir : ".", cwd);
	if (js->command) {
		/* grun: the node runs the command itself, without a
		 * script. */
		command = xstrdup(js->argv[0]);
		script = xstrdup("");
		base = strrchr(js->argv[0], '/');
		base = base != NULL && base[1] != '\0' ? base + 1 :
		    js->argv[0];
	} else if (js->wrap != NULL) {
		command = xstrdup(js->wrap);
		script = xasprintf("#!/bin/sh\n%s\n", js->wrap);
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
	if (js->output != NULL)
		output = js->output;
	else if (js->array != NULL)
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
	json_object_set_new(job, "name", json_string(js->name != NULL ?
	    js->name : base));
	json_object_set_new(job, "script", json_string(script));
	json_object_set_new(job, "command", json_string(command));
	json_object_set_new(job, "argv", argv);
	json_object_set_new(job, "workdir", json_string(workdir));
	json_object_set_new(job, "stdout", json_string(output));
	json_object_set_new(job, "stderr", json_string(js->error != NULL ?
	    js->error : output));
	json_object_set_new(job, "gpus", json_integer(js->shaped.gpus > 0 ?
	    js->shaped.gpus : js->gpus));
	if (js->shaped.num_nodes > 0)
		json_object_set_new(job, "num_nodes",
		    json_integer(js->shaped.num_nodes));
	if (js->shape.any_shape)
		json_object_set_new(job, "any_shape", json_true());
	if (js->shaped.tasks_per_node == JOBSPEC_SHAPE_PER_GPU)
		json_object_set_new(job, "tasks_per_node", json_string("gpu"));
	else if (js->shaped.tasks_per_node > 1)
		json_object_set_new(job, "tasks_per_node",
		    json_integer(js->shaped.tasks_per_node));
	if (js->shape.bind_none)
		json_object_set_new(job, "gpu_bind", json_string("none"));
	if (js->shape.cpus_per_task > 0)
		json_object_set_new(job, "cpus_per_task",
		    json_integer(js->shape.cpus_per_task));
	if (js->shape.cpus_per_gpu > 0)
		json_object_set_new(job, "cpus_per_gpu",
		    json_integer(js->shape.cpus_per_gpu));
	if (js->shape.mem > 0)
		json_object_set_new(job, "mem",
		    json_integer((json_int_t)js->shape.mem));
	if (js->shape.mem_per_gpu > 0)
		json_object_set_new(job, "mem_per_gpu",
		    json_integer((json_int_t)js->shape.mem_per_gpu));
	json_object_set_new(job, "time_limit",
	    json_integer((json_int_t)js->time_limit));
	json_object_set_new(job, "env", jobenv_build(js->export != NULL ?
	    js->export : "ALL", env));
	json_object_set_new(job, "hold", json_boolean(js->hold));
	if (js->array != NULL)
		json_object_set_new(job, "array", json_string(js->array));
	if (js->gpu_type != NULL)
		json_object_set_new(job, "gpu_type", json_string(js->gpu_type));
	if (js->nodelist != NULL)
		json_object_set_new(job, "nodelist",
		    json_string(js->nodelist));
	if (js->exclude != NULL)
		json_object_set_new(job, "exclude", json_string(js->exclude));
	if (js->begin > 0)
		json_object_set_new(job, "begin_time",
		    json_integer((json_int_t)js->begin));
	if (js->dependency != NULL)
		json_object_set_new(job, "dependency",
		    json_string(js->dependency));
	if (js->kill_dep != 0)
		json_object_set_new(job, "kill_invalid_dep",
		    json_boolean(js->kill_dep == 1));
	if (js->append)
		json_object_set_new(job, "open_mode", json_string("append"));
	json_object_set_new(job, "umask", json_integer(mask & 0777));
	if (js->ckpt_signal != 0)
		json_object_set_new(job, "ckpt_signal",
		    json_integer(js->ckpt_signal));
	if (js->ckpt_grace_set)
		json_object_set_new(job, "ckpt_grace",
		    json_integer((json_int_t)js->ckpt_grace));
	if (js->warn_signal != 0) {
		json_object_set_new(job, "warn_signal",
		    json_integer(js->warn_signal));
		json_object_set_new(job, "warn_time",
		    json_integer((json_int_t)js->warn_time));
		if (js->warn_batch)
			json_object_set_new(job, "warn_batch", json_true());
		/* The same warning before a preemption, unless the job
		 * named its checkpoint signal and grace itself. */
		if (!js->no_requeue && js->ckpt_signal == 0)
			json_object_set_new(job, "ckpt_signal",
			    json_integer(js->warn_signal));
		if (!js->no_requeue && !js->ckpt_grace_set)
			json_object_set_new(job, "ckpt_grace",
			    json_integer((json_int_t)js->warn_time));
	}
	if (js->no_requeue)
		json_object_set_new(job, "requeue", json_false());
	if (js->placement != NULL)
		json_object_set_new(job, "placement",
		    json_string(js->placement));
	if (js->account != NULL)
		json_object_set_new(job, "account", json_string(js->account));
	if (js->comment != NULL)
		json_object_set_new(job, "comment", json_string(js->comment));
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
