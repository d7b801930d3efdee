/* job-shape.c: a job's shape and tasks at submit (job-shape.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/job-shape.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "policy/sched.h"

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
job_shape_unfit(uint32_t gpus, uint32_t num_nodes, bool any_shape)
{
	uint32_t	 ge[SCHED_MAX_GPUS_PER_NODE + 2], g, k, per;
	struct node	*n;
	size_t		 nodes = 0;

	if (any_shape)
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
