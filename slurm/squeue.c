/* squeue (slurm-compat): the queue as Slurm's squeue prints it, for the
 * scripts and workflow engines that read it: -h, -j, -u, -t, -n, -p, --me,
 * -o with Slurm's field codes and widths, --json. gbatch's own view is
 * gq. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/model.h"
#include "client/slurm-part.h"
#include "common/array.h"
#include "common/cmd.h"
#include "common/hostlist.h"
#include "common/job-req.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "slurm/slurm-fmt.h"

#define SQUEUE_DEFAULT	"%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"
#define SQUEUE_ITEMS	64
#define SQUEUE_FIELDS	"iAjuaPqvQytTMlLDNrRbCSVeE"
/* -l's and --start's columns, as Slurm's. */
#define SQUEUE_LONG	"%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R"
#define SQUEUE_START	"%.18i %.9P %.8j %.8u %.2t %.19S %.6D %R"

/* -O/--Format's names of the fields, as Slurm's. */
static const struct slurm_long_field squeue_long_fields[] = {
	{ "JobID", 'i' }, { "JobArrayID", 'i' }, { "ArrayJobID", 'A' },
	{ "Name", 'j' }, { "UserName", 'u' }, { "Account", 'a' },
	{ "Partition", 'P' }, { "QOS", 'q' }, { "Reservation", 'v' },
	{ "StateCompact", 't' },
	{ "Priority", 'Q' }, { "Nice", 'y' },
	{ "State", 'T' }, { "TimeUsed", 'M' }, { "TimeLimit", 'l' },
	{ "TimeLeft", 'L' }, { "NumNodes", 'D' }, { "NodeList", 'N' },
	{ "Reason", 'r' }, { "ReasonList", 'R' }, { "tres-per-node", 'b' },
	{ "NumCPUs", 'C' }, { "StartTime", 'S' }, { "SubmitTime", 'V' },
	{ "EndTime", 'e' }, { "Dependency", 'E' },
};

enum {
	SQUEUE_OPT_JSON = 256,
	SQUEUE_OPT_ME,
	SQUEUE_OPT_HELP,
	SQUEUE_OPT_START,
};

static const struct option squeue_longopts[] = {
	{ "noheader", no_argument, NULL, 'h' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "user", required_argument, NULL, 'u' },
	{ "states", required_argument, NULL, 't' },
	{ "state", required_argument, NULL, 't' },
	{ "name", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'o' },
	{ "Format", required_argument, NULL, 'O' },
	{ "long", no_argument, NULL, 'l' },
	{ "start", no_argument, NULL, SQUEUE_OPT_START },
	{ "all", no_argument, NULL, 'a' },
	{ "partition", required_argument, NULL, 'p' },
	{ "nodelist", required_argument, NULL, 'w' },
	{ "account", required_argument, NULL, 'A' },
	{ "array", no_argument, NULL, 'r' },
	{ "json", no_argument, NULL, SQUEUE_OPT_JSON },
	{ "me", no_argument, NULL, SQUEUE_OPT_ME },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, SQUEUE_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static void
squeue_usage(FILE *f)
{
	fprintf(f,
"usage: squeue [options]\n"
"gbatch's queue as Slurm's squeue prints it (slurm-compat; gq is gbatch's\n"
"own). Pending and running jobs unless -t or -j says otherwise.\n"
"\n"
"  -h, --noheader         no header line\n"
"  -j, --jobs ID[,ID]     these jobs, whatever their state\n"
"  -u, --user USER[,USER] these users' jobs\n"
"      --me               my jobs\n"
"  -t, --states STATE[,STATE]  PD, R, CD, F, CA, TO, NF (or the names),\n"
"                         or all\n"
"  -n, --name NAME[,NAME] jobs of these names\n"
"  -w, --nodelist NODES   jobs on these nodes (n1,n2 or n[1-2])\n"
"  -A, --account ACCOUNT[,ACCOUNT]  jobs charged to these accounts\n"
"  -r, --array            a job array's waiting tasks one per line\n"
"                         (default: one line, 42_[7-99%%8])\n"
"  -o, --format FORMAT    fields as %%[.][WIDTH]CODE ('.': right-justified):\n"
"                         %%i id, %%j name, %%u user, %%P partition, %%t state\n"
"                         code, %%T state, %%M time used, %%l time limit,\n"
"                         %%D nodes, %%R reason or nodes, %%r reason, %%N\n"
"                         nodes, %%b GPUs (gpu:N), %%S start, %%V submit,\n"
"                         %%e end, %%a account, %%C CPUs, %%E dependency,\n"
"                         %%q QOS, %%Q priority, %%y nice, %%v reservation\n"
"                         (default \"%s\")\n"
"  -O, --Format NAME[:[.]WIDTH][,...]  fields by Slurm's names, each at\n"
"                         least WIDTH wide (20): JobID, Name, UserName,\n"
"                         State, StateCompact, TimeUsed, TimeLimit,\n"
"                         TimeLeft, NumNodes, NodeList, Reason, ReasonList,\n"
"                         StartTime, SubmitTime, EndTime, Dependency, ...\n"
"  -l, --long             Slurm's long columns, under the time of the call\n"
"      --start            pending jobs with their expected start: the time\n"
"                         backfill promised the first of them (N/A where\n"
"                         none was)\n"
"      --json             the jobs as JSON\n"
"  -p, --partition NAME[,NAME]  jobs that may run in these partitions\n"
"                         (sinfo lists them; gbatch without partitions has\n"
"                         one, gbatch)\n"
"  -a, --all              accepted: every partition is shown anyway\n"
"      --timeout SECONDS  how long to wait for gbatchd (default 10)\n"
"      --help             this help\n"
"  -V, --version          print the version\n"
"\n"
"Exit status: 0 ok, 1 an unknown job id, 2 usage error, 3 cannot reach\n"
"gbatchd.\n", SQUEUE_DEFAULT);
}

static const struct cmd squeue_cmd = {
	.name = "squeue",
	.usage = squeue_usage,
	.shortopts = ":hj:u:t:n:o:O:lap:w:A:rV",
	.longopts = squeue_longopts,
};

/* The value of field c of job r, into buf; task >= 0: one task of an
 * array's row, shown alone (squeue -r). */
static const char *
squeue_field(const struct job_row *r, enum job_state s, char c, long task,
    char *buf, size_t len)
{
	char		 tmp[1024];
	const char	*nodes;
	int		 n;

	switch (c) {
	case 'i':
		if (task >= 0) {
			snprintf(buf, len, "%lld_%ld", slurm_fmt_row_int(r,
			    JF_ARRAY_JOB_ID), task);
			return (buf);
		}
		(void)job_row_jobid(r, buf, len);
		return (buf);
	case 'A':
		snprintf(buf, len, "%lld", slurm_fmt_row_int(r, JF_ID));
		return (buf);
	case 'j':
		return (slurm_fmt_row_str(r, JF_NAME, buf, len));
	case 'u':
		return (slurm_fmt_row_str(r, JF_USER, buf, len));
	case 'a':
		return (slurm_fmt_row_str(r, JF_ACCOUNT, buf, len));
	case 'P':
		return (slurm_part_of_job(slurm_fmt_row_str(r, JF_PARTITION,
		    buf, len)));
	case 'q':
		return (slurm_part_qos_of_job(slurm_fmt_row_str(r, JF_QOS, buf,
		    len)));
	case 'v':
		slurm_fmt_row_str(r, JF_RESERVATION, buf, len);
		return (*buf != '\0' ? buf : "(null)");
	case 'Q':
		snprintf(buf, len, "%lld", slurm_fmt_row_int(r, JF_PRIORITY));
		return (buf);
	case 'y':
		snprintf(buf, len, "%lld", slurm_fmt_row_int(r, JF_NICE));
		return (buf);
	case 't':
		return (slurm_fmt_state_code(s));
	case 'T':
		return (slurm_fmt_state(s));
	case 'M':
		slurm_fmt_duration(slurm_fmt_row_int(r, JF_ELAPSED), false, buf,
		    len);
		return (buf);
	case 'l':
		if (slurm_fmt_row_int(r, JF_TIME_LIMIT) == 0)
			return ("UNLIMITED");
		slurm_fmt_duration(slurm_fmt_row_int(r, JF_TIME_LIMIT), false,
		    buf, len);
		return (buf);
	case 'D':
		/* A job not yet placed asks for one. */
		n = slurm_fmt_row_nnodes(r);
		snprintf(buf, len, "%d", n > 0 ? n : 1);
		return (buf);
	case 'N':
		return (slurm_fmt_row_str(r, JF_NODES, buf, len));
	case 'r':
		return (slurm_fmt_reason(s, slurm_fmt_row_str(r, JF_REASON, tmp,
		    sizeof tmp)));
	case 'R':
		nodes = slurm_fmt_row_str(r, JF_NODES, tmp, sizeof tmp);
		if (job_state_on_node(s)) {
			snprintf(buf, len, "%s", nodes);
			return (buf);
		}
		snprintf(buf, len, "(%s)", slurm_fmt_reason(s,
		    slurm_fmt_row_str(r, JF_REASON, tmp, sizeof tmp)));
		return (buf);
	case 'b':
		/* N/A for a CPU job, as Slurm's for a job with no GRES. */
		if (slurm_fmt_row_int(r, JF_GPUS) > 0)
			snprintf(buf, len, "gpu:%lld", slurm_fmt_row_int(r,
			    JF_GPUS));
		else
			snprintf(buf, len, "N/A");
		return (buf);
	case 'C':
		/* The CPUs it holds, or held; those it asks for while it
		 * waits (0: the node's share, known when it starts). */
		snprintf(buf, len, "%lld", s == JOB_PENDING || s == JOB_HELD ?
		    slurm_fmt_row_cpus_asked(r) : slurm_fmt_row_int(r,
		    JF_ALLOC_CPUS));
		return (buf);
	case 'S':
		/* A pending job's is the start backfill promised it, as
		 * Slurm's expected start. */
		slurm_fmt_date(s == JOB_PENDING && slurm_fmt_row_int(r,
		    JF_EXPECT_START) > 0 ? slurm_fmt_row_int(r,
		    JF_EXPECT_START) : slurm_fmt_row_int(r, JF_START_TIME),
		    "N/A", buf, len);
		return (buf);
	case 'V':
		slurm_fmt_date(slurm_fmt_row_int(r, JF_SUBMIT_TIME), "N/A", buf,
		    len);
		return (buf);
	case 'e':
		slurm_fmt_date(slurm_fmt_row_int(r, JF_END_TIME), "N/A", buf,
		    len);
		return (buf);
	case 'E':
		slurm_fmt_row_str(r, JF_DEPENDENCY, buf, len);
		return (*buf != '\0' ? buf : "(null)");
	case 'L':
		if (slurm_fmt_row_int(r, JF_TIME_LIMIT) == 0)
			return ("UNLIMITED");
		slurm_fmt_duration(slurm_fmt_row_int(r, JF_TIME_LIMIT) -
		    slurm_fmt_row_int(r, JF_ELAPSED), false, buf, len);
		return (buf);
	default:
		return ("");
	}
}

/* The header of field c, as Slurm names it. */
static const char *
squeue_header(char c)
{
	switch (c) {
	case 'i': return ("JOBID");
	case 'A': return ("JOBID");
	case 'j': return ("NAME");
	case 'u': return ("USER");
	case 'a': return ("ACCOUNT");
	case 'P': return ("PARTITION");
	case 'q': return ("QOS");
	case 'v': return ("RESERVATION");
	case 'Q': return ("PRIORITY");
	case 'y': return ("NICE");
	case 't': return ("ST");
	case 'T': return ("STATE");
	case 'M': return ("TIME");
	case 'l': return ("TIME_LIMIT");
	case 'L': return ("TIME_LEFT");
	case 'D': return ("NODES");
	case 'N': return ("NODELIST");
	case 'r': return ("REASON");
	case 'R': return ("NODELIST(REASON)");
	case 'b': return ("TRES_PER_NODE");
	case 'C': return ("CPUS");
	case 'S': return ("START_TIME");
	case 'V': return ("SUBMIT_TIME");
	case 'e': return ("END_TIME");
	case 'E': return ("DEPENDENCY");
	default: return ("");
	}
}

/* What a row prints with: the format's items, the names asked for (-n),
 * and whether an array's waiting tasks unfold (-r). */
struct squeue_out {
	const struct slurm_item	*items;
	int			 n;
	const json_t		*names;
	const json_t		*nodes;		/* -w: any of these */
	const json_t		*accounts;	/* -A */
	const json_t		*parts;		/* -p: any of these */
	bool			 unfold;
};

/* Whether the comma list of nodes a job runs on has one of want (all when
 * want is empty). */
static bool
squeue_on_nodes(const char *list, const json_t *want)
{
	char		 node[256];
	const char	*p = list, *end;
	size_t		 len;

	if (json_array_size(want) == 0)
		return (true);
	while (*p != '\0') {
		end = p + strcspn(p, ",");
		len = (size_t)(end - p);
		snprintf(node, sizeof node, "%.*s", (int)len, p);
		if (len > 0 && len < sizeof node && cmd_list_has(want, node))
			return (true);
		p = *end != '\0' ? end + 1 : end;
	}
	return (false);
}

/* Whether row r passes -n, -A, -p and -w. */
static bool
squeue_wanted(const struct job_row *r, const struct squeue_out *o)
{
	char	buf[4096];

	return (cmd_list_has(o->names, slurm_fmt_row_str(r, JF_NAME, buf,
	    sizeof buf)) && cmd_list_has(o->accounts, slurm_fmt_row_str(r,
	    JF_ACCOUNT, buf, sizeof buf)) && slurm_part_job_in(
	    slurm_fmt_row_str(r, JF_PARTITION, buf, sizeof buf), o->parts) &&
	    squeue_on_nodes(slurm_fmt_row_str(r, JF_NODES, buf, sizeof buf),
	    o->nodes));
}

static void
squeue_json(const struct model *m, const struct squeue_out *o)
{
	json_t		*jobs = json_array(), *out;
	char		 b[8][1024];
	size_t		 i;
	const struct job_row *r;
	enum job_state	 s;

	for (i = 0; i < m->jobs.n; i++) {
		r = &m->jobs.rows[i];
		s = slurm_fmt_row_state(r);
		if (!squeue_wanted(r, o))
			continue;
		json_array_append_new(jobs, json_pack("{s:I,s:s,s:s,s:s,s:s,"
		    "s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:s}",
		    "job_id", (json_int_t)slurm_fmt_row_int(r, JF_ID),
		    "name", squeue_field(r, s, 'j', -1, b[0], sizeof b[0]),
		    "user_name", squeue_field(r, s, 'u', -1, b[1], sizeof b[1]),
		    "job_state", slurm_fmt_state(s),
		    "state_reason", squeue_field(r, s, 'r', -1, b[2], sizeof b[2]),
		    "nodes", squeue_field(r, s, 'N', -1, b[3], sizeof b[3]),
		    "partition", squeue_field(r, s, 'P', -1, b[5], sizeof b[5]),
		    "qos", squeue_field(r, s, 'q', -1, b[6], sizeof b[6]),
		    "resv_name", slurm_fmt_row_str(r, JF_RESERVATION, b[7],
		    sizeof b[7]),
		    "submit_time",
		    (json_int_t)slurm_fmt_row_int(r, JF_SUBMIT_TIME),
		    "start_time",
		    (json_int_t)(s == JOB_PENDING ? slurm_fmt_row_int(r,
		    JF_EXPECT_START) : slurm_fmt_row_int(r, JF_START_TIME)),
		    "end_time", (json_int_t)slurm_fmt_row_int(r, JF_END_TIME),
		    "time_limit",
		    (json_int_t)(slurm_fmt_row_int(r, JF_TIME_LIMIT) / 60),
		    "tres_per_job", slurm_fmt_row_int(r, JF_GPUS) == 0 ? "" :
		    squeue_field(r, s, 'b', -1, b[4], sizeof b[4])));
	}
	out = json_pack("{s:o}", "jobs", jobs);
	cmd_json_print(out, JSON_INDENT(2));
	json_decref(out);
}

/* Slurm's pending includes gbatch's held jobs. */
static int
squeue_add_state(const char *item, void *arg, char *err, size_t errlen)
{
	struct job_filter	*f = arg;

	if (job_filter_add_state(f, item, err, errlen) == -1)
		return (-1);
	if (f->state[JOB_PENDING])
		f->state[JOB_HELD] = true;
	if (f->state[JOB_RUNNING])
		f->state[JOB_PREEMPTING] = true;
	return (0);
}

static void
squeue_line(const struct job_row *r, const struct slurm_item *items,
    int n, long task)
{
	static struct slurm_line line;
	enum job_state	 s = slurm_fmt_row_state(r);
	char		 buf[2048], safe[4096];
	const char	*v;
	int		 i;

	for (i = 0; i < n; i++) {
		v = squeue_field(r, s, items[i].field, task, buf, sizeof buf);
		slurm_fmt_line_put(&line, &items[i], safe_text_str(v, safe,
		    sizeof safe));
	}
	slurm_fmt_line_end(&line, stdout);
}

/* The members a listing asks of gbatchd: those the format's fields and
 * o's filters (-w, -A, -p) read (a third of a listing's time is reading them),
 * or all of them for --json; the state and the name (-n) always. */
static json_t *
squeue_fields(const struct slurm_item *items, int n, bool all,
    const struct squeue_out *o)
{
	static const struct {
		char		 field;
		const char	*members;	/* space-separated */
	} uses[] = {
		{ 'i', "id" }, { 'A', "id" }, { 'j', "name" }, { 'u', "user" },
		{ 'a', "account" }, { 'P', "partition" }, { 'q', "qos" },
		{ 'v', "reservation" },
		{ 'Q', "priority" }, { 'y', "nice" },
		{ 'M', "elapsed" },
		{ 'l', "time_limit" },
		{ 'L', "time_limit elapsed" }, { 'D', "nodes" },
		{ 'N', "nodes" }, { 'r', "reason" }, { 'R', "reason nodes" },
		{ 'b', "gpus gpus_max alloc" },
		{ 'C', "alloc_cpus gpus gpus_max alloc cpus_per_gpu cpus_per_task tasks_per_node num_nodes" },
		{ 'S', "start_time expect_start" },
		{ 'V', "submit_time" }, { 'e', "end_time" },
		{ 'E', "dependency" },
	};
	json_t		*fields = json_array();
	char		 word[32];
	const char	*p, *end;
	size_t		 k;
	int		 i;

	json_array_append_new(fields, json_string("state"));
	json_array_append_new(fields, json_string("name"));
	/* -w, -A and -p read these. */
	if (json_array_size(o->nodes) > 0)
		json_array_append_new(fields, json_string("nodes"));
	if (json_array_size(o->accounts) > 0)
		json_array_append_new(fields, json_string("account"));
	if (json_array_size(o->parts) > 0)
		json_array_append_new(fields, json_string("partition"));
	for (k = 0; k < sizeof uses / sizeof uses[0]; k++) {
		for (i = 0; i < n && !all; i++) {
			if (items[i].field == uses[k].field)
				break;
		}
		if (!all && i == n)
			continue;
		for (p = uses[k].members; *p != '\0'; p = *end ? end + 1 :
		    end) {
			end = p + strcspn(p, " ");
			snprintf(word, sizeof word, "%.*s", (int)(end - p), p);
			if (!cmd_list_has(fields, word))
				json_array_append_new(fields,
				    json_string(word));
		}
	}
	/* Array tasks are named as Slurm names them, 42_7. */
	if (cmd_list_has(fields, "id"))
		job_row_wire_fields("id", fields);
	return (fields);
}

static void
squeue_header_line(const struct slurm_item *items, int n)
{
	int	i;

	for (i = 0; i < n; i++)
		slurm_fmt_put(stdout, &items[i], squeue_header(items[i].field));
	putchar('\n');
}

/* A job's line, or a line per waiting task of an array's row with -r. */
static void
squeue_row(const struct job_row *r, void *arg)
{
	const struct squeue_out	*o = arg;
	struct array_set	 tasks;
	uint32_t		 t;
	bool			 more;

	if (!squeue_wanted(r, o))
		return;
	if (o->unfold && job_row_tasks(r, &tasks) == 0) {
		for (more = array_next(&tasks, 0, true, &t); more;
		    more = array_next(&tasks, t, false, &t))
			squeue_line(r, o->items, o->n, (long)t);
		array_free(&tasks);
	} else
		squeue_line(r, o->items, o->n, -1);
}

int
main(int argc, char **argv)
{
	struct slurm_item	 items[SQUEUE_ITEMS];
	struct model		 m;
	json_t			*fields = NULL, *names = json_array();
	json_t			*nodes = json_array(), *accounts = json_array();
	json_t			*parts = json_array();
	struct slurm_parts	 ps = { 0 };
	char			**hosts;
	size_t			 nhosts, h;
	const char		*fmt = SQUEUE_DEFAULT, *topt = NULL;
	struct squeue_out	 out;
	char			 err[1024], why[768];
	unsigned		 timeout;
	const char		*long_fmt = NULL;
	bool			 header = true, json = false, unfold = false;
	bool			 dated = false;
	int			 ch, n, r = EXIT_USAGE;
	size_t			 k;

	cmd_stdout_buffer();
	model_init(&m, CMD_TIMEOUT_DEFAULT);
	/* As Slurm's, a job finished longer ago than MinJobAge
	 * (controller.min_job_age) is not known, by id or by state. */
	m.filter.forget_finished = true;
	while ((ch = cmd_getopt(&squeue_cmd, argc, argv, &r)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'h':
			header = false;
			break;
		case 'r':
			unfold = true;
			break;
		case 'j':
			if (m.filter.ids == NULL)
				m.filter.ids = json_array();
			if (cmd_split(optarg, "--jobs", cmd_add_job,
			    m.filter.ids, err, sizeof err) == -1)
				goto usage;

			break;
		case 'u':
			if (cmd_split(optarg, "--user", slurm_fmt_add_user,
			    &m.filter, err, sizeof err) == -1)
				goto usage;
			break;
		case SQUEUE_OPT_ME:
			job_filter_add_me(&m.filter);
			break;
		case 't':
			if (cmd_split(optarg, "--states", squeue_add_state,
			    &m.filter, err, sizeof err) == -1)
				goto usage;
			break;
		case 'n':
			if (cmd_split(optarg, "--name", cmd_add_string, names,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'w':
			if (hostlist_expand(optarg, &hosts, &nhosts, err,
			    sizeof err) == -1)
				goto usage;
			for (h = 0; h < nhosts; h++)
				json_array_append_new(nodes,
				    json_string(hosts[h]));
			hostlist_free(hosts, nhosts);
			break;
		case 'A':
			if (cmd_split(optarg, "--account", cmd_add_string,
			    accounts, err, sizeof err) == -1)
				goto usage;
			break;
		case 'o':
			fmt = optarg;
			break;
		case 'O':
			long_fmt = optarg;
			break;
		case 'l':
			fmt = SQUEUE_LONG;
			dated = true;
			break;
		case SQUEUE_OPT_START:
			/* Slurm's: the pending jobs and when they start. */
			fmt = SQUEUE_START;
			if (squeue_add_state("PD", &m.filter, err,
			    sizeof err) == -1)
				goto usage;
			break;
		case 'a':
			break;
		case 'p':
			if (cmd_split(optarg, "--partition", cmd_add_string,
			    parts, err, sizeof err) == -1)
				goto usage;
			break;
		case SQUEUE_OPT_JSON:
			json = true;
			break;
		case CMD_OPT_TIMEOUT:
			topt = optarg;
			break;
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof err, "unexpected argument \"%s\"",
		    argv[optind]);
		goto usage;
	}
	if ((n = long_fmt != NULL ? slurm_fmt_parse_long(long_fmt, "squeue",
	    squeue_long_fields, sizeof squeue_long_fields /
	    sizeof squeue_long_fields[0], items, SQUEUE_ITEMS, err,
	    sizeof err) : slurm_fmt_parse(fmt, "squeue", SQUEUE_FIELDS, items,
	    SQUEUE_ITEMS, err, sizeof err)) == -1)
		goto usage;
	/* -l's first line: the time of the listing, as Slurm's. */
	if (dated && header && !json)
		slurm_fmt_dated(stdout);
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1)
		goto usage;
	model_set_timeout(&m, timeout);
	/* As Slurm's, a name that is no partition lists no job; but a
	 * typo is not let pass unsaid. */
	if (json_array_size(parts) > 0) {
		if ((r = model_fetch_parts(&m, &ps)) != 0) {
			fprintf(stderr, "squeue: %s\n", m.err);
			goto out;
		}
		if (slurm_part_check(&ps, parts, why, sizeof why) == -1) {
			snprintf(err, sizeof err, "--partition: %s", why);
			cmd_error(&squeue_cmd, err);
		}
	}
	out.items = items;
	out.n = n;
	out.names = names;
	out.nodes = nodes;
	out.accounts = accounts;
	out.parts = parts;
	out.unfold = unfold;
	fields = squeue_fields(items, n, json, &out);
	if (!json && m.filter.ids == NULL) {
		/* The whole queue: streamed, each row printed as its frame
		 * comes, as gq does (no id can be missing). */
		if (header)
			squeue_header_line(items, n);
		if ((r = model_stream_jobs(&m, fields, squeue_row, &out)) !=
		    0) {
			fflush(stdout);
			fprintf(stderr, "squeue: %s\n", m.err);
		}
		goto out;
	}
	if ((r = model_refresh_jobs(&m, fields)) != 0) {
		fprintf(stderr, "squeue: %s\n", m.err);
		goto out;
	}
	if (m.jobs.missing.type == JSCAN_ARRAY && m.jobs.missing.n > 2) {
		/* Slurm's words for it. */
		fprintf(stderr, "slurm_load_jobs error: Invalid job id "
		    "specified\n");
		r = EXIT_REFUSED;
		goto out;
	}
	if (json) {
		squeue_json(&m, &out);
		goto out;
	}
	if (header)
		squeue_header_line(items, n);
	for (k = 0; k < m.jobs.n; k++)
		squeue_row(&m.jobs.rows[k], &out);
	r = EXIT_OK;
	goto out;
usage:
	r = cmd_usage_error(&squeue_cmd, "%s", err);
out:
	json_decref(fields);
	json_decref(names);
	json_decref(nodes);
	json_decref(accounts);
	json_decref(parts);
	slurm_part_free(&ps);
	model_free(&m);
	return (r);
}
