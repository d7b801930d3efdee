/* gsub: submit a batch job (sbatch's counterpart). */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/client.h"
#include "client/job-wait.h"
#include "client/jobspec.h"
#include "client/slurm-opt.h"
#include "common/cmd.h"
#include "common/job-req.h"
#include "common/proto.h"
#include "common/safe-text.h"

static void	gsub_usage(FILE *);

/* Named as it runs: gsub, or sbatch (slurm-compat). Its options are
 * jobspec's (client/jobspec.c), which #GSUB lines take too. */
static struct cmd gsub_cmd = {
	.name = "gsub",
	.usage = gsub_usage,
};

/* Prints after head, wrapped, the names of the options of table t that
 * gsub handles as what says (its own, or refused). Bare names: a line of
 * them never reads as an option (the bash completion's rule). */
static void
gsub_usage_names(FILE *f, const struct slurm_opt *t, size_t n,
    enum slurm_opt_do what, const char *head)
{
	size_t	i, col = strlen(head), w;
	bool	first = true;

	fputs(head, f);
	for (i = 0; i < n; i++) {
		if (t[i].what != what)
			continue;
		w = strlen(t[i].name);
		if (col + w + 2 > 78) {
			fputs(",\n          ", f);
			col = 10;
		} else if (!first) {
			fputs(", ", f);
			col += 2;
		}
		fputs(t[i].name, f);
		col += w;
		first = false;
	}
	fputs("\n", f);
}

/* The Slurm-to-gbatch table, from slurm-opt.c's rows. */
static void
gsub_usage_slurm(FILE *f)
{
	const struct slurm_opt	*t;
	size_t			 n, i;
	char			 name[64];

	t = slurm_opt_table(&n);
	fputs(
"sbatch's options work too, on the command line and in #SBATCH lines (a\n"
"#GSUB line wins over an #SBATCH line, the command line over both):\n", f);
	gsub_usage_names(f, t, n, SLURM_DO_SAME, "  the same in gsub: ");
	for (i = 0; i < n; i++) {
		if (t[i].what == SLURM_DO_SAME || t[i].what == SLURM_DO_REFUSE)
			continue;
		if (t[i].short_opt != 0)
			snprintf(name, sizeof name, "-%c, --%s%s%s",
			    t[i].short_opt, t[i].name, t[i].arg != NULL ? " " :
			    "", t[i].arg != NULL ? t[i].arg : "");
		else
			snprintf(name, sizeof name, "    --%s%s%s", t[i].name,
			    t[i].arg != NULL ? "=" : "", t[i].arg != NULL ?
			    t[i].arg : "");
		fprintf(f, "  %-24s %s\n", name, t[i].says);
	}
	gsub_usage_names(f, t, n, SLURM_DO_REFUSE, "  refused, each saying why "
	    "and the gbatch way: ");
}

static void
gsub_usage(FILE *f)
{
	fputs(
"usage: gsub [options] script [args...]\n"
"       gsub [options] --wrap \"command\"\n"
"       gsub [options] [- [args...]] < script\n"
"Submit a batch job. Options may also be given in #GSUB lines at the top of\n"
"the script; the command line wins. With no script, or -, the script is read\n"
"from standard input (unless that is a terminal); the job is then named stdin.\n"
"\n"
"  -G, --gpus [TYPE:]N     GPUs, all at once (default 1; as sbatch, 0); more\n"
"                          than a node has run on several nodes, split\n"
"                          evenly (8 as 2 x 4 or 4 x 2); TYPE: of that model\n"
"                          only (a100; gnodes -o name,gpu_model); 0: a CPU\n"
"                          job, of -n tasks x -c CPUs and --mem alone\n"
"  -G, --gpus [TYPE:]MIN-MAX  an elastic job: on any count from MIN to MAX,\n"
"                          the scheduler's choice when it starts (what is\n"
"                          free, up to MAX); its variables say which\n"
"  -N, --nodes N           exactly N nodes, the GPUs split evenly over them\n"
"      --gpus-per-node [TYPE:]G\n"
"                          G GPUs on each node (-N 2 --gpus-per-node 4)\n"
"      --any-shape         take the GPUs however they are free (6 as 4 + 2)\n"
"      --ntasks-per-node K|gpu\n"
"                          start K processes on each node, or one per GPU\n"
"                          with CUDA_VISIBLE_DEVICES its own GPU; each gets\n"
"                          RANK, LOCAL_RANK, WORLD_SIZE... as torchrun sets\n"
"                          them (default: one per node)\n"
"  -n, --ntasks N          N processes in all: one per GPU, or per node, or\n"
"                          N / nodes on each of -N's nodes\n"
"      --gpus-per-task N   sbatch's: N GPUs a task (with -n: one each, as\n"
"                          --ntasks-per-node gpu)\n"
"      --gpu-bind=none     with one task per GPU, let each see all its\n"
"                          node's GPUs\n"
"  -c, --cpus-per-task N   CPUs for each task (the node's, with one task)\n"
"      --cpus-per-gpu N    CPUs for each GPU (default: the node's CPUs over\n"
"                          its GPUs, or scheduler.cpus_per_gpu)\n"
"      --mem SIZE          memory on each node: 16G, 512M (M by default)\n"
"      --mem-per-gpu SIZE  memory for each GPU (default: the node's memory\n"
"                          over its GPUs, or scheduler.mem_per_gpu); a job\n"
"                          that uses more is killed and ends OUT_OF_MEMORY\n"
"  -w, --nodelist NODES    run only on these nodes (n1,n[3-4])\n"
"  -x, --exclude NODES     never run on these nodes\n"
"  -J, --job-name NAME     job name, up to 256 bytes (default: the script's\n"
"                          file name, wrap or stdin)\n"
"  -o, --output PATTERN    stdout file (default " JOBSPEC_DEFAULT_OUTPUT "); %j job id,\n"
"                          %x job name, %u user, %r restart count, %N node\n"
"                          name, %t task rank, %n node rank, %A array id, %a\n"
"                          array task, %% a percent sign\n"
"  -e, --error PATTERN     stderr file (default: the same as --output)\n"
"  -D, --chdir DIR         working directory (default: the current one)\n"
"  -t, --time LIMIT        time limit: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S,\n"
"                          at most 365 days; UNLIMITED (default) for none\n"
"  -b, --begin TIME        start no earlier than TIME: HH:MM[:SS] (the next\n"
"                          one), YYYY-MM-DD[THH:MM[:SS]], now+N[unit],\n"
"                          tomorrow, noon, teatime, @EPOCH\n"
"  -a, --array SPEC        a job array: a task per index of SPEC, e.g.\n"
"                          0-99, 1,3,5-7, 0-20:2; %N runs at most N at once\n"
"                          (output default gbatch-%A_%a.out)\n"
"  -d, --dependency SPEC   start after other jobs: afterok:ID[:ID...] (they\n"
"                          completed), afternotok, afterany (ended), after\n"
"                          (started), singleton; joined by , (all) or ? (any)\n"
"      --signal=[B:]SIG[@SECONDS]\n"
"                          send SIG (to the batch shell alone with B:)\n"
"                          SECONDS (default 60) before the time limit, and\n"
"                          before a preemption as --ckpt-signal/--ckpt-grace\n"
"      --open-mode=append|truncate\n"
"                          keep what the output files held, or start them\n"
"                          afresh (default; a rerun always appends)\n"
"      --kill-on-invalid-dep=yes|no\n"
"                          cancel the job if its dependency can never be\n"
"                          met (default: scheduler.kill_invalid_depend)\n"
"      --export=WHAT       ALL (default), NONE, or NAME[=VALUE][,...];\n"
"                          ALL,NAME=VALUE adds to the whole environment\n"
"  -H, --hold              submit held; it waits until released\n"
"  -A, --account ACCOUNT   the account the job is charged to (gacct -A and\n"
"                          its account field report it)\n"
"  -p, --partition NAME[,NAME]\n"
"                          the partitions it may run in, the first that\n"
"                          takes it and has room (default: the default)\n"
"  -q, --qos NAME          its QOS: priority, limits, who it may preempt\n"
"                          and how it is preempted (default: the default)\n"
"      --reservation NAME  run in an advance reservation (gctl reservation\n"
"                          list): on its nodes alone, from its start; it\n"
"                          must be for the user or the job's account\n"
"      --nice N            wait behind the jobs of its tier and queue\n"
"                          whose priority - nice is higher (0 to 10000;\n"
"                          below 0 for operators)\n"
"      --priority N        go ahead of them (operators; 0 to 1000000)\n"
"      --comment TEXT      a comment kept with the job (gq -o comment)\n"
"  -W, --wait              return once the job has ended, with its exit\n"
"                          status (128 + N when signal N ended it)\n"
"      --test-only         say where and when the job would start (running\n"
"                          jobs ending at their time limits); submit nothing\n"
"      --ckpt-signal SIG   signal asking the job to checkpoint before it is\n"
"                          preempted (default USR1)\n"
"      --ckpt-grace TIME   time from that signal to SIGTERM, a day at most\n"
"                          (default: the cluster's scheduler.ckpt_grace,\n"
"                          60 s)\n"
"      --no-requeue        never preempt this job (it cannot resume; not with\n"
"                          --ckpt-signal or --ckpt-grace)\n"
"      --consolidate       insist on the fewest nodes, even if it waits\n"
"      --spread            take GPUs from the emptiest nodes (not with\n"
"                          --consolidate)\n"
"      --time-slice        share the GPUs in turns with other such jobs\n"
"                          when the cluster is full, so the job starts\n"
"                          within one turn (scheduler.time_slice); it is\n"
"                          frozen while others have their turn\n"
"      --gpu-mem SIZE      the memory the job uses on each GPU (16G); with\n"
"                          --time-slice, a job joins GPUs only where it fits\n"
"                          beside the others\n"
"      --gpu-share N       take N of a GPU's shards (a job of one GPU),\n"
"                          beside other such jobs on it, on nodes that\n"
"                          offer shards (gnoded --gpu-shards); sbatch's\n"
"                          --gres=shard:N\n"
"      --parsable          print only the job id\n"
"      --timeout SECONDS   how long to wait for gbatchd (default 10, or\n"
"                          GBATCH_TIMEOUT; 0 waits for ever)\n"
"      --wrap \"command\"    run command (one line) with /bin/sh instead of a\n"
"                          script\n"
"  -h, --help              this help\n"
"  -V, --version           print the version\n"
"\n", f);
	gsub_usage_slurm(f);
	fputs(
"\n"
"Exit status: 0 submitted, 1 refused by gbatchd, 2 usage error,\n"
"3 cannot reach gbatchd, 4 permission denied; with --wait, once the job\n"
"was submitted, the job's own.\n", f);
}

static void
gsub_notice(const char *msg)
{
	fprintf(stderr, "%s: %s; still waiting\n", gsub_cmd.name, msg);
}

/* --test-only's answer (docs/protocol.md, JOB_SUBMIT): where and when,
 * in Slurm's words under sbatch's name. */
static void
gsub_test_only(const json_t *reply, uint32_t gpus)
{
	const char	*where, *nodes, *part;
	char		 when[64], safe[1100], safen[1100], safep[1100];
	json_int_t	 start, ahead;
	time_t		 t;
	struct tm	 tm;

	where = json_string_value(json_object_get(reply, "where"));
	nodes = json_string_value(json_object_get(reply, "nodes"));
	/* The partition it would run in; a gbatchd from before partitions
	 * has gbatch's one and does not say. */
	part = json_string_value(json_object_get(reply, "partition"));
	ahead = json_integer_value(json_object_get(reply, "ahead"));
	safe_text_str(where != NULL ? where : "", safe, sizeof safe);
	safe_text_str(nodes != NULL ? nodes : "", safen, sizeof safen);
	if (!json_is_true(json_object_get(reply, "found"))) {
		fprintf(stderr, "%s: no start can be foreseen: the GPUs the "
		    "job needs are held by jobs with neither a time limit nor "
		    "a predicted run time%s (%lld "
		    "pending job%s would go first); nothing was submitted\n",
		    gsub_cmd.name, json_is_true(json_object_get(reply,
		    "never_fits")) ? ", or the nodes up now cannot hold it" :
		    "", (long long)ahead, ahead == 1 ? "" : "s");
		return;
	}
	start = json_integer_value(json_object_get(reply, "start"));
	t = (time_t)start;
	if (localtime_r(&t, &tm) == NULL ||
	    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(when, sizeof when, "@%lld", (long long)start);
	if (strcmp(gsub_cmd.name, "sbatch") == 0) {
		fprintf(stderr, "sbatch: Job 0 to start at %s using %u GPUs on "
		    "nodes %s in partition %s\n", when, gpus, safen,
		    safe_text_str(part != NULL ? part : JOB_REQ_PARTITION,
		    safep, sizeof safep));
		return;
	}
	/* By gbatchd's clock, which the estimate is from (a reply without
	 * it: by ours). */
	if (start <= (json_is_integer(json_object_get(reply, "now")) ?
	    json_integer_value(json_object_get(reply, "now")) :
	    (json_int_t)time(NULL)) + 1)
		fprintf(stderr, "%s: the job would start now on %s; nothing "
		    "was submitted\n", gsub_cmd.name, safe);
	else
		fprintf(stderr, "%s: the job would start at %s on %s, once "
		    "running jobs reach their time limits or predicted ends "
		    "(%lld pending job%s going first); nothing was "
		    "submitted\n", gsub_cmd.name,
		    when, safe, (long long)ahead, ahead == 1 ? "" : "s");
}

/* --wait: the job's exit status once it has ended, saying how it ended
 * unless it completed. */
static int
gsub_wait(uint64_t id, unsigned timeout)
{
	struct job_wait_end	 end;
	char			 err[1024], why[512], safe[1024];
	int			 r;

	if ((r = job_wait(&id, 1, timeout, gsub_notice, &end, err,
	    sizeof err)) != 0) {
		fprintf(stderr, "%s: waiting for job %llu: %s\n", gsub_cmd.name,
		    (unsigned long long)id, err);
		return (r);
	}
	r = job_wait_status(&end, why, sizeof why);
	if (why[0] != '\0')
		fprintf(stderr, "%s: %s\n", gsub_cmd.name, safe_text_str(why,
		    safe, sizeof safe));
	return (r);
}

int
main(int argc, char **argv)
{
	struct jobspec		*js;
	struct client		*c = NULL;
	enum jobspec_action	 action;
	json_t			*job = NULL, *req, *reply;
	char			 err[2048];
	uint64_t		 id;
	int			 r = EXIT_USAGE;

	js = jobspec_create();
	/* Installed as sbatch (make install-slurm-compat): Slurm's defaults
	 * and words where they differ. */
	if (cmd_runs_as(argv[0], "sbatch")) {
		gsub_cmd.name = "sbatch";
		jobspec_sbatch(js);
	}
	if (jobspec_parse_args(js, argc, argv, &action, err, sizeof err) == -1)
		goto usage;
	if (action == JOBSPEC_HELP) {
		r = cmd_help(&gsub_cmd);
		goto out;
	}
	if (action == JOBSPEC_VERSION) {
		r = cmd_version(&gsub_cmd);
		goto out;
	}
	if (jobspec_load_script(js, err, sizeof err) == -1)
		goto fail;
	if ((job = jobspec_build_here(js, err, sizeof err)) == NULL)
		goto fail;

	if ((r = client_open(jobspec_timeout(js), &c, err, sizeof err)) != 0) {
		cmd_error(&gsub_cmd, err);
		goto out;
	}
	req = proto_msg(MSG_JOB_SUBMIT);
	json_object_set(req, "job", job);
	if (jobspec_test_only(js))
		json_object_set_new(req, "test_only", json_true());
	r = client_call(c, req, &reply, err, sizeof err);
	json_decref(req);
	if (r != 0) {
		cmd_error(&gsub_cmd, err);
		goto out;
	}
	if (jobspec_test_only(js)) {
		gsub_test_only(reply, (uint32_t)json_integer_value(
		    json_object_get(job, "gpus")));
		json_decref(reply);
		r = EXIT_OK;
		goto out;
	}
	if (!json_is_integer(json_object_get(reply, "job_id"))) {
		fprintf(stderr, "%s: bad reply from gbatchd at %s: it gave no "
		    "job id\n", gsub_cmd.name, client_socket_path());
		json_decref(reply);
		r = EXIT_UNREACHABLE;
		goto out;
	}
	/* The controller's word, made of node names it checked. */
	if (json_is_string(json_object_get(reply, "warning")))
		fprintf(stderr, "%s: warning: job %lld: %s\n", gsub_cmd.name,
		    (long long)json_integer_value(json_object_get(reply,
		    "job_id")), safe_text_str(json_string_value(
		    json_object_get(reply, "warning")), err, sizeof err));
	id = (uint64_t)json_integer_value(json_object_get(reply, "job_id"));
	json_decref(reply);
	if (jobspec_quiet(js))
		/* sbatch -Q: only errors. */;
	else if (jobspec_parsable(js))
		printf("%llu\n", (unsigned long long)id);
	else
		printf("Submitted %sjob %llu\n", strcmp(gsub_cmd.name,
		    "sbatch") == 0 ? "batch " : "", (unsigned long long)id);
	r = EXIT_OK;
	if (jobspec_wait(js)) {
		/* A workflow engine reads the id before the job ends. */
		fflush(stdout);
		client_free(c);
		c = NULL;
		r = gsub_wait(id, jobspec_timeout(js));
	}
	goto out;

usage:
	r = cmd_usage_error(&gsub_cmd, "%s", err);
	goto out;
fail:
	cmd_error(&gsub_cmd, err);
	r = EXIT_USAGE;
out:
	client_free(c);
	json_decref(job);
	jobspec_free(js);
	return (r);
}
