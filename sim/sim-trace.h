/* sim-trace.h: the jobs gsim replays, read from a CSV trace. Two shapes are
 * read, both with a header line and columns found by name: the Tiresias
 * format (job_id,num_gpu,submit_time,iterations,model_name,duration,
 * interval) and a plain one (submit_time, num_gpus or num_gpu, duration;
 * optional job_id, name or model_name, user, and array_id with
 * array_throttle: the tasks of one job array share an array_id, and at
 * most array_throttle of them run at once, as sbatch's --array=...%N;
 * num_nodes: the job runs on exactly that many nodes with num_gpus /
 * num_nodes GPUs each, as sbatch's -N with --gpus-per-node; num_cpu and
 * mem_gb: the CPUs and GB of memory it needs in all, beside its GPUs;
 * account, partition (a list, "gpu,long"), time_limit (seconds, 0 for
 * none) and qos, as gacct --trace writes them, which gsim --conf judges
 * by the partitions and QOS of a gbatch.conf; time_slice, 0 or 1: the
 * job opts in to time-slicing; gpu_share N: it takes N shards of one
 * GPU, as gsub --gpu-share). Pollux's workloads
 * (name,time,application,num_replicas,batch_size) read as such: time is
 * submit_time, num_replicas num_gpus, and a job with an application
 * trains it (gsim --apps) rather than running a duration.
 * Times are seconds in the file
 * (fractions allowed) and milliseconds here. */
#ifndef GB_SIM_TRACE_H
#define GB_SIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/sched-core.h"

struct sim_job {
	uint64_t	 id;		/* job_id, else the row number from 0 */
	char		*name;		/* name / model_name, or NULL */
	char		*user;		/* user, or NULL */
	uint32_t	 gpus;		/* >= 1 */
	int64_t		 submit_ms;	/* >= 0 */
	int64_t		 duration_ms;	/* > 0: run time without interruption */
	uint64_t	 array_id;	/* 0: none */
	uint32_t	 array_throttle;/* 0: none */
	uint32_t	 num_nodes;	/* exact shape, gpus / num_nodes each;
					 * 0: free */
	/* CPUs and memory (MB) the job needs in all, spread over its GPUs;
	 * 0: the node's share per GPU. */
	uint32_t	 cpus;
	uint64_t	 mem;
	char		*account;	/* or NULL */
	char		*partition;	/* its list, or NULL: the default */
	uint64_t	 time_limit;	/* seconds; 0: none */
	char		*qos;		/* or NULL: the default */
	/* application: the job trains it (gsim --apps) for its epochs at
	 * batch_size (0: the application's first validated size), as long
	 * as its placement makes it; duration is then the time it would
	 * take on its GPUs packed on the fewest nodes, which gsim sets
	 * once it has read the applications. NULL: a job of duration. */
	char		*app;
	uint32_t	 batch;
	uint32_t	 app_index;	/* gsim's, into its applications */
	/* Where it may run (sched_jobspec's nodes, nnodes, nsets and tier),
	 * set by sim-part.c from its partitions (borrowed from there);
	 * nodes NULL: anywhere. */
	const uint32_t	*nodes;
	uint32_t	 nnodes;
	uint32_t	 nsets;
	uint8_t		 tier;
	/* What its QOS makes of it (sched_jobspec's pclass, no_requeue and
	 * a limit), set by sim-part.c; nlimits 0: none. */
	uint8_t		 pclass;
	bool		 no_requeue;
	/* It opted in to time-slicing (the trace's time_slice column, or
	 * gsim --slice-share). */
	bool		 time_slice;
	/* Not 0: it takes that many shards of one GPU (the trace's
	 * gpu_share; gpus is 1), on nodes that offer their GPUs in shards
	 * (gsim --gpu-shards). Never with time_slice. */
	uint32_t	 shards;
	uint32_t	 nlimits;
	struct sched_limit limit;
	unsigned	 line;		/* line in the file, for messages */
};

/* Jobs sorted by submit time, file order among equals. */
struct sim_trace {
	struct sim_job	*jobs;
	size_t		 njobs;
	bool		 has_time_slice;	/* a time_slice column */
};

/* Reads path into trace. Returns 0, or -1 with "FILE:LINE: what was wrong
 * and what is accepted" in err (a missing column names the columns the
 * header has). The caller frees with sim_trace_free. */
int	sim_trace_load(const char *path, struct sim_trace *, char *err,
	    size_t errlen);
void	sim_trace_free(struct sim_trace *);
/* Which jobs opt in to time-slicing: share (0 to 1) of them, spread
 * evenly in submit order (a third: every third job); share < 0: those
 * the trace's time_slice column names, or every job without one. A job
 * of shards never does: it shares its GPU already. */
void	sim_trace_slice_share(struct sim_trace *, double share);

/* Reads a one-column CSV of GPU-times in GPU-seconds (header "duration",
 * as yarn-gput1000.csv) into a malloc'd array of GPU-ms the caller frees. */
int	sim_trace_load_samples(const char *path, uint64_t **samples,
	    size_t *n, char *err, size_t errlen);

#endif
