/* jobspec-opt.c: gsub's options, and what each takes (jobspec-int.h). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client/cmd.h"
#include "client/jobenv.h"
#include "client/jobspec-int.h"
#include "client/when.h"
#include "common/array.h"
#include "common/depend.h"
#include "common/duration.h"
#include "common/hostlist.h"
#include "common/label.h"
#include "common/outpat.h"
#include "common/xmalloc.h"

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
jobspec_opt_all(void)
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

const struct slurm_opt *
jobspec_opt_slurm_row(int c)
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


static int
jobspec_opt_pattern(const char *opt, const char *s, char *err,
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

/* --signal=[B:]SIG[@SECONDS], sbatch's. */
struct jobspec_opt_warn {
	int		 sig;
	unsigned	 secs;
	bool		 batch;
};

static int
jobspec_opt_signal(const char *arg, struct jobspec_opt_warn *w, char *err,
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

int
jobspec_opt_set(struct jobspec *js, int opt, const char *arg,
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
	struct jobspec_opt_warn	 warn = { 0, 0, false };
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
		if (jobspec_shape_count(opt == 'c' ? "cpus-per-task" :
		    "cpus-per-gpu", arg, JOBSPEC_SHAPE_MAX_CPUS, &count, err,
		    errlen) == -1)
			return (-1);
		break;
	case JOBSPEC_OPT_MEM:
	case JOBSPEC_OPT_MEM_PER_GPU:
		f = opt == JOBSPEC_OPT_MEM ? JOBSPEC_F_MEM :
		    JOBSPEC_F_MEM_PER_GPU;
		if (jobspec_shape_mem(opt == JOBSPEC_OPT_MEM ? "mem" :
		    "mem-per-gpu", arg, &mb, err, errlen) == -1)
			return (-1);
		break;
	case 'N':
		f = JOBSPEC_F_NODES;
		if (jobspec_shape_nodes(arg, &count, err, errlen) == -1)
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
		} else if (jobspec_shape_count(p, arg, opt ==
		    JOBSPEC_OPT_GPUS_PER_NODE ? JOBSPEC_MAX_GPUS_PER_NODE :
		    JOBSPEC_MAX_GPUS, &count, err, errlen) == -1)
			return (-1);
		break;
	case 'n':
		f = JOBSPEC_F_NTASKS;
		if (jobspec_shape_count("ntasks", arg, JOBSPEC_SHAPE_MAX_NODES *
		    JOBSPEC_SHAPE_MAX_TASKS, &count, err, errlen) == -1)
			return (-1);
		break;
	case JOBSPEC_OPT_TASKS_PER_NODE:
		f = JOBSPEC_F_TASKS_PER_NODE;
		if (jobspec_shape_tasks(arg, &count, err, errlen) == -1)
			return (-1);
		break;
	case JOBSPEC_OPT_ANY_SHAPE:
		f = JOBSPEC_F_ANY_SHAPE;
		break;
	case JOBSPEC_OPT_GPU_BIND:
		f = JOBSPEC_F_GPU_BIND;
		if (jobspec_shape_bind(arg, &none, err, errlen) == -1)
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
		if (jobspec_opt_pattern(opt == 'o' ? "output" : "error", arg,
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
		if (jobspec_opt_signal(arg, &warn, err, errlen) == -1)
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

const struct option *
jobspec_opt_getopt(const char **shortopts)
{
	jobspec_opt_all();
	*shortopts = jobspec_all_short;
	return (jobspec_all);
}
