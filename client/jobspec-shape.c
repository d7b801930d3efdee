/* jobspec-shape.c: a job's shape and tasks as gsub takes them (jobspec-shape.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/jobspec-shape.h"

/* Far beyond any node today (jobspec.c has the same bound). */
#define JOBSPEC_SHAPE_MAX_GPUS	65536

int
jobspec_shape_count(const char *opt, const char *arg, long max, long *out,
    char *err, size_t errlen)
{
	const char	*p;
	long		 n = 0;

	for (p = arg; isdigit((unsigned char)*p) && n <= max; p++)
		n = n * 10 + (*p - '0');
	if (*arg == '\0' || *p != '\0' || n < 1 || n > max) {
		snprintf(err, errlen, "--%s: expected a whole number from 1 "
		    "to %ld, got \"%s\"", opt, max, arg);
		return (-1);
	}
	*out = n;
	return (0);
}

int
jobspec_shape_mem(const char *opt, const char *arg, uint64_t *mb, char *err,
    size_t errlen)
{
	unsigned long long	 n;
	char			*end;
	uint64_t		 kb;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || errno != 0 || n == 0 ||
	    n > (1ULL << 40))
		goto bad;
	switch (*end == '\0' ? 'M' : toupper((unsigned char)*end)) {
	case 'K':
		kb = n;
		break;
	case 'M':
		kb = n * 1024;
		break;
	case 'G':
		kb = n * 1024 * 1024;
		break;
	case 'T':
		kb = n * 1024 * 1024 * 1024;
		break;
	default:
		goto bad;
	}
	if (*end != '\0' && end[1] != '\0' && !(toupper((unsigned char)
	    end[1]) == 'B' && end[2] == '\0'))
		goto bad;
	if ((*mb = (kb + 1023) / 1024) > (1ULL << 40))
		goto bad;
	return (0);
bad:
	snprintf(err, errlen, "--%s: expected a size: a whole number with K, "
	    "M (the default), G or T after it (16G, 512M), got \"%s\"", opt,
	    arg);
	return (-1);
}

int
jobspec_shape_nodes(const char *arg, long *out, char *err, size_t errlen)
{
	const char	*dash = strchr(arg, '-');
	char		 first[32];
	long		 a, b;

	if (dash == NULL)
		return (jobspec_shape_count("nodes", arg, JOBSPEC_SHAPE_MAX_NODES, out,
		    err, errlen));
	snprintf(first, sizeof first, "%.*s", (int)(dash - arg), arg);
	if (jobspec_shape_count("nodes", first, JOBSPEC_SHAPE_MAX_NODES, &a, err,
	    errlen) == -1 || jobspec_shape_count("nodes", dash + 1,
	    JOBSPEC_SHAPE_MAX_NODES, &b, err, errlen) == -1)
		return (-1);
	if (a != b) {
		snprintf(err, errlen, "--nodes %s: gbatch gives a job an exact "
		    "number of nodes; give one number (-N %ld), or --any-shape "
		    "with -G for GPUs on whatever nodes have them", arg, b);
		return (-1);
	}
	*out = a;
	return (0);
}

int
jobspec_shape_tasks(const char *arg, long *out, char *err, size_t errlen)
{
	if (strcmp(arg, "gpu") == 0) {
		*out = JOBSPEC_SHAPE_PER_GPU;
		return (0);
	}
	if (jobspec_shape_count("ntasks-per-node", arg, JOBSPEC_SHAPE_MAX_TASKS, out,
	    NULL, 0) == 0)
		return (0);
	snprintf(err, errlen, "--ntasks-per-node: expected a whole number "
	    "from 1 to %d, or gpu (one process per GPU), got \"%s\"",
	    JOBSPEC_SHAPE_MAX_TASKS, arg);
	return (-1);
}

int
jobspec_shape_bind(const char *arg, bool *none, char *err, size_t errlen)
{
	/* Slurm's verbose and quiet prefixes say nothing here. */
	if (strncmp(arg, "verbose,", 8) == 0)
		arg += 8;
	if (strcmp(arg, "none") == 0) {
		*none = true;
		return (0);
	}
	if (strcmp(arg, "single:1") == 0 || strcmp(arg, "task") == 0) {
		*none = false;
		return (0);
	}
	snprintf(err, errlen, "--gpu-bind: expected none (each task sees all "
	    "its node's GPUs) or single:1 (each its own, the default with "
	    "--ntasks-per-node gpu), got \"%s\"", arg);
	return (-1);
}

/* The tasks per node that -n gives, once the nodes and GPUs are known. */
static int
jobspec_shape_ntasks(const struct jobspec_shape *s, struct jobspec_shape_out *o, char *err,
    size_t errlen)
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
	if (n == o->gpus) {
		o->tasks_per_node = JOBSPEC_SHAPE_PER_GPU;
		return (0);
	}
	if (o->num_nodes > 0 && n % (long)o->num_nodes == 0) {
		o->tasks_per_node = n / (long)o->num_nodes;
		return (0);
	}
	snprintf(err, errlen, "--ntasks %ld: gbatch starts the same tasks on "
	    "each node; give one per GPU (-n %ld), or -N with a multiple of "
	    "it, or --ntasks-per-node", n, o->gpus);
	return (-1);
}

int
jobspec_shape_resolve(const struct jobspec_shape *s, long gpus, bool given,
    struct jobspec_shape_out *o, char *err, size_t errlen)
{
	long	nodes = s->nodes, total;

	memset(o, 0, sizeof *o);
	o->tasks_per_node = s->tasks_per_node == 1 ? 0 : s->tasks_per_node;
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
	} else if (nodes > 0 && !given) {
		gpus = nodes;		/* a GPU on each */
	} else if (nodes > 0 && gpus % nodes != 0) {
		snprintf(err, errlen, "-N %ld -G %ld: %ld GPUs do not split "
		    "evenly over %ld nodes; give a multiple of %ld, or "
		    "--gpus-per-node", nodes, gpus, gpus, nodes, nodes);
		return (-1);
	}
	if (gpus > JOBSPEC_SHAPE_MAX_GPUS) {
		snprintf(err, errlen, "the shape asks for %ld GPUs; expected "
		    "at most %d", gpus, JOBSPEC_SHAPE_MAX_GPUS);
		return (-1);
	}
	if (s->any_shape && nodes > 0) {
		snprintf(err, errlen, "--any-shape and -N/--gpus-per-node "
		    "exclude each other: any split of the GPUs, or this shape; "
		    "give one");
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
