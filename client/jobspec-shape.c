/* jobspec-shape.c: gsub's shape options resolved together
 * (jobspec-shape.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/jobspec-shape.h"
#include "common/job-req.h"

/* The tasks per node that -n gives, once the nodes and GPUs are known. */
static int
jobspec_shape_ntasks(const struct jobspec_shape *s,
    struct jobspec_shape_out *o, char *err, size_t errlen)
{
	long	n = s->ntasks, per;

	if (s->tasks_per_node != 0) {
		/* Both: they must agree where they can be compared. */
		per = s->tasks_per_node == JOBSPEC_SHAPE_PER_GPU ? o->gpus :
		    s->tasks_per_node * (o->num_nodes > 0 ? o->num_nodes : 1);
		if ((o->num_nodes > 0 || s->tasks_per_node ==
		    JOBSPEC_SHAPE_PER_GPU) && n != per) {
			snprintf(err, errlen, "--ntasks %ld disagrees with "
			    "--ntasks-per-node and the job's shape (%ld "
			    "tasks); give one of them", n, per);
			return (-1);
		}
		return (0);
	}
	if (n == (o->num_nodes > 0 ? (long)o->num_nodes : 1))
		return (0);
	if (o->gpus == 0 && o->num_nodes == 0) {
		/* A CPU job: its tasks on its one node. */
		o->tasks_per_node = n;
		return (0);
	}
	if (n == o->gpus) {
		o->tasks_per_node = JOBSPEC_SHAPE_PER_GPU;
		return (0);
	}
	if (o->num_nodes > 0 && n % (long)o->num_nodes == 0) {
		o->tasks_per_node = n / (long)o->num_nodes;
		return (0);
	}
	if (o->gpus == 0)
		snprintf(err, errlen, "--ntasks %ld: gbatch starts the same "
		    "tasks on each node; give -N with a divisor of it, or "
		    "--ntasks-per-node", n);
	else
		snprintf(err, errlen, "--ntasks %ld: gbatch starts the same "
		    "tasks on each node; give one per GPU (-n %ld), or -N "
		    "with a multiple of it, or --ntasks-per-node", n, o->gpus);
	return (-1);
}

int
jobspec_shape_resolve(const struct jobspec_shape *s, long gpus, bool given,
    struct jobspec_shape_out *o, char *err, size_t errlen)
{
	long	nodes = s->nodes, total;

	memset(o, 0, sizeof *o);
	o->tasks_per_node = s->tasks_per_node == 1 ? 0 : s->tasks_per_node;
	if (!given && s->no_gpu_default)
		gpus = 0;
	if (s->gpus_per_task > 0) {
		/* sbatch's -n T --gpus-per-task G: T x G GPUs, each task its
		 * own when G is 1. */
		total = s->gpus_per_task * (s->ntasks > 0 ? s->ntasks : 1);
		if (given && gpus != total) {
			snprintf(err, errlen, "-G %ld disagrees with "
			    "--gpus-per-task (%ld GPUs in all); give one", gpus,
			    total);
			return (-1);
		}
		if (s->ntasks > 1 && s->gpus_per_task > 1) {
			snprintf(err, errlen, "--gpus-per-task %ld with --ntasks:"
			    " gbatch gives a task one GPU (--ntasks-per-node "
			    "gpu) or all its node's (--gpu-bind=none)",
			    s->gpus_per_task);
			return (-1);
		}
		gpus = total;
		given = true;
	}
	if (s->gpus_per_node > 0) {
		if (nodes == 0)
			nodes = given ? gpus / s->gpus_per_node : 1;
		total = nodes * s->gpus_per_node;
		if (given && gpus != total) {
			snprintf(err, errlen, "-G %ld disagrees with %s"
			    "--gpus-per-node %ld (%ld GPUs in all); give -N "
			    "and --gpus-per-node, or -G alone", gpus,
			    s->nodes > 0 ? "-N and " : "", s->gpus_per_node,
			    total);
			return (-1);
		}
		gpus = total;
	} else if (nodes > 0 && !given && !s->no_gpu_default) {
		gpus = nodes;		/* a GPU on each */
	} else if (nodes > 0 && gpus % nodes != 0) {
		snprintf(err, errlen, "-N %ld -G %ld: %ld GPUs do not split "
		    "evenly over %ld nodes; give a multiple of %ld, or "
		    "--gpus-per-node", nodes, gpus, gpus, nodes, nodes);
		return (-1);
	}
	if (gpus > JOB_REQ_MAX_GPUS) {
		snprintf(err, errlen, "the shape asks for %ld GPUs; expected "
		    "at most %d", gpus, JOB_REQ_MAX_GPUS);
		return (-1);
	}
	if (s->any_shape && nodes > 0) {
		snprintf(err, errlen, "--any-shape and -N/--gpus-per-node "
		    "exclude each other: any split of the GPUs, or this shape; "
		    "give one");
		return (-1);
	}
	if (gpus == 0 && s->tasks_per_node == JOBSPEC_SHAPE_PER_GPU) {
		snprintf(err, errlen, "--ntasks-per-node gpu with no GPU: a "
		    "CPU job's tasks are a number (--ntasks-per-node N)");
		return (-1);
	}
	if (gpus == 0 && (s->cpus_per_gpu != 0 || s->mem_per_gpu != 0)) {
		snprintf(err, errlen, "%s with no GPU: a CPU job asks for "
		    "CPUs with -c (per task) and memory with --mem (per node)",
		    s->cpus_per_gpu != 0 ? "--cpus-per-gpu" : "--mem-per-gpu");
		return (-1);
	}
	if (gpus == 0 && s->any_shape) {
		snprintf(err, errlen, "--any-shape with no GPU: a CPU job "
		    "takes one node, or -N's; leave --any-shape out");
		return (-1);
	}
	o->gpus = gpus;
	o->num_nodes = (uint32_t)nodes;
	if (s->ntasks > 0 && jobspec_shape_ntasks(s, o, err, errlen) == -1)
		return (-1);
	if (s->cpus_per_task != 0 && s->cpus_per_gpu != 0) {
		snprintf(err, errlen, "-c/--cpus-per-task and --cpus-per-gpu "
		    "exclude each other: CPUs for each task, or for each GPU; "
		    "give one");
		return (-1);
	}
	if (s->mem != 0 && s->mem_per_gpu != 0) {
		snprintf(err, errlen, "--mem and --mem-per-gpu exclude each "
		    "other: memory for each node, or for each GPU; give one");
		return (-1);
	}
	if (s->bind_none && o->tasks_per_node != JOBSPEC_SHAPE_PER_GPU) {
		snprintf(err, errlen, "--gpu-bind=none: every task sees all its "
		    "node's GPUs already unless there is one per GPU "
		    "(--ntasks-per-node gpu); leave it out");
		return (-1);
	}
	return (0);
}
