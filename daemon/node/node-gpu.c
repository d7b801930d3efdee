/* node-gpu.c: choosing a GPU backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/node/node-gpu.h"

/* In the order auto tries them. */
static const struct node_gpu_ops *const node_gpu_backends[] = {
	&node_gpu_nvml_ops,
	&node_gpu_sim_ops,
};
#define NODE_GPU_NBACKENDS \
	(sizeof node_gpu_backends / sizeof node_gpu_backends[0])

struct node_gpus {
	const struct node_gpu_ops	*ops;
	struct node_gpu			*v;
	size_t				 n;
	/* What the backend keeps between samples (ops->sample). */
	void				*live;
};

static int
node_gpu_try(const struct node_gpu_ops *ops, const struct node_conf *conf,
    struct node_gpus *g, char *err, size_t errlen)
{
	if (ops->discover(conf, &g->v, &g->n, err, errlen) == -1)
		return (-1);
	g->ops = ops;
	return (0);
}

/* A node without GPUs is allowed only when someone said so: a typo in
 * the file, or NVML missing on a GPU server, must not quietly make one.
 * Returns 0, or -1 with err saying why none were found and what to set.
 * nvml_why is NVML's failure when auto fell back from it, else NULL. */
static int
node_gpu_none(const struct node_conf *conf, const struct node_gpus *g,
    const char *nvml_why, char *err, size_t errlen)
{
	char	why[600];

	if (g->n > 0 || (conf->gpus_set && conf->gpus == 0))
		return (0);
	if (g->ops == &node_gpu_nvml_ops)
		snprintf(why, sizeof why, "NVML reports no GPU%s",
		    conf->gpus_set ? " (node.gpus counts only where NVML is "
		    "not used)" : "");
	else if (nvml_why != NULL)
		snprintf(why, sizeof why, "NVML is not usable (%s) and "
		    "node.gpus is not set", nvml_why);
	else
		snprintf(why, sizeof why, "gpu_source is \"simulated\" and "
		    "node.gpus is not set");
	snprintf(err, errlen, "no GPUs found: %s; set node.gpus = N "
	    "(simulated GPUs) or node.gpus = 0 (a node without GPUs)", why);
	return (-1);
}

struct node_gpus *
node_gpu_discover(const struct node_conf *conf, char *err, size_t errlen)
{
	struct node_gpus	*g;
	char			 why[512], nvml[512];
	const char		*nvml_why = NULL;
	size_t			 i;

	g = xcalloc(1, sizeof *g);
	switch (conf->gpu_source) {
	case NODE_GPU_NVML:
		if (node_gpu_try(&node_gpu_nvml_ops, conf, g, why,
		    sizeof why) == -1) {
			snprintf(err, errlen, "gpu_source nvml: %s", why);
			goto fail;
		}
		break;
	case NODE_GPU_SIMULATED:
		if (node_gpu_try(&node_gpu_sim_ops, conf, g, err,
		    errlen) == -1)
			goto fail;
		break;
	case NODE_GPU_AUTO:
		for (i = 0; i < NODE_GPU_NBACKENDS; i++) {
			if (node_gpu_try(node_gpu_backends[i], conf, g, why,
			    sizeof why) == 0)
				break;
			if (node_gpu_backends[i] != &node_gpu_nvml_ops)
				continue;
			nvml_why = memcpy(nvml, why, sizeof nvml);
			log_info("node %s: no NVML (%s); using %u configured "
			    "GPUs", conf->name, why, conf->gpus);
		}
		if (g->ops == NULL) {
			snprintf(err, errlen, "no GPU backend works: %s", why);
			goto fail;
		}
		break;
	}
	if (node_gpu_none(conf, g, nvml_why, err, errlen) == -1)
		goto fail;
	for (i = 0; i < g->n; i++)
		log_info("node %s: GPU %u: %s, %s, %llu MiB", conf->name,
		    g->v[i].index, g->v[i].name, g->v[i].uuid,
		    (unsigned long long)g->v[i].memory_mb);
	return (g);
fail:
	node_gpu_free(g);
	return (NULL);
}

const struct node_gpu *
node_gpu_at(const struct node_gpus *g, size_t i)
{
	return (&g->v[i]);
}

size_t
node_gpu_count(const struct node_gpus *g)
{
	return (g->n);
}

const char *
node_gpu_source(const struct node_gpus *g)
{
	return (g->ops->source);
}

json_t *
node_gpu_json(const struct node_gpus *g)
{
	json_t	*a;
	size_t	 i;

	a = json_array();
	for (i = 0; i < g->n; i++)
		json_array_append_new(a, json_pack("{s:i,s:s,s:s,s:I}",
		    "index", (int)g->v[i].index, "name", g->v[i].name,
		    "uuid", g->v[i].uuid,
		    "memory_mb", (json_int_t)g->v[i].memory_mb));
	return (a);
}

void
node_gpu_free(struct node_gpus *g)
{
	if (g == NULL)
		return;
	if (g->live != NULL && g->ops->release != NULL)
		g->ops->release(g->live);
	free(g->v);
	free(g);
}

json_t *
node_gpu_use_json(struct node_gpus *g, const struct node_conf *conf)
{
	struct node_gpu_use	*use;
	json_t			*a = json_array(), *o;
	size_t			 i;

	if (g->n == 0 || g->ops->sample == NULL)
		return (a);
	use = xcalloc(g->n, sizeof *use);
	for (i = 0; i < g->n; i++)
		use[i].util = use[i].mem_used_mb = -1;
	g->ops->sample(conf, &g->live, use, g->n);
	for (i = 0; i < g->n; i++) {
		o = json_pack("{s:i}", "index", (int)g->v[i].index);
		if (use[i].util >= 0)
			json_object_set_new(o, "util", json_integer(
			    use[i].util));
		if (use[i].mem_used_mb >= 0)
			json_object_set_new(o, "mem_used_mb", json_integer(
			    use[i].mem_used_mb));
		json_array_append_new(a, o);
	}
	free(use);
	return (a);
}
