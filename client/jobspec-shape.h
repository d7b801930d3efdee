/* jobspec-shape.h: a job's shape and tasks as gsub takes them: -N/--nodes,
 * --gpus-per-node, --any-shape, --ntasks-per-node, -n/--ntasks,
 * --gpus-per-task and --gpu-bind, each checked alone as it comes
 * (jobspec-opt.c), resolved here together with -G into what JOB_SUBMIT
 * carries: the GPUs, the nodes (num_nodes) and the processes per node
 * (tasks_per_node). Pure. */
#ifndef GB_JOBSPEC_SHAPE_H
#define GB_JOBSPEC_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOBSPEC_SHAPE_PER_GPU	(-1)	/* tasks_per_node "gpu" */

struct jobspec_shape {
	long	 cpus_per_task;	/* -c; 0: not given */
	long	 cpus_per_gpu;
	uint64_t mem;		/* --mem, MB a node; 0: not given */
	uint64_t mem_per_gpu;	/* MB */
	long	 nodes;		/* -N; 0: not given */
	long	 gpus_per_node;	/* 0: not given */
	long	 gpus_per_task;	/* sbatch's; 0: not given */
	long	 ntasks;	/* -n; 0: not given */
	long	 tasks_per_node;/* 0: not given; JOBSPEC_SHAPE_PER_GPU */
	bool	 any_shape;
	bool	 bind_none;	/* --gpu-bind=none */
	/* sbatch's: a job that names no GPUs has none (a CPU job), where
	 * gsub's has one. */
	bool	 no_gpu_default;
};

/* What a resolved shape sends. */
struct jobspec_shape_out {
	long		 gpus;
	uint32_t	 num_nodes;	/* 0: free */
	long		 tasks_per_node;/* 0: one; JOBSPEC_SHAPE_PER_GPU */
};

/* Resolves the options of s with the GPUs of -G (gpus; given: whether -G
 * came at all, else it is the default: 1, or 0 with no_gpu_default) into
 * out. A job of no GPU (a CPU job) runs its tasks on one node, or on each
 * of -N's. Returns 0, or -1 with
 * err naming the options that disagree and what would do. */
int	jobspec_shape_resolve(const struct jobspec_shape *s, long gpus,
	    bool given, struct jobspec_shape_out *out, char *err,
	    size_t errlen);

#endif
