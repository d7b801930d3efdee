/* node-proc.h: what gnoded needs to know about processes it did not fork:
 * start times from /proc (so a reused pid is never taken for a job), pidfds
 * and descriptor hygiene after fork. */
#ifndef GB_NODE_PROC_H
#define GB_NODE_PROC_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

/* Returns the start time of pid in clock ticks since boot (field 22 of
 * /proc/PID/stat), or 0 when there is no such process. */
uint64_t	node_proc_start_ticks(pid_t);

/* True when pid is alive (not a zombie) and started at ticks. */
bool		node_proc_matches(pid_t, uint64_t ticks);

/* pidfd_open(2), or -1 with errno (ENOSYS on kernels before 5.3). */
int		node_proc_pidfd_open(pid_t);

/* Queues signal sig with value val to the process behind pidfd (or pid when
 * pidfd is -1). The pidfd form cannot hit a reused pid. Returns 0 or -1. */
int		node_proc_queue(int pidfd, pid_t, int sig, int val);

/* Sends sig through pidfd (or to pid when pidfd is -1). Returns 0 or -1. */
int		node_proc_signal(int pidfd, pid_t, int sig);

/* Closes every descriptor from lowfd up. Used in freshly forked children. */
void		node_proc_close_from(int lowfd);
/* Marks every descriptor from lowfd up close-on-exec, so that an exec
 * closes them while the ones a child still needs until then stay open.
 * Returns 0, or -1 with errno set. */
int		node_proc_cloexec_from(int lowfd);

#endif
