/* sacct (slurm-compat): jobs as Slurm's sacct prints them, for the
 * scripts and workflow engines that poll it for a job's end: -j, -X, -n,
 * -P/-p, --format with Slurm's field names, --name, -u, -s, -S, -E. With
 * -j and without -X, each job's steps follow its line (JOBID.STEP,
 * sacct-step.h). gbatch's own accounting is gacct. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "client/model.h"
#include "client/slurm-part.h"
#include "client/step-rows.h"
#include "client/when.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "slurm/sacct-step.h"
#include "slurm/slurm-fmt.h"

#define SACCT_DEFAULT	"JobID,JobName,Partition,Account,AllocCPUS,State," \
			"ExitCode"
/* -l: Slurm's long list, less the fields gbatch does not keep (virtual
 * memory, pages, disk, energy, per-task minima and maxima). */
#define SACCT_LONG	"JobID,JobIDRaw,JobName,Partition,MaxRSS,NTasks," \
			"AllocCPUS,Elapsed,State,ExitCode,ReqMem,ReqTRES," \
			"AllocTRES,TotalCPU"
/* sstat's (the same program, under that name): a running job's counts. */
#define SSTAT_DEFAULT	"JobID,NTasks,MaxRSS,AveCPU,TotalCPU"
#define SACCT_MAX_COLS	64

enum {
	SACCT_OPT_NAME = 256,
	SACCT_OPT_HELP,
};

static const struct option sacct_longopts[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "allocations", no_argument, NULL, 'X' },
	{ "noheader", no_argument, NULL, 'n' },
	{ "parsable", no_argument, NULL, 'p' },
	{ "parsable2", no_argument, NULL, 'P' },
	{ "format", required_argument, NULL, 'o' },
	{ "long", no_argument, NULL, 'l' },
	{ "brief", no_argument, NULL, 'b' },
	{ "name", required_argument, NULL, SACCT_OPT_NAME },
	{ "user", required_argument, NULL, 'u' },
	{ "allusers", no_argument, NULL, 'a' },
	{ "state", required_argument, NULL, 's' },
	{ "starttime", required_argument, NULL, 'S' },
	{ "endtime", required_argument, NULL, 'E' },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, SACCT_OPT_HELP },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* A field sacct prints: its name, default width, and value. */
struct sacct_field {
	const char	*name;
	int		 width;
	void		(*get)(const struct job_row *, time_t now, char *buf,
			    size_t len);
};

static void
sacct_id(const struct job_row *r, time_t now, char *buf, size_t len)
{
	(void)now;
	(void)job_row_jobid(r, buf, len);
}

static void
sacct_id_raw(const struct job_row *r, time_t now, char *buf, size_t len)
{
	(void)now;
	snprintf(buf, len, "%lld", slurm_fmt_row_int(r, JF_ID));
}

static void
sacct_name(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_row_str(r, JF_NAME, buf, len);
}

static void
sacct_user(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_row_str(r, JF_USER, buf, len);
}

static void
sacct_account(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_row_str(r, JF_ACCOUNT, buf, len);
}

static void
sacct_qos(const struct job_row *r, time_t now, char *buf, size_t len)
{
	char	qos[64];

	snprintf(buf, len, "%s", slurm_part_qos_of_job(slurm_fmt_row_str(r,
	    JF_QOS, qos, sizeof qos)));
}

/* The partitions it could run in, as the job asked ("gpu,long"). */
static void
sacct_partition(const struct job_row *r, time_t now, char *buf, size_t len)
{
	char	list[1024];

	snprintf(buf, len, "%s", slurm_part_of_job(slurm_fmt_row_str(r,
	    JF_PARTITION, list, sizeof list)));
}

/* The CPUs its run held on its nodes in all (0: it has not started). */
static void
sacct_cpus(const struct job_row *r, time_t now, char *buf, size_t len)
{
	snprintf(buf, len, "%lld", slurm_fmt_row_int(r, JF_ALLOC_CPUS));
}

/* Slurm's MaxRSS, in KiB ("524288K"): the most memory the job's processes
 * held on a node at once, as its cgroup counted; empty where not counted
 * (no cgroups, or not yet ended). */
static void
sacct_maxrss(const struct job_row *r, time_t now, char *buf, size_t len)
{
	long long	mb = slurm_fmt_row_int(r, JF_MEM_PEAK);

	if (mb <= 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%lldK", mb * 1024);
}

/* Slurm's TotalCPU: the CPU time the job's processes used, as its cgroup
 * counted ("00:00:00" where it did not). */
static void
sacct_totalcpu(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_duration(slurm_fmt_row_int(r, JF_CPU_TIME), true, buf, len);
}

static void
sacct_state(const struct job_row *r, time_t now, char *buf, size_t len)
{
	snprintf(buf, len, "%s", slurm_fmt_state(slurm_fmt_row_state(r)));
}

/* Slurm's EXIT:SIGNAL. */
static void
sacct_exit(const struct job_row *r, time_t now, char *buf, size_t len)
{
	snprintf(buf, len, "%lld:%lld", slurm_fmt_row_int(r, JF_EXIT_CODE),
	    slurm_fmt_row_int(r, JF_SIGNAL));
}

static void
sacct_elapsed(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_duration(slurm_fmt_row_int(r, JF_ELAPSED), true, buf, len);
}

/* Slurm's Suspended: the time the job spent suspended. */
static void
sacct_suspended(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_duration(slurm_fmt_row_int(r, JF_SUSPENDED), true, buf,
	    len);
}

static void
sacct_start(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_date(slurm_fmt_row_int(r, JF_START_TIME), "Unknown", buf,
	    len);
}

static void
sacct_end(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_date(slurm_fmt_row_int(r, JF_END_TIME), "Unknown", buf, len);
}

static void
sacct_submit(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_date(slurm_fmt_row_int(r, JF_SUBMIT_TIME), "Unknown", buf,
	    len);
}

static void
sacct_nnodes(const struct job_row *r, time_t now, char *buf, size_t len)
{
	snprintf(buf, len, "%d", slurm_fmt_row_nnodes(r));
}

/* Slurm's TRES list of what the job held: its CPUs (where known), GPUs
 * (none for a CPU job) and nodes; nothing before it ran. */
static void
sacct_tres(const struct job_row *r, time_t now, char *buf, size_t len)
{
	long long	cpus = slurm_fmt_row_int(r, JF_ALLOC_CPUS);
	long long	gpus = slurm_fmt_row_int(r, JF_GPUS);
	int		n = slurm_fmt_row_nnodes(r);
	char		c[32] = "", g[32] = "";

	if (n == 0) {
		buf[0] = '\0';
		return;
	}
	if (cpus > 0)
		snprintf(c, sizeof c, "cpu=%lld,", cpus);
	if (gpus > 0)
		snprintf(g, sizeof g, "gres/gpu=%lld,", gpus);
	snprintf(buf, len, "%s%snode=%d", c, g, n);
}

static void
sacct_nodelist(const struct job_row *r, time_t now, char *buf, size_t len)
{
	if (*slurm_fmt_row_str(r, JF_NODES, buf, len) == '\0')
		snprintf(buf, len, "None assigned");
}

static void
sacct_limit(const struct job_row *r, time_t now, char *buf, size_t len)
{
	if (slurm_fmt_row_int(r, JF_TIME_LIMIT) == 0)
		snprintf(buf, len, "UNLIMITED");
	else
		slurm_fmt_duration(slurm_fmt_row_int(r, JF_TIME_LIMIT), true,
		    buf, len);
}

/* Slurm's ReqMem: the memory asked for in all, "32000M"; "0" when the
 * job took the node's default share. */
static void
sacct_reqmem(const struct job_row *r, time_t now, char *buf, size_t len)
{
	long long	mem = slurm_fmt_row_mem_asked(r);

	if (mem > 0)
		snprintf(buf, len, "%lldM", mem);
	else
		snprintf(buf, len, "0");
}

static void
sacct_ntasks(const struct job_row *r, time_t now, char *buf, size_t len)
{
	snprintf(buf, len, "%lld", slurm_fmt_row_ntasks(r));
}

/* Slurm's ReqTRES: what the job asked for, "cpu=8,mem=32000M,node=2,
 * gres/gpu=8" (cpu= and mem= only where it asked). */
static void
sacct_reqtres(const struct job_row *r, time_t now, char *buf, size_t len)
{
	long long	cpus = slurm_fmt_row_cpus_asked(r);
	char		mem[64];
	size_t		off = 0;

	buf[0] = '\0';
	if (cpus > 0)
		off += (size_t)snprintf(buf, len, "cpu=%lld,", cpus);
	sacct_reqmem(r, now, mem, sizeof mem);
	if (strcmp(mem, "0") != 0 && off < len)
		off += (size_t)snprintf(buf + off, len - off, "mem=%s,", mem);
	if (off < len)
		slurm_fmt_node_gpus(r, buf + off, len - off);
}

/* Slurm's Reason: why a pending job waits, else None. */
static void
sacct_reason(const struct job_row *r, time_t now, char *buf, size_t len)
{
	char	tmp[256];

	snprintf(buf, len, "%s", slurm_fmt_reason(slurm_fmt_row_state(r),
	    slurm_fmt_row_str(r, JF_REASON, tmp, sizeof tmp)));
}

/* Slurm's AveCPU: the CPU time over the job's tasks. */
static void
sacct_avecpu(const struct job_row *r, time_t now, char *buf, size_t len)
{
	long long	tasks = slurm_fmt_row_ntasks(r);

	slurm_fmt_duration(slurm_fmt_row_int(r, JF_CPU_TIME) / (tasks >
	    0 ? tasks : 1), true, buf, len);
}

static void
sacct_workdir(const struct job_row *r, time_t now, char *buf, size_t len)
{
	slurm_fmt_row_str(r, JF_WORKDIR, buf, len);
}

/* The members of JOB_LIST every field above reads. */
static const char *const sacct_members[] = {
	"id", "name", "user", "state", "gpus", "gpus_max", "alloc", "nodes",
	"elapsed",
	"time_limit", "submit_time", "start_time", "end_time", "exit_code",
	"signal", "account", "mem_peak", "cpu_time", "mem", "mem_per_gpu",
	"cpus_per_gpu", "cpus_per_task", "tasks_per_node", "num_nodes",
	"reason", "workdir", "alloc_cpus", "partition", "qos", "suspended",
};

static const struct sacct_field sacct_fields[] = {
	{ "JobID", 12, sacct_id },
	{ "JobIDRaw", 12, sacct_id_raw },
	{ "JobName", 10, sacct_name },
	{ "User", 9, sacct_user },
	{ "Account", 10, sacct_account },
	{ "Partition", 10, sacct_partition },
	{ "QOS", 10, sacct_qos },
	{ "AllocCPUS", 10, sacct_cpus },
	{ "State", 10, sacct_state },
	{ "ExitCode", 8, sacct_exit },
	{ "Elapsed", 10, sacct_elapsed },
	{ "Suspended", 10, sacct_suspended },
	{ "Start", 19, sacct_start },
	{ "End", 19, sacct_end },
	{ "Submit", 19, sacct_submit },
	{ "NNodes", 8, sacct_nnodes },
	{ "AllocTRES", 10, sacct_tres },
	{ "NodeList", 15, sacct_nodelist },
	{ "Timelimit", 10, sacct_limit },
	{ "MaxRSS", 10, sacct_maxrss },
	{ "TotalCPU", 10, sacct_totalcpu },
	{ "NTasks", 8, sacct_ntasks },
	{ "ReqMem", 10, sacct_reqmem },
	{ "ReqTRES", 10, sacct_reqtres },
	{ "Reason", 10, sacct_reason },
	{ "WorkDir", 10, sacct_workdir },
	{ "AveCPU", 10, sacct_avecpu },
};
#define SACCT_NFIELDS	(sizeof sacct_fields / sizeof sacct_fields[0])

struct sacct_col {
	const struct sacct_field *f;
	int			  width;
};

static void
sacct_usage(FILE *f)
{
	size_t	i;

	fprintf(f,
"usage: sacct [options]\n"
"       sstat -j ID[,ID] [options]\n"
"Jobs as Slurm's sacct prints them (slurm-compat; gacct is gbatch's own).\n"
"As sstat, the running jobs -j names with what their cgroups have counted\n"
"so far (default " SSTAT_DEFAULT "; nodes send it with\n"
"each heartbeat; empty where jobs run without cgroups).\n"
"Without -j, the jobs that ended since -S (default midnight) and the jobs\n"
"not yet ended, of the user (or -u, or every user with -a).\n"
"\n"
"  -j, --jobs ID[,ID]       these jobs, whatever their state\n"
"  -X, --allocations        the jobs alone, not their steps (with -j, each\n"
"                           job's steps, JOBID.STEP, follow its line)\n"
"  -n, --noheader           no header lines\n"
"  -P, --parsable2          fields split by '|'; -p also ends each line so\n"
"  -o, --format FIELD[%%WIDTH][,...]  (default %s)\n"
"  -b, --brief              JobID,State,ExitCode\n"
"  -l, --long               Slurm's long fields that gbatch keeps:\n"
"                           " SACCT_LONG "\n"
"      --name NAME[,NAME]   jobs of these names\n"
"  -u, --user USER[,USER]   these users' jobs; -a, --allusers every user's\n"
"  -s, --state STATE[,...]  CD, F, CA, TO, NF, PD, R (or the names)\n"
"  -S, --starttime TIME     ended at or after TIME (gacct's forms)\n"
"  -E, --endtime TIME       ended before TIME\n"
"      --timeout SECONDS    how long to wait for gbatchd (default 10)\n"
"      --help               this help\n"
"  -V, --version            print the version\n"
"\n"
"Fields:", SACCT_DEFAULT);
	for (i = 0; i < SACCT_NFIELDS; i++)
		fprintf(f, "%s %s", i > 0 ? "," : "", sacct_fields[i].name);
	fprintf(f, "\n\nExit status: 0 ok, 2 usage error, 3 cannot reach "
	    "gbatchd.\n");
}

/* Named as it runs: sacct, or sstat. */
static struct cmd sacct_cmd = {
	.name = "sacct",
	.usage = sacct_usage,
	.shortopts = ":j:XnpPo:lbu:as:S:E:V",
	.longopts = sacct_longopts,
};

/* One FIELD[%WIDTH] of --format. */
static int
sacct_add_col(const char *item, void *arg, char *err, size_t errlen)
{
	struct sacct_col	*cols = arg;
	const char		*pct = strchr(item, '%');
	size_t			 n = pct != NULL ? (size_t)(pct - item) :
				    strlen(item), i, k;
	char			*end;
	long			 w;

	for (k = 0; k < SACCT_MAX_COLS && cols[k].f != NULL; k++)
		continue;
	if (k == SACCT_MAX_COLS) {
		snprintf(err, errlen, "--format: more than %d fields",
		    SACCT_MAX_COLS);
		return (-1);
	}
	for (i = 0; i < SACCT_NFIELDS; i++) {
		if (strlen(sacct_fields[i].name) == n &&
		    strncasecmp(item, sacct_fields[i].name, n) == 0)
			break;
	}
	if (i == SACCT_NFIELDS) {
		snprintf(err, errlen, "--format: \"%.*s\" is not a field "
		    "gbatch's sacct prints; see sacct --help", (int)(n < 64 ?
		    n : 64), item);
		return (-1);
	}
	cols[k].f = &sacct_fields[i];
	cols[k].width = sacct_fields[i].width;
	if (pct != NULL) {
		w = strtol(pct + 1, &end, 10);
		if (*end != '\0' || end == pct + 1 || w < 1 || w > 1000) {
			snprintf(err, errlen, "--format: %s: expected a width "
			    "of 1 to 1000 after '%%'", item);
			return (-1);
		}
		cols[k].width = (int)w;
	}
	return (0);
}

static int
sacct_add_state(const char *item, void *arg, char *err, size_t errlen)
{
	return (job_filter_add_state(arg, item, err, errlen));
}

static bool
sacct_wanted(const struct job_row *r, const json_t *names, time_t since,
    time_t until, bool by_id)
{
	char		 buf[1024];
	long long	 end = slurm_fmt_row_int(r, JF_END_TIME);

	if (!cmd_list_has(names, slurm_fmt_row_str(r, JF_NAME, buf,
	    sizeof buf)))
		return (false);
	/* A job not yet ended is in any window that reaches now. */
	if (by_id || end == 0)
		return (true);
	return (end >= since && (until == 0 || end < until));
}

/* Prints one line: job r's, or step s's (its fields a job's alone
 * blank). */
static void
sacct_line(const struct sacct_col *cols, const struct job_row *r,
    const struct step_row *s, time_t now, int parsable)
{
	sacct_step_fn	fn;
	char		buf[1024], safe[4200];
	int		i;

	for (i = 0; cols[i].f != NULL; i++) {
		buf[0] = '\0';
		if (r != NULL)
			cols[i].f->get(r, now, buf, sizeof buf);
		else if ((fn = sacct_step_field(cols[i].f->name)) != NULL)
			fn(s, now, buf, sizeof buf);
		safe_text_str(buf, safe, sizeof safe);
		slurm_fmt_field(stdout, cols[i].width, safe, parsable,
		    cols[i + 1].f == NULL);
	}
	putchar('\n');
}

/* The steps of the jobs m listed, by job and number (STEP_LIST), into
 * *steps (NULL when there are none or gbatchd could not say). Returns the
 * reply they borrow from, for the caller to free after them. */
static json_t *
sacct_steps(struct model *m, struct step_row **steps, size_t *n)
{
	json_t		*req, *ids, *reply;
	size_t		 i;

	*n = 0;
	*steps = NULL;
	ids = json_array();
	for (i = 0; i < m->jobs.n && json_array_size(ids) < 1000; i++)
		json_array_append_new(ids, json_integer(slurm_fmt_row_int(
		    &m->jobs.rows[i], JF_ID)));
	req = json_pack("{s:i,s:o}", "type", MSG_STEP_LIST, "ids", ids);
	if (json_array_size(ids) == 0 || model_request(m, req, &reply) != 0) {
		json_decref(req);
		return (NULL);
	}
	json_decref(req);
	*steps = step_rows_group(json_object_get(reply, "steps"), n);
	return (reply);
}

int
main(int argc, char **argv)
{
	struct sacct_col	 cols[SACCT_MAX_COLS + 1];
	struct model		 m;
	const struct job_row	*r;
	json_t			*fields, *names = json_array();
	const char		*topt = NULL, *start = NULL, *end = NULL;
	char			 err[1280], buf[1024], safe[4200];
	time_t			 now = time(NULL), since = 0, until = 0;
	unsigned		 timeout;
	bool			 header = true, all = false, by_id = false;
	bool			 stat_mode, gone = false, allocations = false;
	struct step_row		*steps = NULL;
	json_t			*steps_reply = NULL;
	size_t			 nsteps = 0, si = 0;
	int			 ch, parsable = 0, rc = EXIT_USAGE, i;
	size_t			 n;

	if ((stat_mode = cmd_runs_as(argv[0], "sstat")))
		sacct_cmd.name = "sstat";
	memset(cols, 0, sizeof cols);
	cmd_stdout_buffer();
	model_init(&m, CMD_TIMEOUT_DEFAULT);
	while ((ch = cmd_getopt(&sacct_cmd, argc, argv, &rc)) != -1) {
		switch (ch) {
		case CMD_OPT_EXIT:
			goto out;
		case 'j':
			by_id = true;
			if (m.filter.ids == NULL)
				m.filter.ids = json_array();
			if (cmd_split(optarg, "--jobs", cmd_add_job,
			    m.filter.ids, err, sizeof err) == -1)
				goto usage;
			break;
		case 'X':
			allocations = true;
			break;
		case 'n':
			header = false;
			break;
		case 'p':
			parsable = 1;
			break;
		case 'P':
			parsable = 2;
			break;
		case 'o':
			if (cmd_split(optarg, "--format", sacct_add_col, cols,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'l':
			if (cmd_split(SACCT_LONG, "--long", sacct_add_col, cols,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'b':
			if (cmd_split("JobID,State,ExitCode", "--brief",
			    sacct_add_col, cols, err, sizeof err) == -1)
				goto usage;
			break;
		case SACCT_OPT_NAME:
			if (cmd_split(optarg, "--name", cmd_add_string, names,
			    err, sizeof err) == -1)
				goto usage;
			break;
		case 'u':
			if (cmd_split(optarg, "--user", slurm_fmt_add_user,
			    &m.filter, err, sizeof err) == -1)
				goto usage;
			break;
		case 'a':
			all = true;
			break;
		case 's':
			if (cmd_split(optarg, "--state", sacct_add_state,
			    &m.filter, err, sizeof err) == -1)
				goto usage;
			break;
		case 'S':
			start = optarg;
			break;
		case 'E':
			end = optarg;
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
	if (stat_mode && !by_id) {
		snprintf(err, sizeof err, "no jobs to stat: give -j ID[,ID] "
		    "(running jobs)");
		goto usage;
	}
	if (cols[0].f == NULL && cmd_split(stat_mode ? SSTAT_DEFAULT :
	    SACCT_DEFAULT, "--format", sacct_add_col, cols, err,
	    sizeof err) == -1)
		goto usage;
	if (start != NULL ? when_parse(start, now, &since, buf,
	    sizeof buf) == -1 : when_parse("midnight", now, &since, buf,
	    sizeof buf) == -1) {
		snprintf(err, sizeof err, "--starttime: %s", buf);
		goto usage;
	}
	if (end != NULL && when_parse(end, now, &until, buf, sizeof buf) ==
	    -1) {
		snprintf(err, sizeof err, "--endtime: %s", buf);
		goto usage;
	}
	if (cmd_timeout(topt, &timeout, err, sizeof err) == -1)
		goto usage;
	model_set_timeout(&m, timeout);
	/* The history since -S from gbatchd, not a user's whole one. */
	if (!by_id)
		m.filter.ended_since = (int64_t)since;
	/* Without ids: my jobs (as Slurm's), every state. */
	if (!by_id && !all && m.filter.nusers == 0)
		job_filter_add_me(&m.filter);
	if (!m.filter.states_set)
		(void)job_filter_add_state(&m.filter, "all", err, sizeof err);
	fields = json_array();
	for (n = 0; n < sizeof sacct_members / sizeof sacct_members[0]; n++)
		json_array_append_new(fields, json_string(sacct_members[n]));
	/* Array tasks are named as Slurm names them, 42_7. */
	job_row_wire_fields("id", fields);
	rc = model_refresh_jobs(&m, fields);
	json_decref(fields);
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", sacct_cmd.name, m.err);
		goto out;
	}
	/* sstat: a job that does not exist or does not run has nothing to
	 * stat, in Slurm's words. */
	if (stat_mode && m.jobs.missing.type == JSCAN_ARRAY &&
	    m.jobs.missing.n > 2) {
		fprintf(stderr, "sstat: error: couldn't get steps for a job "
		    "asked for: no such job\n");
		gone = true;
	}
	/* -j without -X: the jobs' steps too. */
	if (by_id && !allocations && !stat_mode)
		steps_reply = sacct_steps(&m, &steps, &nsteps);
	if (header) {
		for (i = 0; cols[i].f != NULL; i++)
			slurm_fmt_field_name(stdout, cols[i].width,
			    cols[i].f->name, parsable, cols[i + 1].f == NULL);
		putchar('\n');
		for (i = 0; !parsable && cols[i].f != NULL; i++)
			slurm_fmt_field_rule(stdout, cols[i].width);
		if (!parsable)
			putchar('\n');
	}
	for (n = 0; n < m.jobs.n; n++) {
		r = &m.jobs.rows[n];
		if (!sacct_wanted(r, names, since, until, by_id))
			continue;
		if (stat_mode && !job_state_on_node(slurm_fmt_row_state(r))) {
			(void)job_row_jobid(r, buf, sizeof buf);
			fprintf(stderr, "sstat: error: couldn't get steps for "
			    "job %s: it is %s, not running\n", safe_text_str(
			    buf, safe, sizeof safe), slurm_fmt_state(
			    slurm_fmt_row_state(r)));
			gone = true;
			continue;
		}
		sacct_line(cols, r, NULL, now, parsable);
		/* Its steps, in the order of their numbers. */
		while (si < nsteps && steps[si].job < (uint64_t)
		    slurm_fmt_row_int(r, JF_ID))
			si++;
		for (; si < nsteps && steps[si].job == (uint64_t)
		    slurm_fmt_row_int(r, JF_ID); si++)
			sacct_line(cols, NULL, &steps[si], now, parsable);
	}
	step_rows_free(steps, nsteps);
	json_decref(steps_reply);
	rc = gone ? EXIT_REFUSED : EXIT_OK;
	goto out;
usage:
	rc = cmd_usage_error(&sacct_cmd, "%s", err);
out:
	json_decref(names);
	model_free(&m);
	return (rc);
}
