/* jobspec-shape.h: a job's shape and tasks as gsub takes them: -N/--nodes,
 * --gpus-per-node, --any-shape, --ntasks-per-node, -n/--ntasks,
 * --gpus-per-task and --gpu-bind, each checked alone as it comes, then
 * resolved together with -G into what JOB_SUBMIT carries: the GPUs, the
 * nodes (num_nodes) and the processes per node (tasks_per_node). Pure. */
#ifndef GB_JOBSPEC_SHAPE_H
#define GB_JOBSPEC_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* gbatchd's bounds (job.h's JOB_MAX_PARTS, job-shape.h's). */
#define JOBSPEC_SHAPE_MAX_NODES	1024
#define JOBSPEC_SHAPE_MAX_TASKS	1024
#define JOBSPEC_SHAPE_MAX_CPUS	65536
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
};

/* What a resolved shape sends. */
struct jobspec_shape_out {
	long		 gpus;
	uint32_t	 num_nodes;	/* 0: free */
	long		 tasks_per_node;/* 0: one; JOBSPEC_SHAPE_PER_GPU */
};

/* -N's value: N, or sbatch's N-N (a range of one). Returns 0, or -1 with
 * err saying what is accepted. */
int	jobspec_shape_nodes(const char *arg, long *out, char *err, size_t errlen);
/* A count from 1 to max for option opt (its name, for err). */
int	jobspec_shape_count(const char *opt, const char *arg, long max, long *out,
	    char *err, size_t errlen);
/* A memory size as sbatch writes it: N with K, M (the default), G or T
 * after it; in MB (rounded up), 1 MB to 1 EB. opt names the option. */
int	jobspec_shape_mem(const char *opt, const char *arg, uint64_t *mb,
	    char *err, size_t errlen);
/* --ntasks-per-node's value: K, or "gpu" (JOBSPEC_SHAPE_PER_GPU). */
int	jobspec_shape_tasks(const char *arg, long *out, char *err, size_t errlen);
/* --gpu-bind's value: "none" (true), or "task"/"single:1" (false: each
 * task its own GPU, the default); Slurm's other forms are refused. */
int	jobspec_shape_bind(const char *arg, bool *none, char *err, size_t errlen);

/* Resolves the options of s with the GPUs of -G (gpus; given: whether -G
 * came at all, else it is the default 1) into out. Returns 0, or -1 with
 * err naming the options that disagree and what would do. */
int	jobspec_shape_resolve(const struct jobspec_shape *s, long gpus, bool given,
	    struct jobspec_shape_out *out, char *err, size_t errlen);

#endif
