/* launch.h: JOB_LAUNCH and JOB_SIGNAL to node daemons. */
#ifndef GB_CTL_LAUNCH_H
#define GB_CTL_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct job;
struct node;

/* The rendezvous port (MASTER_PORT) for job id starting with its first
 * part on master: from the id's place in controller.master_ports, the
 * first one on that no job running with the same first node holds, so two
 * gangs sharing a node never meet. */
uint32_t launch_pick_port(const struct node *master, uint64_t id);

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

#endif
