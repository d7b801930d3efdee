/* slurm-opt.c: sbatch's options as gsub takes them (slurm-opt.h). */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "client/slurm-opt.h"
#include "common/job-req.h"

#define REQ	required_argument
#define NO	no_argument
#define OPT	optional_argument

/* Why whole groups of options are refused. */
#define SLURM_CPUS	"gbatch gives a job CPUs and memory per GPU or per " \
			"node (-c, --cpus-per-gpu, --mem, --mem-per-gpu; by " \
			"default the node's share per GPU); leave it out"
#define SLURM_FEATURES	"gbatch's nodes have no features: any node with " \
			"free GPUs may run a job; leave it out"
#define SLURM_NAMED	"gbatch takes the nodes a job may run on, and those " \
			"it may not, as -w and -x (node names); give those"
#define SLURM_TASKS	"gbatch starts the same tasks on each node " \
			"(--ntasks-per-node K or gpu); give those"

static const struct slurm_opt slurm_opts[] = {
	/* gsub's own, under the same names. */
	{ "gpus", 'G', REQ, SLURM_DO_SAME, "[TYPE:]N", "-G [TYPE:]N" },
	{ "job-name", 'J', REQ, SLURM_DO_SAME, "NAME", "-J NAME" },
	{ "output", 'o', REQ, SLURM_DO_SAME, "PATTERN", "-o PATTERN (%j %x %u %N %t)" },
	{ "error", 'e', REQ, SLURM_DO_SAME, "PATTERN", "-e PATTERN" },
	{ "chdir", 'D', REQ, SLURM_DO_SAME, "DIR", "-D DIR" },
	{ "time", 't', REQ, SLURM_DO_SAME, "LIMIT", "-t LIMIT (Slurm's forms)" },
	{ "export", 0, REQ, SLURM_DO_SAME, "WHAT", "--export=ALL|NONE|VARS" },
	{ "hold", 'H', NO, SLURM_DO_SAME, NULL, "-H" },
	{ "parsable", 0, NO, SLURM_DO_SAME, NULL, "--parsable" },
	{ "wrap", 0, REQ, SLURM_DO_SAME, "\"command\"", "--wrap" },
	{ "no-requeue", 0, NO, SLURM_DO_SAME, NULL, "--no-requeue" },
	{ "help", 'h', NO, SLURM_DO_SAME, NULL, "--help" },
	{ "version", 'V', NO, SLURM_DO_SAME, NULL, "--version" },
	{ "account", 'A', REQ, SLURM_DO_SAME, "ACCOUNT", "-A ACCOUNT" },
	{ "partition", 'p', REQ, SLURM_DO_SAME, "NAME[,NAME]",
	    "-p NAME[,NAME]" },
	{ "comment", 0, REQ, SLURM_DO_SAME, "TEXT", "--comment TEXT" },
	{ "wait", 'W', NO, SLURM_DO_SAME, NULL, "-W" },
	{ "test-only", 0, NO, SLURM_DO_SAME, NULL, "--test-only" },
	{ "begin", 'b', REQ, SLURM_DO_SAME, "TIME", "-b TIME (Slurm's forms)" },
	{ "dependency", 'd', REQ, SLURM_DO_SAME, "SPEC", "-d SPEC" },
	{ "array", 'a', REQ, SLURM_DO_SAME, "SPEC", "-a SPEC (%A, %a)" },
	{ "nodelist", 'w', REQ, SLURM_DO_SAME, "NODES", "-w NODES (only these)" },
	{ "exclude", 'x', REQ, SLURM_DO_SAME, "NODES", "-x NODES" },
	{ "kill-on-invalid-dep", 0, REQ, SLURM_DO_SAME, "yes|no",
	    "--kill-on-invalid-dep" },
	{ "open-mode", 0, REQ, SLURM_DO_SAME, "append|truncate",
	    "--open-mode" },
	{ "signal", 0, REQ, SLURM_DO_SAME, "[B:]SIG[@SECS]", "--signal" },
	{ "nodes", 'N', REQ, SLURM_DO_SAME, "N", "-N N (exactly)" },
	{ "gpus-per-node", 0, REQ, SLURM_DO_SAME, "[TYPE:]N",
	    "--gpus-per-node" },
	{ "ntasks", 'n', REQ, SLURM_DO_SAME, "N", "-n N (the same on each "
	    "node)" },
	{ "ntasks-per-node", 0, REQ, SLURM_DO_SAME, "N|gpu",
	    "--ntasks-per-node" },
	{ "gpus-per-task", 0, REQ, SLURM_DO_SAME, "[TYPE:]N",
	    "--gpus-per-task" },
	{ "gpu-bind", 0, REQ, SLURM_DO_SAME, "none|single:1", "--gpu-bind" },
	{ "cpus-per-task", 'c', REQ, SLURM_DO_SAME, "N", "-c N" },
	{ "cpus-per-gpu", 0, REQ, SLURM_DO_SAME, "N", "--cpus-per-gpu" },
	{ "mem", 0, REQ, SLURM_DO_SAME, "SIZE", "--mem" },
	{ "mem-per-gpu", 0, REQ, SLURM_DO_SAME, "SIZE", "--mem-per-gpu" },
	/* Mapped to gsub's. */
	{ "gres", 0, REQ, SLURM_DO_GPUS, "gpu[:TYPE]:N", "-G [TYPE:]N" },
	{ "requeue", 0, NO, SLURM_DO_ACCEPT, NULL,
	    "the default: a preempted job runs again" },
	{ "quiet", 'Q', NO, SLURM_DO_QUIET, NULL, "prints nothing on success" },
	{ "spread-job", 0, NO, SLURM_DO_SPREAD, NULL, "--spread" },
	{ "use-min-nodes", 0, NO, SLURM_DO_ACCEPT, NULL,
	    "the default: the fewest nodes that fit" },
	{ "wait-all-nodes", 0, REQ, SLURM_DO_ACCEPT, "0|1",
	    "the default: a job's parts start together" },
	{ "ignore-pbs", 0, NO, SLURM_DO_ACCEPT, NULL, "gsub reads no #PBS lines" },
	{ "usage", 0, NO, SLURM_DO_HELP, NULL, "--help" },
	/* Not in gbatch yet. */
	{ "nodefile", 'F', REQ, SLURM_DO_REFUSE, NULL, SLURM_NAMED },
	/* Nothing of the kind in gbatch. */
	{ "mail-type", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch sends no mail; "
	    "follow jobs with gq or gtop" },
	{ "mail-user", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch sends no mail; "
	    "follow jobs with gq or gtop" },
	{ "mem-per-cpu", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "mem-bind", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "mincpus", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "tmp", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "cores-per-socket", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "sockets-per-node", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "threads-per-core", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "extra-node-info", 'B', REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "core-spec", 'S', REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "thread-spec", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "hint", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "distribution", 'm', REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "cpu-freq", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "ntasks-per-core", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_TASKS },
	{ "ntasks-per-socket", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_TASKS },
	{ "ntasks-per-gpu", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_TASKS },
	{ "tres-per-task", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "overcommit", 'O', NO, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "oversubscribe", 's', NO, SLURM_DO_REFUSE, NULL, "gbatch gives each job "
	    "GPUs of its own, never shared; leave it out" },
	{ "exclusive", 0, OPT, SLURM_DO_REFUSE, NULL, "gbatch shares nodes GPU by "
	    "GPU; to have a node alone, ask for all its GPUs (-G N "
	    "--consolidate)" },
	{ "gpus-per-socket", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "gpu-freq", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch does not set GPU "
	    "clocks; leave it out" },
	{ "gres-flags", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_CPUS },
	{ "qos", 'q', REQ, SLURM_DO_SAME, "NAME", "--qos NAME" },
	{ "priority", 0, REQ, SLURM_DO_SAME, "N", "--priority N" },
	{ "nice", 0, REQ, SLURM_DO_SAME, "N", "--nice N" },
	{ "constraint", 'C', REQ, SLURM_DO_REFUSE, NULL, SLURM_FEATURES },
	{ "prefer", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_FEATURES },
	{ "cluster-constraint", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_FEATURES },
	{ "batch", 0, REQ, SLURM_DO_REFUSE, NULL, SLURM_FEATURES },
	{ "contiguous", 0, NO, SLURM_DO_REFUSE, NULL, "gbatch keeps a job under one "
	    "switch when one has room, not on contiguous nodes; leave it "
	    "out" },
	{ "switches", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch keeps a job under one "
	    "switch when one has room, and spans switches otherwise; leave "
	    "it out" },
	{ "reservation", 0, REQ, SLURM_DO_SAME, "NAME", "--reservation NAME" },
	{ "licenses", 'L', REQ, SLURM_DO_REFUSE, NULL, "gbatch has no licenses; "
	    "leave it out" },
	{ "clusters", 'M', REQ, SLURM_DO_REFUSE, NULL, "one gbatchd is one "
	    "cluster; reach another with GBATCH_SOCKET" },
	{ "no-kill", 'k', OPT, SLURM_DO_REFUSE, NULL, "a job that loses a node is "
	    "requeued whole (or ends NODE_FAIL with --no-requeue)" },
	{ "uid", 0, REQ, SLURM_DO_REFUSE, NULL, "a job runs as the user who "
	    "submits it" },
	{ "gid", 0, REQ, SLURM_DO_REFUSE, NULL, "a job runs with the groups of the "
	    "user who submits it" },
	{ "get-user-env", 0, OPT, SLURM_DO_REFUSE, NULL, "the job gets gsub's "
	    "environment (--export); leave it out" },
	{ "export-file", 0, REQ, SLURM_DO_REFUSE, NULL, "give the variables with "
	    "--export=NAME=VALUE,..." },
	{ "propagate", 0, OPT, SLURM_DO_REFUSE, NULL, "a job gets its node's "
	    "resource limits; leave it out" },
	{ "input", 'i', REQ, SLURM_DO_REFUSE, NULL, "a job's standard input is "
	    "/dev/null; have it read its file" },
	{ "deadline", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch has no deadlines; "
	    "give a time limit (-t)" },
	{ "time-min", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch has no flexible time "
	    "limits; give one (-t)" },
	{ "acctg-freq", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch keeps no per-job "
	    "samples; gtop shows each GPU's use" },
	{ "profile", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch keeps no per-job "
	    "samples; gtop shows each GPU's use" },
	{ "bb", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch has no burst buffers" },
	{ "bbf", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch has no burst buffers" },
	{ "power", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch does not manage node "
	    "power" },
	{ "reboot", 0, NO, SLURM_DO_REFUSE, NULL, "gbatch does not reboot nodes" },
	{ "delay-boot", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch does not reboot "
	    "nodes" },
	{ "network", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch has no network "
	    "options" },
	{ "container", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch starts no containers "
	    "itself; start one from the script" },
	{ "mcs-label", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch has no MCS labels" },
	{ "wckey", 0, REQ, SLURM_DO_REFUSE, NULL, "gbatch has no WCKeys" },
	{ "verbose", 'v', NO, SLURM_DO_REFUSE, NULL, "gsub has no verbose mode; gq "
	    "-l ID shows all of a job" },
};

#define SLURM_NOPTS	(sizeof slurm_opts / sizeof slurm_opts[0])

const struct slurm_opt *
slurm_opt_table(size_t *n)
{
	*n = SLURM_NOPTS;
	return (slurm_opts);
}

const struct slurm_opt *
slurm_opt_find(const char *name)
{
	size_t	i;

	for (i = 0; i < SLURM_NOPTS; i++) {
		if (strcmp(slurm_opts[i].name, name) == 0)
			return (&slurm_opts[i]);
	}
	return (NULL);
}

/* A whole number from 0 to JOB_REQ_MAX_GPUS of len bytes at s, or -1. */
static long
slurm_opt_count(const char *s, size_t len)
{
	long	n = 0;
	size_t	i;

	if (len == 0)
		return (-1);
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return (-1);
		n = n * 10 + (s[i] - '0');
		if (n > JOB_REQ_MAX_GPUS)
			return (-1);
	}
	return (n);
}

long
slurm_opt_gpus(const char *arg, int gres, char *type,
    size_t typelen, char *err, size_t errlen)
{
	const char	*p = arg, *end, *count, *colon, *t;
	const char	*form = gres ? "gpu, gpu:N or gpu:TYPE:N" : "N or TYPE:N";
	long		 total = -1, n;
	size_t		 len;

	if (typelen > 0)
		type[0] = '\0';
	for (;;) {
		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		count = p;
		if (gres) {
			if (len < 3 || strncmp(p, "gpu", 3) != 0 ||
			    (len > 3 && p[3] != ':')) {
				snprintf(err, errlen, "gbatch schedules GPUs "
				    "and their shards only; expected %s, or "
				    "shard:N alone, got \"%s\"", form, arg);
				return (-1);
			}
			count = len == 3 ? "1" : p + 4;
			len = len == 3 ? 1 : len - 4;
		}
		/* TYPE:N: the type, then the count. */
		if ((colon = memchr(count, ':', len)) != NULL) {
			for (t = count; t < colon && (isalnum((unsigned char)
			    *t) || *t == '-' || *t == '_' || *t == '.'); t++)
				;
			if (t == count || t != colon || (size_t)(colon -
			    count) >= typelen || colon - count >
			    SLURM_OPT_TYPE_MAX) {
				snprintf(err, errlen, "expected %s with TYPE a "
				    "GPU model (letters, digits, '-', '_' or "
				    "'.', e.g. a100), got \"%s\"", form, arg);
				return (-1);
			}
			snprintf(type, typelen, "%.*s", (int)(colon - count),
			    count);
			len -= (size_t)(colon + 1 - count);
			count = colon + 1;
		}
		if ((n = slurm_opt_count(count, len)) == -1) {
			snprintf(err, errlen, "expected %s with N a whole number "
			    "from 0 to %d, got \"%s\"", form, JOB_REQ_MAX_GPUS,
			    arg);
			return (-1);
		}
		if (total != -1) {
			snprintf(err, errlen, "GPUs asked for twice in \"%s\"; "
			    "expected %s once", arg, form);
			return (-1);
		}
		total = n;
		if (end == NULL)
			return (total);
		p = end + 1;
	}
}

long
slurm_opt_shards(const char *arg, char *err, size_t errlen)
{
	long	n;

	if (strncmp(arg, "shard", 5) != 0 || (arg[5] != '\0' &&
	    arg[5] != ':'))
		return (0);
	n = arg[5] == '\0' ? 1 : slurm_opt_count(arg + 6, strlen(arg + 6));
	if (n < 1 || n > JOB_REQ_MAX_SHARES) {
		snprintf(err, errlen, "expected shard or shard:N with N a whole "
		    "number from 1 to %d (the shards of one GPU), got \"%s\"",
		    JOB_REQ_MAX_SHARES, arg);
		return (-1);
	}
	return (n);
}
