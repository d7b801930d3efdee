/* node-jobs.h: the jobs this node knows: starting, running (each under its
 * shepherd) and ended but not yet acknowledged by the controller. Events
 * come from the shepherds (socket and pidfd), never from polling, except
 * the once-a-second check of re-attached shepherds on kernels without
 * pidfd_open(). */
#ifndef GB_NODE_JOBS_H
#define GB_NODE_JOBS_H

#include <sys/types.h>

#include <sched.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <event2/event.h>
#include <jansson.h>

#include "daemon/node/node-conf.h"
#include "daemon/node/node-progress.h"

struct node_jobs;

struct node_jobs_cb {
	/* The job has exec'd under its shepherd. */
	void	(*started)(uint64_t id, pid_t pid, time_t start_time,
		    void *arg);
	/* The job ended, or could not start: report (borrowed) is the
	 * JOB_ENDED body without "type". Kept until node_jobs_ack(). */
	void	(*ended)(const json_t *report, void *arg);
};

/* ngpus: how many GPUs the node has (indices 0 to ngpus-1). */
struct node_jobs	*node_jobs_create(struct event_base *,
			     const struct node_conf *, size_t ngpus,
			     const struct node_jobs_cb *, void *arg);

/* Reads the state directory after a (re)start: re-attaches to live
 * shepherds and loads ends not yet acknowledged; a shepherd that died
 * without recording an end gives a FAILED end. Returns 0 or -1 with err
 * set. */
int			 node_jobs_recover(struct node_jobs *, char *err,
			     size_t errlen);

/* Carries out a JOB_LAUNCH. A launch that cannot be carried out (GPU busy
 * or out of range, root job not allowed, bad field) ends FAILED through the
 * ended callback. Returns -1 with err set only when msg names no job id at
 * all (nothing can be answered: a protocol error). */
int			 node_jobs_launch(struct node_jobs *, const json_t *msg,
			     char *err, size_t errlen);

/* JOB_SIGNAL: cancel (SIGTERM, kill_wait, SIGKILL; ends CANCELLED) or
 * deliver sig to the job's process group. Unknown or ended jobs are
 * ignored (logged). */
void			 node_jobs_signal(struct node_jobs *, uint64_t id,
			     int sig, bool cancel);

/* JOB_PREEMPT: asks the job's shepherd for the checkpoint signal, the
 * grace, then what a cancel does; the end is reported with "preempted".
 * Unknown or ended jobs, and jobs already being preempted, are ignored
 * (logged): the controller's request may cross the job's end. */
void			 node_jobs_preempt(struct node_jobs *, uint64_t id);
/* JOB_LIMIT: job id's time limit is now secs from its start (0: none),
 * told to its shepherd; for a job not running here, nothing. */
void			 node_jobs_limit(struct node_jobs *, uint64_t id,
			     uint64_t secs);

/* JOB_SUSPEND: freezes job id's cgroup (suspend) with no time limit
 * running meanwhile, or thaws it; its time limit is then secs from its
 * start (0: none), and stays so where a freeze fails. A job not running here: nothing, 0. Blocks up to
 * about a second while a freeze settles. Returns 0, or -1 with err set
 * when it cannot: jobs here are not in cgroups that can be frozen, or
 * the cgroup refused. A cancel or preemption thaws a suspended job
 * first, so that it gets its signal and grace. */
int			 node_jobs_suspend(struct node_jobs *, uint64_t id,
			     bool suspend, uint64_t secs, char *err,
			     size_t errlen);

/* JOB_ENDED_ACK: forgets the job and removes its records. */
void			 node_jobs_ack(struct node_jobs *, uint64_t id);

/* The "jobs" array of HELLO (a new reference). */
json_t			*node_jobs_report(struct node_jobs *);
/* The ids of starting and running jobs, for NODE_HEARTBEAT (new ref). */
json_t			*node_jobs_running(struct node_jobs *);
/* The progress file of running job id (node-progress.h); NULL: none. */
struct node_progress	*node_jobs_progress(struct node_jobs *, uint64_t id);

/* The CPUs near GPU gpu (its NUMA node's): a job on it is pinned to them
 * where it can be. */
void			 node_jobs_set_near(struct node_jobs *, size_t gpu,
			     const cpu_set_t *);
/* Where interactive jobs' streams are made (node-io.h); without it, such
 * a job fails to launch. */
struct node_ios;
void			 node_jobs_set_ios(struct node_jobs *,
			     struct node_ios *);
/* Runs shared GPUs' MPS daemons with m (node-mps.h; NULL: none), which
 * the table then owns. Before node_jobs_recover. */
struct node_mps;
void			 node_jobs_set_mps(struct node_jobs *,
			     struct node_mps *m);
/* A step of job id, l, runs under the job's GPU's MPS daemon where the
 * job does: fills l's MPS members. */
struct node_launch;
void			 node_jobs_step_mps(struct node_jobs *, uint64_t id,
			     struct node_launch *l);
/* Whether job id runs here now, or is starting: its shepherd has its
 * tasks going and has yet to say so (a batch script's first srun may
 * reach gnoded first). */
bool			 node_jobs_runs(struct node_jobs *, uint64_t id);
/* Cancels job id if it is interactive and still running: its session's
 * streams were lost (gnoded restarted, or its link went down). */
void			 node_jobs_cancel_interactive(struct node_jobs *,
			     uint64_t id);

/* Frees the table. Jobs keep running under their shepherds. */
void			 node_jobs_free(struct node_jobs *);

#endif
