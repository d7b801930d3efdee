/* node-jobs.c: the node's job table and its shepherds. */
#include <sys/queue.h>
#include <sched.h>
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/node/node-cgroup.h"
#include "daemon/node/node-cpus.h"
#include "daemon/node/node-freeze.h"
#include "daemon/node/node-io.h"
#include "daemon/node/node-jobs.h"
#include "daemon/node/node-jobs-int.h"
#include "daemon/node/node-launch.h"
#include "daemon/node/node-proc.h"
#include "daemon/node/node-progress.h"
#include "daemon/node/node-record.h"
#include "daemon/node/node-shm.h"
#include "daemon/node/node-shepherd.h"

#ifndef TAILQ_FOREACH_SAFE
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)			\
	for ((var) = TAILQ_FIRST(head);					\
	    (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1);	\
	    (var) = (tvar))
#endif

static void	node_job_sock_cb(evutil_socket_t, short, void *);
static void	node_job_pid_cb(evutil_socket_t, short, void *);

static struct node_job *
node_job_find(struct node_jobs *jobs, uint64_t id)
{
	struct node_job	*job;

	TAILQ_FOREACH(job, &jobs->list, entry) {
		if (job->id == id)
			return (job);
	}
	return (NULL);
}

struct node_job *
node_jobs_new_job(struct node_jobs *jobs, uint64_t id)
{
	struct node_job	*job;

	job = xcalloc(1, sizeof *job);
	job->jobs = jobs;
	job->id = id;
	job->pidfd = -1;
	job->sock = -1;
	job->uid = -1;
	job->gpus = json_array();
	TAILQ_INSERT_TAIL(&jobs->list, job, entry);
	return (job);
}

/* Releases what watches the shepherd: the job has ended. */
static void
node_job_unwatch(struct node_job *job)
{
	if (job->pid_ev != NULL) {
		event_free(job->pid_ev);
		job->pid_ev = NULL;
	}
	if (job->pidfd != -1) {
		close(job->pidfd);
		job->pidfd = -1;
	}
	if (job->sock_ev != NULL) {
		event_free(job->sock_ev);
		job->sock_ev = NULL;
	}
	if (job->sock != -1) {
		close(job->sock);
		job->sock = -1;
	}
}

void
node_jobs_free_job(struct node_job *job)
{
	TAILQ_REMOVE(&job->jobs->list, job, entry);
	node_job_unwatch(job);
	json_decref(job->gpus);
	json_decref(job->end);
	free(job->cpuset);
	/* A job left running when gnoded stops keeps its file. */
	node_progress_close(job->progress, job->state == NODE_JOB_ENDED);
	free(job);
}

void
node_jobs_set_gpus(struct node_job *job, const json_t *gpus)
{
	json_t	*v;
	size_t	 i;

	json_decref(job->gpus);
	job->gpus = json_array();
	job->gpu_mask = 0;
	json_array_foreach(gpus, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= 64)
			continue;
		json_array_append(job->gpus, v);
		job->gpu_mask |= 1ULL << json_integer_value(v);
	}
}

/* The job ended: when it was its user's last on the node, what the user
 * left in /dev/shm goes (node.clean_shm). Not while a job of an unknown
 * user runs (it may be the same one), never for root, and only where
 * gnoded is root (else jobs are its own user's, whose other processes
 * may be using /dev/shm). */
static void
node_jobs_shm(const struct node_job *job)
{
	struct node_jobs	*jobs = job->jobs;
	struct node_job		*o;
	char			 err[512];
	long			 n;

	if (!jobs->conf->clean_shm || job->uid <= 0 || geteuid() != 0)
		return;
	TAILQ_FOREACH(o, &jobs->list, entry) {
		if (o != job && o->state != NODE_JOB_ENDED &&
		    (o->uid == job->uid || o->uid < 0))
			return;
	}
	if ((n = node_shm_clean(NODE_SHM_DIR, (uid_t)job->uid, err,
	    sizeof err)) == -1)
		log_warn("job %llu: %s", (unsigned long long)job->id, err);
	else if (n > 0)
		log_info("job %llu: removed %ld file%s uid %lld left in %s, "
		    "its last job on this node having ended",
		    (unsigned long long)job->id, n, n == 1 ? "" : "s",
		    job->uid, NODE_SHM_DIR);
}

/* Records and reports the end; the job then waits for its ACK. */
static void
node_job_finish(struct node_job *job, json_t *report)
{
	struct node_jobs	*jobs = job->jobs;
	const char		*msg;

	node_job_unwatch(job);
	json_decref(job->end);
	job->end = report;
	job->state = NODE_JOB_ENDED;
	job->gpu_mask = 0;
	if (job->mps) {
		job->mps = false;
		node_mps_leave(jobs->mps, (unsigned)json_integer_value(
		    json_array_get(job->gpus, 0)));
	}
	msg = json_string_value(json_object_get(report, "message"));
	log_info("job %llu: ended %s%s%s", (unsigned long long)job->id,
	    json_string_value(json_object_get(report, "state")),
	    msg != NULL && *msg != '\0' ? ": " : "",
	    msg != NULL ? msg : "");
	node_jobs_shm(job);
	jobs->cb->ended(report, jobs->arg);
}

/* Ends a job that never reached a shepherd, or whose shepherd vanished. */
static void
node_job_fail(struct node_job *job, const char *message)
{
	json_t	*report;
	char	 err[512];

	report = json_pack("{s:I,s:s,s:i,s:i,s:I,s:I,s:s}",
	    "id", (json_int_t)job->id, "state", "FAILED", "exit_code", 1,
	    "signal", 0, "start_time", (json_int_t)job->start_time,
	    "end_time", (json_int_t)time(NULL), "message", message);
	if (job->preempted)
		json_object_set_new(report, "preempted", json_true());
	if (node_record_write(job->jobs->conf->state_dir, job->id,
	    NODE_RECORD_END, report, err, sizeof err) == -1)
		log_error("job %llu: %s", (unsigned long long)job->id, err);
	node_job_finish(job, report);
}

static void
node_job_started(struct node_job *job, const char *line)
{
	long long	pid, start;

	if (sscanf(line, "started %lld %lld", &pid, &start) != 2 || pid <= 0) {
		log_warn("job %llu: shepherd %ld said \"%s\"",
		    (unsigned long long)job->id, (long)job->shep_pid, line);
		return;
	}
	if (job->state != NODE_JOB_STARTING)
		return;
	job->pid = (pid_t)pid;
	job->start_time = (time_t)start;
	job->state = NODE_JOB_RUNNING;
	log_info("job %llu: started, pid %ld", (unsigned long long)job->id,
	    (long)job->pid);
	job->jobs->cb->started(job->id, job->pid, job->start_time,
	    job->jobs->arg);
}

/* Reads what the shepherd wrote. Returns 1 at end of file, else 0. */
static int
node_job_read_sock(struct node_job *job)
{
	char	*nl;
	ssize_t	 n;

	for (;;) {
		n = read(job->sock, job->line + job->linelen,
		    sizeof job->line - 1 - job->linelen);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return (errno == EAGAIN ? 0 : 1);
		if (n == 0)
			return (1);
		job->linelen += (size_t)n;
		job->line[job->linelen] = '\0';
		while ((nl = strchr(job->line, '\n')) != NULL) {
			*nl = '\0';
			node_job_started(job, job->line);
			job->linelen -= (size_t)(nl + 1 - job->line);
			memmove(job->line, nl + 1, job->linelen + 1);
		}
		if (job->linelen == sizeof job->line - 1)
			job->linelen = 0;	/* not ours: drop it */
	}
}

/* Kills what is left in the job's cgroup and removes it (making it anew
 * kills and empties the old one), when jobs are in cgroups here. */
static void
node_job_uncage(struct node_job *job)
{
	struct node_cgroup_limits	 none;
	struct node_cgroup		*cg;
	char				 err[512];

	if (job->jobs->conf->cgroup_sys == NULL)
		return;
	memset(&none, 0, sizeof none);
	if ((cg = node_cgroup_create(job->jobs->conf->cgroup_sys, job->id,
	    &none, err, sizeof err)) == NULL) {
		log_warn("job %llu: cannot empty its cgroup: %s",
		    (unsigned long long)job->id, err);
		return;
	}
	if (node_cgroup_destroy(cg, err, sizeof err) == -1)
		log_warn("job %llu: cannot remove its cgroup: %s",
		    (unsigned long long)job->id, err);
	node_cgroup_free(cg);
}

/* The shepherd is gone: collect the end it recorded. */
void
node_jobs_reap(struct node_job *job)
{
	const char	*state_dir = job->jobs->conf->state_dir;
	json_t		*report, *run, *t;
	json_int_t	 pid, ticks;
	size_t		 i;
	char		 err[512], msg[512];

	if (job->sock != -1)
		node_job_read_sock(job);
	node_shepherd_reap_forked();
	report = node_record_read(state_dir, job->id, NODE_RECORD_END, err,
	    sizeof err);
	if (report != NULL &&
	    json_is_string(json_object_get(report, "state"))) {
		node_job_finish(job, report);
		return;
	}
	json_decref(report);
	/* Killed (kill -9?) before it could record anything: what it left
	 * of the job must not run on, unaccounted, on GPUs we give away. */
	run = node_record_read(state_dir, job->id, NODE_RECORD_RUN, err,
	    sizeof err);
	if (json_is_true(json_object_get(run, "preempted")))
		job->preempted = true;
	pid = json_integer_value(json_object_get(run, "pid"));
	ticks = json_integer_value(json_object_get(run, "pid_start"));
	if (pid > 0 && node_proc_matches((pid_t)pid, (uint64_t)ticks))
		kill(-(pid_t)pid, SIGKILL);
	/* The node's other tasks (--ntasks-per-node). */
	json_array_foreach(json_object_get(run, "tasks"), i, t) {
		pid = json_integer_value(json_array_get(t, 0));
		ticks = json_integer_value(json_array_get(t, 1));
		if (pid > 0 && node_proc_matches((pid_t)pid, (uint64_t)ticks))
			kill(-(pid_t)pid, SIGKILL);
	}
	json_decref(run);
	node_job_uncage(job);
	snprintf(msg, sizeof msg, "shepherd %ld ended without recording the "
	    "job's end", (long)job->shep_pid);
	log_warn("job %llu: %s", (unsigned long long)job->id, msg);
	node_job_fail(job, msg);
}

static void
node_job_sock_cb(evutil_socket_t fd, short what, void *arg)
{
	struct node_job	*job = arg;

	if (node_job_read_sock(job) == 0)
		return;
	event_free(job->sock_ev);
	job->sock_ev = NULL;
	close(job->sock);
	job->sock = -1;
	/* Without a pidfd, the end of the socket is the end of the shepherd
	 * (neither the job nor anyone else holds its end). */
	if (job->pidfd == -1)
		node_jobs_reap(job);
}

static void
node_job_pid_cb(evutil_socket_t fd, short what, void *arg)
{
	node_jobs_reap(arg);
}

static void
node_jobs_sigchld_cb(evutil_socket_t fd, short what, void *arg)
{
	node_shepherd_reap_forked();
}

static void
node_job_check_cb(evutil_socket_t fd, short what, void *arg)
{
	struct node_jobs	*jobs = arg;
	struct node_job		*job, *next;

	TAILQ_FOREACH_SAFE(job, &jobs->list, entry, next) {
		if (job->state == NODE_JOB_ENDED || job->pidfd != -1 ||
		    job->sock != -1)
			continue;
		if (!node_proc_matches(job->shep_pid, job->shep_ticks))
			node_jobs_reap(job);
	}
}

/* Watches the shepherd: a pidfd when the kernel has them, else the socket
 * (new shepherds) or the periodic check (re-attached ones). */
void
node_jobs_watch(struct node_job *job)
{
	struct node_jobs	*jobs = job->jobs;
	struct timeval		 tv = { NODE_JOB_CHECK_S, 0 };

	if (job->pidfd != -1) {
		job->pid_ev = event_new(jobs->base, job->pidfd, EV_READ,
		    node_job_pid_cb, job);
		event_add(job->pid_ev, NULL);
	}
	if (job->sock != -1) {
		job->sock_ev = event_new(jobs->base, job->sock,
		    EV_READ | EV_PERSIST, node_job_sock_cb, job);
		event_add(job->sock_ev, NULL);
	}
	if (job->pidfd == -1 && job->sock == -1 &&
	    !evtimer_pending(jobs->check, NULL))
		event_add(jobs->check, &tv);
}

/* The GPUs a running job holds. A frozen job's are not busy: the
 * controller starts a job on them when the frozen one waits its turn
 * (time-slicing), and never otherwise (its scheduler holds them). */
static uint64_t
node_jobs_busy(struct node_jobs *jobs)
{
	struct node_job	*job;
	uint64_t	 mask = 0;

	TAILQ_FOREACH(job, &jobs->list, entry)
		if (!job->suspended)
			mask |= job->gpu_mask;
	return (mask);
}

/* Whether a launch of shards fits on its one GPU beside the jobs there:
 * each holds shards of it too, and node.gpu_shards covers them all. */
static bool
node_jobs_share_fits(struct node_jobs *jobs, const struct node_launch *l)
{
	struct node_job	*job;
	unsigned	 used = l->gpu_share;

	if (l->gpu_share == 0 || l->ngpus != 1)
		return (false);
	TAILQ_FOREACH(job, &jobs->list, entry) {
		if (job->suspended || (job->gpu_mask & (1ULL << l->gpus[0])) ==
		    0)
			continue;
		if (job->gpu_share == 0)
			return (false);
		used += job->gpu_share;
	}
	return (used <= jobs->conf->gpu_shards);
}

static int
node_jobs_check(struct node_jobs *jobs, const struct node_launch *l,
    char *err, size_t errlen)
{
	struct node_job	*job;
	uint64_t	 busy = node_jobs_busy(jobs), mine = 0;
	size_t		 i;

	for (i = 0; i < l->ngpus; i++) {
		if (l->gpus[i] >= jobs->ngpus) {
			snprintf(err, errlen, "GPU %u does not exist on node "
			    "%s (it has %zu)", l->gpus[i], jobs->conf->name,
			    jobs->ngpus);
			return (-1);
		}
		if (mine & (1ULL << l->gpus[i])) {
			snprintf(err, errlen, "GPU %u is listed twice",
			    l->gpus[i]);
			return (-1);
		}
		mine |= 1ULL << l->gpus[i];
		if ((busy & (1ULL << l->gpus[i])) == 0 ||
		    node_jobs_share_fits(jobs, l))
			continue;
		TAILQ_FOREACH(job, &jobs->list, entry) {
			if (!job->suspended &&
			    job->gpu_mask & (1ULL << l->gpus[i]))
				break;
		}
		snprintf(err, errlen, "GPU %u on node %s is busy with job "
		    "%llu%s", l->gpus[i], jobs->conf->name, job != NULL ?
		    (unsigned long long)job->id : 0ULL, l->gpu_share == 0 ?
		    "" : job != NULL && job->gpu_share == 0 ? ", which holds "
		    "it whole" : " and has too few of its shards left");
		return (-1);
	}
	return (node_launch_check_user(jobs->conf, l, "job", err, errlen));
}

static json_t *
node_jobs_run_record(const struct node_job *job, const struct node_launch *l)
{
	json_t	*rec;

	rec = json_pack("{s:I,s:s,s:O,s:i,s:I,s:I,s:i,s:I,s:i,s:i}",
	    "id", (json_int_t)job->id, "state", "RUNNING", "gpus", job->gpus,
	    "pid", 0, "pid_start", (json_int_t)0, "start_time", (json_int_t)0,
	    "shepherd_pid", (int)job->shep_pid,
	    "shepherd_start", (json_int_t)job->shep_ticks,
	    "restarts", (int)job->restarts, "num_nodes", (int)job->num_nodes);
	node_record_run_launch(rec, l);
	return (rec);
}


/* The CPUs the jobs other than id are pinned to; with frozen false,
 * those of the jobs not frozen alone. */
static void
node_jobs_cpus_used(struct node_jobs *jobs, uint64_t id, bool frozen,
    cpu_set_t *used)
{
	struct node_job	*o;
	cpu_set_t	 got;

	CPU_ZERO(used);
	TAILQ_FOREACH(o, &jobs->list, entry) {
		if (o->id != id && o->state != NODE_JOB_ENDED &&
		    (frozen || !o->suspended) && o->cpuset != NULL &&
		    node_cpus_parse(o->cpuset, &got) == 0)
			CPU_OR(used, used, &got);
	}
}

/* The CPUs job id is pinned to: n free ones, near its GPUs where the
 * node knows which are (node-cpus.c), else among them those of frozen
 * jobs (a job frozen for its turn uses none: time-slicing shares them);
 * NULL when it is not pinned. */
static char *
node_jobs_cpus_pick(struct node_jobs *jobs, uint64_t id,
    const struct node_launch *l, unsigned n)
{
	cpu_set_t	 avail, used, got, *near;
	char		 buf[4096];
	size_t		 i;
	unsigned	 have;
	bool		 frozen = true;

	if (!jobs->pin || n == 0)
		return (NULL);
again:
	node_jobs_cpus_used(jobs, id, frozen, &used);
	CPU_XOR(&avail, &jobs->host, &used);
	CPU_AND(&avail, &avail, &jobs->host);
	near = xcalloc(l->ngpus == 0 ? 1 : l->ngpus, sizeof *near);
	for (i = 0; i < l->ngpus; i++) {
		if (l->gpus[i] < jobs->nnear)
			near[i] = jobs->near[l->gpus[i]];
	}
	have = node_cpus_pick(&avail, near, l->ngpus, n, &got);
	free(near);
	if (have < n && frozen) {
		frozen = false;
		goto again;
	}
	if (have < n) {
		log_warn("job %llu: %u CPUs asked, %u free to pin it to; it "
		    "runs unpinned", (unsigned long long)id, n, have);
		return (NULL);
	}
	if (node_cpus_format(&got, buf, sizeof buf) == -1) {
		log_warn("job %llu: its CPUs make too long a list; it runs "
		    "unpinned", (unsigned long long)id);
		return (NULL);
	}
	return (xstrdup(buf));
}

int
node_jobs_launch(struct node_jobs *jobs, const json_t *msg, char *err,
    size_t errlen)
{
	struct node_launch	*l;
	struct node_job		*job;
	json_t			*gpus, *rec;
	char			 why[1024];
	size_t			 i;
	uint64_t		 id;
	pid_t			 pid;
	int			 sock = -1;

	if (node_launch_id(msg, &id) == -1) {
		snprintf(err, errlen, "JOB_LAUNCH without a job id");
		return (-1);
	}
	if ((job = node_job_find(jobs, id)) != NULL) {
		if (job->state != NODE_JOB_ENDED) {
			log_warn("job %llu: launched again while it runs; "
			    "ignored", (unsigned long long)id);
			return (0);
		}
		/* Relaunched (requeued) before the old end was acked. */
		node_record_remove(jobs->conf->state_dir, id);
		node_jobs_free_job(job);
	}
	job = node_jobs_new_job(jobs, id);
	if ((l = node_launch_parse(msg, why, sizeof why)) == NULL) {
		/* "audit:" as gbatchd's audit lines: refused launches are
		 * what an admin looks for after a rogue controller. */
		log_warn("audit: refused launch of job %llu from the "
		    "controller: bad JOB_LAUNCH: %s", (unsigned long long)id,
		    why);
		node_job_fail(job, why);
		return (0);
	}
	if (node_jobs_check(jobs, l, why, sizeof why) == -1) {
		log_warn("audit: refused launch of job %llu as %s (uid %lu) "
		    "from the controller: %s", (unsigned long long)id, l->user,
		    (unsigned long)l->uid, why);
		node_job_fail(job, why);
		goto out;
	}
	gpus = json_array();
	for (i = 0; i < l->ngpus; i++)
		json_array_append_new(gpus, json_integer(l->gpus[i]));
	node_jobs_set_gpus(job, gpus);
	json_decref(gpus);
	job->restarts = l->restarts;
	job->num_nodes = l->num_nodes;
	job->gpu_share = l->gpu_share;
	job->uid = (long long)l->uid;
	/* Shards of an NVML GPU: under its MPS daemon, where one runs. */
	if (l->gpu_share > 0 && l->ngpus == 1 && node_mps_join(jobs->mps,
	    l->gpus[0], l->uid, id)) {
		job->mps = true;
		node_mps_env(jobs->mps, l->gpus[0], l->gpu_share, l);
	}
	/* Its own CPUs, as the scheduler counted them. */
	if ((l->cpuset = node_jobs_cpus_pick(jobs, id, l, l->cpus)) != NULL)
		job->cpuset = xstrdup(l->cpuset);

	/* An interactive job's streams, made here so that they outlive
	 * nothing but gnoded: the shepherd passes them on. */
	if (l->io && (jobs->ios == NULL || node_io_open(jobs->ios, id, 0, l,
	    why, sizeof why) == -1)) {
		if (jobs->ios == NULL)
			snprintf(why, sizeof why, "node %s relays no "
			    "interactive jobs", jobs->conf->name);
		node_job_fail(job, why);
		goto out;
	}
	job->interactive = l->io;
	/* Its progress file: a job runs without one where it cannot be
	 * made (it then reports nothing, and is taken as linear). */
	if ((job->progress = node_progress_open(jobs->conf->state_dir, id,
	    l->uid, l->gid, geteuid() == 0, why, sizeof why)) == NULL)
		log_warn("job %llu: %s; it runs without GBATCH_PROGRESS",
		    (unsigned long long)id, why);
	else
		l->progress = node_progress_path(job->progress);
	pid = node_shepherd_start(jobs->conf, l, &sock, why, sizeof why);
	if (l->io) {
		node_io_started(jobs->ios, id, 0, l);
		if (pid == -1)
			node_io_close(jobs->ios, id, 0);
	}
	if (pid == -1) {
		log_error("job %llu: cannot start its shepherd: %s",
		    (unsigned long long)id, why);
		node_job_fail(job, why);
		goto out;
	}
	/* The shepherd waits for our go, so it is alive: the pidfd and the
	 * start time are its own, not a reused pid's. */
	job->shep_pid = pid;
	job->shep_ticks = node_proc_start_ticks(pid);
	job->pidfd = node_proc_pidfd_open(pid);
	job->sock = sock;
	job->state = NODE_JOB_STARTING;
	rec = node_jobs_run_record(job, l);
	if (node_record_write(jobs->conf->state_dir, id, NODE_RECORD_RUN, rec,
	    why, sizeof why) == -1) {
		json_decref(rec);
		log_error("job %llu: %s", (unsigned long long)id, why);
		/* Closing the socket without a go makes the shepherd exit. */
		node_job_fail(job, why);
		goto out;
	}
	json_decref(rec);
	if (write(sock, "g", 1) != 1) {
		snprintf(why, sizeof why, "cannot start the shepherd: %s",
		    strerror(errno));
		node_job_fail(job, why);
		goto out;
	}
	node_jobs_watch(job);
	log_debug("job %llu: shepherd %ld", (unsigned long long)id,
	    (long)pid);
out:
	node_launch_free(l);
	return (0);
}

/* Job id, running here and its shepherd alive, for a request of what
 * ("cancel", ...); NULL, logged, otherwise (the controller's request may
 * cross the job's end). */
static struct node_job *
node_jobs_live(struct node_jobs *jobs, uint64_t id, const char *what)
{
	struct node_job	*job;

	if ((job = node_job_find(jobs, id)) == NULL ||
	    job->state == NODE_JOB_ENDED) {
		log_info("job %llu: %s for a job not running here; ignored",
		    (unsigned long long)id, what);
		return (NULL);
	}
	if (job->pidfd == -1 &&
	    !node_proc_matches(job->shep_pid, job->shep_ticks)) {
		node_jobs_reap(job);
		return (NULL);
	}
	return (job);
}

/* Logs a failed signal to job's shepherd. */
static void
node_jobs_sent(const struct node_job *job, int rc)
{
	if (rc == -1)
		log_warn("job %llu: cannot signal shepherd %ld: %s",
		    (unsigned long long)job->id, (long)job->shep_pid,
		    strerror(errno));
}

/* A suspended job is thawed before it is stopped, so that it sees its
 * SIGTERM or checkpoint signal and has its grace; so is any with a
 * cgroup, as a gnoded restarted since does not know which are. */
static void
node_jobs_thaw(struct node_job *job)
{
	char	err[256];

	if (job->jobs->conf->cgroup_sys != NULL &&
	    node_freeze_job(job->jobs->conf->cgroup_sys, job->id, false, err,
	    sizeof err) == -1 && job->suspended)
		log_warn("job %llu: cannot thaw: %s",
		    (unsigned long long)job->id, err);
	job->suspended = false;
}

void
node_jobs_signal(struct node_jobs *jobs, uint64_t id, int sig, bool cancel)
{
	struct node_job	*job;

	if ((job = node_jobs_live(jobs, id, cancel ? "cancel" :
	    "signal")) == NULL)
		return;
	if (cancel) {
		log_info("job %llu: cancelling", (unsigned long long)id);
		node_jobs_thaw(job);
		node_jobs_sent(job, node_proc_signal(job->pidfd,
		    job->shep_pid, SIGTERM));
	} else {
		log_info("job %llu: sending signal %d", (unsigned long long)id,
		    sig);
		node_jobs_sent(job, node_proc_queue(job->pidfd,
		    job->shep_pid, NODE_SHEPHERD_SIGFWD, sig));
	}
}

void
node_jobs_preempt(struct node_jobs *jobs, uint64_t id)
{
	struct node_job	*job;

	if ((job = node_jobs_live(jobs, id, "preempt")) == NULL)
		return;
	if (job->preempted) {
		log_debug("job %llu: already being preempted; ignored",
		    (unsigned long long)id);
		return;
	}
	/* The shepherd carries the sequence out and records it; the flag
	 * here only keeps a repeated request from being passed on. */
	job->preempted = true;
	log_info("job %llu: preempting", (unsigned long long)id);
	node_jobs_thaw(job);
	node_jobs_sent(job, node_proc_signal(job->pidfd, job->shep_pid,
	    NODE_SHEPHERD_SIGPREEMPT));
}

void
node_jobs_limit(struct node_jobs *jobs, uint64_t id, uint64_t secs)
{
	struct node_job	*job;

	if ((job = node_jobs_live(jobs, id, "a time limit")) == NULL)
		return;
	log_info("job %llu: time limit set to %llu s",
	    (unsigned long long)id, (unsigned long long)secs);
	node_jobs_sent(job, node_proc_queue(job->pidfd, job->shep_pid,
	    NODE_SHEPHERD_SIGLIMIT, (int)secs));
}

int
node_jobs_suspend(struct node_jobs *jobs, uint64_t id, bool suspend,
    uint64_t secs, char *err, size_t errlen)
{
	struct node_job	*job;

	if ((job = node_jobs_live(jobs, id, suspend ? "suspend" :
	    "resume")) == NULL)
		return (0);
	/* No time limit runs while it is frozen: none until it is thawed,
	 * then secs, its limit put off by the time it was suspended. */
	if (suspend)
		node_jobs_sent(job, node_proc_queue(job->pidfd,
		    job->shep_pid, NODE_SHEPHERD_SIGLIMIT, 0));
	if (node_freeze_job(jobs->conf->cgroup_sys, id, suspend, err,
	    errlen) == -1) {
		if (suspend)
			node_jobs_sent(job, node_proc_queue(job->pidfd,
			    job->shep_pid, NODE_SHEPHERD_SIGLIMIT, (int)secs));
		return (-1);
	}
	job->suspended = suspend;
	if (!suspend)
		node_jobs_sent(job, node_proc_queue(job->pidfd,
		    job->shep_pid, NODE_SHEPHERD_SIGLIMIT, (int)secs));
	log_info("job %llu: %s", (unsigned long long)id, suspend ?
	    "suspended (frozen)" : "resumed (thawed)");
	return (0);
}

void
node_jobs_ack(struct node_jobs *jobs, uint64_t id)
{
	struct node_job	*job;

	if ((job = node_job_find(jobs, id)) == NULL ||
	    job->state != NODE_JOB_ENDED) {
		log_debug("job %llu: end acknowledged, but it has none",
		    (unsigned long long)id);
		return;
	}
	node_record_remove(jobs->conf->state_dir, id);
	node_jobs_free_job(job);
}

json_t *
node_jobs_report(struct node_jobs *jobs)
{
	struct node_job	*job;
	json_t		*a;

	a = json_array();
	TAILQ_FOREACH(job, &jobs->list, entry) {
		if (job->state == NODE_JOB_ENDED) {
			json_array_append(a, job->end);
			continue;
		}
		json_array_append_new(a, json_pack("{s:I,s:s,s:O,s:i,s:I,s:i,"
		    "s:i}", "id", (json_int_t)job->id, "state", "RUNNING",
		    "gpus", job->gpus, "pid", (int)job->pid,
		    "start_time", (json_int_t)job->start_time,
		    "restarts", (int)job->restarts,
		    "num_nodes", (int)job->num_nodes));
	}
	return (a);
}

json_t *
node_jobs_running(struct node_jobs *jobs)
{
	struct node_job	*job;
	json_t		*a;

	a = json_array();
	TAILQ_FOREACH(job, &jobs->list, entry) {
		if (job->state != NODE_JOB_ENDED)
			json_array_append_new(a, json_integer(
			    (json_int_t)job->id));
	}
	return (a);
}

struct node_progress *
node_jobs_progress(struct node_jobs *jobs, uint64_t id)
{
	struct node_job	*job = node_job_find(jobs, id);

	return (job != NULL && job->state == NODE_JOB_RUNNING ?
	    job->progress : NULL);
}

struct node_jobs *
node_jobs_create(struct event_base *base, const struct node_conf *conf,
    size_t ngpus, const struct node_jobs_cb *cb, void *arg)
{
	struct node_jobs	*jobs;

	jobs = xcalloc(1, sizeof *jobs);
	jobs->base = base;
	jobs->conf = conf;
	jobs->ngpus = ngpus;
	jobs->cb = cb;
	jobs->arg = arg;
	TAILQ_INIT(&jobs->list);
	jobs->check = event_new(base, -1, EV_PERSIST, node_job_check_cb, jobs);
	jobs->sigchld = evsignal_new(base, SIGCHLD, node_jobs_sigchld_cb,
	    jobs);
	event_add(jobs->sigchld, NULL);
	/* Pinned only where the CPUs offered are real ones of this host:
	 * a simulated node offering more than it has shares them. */
	CPU_ZERO(&jobs->host);
	jobs->pin = conf->cgroup_sys != NULL &&
	    sched_getaffinity(0, sizeof jobs->host, &jobs->host) == 0 &&
	    node_conf_cpus(conf) <= (unsigned)CPU_COUNT(&jobs->host);
	if (conf->cgroup_sys != NULL)
		log_info("node %s: jobs %s", conf->name, jobs->pin ?
		    "pinned to CPUs of their own (cpuset)" : "not pinned to "
		    "CPUs: node.cpus is above the CPUs gnoded may use");
	return (jobs);
}

void
node_jobs_set_near(struct node_jobs *jobs, size_t gpu, const cpu_set_t *set)
{
	size_t	i;

	if (gpu >= jobs->nnear) {
		jobs->near = xreallocarray(jobs->near, gpu + 1,
		    sizeof *jobs->near);
		for (i = jobs->nnear; i <= gpu; i++)
			CPU_ZERO(&jobs->near[i]);
		jobs->nnear = gpu + 1;
	}
	jobs->near[gpu] = *set;
}

void
node_jobs_set_ios(struct node_jobs *jobs, struct node_ios *ios)
{
	jobs->ios = ios;
}

void
node_jobs_set_mps(struct node_jobs *jobs, struct node_mps *m)
{
	node_mps_free(jobs->mps);
	jobs->mps = m;
}

void
node_jobs_step_mps(struct node_jobs *jobs, uint64_t id, struct node_launch *l)
{
	struct node_job	*job = node_job_find(jobs, id);

	if (job != NULL && job->mps && job->state != NODE_JOB_ENDED)
		node_mps_env(jobs->mps, (unsigned)json_integer_value(
		    json_array_get(job->gpus, 0)), job->gpu_share, l);
}

bool
node_jobs_runs(struct node_jobs *jobs, uint64_t id)
{
	struct node_job	*job = node_job_find(jobs, id);

	return (job != NULL && (job->state == NODE_JOB_RUNNING ||
	    job->state == NODE_JOB_STARTING));
}

void
node_jobs_cancel_interactive(struct node_jobs *jobs, uint64_t id)
{
	struct node_job	*job = node_job_find(jobs, id);

	if (job == NULL || !job->interactive || job->state == NODE_JOB_ENDED)
		return;
	log_info("job %llu: its interactive session is gone; cancelling",
	    (unsigned long long)id);
	node_jobs_signal(jobs, id, SIGTERM, true);
}

void
node_jobs_free(struct node_jobs *jobs)
{
	struct node_job	*job;

	if (jobs == NULL)
		return;
	while ((job = TAILQ_FIRST(&jobs->list)) != NULL)
		node_jobs_free_job(job);
	event_free(jobs->check);
	event_free(jobs->sigchld);
	node_mps_free(jobs->mps);
	free(jobs->near);
	free(jobs);
}
