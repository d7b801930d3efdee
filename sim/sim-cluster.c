/* sim-cluster.c: the simulated cluster's shape, from a flag or a Tiresias
 * cluster-spec CSV; see sim-cluster.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim-cluster.h"
#include "sim/csv.h"

#define CLUSTER_MAX_NODES	1000000

static const char *const cluster_col_sw[] = { "num_switch", NULL };
static const char *const cluster_col_nodes[] = { "num_node_p_switch", NULL };
static const char *const cluster_col_gpus[] = { "num_gpu_p_node", NULL };
static const char *const cluster_col_cpus[] = { "num_cpu_p_node", NULL };
static const char *const cluster_col_mem[] = { "mem_p_node", NULL };

static int
cluster_check(struct sim_cluster *c, char *err, size_t errlen)
{
	if (c->gpus_per_node < 1 || c->gpus_per_node > 64) {
		snprintf(err, errlen, "%u GPUs per node: expected 1 to 64",
		    c->gpus_per_node);
		return (-1);
	}
	if (c->switches < 1 || c->nodes_per_switch < 1 ||
	    (uint64_t)c->switches * c->nodes_per_switch > CLUSTER_MAX_NODES) {
		snprintf(err, errlen, "%u switches x %u nodes: expected 1 to "
		    "%u nodes in all", c->switches, c->nodes_per_switch,
		    CLUSTER_MAX_NODES);
		return (-1);
	}
	return (0);
}

int
sim_cluster_parse(const char *s, struct sim_cluster *c, char *err,
    size_t errlen)
{
	unsigned long	 v[3];
	const char	*p = s;
	char		*end;
	size_t		 n = 0;

	for (;;) {
		if (*p < '0' || *p > '9' || n == 3)
			goto bad;
		errno = 0;
		v[n++] = strtoul(p, &end, 10);
		if (errno != 0 || v[n - 1] == 0 || v[n - 1] > CLUSTER_MAX_NODES)
			goto bad;
		if (*end == '\0')
			break;
		if (*end != 'x' && *end != 'X')
			goto bad;
		p = end + 1;
	}
	if (n == 2) {
		c->switches = 1;
		c->nodes_per_switch = (uint32_t)v[0];
		c->gpus_per_node = (uint32_t)v[1];
	} else if (n == 3) {
		c->switches = (uint32_t)v[0];
		c->nodes_per_switch = (uint32_t)v[1];
		c->gpus_per_node = (uint32_t)v[2];
	} else
		goto bad;
	if (cluster_check(c, err, errlen) != 0)
		return (-1);
	return (0);

bad:
	snprintf(err, errlen, "cluster \"%s\": expected NODESxGPUS (3x4: 3 "
	    "nodes of 4 GPUs) or SWITCHESxNODESxGPUS (2x16x8), each a "
	    "positive number", s);
	return (-1);
}

int
sim_cluster_load(const char *path, struct sim_cluster *c, char *err,
    size_t errlen)
{
	struct csv	 csv;
	uint64_t	 v[3];
	int		 col[3], r, i;
	char		*have, why[256];

	if (csv_open(&csv, path, err, errlen) != 0)
		return (-1);
	col[0] = csv_column(&csv, cluster_col_sw);
	col[1] = csv_column(&csv, cluster_col_nodes);
	col[2] = csv_column(&csv, cluster_col_gpus);
	if (col[0] < 0 || col[1] < 0 || col[2] < 0) {
		have = csv_header(&csv);
		snprintf(err, errlen, "%s:1: the header has: %s (expected "
		    "num_switch, num_node_p_switch, num_gpu_p_node)", path,
		    have);
		free(have);
		goto fail;
	}
	if ((r = csv_next(&csv, err, errlen)) <= 0) {
		if (r == 0)
			snprintf(err, errlen, "%s: no cluster line after the "
			    "header", path);
		goto fail;
	}
	for (i = 0; i < 3; i++) {
		if (csv_uint(&csv, col[i], csv.names[col[i]], 1,
		    CLUSTER_MAX_NODES, &v[i], err, errlen) != 0)
			goto fail;
	}
	c->switches = (uint32_t)v[0];
	c->nodes_per_switch = (uint32_t)v[1];
	c->gpus_per_node = (uint32_t)v[2];
	c->cpus_per_node = 0;
	c->mem_per_node = 0;
	if ((i = csv_column(&csv, cluster_col_cpus)) >= 0) {
		if (csv_uint(&csv, i, "num_cpu_p_node", 1, 65536, &v[0], err,
		    errlen) != 0)
			goto fail;
		c->cpus_per_node = (uint32_t)v[0];
	}
	if ((i = csv_column(&csv, cluster_col_mem)) >= 0) {
		if (csv_uint(&csv, i, "mem_p_node", 1, 1 << 20, &v[0], err,
		    errlen) != 0)
			goto fail;
		c->mem_per_node = v[0] * 1024;	/* GB in the spec */
	}
	if (cluster_check(c, why, sizeof why) != 0) {
		snprintf(err, errlen, "%s:%u: %s", path, csv.line, why);
		goto fail;
	}
	if ((r = csv_next(&csv, err, errlen)) != 0) {
		if (r > 0)
			snprintf(err, errlen, "%s:%u: a second cluster line; "
			    "a spec describes one homogeneous cluster", path,
			    csv.line);
		goto fail;
	}
	csv_close(&csv);
	return (0);

fail:
	csv_close(&csv);
	return (-1);
}

void
sim_cluster_build(const struct sim_cluster *c, struct place_cluster *pl)
{
	uint32_t	s, k, i;

	for (s = 0; s < c->switches; s++) {
		for (k = 0; k < c->nodes_per_switch; k++) {
			i = place_node_add(pl, c->gpus_per_node, s);
			place_node_set_res(pl, i, c->cpus_per_node,
			    c->mem_per_node);
			if (c->gpu_shards > 1)
				place_shard_set(pl, i, c->gpu_shards);
		}
	}
}

double
sim_cluster_held(const struct sim_cluster *c, uint32_t gpus,
    uint32_t shards)
{
	/* A node that offers fewer shards than the job takes never runs
	 * it; as a whole GPU, should one ever ask. */
	if (shards == 0 || c->gpu_shards <= 1 || shards >= c->gpu_shards)
		return (gpus);
	return ((double)shards / c->gpu_shards);
}

uint64_t
sim_cluster_gpus(const struct sim_cluster *c)
{
	return ((uint64_t)c->switches * c->nodes_per_switch *
	    c->gpus_per_node);
}
