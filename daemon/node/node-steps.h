/* node-steps.h: commands run inside a running job's allocation (grun
 * --jobid, STEP_LAUNCH): its GPUs, CPUs and cgroup, the attaching user's
 * command and environment, on a terminal or pipes relayed like an
 * interactive job's (node-io.h). A step is gnoded's own child: it lives
 * no longer than gnoded, its session or its job, and its end goes back as
 * STEP_ENDED once its output is all sent. */
#ifndef GB_NODE_STEPS_H
#define GB_NODE_STEPS_H

#include <stdint.h>

#include <event2/event.h>
#include <jansson.h>

#include "daemon/node/node-conf.h"
#include "daemon/node/node-io.h"
#include "daemon/node/node-jobs.h"

struct node_steps;

struct node_steps	*node_steps_create(struct event_base *,
			     const struct node_conf *, struct node_jobs *,
			     struct node_ios *);
void			 node_steps_free(struct node_steps *);

/* STEP_LAUNCH. A step that cannot start ends at once, its STEP_ENDED
 * saying why. */
void	node_steps_launch(struct node_steps *, const json_t *msg);
/* IO_CONTROL for a step: a signal to its process group, a window size,
 * or a hangup (its client is gone): SIGHUP, and SIGKILL after kill_wait. */
void	node_steps_control(struct node_steps *, const json_t *msg);
/* Job id ended: its steps are killed. */
void	node_steps_job_ended(struct node_steps *, uint64_t id);
/* Step of job lost its streams (the link went down): killed. */
void	node_steps_lost(struct node_steps *, uint64_t job, uint32_t step);

#endif
