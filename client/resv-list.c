/* resv-list.c: RESV_LIST's reply (resv-list.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/resv-list.h"
#include "common/xmalloc.h"

/* A JSON array of strings as one string, joined by ','. */
static char *
resv_list_join(const json_t *a)
{
	const json_t	*v;
	size_t		 i, len = 1;
	char		*s;

	json_array_foreach((json_t *)a, i, v)
		len += json_string_length(v) + 1;
	s = xcalloc(len, 1);
	json_array_foreach((json_t *)a, i, v) {
		if (!json_is_string(v))
			continue;
		if (*s != '\0')
			strcat(s, ",");
		strcat(s, json_string_value(v));
	}
	return (s);
}

static const char *
resv_list_str(const json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return (s != NULL ? s : "");
}

static int64_t
resv_list_int(const json_t *o, const char *key)
{
	return ((int64_t)json_integer_value(json_object_get(o, key)));
}

int
resv_list_read(struct resv_list *l, json_t *reply, char *err, size_t errlen)
{
	const json_t		*a, *o;
	struct resv_list_entry	*e;
	size_t			 i;

	memset(l, 0, sizeof *l);
	if (!json_is_array(a = json_object_get(reply, "reservations"))) {
		snprintf(err, errlen, "gbatchd's reply has no reservations");
		json_decref(reply);
		return (-1);
	}
	l->reply = reply;
	l->now = resv_list_int(reply, "now");
	l->v = xcalloc(json_array_size(a) + 1, sizeof *l->v);
	json_array_foreach((json_t *)a, i, o) {
		e = &l->v[l->n++];
		e->name = resv_list_str(o, "name");
		e->nodes = resv_list_str(o, "nodes");
		e->state = resv_list_str(o, "state");
		e->start = resv_list_int(o, "start_time");
		e->end = resv_list_int(o, "end_time");
		e->duration = resv_list_int(o, "duration");
		e->node_count = resv_list_int(o, "node_count");
		e->gpus = resv_list_int(o, "gpus");
		e->users = resv_list_join(json_object_get(o, "users"));
		e->accounts = resv_list_join(json_object_get(o, "accounts"));
		e->flags = resv_list_join(json_object_get(o, "flags"));
	}
	return (0);
}

void
resv_list_free(struct resv_list *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].users);
		free(l->v[i].accounts);
		free(l->v[i].flags);
	}
	free(l->v);
	json_decref(l->reply);
	memset(l, 0, sizeof *l);
}

const char *
resv_list_time(int64_t t, char *buf, size_t len)
{
	time_t		tt = (time_t)t;
	struct tm	tm;

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(buf, len, "%lld", (long long)t);
	return (buf);
}
