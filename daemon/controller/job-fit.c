/* job-fit.c: whether the cluster could ever hold a job (job-fit.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/job-req.h"
#include "common/xmalloc.h"
#include "daemon/controller/job-fit.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "policy/sched.h"

/* A request's GPUs on one node (common/job-req.h) are what the scheduler
 * places on one; policy/ includes nothing of common/. */
_Static_assert(JOB_REQ_MAX_GPUS_PER_NODE == SCHED_MAX_GPUS_PER_NODE,
    "common/job-req.h and policy/sched.h disagree on a node's most GPUs");

char *
job_fit_res(const struct store_job *row)
{
	struct node	*n;
	uint64_t	 mem = 0, cpus = 0;
	uint32_t	 tasks = job_tasks_fixed(row->tasks_per_node);
	uint32_t	 cpt = row->cpus_per_task;

	if (tasks == 0)
		tasks = 1;	/* one per GPU: one GPU's task */
	/* A CPU job takes a CPU a task at least. */
	if (row->gpus == 0 && cpt == 0)
		cpt = 1;
	/* A job that asks for its share alone always fits: no walk of
	 * the nodes on the submit path. */
	if (row->mem == 0 && row->mem_per_gpu == 0 &&
	    (uint64_t)cpt * tasks <= 1 && row->cpus_per_gpu == 0)
		return (NULL);
	for (n = node_first(); n != NULL; n = node_next(n)) {
		if (node_memory_mb(n) > mem)
			mem = node_memory_mb(n);
		if (node_cpus(n) > cpus)
			cpus = node_cpus(n);
	}
	/* What one node must give whatever the shape: the memory of --mem,
	 * the CPUs of -c for its tasks, and for one GPU's worth of the
	 * per-GPU requests. */
	if (mem > 0 && (row->mem > mem || row->mem_per_gpu > mem))
		return (xasprintf("--mem%s %llu MB: no node has that much "
		    "memory (the most is %llu MB)", row->mem != 0 ? "" :
		    "-per-gpu", (unsigned long long)(row->mem != 0 ?
		    row->mem : row->mem_per_gpu), (unsigned long long)mem));
	if (cpus > 0 && ((uint64_t)cpt * tasks > cpus ||
	    row->cpus_per_gpu > cpus))
		return (xasprintf("%s %u: no node has that many CPUs (the "
		    "most is %llu)", row->cpus_per_gpu != 0 ? "--cpus-per-gpu" :
		    row->cpus_per_task != 0 ? "-c" : "-n", row->cpus_per_gpu != 0 ?
		    row->cpus_per_gpu : cpt * tasks, (unsigned long long)cpus));
	return (NULL);
}

char *
job_fit_shape(uint32_t gpus, uint32_t num_nodes, bool any_shape)
{
	uint32_t	 ge[SCHED_MAX_GPUS_PER_NODE + 2], g, k, per;
	struct node	*n;
	size_t		 nodes = 0;

	/* Any split, or a single GPU or node (a node of the cluster holds
	 * it, if there is one), needs no walk of the nodes on the submit
	 * path. */
	if (any_shape || (gpus <= 1 && num_nodes <= 1))
		return (NULL);
	memset(ge, 0, sizeof ge);
	for (n = node_first(); n != NULL; n = node_next(n)) {
		g = node_gpus_total(n);
		if (g > SCHED_MAX_GPUS_PER_NODE)
			g = SCHED_MAX_GPUS_PER_NODE;
		ge[g]++;
		nodes++;
	}
	if (nodes == 0)
		return (NULL);
	if (gpus == 0)
		return (num_nodes <= nodes ? NULL : xasprintf("-N %u: the "
		    "cluster has %zu node%s", num_nodes, nodes,
		    nodes == 1 ? "" : "s"));
	/* ge[g]: the nodes with g GPUs or more. */
	for (g = SCHED_MAX_GPUS_PER_NODE; g-- > 0;)
		ge[g] += ge[g + 1];
	if (num_nodes > 0) {
		per = gpus / num_nodes;
		if (per <= SCHED_MAX_GPUS_PER_NODE && ge[per] >= num_nodes)
			return (NULL);
		return (xasprintf("-N %u with %u GPU%s each: the cluster has "
		    "%u node%s with %u GPU%s or more", num_nodes, per,
		    per == 1 ? "" : "s", per <= SCHED_MAX_GPUS_PER_NODE ?
		    ge[per] : 0, per <= SCHED_MAX_GPUS_PER_NODE &&
		    ge[per] == 1 ? "" : "s", per, per == 1 ? "" : "s"));
	}
	for (k = 1; k <= gpus && k <= nodes; k++) {
		if (gpus % k != 0 || (per = gpus / k) > SCHED_MAX_GPUS_PER_NODE)
			continue;
		if (ge[per] >= k)
			return (NULL);
	}
	return (xasprintf("--gpus %u: no even split of them fits the "
	    "cluster's %zu node%s (k nodes of %u/k GPUs each); ask for a "
	    "number of GPUs that splits evenly, give -N and --gpus-per-node, "
	    "or --any-shape to take them however they come", gpus, nodes,
	    nodes == 1 ? "" : "s", gpus));
}
