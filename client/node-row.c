/* node-row.c: the columns of a node (node-row.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "client/node-row.h"

static const char *
node_row_str(const void *row, const char *key)
{
	const char	*s = json_string_value(json_object_get(row, key));

	return (s != NULL ? s : "");
}

static const char *
node_row_int(const void *row, const char *key, char *buf, size_t len)
{
	json_t	*v = json_object_get(row, key);

	if (!json_is_integer(v))
		return ("");
	snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	return (buf);
}

static const char *
node_row_get_name(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_str(row, "name"));
}

static const char *
node_row_get_state(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_str(row, "state"));
}

static const char *
node_row_get_reason(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_str(row, "reason"));
}

static const char *
node_row_get_addr(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_str(row, "addr"));
}

static const char *
node_row_get_switch(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_str(row, "switch"));
}

static const char *
node_row_get_source(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_str(row, "gpu_source"));
}

static const char *
node_row_get_total(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_int(row, "gpus_total", buf, len));
}

static const char *
node_row_get_alloc(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_int(row, "gpus_alloc", buf, len));
}

/* "1/4": allocated of total, the figure an admin looks for first. */
static const char *
node_row_get_gpus(const void *row, const void *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%lld/%lld", (long long)json_integer_value(
	    json_object_get(row, "gpus_alloc")), (long long)json_integer_value(
	    json_object_get(row, "gpus_total")));
	return (buf);
}

/* "0:42 1:42 2:-": each GPU's index and its member key, - where it has
 * none. */
static const char *
node_row_per_gpu(const void *row, const char *key, char *buf, size_t len)
{
	json_t	*gpu, *v;
	size_t	 i, n = 0;

	buf[0] = '\0';
	json_array_foreach(json_object_get(row, "gpus"), i, gpu) {
		if (n >= len)
			break;
		v = json_object_get(gpu, key);
		n += (size_t)snprintf(buf + n, len - n, "%s%lld:", n > 0 ? " " :
		    "", (long long)json_integer_value(json_object_get(gpu,
		    "index")));
		if (n >= len)
			break;
		if (json_is_integer(v))
			n += (size_t)snprintf(buf + n, len - n, "%lld",
			    (long long)json_integer_value(v));
		else
			n += (size_t)snprintf(buf + n, len - n, "-");
	}
	return (buf);
}

/* Each GPU and the job holding it: the figure gnodes is for. */
static const char *
node_row_get_jobs(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_per_gpu(row, "job", buf, len));
}

/* Each GPU and how busy it is, in %, as its node's last heartbeat said. */
static const char *
node_row_get_util(const void *row, const void *ctx, char *buf, size_t len)
{
	return (node_row_per_gpu(row, "util", buf, len));
}

static const char *
node_row_get_last_seen(const void *row, const void *ctx, char *buf, size_t len)
{
	json_t		*v = json_object_get(row, "last_seen");
	time_t		 t;
	struct tm	 tm;

	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		return ("");
	t = (time_t)json_integer_value(v);
	if (localtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		return ("");
	return (buf);
}

const struct table_col node_row_cols[] = {
	{ "name", "NODE", false, node_row_get_name },
	{ "state", "STATE", false, node_row_get_state },
	{ "gpus", "GPUS", true, node_row_get_gpus },
	{ "jobs", "GPU:JOB", false, node_row_get_jobs },
	{ "util", "GPU:UTIL%", false, node_row_get_util },
	{ "reason", "REASON", false, node_row_get_reason },
	{ "gpus_total", "TOTAL", true, node_row_get_total },
	{ "gpus_alloc", "ALLOC", true, node_row_get_alloc },
	{ "addr", "ADDR", false, node_row_get_addr },
	{ "gpu_source", "SOURCE", false, node_row_get_source },
	{ "switch", "SWITCH", false, node_row_get_switch },
	{ "last_seen", "LAST_SEEN", false, node_row_get_last_seen },
};
const size_t node_row_ncols = sizeof node_row_cols / sizeof node_row_cols[0];
