/* job-shape.c: a job's shape and tasks at submit (job-shape.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/job-shape.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "policy/sched.h"

/* An optional whole number member from 1 to max into *out (0: absent). */
static int
job_shape_count(const json_t *job, const char *key, json_int_t max,
    uint64_t *out, char *err, size_t errlen)
{
	const json_t	*v = json_object_get(job, key);

	*out = 0;
	if (v == NULL || json_is_null(v))
		return (0);
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > max) {
		snprintf(err, errlen, "%s: expected a whole number from 1 to "
		    "%" JSON_INTEGER_FORMAT, key, max);
		return (-1);
	}
	*out = (uint64_t)json_integer_value(v);
	return (0);
}

/* "cpus_per_gpu" or "cpus_per_task", and "mem" or "mem_per_gpu" (MB):
 * one of each pair at most, as sbatch has them. */
static int
job_shape_res(const json_t *job, struct store_job *row, char *err,
    size_t errlen)
{
	uint64_t	cpg, cpt, mem, mpg;

	if (job_shape_count(job, "cpus_per_gpu", JOB_SHAPE_MAX_CPUS, &cpg,
	    err, errlen) != 0 || job_shape_count(job, "cpus_per_task",
	    JOB_SHAPE_MAX_CPUS, &cpt, err, errlen) != 0 ||
	    job_shape_count(job, "mem", JOB_SHAPE_MAX_MEM, &mem, err,
	    errlen) != 0 || job_shape_count(job, "mem_per_gpu",
	    JOB_SHAPE_MAX_MEM, &mpg, err, errlen) != 0)
		return (-1);
	if (cpg != 0 && cpt != 0) {
		snprintf(err, errlen, "cpus_per_gpu and cpus_per_task exclude "
		    "each other; expected one of them");
		return (-1);
	}
	if (mem != 0 && mpg != 0) {
		snprintf(err, errlen, "mem and mem_per_gpu exclude each other; "
		    "expected one of them");
		return (-1);
	}
	row->cpus_per_gpu = (uint32_t)cpg;
	row->cpus_per_task = (uint32_t)cpt;
	row->mem = mem;
	row->mem_per_gpu = mpg;
	return (0);
}

int
job_shape_read(const json_t *job, uint32_t gpus, struct store_job *row,
    char *tasks, char *err, size_t errlen)
{
	const json_t	*v;
	json_int_t	 n;
	bool		 per_gpu = false;

	if ((v = json_object_get(job, "num_nodes")) != NULL &&
	    !json_is_null(v)) {
		if (!json_is_integer(v) || (n = json_integer_value(v)) < 1 ||
		    n > JOB_MAX_PARTS) {
			snprintf(err, errlen, "num_nodes: expected a whole "
			    "number from 1 to %d", JOB_MAX_PARTS);
			return (-1);
		}
		if (gpus % (uint32_t)n != 0) {
			snprintf(err, errlen, "num_nodes: %u GPUs do not "
			    "split evenly over %" JSON_INTEGER_FORMAT " nodes; "
			    "expected a number of nodes that divides the GPUs",
			    gpus, n);
			return (-1);
		}
		row->num_nodes = (uint32_t)n;
	}
	if ((v = json_object_get(job, "any_shape")) != NULL) {
		if (!json_is_boolean(v)) {
			snprintf(err, errlen, "any_shape: expected true or "
			    "false");
			return (-1);
		}
		if (json_is_true(v) && row->num_nodes > 0) {
			snprintf(err, errlen, "any_shape: a job with "
			    "num_nodes has its shape; expected one of them");
			return (-1);
		}
		if (json_is_true(v))
			row->flags |= JOB_F_ANY_SHAPE;
	}
	tasks[0] = '\0';
	if ((v = json_object_get(job, "tasks_per_node")) != NULL &&
	    !json_is_null(v)) {
		if (json_is_string(v) && strcmp(json_string_value(v),
		    "gpu") == 0) {
			per_gpu = true;
			strcpy(tasks, "gpu");
		} else if (json_is_integer(v) && (n = json_integer_value(v))
		    >= 1 && n <= JOB_SHAPE_MAX_TASKS) {
			/* One per node is what every job gets. */
			if (n > 1)
				snprintf(tasks, 16, "%" JSON_INTEGER_FORMAT, n);
		} else {
			snprintf(err, errlen, "tasks_per_node: expected a "
			    "whole number from 1 to %d, or \"gpu\" (one per "
			    "GPU)", JOB_SHAPE_MAX_TASKS);
			return (-1);
		}
	}
	row->tasks_per_node = tasks;
	if (job_shape_res(job, row, err, errlen) != 0)
		return (-1);
	if ((v = json_object_get(job, "gpu_bind")) != NULL &&
	    !json_is_null(v)) {
		if (!json_is_string(v) || (strcmp(json_string_value(v),
		    "none") != 0 && strcmp(json_string_value(v), "task") != 0)) {
			snprintf(err, errlen, "gpu_bind: expected \"none\" (each "
			    "task sees all its node's GPUs) or \"task\" (its "
			    "own)");
			return (-1);
		}
		if (strcmp(json_string_value(v), "none") == 0) {
			if (!per_gpu) {
				snprintf(err, errlen, "gpu_bind: \"none\" keeps "
				    "a task per GPU from having its own GPU; "
				    "expected it with tasks_per_node \"gpu\"");
				return (-1);
			}
			row->flags |= JOB_F_GPU_BIND_NONE;
		}
	}
	return (0);
}

char *
job_shape_res_unfit(const struct store_job *row)
{
	struct node	*n;
	uint64_t	 mem = 0, cpus = 0;
	uint32_t	 tasks = job_tasks_fixed(row->tasks_per_node);

	/* A job that asks for its share alone always fits: no walk of
	 * the nodes on the submit path. */
	if (row->mem == 0 && row->mem_per_gpu == 0 && row->cpus_per_task == 0 &&
	    row->cpus_per_gpu == 0)
		return (NULL);
	if (tasks == 0)
		tasks = 1;	/* one per GPU: one GPU's task */
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
	if (cpus > 0 && ((uint64_t)row->cpus_per_task * tasks > cpus ||
	    row->cpus_per_gpu > cpus))
		return (xasprintf("%s %u: no node has that many CPUs (the "
		    "most is %llu)", row->cpus_per_gpu != 0 ? "--cpus-per-gpu" :
		    "-c", row->cpus_per_gpu != 0 ? row->cpus_per_gpu :
		    row->cpus_per_task * tasks, (unsigned long long)cpus));
	return (NULL);
}

char *
job_shape_unfit(uint32_t gpus, uint32_t num_nodes, bool any_shape)
{
	uint32_t	 ge[SCHED_MAX_GPUS_PER_NODE + 2], g, k, per;
	struct node	*n;
	size_t		 nodes = 0;

	/* Any split, or a single GPU (a node of the cluster holds it, if
	 * there is one), needs no walk of the nodes on the submit path. */
	if (any_shape || (gpus == 1 && num_nodes <= 1))
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
