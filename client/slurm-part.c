/* slurm-part.c: gbatch's partitions for the Slurm-named commands
 * (slurm-part.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/slurm-part.h"
#include "common/job-req.h"
#include "common/xmalloc.h"

/* gbatch's one partition, where gbatch.conf names none. */
static void
slurm_part_one(struct slurm_parts *ps)
{
	ps->v = xcalloc(1, sizeof *ps->v);
	ps->v[0].name = JOB_REQ_PARTITION;
	ps->v[0].is_default = true;
	ps->n = 1;
	ps->configured = false;
}

static long long
slurm_part_int(const json_t *o, const char *key)
{
	return ((long long)json_integer_value(json_object_get(o, key)));
}

int
slurm_part_read(struct slurm_parts *ps, json_t *reply, char *err,
    size_t errlen)
{
	const json_t		*parts, *o;
	struct slurm_part	*p;
	const char		*name, *nodes;
	size_t			 n;

	memset(ps, 0, sizeof *ps);
	parts = json_object_get(json_object_get(reply, "config"),
	    "partitions");
	/* A gbatchd from before partitions sends none: it has gbatch's
	 * one. */
	if (parts != NULL && !json_is_object(parts)) {
		snprintf(err, errlen, "the controller's partitions are not "
		    "an object");
		json_decref(reply);
		slurm_part_one(ps);
		return (-1);
	}
	if ((n = json_object_size(parts)) == 0) {
		json_decref(reply);
		slurm_part_one(ps);
		return (0);
	}
	ps->reply = reply;
	ps->v = xcalloc(n, sizeof *ps->v);
	ps->configured = true;
	json_object_foreach((json_t *)parts, name, o) {
		p = &ps->v[ps->n++];
		p->name = name;
		nodes = json_string_value(json_object_get(o, "nodes"));
		/* CONFIG_SHOW writes every node as "ALL", Slurm's word. */
		p->nodes = nodes != NULL && strcmp(nodes, "ALL") != 0 ? nodes :
		    NULL;
		p->is_default = json_is_true(json_object_get(o, "default"));
		p->default_time = slurm_part_int(o, "default_time");
		p->max_time = slurm_part_int(o, "max_time");
		p->max_gpus = slurm_part_int(o, "max_gpus");
		p->max_nodes = slurm_part_int(o, "max_nodes");
		p->accounts = json_object_get(o, "accounts");
		p->qos = json_object_get(o, "qos");
		p->tier = slurm_part_int(o, "tier");
	}
	return (0);
}

void
slurm_part_free(struct slurm_parts *ps)
{
	free(ps->v);
	json_decref(ps->reply);
	memset(ps, 0, sizeof *ps);
}

const struct slurm_part *
slurm_part_find(const struct slurm_parts *ps, const char *name)
{
	size_t	i;

	for (i = 0; i < ps->n; i++) {
		if (strcmp(ps->v[i].name, name) == 0)
			return (&ps->v[i]);
	}
	return (NULL);
}

const char *
slurm_part_of_job(const char *list)
{
	return (*list != '\0' ? list : JOB_REQ_PARTITION);
}

const char *
slurm_part_qos_of_job(const char *qos)
{
	return (*qos != '\0' ? qos : JOB_REQ_QOS);
}

bool
slurm_part_listed(const char *list, const char *name)
{
	const char	*w, *end;
	size_t		 len = strlen(name);

	for (w = list; *w != '\0'; w = *end != '\0' ? end + 1 : end) {
		end = w + strcspn(w, ",");
		if ((size_t)(end - w) == len && strncmp(w, name, len) == 0)
			return (true);
	}
	return (false);
}

bool
slurm_part_job_in(const char *list, const json_t *want)
{
	const json_t	*v;
	size_t		 i;

	if (json_array_size(want) == 0)
		return (true);
	json_array_foreach((json_t *)want, i, v) {
		if (json_is_string(v) && slurm_part_listed(
		    slurm_part_of_job(list), json_string_value(v)))
			return (true);
	}
	return (false);
}

bool
slurm_part_node_in(const struct slurm_parts *ps, const char *list,
    const struct slurm_part *p)
{
	/* gbatch's one partition holds every node. */
	if (!ps->configured)
		return (true);
	return (slurm_part_listed(list, p->name));
}

int
slurm_part_check(const struct slurm_parts *ps, const json_t *want,
    char *err, size_t errlen)
{
	const json_t	*v;
	const char	*name;
	size_t		 i, k, at;

	json_array_foreach((json_t *)want, i, v) {
		if ((name = json_string_value(v)) == NULL ||
		    slurm_part_find(ps, name) != NULL)
			continue;
		at = (size_t)snprintf(err, errlen, "no partition \"%s\" (the "
		    "partitions: ", name);
		for (k = 0; k < ps->n && at < errlen; k++)
			at += (size_t)snprintf(err + at, errlen - at, "%s%s",
			    k > 0 ? ", " : "", ps->v[k].name);
		if (at < errlen)
			snprintf(err + at, errlen - at, ")");
		return (-1);
	}
	return (0);
}
