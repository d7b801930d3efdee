/* gacct-report.c: gacct --report users|cluster|nodes. gbatchd aggregates
 * (JOB_ACCT with "report", docs/protocol.md) and sends a row per user, per
 * group of jobs or per node; this prints them in gacct's formats. The
 * wire carries seconds; the columns show hours (2 decimals), percentages (1
 * decimal) and seconds. --json prints the reply's figures as they came. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bin/gacct-report.h"
#include "client/cmd.h"
#include "client/table.h"

enum gacct_cell {
	GACCT_CELL_TEXT,
	GACCT_CELL_INT,
	GACCT_CELL_HOURS,	/* seconds shown as hours */
	GACCT_CELL_PCT,
	GACCT_CELL_SECS,	/* seconds, 1 decimal */
};

/* A null or absent figure is an empty cell. */
static const char *
gacct_report_cell(const void *row, const char *key, enum gacct_cell kind,
    char *buf, size_t len)
{
	const json_t	*v = json_object_get(row, key);

	if (v == NULL || json_is_null(v))
		return ("");
	switch (kind) {
	case GACCT_CELL_TEXT:
		return (json_string_value(v) != NULL ? json_string_value(v) :
		    "");
	case GACCT_CELL_INT:
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
		break;
	case GACCT_CELL_HOURS:
		snprintf(buf, len, "%.2f", json_number_value(v) / 3600);
		break;
	case GACCT_CELL_PCT:
	case GACCT_CELL_SECS:
		snprintf(buf, len, "%.1f", json_number_value(v));
		break;
	}
	return (buf);
}

#define GACCT_COL(fn, key, kind)					\
static const char *							\
fn(const void *row, const void *ctx, char *buf, size_t len)		\
{									\
	(void)ctx;							\
	return (gacct_report_cell(row, key, kind, buf, len));		\
}
GACCT_COL(gr_user, "user", GACCT_CELL_TEXT)
GACCT_COL(gr_node, "node", GACCT_CELL_TEXT)
GACCT_COL(gr_group, "group", GACCT_CELL_TEXT)
GACCT_COL(gr_key, "key", GACCT_CELL_TEXT)
GACCT_COL(gr_gpus, "gpus", GACCT_CELL_INT)
GACCT_COL(gr_jobs, "jobs", GACCT_CELL_INT)
GACCT_COL(gr_completed, "completed", GACCT_CELL_INT)
GACCT_COL(gr_failed, "failed", GACCT_CELL_INT)
GACCT_COL(gr_timeout, "timeout", GACCT_CELL_INT)
GACCT_COL(gr_cancelled, "cancelled", GACCT_CELL_INT)
GACCT_COL(gr_node_fail, "node_fail", GACCT_CELL_INT)
GACCT_COL(gr_gpu_hours, "gpu_seconds", GACCT_CELL_HOURS)
GACCT_COL(gr_capacity, "capacity_seconds", GACCT_CELL_HOURS)
GACCT_COL(gr_idle, "idle_seconds", GACCT_CELL_HOURS)
GACCT_COL(gr_down, "down_seconds", GACCT_CELL_HOURS)
GACCT_COL(gr_drained, "drained_seconds", GACCT_CELL_HOURS)
GACCT_COL(gr_share, "share", GACCT_CELL_PCT)
GACCT_COL(gr_util, "utilization", GACCT_CELL_PCT)
GACCT_COL(gr_jct_avg, "jct_avg", GACCT_CELL_SECS)
GACCT_COL(gr_jct_median, "jct_median", GACCT_CELL_INT)
GACCT_COL(gr_jct_p95, "jct_p95", GACCT_CELL_INT)
GACCT_COL(gr_wait_avg, "wait_avg", GACCT_CELL_SECS)
GACCT_COL(gr_wait_median, "wait_median", GACCT_CELL_SECS)
GACCT_COL(gr_wait_p95, "wait_p95", GACCT_CELL_SECS)
GACCT_COL(gr_preemptions, "preemptions", GACCT_CELL_INT)

#define GACCT_JOB_COLS							\
	{ "jobs", "JOBS", true, gr_jobs },				\
	{ "completed", "CD", true, gr_completed },			\
	{ "failed", "F", true, gr_failed },				\
	{ "timeout", "TO", true, gr_timeout },				\
	{ "cancelled", "CA", true, gr_cancelled },			\
	{ "node_fail", "NF", true, gr_node_fail },			\
	{ "jct_avg", "JCT_AVG", true, gr_jct_avg },			\
	{ "jct_median", "JCT_MED", true, gr_jct_median },		\
	{ "jct_p95", "JCT_P95", true, gr_jct_p95 },			\
	{ "wait_avg", "WAIT_AVG", true, gr_wait_avg }

static const struct table_col gacct_users_cols[] = {
	{ "user", "USER", false, gr_user },
	GACCT_JOB_COLS,
	{ "preemptions", "PREEMPT", true, gr_preemptions },
	{ "gpu_hours", "GPU_HOURS", true, gr_gpu_hours },
	{ "share", "SHARE%", true, gr_share },
};

static const struct table_col gacct_cluster_cols[] = {
	{ "group", "GROUP", false, gr_group },
	{ "key", "KEY", false, gr_key },
	GACCT_JOB_COLS,
	{ "wait_median", "WAIT_MED", true, gr_wait_median },
	{ "wait_p95", "WAIT_P95", true, gr_wait_p95 },
	{ "preemptions", "PREEMPT", true, gr_preemptions },
	{ "gpu_hours", "GPU_HOURS", true, gr_gpu_hours },
	{ "capacity_hours", "CAPACITY", true, gr_capacity },
	{ "idle_hours", "IDLE", true, gr_idle },
	{ "utilization", "UTIL%", true, gr_util },
	{ "down_gpu_hours", "DOWN", true, gr_down },
	{ "drained_gpu_hours", "DRAINED", true, gr_drained },
};

static const struct table_col gacct_nodes_cols[] = {
	{ "node", "NODE", false, gr_node },
	{ "gpus", "GPUS", true, gr_gpus },
	{ "gpu_hours", "GPU_HOURS", true, gr_gpu_hours },
	{ "capacity_hours", "CAPACITY", true, gr_capacity },
	{ "utilization", "UTIL%", true, gr_util },
	{ "down_hours", "DOWN_H", true, gr_down },
	{ "drained_hours", "DRAINED_H", true, gr_drained },
};

#define GACCT_NCOLS(a)	(sizeof (a) / sizeof (a)[0])

static const struct gacct_report_kind {
	const char		*name;
	const struct table_col	*cols;
	size_t			 ncols;
	const char		*defaults;
} gacct_reports[] = {
	{ "users", gacct_users_cols, GACCT_NCOLS(gacct_users_cols),
	    "user,jobs,completed,failed,timeout,cancelled,node_fail,"
	    "gpu_hours,share,jct_avg,jct_median,jct_p95,wait_avg,"
	    "preemptions" },
	{ "cluster", gacct_cluster_cols, GACCT_NCOLS(gacct_cluster_cols),
	    "group,key,jobs,completed,failed,timeout,cancelled,node_fail,"
	    "jct_avg,jct_median,jct_p95,wait_avg,wait_median,wait_p95,"
	    "gpu_hours,idle_hours,utilization" },
	{ "nodes", gacct_nodes_cols, GACCT_NCOLS(gacct_nodes_cols),
	    "node,gpus,gpu_hours,capacity_hours,utilization,down_hours,"
	    "drained_hours" },
};

int
gacct_report_parse(const char *name, char *err, size_t errlen)
{
	size_t	i;

	for (i = 0; i < GACCT_NCOLS(gacct_reports); i++) {
		if (strcmp(name, gacct_reports[i].name) == 0)
			return ((int)i);
	}
	snprintf(err, errlen, "--report: expected users, cluster or nodes, "
	    "got \"%s\"", name);
	return (-1);
}

const char *
gacct_report_name(int kind)
{
	return (gacct_reports[kind].name);
}

struct table *
gacct_report_table(int kind)
{
	return (table_create(gacct_reports[kind].cols,
	    gacct_reports[kind].ncols, gacct_reports[kind].defaults));
}

char *
gacct_report_fields(int kind)
{
	return (table_field_names(gacct_reports[kind].cols,
	    gacct_reports[kind].ncols));
}

int
gacct_report_print(json_t *reply, struct table *t, bool json)
{
	json_t		*rows = json_object_get(reply, "rows");
	json_t		*out;
	const char	*k;
	size_t		 i;

	if (!json_is_array(rows)) {
		fprintf(stderr, "gacct: bad reply from gbatchd: no rows\n");
		return (-1);
	}
	if (json) {
		out = json_object();
		for (i = 0; i < 3; i++) {
			k = i == 0 ? "report" : i == 1 ? "since" : "until";
			if (json_object_get(reply, k) != NULL)
				json_object_set(out, k, json_object_get(reply,
				    k));
		}
		json_object_set(out, "rows", rows);
		cmd_json_print(out, JSON_INDENT(2));
		json_decref(out);
		return (0);
	}
	for (i = 0; i < json_array_size(rows); i++) {
		if (!json_is_object(json_array_get(rows, i))) {
			fprintf(stderr, "gacct: bad reply from gbatchd: a row "
			    "is not an object\n");
			return (-1);
		}
		table_add(t, json_array_get(rows, i), NULL);
	}
	return (0);
}
