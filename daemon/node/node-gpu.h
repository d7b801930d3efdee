/* node-gpu.h: the GPUs this node offers. Each backend is a const ops table
 * (nvtop's struct gpu_vendor); node-gpu.c lists them in one array. */
#ifndef GB_NODE_GPU_H
#define GB_NODE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/node/node-conf.h"

struct node_gpu {
	unsigned	index;
	/* Its device file's minor number (/dev/nvidiaN); NVML's, else the
	 * index. */
	unsigned	minor;
	char		name[96];
	char		uuid[96];
	uint64_t	memory_mb;
	/* The CPUs near it (its NUMA node's), as NVML tells: "0-15,32-47";
	 * "" when not known. */
	char		cpus[512];
};

/* What a GPU is doing now: for gtop's cells, and to find GPUs that jobs
 * hold but do not use. */
struct node_gpu_use {
	int		util;		/* % busy over the last sample; -1 unknown */
	int64_t		mem_used_mb;	/* -1 unknown */
};

struct node_gpu_ops {
	const char	*name;		/* gpu_source value, for messages */
	const char	*source;	/* "gpu_source" in HELLO */
	/* Fills a new array (caller frees) and its length. Returns 0, or -1
	 * with err set when this backend cannot serve the node. */
	int		(*discover)(const struct node_conf *, struct node_gpu **,
			    size_t *, char *err, size_t errlen);
	/* Fills use[0..n-1] (GPU indexes); what cannot be read is -1. May
	 * block briefly (NVML). *live is what the backend keeps between two
	 * samples (NULL before the first): the GPU list that samples owns
	 * it, and gives it to release when freed. */
	void		(*sample)(const struct node_conf *, void **live,
			    struct node_gpu_use *, size_t n);
	/* Frees what sample kept (not NULL); NULL when it keeps nothing. */
	void		(*release)(void *live);
};

extern const struct node_gpu_ops node_gpu_nvml_ops;
extern const struct node_gpu_ops node_gpu_sim_ops;

struct node_gpus;

/* Finds the node's GPUs as conf->gpu_source says. Logs "no NVML" when auto
 * falls back to the configured count. Returns a new list or NULL with err
 * set. May block briefly (NVML initialisation). */
struct node_gpus	*node_gpu_discover(const struct node_conf *, char *err,
			     size_t errlen);
size_t			 node_gpu_count(const struct node_gpus *);
/* "nvml" or "config". Borrowed. */
const char		*node_gpu_source(const struct node_gpus *);
/* The "gpus" array of HELLO (a new reference). */
json_t			*node_gpu_json(const struct node_gpus *);
/* Each GPU's use now, as NODE_HEARTBEAT's "gpus": [{"index":0,
 * "util":37,"mem_used_mb":1024}, ...], unknown figures left out (a new
 * reference). */
json_t			*node_gpu_use_json(struct node_gpus *,
			     const struct node_conf *);
void			 node_gpu_free(struct node_gpus *);
/* GPU i of the list (i < node_gpu_count). Borrowed. */
const struct node_gpu	*node_gpu_at(const struct node_gpus *, size_t i);

#endif
