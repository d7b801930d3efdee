/* sim-apps.c: reads the applications a trace trains; see sim-apps.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "sim/sim-appjob.h"
#include "sim/sim-apps.h"

/* The cap caps gives name ("NAME=N,..."), 0 for none; -1 with err when
 * caps is not such a list. */
static int
sim_apps_cap(const char *caps, const char *name, uint32_t *cap, char *err,
    size_t errlen)
{
	const char	*p = caps, *eq, *end;
	char		*stop;
	unsigned long	 v;

	*cap = 0;
	while (p != NULL && *p != '\0') {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		eq = memchr(p, '=', (size_t)(end - p));
		v = eq != NULL ? strtoul(eq + 1, &stop, 10) : 0;
		if (eq == NULL || eq == p || stop != end || v == 0 ||
		    v > 1u << 20 || eq[1] == '-') {
			snprintf(err, errlen, "--app-max-local \"%s\": expected "
			    "NAME=N,... (an application's largest local batch "
			    "size, from 1)", caps);
			return (-1);
		}
		if ((size_t)(eq - p) == strlen(name) &&
		    strncmp(p, name, (size_t)(eq - p)) == 0)
			*cap = (uint32_t)v;
		p = *end == ',' ? end + 1 : end;
	}
	return (0);
}

/* The application named name, read at first need; its index. */
static int
sim_apps_find(struct sim_apps *a, const char *dir, const char *caps,
    const char *name, size_t *index, char *err, size_t errlen)
{
	struct sim_app	*app;
	uint32_t	 cap;
	size_t		 i;

	for (i = 0; i < a->n; i++) {
		if (strcmp(sim_app_name(a->v[i]), name) == 0) {
			*index = i;
			return (0);
		}
	}
	if (sim_apps_cap(caps, name, &cap, err, errlen) != 0 ||
	    (app = sim_app_load(dir, name, cap, err, errlen)) == NULL)
		return (-1);
	a->v = xreallocarray(a->v, a->n + 1, sizeof *a->v);
	a->v[a->n] = app;
	*index = a->n++;
	return (0);
}

/* How long job j takes on its GPUs packed on the fewest nodes of cl. */
static int64_t
sim_apps_nominal(const struct sim_app *app, const struct sim_job *j,
    const struct sim_cluster *cl)
{
	struct sim_appjob	 aj;
	uint32_t		*g, left = j->gpus, per = cl->gpus_per_node;
	size_t			 n = 0;
	int64_t			 ms;

	g = xcalloc(j->gpus / per + 1, sizeof *g);
	while (left > 0) {
		g[n] = left < per ? left : per;
		left -= g[n++];
	}
	sim_appjob_init(&aj, app, j->batch);
	ms = sim_appjob_place(&aj, g, n) == 0 ? sim_appjob_left_ms(&aj) : 0;
	free(g);
	return (ms > 0 ? ms : 1);
}

int
sim_apps_load(struct sim_apps *a, const char *dir, const char *caps,
    const char *path, struct sim_trace *t, const struct sim_cluster *cl,
    char *err, size_t errlen)
{
	char	why[768];
	size_t	i, k;

	memset(a, 0, sizeof *a);
	if (caps != NULL && sim_apps_cap(caps, "", &(uint32_t){ 0 }, err,
	    errlen) != 0)
		return (-1);
	for (i = 0; i < t->njobs; i++) {
		if (t->jobs[i].app == NULL)
			continue;
		if (dir == NULL) {
			snprintf(err, errlen, "%s:%u: the job trains "
			    "application %s: gsim replays it with --apps DIR, "
			    "the directory of the applications' tables", path,
			    t->jobs[i].line, t->jobs[i].app);
			goto fail;
		}
		if (sim_apps_find(a, dir, caps, t->jobs[i].app, &k, why,
		    sizeof why) != 0) {
			snprintf(err, errlen, "%s:%u: application %s: %s",
			    path, t->jobs[i].line, t->jobs[i].app, why);
			goto fail;
		}
		t->jobs[i].app_index = (uint32_t)k;
		t->jobs[i].duration_ms = sim_apps_nominal(a->v[k],
		    &t->jobs[i], cl);
	}
	return (0);
fail:
	sim_apps_free(a);
	return (-1);
}

void
sim_apps_free(struct sim_apps *a)
{
	size_t	i;

	for (i = 0; i < a->n; i++)
		sim_app_free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}
