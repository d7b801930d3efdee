/* grun: run a command on an allocation, in the foreground (srun's
 * counterpart): an interactive job, or a command inside a running job.
 * Run as srun (slurm-compat), it takes srun's own options too, and inside
 * a job (SLURM_JOB_ID or GBATCH_JOB_ID set) runs its command as the
 * calling task: gbatch runs a batch script once per task already. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/client.h"
#include "client/jobspec.h"
#include "client/relay.h"
#include "client/srun-opt.h"
#include "client/srun-step.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "common/safe-text.h"

static void
grun_usage(FILE *f)
{
	fputs(
"usage: grun [options] COMMAND [ARGS...]\n"
"       grun --jobid ID [--pty] [-w NODE] COMMAND [ARGS...]\n"
"Run a command on an allocation, in the foreground. grun waits in the queue\n"
"(saying why, with a spinner on a terminal), then relays standard input,\n"
"output and error, forwards Ctrl-C and other signals, and exits with the\n"
"command's status. The allocation is released when the command ends or\n"
"when grun's connection is lost.\n"
"\n"
"  --pty               run the command on a pseudo-terminal that follows\n"
"                      your terminal's size: grun -G 1 --pty bash is an\n"
"                      interactive GPU shell\n"
"      --jobid ID      run the command inside running job ID's allocation\n"
"                      (its GPUs, its cgroup), on its first node or -w NODE;\n"
"                      for the job's owner and operators\n"
"      --preemptible   let the scheduler preempt the job to run others (an\n"
"                      interactive job is never preempted otherwise); it\n"
"                      then waits in the queue again and runs afresh\n"
"  -Q, --quiet         no word about the wait in the queue\n"
"      --timeout SECONDS  how long to wait for gbatchd to answer the\n"
"                      submit (default 10, or GBATCH_TIMEOUT)\n"
"  -h, --help          this help\n"
"  -V, --version       the version\n"
"\n"
"gsub's options that describe a job work the same (gsub --help, gsub(1)):\n"
"GPUs, nodes and tasks, CPUs and memory, time limit, name, account,\n"
"partition, the nodes it may use, begin time, dependencies, directory,\n"
"environment. The job's output comes to grun: gsub's output files, script,\n"
"array, hold and wait options are refused.\n"
"\n"
"Each of the job's processes gets its ranks as under gsub; with --pty the\n"
"first one has the terminal and the others print nowhere. Standard input\n"
"goes to the first process.\n"
"\n"
"Installed as srun (slurm-compat) it also takes srun's own options:\n"
"--cpu-bind, --overlap, --exact, --whole, -u and --mpi=none are accepted;\n"
"--multi-prog and other --mpi values are refused, saying why. In an sbatch\n"
"job's batch script srun starts a step of the job: its tasks (or -n, -N,\n"
"--ntasks-per-node of them), each inside the job with its own ranks\n"
"(--gpus-per-task=1: each its own GPU), the output relayed (-l/--label:\n"
"each line after its rank; -o/-e FILE: to files, %t the task, %n the node's\n"
"rank, %N its name, %j the job), the first failure stopping the others with\n"
"-K/--kill-on-bad-exit; it exits with the highest status. In a script gsub\n"
"runs once per task, srun runs its command as the task that calls it, so\n"
"-n and -N may only repeat the job's.\n"
"\n"
"Exit status: the command's; 128+N when signal N killed it; 1 when the job\n"
"was refused or ended otherwise (cancelled, time limit, out of memory, node\n"
"failure); 2 for a usage error; 3 when gbatchd cannot be reached or the\n"
"connection to it was lost; 4 when not allowed.\n", f);
}

/* Its options are jobspec's (client/jobspec.c), as gsub's are. Named as it
 * runs: grun, or srun. */
static struct cmd grun_cmd = {
	.name = "grun",
	.usage = grun_usage,
};

/* Adds the session's terminal to the request's "interactive". */
static json_t *
grun_interactive(const struct jobspec *js)
{
	json_t		*io;
	unsigned	 rows, cols;

	relay_winsize(STDIN_FILENO, &rows, &cols);
	if (rows == 0)
		relay_winsize(STDOUT_FILENO, &rows, &cols);
	io = json_pack("{s:b}", "pty", jobspec_pty(js));
	if (rows > 0) {
		json_object_set_new(io, "rows", json_integer(rows));
		json_object_set_new(io, "cols", json_integer(cols));
	}
	if (jobspec_preemptible(js))
		json_object_set_new(io, "preemptible", json_true());
	return (io);
}

/* Whether srun runs as a step: inside a job (its variables set) and not
 * told another job (--jobid). */
static bool
grun_srun_step(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0 || argv[i][0] != '-')
			break;
		if (strncmp(argv[i], "--jobid", 7) == 0)
			return (false);
	}
	return (getenv("SLURM_JOB_ID") != NULL ||
	    getenv("GBATCH_JOB_ID") != NULL);
}

/* The command after srun's options (argv[*i] on), or -1 with err naming
 * an option a step does not take. */
static int
grun_srun_command(int argc, char **argv, int *i, const char *why,
    char *err, size_t errlen)
{
	for (*i = 1; *i < argc && argv[*i][0] == '-'; (*i)++) {
		if (strcmp(argv[*i], "--") == 0) {
			(*i)++;
			break;
		}
		snprintf(err, errlen, "%s: %s", argv[*i], why);
		return (-1);
	}
	if (*i >= argc) {
		snprintf(err, errlen, "expected a command to run");
		return (-1);
	}
	return (0);
}

/* srun in a batch script that runs once (sbatch's jobs, GBATCH_STEP
 * batch): a step of the job's allocation, its tasks started on its nodes
 * (srun-step.h). Returns the exit status (err set on srun's own
 * failure). */
static int
grun_srun_step_run(int argc, char **argv, const struct srun_opt *so,
    char *err, size_t errlen)
{
	int	i;

	if (grun_srun_command(argc, argv, &i, "a step takes srun's -n, -N, "
	    "--ntasks-per-node, -c, -o, -e, --export, --gpus-per-task=1, "
	    "--label and --kill-on-bad-exit; its GPUs, CPUs and memory are "
	    "the job's", err, errlen) == -1)
		return (EXIT_USAGE);
	return (srun_step_run(argv + i, so, 10, err, errlen));
}

/* srun inside a job whose batch script runs once a task (gsub's): srun
 * runs its command as the calling task: exec'd in place, in the job's
 * cgroup with its GPUs and this task's ranks (RANK, SLURM_PROCID, ...). A
 * step of another shape than the job's own is refused. Returns only on an
 * error (err set; the exit status). */
static int
grun_srun_as_task(int argc, char **argv, const struct srun_opt *so,
    char *err, size_t errlen)
{
	long	 tasks, nodes, per_node;
	int	 i, e;

	tasks = srun_step_env_count("SLURM_NTASKS", "WORLD_SIZE", 1);
	nodes = srun_step_env_count("SLURM_JOB_NUM_NODES", "GBATCH_NUM_NODES", 1);
	per_node = srun_step_env_count("SLURM_NTASKS_PER_NODE", "LOCAL_WORLD_SIZE",
	    1);
	if ((so->ntasks > 0 && (long)so->ntasks != tasks) ||
	    (so->nodes > 0 && (long)so->nodes != nodes) ||
	    (so->tasks_per_node > 0 && (long)so->tasks_per_node != per_node)) {
		snprintf(err, errlen, "a step of another shape than the job's "
		    "is not in gbatch yet: gbatch runs the batch script once "
		    "for each of the job's %ld tasks on %ld nodes, and srun "
		    "runs its command as the task that calls it (give -n %ld "
		    "-N %ld, or leave them out)", tasks, nodes, tasks, nodes);
		return (EXIT_USAGE);
	}
	if (so->label || so->output != NULL || so->error != NULL ||
	    so->gpu_per_task || so->cpus_per_task != 0 ||
	    (so->export != NULL && strcmp(so->export, "ALL") != 0)) {
		snprintf(err, errlen, "%s: in a job whose batch script runs "
		    "once a task (gsub's), srun runs its command as the calling "
		    "task, with that task's output, GPUs, CPUs and environment",
		    so->label ? "--label" : so->output != NULL ? "-o" :
		    so->error != NULL ? "-e" : so->gpu_per_task ?
		    "--gpus-per-task" : so->cpus_per_task != 0 ? "-c" :
		    "--export");
		return (EXIT_USAGE);
	}
	if (grun_srun_command(argc, argv, &i, "srun in a job runs its "
	    "command as the calling task, with the job's GPUs, CPUs and "
	    "ranks; a step's own resources are not in gbatch yet", err,
	    errlen) == -1)
		return (EXIT_USAGE);
	execvp(argv[i], argv + i);
	e = errno;
	snprintf(err, errlen, "%s: %s", argv[i], strerror(e));
	return (e == ENOENT ? 127 : 126);
}

/* JOB_ATTACH: the command, as job describes it, in job id's allocation. */
static json_t *
grun_attach_req(const struct jobspec *js, const json_t *job)
{
	json_t	*req;

	req = json_pack("{s:i,s:I,s:O,s:O,s:O,s:o}", "type", MSG_JOB_ATTACH,
	    "job", (json_int_t)jobspec_jobid(js),
	    "argv", json_object_get(job, "argv"),
	    "env", json_object_get(job, "env"),
	    "workdir", json_object_get(job, "workdir"),
	    "interactive", grun_interactive(js));
	if (jobspec_nodelist(js) != NULL)
		json_object_set_new(req, "node",
		    json_string(jobspec_nodelist(js)));
	return (req);
}

int
main(int argc, char **argv)
{
	struct jobspec		*js;
	struct client		*c = NULL;
	struct relay_opts	 ro;
	enum jobspec_action	 action;
	json_t			*job = NULL, *req, *reply;
	struct srun_opt		 so;
	const struct option	*longopts;
	const char		*shortopts;
	char			 err[2048], safe[2048];
	bool			 step;
	int			 r = EXIT_USAGE;

	js = jobspec_create();
	jobspec_command(js);
	if (cmd_runs_as(argv[0], "srun")) {
		grun_cmd.name = "srun";
		longopts = jobspec_options(&shortopts);
		step = grun_srun_step(argc, argv);
		if (srun_opt_take(&argc, argv, longopts, shortopts, step, &so,
		    err, sizeof err) == -1)
			goto usage;
		if (step && getenv("GBATCH_STEP") != NULL &&
		    strcmp(getenv("GBATCH_STEP"), "batch") == 0) {
			r = grun_srun_step_run(argc, argv, &so, err,
			    sizeof err);
			if (r == EXIT_USAGE && *err != '\0')
				goto usage;
			if (*err != '\0')
				fprintf(stderr, "srun: %s\n", err);
			goto out;
		}
		if (step) {
			r = grun_srun_as_task(argc, argv, &so, err,
			    sizeof err);
			if (r == EXIT_USAGE)
				goto usage;
			fprintf(stderr, "srun: %s\n", err);
			goto out;
		}
		if (so.label) {
			snprintf(err, sizeof err, "--label: outside a job, srun "
			    "runs an allocation's tasks on one stream; give "
			    "--label to srun in a batch script");
			goto usage;
		}
	}
	if (jobspec_parse_args(js, argc, argv, &action, err, sizeof err) == -1)
		goto usage;
	if (action == JOBSPEC_HELP) {
		r = cmd_help(&grun_cmd);
		goto out;
	}
	if (action == JOBSPEC_VERSION) {
		r = cmd_version(&grun_cmd);
		goto out;
	}
	if (jobspec_load_script(js, err, sizeof err) == -1)
		goto usage;
	if ((job = jobspec_build_here(js, err, sizeof err)) == NULL)
		goto fail;

	if ((r = client_open(jobspec_timeout(js), &c, err, sizeof err)) != 0) {
		fprintf(stderr, "%s: %s\n", grun_cmd.name, err);
		goto out;
	}
	memset(&ro, 0, sizeof ro);
	ro.prog = grun_cmd.name;
	ro.pty = jobspec_pty(js);
	ro.quiet = jobspec_quiet(js);
	if (jobspec_jobid(js) != 0) {
		req = grun_attach_req(js, job);
		ro.running = true;
	} else {
		req = proto_msg(MSG_JOB_SUBMIT);
		json_object_set_new(job, "interactive", grun_interactive(js));
		json_object_set(req, "job", job);
	}
	r = client_call(c, req, &reply, err, sizeof err);
	json_decref(req);
	if (r != 0) {
		fprintf(stderr, "%s: %s\n", grun_cmd.name, safe_text_str(err, safe,
		    sizeof safe));
		goto out;
	}
	ro.job = jobspec_jobid(js) != 0 ? jobspec_jobid(js) :
	    (uint64_t)json_integer_value(json_object_get(reply, "job_id"));
	ro.step = (uint32_t)json_integer_value(json_object_get(reply, "step"));
	json_decref(reply);
	if (ro.job == 0 || (jobspec_jobid(js) != 0 && ro.step == 0)) {
		fprintf(stderr, "%s: bad reply from gbatchd at %s: no job or "
		    "step\n", grun_cmd.name, client_socket_path());
		r = EXIT_UNREACHABLE;
		goto out;
	}
	r = relay_run(c, &ro);
	goto out;

usage:
	r = cmd_usage_error(&grun_cmd, "%s", err);
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", grun_cmd.name, err);
	r = EXIT_USAGE;
out:
	client_free(c);
	json_decref(job);
	jobspec_free(js);
	return (r);
}
