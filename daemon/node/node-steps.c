/* node-steps.c: commands run inside running jobs (grun --jobid). */
#include <sys/queue.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/node/node-cgroup.h"
#include "daemon/node/node-launch.h"
#include "daemon/node/node-spawn.h"
#include "daemon/node/node-steps.h"

struct node_step {
	TAILQ_ENTRY(node_step)	 entry;
	struct node_steps	*steps;
	uint64_t		 job;
	uint32_t		 step;
	pid_t			 pid;		/* leads its process group */
	int			 errfd;		/* why it could not start */
	char			 why[512];
	size_t			 whylen;
	struct event		*kill_ev;	/* SIGKILL after a hangup */
};
TAILQ_HEAD(node_step_list, node_step);

struct node_steps {
	struct event_base	*base;
	const struct node_conf	*conf;
	struct node_jobs	*jobs;
	struct node_ios		*ios;
	struct node_step_list	 list;
	struct event		*sigchld;
};

static struct node_step *
node_step_find(struct node_steps *steps, uint64_t job, uint32_t step)
{
	struct node_step	*s;

	TAILQ_FOREACH(s, &steps->list, entry) {
		if (s->job == job && s->step == step)
			return (s);
	}
	return (NULL);
}

static void
node_step_free(struct node_step *s)
{
	TAILQ_REMOVE(&s->steps->list, s, entry);
	if (s->kill_ev != NULL)
		event_free(s->kill_ev);
	if (s->errfd >= 0)
		close(s->errfd);
	free(s);
}

/* Sends STEP_ENDED for job's step (once its output is all sent). */
static void
node_step_report(struct node_steps *steps, uint64_t job, uint32_t step,
    int code, int sig, const char *message)
{
	json_t	*msg;

	msg = json_pack("{s:i,s:I,s:i,s:i,s:i,s:s}", "type", MSG_STEP_ENDED,
	    "job", (json_int_t)job, "step", (int)step, "exit_code", code,
	    "signal", sig, "message", message);
	node_io_defer(steps->ios, job, step, msg);
	json_decref(msg);
}

/* Reads what the child wrote about why it could not start (its exec
 * closes the pipe; a failure writes, then exits). */
static void
node_step_read_why(struct node_step *s)
{
	ssize_t	n;

	while (s->errfd >= 0 && s->whylen < sizeof s->why - 1) {
		n = read(s->errfd, s->why + s->whylen,
		    sizeof s->why - 1 - s->whylen);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		s->whylen += (size_t)n;
	}
	s->why[s->whylen] = '\0';
}

static void
node_step_ended(struct node_step *s, int status)
{
	char	msg[600];
	int	code = 0, sig = 0;

	node_step_read_why(s);
	msg[0] = '\0';
	if (WIFEXITED(status))
		code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		sig = WTERMSIG(status);
	if (s->whylen > 0)
		snprintf(msg, sizeof msg, "%s", s->why);
	else if (sig != 0)
		snprintf(msg, sizeof msg, "killed by signal %d (%s)", sig,
		    strsignal(sig));
	else if (code != 0)
		snprintf(msg, sizeof msg, "exited with status %d", code);
	log_info("job %llu: step %u ended%s%s", (unsigned long long)s->job,
	    s->step, msg[0] != '\0' ? ": " : "", msg);
	node_step_report(s->steps, s->job, s->step, code, sig, msg);
	node_step_free(s);
}

static void
node_steps_sigchld_cb(evutil_socket_t fd, short what, void *arg)
{
	struct node_steps	*steps = arg;
	struct node_step	*s, *next;
	int			 status;

	for (s = TAILQ_FIRST(&steps->list); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		if (waitpid(s->pid, &status, WNOHANG) == s->pid)
			node_step_ended(s, status);
	}
}

struct node_steps *
node_steps_create(struct event_base *base, const struct node_conf *conf,
    struct node_jobs *jobs, struct node_ios *ios)
{
	struct node_steps	*steps;

	steps = xcalloc(1, sizeof *steps);
	steps->base = base;
	steps->conf = conf;
	steps->jobs = jobs;
	steps->ios = ios;
	TAILQ_INIT(&steps->list);
	steps->sigchld = evsignal_new(base, SIGCHLD, node_steps_sigchld_cb,
	    steps);
	event_add(steps->sigchld, NULL);
	return (steps);
}

/* In the step's child: becomes the command, in the job's cgroup, or
 * writes why not to fd. Never returns. */
static void __attribute__((noreturn))
node_step_child(struct node_steps *steps, struct node_launch *l, int fd)
{
	struct node_spawn	*sp;
	struct node_cgroup	*cg = NULL;
	char			 err[512];

	if ((sp = node_spawn_prepare(steps->conf, l, err, sizeof err)) ==
	    NULL) {
		(void)!write(fd, err, strlen(err));
		_exit(127);
	}
	if (steps->conf->cgroup_sys != NULL &&
	    (cg = node_cgroup_find(steps->conf->cgroup_sys, l->id)) == NULL) {
		snprintf(err, sizeof err, "job %llu has no cgroup on %s",
		    (unsigned long long)l->id, steps->conf->name);
		(void)!write(fd, err, strlen(err));
		_exit(127);
	}
	node_spawn_set_cgroup(sp, cg);
	node_spawn_exec(sp, fd);
}

/* Checks that l may run here now, as node-jobs.c checks a launch. */
static int
node_step_check(struct node_steps *steps, struct node_launch *l,
    char *err, size_t errlen)
{
	if (!node_jobs_runs(steps->jobs, l->id)) {
		snprintf(err, errlen, "job %llu does not run on %s",
		    (unsigned long long)l->id, steps->conf->name);
		return (-1);
	}
	if (!l->io) {
		snprintf(err, errlen, "STEP_LAUNCH without its streams");
		return (-1);
	}
	/* Its CPUs are the job's cgroup's, which it joins. */
	return (node_launch_check_user(steps->conf, l, "command", err,
	    errlen));
}

/* Forks a step's child, its error pipe in fds (the child keeps fds[1],
 * the parent fds[0]). The child leads its own session before the parent
 * goes on: a signal, a hangup or the job's end is sent to the step's
 * process group (kill(-pid)), and one sent before the child's setsid()
 * would find no group and be lost, leaving the step running. The child
 * is born with every signal blocked, so that one sent to its group
 * before node_spawn_child() resets gnoded's handlers waits for the
 * reset instead of running a handler of gnoded's. Returns the pid (0 in
 * the child), or -1 with errno. */
static pid_t
node_step_fork(int *fds)
{
	sigset_t	all, old;
	pid_t		pid;
	char		c;
	int		sync[2], e;

	if (pipe2(fds, O_CLOEXEC) == -1)
		return (-1);
	if (pipe2(sync, O_CLOEXEC) == -1) {
		e = errno;
		close(fds[0]);
		close(fds[1]);
		errno = e;
		return (-1);
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if ((pid = fork()) == 0) {
		close(fds[0]);
		close(sync[0]);
		(void)setsid();
		close(sync[1]);
		return (0);
	}
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	close(sync[1]);
	/* End of file once the child has its session (or has died). */
	while (pid != -1 && read(sync[0], &c, 1) == -1 && errno == EINTR)
		;
	close(sync[0]);
	if (pid == -1) {
		close(fds[0]);
		errno = e;
	}
	return (pid);
}

void
node_steps_launch(struct node_steps *steps, const json_t *msg)
{
	struct node_launch	*l;
	struct node_step	*s;
	const json_t		*v = json_object_get(msg, "step");
	char			 why[1024];
	uint64_t		 job;
	uint32_t		 step;
	pid_t			 pid;
	int			 fds[2];

	if (node_launch_id(msg, &job) == -1 || !json_is_integer(v) ||
	    json_integer_value(v) < 1 || json_integer_value(v) > UINT32_MAX) {
		log_warn("STEP_LAUNCH without a job id or a step; ignored");
		return;
	}
	step = (uint32_t)json_integer_value(v);
	if ((l = node_launch_parse(msg, why, sizeof why)) == NULL ||
	    node_step_check(steps, l, why, sizeof why) == -1) {
		log_warn("audit: refused step %u of job %llu from the "
		    "controller: %s", step, (unsigned long long)job, why);
		node_step_report(steps, job, step, 1, 0, why);
		node_launch_free(l);
		return;
	}
	l->step = step;
	node_jobs_step_mps(steps->jobs, job, l);
	if (node_io_open(steps->ios, job, step, l, why, sizeof why) == -1) {
		node_step_report(steps, job, step, 1, 0, why);
		node_launch_free(l);
		return;
	}
	if ((pid = node_step_fork(fds)) == -1) {
		snprintf(why, sizeof why, "cannot start the command: %s",
		    strerror(errno));
		node_io_started(steps->ios, job, step, l);
		node_io_close(steps->ios, job, step);
		node_step_report(steps, job, step, 1, 0, why);
		node_launch_free(l);
		return;
	}
	if (pid == 0)
		node_step_child(steps, l, fds[1]);
	node_io_started(steps->ios, job, step, l);
	s = xcalloc(1, sizeof *s);
	s->steps = steps;
	s->job = job;
	s->step = step;
	s->pid = pid;
	s->errfd = fds[0];
	TAILQ_INSERT_TAIL(&steps->list, s, entry);
	log_info("job %llu: step %u started as %s (uid %lu): %s, pid %ld",
	    (unsigned long long)job, step, l->user, (unsigned long)l->uid,
	    l->argv[0], (long)pid);
	node_launch_free(l);
}

static void
node_step_kill_cb(evutil_socket_t fd, short what, void *arg)
{
	struct node_step	*s = arg;

	(void)kill(-s->pid, SIGKILL);
}

/* Ends s as a closed terminal would: SIGHUP now, SIGKILL if it lingers. */
static void
node_step_hangup(struct node_step *s)
{
	struct timeval	tv = { (time_t)s->steps->conf->kill_wait, 0 };

	node_io_close(s->steps->ios, s->job, s->step);
	(void)kill(-s->pid, SIGHUP);
	(void)kill(-s->pid, SIGCONT);
	if (s->kill_ev == NULL) {
		s->kill_ev = evtimer_new(s->steps->base, node_step_kill_cb, s);
		evtimer_add(s->kill_ev, &tv);
	}
}

void
node_steps_control(struct node_steps *steps, const json_t *msg)
{
	struct node_step	*s;
	const json_t		*v;

	s = node_step_find(steps, (uint64_t)json_integer_value(
	    json_object_get(msg, "job")), (uint32_t)json_integer_value(
	    json_object_get(msg, "step")));
	if (s == NULL)
		return;
	if (json_is_true(json_object_get(msg, "hangup"))) {
		node_step_hangup(s);
		return;
	}
	v = json_object_get(msg, "signal");
	if (json_is_integer(v) && json_integer_value(v) > 0 &&
	    json_integer_value(v) < NSIG)
		(void)kill(-s->pid, (int)json_integer_value(v));
}

void
node_steps_job_ended(struct node_steps *steps, uint64_t id)
{
	struct node_step	*s;

	TAILQ_FOREACH(s, &steps->list, entry) {
		if (s->job == id)
			(void)kill(-s->pid, SIGKILL);
	}
}

void
node_steps_lost(struct node_steps *steps, uint64_t job, uint32_t step)
{
	struct node_step	*s;

	if ((s = node_step_find(steps, job, step)) != NULL)
		node_step_hangup(s);
}

void
node_steps_free(struct node_steps *steps)
{
	struct node_step	*s;
	int			 status;

	if (steps == NULL)
		return;
	/* A step is a session's: it does not outlive gnoded. */
	while ((s = TAILQ_FIRST(&steps->list)) != NULL) {
		(void)kill(-s->pid, SIGKILL);
		(void)waitpid(s->pid, &status, 0);
		node_step_free(s);
	}
	event_free(steps->sigchld);
	free(steps);
}
