/* gq: list jobs (squeue's counterpart). */
#include <sys/types.h>

#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>
#include <unistd.h>

#include "client/client.h"
#include "client/job-detail.h"
#include "client/job-filter.h"
#include "client/job-row.h"
#include "client/job-wait.h"
#include "client/jpretty.h"
#include "client/model.h"
#include "client/step-rows.h"
#include "client/jscan.h"
#include "client/table.h"
#include "common/array.h"
#include "common/duration.h"
#include "common/cmd.h"
#include "common/job-state.h"
#include "common/label.h"
#include "common/outpat.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

#define GQ_MAX_SORT	8

enum {
	GQ_OPT_ME = 256,
	GQ_OPT_JSON,
	GQ_OPT_WAIT,
	GQ_OPT_HELP,
};

static const struct option gq_longopts[] = {
	{ "user", required_argument, NULL, 'u' },
	{ "me", no_argument, NULL, GQ_OPT_ME },
	{ "states", required_argument, NULL, 't' },
	{ "state", required_argument, NULL, 't' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "partition", required_argument, NULL, 'p' },
	{ "format", required_argument, NULL, 'o' },
	{ "noheader", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, GQ_OPT_JSON },
	{ "wait", no_argument, NULL, GQ_OPT_WAIT },
	{ "long", required_argument, NULL, 'l' },
	{ "sort", required_argument, NULL, 'S' },
	{ "array", no_argument, NULL, 'r' },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, GQ_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

struct gq {
	struct job_filter *filter;	/* -u, --me, -t, -j: the model's */
	const char	*format;
	bool		 noheader;
	bool		 json;
	bool		 unfold;	/* -r: an array's tasks a row each */
	uint64_t	 long_id;
	const char	*timeout;	/* --timeout's value, or NULL */
	/* --sort: columns, their members (job_row_sort_key()) and order. */
	const char	*sort_cols[GQ_MAX_SORT];
	int		 sort_keys[GQ_MAX_SORT];
	bool		 sort_desc[GQ_MAX_SORT];
	int		 nsort;
};

/* A row of a sorted listing; i keeps the controller's order among
 * equals (qsort is not stable). */
struct gq_sorted {
	struct job_row	 row;
	size_t		 i;
};

static void
gq_usage(FILE *f)
{
	char	*fields = table_field_names(job_row_cols, job_row_ncols);

	fprintf(f,
"usage: gq [options]\n"
"       gq --wait ID...\n"
"List pending and running jobs (all states with -t all or -j).\n"
"\n"
"  -u, --user USER[,USER]    only these users' jobs\n"
"      --me                  only my jobs\n"
"  -t, --states STATE[,...]  only jobs in these states (names or short\n"
"                            forms: PD, H, R, PR, CD, F, TO, CA, NF), or all\n"
"  -j, --jobs ID[,ID]        only these jobs, whatever their state (an\n"
"                            array's task: ID_TASK or ID_[TASKS])\n"
"  -p, --partition NAME[,NAME]  only jobs that may run in one of these\n"
"                            partitions\n"
"  -o, --format FIELD[:WIDTH][,...]  columns to print (default:\n"
"                            " JOB_ROW_DEFAULT ")\n"
"  -h, --noheader            no header line (as squeue -h)\n"
"      --json                print the controller's reply as JSON\n"
"  -S, --sort [-]FIELD[,...]  order by these fields (- descending);\n"
"                            default: as submitted, and by submit_time\n"
"                            when finished states are listed\n"
"  -r, --array               a job array's waiting tasks a row each\n"
"                            (default: one row, 42_[7-99%%8])\n"
"  -l, --long ID             every field of one job, one per line, with\n"
"                            its output files as the nodes name them\n"
"      --wait                wait until the jobs named (ID... or -j) have\n"
"                            ended; exit with the status of the first that\n"
"                            did not complete (0 when all did)\n"
"      --timeout SECONDS     how long to wait for gbatchd (default 10, or\n"
"                            GBATCH_TIMEOUT; 0 waits for ever)\n"
"      --help                this help\n"
"  -V, --version             print the version\n"
"\n"
"Fields: %s\n"
"\n"
"Exit status: 0 ok, 1 refused by gbatchd (unknown job or user), 2 usage\n"
"error, 3 cannot reach gbatchd, 4 permission denied; with --wait, a job's\n"
"own.\n",
	    fields);
	free(fields);
}

static const struct cmd gq_cmd = {
	.name = "gq",
	.usage = gq_usage,
	.shortopts = ":u:t:j:p:o:hrl:S:V",
	.longopts = gq_longopts,
};

static int
gq_add_state(const char *item, void *arg, char *err, size_t errlen)
{
	struct gq	*gq = arg;
	char		 why[512];

	if (job_filter_add_state(gq->filter, item, why, sizeof why) == -1) {
		snprintf(err, errlen, "--states: %s", why);
		return (-1);
	}
	return (0);
}

static int
gq_add_sort(const char *item, void *arg, char *err, size_t errlen)
{
	struct gq	*gq = arg;
	const char	*col = item[0] == '-' ? item + 1 : item;
	char		*fields;
	int		 key;
	size_t		 i;

	for (i = 0; i < job_row_ncols; i++) {
		if (strcmp(col, job_row_cols[i].name) == 0)
			break;
	}
	if (i == job_row_ncols || (key = job_row_sort_key(col)) == -1) {
		fields = table_field_names(job_row_cols, job_row_ncols);
		snprintf(err, errlen, "--sort: unknown field \"%s\"; accepted: "
		    "%s, each with a leading - for descending", col, fields);
		free(fields);
		return (-1);
	}
	if (gq->nsort == GQ_MAX_SORT) {
		snprintf(err, errlen, "--sort: more than %d fields",
		    GQ_MAX_SORT);
		return (-1);
	}
	gq->sort_cols[gq->nsort] = job_row_cols[i].name;
	gq->sort_keys[gq->nsort] = key;
	gq->sort_desc[gq->nsort] = item[0] == '-';
	gq->nsort++;
	return (0);
}

static int
gq_add_user(const char *item, void *arg, char *err, size_t errlen)
{
	struct gq	*gq = arg;
	char		 why[512];

	if (job_filter_add_user(gq->filter, item, why, sizeof why) == -1) {
		snprintf(err, errlen, "--user: %s", why);
		return (-1);
	}
	return (0);
}

/* A table listing asks only for the members its columns read (plus
 * those gq filters on): a 10,000-job reply shrinks to a third. */
static json_t *
gq_fields(const struct gq *gq, const struct table *t)
{
	json_t	*fields = json_array();
	size_t	 i;

	json_array_append_new(fields, json_string("state"));
	json_array_append_new(fields, json_string("user"));
	job_filter_wire_fields(gq->filter, fields);
	for (i = 0; i < table_nselected(t); i++)
		job_row_wire_fields(table_selected(t, i)->name, fields);
	for (i = 0; i < (size_t)gq->nsort; i++)
		job_row_wire_fields(gq->sort_cols[i], fields);
	return (fields);
}

/* Reports ids the controller did not find; returns how many. */
static int
gq_missing(const struct jscan_val *missing)
{
	struct jscan_val	v;
	size_t			pos = 0;
	int			n = 0;
	char			task[64];

	while (jscan_element(missing, &pos, &v) == 1) {
		fputs("gq: job ", stderr);
		if (v.type == JSCAN_STRING) {
			/* An array's task: "42_7". */
			jscan_string(&v, task, sizeof task);
			safe_text_fwrite(task, strlen(task), stderr);
		} else
			safe_text_fwrite(v.p, v.n, stderr);
		fputs(": not found\n", stderr);
		n++;
	}
	return (n);
}

/* gq -l: every line of the job's detail, escaped for the terminal. */
static void
gq_print_line(void *arg, const char *line)
{
	(void)arg;
	safe_text_fwrite(line, strlen(line), stdout);
	putchar('\n');
}

static void
gq_print_long(const struct job_row *row)
{
	job_detail(row, gq_print_line, NULL);
}

/* gq -l's last lines: the job's steps (srun's in its batch script, grun
 * --jobid's), one a line: JOBID.STEP, its tasks and nodes, how it stands,
 * its start and run time, its command. Nothing for a job without any. */
static void
gq_print_steps(struct model *m, uint64_t id)
{
	struct step_row	*r;
	struct tm	 tm;
	json_t		*req, *reply;
	time_t		 t;
	char		 when[32], took[32], line[1400];
	size_t		 n, i;

	req = json_pack("{s:i,s:[I]}", "type", MSG_STEP_LIST, "ids",
	    (json_int_t)id);
	if (model_request(m, req, &reply) != 0) {
		json_decref(req);
		return;
	}
	json_decref(req);
	if ((r = step_rows_group(json_object_get(reply, "steps"), &n)) !=
	    NULL)
		gq_print_line(NULL, "steps:");
	for (i = 0; i < n; i++) {
		t = (time_t)r[i].start_time;
		if (localtime_r(&t, &tm) == NULL || strftime(when, sizeof when,
		    "%Y-%m-%dT%H:%M:%S", &tm) == 0)
			when[0] = '\0';
		duration_format((uint64_t)((r[i].end_time != 0 ? r[i].end_time :
		    (int64_t)time(NULL)) - r[i].start_time), took, sizeof took);
		snprintf(line, sizeof line, "  %llu.%u  %u task%s on %s  %s "
		    "%d:%d  %s  %s  %s", (unsigned long long)r[i].job,
		    r[i].step, r[i].ntasks, r[i].ntasks == 1 ? "" : "s",
		    r[i].nodes != NULL ? r[i].nodes : "-", r[i].state,
		    r[i].exit_code, r[i].signal, when, took, r[i].command);
		gq_print_line(NULL, line);
	}
	step_rows_free(r, n);
	json_decref(reply);
}

/* qsort() has no argument for it: the listing being sorted. */
static const struct gq	*gq_sorting;

static int
gq_sort_cmp(const void *pa, const void *pb)
{
	const struct gq_sorted	*a = pa, *b = pb;
	int			 i, r;

	for (i = 0; i < gq_sorting->nsort; i++) {
		r = job_row_compare(&a->row, &b->row, gq_sorting->sort_keys[i]);
		if (r != 0)
			return (gq_sorting->sort_desc[i] ? -r : r);
	}
	return ((a->i > b->i) - (a->i < b->i));
}

/* Adds row, or with -r each task of an array's row as a row of its own
 * (job_row_cols take the task as ctx). */
static void
gq_add(struct table *t, const struct job_row *row, const struct gq *gq)
{
	struct array_set	 a;
	uint32_t		 task;
	bool			 more;

	if (!gq->unfold || job_row_tasks(row, &a) != 0) {
		table_add(t, row, NULL);
		return;
	}
	for (more = array_next(&a, 0, true, &task); more;
	    more = array_next(&a, task, false, &task))
		table_add(t, row, &task);
	array_free(&a);
}

/* A listing in the controller's order arrives in frames; its first
 * GQ_WINDOW rows size the columns, then each row prints as it comes. */
#define GQ_WINDOW	5000

struct gq_stream {
	const struct gq	*gq;
	struct table	*t;
	bool		 flushed;
};

static void
gq_stream_row(const struct job_row *row, void *arg)
{
	struct gq_stream	*s = arg;

	gq_add(s->t, row, s->gq);
	if (!s->flushed && table_nrows(s->t) >= GQ_WINDOW) {
		table_flush(s->t, stdout, !s->gq->noheader);
		s->flushed = true;
	}
}

static int
gq_table(struct model *m, struct gq *gq, struct table *t)
{
	struct gq_stream	 s = { NULL, NULL, false };
	struct gq_sorted	*sorted = NULL;
	json_t			*fields;
	size_t			 i, nsorted = 0;
	int			 r, nmissing;

	if (gq->long_id == 0 && gq->nsort == 0) {
		s.gq = gq;
		s.t = t;
		fields = gq_fields(gq, t);
		r = model_stream_jobs(m, fields, gq_stream_row, &s);
		json_decref(fields);
		if (r != 0) {
			fflush(stdout);
			fprintf(stderr, "gq: %s\n", m->err);
			return (r);
		}
		table_flush(t, stdout, !gq->noheader);
		return (gq_missing(&m->jobs.missing) > 0 ? EXIT_REFUSED :
		    EXIT_OK);
	}
	/* gq -l shows every member, so it asks for all of them; a sorted
	 * listing needs every row before the first prints. */
	fields = gq->long_id != 0 ? NULL : gq_fields(gq, t);
	r = model_refresh_jobs(m, fields);
	json_decref(fields);
	if (r != 0) {
		fprintf(stderr, "gq: %s\n", m->err);
		return (r);
	}
	for (i = 0; i < m->jobs.n; i++) {
		if (gq->long_id != 0) {
			gq_print_long(&m->jobs.rows[i]);
			gq_print_steps(m, gq->long_id);
			break;
		}
		if (gq->nsort == 0) {
			gq_add(t, &m->jobs.rows[i], gq);
			continue;
		}
		/* Rows point into the reply, which the model keeps. */
		sorted = xreallocarray(sorted, nsorted + 1, sizeof *sorted);
		sorted[nsorted].row = m->jobs.rows[i];
		sorted[nsorted].i = nsorted;
		nsorted++;
	}
	if (nsorted > 0) {
		gq_sorting = gq;
		qsort(sorted, nsorted, sizeof *sorted, gq_sort_cmp);
		for (i = 0; i < nsorted; i++)
			gq_add(t, &sorted[i].row, gq);
	}
	free(sorted);
	if (gq->long_id == 0)
		table_print(t, stdout, !gq->noheader);
	nmissing = gq_missing(&m->jobs.missing);
	if (gq->long_id != 0 && m->jobs.n == 0 && nmissing == 0) {
		fprintf(stderr, "gq: job %llu: not found\n",
		    (unsigned long long)gq->long_id);
		return (EXIT_REFUSED);
	}
	return (nmissing > 0 ? EXIT_REFUSED : EXIT_OK);
}

/* gq --json: the reply as one JSON document, as jansson's JSON_INDENT(2)
 * prints it, written a job at a time as the listing streams in. */
struct gq_json {
	struct jpretty	 p;
	const struct model *m;
	size_t		 n;
	bool		 bad;
};

static void
gq_json_head(struct gq_json *j)
{
	char	head[128];

	snprintf(head, sizeof head, "{\n  \"re\": %d,\n  \"ok\": true,\n"
	    "  \"now\": %lld,\n  \"jobs\": [", MSG_JOB_LIST, j->m->jobs.now);
	jpretty_raw(&j->p, head, strlen(head));
}

static void
gq_json_row(const struct job_row *row, void *arg)
{
	struct gq_json	*j = arg;

	if (j->n++ == 0)
		gq_json_head(j);
	else
		jpretty_raw(&j->p, ",", 1);
	jpretty_newline(&j->p, 2, 2);
	if (jpretty_value(&j->p, row->obj.p, row->obj.n, 2, 2) == -1)
		j->bad = true;
	jpretty_flush(&j->p, 0);
}

static int
gq_json(struct model *m)
{
	struct gq_json		 j;
	struct jscan_val	 v;
	const char		*tail;
	size_t			 pos;
	int			 r;

	memset(&j, 0, sizeof j);
	jpretty_init(&j.p, stdout);
	j.m = m;
	r = model_stream_jobs(m, NULL, gq_json_row, &j);
	if (r == 0 && j.bad) {
		snprintf(m->err, sizeof m->err, "bad reply from gbatchd: a job "
		    "that is not JSON");
		r = EXIT_UNREACHABLE;
	}
	if (r != 0) {
		jpretty_end(&j.p);
		fflush(stdout);
		fprintf(stderr, "gq: %s\n", m->err);
		return (r);
	}
	if (j.n == 0) {
		gq_json_head(&j);
		tail = "],\n  \"missing\": ";
	} else
		tail = "\n  ],\n  \"missing\": ";
	jpretty_raw(&j.p, tail, strlen(tail));
	if (m->jobs.missing.type == JSCAN_NONE)
		jpretty_raw(&j.p, "[]", 2);
	else
		(void)jpretty_value(&j.p, m->jobs.missing.p,
		    m->jobs.missing.n, 2, 1);
	jpretty_raw(&j.p, "\n}\n", 3);
	jpretty_end(&j.p);
	/* The ids not found are in the document: the status says so. */
	pos = 0;
	return (jscan_element(&m->jobs.missing, &pos, &v) == 1 ?
	    EXIT_REFUSED : EXIT_OK);
}

static void
gq_notice(const char *msg)
{
	fprintf(stderr, "gq: %s; still waiting\n", msg);
}

/* --wait: until every job of ids has ended. Says how each ended that did
 * not complete; the status is the first such job's. */
static int
gq_wait(const json_t *ids, unsigned timeout)
{
	struct job_wait_end	*ends;
	uint64_t		*v;
	char			 err[1024], why[512], safe[1024];
	size_t			 n = json_array_size(ids), i;
	int			 r, s;

	v = xcalloc(n, sizeof *v);
	ends = xcalloc(n, sizeof *ends);
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)json_integer_value(json_array_get(ids, i));
	if ((r = job_wait(v, n, timeout, gq_notice, ends, err,
	    sizeof err)) != 0)
		fprintf(stderr, "gq: --wait: %s\n", err);
	for (i = 0; i < n && r != EXIT_REFUSED && ends[i].id != 0; i++) {
		if ((s = job_wait_status(&ends[i], why, sizeof why)) == 0)
			continue;
		fprintf(stderr, "gq: %s\n", safe_text_str(why, safe,
		    sizeof safe));
		if (r == 0)
			r = s;
	}
	free(v);
	free(ends);
	return (r);
}

int
main(int argc, char **argv)
{
	struct gq	 gq;
	struct model	 m;
	struct table	*t;
	char		 err[1024], serr[768];
	unsigned	 timeout;
	bool		 wait = false;
	int		 ch, r = EXIT_USAGE;
	size_t		 i;

	memset(&gq, 0, sizeof gq);
	model_init(&m, CMD_TIMEOUT_DEFAULT);
	gq.filter = &m.filter;
	t = table_create(job_row_cols, job_row_ncols, JOB_ROW_DEFAULT);
	table_set_span(t, job_row_span);
	while ((ch = cmd_getopt(&gq_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'u':
			if (cmd_split(optarg, "--user", gq_add_user, &gq, err,
			    sizeof err) == -1)
				goto usage;
			break;
		case GQ_OPT_ME:
			job_filter_add_me(gq.filter);
			break;
		case 't':
			if (cmd_split(optarg, "--states", gq_add_state, &gq,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'j':
			if (gq.filter->ids == NULL)
				gq.filter->ids = json_array();
			if (cmd_split(optarg, "--jobs", cmd_add_job,
			    gq.filter->ids, err, sizeof err) == -1)
				goto usage;
			break;
		case 'p':
			if (!label_list_ok(optarg)) {
				snprintf(err, sizeof err, "--partition: expected "
				    "partition names joined by ',', got \"%s\"",
				    optarg);
				goto usage;
			}
			job_filter_set_partitions(gq.filter, optarg);
			break;
		case 'o':
			if (table_select(t, optarg, serr, sizeof serr) == -1) {
				snprintf(err, sizeof err, "--format: %s", serr);
				goto usage;
			}
			gq.format = optarg;
			break;
		case 'h':
			gq.noheader = true;
			break;
		case 'r':
			gq.unfold = true;
			break;
		case GQ_OPT_JSON:
			gq.json = true;
			break;
		case GQ_OPT_WAIT:
			wait = true;
			break;
		case 'l':
			if (cmd_parse_id(optarg, &gq.long_id, serr,
			    sizeof serr) == -1) {
				snprintf(err, sizeof err, "--long: %s", serr);
				goto usage;
			}
			break;
		case 'S':
			gq.nsort = 0;
			if (cmd_split(optarg, "--sort", gq_add_sort, &gq, err,
			    sizeof err) == -1)
				goto usage;
			break;
		case CMD_OPT_TIMEOUT:
			gq.timeout = optarg;
			break;
		}
	}
	/* gq --wait 42 43: the ids as arguments, or with -j. */
	for (; wait && optind < argc; optind++) {
		if (gq.filter->ids == NULL)
			gq.filter->ids = json_array();
		if (cmd_split(argv[optind], "--wait", cmd_add_id,
		    gq.filter->ids, err, sizeof err) == -1)
			goto usage;
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument \"%s\"; gq takes "
		    "options only (jobs with -j ID)", argv[optind]);
		goto usage;
	}
	if (cmd_timeout(gq.timeout, &timeout, err, sizeof err) == -1)
		goto usage;
	if (wait) {
		if (json_array_size(gq.filter->ids) == 0) {
			snprintf(err, sizeof err, "--wait: which jobs? expected "
			    "job ids: gq --wait ID...");
			goto usage;
		}
		for (i = 0; i < json_array_size(gq.filter->ids); i++) {
			if (!json_is_integer(json_array_get(gq.filter->ids,
			    i))) {
				snprintf(err, sizeof err, "--wait takes job ids "
				    "(an array's: all its tasks), not \"%s\"",
				    json_string_value(json_array_get(
				    gq.filter->ids, i)));
				goto usage;
			}
		}
		r = gq_wait(gq.filter->ids, timeout);
		goto out;
	}
	/* Pending and running jobs come as submitted; once finished ones
	 * are listed too, submit time (newest last) keeps a history in
	 * order rather than grouped by how each ended. */
	if (gq.nsort == 0 && job_filter_finished(gq.filter)) {
		(void)gq_add_sort("submit_time", &gq, err, sizeof err);
		(void)gq_add_sort("id", &gq, err, sizeof err);
	}
	if (gq.long_id != 0) {
		if (json_array_size(gq.filter->ids) > 0 || gq.json) {
			snprintf(err, sizeof err, "--long shows one job; it "
			    "cannot be combined with --jobs or --json");
			goto usage;
		}
		job_filter_add_id(gq.filter, gq.long_id);
	}

	/* The listing goes out in large writes: at 10,000 jobs a line
	 * buffer would mean 10,000 system calls. */
	cmd_stdout_buffer();
	model_set_timeout(&m, timeout);
	r = gq.json ? gq_json(&m) : gq_table(&m, &gq, t);
	if (fflush(stdout) == EOF && r == EXIT_OK) {
		perror("gq: stdout");
		r = EXIT_USAGE;
	}
	goto out;

usage:
	r = cmd_usage_error(&gq_cmd, "%s", err);
out:
	model_free(&m);
	table_free(t);
	return (r);
}
