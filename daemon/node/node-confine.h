/* node-confine.h: what keeps a job to its share of the node: its cgroup
 * (node-cgroup.h) with its memory limit, a pids limit and the other jobs'
 * GPU device files denied. Set up once at gnoded's start; made per job by
 * the shepherd. */
#ifndef GB_NODE_CONFINE_H
#define GB_NODE_CONFINE_H

#include <stddef.h>

#include "daemon/node/node-cgroup.h"
#include "daemon/node/node-conf.h"
#include "daemon/node/node-gpu.h"
#include "daemon/node/node-launch.h"

/* At start, as root: finds the cgroup hierarchies (unless node.cgroups is
 * false) and each GPU's device number (node.gpu_device), into conf, and
 * logs what jobs will be held to, or why they run unconfined. Blocks
 * (file system). */
void	node_confine_setup(struct node_conf *, const struct node_gpus *);

/* In the shepherd: job l's cgroup, with its limits (l->mem_mb, the node's
 * job_pids_max, every GPU of the node's not in l->gpus denied). NULL with
 * err "" when jobs run unconfined here; NULL with err set when the cgroup
 * could not be made (the job must not start). */
struct node_cgroup *node_confine_job(const struct node_conf *,
	    const struct node_launch *l, char *err, size_t errlen);

#endif
