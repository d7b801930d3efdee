/* progress.c: a training job's progress line, parsed and checked
 * (progress.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/progress.h"

enum progress_key {
	PK_STEP_TIME,
	PK_SYNC_TIME,
	PK_LOCAL_BSZ,
	PK_SAMPLES,
	PK_GRAD_SQR,
	PK_GRAD_VAR,
	PK_COUNT
};

/* Each key, what it takes (as the error says it), and its bounds: a
 * count (whole, min to max) or seconds and statistics (real numbers). */
static const struct {
	const char	*name;
	bool		 whole;
	double		 min, max;
	bool		 min_open;	/* more than min, not min itself */
	const char	*what;
} progress_keys[PK_COUNT] = {
	{ "step_time", false, 0, PROGRESS_MAX_STEP, true,
	  "seconds, more than 0 and at most 86400" },
	{ "sync_time", false, 0, PROGRESS_MAX_STEP, false,
	  "seconds, 0 to step_time" },
	{ "local_bsz", true, 1, PROGRESS_MAX_BSZ, false,
	  "a whole number of samples, 1 to 10000000" },
	{ "samples", true, 0, (double)PROGRESS_MAX_SAMPLES, false,
	  "a whole number, 0 to 10^18" },
	{ "grad_sqr", false, 0, PROGRESS_MAX_GRAD, false,
	  "a number, 0 to 10^30" },
	{ "grad_var", false, 0, PROGRESS_MAX_GRAD, false,
	  "a number, 0 to 10^30" },
};

/* A key's name: lower-case letters, digits and '_', as a trainer's next
 * keys will be too. */
static bool
progress_word(const char *s, size_t n)
{
	size_t	i;

	if (n == 0 || n > 32)
		return (false);
	for (i = 0; i < n; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '_'))
			return (false);
	}
	return (true);
}

/* v[0..n) as key k's number into *out: whole keys digits alone, the
 * others a decimal number (no hex, inf or nan), in the key's bounds. */
static bool
progress_number(enum progress_key k, const char *v, size_t n, double *out)
{
	char	buf[64], *end;
	size_t	i;
	double	d;

	if (n == 0 || n >= sizeof buf)
		return (false);
	for (i = 0; i < n; i++) {
		if (progress_keys[k].whole ? !(v[i] >= '0' && v[i] <= '9') :
		    strchr("0123456789.eE+-", v[i]) == NULL)
			return (false);
	}
	memcpy(buf, v, n);
	buf[n] = '\0';
	d = strtod(buf, &end);
	if (*end != '\0' || !isfinite(d))
		return (false);
	if (progress_keys[k].min_open ? d <= progress_keys[k].min :
	    d < progress_keys[k].min)
		return (false);
	if (d > progress_keys[k].max)
		return (false);
	*out = d;
	return (true);
}

/* The report from the keys' values (seen: which came), checked as a
 * whole. */
static int
progress_fill(const double *val, const bool *seen, struct progress *p,
    char *err, size_t errlen)
{
	int	k;

	for (k = PK_STEP_TIME; k <= PK_LOCAL_BSZ; k++) {
		if (!seen[k]) {
			snprintf(err, errlen, "no %s; expected step_time, "
			    "sync_time and local_bsz in every line",
			    progress_keys[k].name);
			return (-1);
		}
	}
	if (val[PK_SYNC_TIME] > val[PK_STEP_TIME]) {
		snprintf(err, errlen, "sync_time is more than step_time; "
		    "expected the part of a step spent synchronising");
		return (-1);
	}
	if (seen[PK_GRAD_SQR] != seen[PK_GRAD_VAR]) {
		snprintf(err, errlen, "grad_sqr and grad_var come together; "
		    "expected both or neither");
		return (-1);
	}
	memset(p, 0, sizeof *p);
	p->step_time = val[PK_STEP_TIME];
	p->sync_time = val[PK_SYNC_TIME];
	p->local_bsz = (uint64_t)val[PK_LOCAL_BSZ];
	if ((p->has_samples = seen[PK_SAMPLES]))
		p->samples = (uint64_t)val[PK_SAMPLES];
	if ((p->has_grad = seen[PK_GRAD_SQR])) {
		p->grad_sqr = val[PK_GRAD_SQR];
		p->grad_var = val[PK_GRAD_VAR];
	}
	return (0);
}

int
progress_parse(const char *line, size_t len, struct progress *p, char *err,
    size_t errlen)
{
	double		 val[PK_COUNT] = { 0 };
	bool		 seen[PK_COUNT] = { false };
	const char	*s = line, *end = line + len, *w, *eq;
	unsigned	 word = 0;
	int		 k;

	if (len > PROGRESS_MAX_LINE) {
		snprintf(err, errlen, "a line of %zu bytes; expected at most "
		    "%d", len, PROGRESS_MAX_LINE);
		return (-1);
	}
	while (s < end) {
		if (*s == ' ' || *s == '\t' || *s == '\r') {
			s++;
			continue;
		}
		for (w = s; s < end && *s != ' ' && *s != '\t' && *s != '\r';
		    s++)
			;
		word++;
		eq = memchr(w, '=', (size_t)(s - w));
		if (eq == NULL || !progress_word(w, (size_t)(eq - w))) {
			snprintf(err, errlen, "word %u is not key=value; "
			    "expected words such as step_time=0.31", word);
			return (-1);
		}
		for (k = 0; k < PK_COUNT; k++) {
			if (strlen(progress_keys[k].name) ==
			    (size_t)(eq - w) && memcmp(progress_keys[k].name,
			    w, (size_t)(eq - w)) == 0)
				break;
		}
		if (k == PK_COUNT)
			continue;	/* a newer trainer's key */
		if (seen[k]) {
			snprintf(err, errlen, "%s twice; expected each key "
			    "once a line", progress_keys[k].name);
			return (-1);
		}
		if (!progress_number((enum progress_key)k, eq + 1,
		    (size_t)(s - eq - 1), &val[k])) {
			snprintf(err, errlen, "%s: expected %s",
			    progress_keys[k].name, progress_keys[k].what);
			return (-1);
		}
		seen[k] = true;
	}
	return (progress_fill(val, seen, p, err, errlen));
}

json_t *
progress_to_json(const struct progress *p)
{
	json_t	*o;

	o = json_pack("{s:f, s:f, s:I}", "step_time", p->step_time,
	    "sync_time", p->sync_time, "local_bsz", (json_int_t)p->local_bsz);
	if (p->has_samples)
		json_object_set_new(o, "samples",
		    json_integer((json_int_t)p->samples));
	if (p->has_grad) {
		json_object_set_new(o, "grad_sqr", json_real(p->grad_sqr));
		json_object_set_new(o, "grad_var", json_real(p->grad_var));
	}
	return (o);
}

int
progress_from_json(const json_t *o, struct progress *p, char *err,
    size_t errlen)
{
	double		 val[PK_COUNT] = { 0 };
	bool		 seen[PK_COUNT] = { false };
	const json_t	*v;
	double		 d;
	int		 k;

	if (!json_is_object(o)) {
		snprintf(err, errlen, "expected an object");
		return (-1);
	}
	for (k = 0; k < PK_COUNT; k++) {
		if ((v = json_object_get(o, progress_keys[k].name)) == NULL)
			continue;
		if (progress_keys[k].whole ? !json_is_integer(v) :
		    !json_is_number(v)) {
			snprintf(err, errlen, "%s: expected %s",
			    progress_keys[k].name, progress_keys[k].what);
			return (-1);
		}
		d = json_number_value(v);
		if (!isfinite(d) || (progress_keys[k].min_open ?
		    d <= progress_keys[k].min : d < progress_keys[k].min) ||
		    d > progress_keys[k].max) {
			snprintf(err, errlen, "%s: expected %s",
			    progress_keys[k].name, progress_keys[k].what);
			return (-1);
		}
		val[k] = d;
		seen[k] = true;
	}
	return (progress_fill(val, seen, p, err, errlen));
}
