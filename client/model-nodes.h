/* model-nodes.h: the nodes of a NODE_LIST reply (docs/protocol.md, 300),
 * a full one or a brief one (each GPU an array of the values that change),
 * as clients draw them: read once with jscan into plain rows. A cluster of
 * 1,000 nodes is 8,000 GPU entries, which a jansson tree takes tens of
 * milliseconds and megabytes to build, and gtop reads one every few
 * seconds. A member the reply lacks reads as "" or 0; util and
 * mem_used_mb as -1 (not known) when absent or null. */
#ifndef GB_MODEL_NODES_H
#define GB_MODEL_NODES_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct model_gpu {
	const char	*name;
	const char	*uuid;
	long long	 index;
	long long	 memory_mb;
	uint64_t	 job;		/* the job holding it; 0: free */
	/* The jobs beside it on the GPU (its shards, a time-slicing
	 * ring's), "43,44"; "" for none. */
	const char	*also;
	/* When that job is an array's task: the array's id and the task
	 * (task -1: it is not). */
	uint64_t	 array;
	long long	 task;
	int		 util;		/* % busy; -1: not known */
	long long	 mem_used_mb;	/* -1: not known */
	long long	 low_since;	/* held under 5% busy since; 0: not */
};

/* The job holding g as users name it (into buf): "42_7" for an array's
 * task, else its id; "" when free. Returns buf. */
const char	*model_nodes_job_name(const struct model_gpu *g, char *buf,
		    size_t len);

struct model_node {
	const char		*name;
	const char		*state;		/* idle, mixed, ..., down */
	const char		*reason;
	const char		*addr;
	const char		*gpu_source;
	const char		*sw;		/* its switch; "" none */
	/* Its partitions in gbatch.conf's order, "gpu,long"; "" where
	 * gbatch.conf names none (or none holds it). */
	const char		*partitions;
	/* The advance reservation open on it now, "" none. */
	const char		*reservation;
	long long		 gpus_total;
	long long		 gpus_alloc;
	/* CPUs and memory (MB): -1 total when the node did not say. */
	long long		 cpus_total;
	long long		 cpus_alloc;
	long long		 mem_total;
	long long		 mem_alloc;
	long long		 last_seen;
	/* The shards each GPU is offered in (gnoded's node.gpu_shards; 1:
	 * none). */
	long long		 gpu_shards;
	/* The CPU jobs (of no GPU) on it, "17,18"; "" for none. */
	const char		*cpu_jobs;
	struct model_gpu	*gpus;
	size_t			 ngpus;
};

struct model_nodes {
	char			*body;		/* the reply's text */
	size_t			 len;
	char			*strings;	/* the rows' strings, decoded */
	struct model_node	*rows;
	size_t			 n;
	struct model_gpu	*gpus;		/* all rows' GPUs, in order */
	size_t			 ngpus;
};

/* Reads a NODE_LIST reply (body, len bytes, which out then owns) into
 * out. Returns 0, or -1 when it is not a node list (out holds nothing,
 * body is freed). */
int	 model_nodes_scan(char *body, size_t len, struct model_nodes *out);
void	 model_nodes_free(struct model_nodes *);
/* The reply as a jansson tree (gnodes --json, --gsim): a new reference,
 * or NULL when there is none. */
json_t	*model_nodes_json(const struct model_nodes *);

#endif
