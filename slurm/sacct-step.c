/* sacct-step.c: sacct's fields of a job step (sacct-step.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "slurm/sacct-step.h"
#include "slurm/slurm-fmt.h"

static void
sacct_step_id(const struct step_row *s, time_t now, char *buf, size_t len)
{
	(void)now;
	snprintf(buf, len, "%llu.%u", (unsigned long long)s->job, s->step);
}

/* Its command's first word, without its directory, as Slurm names a
 * step after its program. */
static void
sacct_step_name(const struct step_row *s, time_t now, char *buf, size_t len)
{
	const char	*w = s->command, *slash;
	size_t		 n = strcspn(w, " ");

	(void)now;
	slash = memchr(w, '/', n);
	while (slash != NULL) {
		n -= (size_t)(slash + 1 - w);
		w = slash + 1;
		slash = memchr(w, '/', n);
	}
	snprintf(buf, len, "%.*s", (int)n, w);
}

static void
sacct_step_state(const struct step_row *s, time_t now, char *buf,
    size_t len)
{
	(void)now;
	snprintf(buf, len, "%s", s->state);
}

static void
sacct_step_exit(const struct step_row *s, time_t now, char *buf, size_t len)
{
	(void)now;
	snprintf(buf, len, "%d:%d", s->exit_code, s->signal);
}

static void
sacct_step_elapsed(const struct step_row *s, time_t now, char *buf,
    size_t len)
{
	int64_t	end = s->end_time != 0 ? s->end_time : (int64_t)now;

	slurm_fmt_duration(end > s->start_time ? end - s->start_time : 0, true,
	    buf, len);
}

static void
sacct_step_start(const struct step_row *s, time_t now, char *buf,
    size_t len)
{
	(void)now;
	slurm_fmt_date(s->start_time, "Unknown", buf, len);
}

static void
sacct_step_end(const struct step_row *s, time_t now, char *buf, size_t len)
{
	(void)now;
	slurm_fmt_date(s->end_time, "Unknown", buf, len);
}

static void
sacct_step_nnodes(const struct step_row *s, time_t now, char *buf,
    size_t len)
{
	(void)now;
	snprintf(buf, len, "%u", s->nnodes);
}

static void
sacct_step_nodelist(const struct step_row *s, time_t now, char *buf,
    size_t len)
{
	(void)now;
	snprintf(buf, len, "%s", s->nodes != NULL ? s->nodes : "");
}

static void
sacct_step_ntasks(const struct step_row *s, time_t now, char *buf,
    size_t len)
{
	(void)now;
	snprintf(buf, len, "%u", s->ntasks);
}

static const struct {
	const char	*name;
	sacct_step_fn	 fn;
} sacct_step_fields[] = {
	{ "JobID", sacct_step_id },
	{ "JobIDRaw", sacct_step_id },
	{ "JobName", sacct_step_name },
	{ "State", sacct_step_state },
	{ "ExitCode", sacct_step_exit },
	{ "Elapsed", sacct_step_elapsed },
	{ "Start", sacct_step_start },
	{ "Submit", sacct_step_start },
	{ "End", sacct_step_end },
	{ "NNodes", sacct_step_nnodes },
	{ "NodeList", sacct_step_nodelist },
	{ "NTasks", sacct_step_ntasks },
};

sacct_step_fn
sacct_step_field(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof sacct_step_fields /
	    sizeof sacct_step_fields[0]; i++) {
		if (strcasecmp(name, sacct_step_fields[i].name) == 0)
			return (sacct_step_fields[i].fn);
	}
	return (NULL);
}
