/* jobspec.c: gsub's options, #GSUB directives and the JOB_SUBMIT body. */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/jobenv.h"
#include "client/jobshape.h"
#include "client/jobspec.h"
#include "client/slurm-opt.h"
#include "client/when.h"
#include "common/array.h"
#include "common/cmd.h"
#include "common/depend.h"
#include "common/hostlist.h"
#include "common/duration.h"
#include "common/label.h"
#include "common/outpat.h"
#include "common/xmalloc.h"

extern char **environ;

/* Far beyond any node today; above it the number is a typo. The
 * controller still refuses what no node can hold. */
#define JOBSPEC_MAX_GPUS	65536
#define JOBSPEC_MAX_GPUS_PER_NODE 64
#define JOBSPEC_MAX_NAME	200
/* gbatchd's bound (req-job-submit.c). */
#define JOBSPEC_MAX_COMMENT	1024
#define JOBSPEC_MAX_PATTERN	4096
/* --signal's seconds before the time limit: Slurm's default and most. */
#define JOBSPEC_WARN_DEFAULT	60
#define JOBSPEC_WARN_MAX	65535

/* Words on one #GSUB line; a line holds a few options. */
#define JOBSPEC_MAX_WORDS	64

enum jobspec_opt {
	JOBSPEC_OPT_EXPORT = 256,
	JOBSPEC_OPT_PTY,
	JOBSPEC_OPT_JOBID,
	JOBSPEC_OPT_PREEMPTIBLE,
	JOBSPEC_OPT_PARSABLE,
	JOBSPEC_OPT_WRAP,
	JOBSPEC_OPT_CKPT_SIGNAL,
	JOBSPEC_OPT_CKPT_GRACE,
	JOBSPEC_OPT_NO_REQUEUE,
	JOBSPEC_OPT_CONSOLIDATE,
	JOBSPEC_OPT_SPREAD,
	JOBSPEC_OPT_COMMENT,
	JOBSPEC_OPT_WAIT,
	JOBSPEC_OPT_KILL_DEP,
	JOBSPEC_OPT_OPEN_MODE,
	JOBSPEC_OPT_SIGNAL,
	JOBSPEC_OPT_TEST_ONLY,
	JOBSPEC_OPT_GPUS_PER_NODE,
	JOBSPEC_OPT_GPUS_PER_TASK,
	JOBSPEC_OPT_TASKS_PER_NODE,
	JOBSPEC_OPT_ANY_SHAPE,
	JOBSPEC_OPT_GPU_BIND,
	JOBSPEC_OPT_CPUS_PER_GPU,
	JOBSPEC_OPT_MEM,
	JOBSPEC_OPT_MEM_PER_GPU,
	/* Row i of slurm-opt.h's table, by its long name. */
	JOBSPEC_OPT_SLURM = 0x2000,	/* above CMD_OPT_TIMEOUT */
};

/* Where a value came from: the command line wins over a #GSUB line, which
 * wins over an #SBATCH line. */
enum jobspec_src {
	JOBSPEC_SRC_NONE = 0,
	JOBSPEC_SRC_SBATCH,
	JOBSPEC_SRC_DIRECTIVE,
	JOBSPEC_SRC_CMDLINE,
};

enum jobspec_field {
	JOBSPEC_F_GPUS = 0,
	JOBSPEC_F_NAME,
	JOBSPEC_F_OUTPUT,
	JOBSPEC_F_ERROR,
	JOBSPEC_F_CHDIR,
	JOBSPEC_F_TIME,
	JOBSPEC_F_EXPORT,
	JOBSPEC_F_HOLD,
	JOBSPEC_F_PARSABLE,
	JOBSPEC_F_CKPT_SIGNAL,
	JOBSPEC_F_CKPT_GRACE,
	JOBSPEC_F_NO_REQUEUE,
	JOBSPEC_F_PLACEMENT,
	JOBSPEC_F_ACCOUNT,
	JOBSPEC_F_COMMENT,
	JOBSPEC_F_WAIT,
	JOBSPEC_F_BEGIN,
	JOBSPEC_F_DEPENDENCY,
	JOBSPEC_F_KILL_DEP,
	JOBSPEC_F_OPEN_MODE,
	JOBSPEC_F_SIGNAL,
	JOBSPEC_F_ARRAY,
	JOBSPEC_F_NODELIST,
	JOBSPEC_F_EXCLUDE,
	JOBSPEC_F_TEST_ONLY,
	JOBSPEC_F_NODES,
	JOBSPEC_F_GPUS_PER_NODE,
	JOBSPEC_F_GPUS_PER_TASK,
	JOBSPEC_F_NTASKS,
	JOBSPEC_F_TASKS_PER_NODE,
	JOBSPEC_F_ANY_SHAPE,
	JOBSPEC_F_GPU_BIND,
	JOBSPEC_F_CPUS_PER_TASK,
	JOBSPEC_F_CPUS_PER_GPU,
	JOBSPEC_F_MEM,
	JOBSPEC_F_MEM_PER_GPU,
	JOBSPEC_F_COUNT,
};

struct jobspec {
	enum jobspec_src	 src[JOBSPEC_F_COUNT];
	long			 gpus;
	char			*name;
	char			*output;
	char			*error;
	char			*chdir;
	uint64_t		 time_limit;
	char			*export;
	bool			 hold;
	bool			 parsable;
	int			 ckpt_signal;	/* 0: the default, SIGUSR1 */
	uint64_t		 ckpt_grace;	/* seconds */
	bool			 ckpt_grace_set;
	bool			 no_requeue;
	const char		*placement;	/* NULL, "consolidate", "spread" */
	bool			 quiet;		/* -Q: nothing printed on success */
	bool			 wait;		/* -W: until the job ends */
	bool			 test_only;	/* where and when; submit nothing */
	char			*account;	/* -A: charged to, for gacct */
	char			*comment;
	int64_t			 begin;		/* -b: seconds, 0: at once */
	char			*dependency;	/* -d, in depend.h's form */
	int			 kill_dep;	/* 0: the cluster's, 1 yes, 2 no */
	bool			 append;	/* --open-mode=append */
	const char		*default_output;
	int			 warn_signal;	/* --signal: 0 none */
	unsigned		 warn_time;	/* seconds before the limit */
	bool			 warn_batch;	/* B: the batch shell alone */
	char			*array;		/* -a: sbatch's --array text */
	char			*gpu_type;	/* -G TYPE:N: the GPUs' model */
	char			*nodelist;	/* -w: the nodes it may run on */
	char			*exclude;	/* -x: those it may not */
	struct jobshape		 shape;		/* -N, --ntasks-per-node, ... */
	struct jobshape_out	 shaped;	/* resolved by jobspec_check */

	unsigned		 timeout;	/* --timeout, seconds */
	bool			 timeout_set;

	char			*wrap;		/* --wrap command */
	char			*script_path;	/* as given */
	char			*script;	/* its text */
	char			**argv;		/* the script's arguments */
	int			 argc;

	/* grun: the command line is a command and its arguments, not a
	 * script (argv holds them all). */
	bool			 command;
	bool			 pty;		/* --pty */
	bool			 preemptible;	/* --preemptible */
	uint64_t		 jobid;		/* --jobid: attach; 0 none */
};

static const char jobspec_optstring[] =
    "+:G:J:o:e:D:t:A:a:b:d:w:x:N:n:c:HWhV";
static const struct option jobspec_longopts[] = {
	{ "gpus", required_argument, NULL, 'G' },
	{ "job-name", required_argument, NULL, 'J' },
	{ "output", required_argument, NULL, 'o' },
	{ "error", required_argument, NULL, 'e' },
	{ "chdir", required_argument, NULL, 'D' },
	{ "time", required_argument, NULL, 't' },
	{ "begin", required_argument, NULL, 'b' },
	{ "array", required_argument, NULL, 'a' },
	{ "nodelist", required_argument, NULL, 'w' },
	{ "exclude", required_argument, NULL, 'x' },
	{ "nodes", required_argument, NULL, 'N' },
	{ "gpus-per-node", required_argument, NULL,
	    JOBSPEC_OPT_GPUS_PER_NODE },
	{ "any-shape", no_argument, NULL, JOBSPEC_OPT_ANY_SHAPE },
	{ "ntasks", required_argument, NULL, 'n' },
	{ "ntasks-per-node", required_argument, NULL,
	    JOBSPEC_OPT_TASKS_PER_NODE },
	{ "gpus-per-task", required_argument, NULL,
	    JOBSPEC_OPT_GPUS_PER_TASK },
	{ "gpu-bind", required_argument, NULL, JOBSPEC_OPT_GPU_BIND },
	{ "cpus-per-task", required_argument, NULL, 'c' },
	{ "cpus-per-gpu", required_argument, NULL, JOBSPEC_OPT_CPUS_PER_GPU },
	{ "mem", required_argument, NULL, JOBSPEC_OPT_MEM },
	{ "mem-per-gpu", required_argument, NULL, JOBSPEC_OPT_MEM_PER_GPU },
	{ "dependency", required_argument, NULL, 'd' },
	{ "kill-on-invalid-dep", required_argument, NULL,
	    JOBSPEC_OPT_KILL_DEP },
	{ "open-mode", required_argument, NULL, JOBSPEC_OPT_OPEN_MODE },
	{ "signal", required_argument, NULL, JOBSPEC_OPT_SIGNAL },
	{ "export", required_argument, NULL, JOBSPEC_OPT_EXPORT },
	{ "hold", no_argument, NULL, 'H' },
	{ "parsable", no_argument, NULL, JOBSPEC_OPT_PARSABLE },
	{ "wrap", required_argument, NULL, JOBSPEC_OPT_WRAP },
	{ "ckpt-signal", required_argument, NULL, JOBSPEC_OPT_CKPT_SIGNAL },
	{ "ckpt-grace", required_argument, NULL, JOBSPEC_OPT_CKPT_GRACE },
	{ "no-requeue", no_argument, NULL, JOBSPEC_OPT_NO_REQUEUE },
	{ "consolidate", no_argument, NULL, JOBSPEC_OPT_CONSOLIDATE },
	{ "spread", no_argument, NULL, JOBSPEC_OPT_SPREAD },
	{ "account", required_argument, NULL, 'A' },
	{ "comment", required_argument, NULL, JOBSPEC_OPT_COMMENT },
	{ "wait", no_argument, NULL, 'W' },
	{ "test-only", no_argument, NULL, JOBSPEC_OPT_TEST_ONLY },
	{ "pty", no_argument, NULL, JOBSPEC_OPT_PTY },
	{ "jobid", required_argument, NULL, JOBSPEC_OPT_JOBID },
	{ "preemptible", no_argument, NULL, JOBSPEC_OPT_PREEMPTIBLE },
	CMD_TIMEOUT_LONGOPT,
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};
#define JOBSPEC_NLONGOPTS \
	(sizeof jobspec_longopts / sizeof jobspec_longopts[0] - 1)

/* gsub's options and sbatch's that gsub has not (slurm-opt.h), as
 * getopt_long takes them: made once. */
static struct option	 jobspec_all[JOBSPEC_NLONGOPTS + 160];
static char		 jobspec_all_short[sizeof jobspec_optstring + 96];

static void
jobspec_options(void)
{
	const struct slurm_opt	*t;
	size_t			 n, i, k = JOBSPEC_NLONGOPTS, len;

	if (jobspec_all[0].name != NULL)
		return;
	memcpy(jobspec_all, jobspec_longopts, k * sizeof jobspec_all[0]);
	strcpy(jobspec_all_short, jobspec_optstring);
	t = slurm_opt_table(&n);
	for (i = 0; i < n && k + 1 < sizeof jobspec_all /
	    sizeof jobspec_all[0]; i++) {
		if (t[i].what == SLURM_DO_SAME)
			continue;
		jobspec_all[k].name = t[i].name;
		jobspec_all[k].has_arg = t[i].has_arg;
		jobspec_all[k].flag = NULL;
		jobspec_all[k].val = JOBSPEC_OPT_SLURM + (int)i;
		k++;
		len = strlen(jobspec_all_short);
		if (t[i].short_opt == 0 || len + 3 >= sizeof jobspec_all_short)
			continue;
		jobspec_all_short[len++] = (char)t[i].short_opt;
		if (t[i].has_arg == required_argument)
			jobspec_all_short[len++] = ':';
		else if (t[i].has_arg == optional_argument) {
			jobspec_all_short[len++] = ':';
			jobspec_all_short[len++] = ':';
		}
		jobspec_all_short[len] = '\0';
	}
	memset(&jobspec_all[k], 0, sizeof jobspec_all[k]);
}

/* The Slurm row of getopt's answer c (a long option's code or a short
 * letter of sbatch's), or NULL for one of gsub's own. */
static const struct slurm_opt *
jobspec_slurm_row(int c)
{
	const struct slurm_opt	*t;
	size_t			 n, i;

	t = slurm_opt_table(&n);
	if (c >= JOBSPEC_OPT_SLURM && c < JOBSPEC_OPT_SLURM + (int)n)
		return (&t[c - JOBSPEC_OPT_SLURM]);
	if (c > 0 && c < 256) {
		for (i = 0; i < n; i++) {
			if (t[i].short_opt == c && t[i].what != SLURM_DO_SAME)
				return (&t[i]);
		}
	}
	return (NULL);
}


struct jobspec *
jobspec_create(void)
{
	struct jobspec	*js;

	js = xcalloc(1, sizeof *js);
	js->gpus = 1;
	return (js);
}

void
jobspec_sbatch(struct jobspec *js)
{
	js->default_output = JOBSPEC_SBATCH_OUTPUT;
}

void
jobspec_free(struct jobspec *js)
{
	int	i;

	if (js == NULL)
		return;
	free(js->name);
	free(js->output);
	free(js->error);
	free(js->chdir);
	free(js->export);
	free(js->account);
	free(js->comment);
	free(js->dependency);
	free(js->array);
	free(js->gpu_type);
	free(js->nodelist);
	free(js->exclude);
	free(js->wrap);
	free(js->script_path);
	free(js->script);
	for (i = 0; i < js->argc; i++)
		free(js->argv[i]);
	free(js->argv);
	free(js);
}

bool
jobspec_parsable(const struct jobspec *js)
{
	return (js->parsable);
}

bool
jobspec_quiet(const struct jobspec *js)
{
	return (js->quiet);
}

bool
jobspec_test_only(const struct jobspec *js)
{
	return (js->test_only);
}

void
jobspec_command(struct jobspec *js)
{
	js->command = true;
}

bool
jobspec_pty(const struct jobspec *js)
{
	return (js->pty);
}

bool
jobspec_preemptible(const struct jobspec *js)
{
	return (js->preemptible);
}

uint64_t
jobspec_jobid(const struct jobspec *js)
{
	return (js->jobid);
}

const char *
jobspec_nodelist(const struct jobspec *js)
{
	return (js->nodelist);
}

/* gsub's options that make no sense for a job run in the foreground. */
static int
jobspec_grun_refuses(const struct jobspec *js, char *err, size_t errlen)
{
	const char	*opt = NULL, *why = NULL;

	if (js->array != NULL) {
		opt = "array";
		why = "a job array cannot be interactive; submit it with gsub";
	} else if (js->hold) {
		opt = "hold";
		why = "grun waits for its job to start; gsub -H holds a job";
	} else if (js->wait) {
		opt = "wait";
		why = "grun always waits for its command";
	} else if (js->parsable) {
		opt = "parsable";
		why = "grun prints the command's output, not a job id";
	} else if (js->test_only) {
		opt = "test-only";
		why = "gsub --test-only says where and when a job would start";
	}
	if (opt == NULL)
		return (0);
	snprintf(err, errlen, "--%s: %s", opt, why);
	return (-1);
}

/* grun's own options: refused by gsub, whose jobs run in the background.
 * Returns 0, 1 when c is not one of them, or -1 with err set. */
static int
jobspec_grun_opt(struct jobspec *js, int c, const char *arg, char *err,
    size_t errlen)
{
	char		*end;
	unsigned long long v;
	const char	*name;

	switch (c) {
	case JOBSPEC_OPT_PTY:
		name = "pty";
		break;
	case JOBSPEC_OPT_JOBID:
		name = "jobid";
		break;
	case JOBSPEC_OPT_PREEMPTIBLE:
		name = "preemptible";
		break;
	default:
		return (1);
	}
	if (!js->command) {
		snprintf(err, errlen, "--%s: an option of grun, which runs a "
		    "command in the foreground; gsub's jobs run in the "
		    "background", name);
		return (-1);
	}
	if (c == JOBSPEC_OPT_PTY)
		js->pty = true;
	else if (c == JOBSPEC_OPT_PREEMPTIBLE)
		js->preemptible = true;
	else {
		errno = 0;
		v = strtoull(arg, &end, 10);
		if (errno != 0 || end == arg || *end != '\0' || v == 0 ||
		    *arg == '-' || v > INT64_MAX) {
			snprintf(err, errlen, "--jobid: expected a job id, got "
			    "\"%s\"", arg);
			return (-1);
		}
		js->jobid = v;
	}
	return (0);
}

bool
jobspec_wait(const struct jobspec *js)
{
	return (js->wait);
}

unsigned
jobspec_timeout(const struct jobspec *js)
{
	return (js->timeout);
}

/* Whether s is valid UTF-8 (JSON carries nothing else). */
static bool
jobspec_is_text(const char *s)
{
	json_t	*j;

	if ((j = json_string(s)) == NULL)
		return (false);
	json_decref(j);
	return (true);
}

/* Whether s is valid UTF-8 without control characters (what a name or a
 * file pattern may hold). jansson checks the encoding for us. */
static bool
jobspec_printable(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return (false);
	}
	return (jobspec_is_text(s));
}

static int
jobspec_check_pattern(const char *opt, const char *s, char *err,
    size_t errlen)
{
	char	perr[JOBSPEC_MAX_PATTERN + 256];

	if (*s == '\0' || strlen(s) > JOBSPEC_MAX_PATTERN ||
	    !jobspec_printable(s)) {
		snprintf(err, errlen, "--%s: expected a file name pattern of 1 "
		    "to %d printable characters, got \"%s\"", opt,
		    JOBSPEC_MAX_PATTERN, s);
		return (-1);
	}
	if (outpat_check(s, perr, sizeof perr) == -1) {
		snprintf(err, errlen, "--%s: %s", opt, perr);
		return (-1);
	}
	return (0);
}

/* Validates one option's value and stores it unless the command line set
 * it already. err gets "--OPTION: what was wrong". */
/* --signal=[B:]SIG[@SECONDS], sbatch's. */
struct jobspec_warn {
	int		 sig;
	unsigned	 secs;
	bool		 batch;
};

static int
jobspec_signal(const char *arg, struct jobspec_warn *w, char *err,
    size_t errlen)
{
	char		 name[64], derr[256], *end;
	const char	*at, *s = arg;
	unsigned long	 secs = JOBSPEC_WARN_DEFAULT;

	w->batch = false;
	if (strncmp(s, "B:", 2) == 0) {
		w->batch = true;
		s += 2;
	} else if (strncmp(s, "R:", 2) == 0) {
		snprintf(err, errlen, "--signal: R: is for reservations, which "
		    "gbatch has not; give [B:]SIG[@SECONDS]");
		return (-1);
	}
	at = strchr(s, '@');
	snprintf(name, sizeof name, "%.*s", (int)(at != NULL ? at - s :
	    (ptrdiff_t)strlen(s)), s);
	if (cmd_parse_signal(name, &w->sig, derr, sizeof derr) == -1) {
		snprintf(err, errlen, "--signal: %s; expected [B:]SIG[@SECONDS]",
		    derr);
		return (-1);
	}
	if (at != NULL) {
		errno = 0;
		secs = strtoul(at + 1, &end, 10);
		if (errno != 0 || end == at + 1 || *end != '\0' ||
		    secs > JOBSPEC_WARN_MAX) {
			snprintf(err, errlen, "--signal: expected SECONDS from 0 "
			    "to %d after '@', got \"%s\"", JOBSPEC_WARN_MAX,
			    at + 1);
			return (-1);
		}
	}
	w->secs = (unsigned)secs;
	return (0);
}

static int
jobspec_set(struct jobspec *js, int opt, const char *arg,
    enum jobspec_src src, char *err, size_t errlen)
{
	enum jobspec_field	 f;
	char			 derr[256], **str = NULL;
	const char		*p;
	long			 gpus = 0;
	uint64_t		 secs = 0;
	time_t			 when = 0;
	struct depend		 dep;
	struct array_set	 aset;
	struct jobspec_warn	 warn = { 0, 0, false };
	char			 gtype[SLURM_OPT_TYPE_MAX + 1] = "";
	char			**names;
	size_t			 nnames;
	int			 sig = 0;
	long			 count = 0;
	uint64_t		 mb = 0;
	bool			 none = false;

	switch (opt) {
	case 'c':
	case JOBSPEC_OPT_CPUS_PER_GPU:
		f = opt == 'c' ? JOBSPEC_F_CPUS_PER_TASK :
		    JOBSPEC_F_CPUS_PER_GPU;
		if (jobshape_count(opt == 'c' ? "cpus-per-task" :
		    "cpus-per-gpu", arg, JOBSHAPE_MAX_CPUS, &count, err,
		    errlen) == -1)
			return (-1);
		break;
	case JOBSPEC_OPT_MEM:
	case JOBSPEC_OPT_MEM_PER_GPU:
		f = opt == JOBSPEC_OPT_MEM ? JOBSPEC_F_MEM :
		    JOBSPEC_F_MEM_PER_GPU;
		if (jobshape_mem(opt == JOBSPEC_OPT_MEM ? "mem" :
		    "mem-per-gpu", arg, &mb, err, errlen) == -1)
			return (-1);
		break;
	case 'N':
		f = JOBSPEC_F_NODES;
		if (jobshape_nodes(arg, &count, err, errlen) == -1)
			return (-1);
		break;
	case JOBSPEC_OPT_GPUS_PER_NODE:
	case JOBSPEC_OPT_GPUS_PER_TASK:
		f = opt == JOBSPEC_OPT_GPUS_PER_NODE ?
		    JOBSPEC_F_GPUS_PER_NODE : JOBSPEC_F_GPUS_PER_TASK;
		p = opt == JOBSPEC_OPT_GPUS_PER_NODE ? "gpus-per-node" :
		    "gpus-per-task";
		if (strchr(arg, ':') != NULL) {
			if ((count = slurm_opt_gpus(p, arg, 0, gtype,
			    sizeof gtype, err, errlen)) == -1)
				return (-1);
		} else if (jobshape_count(p, arg, opt ==
		    JOBSPEC_OPT_GPUS_PER_NODE ? JOBSPEC_MAX_GPUS_PER_NODE :
		    JOBSPEC_MAX_GPUS, &count, err, errlen) == -1)
			return (-1);
		break;
	case 'n':
		f = JOBSPEC_F_NTASKS;
		if (jobshape_count("ntasks", arg, JOBSHAPE_MAX_NODES *
		    JOBSHAPE_MAX_TASKS, &count, err, errlen) == -1)
			return (-1);
		break;
	case JOBSPEC_OPT_TASKS_PER_NODE:
		f = JOBSPEC_F_TASKS_PER_NODE;
		if (jobshape_tasks(arg, &count, err, errlen) == -1)
			return (-1);
		break;
	case JOBSPEC_OPT_ANY_SHAPE:
		f = JOBSPEC_F_ANY_SHAPE;
		break;
	case JOBSPEC_OPT_GPU_BIND:
		f = JOBSPEC_F_GPU_BIND;
		if (jobshape_bind(arg, &none, err, errlen) == -1)
			return (-1);
		break;
	case 'G':
		f = JOBSPEC_F_GPUS;
		/* TYPE:N, sbatch's --gpus=a100:2: GPUs of that model. */
		if (strchr(arg, ':') != NULL) {
			if ((gpus = slurm_opt_gpus("gpus", arg, 0, gtype,
			    sizeof gtype, err, errlen)) == -1)
				return (-1);
			break;
		}
		for (p = arg; isdigit((unsigned char)*p); p++) {
			gpus = gpus * 10 + (*p - '0');
			if (gpus > JOBSPEC_MAX_GPUS)
				break;
		}
		if (*arg == '\0' || *p != '\0' || gpus < 1) {
			snprintf(err, errlen, "--gpus: expected a whole number "
			    ">= 1, got \"%s\"", arg);
			return (-1);
		}
		if (gpus > JOBSPEC_MAX_GPUS) {
			snprintf(err, errlen, "--gpus: expected a whole number "
			    "from 1 to %d, got \"%s\"", JOBSPEC_MAX_GPUS, arg);
			return (-1);
		}
		break;
	case 'J':
		f = JOBSPEC_F_NAME;
		str = &js->name;
		if (*arg == '\0' || strlen(arg) > JOBSPEC_MAX_NAME ||
		    !jobspec_printable(arg)) {
			snprintf(err, errlen, "--job-name: expected 1 to %d "
			    "printable characters, got \"%s\"",
			    JOBSPEC_MAX_NAME, arg);
			return (-1);
		}
		break;
	case 'o':
	case 'e':
		f = opt == 'o' ? JOBSPEC_F_OUTPUT : JOBSPEC_F_ERROR;
		str = opt == 'o' ? &js->output : &js->error;
		if (jobspec_check_pattern(opt == 'o' ? "output" : "error", arg,
		    err, errlen) == -1)
			return (-1);
		break;
	case 'D':
		f = JOBSPEC_F_CHDIR;
		str = &js->chdir;
		if (*arg == '\0' || strlen(arg) >= PATH_MAX ||
		    !jobspec_printable(arg)) {
			snprintf(err, errlen, "--chdir: expected a directory, "
			    "got \"%s\"", arg);
			return (-1);
		}
		break;
	case 't':
		f = JOBSPEC_F_TIME;
		if (duration_parse(arg, &secs, derr, sizeof derr) == -1) {
			snprintf(err, errlen, "--time: %s", derr);
			return (-1);
		}
		break;
	case 'b':
		f = JOBSPEC_F_BEGIN;
		if (when_parse_next(arg, time(NULL), &when, derr,
		    sizeof derr) == -1) {
			snprintf(err, errlen, "--begin: %s", derr);
			return (-1);
		}
		break;
	case 'a':
		f = JOBSPEC_F_ARRAY;
		str = &js->array;
		if (array_parse(arg, &aset, derr, sizeof derr) == -1) {
			snprintf(err, errlen, "--array: %s", derr);
			return (-1);
		}
		array_free(&aset);
		break;
	case 'w':
	case 'x':
		f = opt == 'w' ? JOBSPEC_F_NODELIST : JOBSPEC_F_EXCLUDE;
		str = opt == 'w' ? &js->nodelist : &js->exclude;
		if (hostlist_expand(arg, &names, &nnames, derr,
		    sizeof derr) == -1) {
			snprintf(err, errlen, "--%s: %s", opt == 'w' ?
			    "nodelist" : "exclude", derr);
			return (-1);
		}
		hostlist_free(names, nnames);
		break;
	case 'd':
		f = JOBSPEC_F_DEPENDENCY;
		str = &js->dependency;
		if (depend_parse(arg, &dep, derr, sizeof derr) == -1) {
			snprintf(err, errlen, "--dependency: %s", derr);
			return (-1);
		}
		depend_free(&dep);
		break;
	case JOBSPEC_OPT_KILL_DEP:
		f = JOBSPEC_F_KILL_DEP;
		if (strcmp(arg, "yes") != 0 && strcmp(arg, "no") != 0) {
			snprintf(err, errlen, "--kill-on-invalid-dep: expected "
			    "yes or no, got \"%s\"", arg);
			return (-1);
		}
		break;
	case JOBSPEC_OPT_SIGNAL:
		f = JOBSPEC_F_SIGNAL;
		if (jobspec_signal(arg, &warn, err, errlen) == -1)
			return (-1);
		break;
	case JOBSPEC_OPT_OPEN_MODE:
		f = JOBSPEC_F_OPEN_MODE;
		if (strcmp(arg, "append") != 0 && strcmp(arg, "truncate") !=
		    0) {
			snprintf(err, errlen, "--open-mode: expected truncate "
			    "or append, got \"%s\"", arg);
			return (-1);
		}
		break;
	case JOBSPEC_OPT_EXPORT:
		f = JOBSPEC_F_EXPORT;
		str = &js->export;
		if (jobenv_check(arg, err, errlen) == -1)
			return (-1);
		break;
	case 'H':
		f = JOBSPEC_F_HOLD;
		break;
	case JOBSPEC_OPT_PARSABLE:
		f = JOBSPEC_F_PARSABLE;
		break;
	case 'W':
		f = JOBSPEC_F_WAIT;
		break;
	case JOBSPEC_OPT_TEST_ONLY:
		f = JOBSPEC_F_TEST_ONLY;
		break;
	case JOBSPEC_OPT_CKPT_SIGNAL:
		f = JOBSPEC_F_CKPT_SIGNAL;
		if (cmd_parse_signal(arg, &sig, derr, sizeof derr) == -1) {
			snprintf(err, errlen, "--ckpt-signal: %s", derr);
			return (-1);
		}
		break;
	case JOBSPEC_OPT_CKPT_GRACE:
		f = JOBSPEC_F_CKPT_GRACE;
		if (duration_parse(arg, &secs, derr, sizeof derr) == -1) {
			snprintf(err, errlen, "--ckpt-grace: %s", derr);
			return (-1);
		}
		break;
	case JOBSPEC_OPT_NO_REQUEUE:
		f = JOBSPEC_F_NO_REQUEUE;
		break;
	case JOBSPEC_OPT_CONSOLIDATE:
	case JOBSPEC_OPT_SPREAD:
		f = JOBSPEC_F_PLACEMENT;
		break;
	case 'A':
		f = JOBSPEC_F_ACCOUNT;
		str = &js->account;
		if (!label_ok(arg)) {
			snprintf(err, errlen, "--account: expected 1 to %d "
			    "letters, digits, '.', '-' or '_', got \"%s\"",
			    LABEL_MAX, arg);
			return (-1);
		}
		break;
	case JOBSPEC_OPT_COMMENT:
		f = JOBSPEC_F_COMMENT;
		str = &js->comment;
		if (strlen(arg) > JOBSPEC_MAX_COMMENT ||
		    !jobspec_printable(arg)) {
			snprintf(err, errlen, "--comment: expected up to %d "
			    "printable characters, got \"%s\"",
			    JOBSPEC_MAX_COMMENT, arg);
			return (-1);
		}
		break;
	default:
		snprintf(err, errlen, "option %d is not a job option", opt);
		return (-1);
	}
	if (src < js->src[f])
		return (0);
	/* The command line overrides a directive, but two placements from
	 * the same place contradict each other. */
	if (f == JOBSPEC_F_PLACEMENT && src == js->src[f] &&
	    strcmp(js->placement, opt == JOBSPEC_OPT_SPREAD ? "spread" :
	    "consolidate") != 0) {
		snprintf(err, errlen, "--consolidate and --spread exclude each "
		    "other: the fewest nodes, or the emptiest ones; give one");
		return (-1);
	}
	js->src[f] = src;
	switch (f) {
	case JOBSPEC_F_GPUS:
		js->gpus = gpus;
		free(js->gpu_type);
		js->gpu_type = *gtype != '\0' ? xstrdup(gtype) : NULL;
		break;
	case JOBSPEC_F_TIME:
		js->time_limit = secs;
		break;
	case JOBSPEC_F_BEGIN:
		js->begin = when > 0 ? (int64_t)when : 0;
		break;
	case JOBSPEC_F_KILL_DEP:
		js->kill_dep = strcmp(arg, "yes") == 0 ? 1 : 2;
		break;
	case JOBSPEC_F_OPEN_MODE:
		js->append = strcmp(arg, "append") == 0;
		break;
	case JOBSPEC_F_SIGNAL:
		js->warn_signal = warn.sig;
		js->warn_time = warn.secs;
		js->warn_batch = warn.batch;
		break;
	case JOBSPEC_F_HOLD:
		js->hold = true;
		break;
	case JOBSPEC_F_PARSABLE:
		js->parsable = true;
		break;
	case JOBSPEC_F_TEST_ONLY:
		js->test_only = true;
		break;
	case JOBSPEC_F_WAIT:
		js->wait = true;
		break;
	case JOBSPEC_F_CKPT_SIGNAL:
		js->ckpt_signal = sig;
		break;
	case JOBSPEC_F_CKPT_GRACE:
		js->ckpt_grace = secs;
		js->ckpt_grace_set = true;
		break;
	case JOBSPEC_F_NO_REQUEUE:
		js->no_requeue = true;
		break;
	case JOBSPEC_F_PLACEMENT:
		js->placement = opt == JOBSPEC_OPT_SPREAD ? "spread" :
		    "consolidate";
		break;
	case JOBSPEC_F_NODES:
		js->shape.nodes = count;
		break;
	case JOBSPEC_F_CPUS_PER_TASK:
		js->shape.cpus_per_task = count;
		break;
	case JOBSPEC_F_CPUS_PER_GPU:
		js->shape.cpus_per_gpu = count;
		break;
	case JOBSPEC_F_MEM:
		js->shape.mem = mb;
		break;
	case JOBSPEC_F_MEM_PER_GPU:
		js->shape.mem_per_gpu = mb;
		break;
	case JOBSPEC_F_GPUS_PER_NODE:
	case JOBSPEC_F_GPUS_PER_TASK:
		if (f == JOBSPEC_F_GPUS_PER_NODE)
			js->shape.gpus_per_node = count;
		else
			js->shape.gpus_per_task = count;
		if (*gtype != '\0') {
			free(js->gpu_type);
			js->gpu_type = xstrdup(gtype);
		}
		break;
	case JOBSPEC_F_NTASKS:
		js->shape.ntasks = count;
		break;
	case JOBSPEC_F_TASKS_PER_NODE:
		js->shape.tasks_per_node = count;
		break;
	case JOBSPEC_F_ANY_SHAPE:
		js->shape.any_shape = true;
		break;
	case JOBSPEC_F_GPU_BIND:
		js->shape.bind_none = none;
		break;
	default:
		free(*str);
		*str = xstrdup(arg);
		break;
	}
	return (0);
}

/* Applies sbatch's option o: as the gsub option it maps to, or refused
 * with the gbatch way. */
static int
jobspec_slurm(struct jobspec *js, const struct slurm_opt *o, const char *arg,
    enum jobspec_src src, char *err, size_t errlen)
{
	char	n[SLURM_OPT_TYPE_MAX + 32], type[SLURM_OPT_TYPE_MAX + 1];
	long	gpus;

	switch (o->what) {
	case SLURM_DO_GPUS:
		if ((gpus = slurm_opt_gpus(o->name, arg, strcmp(o->name,
		    "gres") == 0, type, sizeof type, err, errlen)) == -1)
			return (-1);
		snprintf(n, sizeof n, "%s%s%ld", type, *type != '\0' ? ":" :
		    "", gpus);
		return (jobspec_set(js, 'G', n, src, err, errlen));
	case SLURM_DO_SPREAD:
		return (jobspec_set(js, JOBSPEC_OPT_SPREAD, NULL, src, err,
		    errlen));
	case SLURM_DO_QUIET:
		js->quiet = true;
		return (0);
	case SLURM_DO_ACCEPT:
		return (0);
	case SLURM_DO_SAME:
	case SLURM_DO_HELP:
	case SLURM_DO_REFUSE:
		break;
	}
	snprintf(err, errlen, "--%s: %s", o->name, o->says);
	return (-1);
}

int
jobspec_parse_args(struct jobspec *js, int argc, char **argv,
    enum jobspec_action *action, char *err, size_t errlen)
{
	const struct slurm_opt	*o;
	int			 c, i;

	*action = JOBSPEC_SUBMIT;
	jobspec_options();
	optind = 0;	/* GNU: start afresh, whatever ran before */
	opterr = 0;
	while ((c = getopt_long(argc, argv, jobspec_all_short, jobspec_all,
	    NULL)) != -1) {
		if ((o = jobspec_slurm_row(c)) != NULL) {
			if (o->what == SLURM_DO_HELP) {
				*action = JOBSPEC_HELP;
				return (0);
			}
			if (jobspec_slurm(js, o, optarg, JOBSPEC_SRC_CMDLINE,
			    err, errlen) == -1)
				return (-1);
			continue;
		}
		switch (c) {
		case 'h':
			*action = JOBSPEC_HELP;
			return (0);
		case 'V':
			*action = JOBSPEC_VERSION;
			return (0);
		case JOBSPEC_OPT_PTY:
		case JOBSPEC_OPT_JOBID:
		case JOBSPEC_OPT_PREEMPTIBLE:
			if (jobspec_grun_opt(js, c, optarg, err, errlen) == -1)
				return (-1);
			break;
		case JOBSPEC_OPT_WRAP:
			if (js->command) {
				snprintf(err, errlen, "--wrap: grun runs the "
				    "command given after its options");
				return (-1);
			}
			if (*optarg == '\0' || !jobspec_is_text(optarg)) {
				snprintf(err, errlen, "--wrap: expected a "
				    "command line of text, got \"%s\"", optarg);
				return (-1);
			}
			free(js->wrap);
			js->wrap = xstrdup(optarg);
			break;
		case CMD_OPT_TIMEOUT:
			if (cmd_timeout(optarg, &js->timeout, err, errlen) == -1)
				return (-1);
			js->timeout_set = true;
			break;
		case '?':
		case ':':
			cmd_option_error(c, argv, jobspec_all_short,
			    jobspec_all, err, errlen);
			return (-1);
		default:
			if (jobspec_set(js, c, optarg, JOBSPEC_SRC_CMDLINE, err,
			    errlen) == -1)
				return (-1);
			break;
		}
	}
	if (!js->timeout_set && cmd_timeout(NULL, &js->timeout, err,
	    errlen) == -1)
		return (-1);
	if (js->wrap != NULL && optind < argc) {
		snprintf(err, errlen, "--wrap and a script (\"%s\") exclude each "
		    "other; give one", argv[optind]);
		return (-1);
	}
	/* No script: standard input, decided when it is read. */
	if (js->wrap != NULL || optind == argc)
		return (0);
	if (!js->command)
		js->script_path = xstrdup(argv[optind++]);
	js->argc = argc - optind;
	js->argv = xcalloc((size_t)js->argc + 1, sizeof *js->argv);
	for (i = 0; i < js->argc; i++) {
		if (!jobspec_is_text(argv[optind + i])) {
			snprintf(err, errlen, "%s argument %d is not text",
			    js->command ? "command" : "script", i + 1);
			return (-1);
		}
		js->argv[i] = xstrdup(argv[optind + i]);
	}
	return (0);
}

/* Splits a directive line into words as a shell would for simple cases:
 * blanks separate, '...' and "..." quote, a backslash escapes, and an
 * unquoted # starts a comment. Words are written into buf (in place).
 * Returns the number of words, or -1 with err set. */
static int
jobspec_words(char *buf, char **words, int max, char *err, size_t errlen)
{
	char	*r = buf, *w = buf, quote;
	int	 n = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (*r == '\0' || *r == '#')
			return (n);
		if (n == max) {
			snprintf(err, errlen, "more than %d words on one line",
			    max);
			return (-1);
		}
		words[n++] = w;
		quote = '\0';
		for (; *r != '\0'; r++) {
			if (quote == '\0' && (*r == ' ' || *r == '\t'))
				break;
			if (quote == '\0' && (*r == '\'' || *r == '"')) {
				quote = *r;
				continue;
			}
			if (quote != '\0' && *r == quote) {
				quote = '\0';
				continue;
			}
			if (*r == '\\' && quote != '\'' && r[1] != '\0')
				r++;
			*w++ = *r;
		}
		if (quote != '\0') {
			snprintf(err, errlen, "unterminated %c quote", quote);
			return (-1);
		}
		if (*r != '\0')
			r++;
		*w++ = '\0';
	}
}

/* Applies one directive line (the text after its tag, "#GSUB" or
 * "#SBATCH"), from src. */
static int
jobspec_directive(struct jobspec *js, const char *tag, enum jobspec_src src,
    char *line, char *err, size_t errlen)
{
	const struct option	*o;
	const struct slurm_opt	*so;
	char			*words[JOBSPEC_MAX_WORDS + 2];
	char			 werr[256];
	int			 n, c;

	words[0] = (char *)tag;
	if ((n = jobspec_words(line, words + 1, JOBSPEC_MAX_WORDS, werr,
	    sizeof werr)) == -1) {
		snprintf(err, errlen, "%s: %s", tag, werr);
		return (-1);
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: no option given", tag);
		return (-1);
	}
	words[n + 1] = NULL;
	jobspec_options();
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(n + 1, words, jobspec_all_short, jobspec_all,
	    NULL)) != -1) {
		if ((so = jobspec_slurm_row(c)) != NULL) {
			if (so->what == SLURM_DO_HELP) {
				snprintf(err, errlen, "%s --usage: not allowed "
				    "in a script", tag);
				return (-1);
			}
			if (jobspec_slurm(js, so, optarg, src, werr,
			    sizeof werr) == -1) {
				snprintf(err, errlen, "%s %s", tag, werr);
				return (-1);
			}
			continue;
		}
		switch (c) {
		case 'h':
		case 'V':
		case JOBSPEC_OPT_WRAP:
		case CMD_OPT_TIMEOUT:
			/* Named from the table: words[optind - 1] would be
			 * the option's value when it has one. */
			for (o = jobspec_all; o->name != NULL &&
			    o->val != c; o++)
				/* nothing */;
			snprintf(err, errlen, "%s --%s: not allowed in a "
			    "script", tag, o->name);
			return (-1);
		case '?':
		case ':':
			cmd_option_error(c, words, jobspec_all_short,
			    jobspec_all, werr, sizeof werr);
			snprintf(err, errlen, "%s: %s", tag, werr);
			return (-1);
		default:
			if (jobspec_set(js, c, optarg, src, werr,
			    sizeof werr) == -1) {
				snprintf(err, errlen, "%s %s", tag, werr);
				return (-1);
			}
			break;
		}
	}
	if (optind <= n) {
		snprintf(err, errlen, "%s: unexpected \"%s\"; a %s line "
		    "holds options only", tag, words[optind], tag);
		return (-1);
	}
	return (0);
}

/* The directive tag the line of len bytes at p starts with ("#GSUB" or
 * "#SBATCH", followed by a blank or nothing), or NULL. */
static const char *
jobspec_tag(const char *p, size_t len)
{
	static const char *const tags[] = { "#GSUB", "#SBATCH" };
	size_t			 i, n;

	for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
		n = strlen(tags[i]);
		if (len >= n && strncmp(p, tags[i], n) == 0 &&
		    (len == n || p[n] == ' ' || p[n] == '\t'))
			return (tags[i]);
	}
	return (NULL);
}

int
jobspec_parse_directives(struct jobspec *js, const char *text,
    const char *name, char *err, size_t errlen)
{
	const char	*p = text, *nl, *next, *tag;
	char		*line, derr[512];
	size_t		 len, tlen;
	int		 lineno = 0, r;

	/* The next line's start is fixed before the line is trimmed (its
	 * \r, its indent): stepping on by the trimmed length would land
	 * back on a last line's \r and never leave it. */
	for (; *p != '\0'; p = next) {
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		next = nl != NULL ? nl + 1 : p + len;
		lineno++;
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (lineno == 1 && len >= 2 && p[0] == '#' && p[1] == '!')
			continue;
		if ((tag = jobspec_tag(p, len)) != NULL) {
			tlen = strlen(tag);
			if (len == tlen) {
				snprintf(err, errlen, "%s:%d: %s: no option "
				    "given", name, lineno, tag);
				return (-1);
			}
			line = xstrndup(p + tlen, len - tlen);
			r = jobspec_directive(js, tag, tag[1] == 'G' ?
			    JOBSPEC_SRC_DIRECTIVE : JOBSPEC_SRC_SBATCH, line,
			    derr, sizeof derr);
			free(line);
			if (r == -1) {
				snprintf(err, errlen, "%s:%d: %s", name, lineno,
				    derr);
				return (-1);
			}
			continue;
		}
		while (len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		/* sbatch's rule: the directives end at the first line that
		 * is neither blank nor a comment. */
		if (len > 0 && *p != '#')
			break;
	}
	return (0);
}

/* Options that each make sense alone but not together. Checked once all
 * are in, the command line's and the directives' alike. */
static int
jobspec_check(struct jobspec *js, char *err, size_t errlen)
{
	const char	*ckpt = NULL;

	if (js->src[JOBSPEC_F_CKPT_SIGNAL] != JOBSPEC_SRC_NONE)
		ckpt = "--ckpt-signal";
	else if (js->ckpt_grace_set)
		ckpt = "--ckpt-grace";
	if (js->no_requeue && ckpt != NULL) {
		snprintf(err, errlen, "--no-requeue and %s exclude each other: "
		    "a job that is never preempted is never asked to "
		    "checkpoint; give one", ckpt);
		return (-1);
	}
	/* The shape, once -G and every shape option are in. */
	return (jobshape_resolve(&js->shape, js->gpus,
	    js->src[JOBSPEC_F_GPUS] != JOBSPEC_SRC_NONE, &js->shaped, err,
	    errlen));
}

int
jobspec_load_script(struct jobspec *js, char *err, size_t errlen)
{
	struct stat	 sb;
	const char	*path, *name;
	char		*text = NULL;
	ssize_t		 n;
	size_t		 len = 0;
	bool		 in;
	int		 fd;

	if (js->wrap != NULL)
		return (jobspec_check(js, err, errlen));
	if (js->command) {
		if (js->argc == 0) {
			snprintf(err, errlen, "no command given; expected "
			    "grun [options] COMMAND [ARGS...]");
			return (-1);
		}
		if (js->output != NULL || js->error != NULL) {
			snprintf(err, errlen, "--%s: grun relays the command's "
			    "output to you; gsub writes files",
			    js->output != NULL ? "output" : "error");
			return (-1);
		}
		if (jobspec_grun_refuses(js, err, errlen) == -1)
			return (-1);
		return (jobspec_check(js, err, errlen));
	}
	/* As sbatch: no script means standard input, unless that is the
	 * user's terminal, where it would only wait for them. */
	if (js->script_path == NULL) {
		if (isatty(STDIN_FILENO)) {
			snprintf(err, errlen, "no script given; expected a "
			    "script path, - for standard input, or --wrap "
			    "\"command\"");
			return (-1);
		}
		js->script_path = xstrdup("-");
	}
	path = js->script_path;
	in = strcmp(path, "-") == 0;
	name = in ? JOBSPEC_STDIN_NAME : path;
	if (in)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: cannot read the script: %s", name,
		    strerror(errno));
		return (-1);
	}
	if (fstat(fd, &sb) == -1) {
		snprintf(err, errlen, "%s: cannot read the script: %s", name,
		    strerror(errno));
		goto fail;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a script", name);
		goto fail;
	}
	text = xmalloc(JOBSPEC_MAX_SCRIPT + 1);
	for (;;) {
		n = read(fd, text + len, JOBSPEC_MAX_SCRIPT + 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			snprintf(err, errlen, "%s: cannot read the script: %s",
			    name, strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > JOBSPEC_MAX_SCRIPT) {
			snprintf(err, errlen, "%s: the script is larger than "
			    "%u KiB; keep data in files the script reads", name,
			    JOBSPEC_MAX_SCRIPT / 1024);
			goto fail;
		}
	}
	if (!in)
		close(fd);
	fd = -1;
	text[len] = '\0';
	if (len == 0) {
		snprintf(err, errlen, "%s: the script is empty", name);
		goto fail;
	}
	if (memchr(text, '\0', len) != NULL || !jobspec_is_text(text)) {
		snprintf(err, errlen, "%s: not a text script (binary data); "
		    "give a script, or run a program with --wrap \"command\"",
		    name);
		goto fail;
	}
	if (len < 2 || text[0] != '#' || text[1] != '!') {
		snprintf(err, errlen, "%s: the first line must name an "
		    "interpreter, e.g. #!/bin/sh", name);
		goto fail;
	}
	js->script = text;
	if (jobspec_parse_directives(js, text, name, err, errlen) == -1)
		return (-1);
	return (jobspec_check(js, err, errlen));

fail:
	if (fd != -1 && !in)
		close(fd);
	free(text);
	return (-1);
}

/* Makes path absolute against cwd. Returns a new string. */
static char *
jobspec_absolute(const char *path, const char *cwd)
{
	if (*path == '/')
		return (xstrdup(path));
	if (strcmp(path, ".") == 0)
		return (xstrdup(cwd));
	if (strncmp(path, "./", 2) == 0)
		path += 2;
	return (xasprintf("%s%s%s", cwd, cwd[strlen(cwd) - 1] == '/' ? "" :
	    "/", path));
}

json_t *
jobspec_build(const struct jobspec *js, char *const *env, const char *cwd,
    mode_t mask, char *err, size_t errlen)
{
	json_t		*job, *argv;
	const char	*base, *output;
	char		*workdir, *command, *script;
	int		 i;

	if (*cwd != '/') {
		snprintf(err, errlen, "the current directory \"%s\" is not an "
		    "absolute path", cwd);
		return (NULL);
	}
	if (js->wrap == NULL && js->script == NULL && !js->command) {
		snprintf(err, errlen, "no script loaded");
		return (NULL);
	}
	workdir = jobspec_absolute(js->chdir != NULL ? js->chdir : ".", cwd);
	if (js->command) {
		/* grun: the node runs the command itself, without a
		 * script. */
		command = xstrdup(js->argv[0]);
		script = xstrdup("");
		base = strrchr(js->argv[0], '/');
		base = base != NULL && base[1] != '\0' ? base + 1 :
		    js->argv[0];
	} else if (js->wrap != NULL) {
		command = xstrdup(js->wrap);
		script = xasprintf("#!/bin/sh\n%s\n", js->wrap);
		base = "wrap";
	} else if (strcmp(js->script_path, "-") == 0) {
		command = xstrdup("(" JOBSPEC_STDIN_NAME ")");
		script = xstrdup(js->script);
		base = JOBSPEC_STDIN_NAME;
	} else {
		command = jobspec_absolute(js->script_path, cwd);
		script = xstrdup(js->script);
		base = strrchr(js->script_path, '/');
		base = base != NULL ? base + 1 : js->script_path;
		if (*base == '\0')
			base = "script";
	}
	/* An array's tasks write a file each by default, as sbatch's. */
	if (js->output != NULL)
		output = js->output;
	else if (js->array != NULL)
		output = js->default_output != NULL ?
		    JOBSPEC_SBATCH_ARRAY_OUTPUT : JOBSPEC_ARRAY_OUTPUT;
	else
		output = js->default_output != NULL ? js->default_output :
		    JOBSPEC_DEFAULT_OUTPUT;
	/* grun's output goes to grun; no file is written. */
	if (js->command)
		output = "/dev/null";

	argv = json_array();
	for (i = 0; i < js->argc; i++)
		json_array_append_new(argv, json_string(js->argv[i]));
	job = json_object();
	json_object_set_new(job, "name", json_string(js->name != NULL ?
	    js->name : base));
	json_object_set_new(job, "script", json_string(script));
	json_object_set_new(job, "command", json_string(command));
	json_object_set_new(job, "argv", argv);
	json_object_set_new(job, "workdir", json_string(workdir));
	json_object_set_new(job, "stdout", json_string(output));
	json_object_set_new(job, "stderr", json_string(js->error != NULL ?
	    js->error : output));
	json_object_set_new(job, "gpus", json_integer(js->shaped.gpus > 0 ?
	    js->shaped.gpus : js->gpus));
	if (js->shaped.num_nodes > 0)
		json_object_set_new(job, "num_nodes",
		    json_integer(js->shaped.num_nodes));
	if (js->shape.any_shape)
		json_object_set_new(job, "any_shape", json_true());
	if (js->shaped.tasks_per_node == JOBSHAPE_PER_GPU)
		json_object_set_new(job, "tasks_per_node", json_string("gpu"));
	else if (js->shaped.tasks_per_node > 1)
		json_object_set_new(job, "tasks_per_node",
		    json_integer(js->shaped.tasks_per_node));
	if (js->shape.bind_none)
		json_object_set_new(job, "gpu_bind", json_string("none"));
	if (js->shape.cpus_per_task > 0)
		json_object_set_new(job, "cpus_per_task",
		    json_integer(js->shape.cpus_per_task));
	if (js->shape.cpus_per_gpu > 0)
		json_object_set_new(job, "cpus_per_gpu",
		    json_integer(js->shape.cpus_per_gpu));
	if (js->shape.mem > 0)
		json_object_set_new(job, "mem",
		    json_integer((json_int_t)js->shape.mem));
	if (js->shape.mem_per_gpu > 0)
		json_object_set_new(job, "mem_per_gpu",
		    json_integer((json_int_t)js->shape.mem_per_gpu));
	json_object_set_new(job, "time_limit",
	    json_integer((json_int_t)js->time_limit));
	json_object_set_new(job, "env", jobenv_build(js->export != NULL ?
	    js->export : "ALL", env));
	json_object_set_new(job, "hold", json_boolean(js->hold));
	if (js->array != NULL)
		json_object_set_new(job, "array", json_string(js->array));
	if (js->gpu_type != NULL)
		json_object_set_new(job, "gpu_type", json_string(js->gpu_type));
	if (js->nodelist != NULL)
		json_object_set_new(job, "nodelist",
		    json_string(js->nodelist));
	if (js->exclude != NULL)
		json_object_set_new(job, "exclude", json_string(js->exclude));
	if (js->begin > 0)
		json_object_set_new(job, "begin_time",
		    json_integer((json_int_t)js->begin));
	if (js->dependency != NULL)
		json_object_set_new(job, "dependency",
		    json_string(js->dependency));
	if (js->kill_dep != 0)
		json_object_set_new(job, "kill_invalid_dep",
		    json_boolean(js->kill_dep == 1));
	if (js->append)
		json_object_set_new(job, "open_mode", json_string("append"));
	json_object_set_new(job, "umask", json_integer(mask & 0777));
	if (js->ckpt_signal != 0)
		json_object_set_new(job, "ckpt_signal",
		    json_integer(js->ckpt_signal));
	if (js->ckpt_grace_set)
		json_object_set_new(job, "ckpt_grace",
		    json_integer((json_int_t)js->ckpt_grace));
	if (js->warn_signal != 0) {
		json_object_set_new(job, "warn_signal",
		    json_integer(js->warn_signal));
		json_object_set_new(job, "warn_time",
		    json_integer((json_int_t)js->warn_time));
		if (js->warn_batch)
			json_object_set_new(job, "warn_batch", json_true());
		/* The same warning before a preemption, unless the job
		 * named its checkpoint signal and grace itself. */
		if (!js->no_requeue && js->ckpt_signal == 0)
			json_object_set_new(job, "ckpt_signal",
			    json_integer(js->warn_signal));
		if (!js->no_requeue && !js->ckpt_grace_set)
			json_object_set_new(job, "ckpt_grace",
			    json_integer((json_int_t)js->warn_time));
	}
	if (js->no_requeue)
		json_object_set_new(job, "requeue", json_false());
	if (js->placement != NULL)
		json_object_set_new(job, "placement",
		    json_string(js->placement));
	if (js->account != NULL)
		json_object_set_new(job, "account", json_string(js->account));
	if (js->comment != NULL)
		json_object_set_new(job, "comment", json_string(js->comment));
	free(script);
	free(command);
	free(workdir);

	/* A name from the script's file name may not be valid UTF-8, and the
	 * working directory may not be either. */
	if (json_object_get(job, "name") == NULL ||
	    json_object_get(job, "command") == NULL ||
	    json_object_get(job, "workdir") == NULL) {
		snprintf(err, errlen, "the script path or working directory is "
		    "not valid UTF-8 text; rename it, or give -J and -D");
		json_decref(job);
		return (NULL);
	}
	return (job);
}

json_t *
jobspec_build_here(const struct jobspec *js, char *err, size_t errlen)
{
	struct stat	 sb;
	json_t		*job;
	const char	*dir;
	char		 cwd[PATH_MAX];
	mode_t		 mask;

	if (getcwd(cwd, sizeof cwd) == NULL) {
		snprintf(err, errlen, "cannot find the current directory: %s",
		    strerror(errno));
		return (NULL);
	}
	/* The umask can only be read by setting it; nothing is created in
	 * between. The job's output files are made with it, as a shell's
	 * redirection would make them. */
	mask = umask(0);
	umask(mask);
	if ((job = jobspec_build(js, environ, cwd, mask, err, errlen)) ==
	    NULL)
		return (NULL);
	/* Caught here rather than as a failed job minutes later; on a
	 * cluster the working directory is on a shared file system. */
	dir = json_string_value(json_object_get(job, "workdir"));
	if (stat(dir, &sb) == -1)
		snprintf(err, errlen, "working directory %s: %s", dir,
		    strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		snprintf(err, errlen, "working directory %s: not a directory",
		    dir);
	else
		return (job);
	json_decref(job);
	return (NULL);
}
