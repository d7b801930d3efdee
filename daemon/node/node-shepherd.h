/* node-shepherd.h: one shepherd process per job. gnoded forks it, in a
 * session of its own; it outlives gnoded (init, or a subreaper, then reaps
 * it). The shepherd starts the job, enforces its time limit, carries out
 * cancels, waits until the job's process group is gone and records the end
 * in the state directory. gnoded watches it through a pidfd (a shepherd of
 * a gnoded before a restart is not its child), and reaps the ones it
 * forked.
 *
 * Between gnoded and a shepherd it launched there is a socket pair: gnoded
 * writes one byte ("go") once it has recorded the shepherd; the shepherd
 * writes "started PID START_TIME\n" once the job has exec'd. Signals from
 * gnoded to the shepherd: SIGTERM cancels the job; NODE_SHEPHERD_SIGFWD with
 * a queued value delivers that signal to the job's process group;
 * NODE_SHEPHERD_SIGPREEMPT preempts the job: its checkpoint signal, its
 * grace, then SIGTERM, kill_wait and SIGKILL as for a cancel;
 * NODE_SHEPHERD_SIGLIMIT with a queued value sets the job's time limit to
 * that many seconds from its start (0: none; a limit already past ends it
 * at once, TIMEOUT). The sequence runs in the shepherd so that a gnoded
 * restart does not interrupt it. */
#ifndef GB_NODE_SHEPHERD_H
#define GB_NODE_SHEPHERD_H

#include <sys/types.h>

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/node/node-conf.h"
#include "daemon/node/node-launch.h"

#define NODE_SHEPHERD_SIGFWD	(SIGRTMIN + 1)
#define NODE_SHEPHERD_SIGPREEMPT	(SIGRTMIN + 2)
#define NODE_SHEPHERD_SIGLIMIT	(SIGRTMIN + 3)

/* Forks the shepherd of l (which makes a session of its own). Returns its
 * pid and sets *sock to gnoded's end of the socket pair (non-blocking,
 * close on exec), or -1 with err set. */
pid_t	node_shepherd_start(const struct node_conf *,
	    const struct node_launch *, int *sock, char *err, size_t errlen);
/* Reaps the shepherds node_shepherd_start forked that have ended: on
 * SIGCHLD, and when gnoded finds a job's shepherd gone. */
void	node_shepherd_reap_forked(void);

#endif
