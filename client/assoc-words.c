/* assoc-words.c: the members of accounts and associations
 * (assoc-words.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/assoc-words.h"
#include "common/duration.h"
#include "common/job-req.h"
#include "common/proto.h"

/* In the order a reader is told them. */
static const struct assoc_words_member assoc_words_members[] = {
	{ "parent", ASSOC_WORDS_TEXT, ASSOC_WORDS_ACCOUNT },
	{ "shares", ASSOC_WORDS_SHARES, ASSOC_WORDS_ACCOUNT },
	{ "description", ASSOC_WORDS_TEXT, ASSOC_WORDS_ACCOUNT },
	{ "default", ASSOC_WORDS_YESNO, ASSOC_WORDS_USER },
	{ "max_gpus", ASSOC_WORDS_COUNT, ASSOC_WORDS_ACCOUNT |
	    ASSOC_WORDS_USER },
	{ "max_jobs", ASSOC_WORDS_COUNT, ASSOC_WORDS_ACCOUNT |
	    ASSOC_WORDS_USER },
	{ "max_pending", ASSOC_WORDS_COUNT, ASSOC_WORDS_ACCOUNT |
	    ASSOC_WORDS_USER },
	{ "max_time", ASSOC_WORDS_TIME, ASSOC_WORDS_ACCOUNT |
	    ASSOC_WORDS_USER },
	{ "gpu_hours", ASSOC_WORDS_HOURS, ASSOC_WORDS_ACCOUNT },
};
#define ASSOC_WORDS_NMEMBERS						\
	(sizeof assoc_words_members / sizeof assoc_words_members[0])

const struct assoc_words_member *
assoc_words_find(const char *name, int of)
{
	size_t	i;

	for (i = 0; i < ASSOC_WORDS_NMEMBERS; i++) {
		if ((assoc_words_members[i].of & of) != 0 &&
		    strcasecmp(assoc_words_members[i].name, name) == 0)
			return (&assoc_words_members[i]);
	}
	return (NULL);
}

char *
assoc_words_names(int of, char *buf, size_t len)
{
	size_t	i, n = 0, k = 0, used = 0;

	for (i = 0; i < ASSOC_WORDS_NMEMBERS; i++)
		n += (assoc_words_members[i].of & of) != 0;
	buf[0] = '\0';
	for (i = 0; i < ASSOC_WORDS_NMEMBERS && used < len; i++) {
		if ((assoc_words_members[i].of & of) == 0)
			continue;
		k++;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    k == 1 ? "" : k == n ? " or " : ", ",
		    assoc_words_members[i].name);
	}
	return (buf);
}

int
assoc_words_put_int(json_t *set, const struct assoc_words_member *m,
    uint64_t v, char *err, size_t errlen)
{
	uint64_t	lo = m->kind == ASSOC_WORDS_SHARES ? 1 : 0;
	uint64_t	hi = m->kind == ASSOC_WORDS_TIME ?
			    (uint64_t)JOB_REQ_MAX_TIME : ASSOC_WORDS_COUNT_MAX;

	if (json_object_get(set, m->name) != NULL) {
		snprintf(err, errlen, "%s: given twice; expected each key once",
		    m->name);
		return (-1);
	}
	if (v < lo || v > hi) {
		snprintf(err, errlen, "%s: expected %s from %llu to %llu, got "
		    "%llu", m->name, m->kind == ASSOC_WORDS_TIME ? "seconds" :
		    "a whole number", (unsigned long long)lo,
		    (unsigned long long)hi, (unsigned long long)v);
		return (-1);
	}
	json_object_set_new(set, m->name, json_integer((json_int_t)v));
	return (0);
}

/* GPU-hours, digits with a decimal fraction or not ("500", "0.25"), into
 * set's gpu_hours: a whole number as one, so that the wire and the audit
 * log read as they did before budgets had fractions. */
static int
assoc_words_hours(json_t *set, const char *val, char *err, size_t errlen)
{
	const char	*p = val;
	char		*end;
	double		 h;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p != val && *p == '.' && p[1] >= '0' && p[1] <= '9') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	}
	errno = 0;
	h = strtod(val, &end);
	if (p == val || *p != '\0' || end != p || errno != 0 ||
	    h > ASSOC_WORDS_COUNT_MAX) {
		snprintf(err, errlen, "gpu_hours: expected GPU-hours a month, "
		    "a number from 0 (no budget) to %llu such as 500 or 0.25, "
		    "got \"%s\"", ASSOC_WORDS_COUNT_MAX, val);
		return (-1);
	}
	if (strchr(val, '.') == NULL)
		json_object_set_new(set, "gpu_hours", json_integer(
		    (json_int_t)h));
	else
		json_object_set_new(set, "gpu_hours", json_real(h));
	return (0);
}

int
assoc_words_put_budget(json_t *set, uint64_t gpu_seconds, char *err,
    size_t errlen)
{
	if (json_object_get(set, "gpu_hours") != NULL) {
		snprintf(err, errlen, "gpu_hours: given twice; expected each "
		    "key once");
		return (-1);
	}
	if (gpu_seconds / 3600 > ASSOC_WORDS_COUNT_MAX ||
	    (gpu_seconds / 3600 == ASSOC_WORDS_COUNT_MAX &&
	    gpu_seconds % 3600 != 0)) {
		snprintf(err, errlen, "gpu_hours: expected at most %llu "
		    "GPU-hours", ASSOC_WORDS_COUNT_MAX);
		return (-1);
	}
	if (gpu_seconds % 3600 == 0)
		json_object_set_new(set, "gpu_hours", json_integer(
		    (json_int_t)(gpu_seconds / 3600)));
	else
		json_object_set_new(set, "gpu_hours", json_real(
		    (double)gpu_seconds / 3600));
	return (0);
}

int
assoc_words_put(json_t *set, const struct assoc_words_member *m,
    const char *val, char *err, size_t errlen)
{
	unsigned long long	 n;
	uint64_t		 secs;
	char			 detail[256], *end;

	if (json_object_get(set, m->name) != NULL) {
		snprintf(err, errlen, "%s: given twice; expected each key once",
		    m->name);
		return (-1);
	}
	switch (m->kind) {
	case ASSOC_WORDS_COUNT:
	case ASSOC_WORDS_SHARES:
		errno = 0;
		n = strtoull(val, &end, 10);
		if (*val < '0' || *val > '9' || *end != '\0' || errno != 0 ||
		    n > ASSOC_WORDS_COUNT_MAX || (n == 0 &&
		    m->kind == ASSOC_WORDS_SHARES)) {
			snprintf(err, errlen, "%s: expected a whole number from "
			    "%d to %llu%s, got \"%s\"", m->name,
			    m->kind == ASSOC_WORDS_SHARES ? 1 : 0,
			    ASSOC_WORDS_COUNT_MAX, m->kind == ASSOC_WORDS_COUNT ?
			    " (0: no limit)" : "", val);
			return (-1);
		}
		json_object_set_new(set, m->name, json_integer((json_int_t)n));
		break;
	case ASSOC_WORDS_TIME:
		if (duration_parse(val, JOB_REQ_MAX_TIME, &secs, detail,
		    sizeof detail) != 0) {
			snprintf(err, errlen, "%s: %s", m->name, detail);
			return (-1);
		}
		json_object_set_new(set, m->name,
		    json_integer((json_int_t)secs));
		break;
	case ASSOC_WORDS_TEXT:
		if (json_object_set_new(set, m->name, json_string(val)) != 0) {
			snprintf(err, errlen, "%s: expected UTF-8 text", m->name);
			return (-1);
		}
		break;
	case ASSOC_WORDS_HOURS:
		return (assoc_words_hours(set, val, err, errlen));
	case ASSOC_WORDS_YESNO:
		if (strcasecmp(val, "yes") != 0 && strcasecmp(val, "no") != 0) {
			snprintf(err, errlen, "%s: expected yes or no, got "
			    "\"%s\"", m->name, val);
			return (-1);
		}
		json_object_set_new(set, m->name,
		    json_boolean(strcasecmp(val, "yes") == 0));
		break;
	}
	return (0);
}

json_t *
assoc_words_request(const char *action, const char *name,
    const char *account, json_t *set)
{
	json_t	*req = proto_msg(MSG_ASSOC);

	json_object_set_new(req, "action", json_string(action));
	json_object_set_new(req, "name", json_string(name));
	if (account != NULL)
		json_object_set_new(req, "account", json_string(account));
	if (set != NULL && json_object_size(set) > 0)
		json_object_set_new(req, "set", set);
	else
		json_decref(set);
	return (req);
}
