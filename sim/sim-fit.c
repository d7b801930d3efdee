/* sim-fit.c: every job of a trace fits the idle cluster (sim-fit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "policy/place.h"
#include "sim/sim-fit.h"
#include "sim/sim.h"

/* The idle cluster, and scratch for a placement. */
struct sim_fit {
	const char		*path;
	const struct sim_cluster *c;
	struct place_cluster	*idle;
	struct place_alloc	*out;
	bool			 even;
};

/* A job of shards needs nodes that offer a GPU in as many. Where none
 * offers any, the trace's shards were given without --gpu-shards, which
 * the message says. */
static int
sim_fit_shards(const struct sim_fit *f, const struct sim_job *j, char *err,
    size_t errlen)
{
	if (f->c->gpu_shards <= 1) {
		snprintf(err, errlen, "%s:%u: job %llu takes gpu_share %u of "
		    "a GPU, but the nodes offer no shards: give --gpu-shards "
		    "N (the shards each GPU is offered in, 2 to %d)", f->path,
		    j->line, (unsigned long long)j->id, j->shards,
		    PLACE_MAX_SHARDS);
		return (-1);
	}
	if (j->shards > f->c->gpu_shards) {
		snprintf(err, errlen, "%s:%u: job %llu takes gpu_share %u of "
		    "a GPU; the nodes offer each GPU in %u shards (give "
		    "--gpu-shards %u or more)", f->path, j->line,
		    (unsigned long long)j->id, j->shards, f->c->gpu_shards,
		    j->shards);
		return (-1);
	}
	return (0);
}

/* Whether job j fits the idle cluster; else why, in err. */
static int
sim_fit_job(const struct sim_fit *f, const struct sim_job *j, char *err,
    size_t errlen)
{
	struct place_want	w;
	struct place_res	res;
	uint64_t		total = sim_cluster_gpus(f->c);

	if (j->shards > 0 && sim_fit_shards(f, j, err, errlen) != 0)
		return (-1);
	if (j->gpus > total) {
		snprintf(err, errlen, "%s:%u: job %llu asks for %u GPUs; the "
		    "cluster has %llu", f->path, j->line,
		    (unsigned long long)j->id, j->gpus,
		    (unsigned long long)total);
		return (-1);
	}
	sim_job_want(j, f->even, &res, &w);
	if (place_find_want(f->idle, SCHED_PLACE_CONSOLIDATE, &w, f->out) > 0)
		return (0);
	if (j->gpus == 0 || j->shards > 0)
		snprintf(err, errlen, "%s:%u: job %llu, of %s, finds %s with "
		    "the CPUs and memory it needs (give fewer, or --node-cpus, "
		    "--node-mem-gb)", f->path, j->line,
		    (unsigned long long)j->id, j->gpus == 0 ? "no GPU" :
		    "shards of a GPU", w.nnodes > 1 ? "too few nodes" :
		    "no node");
	else
		snprintf(err, errlen, "%s:%u: job %llu's %u GPUs have no %s "
		    "over %zu nodes of %u GPUs%s (give num_nodes, or --shape "
		    "any%s)", f->path, j->line, (unsigned long long)j->id,
		    j->gpus, w.nnodes > 0 ? "such shape" : "even split",
		    place_nodes(f->idle), f->c->gpus_per_node,
		    f->c->cpus_per_node > 0 || f->c->mem_per_node > 0 ?
		    " with the CPUs and memory it needs" : "",
		    j->cpus > 0 || j->mem > 0 ?
		    ", or fewer CPUs or memory" : "");
	return (-1);
}

int
sim_fit_check(const char *path, const struct sim_trace *t,
    const struct sim_cluster *c, bool even, char *err, size_t errlen)
{
	struct sim_fit	f;
	size_t		i;
	int		ret = 0;

	f.path = path;
	f.c = c;
	f.even = even;
	f.idle = place_cluster_create(1);
	sim_cluster_build(c, f.idle);
	f.out = xcalloc(place_nodes(f.idle) + 1, sizeof *f.out);
	for (i = 0; i < t->njobs && ret == 0; i++)
		ret = sim_fit_job(&f, &t->jobs[i], err, errlen);
	free(f.out);
	place_cluster_free(f.idle);
	return (ret);
}
