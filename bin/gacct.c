/* gacct: accounting over finished jobs, as sacct. Cron jobs and admins read
 * it, so its output is stable and parsable: -P (pipe-separated), --csv
 * (RFC 4180), --json, or columns on a terminal and TABs otherwise. Jobs come
 * from gbatchd's JOB_ACCT reply, streamed in frames, and are printed as
 * they arrive, so a million jobs cost no memory here. */
#include <sys/types.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bin/gacct-report.h"
#include "client/acct-row.h"
#include "client/client.h"
#include "client/job-row.h"
#include "client/jscan.h"
#include "client/table.h"
#include "client/when.h"
#include "common/cmd.h"
#include "common/label.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

#define GACCT_DEFAULT \
	"id,user,name,state,gpus,submit_time,first_start,end_time,run_time," \
	"queue_delay,jct,gpu_hours,exit"

enum {
	GACCT_OPT_ME = 0x100,
	GACCT_OPT_CSV,
	GACCT_OPT_JSON,
	GACCT_OPT_TRACE,
	GACCT_OPT_REPORT,
	GACCT_OPT_BINS,
	GACCT_OPT_HELP,
};

/* --report timeline's bins by default, and at most (gbatchd's limit). */
#define GACCT_BINS	24
#define GACCT_MAX_BINS	1000

static const struct option gacct_longopts[] = {
	{ "starttime", required_argument, NULL, 'S' },
	{ "endtime", required_argument, NULL, 'E' },
	{ "user", required_argument, NULL, 'u' },
	{ "me", no_argument, NULL, GACCT_OPT_ME },
	{ "state", required_argument, NULL, 's' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "accounts", required_argument, NULL, 'A' },
	{ "partition", required_argument, NULL, 'r' },
	{ "account", required_argument, NULL, 'A' },
	{ "format", required_argument, NULL, 'o' },
	{ "noheader", no_argument, NULL, 'n' },
	{ "parsable", no_argument, NULL, 'P' },
	{ "csv", no_argument, NULL, GACCT_OPT_CSV },
	{ "json", no_argument, NULL, GACCT_OPT_JSON },
	{ "trace", no_argument, NULL, GACCT_OPT_TRACE },
	{ "report", required_argument, NULL, GACCT_OPT_REPORT },
	{ "bins", required_argument, NULL, GACCT_OPT_BINS },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, GACCT_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

enum gacct_out {
	GACCT_TABLE,
	GACCT_JSON,
	GACCT_TRACE,
};

struct gacct {
	json_t		*req;
	json_t		*users;
	bool		 me;		/* --me: resolved once connected */
	json_t		*states;
	json_t		*ids;
	json_t		*accounts;
	json_t		*partitions;
	enum gacct_out	 out;
	enum table_format format;
	bool		 format_set;
	/* -o given: --json writes the members of those columns alone. */
	bool		 columns_set;
	/* --json: each record gets gpu_hours and gpu_seconds beside its
	 * attained service (GPU-seconds). */
	bool		 json_gpu;
	bool		 noheader;
	int		 report;	/* gacct-report.h's kind, -1: none */
	long		 bins;		/* --bins, 0: not given */
	/* --trace: the lines wait until the earliest submit time is known
	 * (jobs come by end time), which becomes time 0. */
	struct gacct_trace {
		int64_t	 submit;
		char	*rest;		/* ",GPUS,DURATION,NAME,USER" */
	}		*trace;
	size_t		 trace_size;
	int64_t		 trace_t0;
	size_t		 count;
};

static void
gacct_usage(FILE *f)
{
	char	*fields = table_field_names(job_row_cols, job_row_ncols);
	char	*users = acct_row_fields(0), *cluster = acct_row_fields(1);
	char	*nodes = acct_row_fields(2);
	char	*timeline = acct_row_fields(ACCT_ROW_TIMELINE);
	char	*accounts = acct_row_fields(ACCT_ROW_ACCOUNTS);
	char	*partitions = acct_row_fields(ACCT_ROW_PARTITIONS);
	char	*qos = acct_row_fields(ACCT_ROW_QOS);
	char	*fairshare = acct_row_fields(ACCT_ROW_FAIRSHARE);

	fprintf(f,
"usage: gacct [options]\n"
"List finished jobs with what they cost and how long they took (as sacct).\n"
"Jobs are selected by end time, START <= end < END, and sorted by it.\n"
"\n"
"  -S, --starttime TIME      from TIME (default: midnight today)\n"
"  -E, --endtime TIME        until TIME (default: now)\n"
"                            TIME: YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS],\n"
"                            HH:MM[:SS] (the last one), now, now-7days\n"
"                            (seconds, minutes, hours, days, weeks), midnight,\n"
"                            today, yesterday, noon, @EPOCH\n"
"  -u, --user USER[,USER]    these users' jobs (operators; users see their\n"
"                            own)\n"
"      --me                  only my jobs\n"
"  -s, --state STATE[,...]   only jobs that ended so: COMPLETED (CD),\n"
"                            FAILED (F), TIMEOUT (TO), CANCELLED (CA),\n"
"                            NODE_FAIL (NF), OUT_OF_MEMORY (OOM)\n"
"  -j, --jobs ID[,ID]        these jobs (any end time unless -S or -E); an\n"
"                            array's ID: every task; ID_TASK: that task\n"
"  -A, --accounts ACCOUNT[,ACCOUNT]  jobs charged to these accounts (gsub\n"
"                            -A)\n"
"  -r, --partition NAME[,NAME]  jobs that listed one of these partitions\n"
"                            (gsub -p; sacct's -r)\n"
"  -o, --format FIELD[:WIDTH][,...]  columns to print (default:\n"
"                            " GACCT_DEFAULT ")\n"
"  -n, --noheader            no header line\n"
"  -P, --parsable            fields separated by |, no trailing | (a | in a\n"
"                            field is written \\x7c, a backslash \\\\)\n"
"      --csv                 comma-separated values (RFC 4180)\n"
"      --json                the records as JSON, every member (with -o,\n"
"                            those fields'), and gpu_hours, gpu_seconds\n"
"      --trace               the jobs as a gsim trace (CSV: submit_time,\n"
"                            num_gpus, duration, name, user, account,\n"
"                            partition, time_limit, qos)\n"
"      --report REPORT       figures over the range instead of jobs:\n"
"                            users (per user; -u, -s apply), cluster (GPU\n"
"                            use, jobs per queue, GPU count and JCT range;\n"
"                            -s applies), nodes (per node), timeline\n"
"                            (the range in bins: GPU use, jobs running,\n"
"                            waiting and ended), accounts (per account,\n"
"                            with this month's budget and use; -A, -s\n"
"                            apply), partitions (per partition; -r, -s\n"
"                            apply) or qos (per QOS, with its usage\n"
"                            factor; -s applies); or fairshare: each\n"
"                            account's and user's fair-share standing now\n"
"                            (gbatch.conf's scheduler.fairshare; no range);\n"
"                            GPU-hours come as run\n"
"                            and charged (x each run's QOS's usage\n"
"                            factor); -o picks their fields, gacct(1)\n"
"                            defines them\n"
"      --bins N              --report timeline's bins, 1 to 1000 (default\n"
"                            24): the range cut into N equal parts\n"
"      --timeout SECONDS     how long to wait for gbatchd (default 10, or\n"
"                            GBATCH_TIMEOUT; 0 waits for ever)\n"
"      --help                this help\n"
"  -V, --version             print the version\n"
"\n"
"Fields: %s\n"
"Report fields: users: %s\n"
"  cluster: %s\n"
"  nodes: %s\n"
"  timeline: %s\n"
"  accounts: %s\n"
"  partitions: %s\n"
"  qos: %s\n"
"  fairshare: %s\n"
"\n"
"Exit status: 0 ok (also when nothing matched), 1 refused by gbatchd\n"
"(such as an unknown user), 2 usage error, 3 cannot reach gbatchd,\n"
"4 permission denied.\n", fields,
	    users, cluster, nodes, timeline, accounts, partitions, qos,
	    fairshare);
	free(fairshare);
	free(accounts);
	free(partitions);
	free(qos);
	free(timeline);
	free(fields);
	free(users);
	free(cluster);
	free(nodes);
}

static const struct cmd gacct_cmd = {
	.name = "gacct",
	.usage = gacct_usage,
	.shortopts = ":S:E:u:s:j:A:r:o:nPV",
	.longopts = gacct_longopts,
};

/* An account as gbatchd keeps them: 1 to 64 letters, digits, ., -, _. */
static int
gacct_add_account(const char *item, void *arg, char *err, size_t errlen)
{
	if (!label_ok(item)) {
		snprintf(err, errlen, "--accounts: expected account names of 1 "
		    "to 64 letters, digits, '.', '-' or '_', got \"%s\"", item);
		return (-1);
	}
	json_array_append_new(arg, json_string(item));
	return (0);
}

/* A partition's name, a label too. */
static int
gacct_add_partition(const char *item, void *arg, char *err, size_t errlen)
{
	if (!label_ok(item)) {
		snprintf(err, errlen, "--partition: expected partition names of "
		    "1 to 64 letters, digits, '.', '-' or '_', got \"%s\"",
		    item);
		return (-1);
	}
	json_array_append_new(arg, json_string(item));
	return (0);
}

/* A user by name: gbatchd says whether there is one. */
static int
gacct_add_user(const char *item, void *arg, char *err, size_t errlen)
{
	struct gacct	*g = arg;

	if (*item == '\0') {
		snprintf(err, errlen, "--user: an empty user name");
		return (-1);
	}
	json_array_append_new(g->users, json_string(item));
	return (0);
}

static int
gacct_add_state(const char *item, void *arg, char *err, size_t errlen)
{
	struct gacct	*g = arg;
	enum job_state	 s;

	if (job_state_parse(item, &s) == -1 || !job_state_is_terminal(s)) {
		snprintf(err, errlen, "--state: \"%s\" is not a finished state;"
		    " accepted: COMPLETED (CD), FAILED (F), TIMEOUT (TO), "
		    "CANCELLED (CA), NODE_FAIL (NF), OUT_OF_MEMORY (OOM)", item);
		return (-1);
	}
	json_array_append_new(g->states, json_string(job_state_name(s)));
	return (0);
}

static int
gacct_time(const char *opt, const char *arg, time_t now, const char *key,
    struct gacct *g, time_t *t, char *err, size_t errlen)
{
	char	e[512];

	if (when_parse(arg, now, t, e, sizeof e) == -1) {
		snprintf(err, errlen, "%s: %s", opt, e);
		return (-1);
	}
	json_object_set_new(g->req, key, json_integer((json_int_t)*t));
	return (0);
}

/* Appends a CSV field for the trace to buf, quoted when it must be. */
static size_t
gacct_trace_field(char *buf, size_t n, size_t len, const char *s)
{
	const char	*p;

	if (strpbrk(s, ",\"\r\n") == NULL)
		return (n + (size_t)snprintf(buf + n, len > n ? len - n : 0,
		    ",%s", s));
	if (n + 3 < len) {
		buf[n++] = ',';
		buf[n++] = '"';
	}
	for (p = s; *p != '\0' && n + 3 < len; p++) {
		if (*p == '"')
			buf[n++] = '"';
		buf[n++] = *p;
	}
	if (n + 1 < len)
		buf[n++] = '"';
	buf[n] = '\0';
	return (n);
}

/* One job as a trace line: it arrived at submit_time and ran run_time
 * seconds on num_gpus. A job that never ran gives the simulator nothing to
 * replay. */
static void
gacct_trace_job(struct gacct *g, const struct job_row *row)
{
	long long	submit, gpus, run, limit;
	char		name[1024], user[256], account[256], part[1100];
	char		qos[256];
	char		line[4000];
	size_t		n;

	if (jscan_int(&row->v[JF_SUBMIT_TIME], &submit) == -1 ||
	    jscan_int(&row->v[JF_GPUS], &gpus) == -1 ||
	    jscan_int(&row->v[JF_RUN_TOTAL], &run) == -1 || run <= 0 ||
	    gpus <= 0)
		return;
	jscan_string(&row->v[JF_NAME], name, sizeof name);
	jscan_string(&row->v[JF_USER], user, sizeof user);
	jscan_string(&row->v[JF_ACCOUNT], account, sizeof account);
	jscan_string(&row->v[JF_PARTITION], part, sizeof part);
	jscan_string(&row->v[JF_QOS], qos, sizeof qos);
	if (jscan_int(&row->v[JF_TIME_LIMIT], &limit) == -1)
		limit = 0;
	n = (size_t)snprintf(line, sizeof line, ",%lld,%lld", gpus, run);
	n = gacct_trace_field(line, n, sizeof line, name);
	n = gacct_trace_field(line, n, sizeof line, user);
	n = gacct_trace_field(line, n, sizeof line, account);
	n = gacct_trace_field(line, n, sizeof line, part);
	if (n < sizeof line)
		n += (size_t)snprintf(line + n, sizeof line - n, ",%lld", limit);
	n = gacct_trace_field(line, n, sizeof line, qos);
	if (g->count == g->trace_size) {
		g->trace_size = g->trace_size != 0 ? g->trace_size * 2 : 1024;
		g->trace = xreallocarray(g->trace, g->trace_size,
		    sizeof *g->trace);
	}
	if (g->count == 0 || submit < g->trace_t0)
		g->trace_t0 = submit;
	g->trace[g->count].submit = submit;
	g->trace[g->count++].rest = xstrdup(line);
}

static int
gacct_trace_cmp(const void *a, const void *b)
{
	const struct gacct_trace *x = a, *y = b;

	return ((x->submit > y->submit) - (x->submit < y->submit));
}

/* Prints the trace, submit times from the earliest, in submit order. */
static void
gacct_trace_end(struct gacct *g)
{
	size_t	i;

	qsort(g->trace, g->count, sizeof *g->trace, gacct_trace_cmp);
	puts("submit_time,num_gpus,duration,name,user,account,partition,"
	    "time_limit,qos");
	for (i = 0; i < g->count; i++) {
		printf("%" PRId64 "%s\n", g->trace[i].submit - g->trace_t0,
		    g->trace[i].rest);
		free(g->trace[i].rest);
	}
	free(g->trace);
}

/* Asks for the members the output reads, and each job's runs only when
 * it shows them: over a year of jobs, every member of every job and a
 * query of its runs would cost the controller and gacct most of the time.
 * --json writes every member, runs included, or with -o the members of
 * those columns. */
static void
gacct_fields(struct gacct *g, const struct table *t)
{
	static const int trace[] = { JF_SUBMIT_TIME, JF_GPUS, JF_RUN_TOTAL,
	    JF_NAME, JF_USER, JF_ACCOUNT, JF_PARTITION, JF_TIME_LIMIT, JF_QOS };
	json_t		*fields;
	const char	*col;
	bool		 runs = false;
	size_t		 i;

	if (g->out == GACCT_JSON && !g->columns_set) {
		json_object_set_new(g->req, "runs", json_true());
		g->json_gpu = true;
		return;
	}
	fields = json_array();
	if (g->out == GACCT_TRACE) {
		for (i = 0; i < sizeof trace / sizeof trace[0]; i++)
			json_array_append_new(fields, json_string(
			    job_fields[trace[i]].wire));
	} else {
		for (i = 0; i < table_nselected(t); i++) {
			col = table_selected(t, i)->name;
			runs = runs || strcmp(col, "runs") == 0;
			g->json_gpu = g->json_gpu || strcmp(col, "gpu_hours") ==
			    0 || strcmp(col, "gpu_seconds") == 0;
			job_row_wire_fields(col, fields);
		}
	}
	json_object_set_new(g->req, "fields", fields);
	if (runs)
		json_object_set_new(g->req, "runs", json_true());
}

/* One job's record for --json: the controller's JSON, C1 controls and
 * DEL in its strings escaped as every other view escapes them; and its
 * attained service as billing reads it, in GPU-hours (six decimals: a
 * short job never reads 0) and whole GPU-seconds. */
static void
gacct_json_job(const struct gacct *g, const struct job_row *row)
{
	const char	*p = row->obj.p;
	size_t		 n = row->obj.n;
	long long	 t;
	char		 hours[32];

	if (!g->json_gpu || n < 3 || p[n - 1] != '}' ||
	    *job_row_gpu_hours_exact(row, hours, sizeof hours) == '\0' ||
	    jscan_int(&row->v[JF_ATTAINED], &t) == -1) {
		safe_text_json_fwrite(p, n, stdout);
		return;
	}
	safe_text_json_fwrite(p, n - 1, stdout);
	printf(",\"gpu_hours\":%s,\"gpu_seconds\":%lld}", hours, t);
}

/* One job of a reply, printed as asked. */
static void
gacct_job(struct gacct *g, struct table *t, const struct job_row *row)
{
	switch (g->out) {
	case GACCT_TABLE:
		table_add(t, row, NULL);
		g->count++;
		break;
	case GACCT_JSON:
		printf("%s\n", g->count++ == 0 ? "" : ",");
		gacct_json_job(g, row);
		break;
	case GACCT_TRACE:
		gacct_trace_job(g, row);
		break;
	}
}

/* Walks one reply frame's jobs, each byte once: the jobs array and each
 * job are walked where they lie (jscan_member_lazy), not measured first.
 * Returns 1 when more frames follow, 0 at the last, -1 on a malformed
 * frame. */
static int
gacct_frame(struct gacct *g, struct table *t, const char *body, size_t len)
{
	struct jscan_val	 top, key, v, job;
	struct job_row		 row;
	size_t			 pos = 0, jpos;
	int			 more = 0, seen = 0, r, e;

	if (jscan_open(body, len, &top) == -1)
		return (-1);
	while ((r = jscan_member_lazy(&top, &pos, &key, &v)) == 1) {
		if (jscan_key_is(&key, "more"))
			more = jscan_true(&v) ? 1 : 0;
		if (!jscan_key_is(&key, "jobs") || v.type != JSCAN_ARRAY) {
			if (jscan_resume(&top, &pos, &v) == -1)
				return (-1);
			continue;
		}
		seen = 1;
		jpos = 0;
		while ((e = jscan_element_lazy(&v, &jpos, &job)) == 1) {
			if (job.type != JSCAN_OBJECT ||
			    job_row_scan(&job, &row) == -1 ||
			    jscan_resume(&v, &jpos, &row.obj) == -1)
				return (-1);
			gacct_job(g, t, &row);
		}
		if (e == -1)
			return (-1);
		jscan_close(&v, jpos);
		if (jscan_resume(&top, &pos, &v) == -1)
			return (-1);
	}
	if (r == -1 || !seen)
		return (-1);
	return (more);
}

static int
gacct_run(struct gacct *g, struct client *c, struct table *t)
{
	char	*body, err[1024];
	size_t	 len;
	int	 r, more;

	if (g->out == GACCT_JSON)
		fputs("{\"jobs\":[", stdout);
	else if (g->out != GACCT_TRACE) {
		table_set_format(t, g->format, stdout, !g->noheader);
		/* CSV is for spreadsheets: durations as seconds. */
		table_set_raw(t, job_row_raw);
	}
	r = client_call_raw(c, g->req, &body, &len, err, sizeof err);
	while (r == 0) {
		more = gacct_frame(g, t, body, len);
		free(body);
		if (more == -1) {
			snprintf(err, sizeof err, "bad reply from gbatchd: not "
			    "a list of jobs");
			r = EXIT_UNREACHABLE;
			break;
		}
		if (more == 0)
			break;
		r = client_next_raw(c, &body, &len, err, sizeof err);
	}
	if (r != 0) {
		fflush(stdout);
		fprintf(stderr, "gacct: %s\n", err);
		return (r);
	}
	if (g->out == GACCT_JSON)
		fputs("\n]}\n", stdout);
	else if (g->out == GACCT_TRACE)
		gacct_trace_end(g);
	else if (g->out == GACCT_TABLE && table_end(t) == -1) {
		fprintf(stderr, "gacct: stdout: %s\n", strerror(errno));
		return (EXIT_USAGE);
	}
	return (EXIT_OK);
}

/* What --report leaves out: jobs by id, a trace; users outside the users
 * report, accounts outside the accounts report, partitions outside the
 * partitions report (each picks its rows), states in the nodes report. */
static int
gacct_report_check(const struct gacct *g, char *err, size_t errlen)
{
	const char	*name = acct_row_name(g->report), *bad = NULL;

	if (json_array_size(g->ids) > 0)
		bad = "-j/--jobs";
	else if (g->report == ACCT_ROW_FAIRSHARE &&
	    json_array_size(g->states) > 0)
		bad = "-s";
	else if (json_array_size(g->accounts) > 0 &&
	    g->report != ACCT_ROW_ACCOUNTS)
		bad = "-A/--accounts";
	else if (json_array_size(g->partitions) > 0 &&
	    g->report != ACCT_ROW_PARTITIONS)
		bad = "-r/--partition";
	else if (g->out == GACCT_TRACE)
		bad = "--trace";
	else if ((json_array_size(g->users) > 0 || g->me) &&
	    strcmp(name, "users") != 0)
		bad = "-u/--user and --me";
	else if (json_array_size(g->states) > 0 && (g->report ==
	    ACCT_ROW_NODES || g->report == ACCT_ROW_TIMELINE))
		bad = "-s/--state";
	else if (g->bins != 0 && g->report != ACCT_ROW_TIMELINE)
		bad = "--bins";
	if (bad == NULL)
		return (0);
	snprintf(err, errlen, "--report %s: %s does not apply (users takes -u,"
	    " --me and -s; cluster -s; timeline --bins; accounts -A and -s;"
	    " partitions -r and -s; qos -s; all but fairshare -S and -E)",
	    name, bad);
	return (-1);
}

static int
gacct_report_run(struct gacct *g, struct client *c, struct table *t)
{
	json_t	*reply;
	char	 err[1024];
	int	 r;

	if ((r = client_call(c, g->req, &reply, err, sizeof err)) != 0) {
		fprintf(stderr, "gacct: %s\n", err);
		return (r);
	}
	if (g->out != GACCT_JSON)
		table_set_format(t, g->format, stdout, !g->noheader);
	if (g->report == ACCT_ROW_FAIRSHARE &&
	    json_is_null(json_object_get(reply, "fairshare"))) {
		fprintf(stderr, "gacct: --report fairshare: fair share is off "
		    "(gbatch.conf's scheduler.fairshare)\n");
		json_decref(reply);
		return (EXIT_REFUSED);
	}
	r = gacct_report_print(reply, g->report == ACCT_ROW_TIMELINE ?
	    "series" : g->report == ACCT_ROW_FAIRSHARE ? "fairshare" : "rows",
	    t, g->out == GACCT_JSON);
	json_decref(reply);
	if (r == -1)
		return (EXIT_UNREACHABLE);
	if (g->out != GACCT_JSON && table_end(t) == -1) {
		fprintf(stderr, "gacct: stdout: %s\n", strerror(errno));
		return (EXIT_USAGE);
	}
	return (EXIT_OK);
}

int
main(int argc, char **argv)
{
	struct gacct	 g;
	struct client	*c = NULL;
	struct table	*t;
	const char	*me = NULL;
	const char	*timeout_arg = NULL, *since = NULL, *until = NULL;
	const char	*format_arg = NULL;
	char		 err[1024], serr[768], *end;
	unsigned	 timeout;
	time_t		 now = time(NULL), since_t = 0, until_t = 0;
	int		 ch, r = EXIT_USAGE, nout = 0;

	memset(&g, 0, sizeof g);
	g.report = -1;
	g.req = json_pack("{s:i}", "type", MSG_JOB_ACCT);
	g.users = json_array();
	g.states = json_array();
	g.ids = json_array();
	g.accounts = json_array();
	g.partitions = json_array();
	t = table_create(job_row_cols, job_row_ncols, GACCT_DEFAULT);
	table_set_span(t, job_row_span);
	while ((ch = cmd_getopt(&gacct_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'S':
			since = optarg;
			break;
		case 'E':
			until = optarg;
			break;
		case 'u':
			if (cmd_split(optarg, "--user", gacct_add_user, &g, err,
			    sizeof err) == -1)
				goto usage;
			break;
		case GACCT_OPT_ME:
			g.me = true;
			break;
		case 's':
			if (cmd_split(optarg, "--state", gacct_add_state, &g,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'j':
			if (cmd_split(optarg, "--jobs", cmd_add_job, g.ids, err,
			    sizeof err) == -1)
				goto usage;
			break;
		case 'A':
			if (cmd_split(optarg, "--accounts", gacct_add_account,
			    g.accounts, err, sizeof err) == -1)
				goto usage;
			break;
		case 'r':
			if (cmd_split(optarg, "--partition", gacct_add_partition,
			    g.partitions, err, sizeof err) == -1)
				goto usage;
			break;
		case 'o':
			format_arg = optarg;
			break;
		case 'n':
			g.noheader = true;
			break;
		case 'P':
			g.format = TABLE_PARSABLE;
			g.format_set = true;
			nout++;
			break;
		case GACCT_OPT_CSV:
			g.format = TABLE_CSV;
			g.format_set = true;
			nout++;
			break;
		case GACCT_OPT_JSON:
			g.out = GACCT_JSON;
			nout++;
			break;
		case GACCT_OPT_TRACE:
			g.out = GACCT_TRACE;
			nout++;
			break;
		case GACCT_OPT_REPORT:
			if ((g.report = acct_row_parse(optarg, err,
			    sizeof err)) == -1)
				goto usage;
			break;
		case GACCT_OPT_BINS:
			errno = 0;
			g.bins = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    g.bins < 1 || g.bins > GACCT_MAX_BINS) {
				snprintf(err, sizeof err, "--bins: expected a "
				    "whole number from 1 to %d, got \"%s\"",
				    GACCT_MAX_BINS, optarg);
				goto usage;
			}
			break;
		case CMD_OPT_TIMEOUT:
			timeout_arg = optarg;
			break;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument \"%s\"; gacct "
		    "takes options only (jobs with -j ID)", argv[optind]);
		goto usage;
	}
	if (nout > 1) {
		snprintf(err, sizeof err, "choose one output: -P, --csv, --json "
		    "or --trace");
		goto usage;
	}
	if (cmd_timeout(timeout_arg, &timeout, err, sizeof err) == -1)
		goto usage;
	if (g.bins != 0 && g.report == -1) {
		snprintf(err, sizeof err, "--bins goes with --report timeline");
		goto usage;
	}
	if (g.report != -1 && gacct_report_check(&g, err, sizeof err) == -1)
		goto usage;
	if (g.report != -1) {
		table_free(t);
		t = acct_row_table(g.report, NULL);
	}
	g.columns_set = format_arg != NULL;
	if (format_arg != NULL && table_select(t, format_arg, serr,
	    sizeof serr) == -1) {
		snprintf(err, sizeof err, "--format: %s", serr);
		goto usage;
	}
	/* Fair share is the standing now, the accounts' and users' list. */
	if (g.report == ACCT_ROW_FAIRSHARE) {
		if (since != NULL || until != NULL) {
			snprintf(err, sizeof err, "--report fairshare: -S and "
			    "-E do not apply (it is the standing now)");
			goto usage;
		}
		json_decref(g.req);
		g.req = json_pack("{s:i}", "type", MSG_ASSOC_LIST);
	}
	/* Jobs asked by id are found whatever their end time, unless a
	 * window is given too; otherwise the window is today so far. */
	if (since == NULL && until == NULL && json_array_size(g.ids) == 0 &&
	    g.report != ACCT_ROW_FAIRSHARE)
		since = "midnight";
	if ((since != NULL && gacct_time("--starttime", since, now, "since",
	    &g, &since_t, err, sizeof err) == -1) || (until != NULL &&
	    gacct_time("--endtime", until, now, "until", &g, &until_t, err,
	    sizeof err) == -1))
		goto usage;
	if (since != NULL && until != NULL && since_t > until_t) {
		snprintf(err, sizeof err, "--starttime %s is after --endtime %s",
		    since, until);
		goto usage;
	}
	if (json_array_size(g.states) > 0)
		json_object_set(g.req, "states", g.states);
	if (json_array_size(g.ids) > 0)
		json_object_set(g.req, "ids", g.ids);
	if (json_array_size(g.accounts) > 0)
		json_object_set(g.req, "accounts", g.accounts);
	if (json_array_size(g.partitions) > 0)
		json_object_set(g.req, "partitions", g.partitions);
	/* A timeline is the series of a cluster report. */
	if (g.report == ACCT_ROW_TIMELINE) {
		json_object_set_new(g.req, "report", json_string("cluster"));
		json_object_set_new(g.req, "bins", json_integer(g.bins != 0 ?
		    g.bins : GACCT_BINS));
	} else if (g.report != -1 && g.report != ACCT_ROW_FAIRSHARE)
		json_object_set_new(g.req, "report", json_string(
		    acct_row_name(g.report)));
	else
		gacct_fields(&g, t);
	/* Columns on a terminal; for a pipe or a file, TABs without
	 * padding, unless a format was asked for. */
	if (!g.format_set)
		g.format = isatty(STDOUT_FILENO) ? TABLE_ALIGNED : TABLE_PLAIN;

	cmd_stdout_buffer();
	if ((r = client_open(timeout, &c, err, sizeof err)) != 0 ||
	    (g.me && (r = client_whoami(c, &me, err, sizeof err)) != 0)) {
		fprintf(stderr, "gacct: %s\n", err);
		goto out;
	}
	if (g.me)
		json_array_append_new(g.users, json_string(me));
	if (json_array_size(g.users) > 0)
		json_object_set(g.req, "users", g.users);
	r = g.report != -1 ? gacct_report_run(&g, c, t) : gacct_run(&g, c, t);
	if (fflush(stdout) == EOF && r == EXIT_OK) {
		perror("gacct: stdout");
		r = EXIT_USAGE;
	}
	goto out;

usage:
	r = cmd_usage_error(&gacct_cmd, "%s", err);
out:
	client_free(c);
	table_free(t);
	json_decref(g.req);
	json_decref(g.users);
	json_decref(g.states);
	json_decref(g.ids);
	json_decref(g.accounts);
	json_decref(g.partitions);
	return (r);
}
