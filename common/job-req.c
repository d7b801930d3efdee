/* job-req.c: the rows job-req.h describes, and their one reader. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc-text.h"
#include "common/job-req.h"
#include "common/safe-text.h"

/* A run's text records its shards (alloc-text.h) up to the same bound. */
_Static_assert(JOB_REQ_MAX_SHARES == ALLOC_TEXT_MAX_SHARDS,
    "one bound on a GPU's shards");

#define JOB_REQ_DESC(e, m, p, k, lo, hi, d, f, w) \
	[JRQ_##e] = { m, p, k, lo, hi, d, f, w },
const struct job_req_desc job_reqs[JRQ_COUNT] = {
	JOB_REQ_FIELDS(JOB_REQ_DESC)
};
#undef JOB_REQ_DESC

/* A row's default must be something its member could say, or mean none:
 * checked where the compiler can. */
#define JOB_REQ_CHECK(e, m, p, k, lo, hi, d, f, w)			\
	_Static_assert((k) != JRK_COUNT || (lo) <= (hi),		\
	    m ": a range whose minimum is above its maximum");		\
	_Static_assert(((k) != JRK_WORD && (k) != JRK_COUNT_OR_WORD) ||	\
	    sizeof(w) > 1, m ": words to take, and none given");
JOB_REQ_FIELDS(JOB_REQ_CHECK)
#undef JOB_REQ_CHECK

const char *
job_req_name(enum job_req f, char *buf, size_t len)
{
	const struct job_req_desc	*d = &job_reqs[f];

	if (d->parent == JOB_REQ_TOP)
		snprintf(buf, len, "%s", d->member);
	else
		snprintf(buf, len, "%s.%s", job_reqs[d->parent].member,
		    d->member);
	return (buf);
}

int
job_req_word(enum job_req f, const char *w, size_t len)
{
	const char	*p = job_reqs[f].words, *bar;
	size_t		 n;
	int		 i;

	for (i = 0; p != NULL; i++) {
		bar = strchr(p, '|');
		n = bar != NULL ? (size_t)(bar - p) : strlen(p);
		if (n == len && memcmp(p, w, len) == 0)
			return (i);
		p = bar != NULL ? bar + 1 : NULL;
	}
	return (-1);
}

const char *
job_req_words(enum job_req f, char *buf, size_t len)
{
	const char	*p = job_reqs[f].words, *bar;
	size_t		 at = 0, n;
	int		 w;

	buf[0] = '\0';
	while (p != NULL && at < len) {
		bar = strchr(p, '|');
		n = bar != NULL ? (size_t)(bar - p) : strlen(p);
		w = snprintf(buf + at, len - at, "%s\"%.*s\"", at == 0 ? "" :
		    bar == NULL ? " or " : ", ", (int)n, p);
		if (w < 0)
			break;
		at += (size_t)w;
		p = bar != NULL ? bar + 1 : NULL;
	}
	return (buf);
}

const char *
job_req_got(const json_t *v, char *buf, size_t len)
{
	char	safe[64];

	switch (json_typeof(v)) {
	case JSON_INTEGER:
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		break;
	case JSON_REAL:
		snprintf(buf, len, "%g", json_real_value(v));
		break;
	case JSON_STRING:
		snprintf(buf, len, "\"%s\"", safe_text(json_string_value(v),
		    json_string_length(v), safe, sizeof safe));
		break;
	case JSON_TRUE:
		snprintf(buf, len, "true");
		break;
	case JSON_FALSE:
		snprintf(buf, len, "false");
		break;
	case JSON_ARRAY:
		snprintf(buf, len, "an array");
		break;
	case JSON_OBJECT:
		snprintf(buf, len, "an object");
		break;
	default:
		snprintf(buf, len, "null");
		break;
	}
	return (buf);
}

/* A text member: a string of no NUL, within the row's length, and for a
 * line no control character (C0, DEL or C1: safe_text_is_line). */
static int
job_req_text(const struct job_req_desc *d, const json_t *v,
    struct job_req_val *out, char *err, size_t errlen)
{
	const char	*s = json_string_value(v);
	char		 got[96];
	size_t		 len;

	if (s == NULL) {
		snprintf(err, errlen, "expected a string, got %s",
		    job_req_got(v, got, sizeof got));
		return (-1);
	}
	len = json_string_length(v);
	if (strlen(s) != len) {
		snprintf(err, errlen, "holds a NUL byte; expected text");
		return (-1);
	}
	if (len > (uint64_t)d->max || len < (uint64_t)d->min) {
		if (d->min > 0)
			snprintf(err, errlen, "expected %" PRId64 " to %" PRId64
			    " bytes, got %zu", d->min, d->max, len);
		else
			snprintf(err, errlen, "longer than %" PRId64 " bytes "
			    "(%zu)", d->max, len);
		return (-1);
	}
	if (d->kind == JRK_LINE && !safe_text_is_line(s, len)) {
		snprintf(err, errlen, "holds a control character; expected a "
		    "line of text");
		return (-1);
	}
	out->s = s;
	out->len = len;
	return (0);
}

/* A whole number member within the row's range (and, for
 * JRK_COUNT_OR_WORD, one of its words instead). */
static int
job_req_count(enum job_req f, const json_t *v, struct job_req_val *out,
    char *err, size_t errlen)
{
	const struct job_req_desc	*d = &job_reqs[f];
	char				 got[96], words[128];
	int				 w;

	if (json_is_integer(v) && json_integer_value(v) >= d->min &&
	    json_integer_value(v) <= d->max) {
		out->n = json_integer_value(v);
		return (0);
	}
	if (d->kind == JRK_COUNT_OR_WORD && json_is_string(v) &&
	    (w = job_req_word(f, json_string_value(v),
	    json_string_length(v))) != -1) {
		out->s = json_string_value(v);
		out->len = json_string_length(v);
		out->n = 0;
		return (0);
	}
	snprintf(err, errlen, "expected a whole number from %" PRId64 " to %"
	    PRId64 "%s%s, got %s", d->min, d->max,
	    d->kind == JRK_COUNT_OR_WORD ? ", or " : "",
	    d->kind == JRK_COUNT_OR_WORD ? job_req_words(f, words,
	    sizeof words) : "", job_req_got(v, got, sizeof got));
	return (-1);
}

/* An array of strings. */
static int
job_req_strings(const json_t *v, char *err, size_t errlen)
{
	const json_t	*e;
	size_t		 i;

	if (!json_is_array(v)) {
		snprintf(err, errlen, "expected an array of strings");
		return (-1);
	}
	json_array_foreach(v, i, e) {
		if (!json_is_string(e)) {
			snprintf(err, errlen, "element %zu is not a string",
			    i + 1);
			return (-1);
		}
		if (strlen(json_string_value(e)) != json_string_length(e)) {
			snprintf(err, errlen, "element %zu holds a NUL byte",
			    i + 1);
			return (-1);
		}
	}
	return (0);
}

/* An object of strings by variable name: none empty or holding '='. */
static int
job_req_vars(const json_t *v, char *err, size_t errlen)
{
	const char	*key;
	json_t		*e;
	char		 safe[128];

	if (!json_is_object(v)) {
		snprintf(err, errlen, "expected an object of strings, as "
		    "{\"PATH\": \"/usr/bin\"}");
		return (-1);
	}
	/* The name is escaped only for an error: a submit carries a few
	 * dozen variables, and escaping each cost 8% of gbatchd's CPU per
	 * pipelined submit. */
	json_object_foreach((json_t *)v, key, e) {
		if (!json_is_string(e)) {
			snprintf(err, errlen, "%s: expected a string",
			    safe_text_str(key, safe, sizeof safe));
			return (-1);
		}
		if (*key == '\0' || strchr(key, '=') != NULL) {
			snprintf(err, errlen, "\"%s\" is not a variable name",
			    safe_text_str(key, safe, sizeof safe));
			return (-1);
		}
		if (strlen(json_string_value(e)) != json_string_length(e)) {
			snprintf(err, errlen, "%s: holds a NUL byte",
			    safe_text_str(key, safe, sizeof safe));
			return (-1);
		}
	}
	return (0);
}

int
job_req_check(enum job_req f, const json_t *v, struct job_req_val *out,
    char *err, size_t errlen)
{
	const struct job_req_desc	*d = &job_reqs[f];
	char				 words[128];
	int				 w;

	out->json = v;
	out->n = d->def;
	out->s = NULL;
	out->len = 0;
	switch (d->kind) {
	case JRK_COUNT:
	case JRK_COUNT_OR_WORD:
		return (job_req_count(f, v, out, err, errlen));
	case JRK_BOOL:
		if (!json_is_boolean(v)) {
			snprintf(err, errlen, "expected true or false");
			return (-1);
		}
		out->n = json_is_true(v);
		return (0);
	case JRK_LINE:
	case JRK_TEXT:
		return (job_req_text(d, v, out, err, errlen));
	case JRK_WORD:
		if (!json_is_string(v) || (w = job_req_word(f,
		    json_string_value(v), json_string_length(v))) == -1) {
			snprintf(err, errlen, "expected %s", job_req_words(f,
			    words, sizeof words));
			return (-1);
		}
		out->n = w;
		out->s = json_string_value(v);
		out->len = json_string_length(v);
		return (0);
	case JRK_STRINGS:
		return (job_req_strings(v, err, errlen));
	case JRK_VARS:
		return (job_req_vars(v, err, errlen));
	case JRK_OBJECT:
		if (!json_is_object(v)) {
			snprintf(err, errlen, "expected an object");
			return (-1);
		}
		return (0);
	}
	return (-1);
}

int
job_req_get(const json_t *obj, enum job_req f, struct job_req_val *out,
    char *err, size_t errlen)
{
	const json_t	*v = json_object_get(obj, job_reqs[f].member);
	char		 detail[384], name[64];

	if (v == NULL || json_is_null(v)) {
		out->json = NULL;
		out->n = job_reqs[f].def;
		out->s = NULL;
		out->len = 0;
		return (0);
	}
	if (job_req_check(f, v, out, detail, sizeof detail) == 0)
		return (0);
	snprintf(err, errlen, "%s: %s", job_req_name(f, name, sizeof name),
	    detail);
	return (-1);
}

int
job_req_read(const json_t *job, struct job_req_val vals[JRQ_COUNT],
    char *err, size_t errlen)
{
	const json_t	*obj;
	int		 f;

	for (f = 0; f < JRQ_COUNT; f++) {
		obj = job;
		/* A parent comes before its members (job-req-test checks). */
		if (job_reqs[f].parent != JOB_REQ_TOP)
			obj = vals[job_reqs[f].parent].json;
		if (job_req_get(obj, f, &vals[f], err, errlen) != 0)
			return (-1);
	}
	return (0);
}

int
job_req_check_num(enum job_req f, int64_t n, char *err, size_t errlen)
{
	const struct job_req_desc	*d = &job_reqs[f];

	if (n >= d->min && n <= d->max)
		return (0);
	snprintf(err, errlen, "expected a whole number from %" PRId64 " to %"
	    PRId64 ", got %" PRId64, d->min, d->max, n);
	return (-1);
}

int
job_req_check_split(uint32_t gpus, uint32_t num_nodes, char *err,
    size_t errlen)
{
	if (num_nodes == 0 || gpus % num_nodes == 0)
		return (0);
	snprintf(err, errlen, "num_nodes: %u GPUs do not split evenly over %u "
	    "nodes; expected a number of nodes that divides the GPUs", gpus,
	    num_nodes);
	return (-1);
}

int
job_req_check_elastic(uint32_t gpus, uint32_t gpus_max, uint32_t num_nodes,
    char *err, size_t errlen)
{
	if (gpus_max == 0)
		return (0);
	if (gpus == 0) {
		snprintf(err, errlen, "gpus_max: a job of no GPU does not "
		    "grow; expected gpus of 1 or more with it");
		return (-1);
	}
	if (gpus_max < gpus) {
		snprintf(err, errlen, "gpus_max: %u is fewer than gpus, %u; "
		    "expected %u to %u", gpus_max, gpus, gpus,
		    JOB_REQ_MAX_GPUS);
		return (-1);
	}
	if (num_nodes > 0 && gpus_max % num_nodes != 0) {
		snprintf(err, errlen, "gpus_max: %u GPUs do not split evenly "
		    "over %u nodes; expected a multiple of %u", gpus_max,
		    num_nodes, num_nodes);
		return (-1);
	}
	return (0);
}

int
job_req_check_slice(uint32_t gpus, uint32_t gpus_max, bool time_slice,
    uint64_t gpu_mem, char *err, size_t errlen)
{
	if (gpus == 0 && time_slice) {
		snprintf(err, errlen, "time_slice (gsub --time-slice): a job of "
		    "no GPU has no GPU to share in turns; expected gpus of 1 "
		    "or more with it");
		return (-1);
	}
	if (gpus == 0 && gpu_mem != 0) {
		snprintf(err, errlen, "gpu_mem (gsub --gpu-mem): a job of no "
		    "GPU uses no GPU memory; expected gpus of 1 or more with "
		    "it");
		return (-1);
	}
	if (gpus_max != 0 && time_slice) {
		snprintf(err, errlen, "time_slice (gsub --time-slice): an "
		    "elastic job (gpus_max, gsub -G MIN-MAX) changes its GPUs, "
		    "where jobs that take turns keep the same ones; expected "
		    "a rigid job (one GPU count) with it");
		return (-1);
	}
	return (0);
}

int
job_req_check_share(uint32_t gpu_share, uint32_t gpus, uint32_t gpus_max,
    uint32_t num_nodes, bool time_slice, char *err, size_t errlen)
{
	const char	*why = NULL;

	if (gpu_share == 0)
		return (0);
	if (gpus != 1)
		why = gpus == 0 ? "a job of no GPU has none to share" :
		    "a job of several GPUs takes them whole";
	else if (gpus_max != 0)
		why = "an elastic job (gpus_max, gsub -G MIN-MAX) changes its "
		    "GPUs";
	else if (num_nodes > 1)
		why = "a job of several nodes (num_nodes, gsub -N) has a GPU "
		    "on each";
	else if (time_slice)
		why = "a job that takes turns (time_slice, gsub --time-slice) "
		    "holds its GPU whole in its turn";
	if (why == NULL)
		return (0);
	snprintf(err, errlen, "gpu_share (gsub --gpu-share, --gres=shard:N): "
	    "%s; expected a rigid job of one GPU on one node (gsub -G 1) with "
	    "it", why);
	return (-1);
}

const char *
job_req_default_name(const char *command)
{
	const char	*base = strrchr(command, '/');

	base = base != NULL ? base + 1 : command;
	return (*base != '\0' ? base : "wrap");
}
