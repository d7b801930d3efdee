/* node-row.c: the columns of a node (node-row.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "client/node-row.h"

static const char *
node_row_int(long long v, char *buf, size_t len)
{
	snprintf(buf, len, "%lld", v);
	return (buf);
}

static const char *
node_row_get_name(const void *row, const void *ctx, char *buf, size_t len)
{
	return (((const struct model_node *)row)->name);
}

static const char *
node_row_get_state(const void *row, const void *ctx, char *buf, size_t len)
{
	return (((const struct model_node *)row)->state);
}

static const char *
node_row_get_reason(const void *row, const void *ctx, char *buf, size_t len)
{
	return (((const struct model_node *)row)->reason);
}

static const char *
node_row_get_addr(const void *row, const void *ctx, char *buf, size_t len)
{
	return (((const struct model_node *)row)->addr);
}

static const char *
node_row_get_switch(const void *row, const void *ctx, char *buf, size_t len)
{
	return (((const struct model_node *)row)->sw);
}

static const char *
node_row_get_source(const void *row, const void *ctx, char *buf, size_t len)
{
	return (((const struct model_node *)row)->gpu_source);
}

/* The node's GPU models, each once, joined by ','; what gsub
 * --gres=gpu:TYPE:N matches (made safe for a terminal by the table). */
static const char *
node_row_get_model(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct model_node	*n = row;
	size_t			 i, k, at = 0;
	int			 w;

	(void)ctx;
	buf[0] = '\0';
	for (i = 0; i < n->ngpus && at < len; i++) {
		for (k = 0; k < i; k++) {
			if (strcmp(n->gpus[k].name, n->gpus[i].name) == 0)
				break;
		}
		if (k < i || *n->gpus[i].name == '\0')
			continue;
		if ((w = snprintf(buf + at, len - at, "%s%s", at > 0 ? "," :
		    "", n->gpus[i].name)) < 0)
			break;
		at += (size_t)w;
	}
	return (buf);
}

static const char *
node_row_get_total(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_int(((const struct model_node *)row)->gpus_total, buf,
	    len));
}

static const char *
node_row_get_alloc(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_int(((const struct model_node *)row)->gpus_alloc, buf,
	    len));
}

/* The CPU jobs on it, "17,18"; "-" for none. */
static const char *
node_row_get_cpu_jobs(const void *row, const void *ctx, char *buf,
    size_t len)
{
	const char	*ids = ((const struct model_node *)row)->cpu_jobs;

	return (*ids != '\0' ? ids : "-");
}

/* Its partitions, "gpu,long"; "-" for none (or no partitions at all). */
static const char *
node_row_get_partitions(const void *row, const void *ctx, char *buf,
    size_t len)
{
	const char	*p = ((const struct model_node *)row)->partitions;

	return (*p != '\0' ? p : "-");
}

/* The reservation open on it; "-" for none. */
static const char *
node_row_get_reservation(const void *row, const void *ctx, char *buf,
    size_t len)
{
	const char	*r = ((const struct model_node *)row)->reservation;

	return (*r != '\0' ? r : "-");
}

/* CPUs allocated of total, "-" where the node did not say. */
static const char *
node_row_get_cpus(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct model_node	*n = row;

	if (n->cpus_total < 0)
		return ("-");
	snprintf(buf, len, "%lld/%lld", n->cpus_alloc, n->cpus_total);
	return (buf);
}

/* Memory allocated of total, in G (one decimal below 10 G). */
static const char *
node_row_get_mem(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct model_node	*n = row;

	if (n->mem_total < 0)
		return ("-");
	if (n->mem_total < 10 * 1024)
		snprintf(buf, len, "%.1f/%.1fG", n->mem_alloc / 1024.0,
		    n->mem_total / 1024.0);
	else
		snprintf(buf, len, "%lld/%lldG", n->mem_alloc / 1024,
		    n->mem_total / 1024);
	return (buf);
}

/* "1/4": allocated of total, the figure an admin looks for first. */
static const char *
node_row_get_gpus(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct model_node	*n = row;

	snprintf(buf, len, "%lld/%lld", n->gpus_alloc, n->gpus_total);
	return (buf);
}

/* "0:42 1:42 2:-": each GPU's index and a figure of it (-1: none, -). */
static const char *
node_row_per_gpu(const struct model_node *n, long long (*get)(const
    struct model_gpu *), char *buf, size_t len)
{
	long long	v;
	size_t		i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < n->ngpus && at < len; i++) {
		v = get(&n->gpus[i]);
		if (v >= 0)
			at += (size_t)snprintf(buf + at, len - at, "%s%lld:%lld",
			    at > 0 ? " " : "", n->gpus[i].index, v);
		else
			at += (size_t)snprintf(buf + at, len - at, "%s%lld:-",
			    at > 0 ? " " : "", n->gpus[i].index);
	}
	return (buf);
}

static long long
node_row_gpu_util(const struct model_gpu *g)
{
	return (g->util);
}

/* Each GPU and the jobs holding it, as users name them ("0:42_7 1:-
 * 2:43,44" where 43 and 44 share GPU 2): the figure gnodes is for. */
static const char *
node_row_get_jobs(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct model_node	*n = row;
	char			 name[48];
	size_t			 i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < n->ngpus && at < len; i++) {
		model_nodes_job_name(&n->gpus[i], name, sizeof name);
		at += (size_t)snprintf(buf + at, len - at, "%s%lld:%s%s%s",
		    at > 0 ? " " : "", n->gpus[i].index, name[0] != '\0' ?
		    name : "-", *n->gpus[i].also != '\0' ? "," : "",
		    n->gpus[i].also);
	}
	return (buf);
}

/* Each GPU and how busy it is, in %, as its node's last heartbeat said. */
static const char *
node_row_get_util(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_per_gpu(row, node_row_gpu_util, buf, len));
}

static const char *
node_row_get_last_seen(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct model_node	*n = row;
	time_t			 t = (time_t)n->last_seen;
	struct tm		 tm;

	if (n->last_seen <= 0 || localtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		return ("");
	return (buf);
}

/* The shards each of its GPUs is offered in (1: none). */
static const char *
node_row_get_shards(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_int(((const struct model_node *)row)->gpu_shards, buf,
	    len));
}

const struct table_col node_row_cols[] = {
	{ "name", "NODE", false, node_row_get_name },
	{ "state", "STATE", false, node_row_get_state },
	{ "gpus", "GPUS", true, node_row_get_gpus },
	{ "jobs", "GPU:JOB", false, node_row_get_jobs },
	{ "cpu_jobs", "CPU_JOBS", false, node_row_get_cpu_jobs },
	{ "util", "GPU:UTIL%", false, node_row_get_util },
	{ "reason", "REASON", false, node_row_get_reason },
	{ "partitions", "PARTITIONS", false, node_row_get_partitions },
	{ "reservation", "RESERVATION", false, node_row_get_reservation },
	{ "gpus_total", "TOTAL", true, node_row_get_total },
	{ "gpus_alloc", "ALLOC", true, node_row_get_alloc },
	{ "gpu_shards", "SHARDS", true, node_row_get_shards },
	{ "cpus", "CPUS", true, node_row_get_cpus },
	{ "memory", "MEMORY", true, node_row_get_mem },
	{ "addr", "ADDR", false, node_row_get_addr },
	{ "gpu_source", "SOURCE", false, node_row_get_source },
	{ "gpu_model", "GPU_MODEL", false, node_row_get_model },
	{ "switch", "SWITCH", false, node_row_get_switch },
	{ "last_seen", "LAST_SEEN", false, node_row_get_last_seen },
};
const size_t node_row_ncols = sizeof node_row_cols / sizeof node_row_cols[0];
