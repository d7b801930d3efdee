/* launch.h: JOB_LAUNCH and JOB_SIGNAL to node daemons. */
#ifndef GB_CTL_LAUNCH_H
#define GB_CTL_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct job;
struct node;

/* What launching needs from the floors above it, registered once by the
 * composition root (gbatchd.c). */
struct launch_hooks {
	/* The "interactive" member of part rank's JOB_LAUNCH (a new
	 * reference; session_launch_spec), or NULL when that part relays
	 * nothing. */
	json_t	*(*interactive)(const struct job *, size_t rank);
};

/* Sets the hooks (copied). */
void	launch_init(const struct launch_hooks *);

/* Sends the RUNNING job to its node. The script, argv and environment come
 * from the store (they are not kept in memory). When that fails the job
 * ends FAILED (and is freed). */
void	launch_job(struct job *);
/* Sends STEP_LAUNCH: cmd's argv, env and workdir run as client p in the
 * job's allocation on part rank's node, with io (JOB_ATTACH's
 * "interactive", completed) as its streams. Returns 0, or -1 with err set
 * (the store failed). */
struct peer;
int	launch_step(struct job *, size_t rank, uint32_t step, struct peer *p,
	    const json_t *cmd, const json_t *io, char *err, size_t errlen);
/* Sends JOB_SIGNAL for a running job; returns -1 when its node is not
 * connected. */
int	launch_signal(struct job *, int signal, bool cancel);
/* Asks the PREEMPTING job's node to stop it; its end requeues it
 * (job-report.c). Returns -1 when its node is not connected. */
int	launch_preempt(struct job *);
/* Tells a running job's nodes its time limit (job_time_limit, from its
 * start; 0 none), which they enforce from then on. Returns -1 when none
 * of its nodes is connected. */
int	launch_limit(struct job *);
/* A running job's time limit from its start as its nodes enforce it (0:
 * none): its own, or its reservation's end (core_resv_limit), put off by
 * the time it was suspended in this run. */
uint64_t launch_run_limit(const struct job *);
/* Tells a suspended job's nodes to freeze it (suspend), or a resumed
 * one's to thaw it, with launch_run_limit as the transition left it (a
 * frozen job's shepherd keeps it only should the freeze fail). Returns -1
 * when none of its nodes is connected. launch_suspend_msg is the
 * message, for one node (the caller's reference). */
int	launch_suspend(struct job *, bool suspend);
json_t	*launch_suspend_msg(const struct job *, bool suspend);
/* Cancels job as gcancel does: a pending or held job ends CANCELLED now; a
 * running one is told to stop (it ends CANCELLED once its nodes say so),
 * or ends now when its node is away. detail: who or what cancelled it,
 * for the event log and gq -l. The job may be freed. Returns 0, or -1
 * when the store failed. */
int	launch_cancel(struct job *, const char *detail);

#endif
