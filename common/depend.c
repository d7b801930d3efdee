/* depend.c: job dependencies (depend.h). */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/depend.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

static const char *const depend_names[] = {
	[DEPEND_AFTER] = "after",
	[DEPEND_AFTERANY] = "afterany",
	[DEPEND_AFTEROK] = "afterok",
	[DEPEND_AFTERNOTOK] = "afternotok",
	[DEPEND_SINGLETON] = "singleton",
};
#define DEPEND_NTYPES	(sizeof depend_names / sizeof depend_names[0])

static const char depend_forms[] = "expected TYPE:ID[:ID...] joined by ',' "
    "(all) or '?' (any), TYPE after, afterany, afterok or afternotok, or "
    "singleton";

const char *
depend_type_name(enum depend_type t)
{
	return ((size_t)t < DEPEND_NTYPES ? depend_names[t] : "?");
}

void
depend_free(struct depend *d)
{
	free(d->items);
	memset(d, 0, sizeof *d);
}

static void
depend_add(struct depend *d, enum depend_type type, uint64_t job)
{
	d->items = xreallocarray(d->items, d->n + 1, sizeof *d->items);
	d->items[d->n].type = type;
	d->items[d->n].job = job;
	d->items[d->n].task = -1;
	d->n++;
}

/* An array task after ID_: digits up to ':' or end, at most 9999999 (as
 * common/array.h's). Returns 0 with *task and *stop (where it stopped), or
 * -1. */
static int
depend_task(const char *s, const char *end, int32_t *task, char **stop)
{
	const char	*p;
	int32_t		 v = 0;

	for (p = s; p < end && isdigit((unsigned char)*p); p++) {
		v = v * 10 + (*p - '0');
		if (v > 9999999)
			return (-1);
	}
	if (p == s || (p < end && *p != ':'))
		return (-1);
	*task = v;
	*stop = (char *)(uintptr_t)p;
	return (0);
}

/* One condition, TYPE[:ID...], len bytes at s. */
static int
depend_one(const char *s, size_t len, struct depend *d, char *err,
    size_t errlen)
{
	char			 word[64], q[256];
	const char		*colon = memchr(s, ':', len), *p, *end = s + len;
	unsigned long long	 id;
	int32_t			 task;
	size_t			 n, t;
	char			*e;

	n = colon != NULL ? (size_t)(colon - s) : len;
	for (t = 0; t < DEPEND_NTYPES; t++) {
		if (strlen(depend_names[t]) == n && strncmp(s,
		    depend_names[t], n) == 0)
			break;
	}
	snprintf(word, sizeof word, "%.*s", (int)(len < 48 ? len : 48), s);
	if (t == DEPEND_NTYPES) {
		snprintf(err, errlen, "\"%s\": unknown type; %s",
		    safe_text_str(word, q, sizeof q), depend_forms);
		return (-1);
	}
	if (t == DEPEND_SINGLETON) {
		if (colon != NULL) {
			snprintf(err, errlen, "singleton takes no job ids");
			return (-1);
		}
		depend_add(d, DEPEND_SINGLETON, 0);
		return (0);
	}
	if (colon == NULL || colon + 1 == end) {
		snprintf(err, errlen, "%s: expected %s:ID[:ID...]",
		    depend_names[t], depend_names[t]);
		return (-1);
	}
	for (p = colon + 1; p < end; p = e + 1) {
		if (!isdigit((unsigned char)*p))
			goto bad_id;
		errno = 0;
		id = strtoull(p, &e, 10);
		if (errno != 0 || id == 0 || (e != end && *e != ':')) {
			snprintf(word, sizeof word, "%.*s", (int)(end - p <
			    48 ? end - p : 48), p);
			safe_text_str(word, q, sizeof q);
			if (e < end && *e == '_' && id != 0 && errno == 0 &&
			    depend_task(e + 1, end, &task, &e) == 0) {
				if (d->n == DEPEND_MAX) {
					snprintf(err, errlen, "more than %d "
					    "conditions", DEPEND_MAX);
					return (-1);
				}
				depend_add(d, (enum depend_type)t, id);
				d->items[d->n - 1].task = task;
				if (e == end)
					break;
				if (e + 1 == end)
					goto bad_id;
				continue;
			}
			if (e < end && *e == '_') {
				snprintf(err, errlen, "%s: \"%s\": expected "
				    "ID or ID_TASK, a job array's task (a "
				    "whole number)", depend_names[t], q);
				return (-1);
			}
			if (e < end && *e == '+') {
				snprintf(err, errlen, "%s: \"%s\": a delay "
				    "after the job (+MINUTES) is not taken; "
				    "submit with --begin instead",
				    depend_names[t], q);
				return (-1);
			}
			goto bad_id;
		}
		if (d->n == DEPEND_MAX) {
			snprintf(err, errlen, "more than %d conditions",
			    DEPEND_MAX);
			return (-1);
		}
		depend_add(d, (enum depend_type)t, id);
		if (e == end)
			break;
		if (e + 1 == end)	/* a colon and no id after it */
			goto bad_id;
	}
	return (0);
bad_id:
	snprintf(err, errlen, "%s: expected job ids (whole numbers from 1) "
	    "after \"%s:\", got \"%s\"", depend_names[t], depend_names[t],
	    safe_text_str(word, q, sizeof q));
	return (-1);
}

int
depend_parse(const char *s, struct depend *d, char *err, size_t errlen)
{
	const char	*p, *sep;
	bool		 comma = strchr(s, ',') != NULL;
	bool		 query = strchr(s, '?') != NULL;

	memset(d, 0, sizeof *d);
	if (*s == '\0') {
		snprintf(err, errlen, "empty; %s", depend_forms);
		return (-1);
	}
	if (comma && query) {
		snprintf(err, errlen, "',' (all) and '?' (any) in one "
		    "dependency; use one of them");
		return (-1);
	}
	d->any = query;
	for (p = s;; p = sep + 1) {
		sep = p + strcspn(p, ",?");
		if (sep == p) {
			snprintf(err, errlen, "an empty condition; %s",
			    depend_forms);
			depend_free(d);
			return (-1);
		}
		if (depend_one(p, (size_t)(sep - p), d, err, errlen) == -1) {
			depend_free(d);
			return (-1);
		}
		if (*sep == '\0')
			break;
	}
	return (0);
}

void
depend_format(const struct depend *d, char *buf, size_t len)
{
	const struct depend_item	*it;
	size_t				 i, at = 0;
	char				 task[16];
	int				 n;

	buf[0] = '\0';
	for (i = 0; i < d->n && at < len; i++) {
		it = &d->items[i];
		task[0] = '\0';
		if (it->task >= 0)
			snprintf(task, sizeof task, "_%d", (int)it->task);
		/* Ids of one type share it, joined by ':', where all must
		 * hold; with '?' each is a condition of its own. */
		if (i > 0 && !d->any && it->type == d->items[i - 1].type &&
		    it->type != DEPEND_SINGLETON)
			n = snprintf(buf + at, len - at, ":%llu%s",
			    (unsigned long long)it->job, task);
		else if (it->type == DEPEND_SINGLETON)
			n = snprintf(buf + at, len - at, "%s%s", i > 0 ?
			    (d->any ? "?" : ",") : "", "singleton");
		else
			n = snprintf(buf + at, len - at, "%s%s:%llu%s", i > 0 ?
			    (d->any ? "?" : ",") : "", depend_names[it->type],
			    (unsigned long long)it->job, task);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

enum depend_state
depend_judge(enum depend_type type, enum job_state state, bool started)
{
	bool	ended = job_state_is_terminal(state);

	switch (type) {
	case DEPEND_AFTER:
		/* Slurm's: started, or cancelled before it could. */
		return (started || ended ? DEPEND_MET : DEPEND_WAIT);
	case DEPEND_AFTERANY:
		return (ended ? DEPEND_MET : DEPEND_WAIT);
	case DEPEND_AFTEROK:
		if (!ended)
			return (DEPEND_WAIT);
		return (state == JOB_COMPLETED ? DEPEND_MET : DEPEND_NEVER);
	case DEPEND_AFTERNOTOK:
		if (!ended)
			return (DEPEND_WAIT);
		return (state != JOB_COMPLETED ? DEPEND_MET : DEPEND_NEVER);
	default:
		return (DEPEND_WAIT);
	}
}

enum depend_state
depend_combine(const struct depend *d, const enum depend_state *each)
{
	size_t	i, met = 0, never = 0;

	for (i = 0; i < d->n; i++) {
		met += each[i] == DEPEND_MET;
		never += each[i] == DEPEND_NEVER;
	}
	if (d->any)
		return (met > 0 ? DEPEND_MET : never == d->n ? DEPEND_NEVER :
		    DEPEND_WAIT);
	return (never > 0 ? DEPEND_NEVER : met == d->n ? DEPEND_MET :
	    DEPEND_WAIT);
}

bool
depend_waits_for(const struct depend *d, uint64_t job, int32_t task)
{
	const struct depend_item	*it;
	size_t				 i;

	for (i = 0; i < d->n; i++) {
		it = &d->items[i];
		if (it->type != DEPEND_SINGLETON && it->job == job &&
		    (task < 0 || it->task < 0 || it->task == task))
			return (true);
	}
	return (false);
}
