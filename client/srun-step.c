/* srun-step.c: a step of a running job's allocation, started by srun in
 * the job's batch script (srun-step.h). A child process a task: each opens
 * its own session with gbatchd and relays its task, as grun --jobid does
 * one command; srun waits for them all. */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/client.h"
#include "client/jobenv.h"
#include "client/relay.h"
#include "client/srun-step.h"
#include "common/job-req.h"
#include "common/outpat.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

extern char	**environ;

int
srun_step_layout(unsigned alloc_nodes, unsigned alloc_per_node,
    const struct srun_opt *o, struct srun_layout *out, char *err,
    size_t errlen)
{
	unsigned	nodes, tasks, i;

	memset(out, 0, sizeof *out);
	if (alloc_nodes == 0)
		alloc_nodes = 1;
	if (alloc_per_node == 0)
		alloc_per_node = 1;
	if (o->nodes > alloc_nodes) {
		snprintf(err, errlen, "-N %u: the job has %u node%s; give at "
		    "most -N %u", o->nodes, alloc_nodes, alloc_nodes == 1 ?
		    "" : "s", alloc_nodes);
		return (-1);
	}
	nodes = o->nodes != 0 ? o->nodes : o->ntasks != 0 ?
	    (o->ntasks < alloc_nodes ? o->ntasks : alloc_nodes) : alloc_nodes;
	if (o->tasks_per_node != 0) {
		tasks = o->tasks_per_node * nodes;
		if (o->ntasks != 0 && o->ntasks != tasks) {
			snprintf(err, errlen, "-n %u disagrees with "
			    "--ntasks-per-node %u on %u node%s (%u tasks); give "
			    "one of them", o->ntasks, o->tasks_per_node, nodes,
			    nodes == 1 ? "" : "s", tasks);
			return (-1);
		}
	} else
		tasks = o->ntasks != 0 ? o->ntasks : alloc_per_node * nodes;
	if (tasks < nodes) {
		snprintf(err, errlen, "-n %u on -N %u: every node of a step runs "
		    "a task at least; give -n %u or more, or -N %u", tasks,
		    nodes, nodes, tasks);
		return (-1);
	}
	if ((tasks + nodes - 1) / nodes > JOB_REQ_MAX_TASKS) {
		snprintf(err, errlen, "%u tasks on %u node%s: at most %d a "
		    "node", tasks, nodes, nodes == 1 ? "" : "s",
		    JOB_REQ_MAX_TASKS);
		return (-1);
	}
	out->nodes = nodes;
	out->tasks = tasks;
	out->count = xcalloc(nodes, sizeof *out->count);
	for (i = 0; i < nodes; i++)
		out->count[i] = tasks / nodes + (i < tasks % nodes);
	return (0);
}

void
srun_step_layout_free(struct srun_layout *l)
{
	free(l->count);
	l->count = NULL;
}

/* The tasks' children, for the signals srun passes on. */
static pid_t	*srun_step_pids;
static size_t	 srun_step_npids;

static void
srun_step_forward(int sig)
{
	size_t	i;
	int	saved = errno;

	for (i = 0; i < srun_step_npids; i++) {
		if (srun_step_pids[i] > 0)
			(void)kill(srun_step_pids[i], sig);
	}
	errno = saved;
}

unsigned
srun_step_env_count(const char *a, const char *b, unsigned def)
{
	const char	*v = getenv(a) != NULL ? getenv(a) : getenv(b);
	long		 n = v != NULL ? strtol(v, NULL, 10) : 0;

	return (n > 0 && n <= (long)JOB_REQ_MAX_TASKS * JOB_REQ_MAX_NODES ?
	    (unsigned)n : def);
}

/* One task of a step: where and which. */
struct srun_step_task {
	uint64_t	 job;
	const char	*node;
	unsigned	 rank, local, count, world, node_rank;
	uint32_t	 first;		/* the step's first task's number; 0 */
	int		 report;	/* the first: its number goes there */
	bool		 gpu_per_task;	/* --gpus-per-task=1 */
};

/* Opens the file of pattern (srun -o/-e) for task t, truncated, as the
 * job's user (srun is the user). Returns the descriptor, or -1 with err. */
static int
srun_step_open(const char *pattern, const struct srun_step_task *t,
    char *err, size_t errlen)
{
	struct outpat_vars	v;
	char			path[4096], why[256];
	int			fd;

	memset(&v, 0, sizeof v);
	v.id = t->job;
	v.rank = (long)t->rank;
	v.node_rank = (long)t->node_rank;
	v.node = t->node;
	v.name = v.user = NULL;
	v.array_task = -1;
	if (outpat_expand(pattern, &v, path, sizeof path, why,
	    sizeof why) != 0) {
		snprintf(err, errlen, "%s: %s", pattern, why);
		return (-1);
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) == -1)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return (fd);
}

/* Points t's output (and its errors, unless error names their own) at the
 * files of srun -o/-e: shared ones srun opened (*fd >= 0), or the task's
 * own. Returns 0, or -1 with err. */
static int
srun_step_files(const struct srun_opt *o, const struct srun_step_task *t,
    const int *shared, char *err, size_t errlen)
{
	const char	*pat[2] = { o->output, o->error };
	int		 fd[2] = { -1, -1 }, i;

	for (i = 0; i < 2; i++) {
		if (pat[i] == NULL)
			continue;
		if ((fd[i] = shared[i]) < 0 && (fd[i] = srun_step_open(pat[i],
		    t, err, errlen)) == -1)
			return (-1);
	}
	/* Errors go with the output unless -e says where. */
	if (fd[1] < 0)
		fd[1] = fd[0];
	for (i = 0; i < 2; i++) {
		if (fd[i] >= 0 && dup2(fd[i], STDOUT_FILENO + i) == -1) {
			snprintf(err, errlen, "cannot write the output: %s",
			    strerror(errno));
			return (-1);
		}
	}
	return (0);
}

/* In task t's child: starts it inside its job and relays it, its output
 * where o says. Never returns. */
static void __attribute__((noreturn))
srun_step_task(const struct srun_step_task *t, const struct srun_opt *o,
    const int *shared, char **argv, json_t *env, const char *cwd,
    unsigned timeout_s)
{
	struct relay_opts	 ro;
	struct client		*c = NULL;
	json_t			*req, *args, *reply, *task;
	char			 err[1024], safe[1024], tag[32];
	unsigned		 rank = t->rank;
	uint32_t		 step;
	int			 r, fd, i;

	/* The first task reads srun's input; the others none. */
	if (rank > 0 && (fd = open("/dev/null", O_RDONLY)) != -1) {
		(void)dup2(fd, STDIN_FILENO);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	if (srun_step_files(o, t, shared, err, sizeof err) == -1) {
		fprintf(stderr, "srun: task %u: %s\n", rank, err);
		_exit(EXIT_USAGE);
	}
	if ((r = client_open(timeout_s, &c, err, sizeof err)) != 0) {
		fprintf(stderr, "srun: task %u: %s\n", rank, err);
		_exit(r);
	}
	args = json_array();
	for (i = 0; argv[i] != NULL; i++)
		json_array_append_new(args, json_string(argv[i]));
	task = json_pack("{s:i,s:i,s:i,s:i}", "rank", (int)rank, "local",
	    (int)t->local, "count", (int)t->count, "world_size",
	    (int)t->world);
	if (t->first != 0)
		json_object_set_new(task, "first", json_integer(t->first));
	if (t->gpu_per_task)
		json_object_set_new(task, "gpu_bind", json_true());
	req = json_pack("{s:i,s:I,s:s,s:o,s:O,s:s,s:{s:b},s:o}", "type",
	    MSG_JOB_ATTACH, "job", (json_int_t)t->job, "node", t->node,
	    "argv", args, "env", env, "workdir", cwd, "interactive", "pty", 0,
	    "task", task);
	if (req == NULL) {
		fprintf(stderr, "srun: task %u: its command or environment is "
		    "not UTF-8 text\n", rank);
		_exit(EXIT_USAGE);
	}
	r = client_call(c, req, &reply, err, sizeof err);
	json_decref(req);
	if (r != 0) {
		fprintf(stderr, "srun: task %u on %s: %s\n", rank, t->node,
		    safe_text_str(err, safe, sizeof safe));
		_exit(r);
	}
	step = (uint32_t)json_integer_value(json_object_get(reply, "step"));
	/* The others are named after the first: one step. */
	if (t->report >= 0) {
		(void)!write(t->report, &step, sizeof step);
		close(t->report);
	}
	memset(&ro, 0, sizeof ro);
	ro.prog = "srun";
	ro.job = t->job;
	ro.step = step;
	ro.running = true;
	ro.quiet = true;
	snprintf(tag, sizeof tag, "%u: ", rank);
	ro.label = o->label ? tag : NULL;
	/* The tasks share srun's output: each writes whole lines, as
	 * Slurm's srun does, unless -u asks for the bytes as they come. */
	ro.lines = !o->unbuffered;
	json_decref(reply);
	r = relay_run(c, &ro);
	client_free(c);
	_exit(r);
}

/* Waits for the n children of pids; with kill, the first that fails
 * stops the others (SIGTERM, passed on to their tasks). Returns the
 * highest status. */
static int
srun_step_wait(pid_t *pids, size_t n, bool kill_bad)
{
	size_t	left = n, i;
	pid_t	pid;
	int	status, code, worst = 0;
	bool	killed = false;

	while (left > 0) {
		if ((pid = waitpid(-1, &status, 0)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n && pids[i] != pid; i++)
			;
		if (i == n)
			continue;
		pids[i] = -1;
		left--;
		code = WIFEXITED(status) ? WEXITSTATUS(status) :
		    128 + WTERMSIG(status);
		if (code > worst)
			worst = code;
		if (code != 0 && kill_bad && !killed) {
			killed = true;
			srun_step_forward(SIGTERM);
		}
	}
	return (worst);
}

/* What a step asks of the job beside its shape: -c within the CPUs the
 * job gave each task (its tasks run in the job's cgroup, on its CPUs),
 * an --export list as gsub takes one. Returns 0, or -1 with err. */
static int
srun_step_check(const struct srun_opt *o, char *err, size_t errlen)
{
	unsigned	per = srun_step_env_count("SLURM_CPUS_PER_TASK",
			    "GBATCH_CPUS", 0);
	char		why[512];

	if (o->cpus_per_task != 0 && per != 0 && o->cpus_per_task > per) {
		snprintf(err, errlen, "-c %u: the job gave each task %u CPU%s; "
		    "a step's tasks share the job's CPUs (give -c %u or less, "
		    "or submit the job with -c %u)", o->cpus_per_task, per,
		    per == 1 ? "" : "s", per, o->cpus_per_task);
		return (-1);
	}
	if (o->export != NULL && jobenv_check(o->export, why,
	    sizeof why) != 0) {
		snprintf(err, errlen, "%s", why);
		return (-1);
	}
	return (0);
}

int
srun_step_run(char **argv, const struct srun_opt *o, unsigned timeout_s,
    char *err, size_t errlen)
{
	static const int	 sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGUSR1, SIGUSR2, SIGCONT };
	struct srun_layout	 lay;
	struct srun_step_task	 task;
	struct sigaction	 sa, old[sizeof sigs / sizeof sigs[0]];
	const char		*id_s, *list;
	char			*nodes, **node, *cwd, *save;
	json_t			*env;
	uint64_t		 id;
	unsigned		 nnodes = 0, i, t;
	size_t			 k;
	pid_t			 pid;
	int			 r, fds[2], shared[2] = { -1, -1 };

	*err = '\0';
	id_s = getenv("GBATCH_JOB_ID") != NULL ? getenv("GBATCH_JOB_ID") :
	    getenv("SLURM_JOB_ID");
	list = getenv("GBATCH_NODELIST");
	if (id_s == NULL || (id = strtoull(id_s, NULL, 10)) == 0 ||
	    list == NULL || *list == '\0') {
		snprintf(err, errlen, "not in a job's batch script: "
		    "GBATCH_JOB_ID and GBATCH_NODELIST are not set");
		return (EXIT_USAGE);
	}
	nodes = xstrdup(list);
	node = xcalloc(strlen(list) / 2 + 2, sizeof *node);
	for (save = NULL, node[0] = strtok_r(nodes, ",", &save);
	    node[nnodes] != NULL; node[++nnodes] = strtok_r(NULL, ",", &save))
		;
	if (srun_step_check(o, err, errlen) != 0 ||
	    srun_step_layout(nnodes, srun_step_env_count(
	    "SLURM_NTASKS_PER_NODE", "LOCAL_WORLD_SIZE", 1), o, &lay, err,
	    errlen) != 0) {
		free(node);
		free(nodes);
		return (EXIT_USAGE);
	}
	env = jobenv_build(o->export != NULL ? o->export : "ALL", environ);
	cwd = getcwd(NULL, 0);
	/* A file every task writes to is opened (truncated) once. */
	memset(&task, 0, sizeof task);
	task.job = id;
	task.node = node[0];
	if ((o->output != NULL && !outpat_per_part(o->output) &&
	    (shared[0] = srun_step_open(o->output, &task, err,
	    errlen)) == -1) || (o->error != NULL &&
	    !outpat_per_part(o->error) && (shared[1] = srun_step_open(
	    o->error, &task, err, errlen)) == -1)) {
		if (shared[0] >= 0)
			close(shared[0]);
		json_decref(env);
		free(cwd);
		srun_step_layout_free(&lay);
		free(node);
		free(nodes);
		return (EXIT_USAGE);
	}
	srun_step_pids = xcalloc(lay.tasks, sizeof *srun_step_pids);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = srun_step_forward;
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
		sigaction(sigs[k], &sa, &old[k]);
	fflush(NULL);
	task.world = lay.tasks;
	task.report = -1;
	task.gpu_per_task = o->gpu_per_task;
	for (i = 0; i < lay.nodes; i++) {
		task.node = node[i];
		task.node_rank = i;
		task.count = lay.count[i];
		for (t = 0; t < lay.count[i]; t++, task.rank++) {
			task.local = t;
			/* The first task's number, once it has one, names the
			 * step for all (SLURM_STEP_ID, JOBID.STEP). */
			if (task.rank == 0 && pipe2(fds, O_CLOEXEC) == 0)
				task.report = fds[1];
			if ((pid = fork()) == 0) {
				/* The child relays its own signals. */
				for (k = 0; k < sizeof sigs / sizeof sigs[0];
				    k++)
					sigaction(sigs[k], &old[k], NULL);
				srun_step_task(&task, o, shared, argv, env,
				    cwd != NULL ? cwd : "/", timeout_s);
			}
			if (pid == -1) {
				snprintf(err, errlen, "cannot start task %u: "
				    "%s", task.rank, strerror(errno));
				srun_step_forward(SIGTERM);
				i = lay.nodes;
				break;
			}
			srun_step_pids[srun_step_npids++] = pid;
			if (task.report >= 0) {
				close(task.report);
				task.report = -1;
				if (read(fds[0], &task.first,
				    sizeof task.first) != sizeof task.first)
					task.first = 0;
				close(fds[0]);
			}
		}
	}
	r = srun_step_wait(srun_step_pids, srun_step_npids,
	    o->kill_on_bad_exit);
	if (srun_step_npids < lay.tasks && r == 0)
		r = 1;
	for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
		sigaction(sigs[k], &old[k], NULL);
	for (k = 0; k < 2; k++) {
		if (shared[k] >= 0)
			close(shared[k]);
	}
	free(srun_step_pids);
	srun_step_pids = NULL;
	srun_step_npids = 0;
	free(cwd);
	json_decref(env);
	srun_step_layout_free(&lay);
	free(node);
	free(nodes);
	return (r);
}
