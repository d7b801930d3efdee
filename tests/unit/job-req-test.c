/* job-req-test.c: common/job-req.h's rows and their reader. The rows are
 * sound (a parent before its members, a stored field whose kind holds the
 * member), each kind takes what it should and refuses the rest with a
 * message naming the member and what is accepted, and every number is
 * taken at its bounds and refused one past them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/job-req.h"
#include "tests/unit/tap.h"

/* Reads member f from the JSON text of "job". Returns job_req_get's
 * answer, with err and out. */
static int
t_get(const char *text, enum job_req f, struct job_req_val *out, char *err,
    size_t errlen)
{
	json_t	*job;
	int	 r;

	job = json_loads(text, JSON_ALLOW_NUL, NULL);
	if (job == NULL) {
		snprintf(err, errlen, "bad test JSON: %s", text);
		return (-2);
	}
	if (job_reqs[f].parent != JOB_REQ_TOP)
		r = job_req_get(json_object_get(job, job_reqs[job_reqs[f].
		    parent].member), f, out, err, errlen);
	else
		r = job_req_get(job, f, out, err, errlen);
	/* What out borrows is gone with job: keep the number alone. */
	out->json = NULL;
	out->s = NULL;
	json_decref(job);
	return (r);
}

static void
t_rows(void)
{
	int	f, g, parents = 1, names = 1, fields = 1, words = 1;
	char	a[64], b[64];

	for (f = 0; f < JRQ_COUNT; f++) {
		const struct job_req_desc *d = &job_reqs[f];

		if (d->parent != JOB_REQ_TOP && (d->parent >= f ||
		    job_reqs[d->parent].kind != JRK_OBJECT))
			parents = 0;
		for (g = 0; g < f; g++) {
			if (strcmp(job_req_name(f, a, sizeof a),
			    job_req_name(g, b, sizeof b)) == 0)
				names = 0;
		}
		/* A field gbatchd keeps as it came holds a number for a
		 * number and text for a text. */
		if (d->field != JOB_REQ_NO_FIELD) {
			switch (job_fields[d->field].kind) {
			case JFK_TEXT:
			case JFK_TEXT0:
			case JFK_TEXTREF:
				if (d->kind != JRK_LINE && d->kind != JRK_TEXT)
					fields = 0;
				break;
			default:
				/* A boolean as 0 or 1. */
				if (d->kind != JRK_COUNT &&
				    d->kind != JRK_BOOL)
					fields = 0;
				break;
			}
		}
		if ((d->kind == JRK_WORD || d->kind == JRK_COUNT_OR_WORD) !=
		    (d->words != NULL))
			words = 0;
	}
	ok(parents, "a member's parent is an object read before it");
	ok(names, "no two members share a name");
	ok(fields, "a member kept as it came is kept in a field of its kind");
	ok(words, "the members that take words, and only they, list them");
	is_str(job_req_name(JRQ_ROWS, a, sizeof a), "interactive.rows",
	    "a member of an object is named after it");
}

/* Every number is taken at both bounds and refused just past them, with a
 * message that says the range and what came. */
static void
t_bounds(void)
{
	struct job_req_val	 v;
	char			 text[128], err[512], want[256];
	int			 f, r, good = 1, bad = 1, said = 1;

	for (f = 0; f < JRQ_COUNT; f++) {
		const struct job_req_desc *d = &job_reqs[f];

		if (d->kind != JRK_COUNT && d->kind != JRK_COUNT_OR_WORD)
			continue;
		if (d->parent != JOB_REQ_TOP)
			continue;	/* t_nested */
		snprintf(text, sizeof text, "{\"%s\":%" PRId64 "}", d->member,
		    d->min);
		if (t_get(text, f, &v, err, sizeof err) != 0 || v.n != d->min)
			good = 0;
		snprintf(text, sizeof text, "{\"%s\":%" PRId64 "}", d->member,
		    d->max);
		if (t_get(text, f, &v, err, sizeof err) != 0 || v.n != d->max)
			good = 0;
		snprintf(text, sizeof text, "{\"%s\":%" PRId64 "}", d->member,
		    d->max + 1);
		r = t_get(text, f, &v, err, sizeof err);
		snprintf(want, sizeof want, "%s: expected a whole number from %"
		    PRId64 " to %" PRId64, d->member, d->min, d->max);
		if (r != -1)
			bad = 0;
		else if (strncmp(err, want, strlen(want)) != 0 ||
		    strstr(err, "got ") == NULL) {
			said = 0;
			printf("# %s\n", err);
		}
		if (d->min > 0) {
			snprintf(text, sizeof text, "{\"%s\":%" PRId64 "}",
			    d->member, d->min - 1);
			if (t_get(text, f, &v, err, sizeof err) != -1)
				bad = 0;
		}
		if (job_req_check_num(f, d->min, err, sizeof err) != 0 ||
		    job_req_check_num(f, d->max, err, sizeof err) != 0 ||
		    job_req_check_num(f, d->max + 1, err, sizeof err) != -1)
			bad = 0;
	}
	ok(good, "every number is taken at its least and its most");
	ok(bad, "and refused one past either");
	ok(said, "saying the member, the range and what came");
}

static void
t_kinds(void)
{
	struct job_req_val	v;
	char			err[512];

	is_int(t_get("{}", JRQ_GPUS, &v, err, sizeof err), 0, "absent: taken");
	is_int(v.n, 1, "absent gpus is the default, 1");
	is_int(t_get("{\"gpus\":null}", JRQ_GPUS, &v, err, sizeof err), 0,
	    "null is absent");
	is_int(v.n, 1, "null gpus is the default, 1");
	is_int(t_get("{\"gpus\":\"2\"}", JRQ_GPUS, &v, err, sizeof err), -1,
	    "a number in a string is refused");
	is_str(err, "gpus: expected a whole number from 0 to 65536, got \"2\"",
	    "saying so");
	is_int(t_get("{\"gpus\":1.5}", JRQ_GPUS, &v, err, sizeof err), -1,
	    "a fraction is refused");
	is_int(t_get("{\"requeue\":false}", JRQ_REQUEUE, &v, err, sizeof err),
	    0, "a boolean");
	is_int(v.n, 0, "false is 0");
	is_int(t_get("{}", JRQ_REQUEUE, &v, err, sizeof err), 0, "absent");
	is_int(v.n, 1, "requeue's default is true");
	is_int(t_get("{\"hold\":1}", JRQ_HOLD, &v, err, sizeof err), -1,
	    "1 is no boolean");
	is_str(err, "hold: expected true or false", "saying so");
	is_int(t_get("{\"open_mode\":\"append\"}", JRQ_OPEN_MODE, &v, err,
	    sizeof err), 0, "a word");
	is_int(v.n, 0, "append is open_mode's first word");
	is_int(t_get("{\"open_mode\":\"appen\"}", JRQ_OPEN_MODE, &v, err,
	    sizeof err), -1, "a word's start is refused");
	is_str(err, "open_mode: expected \"append\" or \"truncate\"",
	    "naming the words");
	is_int(t_get("{\"tasks_per_node\":\"gpu\"}", JRQ_TASKS_PER_NODE, &v,
	    err, sizeof err), 0, "a count or a word: the word");
	is_str(v.s == NULL ? "" : "set", "", "(borrowed, cleared by t_get)");
	is_int(t_get("{\"tasks_per_node\":\"cpu\"}", JRQ_TASKS_PER_NODE, &v,
	    err, sizeof err), -1, "another word is refused");
	is_str(err, "tasks_per_node: expected a whole number from 1 to 1024, "
	    "or \"gpu\", got \"cpu\"", "naming the range and the word");
	is_int(t_get("{\"comment\":\"a\\tb\"}", JRQ_COMMENT, &v, err,
	    sizeof err), -1, "a control character in a line is refused");
	is_int(t_get("{\"name\":\"a\\u007fb\"}", JRQ_NAME, &v, err,
	    sizeof err), -1, "so is DEL, as gsub refuses it");
	is_int(t_get("{\"name\":\"a\\u009b1mb\"}", JRQ_NAME, &v, err,
	    sizeof err), -1, "and a C1 control (CSI), as gsub refuses it");
	is_str(err, "name: holds a control character; expected a line of text",
	    "saying so");
	is_int(t_get("{\"name\":\"r\\u00e9sum\\u00e9\"}", JRQ_NAME, &v, err,
	    sizeof err), 0, "other UTF-8 is a line");
	is_int(t_get("{\"script\":\"a\\tb\\n\"}", JRQ_SCRIPT, &v, err,
	    sizeof err), 0, "but taken in a text");
	is_int(t_get("{\"script\":\"a\\u0000b\"}", JRQ_SCRIPT, &v, err,
	    sizeof err), -1, "a NUL is refused even there");
	is_int(t_get("{\"gpu_type\":\"\"}", JRQ_GPU_TYPE, &v, err,
	    sizeof err), -1, "a text below its least is refused");
	is_int(t_get("{\"argv\":[\"a\",2]}", JRQ_ARGV, &v, err, sizeof err),
	    -1, "an array of strings holds strings");
	is_str(err, "argv: element 2 is not a string", "saying which");
	is_int(t_get("{\"argv\":[\"a\\u0000b\"]}", JRQ_ARGV, &v, err,
	    sizeof err), -1, "nor a NUL, which gnoded could not pass on");
	is_int(t_get("{\"env\":{\"A\":\"a\\u0000b\"}}", JRQ_ENV, &v, err,
	    sizeof err), -1, "in a variable's value either");
	is_int(job_reqs[JRQ_TIME_LIMIT].max, 365 * 86400,
	    "a time limit is 365 days at most");
	is_int(t_get("{\"time_limit\":2207520000}", JRQ_TIME_LIMIT, &v, err,
	    sizeof err), -1, "70 years is refused");
	is_str(err, "time_limit: expected a whole number from 0 to 31536000, "
	    "got 2207520000", "naming the member, the range and what came");
	is_int(t_get("{\"env\":{\"A=B\":\"c\"}}", JRQ_ENV, &v, err,
	    sizeof err), -1, "a variable's name holds no '='");
	is_int(t_get("{\"env\":{\"A\":\"c\"}}", JRQ_ENV, &v, err,
	    sizeof err), 0, "variables");
}

static void
t_nested(void)
{
	struct job_req_val	 vals[JRQ_COUNT];
	json_t			*job;
	char			 err[512];

	job = json_loads("{\"interactive\":{\"rows\":0}}", 0, NULL);
	is_int(job_req_read(job, vals, err, sizeof err), -1,
	    "a member of an object is checked");
	is_str(err, "interactive.rows: expected a whole number from 1 to "
	    "65535, got 0", "and named with it");
	json_decref(job);
	job = json_loads("{\"interactive\":{\"pty\":true}}", 0, NULL);
	is_int(job_req_read(job, vals, err, sizeof err), 0, "read whole");
	ok(vals[JRQ_INTERACTIVE].json != NULL && vals[JRQ_PTY].n == 1 &&
	    vals[JRQ_ROWS].n == 24 && vals[JRQ_COLS].n == 80,
	    "its members, and the defaults of those absent");
	ok(vals[JRQ_GPUS].json == NULL && vals[JRQ_GPUS].n == 1 &&
	    vals[JRQ_UMASK].n == -1, "and every other row's default");
	json_decref(job);
	job = json_loads("{\"interactive\":5}", 0, NULL);
	is_int(job_req_read(job, vals, err, sizeof err), -1,
	    "an object is an object");
	is_str(err, "interactive: expected an object", "saying so");
	json_decref(job);
}

/* The rules of a request that gbatchd applies at submit and when a
 * waiting job's request changes: the GPUs split evenly over the nodes,
 * and the name a job given none gets. */
static void
t_rules(void)
{
	char	err[256];

	is_int(job_req_check_split(8, 2, err, sizeof err), 0,
	    "8 GPUs split over 2 nodes");
	is_int(job_req_check_split(3, 0, err, sizeof err), 0,
	    "any number of nodes takes any GPUs");
	is_int(job_req_check_split(3, 2, err, sizeof err), -1,
	    "3 GPUs do not split over 2 nodes");
	is_str(err, "num_nodes: 3 GPUs do not split evenly over 2 nodes; "
	    "expected a number of nodes that divides the GPUs", "saying so");
	is_str(job_req_default_name("/home/a/train.sh"), "train.sh",
	    "a script's base name");
	is_str(job_req_default_name("python3"), "python3", "a command's");
	is_str(job_req_default_name("/home/a/"), "wrap", "none: \"wrap\"");
	is_str(job_req_default_name(""), "wrap", "no command: \"wrap\"");
}

/* Shards (gpu_share) are of one GPU of a rigid job on one node that does
 * not take turns on it; each other case refused, saying which. */
static void
t_share(void)
{
	char	err[256];

	is_int(job_req_check_share(0, 8, 16, 2, true, err, sizeof err), 0,
	    "no shards asked: anything goes");
	is_int(job_req_check_share(3, 1, 0, 0, false, err, sizeof err), 0,
	    "3 shards of one GPU");
	is_int(job_req_check_share(64, 1, 0, 1, false, err, sizeof err), 0,
	    "on the one node it names");
	is_int(job_req_check_share(2, 0, 0, 0, false, err, sizeof err), -1,
	    "a job of no GPU");
	is_str(err, "gpu_share (gsub --gpu-share, --gres=shard:N): a job of "
	    "no GPU has none to share; expected a rigid job of one GPU on one "
	    "node (gsub -G 1) with it", "says there is none to share");
	is_int(job_req_check_share(2, 2, 0, 0, false, err, sizeof err), -1,
	    "a job of 2 GPUs");
	ok(strstr(err, "a job of several GPUs takes them whole") != NULL,
	    "takes them whole");
	is_int(job_req_check_share(2, 1, 2, 0, false, err, sizeof err), -1,
	    "an elastic job");
	ok(strstr(err, "an elastic job (gpus_max, gsub -G MIN-MAX)") != NULL,
	    "changes its GPUs");
	is_int(job_req_check_share(2, 1, 0, 2, false, err, sizeof err), -1,
	    "a job of 2 nodes");
	ok(strstr(err, "a job of several nodes (num_nodes, gsub -N)") != NULL,
	    "has a GPU on each");
	is_int(job_req_check_share(2, 1, 0, 0, true, err, sizeof err), -1,
	    "a job that takes turns");
	ok(strstr(err, "(time_slice, gsub --time-slice) holds its GPU whole") !=
	    NULL, "holds it whole in its turn");
}

int
main(void)
{
	t_share();
	t_rows();
	t_bounds();
	t_kinds();
	t_nested();
	t_rules();
	return (tap_done());
}
