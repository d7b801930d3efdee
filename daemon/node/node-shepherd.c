/* node-shepherd.c: the shepherd: start the job, watch it, record its end. */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/duration.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/node/node-confine.h"
#include "daemon/node/node-proc.h"
#include "daemon/node/node-record.h"
#include "daemon/node/node-shepherd.h"
#include "daemon/node/node-spawn.h"

/* The shepherd's end of the socket pair, after descriptors are tidied,
 * and an interactive job's streams (stdin, stdout, stderr) after it. */
#define NODE_SHEPHERD_FD	3
#define NODE_SHEPHERD_IO_FD	4

/* How often to look again at a process group whose leader is gone: its
 * other members need not be our children, so no SIGCHLD may come. */
#define NODE_SHEPHERD_POLL_MS	100

enum node_shepherd_ending {
	NODE_SHEPHERD_RUNNING = 0,
	NODE_SHEPHERD_CANCEL,
	NODE_SHEPHERD_TIMEOUT,
	NODE_SHEPHERD_PREEMPT,	/* grace over: SIGTERM sent */
	NODE_SHEPHERD_FAILED,	/* a task failed: the others are stopped */
};

/* One of the node's processes of the job (one, or --ntasks-per-node's):
 * it leads a process group of its own. */
struct node_shepherd_task {
	pid_t				 pgid;
	uint64_t			 ticks;		/* its start time */
	bool				 done;		/* reaped */
	int				 status;
};

struct node_shepherd {
	const struct node_conf		*conf;
	const struct node_launch	*l;
	struct node_shepherd_task	*tasks;
	unsigned			 ntasks;	/* started */
	unsigned			 ndone;
	int				 failed;	/* first to fail, -1 */
	time_t				 start_time;
	uint64_t			 start_ms;	/* monotonic */
	uint64_t			 time_limit;	/* s, 0 none */
	uint64_t			 limit_at;	/* monotonic ms, 0 none */
	uint64_t			 warn_at;	/* the warning signal's */
	uint64_t			 kill_at;	/* monotonic ms, 0 none */
	uint64_t			 preempt_at;	/* end of the grace */
	bool				 preempted;
	enum node_shepherd_ending	 ending;
	/* The job's cgroup (NULL: unconfined here), and what it counted
	 * once the job ended. */
	struct node_cgroup		*cg;
	bool				 counted;
	uint64_t			 mem_peak;	/* bytes */
	uint64_t			 cpu_usec;
	bool				 oom;
};

/* Every task has ended (its leader at least). */
static bool
node_shepherd_all_done(const struct node_shepherd *sh)
{
	return (sh->ndone == sh->ntasks);
}

static uint64_t
node_shepherd_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

static json_t *
node_shepherd_gpus(const struct node_launch *l)
{
	json_t	*a;
	size_t	 i;

	a = json_array();
	for (i = 0; i < l->ngpus; i++)
		json_array_append_new(a, json_integer(l->gpus[i]));
	return (a);
}

static void
node_shepherd_end(struct node_shepherd *sh, const char *state, int code,
    int sig, const char *msg)
{
	json_t	*rec;
	char	 err[512];

	rec = json_pack("{s:I,s:s,s:i,s:i,s:I,s:I,s:s,s:o}",
	    "id", (json_int_t)sh->l->id, "state", state, "exit_code", code,
	    "signal", sig, "start_time", (json_int_t)sh->start_time,
	    "end_time", (json_int_t)time(NULL), "message", msg,
	    "gpus", node_shepherd_gpus(sh->l));
	if (sh->preempted)
		json_object_set_new(rec, "preempted", json_true());
	if (sh->counted) {
		json_object_set_new(rec, "mem_peak_mb", json_integer(
		    (json_int_t)((sh->mem_peak + (1 << 20) - 1) >> 20)));
		json_object_set_new(rec, "cpu_time_ms", json_integer(
		    (json_int_t)(sh->cpu_usec / 1000)));
	}
	if (node_record_write(sh->conf->state_dir, sh->l->id, NODE_RECORD_END,
	    rec, err, sizeof err) == -1)
		log_error("job %llu: cannot record its end (%s): %s",
		    (unsigned long long)sh->l->id, state, err);
	json_decref(rec);
}

/* Written when the job starts and again when it is preempted, so that a
 * gnoded that restarts meanwhile, or that finds the shepherd gone without
 * an end record, still knows the job was being preempted. */
static void
node_shepherd_record_run(struct node_shepherd *sh)
{
	json_t	*rec;
	char	 err[512];

	json_t	*tasks;
	unsigned i;

	rec = json_pack("{s:I,s:s,s:o,s:i,s:I,s:I,s:i,s:I,s:i,s:i}",
	    "id", (json_int_t)sh->l->id, "state", "RUNNING",
	    "gpus", node_shepherd_gpus(sh->l), "pid", (int)sh->tasks[0].pgid,
	    "pid_start", (json_int_t)sh->tasks[0].ticks,
	    "start_time", (json_int_t)sh->start_time,
	    "shepherd_pid", (int)getpid(),
	    "shepherd_start", (json_int_t)node_proc_start_ticks(getpid()),
	    "restarts", (int)sh->l->restarts,
	    "num_nodes", (int)sh->l->num_nodes);
	node_record_run_launch(rec, sh->l);
	if (sh->preempted)
		json_object_set_new(rec, "preempted", json_true());
	/* The other tasks, for gnoded to kill should the shepherd die. */
	if (sh->ntasks > 1) {
		tasks = json_array();
		for (i = 1; i < sh->ntasks; i++)
			json_array_append_new(tasks, json_pack("[i,I]",
			    (int)sh->tasks[i].pgid,
			    (json_int_t)sh->tasks[i].ticks));
		json_object_set_new(rec, "tasks", tasks);
	}
	if (node_record_write(sh->conf->state_dir, sh->l->id, NODE_RECORD_RUN,
	    rec, err, sizeof err) == -1)
		log_error("job %llu: cannot record its start: %s",
		    (unsigned long long)sh->l->id, err);
	json_decref(rec);
}

static void
node_shepherd_kill_task(struct node_shepherd *sh, unsigned i, int sig)
{
	if (kill(-sh->tasks[i].pgid, sig) == -1 && errno != ESRCH)
		log_warn("job %llu: cannot send signal %d to process group "
		    "%ld: %s", (unsigned long long)sh->l->id, sig,
		    (long)sh->tasks[i].pgid, strerror(errno));
}

/* To every task's process group; SIGKILL to the whole cgroup too, which
 * holds what left the groups (a daemon that called setsid). */
static void
node_shepherd_kill(struct node_shepherd *sh, int sig)
{
	char		err[512];
	unsigned	i;

	for (i = 0; i < sh->ntasks; i++)
		node_shepherd_kill_task(sh, i, sig);
	if (sig == SIGKILL && sh->cg != NULL &&
	    node_cgroup_kill(sh->cg, err, sizeof err) == -1)
		log_warn("job %llu: cannot kill its cgroup: %s",
		    (unsigned long long)sh->l->id, err);
}

/* Starts the end of the job: SIGTERM now, SIGKILL kill_wait later. */
static void
node_shepherd_stop(struct node_shepherd *sh, enum node_shepherd_ending why)
{
	/* The preemption's SIGTERM went out already and its SIGKILL is
	 * armed; a cancel now only says how the job ended. */
	if (sh->ending == NODE_SHEPHERD_PREEMPT && why == NODE_SHEPHERD_CANCEL)
		sh->ending = why;
	if (sh->ending != NODE_SHEPHERD_RUNNING)
		return;
	sh->ending = why;
	if (sh->conf->kill_wait == 0) {
		node_shepherd_kill(sh, SIGKILL);
		return;
	}
	node_shepherd_kill(sh, SIGTERM);
	sh->kill_at = node_shepherd_now_ms() + sh->conf->kill_wait * 1000ULL;
}

/* Starts a preemption: the checkpoint signal now, then, once the grace is
 * over and unless the job has ended by itself, the cancel's SIGTERM and
 * SIGKILL (node_shepherd_wait). A job already on its way out is left to
 * finish as it was going to. */
static void
node_shepherd_preempt(struct node_shepherd *sh)
{
	unsigned long long	id = sh->l->id;

	if (sh->preempted || sh->ending != NODE_SHEPHERD_RUNNING ||
	    node_shepherd_all_done(sh)) {
		log_debug("job %llu: preempt while %s; ignored", id,
		    sh->preempted ? "already being preempted" : "ending");
		return;
	}
	sh->preempted = true;
	node_shepherd_record_run(sh);
	log_info("job %llu: preempting: signal %d, SIGTERM in %u s", id,
	    sh->l->ckpt_signal, sh->l->ckpt_grace);
	node_shepherd_kill(sh, sh->l->ckpt_signal);
	if (sh->l->ckpt_grace == 0)
		node_shepherd_stop(sh, NODE_SHEPHERD_PREEMPT);
	else
		sh->preempt_at = node_shepherd_now_ms() +
		    sh->l->ckpt_grace * 1000ULL;
}

/* The warning before the time limit (sbatch's --signal): to the job's
 * process group, or with warn_batch to the batch shell alone. */
static void
node_shepherd_warn(struct node_shepherd *sh)
{
	const struct node_launch	*l = sh->l;
	unsigned			 i;

	log_info("job %llu: signal %d, %u s before its time limit%s",
	    (unsigned long long)l->id, l->warn_signal, l->warn_time,
	    l->warn_batch ? ", to its batch shell" : "");
	if (!l->warn_batch) {
		node_shepherd_kill(sh, l->warn_signal);
		return;
	}
	for (i = 0; i < sh->ntasks; i++) {
		if (!sh->tasks[i].done && kill(sh->tasks[i].pgid,
		    l->warn_signal) == -1 && errno != ESRCH)
			log_warn("job %llu: cannot send signal %d to %ld: %s",
			    (unsigned long long)l->id, l->warn_signal,
			    (long)sh->tasks[i].pgid, strerror(errno));
	}
}

static bool
node_shepherd_failed_status(int status)
{
	return (!WIFEXITED(status) || WEXITSTATUS(status) != 0);
}

/* Task i's leader has ended with status. */
static void
node_shepherd_task_done(struct node_shepherd *sh, unsigned i, int status)
{
	struct node_shepherd_task	*t = &sh->tasks[i];

	t->done = true;
	t->status = status;
	sh->ndone++;
	/* A task ends with its script: what it left behind goes too,
	 * unless a cancel or timeout is still giving it the kill_wait
	 * grace, or a preemption its checkpoint grace: a batch shell
	 * without a trap dies of the checkpoint signal while the trainer
	 * it started is saving its state. */
	if (sh->ending == NODE_SHEPHERD_RUNNING && sh->preempt_at == 0)
		node_shepherd_kill_task(sh, i, SIGKILL);
	/* The last task gone, whatever it left in the cgroup goes too. */
	if (node_shepherd_all_done(sh) && sh->ending ==
	    NODE_SHEPHERD_RUNNING && sh->preempt_at == 0 && sh->cg != NULL)
		node_shepherd_kill(sh, SIGKILL);
	if (!node_shepherd_failed_status(status) || sh->failed >= 0)
		return;
	sh->failed = (int)i;
	/* The gang rule, per task: one that fails stops the others, as a
	 * failing part stops the job's other nodes. */
	if (sh->ending == NODE_SHEPHERD_RUNNING && sh->preempt_at == 0 &&
	    !node_shepherd_all_done(sh)) {
		log_info("job %llu: task %u failed; stopping the node's "
		    "others", (unsigned long long)sh->l->id,
		    sh->l->task_base + i);
		node_shepherd_stop(sh, NODE_SHEPHERD_FAILED);
	}
}

static void
node_shepherd_reap(struct node_shepherd *sh)
{
	pid_t		pid;
	unsigned	i;
	int		status;

	/* As a subreaper we also collect the job's orphaned descendants. */
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < sh->ntasks; i++) {
			if (pid == sh->tasks[i].pgid && !sh->tasks[i].done) {
				node_shepherd_task_done(sh, i, status);
				break;
			}
		}
	}
}

static bool
node_shepherd_group_gone(struct node_shepherd *sh)
{
	unsigned	i;

	/* The cgroup holds every process the job started, wherever. */
	if (sh->cg != NULL)
		return (node_cgroup_empty(sh->cg));
	for (i = 0; i < sh->ntasks; i++) {
		if (kill(-sh->tasks[i].pgid, 0) == 0 || errno != ESRCH)
			return (false);
	}
	return (true);
}

/* The job's time limit is secs from its start (0: none), and its warning
 * signal's time before it; a warning already due goes at once, and a
 * limit already past ends the job at the next look. */
static void
node_shepherd_limit(struct node_shepherd *sh, uint64_t secs)
{
	const struct node_launch	*l = sh->l;

	sh->time_limit = secs;
	sh->limit_at = secs != 0 ? sh->start_ms + secs * 1000 : 0;
	sh->warn_at = 0;
	if (secs != 0 && l->warn_signal != 0)
		sh->warn_at = sh->limit_at - (l->warn_time < secs ?
		    l->warn_time : secs) * 1000ULL;
}

static void
node_shepherd_wait(struct node_shepherd *sh, const sigset_t *set)
{
	struct timespec	ts, *tsp;
	siginfo_t	info;
	uint64_t	now, next;
	int		sig;

	for (;;) {
		if (node_shepherd_all_done(sh) &&
		    node_shepherd_group_gone(sh))
			return;
		now = node_shepherd_now_ms();
		next = 0;
		if (sh->ending == NODE_SHEPHERD_RUNNING && sh->limit_at != 0)
			next = sh->limit_at;
		if (sh->ending == NODE_SHEPHERD_RUNNING && sh->warn_at != 0 &&
		    (next == 0 || sh->warn_at < next))
			next = sh->warn_at;
		if (sh->ending == NODE_SHEPHERD_RUNNING &&
		    sh->preempt_at != 0 &&
		    (next == 0 || sh->preempt_at < next))
			next = sh->preempt_at;
		if (sh->kill_at != 0 && (next == 0 || sh->kill_at < next))
			next = sh->kill_at;
		if (node_shepherd_all_done(sh) &&
		    (next == 0 || now + NODE_SHEPHERD_POLL_MS < next))
			next = now + NODE_SHEPHERD_POLL_MS;
		tsp = NULL;
		if (next != 0) {
			next = next > now ? next - now : 0;
			ts.tv_sec = (time_t)(next / 1000);
			ts.tv_nsec = (long)(next % 1000) * 1000000;
			tsp = &ts;
		}
		sig = sigtimedwait(set, &info, tsp);
		if (sig == SIGCHLD)
			node_shepherd_reap(sh);
		else if (sig == SIGTERM || sig == SIGINT)
			node_shepherd_stop(sh, NODE_SHEPHERD_CANCEL);
		else if (sig == NODE_SHEPHERD_SIGFWD) {
			if (info.si_value.sival_int > 0 &&
			    info.si_value.sival_int < NSIG)
				node_shepherd_kill(sh, info.si_value.sival_int);
		} else if (sig == NODE_SHEPHERD_SIGPREEMPT)
			node_shepherd_preempt(sh);
		else if (sig == NODE_SHEPHERD_SIGLIMIT &&
		    info.si_value.sival_int >= 0) {
			node_shepherd_limit(sh, (uint64_t)info.si_value.sival_int);
			log_info("job %llu: time limit now %d s",
			    (unsigned long long)sh->l->id,
			    info.si_value.sival_int);
		}
		now = node_shepherd_now_ms();
		if (sh->ending == NODE_SHEPHERD_RUNNING &&
		    sh->preempt_at != 0 && now >= sh->preempt_at) {
			sh->preempt_at = 0;
			node_shepherd_stop(sh, NODE_SHEPHERD_PREEMPT);
		}
		if (sh->ending == NODE_SHEPHERD_RUNNING && sh->warn_at != 0 &&
		    now >= sh->warn_at) {
			sh->warn_at = 0;
			node_shepherd_warn(sh);
		}
		if (sh->ending == NODE_SHEPHERD_RUNNING && sh->limit_at != 0 &&
		    now >= sh->limit_at)
			node_shepherd_stop(sh, NODE_SHEPHERD_TIMEOUT);
		if (sh->kill_at != 0 && now >= sh->kill_at) {
			sh->kill_at = 0;
			node_shepherd_kill(sh, SIGKILL);
		}
	}
}

/* Reports the end. A preempted job's state is what its exit says, as if
 * nothing had happened: the controller, which asked, decides what it means
 * (a requeue, mostly), from the "preempted" flag. */
static void
node_shepherd_finish(struct node_shepherd *sh)
{
	const char	*state = "COMPLETED";
	char		 msg[256], why[256], limit[32], task[64];
	unsigned	 t = sh->failed >= 0 ? (unsigned)sh->failed : 0;
	int		 code = 0, sig = 0, status = sh->tasks[t].status;

	msg[0] = '\0';
	/* The first task to fail speaks for the node, else the first. */
	if (WIFEXITED(status))
		code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		sig = WTERMSIG(status);
	task[0] = '\0';
	if (sh->ntasks > 1)
		snprintf(task, sizeof task, "task %u (rank %u) ", t,
		    sh->l->task_base + t);
	switch (sh->ending) {
	case NODE_SHEPHERD_TIMEOUT:
		state = "TIMEOUT";
		snprintf(msg, sizeof msg, "time limit of %s reached",
		    duration_format(sh->time_limit, limit, sizeof limit));
		break;
	case NODE_SHEPHERD_CANCEL:
		state = "CANCELLED";
		break;
	case NODE_SHEPHERD_RUNNING:
	case NODE_SHEPHERD_PREEMPT:
	case NODE_SHEPHERD_FAILED:
		/* The kernel killed a process of it over its memory limit:
		 * a job that failed so ran out of memory, whatever its
		 * script made of the kill. */
		if (sh->oom && (sig != 0 || code != 0)) {
			state = "OUT_OF_MEMORY";
			snprintf(msg, sizeof msg, "out of memory: a process "
			    "was killed over the job's limit of %llu MB "
			    "(gsub --mem or --mem-per-gpu)",
			    (unsigned long long)sh->l->mem_mb);
			break;
		}
		if (sig != 0) {
			state = "FAILED";
			snprintf(msg, sizeof msg, "%skilled by signal %d (%s)",
			    task, sig, strsignal(sig));
		} else if (code != 0) {
			state = "FAILED";
			snprintf(msg, sizeof msg, "%sexited with status %d",
			    task, code);
		}
		break;
	}
	if (sh->preempted) {
		snprintf(why, sizeof why, "preempted%s%s",
		    msg[0] != '\0' ? ": " : "", msg);
		snprintf(msg, sizeof msg, "%s", why);
	}
	node_shepherd_end(sh, state, code, sig, msg);
}

/* Once the job is gone: what its cgroup counted, and whether the kernel
 * killed in it for memory. */
static void
node_shepherd_count(struct node_shepherd *sh)
{
	if (sh->cg == NULL)
		return;
	sh->oom = node_cgroup_oom(sh->cg);
	sh->counted = node_cgroup_usage(sh->cg, &sh->mem_peak,
	    &sh->cpu_usec) == 0;
}

/* Removes the job's cgroup, now empty. */
static void
node_shepherd_uncage(struct node_shepherd *sh)
{
	char	err[512];

	if (sh->cg == NULL)
		return;
	if (node_cgroup_destroy(sh->cg, err, sizeof err) == -1)
		log_warn("job %llu: cannot remove its cgroup: %s",
		    (unsigned long long)sh->l->id, err);
	node_cgroup_free(sh->cg);
	sh->cg = NULL;
}

/* The signals the shepherd takes with sigtimedwait(). */
static void
node_shepherd_sigset(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, NODE_SHEPHERD_SIGFWD);
	sigaddset(set, NODE_SHEPHERD_SIGPREEMPT);
	sigaddset(set, NODE_SHEPHERD_SIGLIMIT);
}

/* Points stdin and stdout at /dev/null: gnoded's may be a terminal or a
 * pipe that someone waits on to close. stderr stays, it is the log. */
static void
node_shepherd_stdio(void)
{
	int	fd;

	if ((fd = open("/dev/null", O_RDWR)) == -1)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	if (fd > 2)
		close(fd);
}

/* Removes what the job leaves empty in its working directory. Before its
 * end is recorded: once reported, the job may be requeued at once, and its
 * next run must not find the directory it made removed under it. */
static void
node_shepherd_tidy(struct node_spawn *sp, const struct node_launch *l)
{
	char	err[1024];

	if (node_spawn_tidy(sp, err, sizeof err) == -1)
		log_warn("job %llu: checkpoint directory: %s",
		    (unsigned long long)l->id, err);
}

/* Starts the node's tasks, one after the other (each once the last has
 * exec'd, so the first has opened, and maybe truncated, the files they
 * share). A task that cannot start takes down those started before it.
 * Returns 0, or -1 with err saying which task and why. */
static int
node_shepherd_start_tasks(struct node_shepherd *sh, struct node_spawn *sp,
    char *err, size_t errlen)
{
	const struct node_launch	*l = sh->l;
	char				 why[900];
	unsigned			 i;
	pid_t				 pid;
	int				 status;

	for (i = 0; i < node_launch_procs(l); i++) {
		if ((i > 0 && node_spawn_task(sp, sh->conf, i, why,
		    sizeof why) == -1) || (pid = node_spawn_start(sp, why,
		    sizeof why)) == -1) {
			if (node_launch_procs(l) > 1)
				snprintf(err, errlen, "task %u (rank %u): %s",
				    i, l->task_base + i, why);
			else
				snprintf(err, errlen, "%s", why);
			node_shepherd_kill(sh, SIGKILL);
			while (sh->ntasks > 0 && waitpid(
			    sh->tasks[sh->ntasks - 1].pgid, &status, 0) != -1)
				sh->ntasks--;
			return (-1);
		}
		sh->tasks[i].pgid = pid;
		sh->tasks[i].ticks = node_proc_start_ticks(pid);
		sh->ntasks++;
	}
	return (0);
}

/* In the shepherd's child: moves l's streams above the places they go to
 * (they may sit anywhere gnoded had room). Returns 0 or -1. */
static int
node_shepherd_io_fds(struct node_launch *l)
{
	int	i;

	for (i = 0; i < 3; i++) {
		if (l->io_fd[i] >= 0 && (l->io_fd[i] = fcntl(l->io_fd[i],
		    F_DUPFD_CLOEXEC, NODE_SHEPHERD_IO_FD + 3)) == -1)
			return (-1);
	}
	return (0);
}

/* Then puts them at NODE_SHEPHERD_IO_FD and after, where the tasks take
 * them from (each task's exec closes them). */
static void
node_shepherd_io_place(struct node_launch *l)
{
	int	i;

	for (i = 0; i < 3; i++) {
		/* Nothing of gnoded's stays there (its lock file, say). */
		if (l->io_fd[i] < 0) {
			(void)close(NODE_SHEPHERD_IO_FD + i);
			continue;
		}
		if (dup3(l->io_fd[i], NODE_SHEPHERD_IO_FD + i, O_CLOEXEC) == -1)
			_exit(1);
		l->io_fd[i] = NODE_SHEPHERD_IO_FD + i;
	}
}

/* Once the tasks have them: the shepherd keeps no copy, so the streams
 * end when the tasks do. */
static void
node_shepherd_io_close(const struct node_launch *l)
{
	int	i;

	for (i = 0; i < 3; i++) {
		if (l->io_fd[i] >= 0)
			close(l->io_fd[i]);
	}
}

/* The shepherd proper, in its own session. Never returns. */
static void __attribute__((noreturn))
node_shepherd_main(const struct node_conf *conf, const struct node_launch *l)
{
	struct node_shepherd	 sh;
	struct node_spawn	*sp;
	struct sigaction	 sa;
	sigset_t		 set;
	char			 err[1024], line[128];
	ssize_t			 n;
	pid_t			 pid;
	char			 go;
	int			 len;

	memset(&sh, 0, sizeof sh);
	sh.conf = conf;
	sh.l = l;
	setsid();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	node_shepherd_sigset(&set);
	sigprocmask(SIG_SETMASK, &set, NULL);

	/* No go means gnoded died before it recorded us: nobody would ever
	 * report this job, so do not start it (the controller requeues it). */
	do
		n = read(NODE_SHEPHERD_FD, &go, 1);
	while (n == -1 && errno == EINTR);
	if (n != 1)
		_exit(0);

	sh.tasks = xcalloc(node_launch_procs(l), sizeof *sh.tasks);
	sh.failed = -1;
	if ((sh.cg = node_confine_job(conf, l, err, sizeof err)) == NULL &&
	    err[0] != '\0') {
		log_warn("job %llu: cannot make its cgroup: %s",
		    (unsigned long long)l->id, err);
		snprintf(line, sizeof line, "cannot confine the job on %s",
		    conf->name);
		node_shepherd_end(&sh, "FAILED", 1, 0, line);
		_exit(0);
	}
	if ((sp = node_spawn_prepare(conf, l, err, sizeof err)) != NULL)
		node_spawn_set_cgroup(sp, sh.cg);
	if (sp == NULL ||
	    node_shepherd_start_tasks(&sh, sp, err, sizeof err) == -1) {
		log_warn("job %llu: cannot start: %s",
		    (unsigned long long)l->id, err);
		node_shepherd_tidy(sp, l);
		node_spawn_cleanup(sp);
		node_shepherd_end(&sh, "FAILED", 1, 0, err);
		node_shepherd_uncage(&sh);
		_exit(0);
	}
	node_shepherd_io_close(l);
	pid = sh.tasks[0].pgid;
	sh.start_time = time(NULL);
	sh.start_ms = node_shepherd_now_ms();
	node_shepherd_limit(&sh, l->time_limit);
	node_shepherd_record_run(&sh);
	len = snprintf(line, sizeof line, "started %ld %lld\n", (long)pid,
	    (long long)sh.start_time);
	(void)!write(NODE_SHEPHERD_FD, line, (size_t)len);

	node_shepherd_wait(&sh, &set);
	node_shepherd_tidy(sp, l);
	node_spawn_cleanup(sp);
	node_shepherd_count(&sh);
	node_shepherd_finish(&sh);
	node_shepherd_uncage(&sh);
	_exit(0);
}

/* The shepherds forked and not yet reaped. Global: a child is the
 * process's, whichever session forked it, and is reaped by its pid. */
static struct {
	/* The shepherds this gnoded forked and has not reaped yet. */
	pid_t	*kids;
	size_t	 nkids;
	size_t	 kids_size;
} node_shepherd;

void
node_shepherd_reap_forked(void)
{
	size_t	i = 0;
	pid_t	r;

	while (i < node_shepherd.nkids) {
		while ((r = waitpid(node_shepherd.kids[i], NULL, WNOHANG)) ==
		    -1 && errno == EINTR)
			;
		if (r == 0) {
			i++;
			continue;
		}
		/* Reaped (or, ECHILD, not ours to reap). */
		node_shepherd.kids[i] =
		    node_shepherd.kids[--node_shepherd.nkids];
	}
}

pid_t
node_shepherd_start(const struct node_conf *conf, const struct node_launch *l,
    int *sock, char *err, size_t errlen)
{
	sigset_t	set, old;
	pid_t		pid;
	int		sv[2], e;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return (-1);
	}
	/* The shepherd is born with its signals blocked: gnoded may cancel
	 * or preempt as soon as it knows the pid, and the default action of
	 * either signal would kill the shepherd. */
	node_shepherd_sigset(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	if ((pid = fork()) == 0) {
		/* The job must not inherit gnoded's socket. */
		if (node_shepherd_io_fds((struct node_launch *)l) ==
		    -1 || dup2(sv[1], NODE_SHEPHERD_FD) == -1 ||
		    fcntl(NODE_SHEPHERD_FD, F_SETFD, FD_CLOEXEC) == -1)
			_exit(1);
		node_shepherd_io_place((struct node_launch *)l);
		node_proc_close_from(NODE_SHEPHERD_IO_FD + 3);
		node_shepherd_stdio();
		log_open("gnoded-shepherd", conf->log_syslog,
		    conf->log_level);
		node_shepherd_main(conf, l);
	}
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(sv[1]);
	if (pid == -1) {
		snprintf(err, errlen, "fork: %s", strerror(e));
		close(sv[0]);
		return (-1);
	}
	if (node_shepherd.nkids == node_shepherd.kids_size) {
		node_shepherd.kids_size = node_shepherd.kids_size * 2 + 16;
		node_shepherd.kids = xreallocarray(node_shepherd.kids,
		    node_shepherd.kids_size, sizeof *node_shepherd.kids);
	}
	node_shepherd.kids[node_shepherd.nkids++] = pid;
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK) == -1) {
		snprintf(err, errlen, "fcntl: %s", strerror(errno));
		close(sv[0]);
		return (-1);
	}
	*sock = sv[0];
	return (pid);
}
