/* jobspec.c: a job spec made and freed, what it says, and the options
 * that exclude each other (jobspec-int.h lists its other files). */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "client/jobspec-int.h"
#include "common/xmalloc.h"

struct jobspec *
jobspec_create(void)
{
	struct jobspec	*js;

	js = xcalloc(1, sizeof *js);
	js->gpus = 1;
	return (js);
}

void
jobspec_sbatch(struct jobspec *js)
{
	js->default_output = JOBSPEC_SBATCH_OUTPUT;
}

void
jobspec_free(struct jobspec *js)
{
	int	i;

	if (js == NULL)
		return;
	free(js->name);
	free(js->output);
	free(js->error);
	free(js->chdir);
	free(js->export);
	free(js->account);
	free(js->comment);
	free(js->dependency);
	free(js->array);
	free(js->gpu_type);
	free(js->nodelist);
	free(js->exclude);
	free(js->wrap);
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
	return (js->parsable);
}

bool
jobspec_quiet(const struct jobspec *js)
{
	return (js->quiet);
}

bool
jobspec_test_only(const struct jobspec *js)
{
	return (js->test_only);
}

void
jobspec_command(struct jobspec *js)
{
	js->command = true;
}

bool
jobspec_pty(const struct jobspec *js)
{
	return (js->pty);
}

bool
jobspec_preemptible(const struct jobspec *js)
{
	return (js->preemptible);
}

uint64_t
jobspec_jobid(const struct jobspec *js)
{
	return (js->jobid);
}

const char *
jobspec_nodelist(const struct jobspec *js)
{
	return (js->nodelist);
}

bool
jobspec_wait(const struct jobspec *js)
{
	return (js->wait);
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

/* jansson checks the encoding for us. */
bool
jobspec_printable(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return (false);
	}
	return (jobspec_is_text(s));
}

int
jobspec_check(struct jobspec *js, char *err, size_t errlen)
{
	const char	*ckpt = NULL;

	if (js->src[JOBSPEC_F_CKPT_SIGNAL] != JOBSPEC_SRC_NONE)
		ckpt = "--ckpt-signal";
	else if (js->ckpt_grace_set)
		ckpt = "--ckpt-grace";
	if (js->no_requeue && ckpt != NULL) {
		snprintf(err, errlen, "--no-requeue and %s exclude each other: "
		    "a job that is never preempted is never asked to "
		    "checkpoint; give one", ckpt);
		return (-1);
	}
	/* The shape, once -G and every shape option are in. */
	return (jobspec_shape_resolve(&js->shape, js->gpus,
	    js->src[JOBSPEC_F_GPUS] != JOBSPEC_SRC_NONE, &js->shaped, err,
	    errlen));
}
