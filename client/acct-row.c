/* acct-row.c: the rows of a JOB_ACCT report (acct-row.h). The wire
 * carries seconds; the columns show hours (2 decimals), percentages (1
 * decimal) and seconds. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "client/acct-row.h"

enum acct_row_cell {
	ACCT_ROW_CELL_TEXT,
	ACCT_ROW_CELL_INT,
	ACCT_ROW_CELL_HOURS,	/* seconds shown as hours */
	ACCT_ROW_CELL_PCT,
	ACCT_ROW_CELL_SECS,	/* seconds, 1 decimal */
	ACCT_ROW_CELL_DATE,	/* seconds since the epoch, local ISO 8601 */
	ACCT_ROW_CELL_NUM,	/* a number as it is (0.5, 2, 1000) */
};

/* A null or absent figure is an empty cell. */
static const char *
acct_row_report_cell(const void *row, const char *key, enum acct_row_cell kind,
    char *buf, size_t len)
{
	const json_t	*v = json_object_get(row, key);
	time_t		 t;
	struct tm	 tm;

	if (v == NULL || json_is_null(v))
		return ("");
	switch (kind) {
	case ACCT_ROW_CELL_TEXT:
		return (json_string_value(v) != NULL ? json_string_value(v) :
		    "");
	case ACCT_ROW_CELL_INT:
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
		break;
	case ACCT_ROW_CELL_HOURS:
		snprintf(buf, len, "%.2f", json_number_value(v) / 3600);
		break;
	case ACCT_ROW_CELL_PCT:
	case ACCT_ROW_CELL_SECS:
		snprintf(buf, len, "%.1f", json_number_value(v));
		break;
	case ACCT_ROW_CELL_NUM:
		snprintf(buf, len, "%.7g", json_number_value(v));
		break;
	case ACCT_ROW_CELL_DATE:
		t = (time_t)json_integer_value(v);
		if (localtime_r(&t, &tm) == NULL ||
		    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
			return ("");
		break;
	}
	return (buf);
}

#define ACCT_ROW_COL(fn, key, kind)					\
static const char *							\
fn(const void *row, const void *ctx, char *buf, size_t len)		\
{									\
	(void)ctx;							\
	return (acct_row_report_cell(row, key, kind, buf, len));		\
}
ACCT_ROW_COL(ar_user, "user", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_account, "account", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_parent, "parent", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_partition, "partition", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_qos, "qos", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_factor, "usage_factor", ACCT_ROW_CELL_NUM)
ACCT_ROW_COL(ar_month, "month", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_budget, "budget_seconds", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_used, "used_seconds", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_used_charged, "used_seconds_charged", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_used_pct, "used_pct", ACCT_ROW_CELL_PCT)
ACCT_ROW_COL(ar_shares, "shares", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_norm_shares, "norm_shares", ACCT_ROW_CELL_NUM)
ACCT_ROW_COL(ar_raw_usage, "raw_usage", ACCT_ROW_CELL_SECS)
ACCT_ROW_COL(ar_norm_usage, "norm_usage", ACCT_ROW_CELL_NUM)
ACCT_ROW_COL(ar_effective_usage, "effective_usage", ACCT_ROW_CELL_NUM)
ACCT_ROW_COL(ar_level_fs, "level_fs", ACCT_ROW_CELL_NUM)
ACCT_ROW_COL(ar_fs_factor, "factor", ACCT_ROW_CELL_NUM)
ACCT_ROW_COL(ar_standing, "standing", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_node, "node", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_group, "group", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_key, "key", ACCT_ROW_CELL_TEXT)
ACCT_ROW_COL(ar_gpus, "gpus", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_jobs, "jobs", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_completed, "completed", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_failed, "failed", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_timeout, "timeout", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_cancelled, "cancelled", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_node_fail, "node_fail", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_oom, "out_of_memory", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_gpu_hours, "gpu_seconds", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_gpu_hours_charged, "gpu_seconds_charged", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_capacity, "capacity_seconds", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_idle, "idle_seconds", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_down, "down_seconds", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_drained, "drained_seconds", ACCT_ROW_CELL_HOURS)
ACCT_ROW_COL(ar_share, "share", ACCT_ROW_CELL_PCT)
ACCT_ROW_COL(ar_util, "utilization", ACCT_ROW_CELL_PCT)
ACCT_ROW_COL(ar_jct_avg, "jct_avg", ACCT_ROW_CELL_SECS)
ACCT_ROW_COL(ar_jct_median, "jct_median", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_jct_p95, "jct_p95", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_wait_avg, "wait_avg", ACCT_ROW_CELL_SECS)
ACCT_ROW_COL(ar_wait_median, "wait_median", ACCT_ROW_CELL_SECS)
ACCT_ROW_COL(ar_wait_p95, "wait_p95", ACCT_ROW_CELL_SECS)
ACCT_ROW_COL(ar_preemptions, "preemptions", ACCT_ROW_CELL_INT)
ACCT_ROW_COL(ar_start, "start", ACCT_ROW_CELL_DATE)
ACCT_ROW_COL(ar_end, "end", ACCT_ROW_CELL_DATE)
ACCT_ROW_COL(ar_running, "running", ACCT_ROW_CELL_SECS)
ACCT_ROW_COL(ar_waiting, "waiting", ACCT_ROW_CELL_SECS)

/* Where GPU-hours come as run and charged. */
#define ACCT_ROW_CHARGED_COLS						\
	{ "preemptions", "PREEMPT", true, ar_preemptions },		\
	{ "gpu_hours", "GPU_HOURS", true, ar_gpu_hours },		\
	{ "gpu_hours_charged", "GPU_H_CHARGED", true, ar_gpu_hours_charged }, \
	{ "share", "SHARE%", true, ar_share }

#define ACCT_ROW_JOB_COLS							\
	{ "jobs", "JOBS", true, ar_jobs },				\
	{ "completed", "CD", true, ar_completed },			\
	{ "failed", "F", true, ar_failed },				\
	{ "timeout", "TO", true, ar_timeout },				\
	{ "cancelled", "CA", true, ar_cancelled },			\
	{ "node_fail", "NF", true, ar_node_fail },			\
	{ "out_of_memory", "OOM", true, ar_oom },			\
	{ "jct_avg", "JCT_AVG", true, ar_jct_avg },			\
	{ "jct_median", "JCT_MED", true, ar_jct_median },		\
	{ "jct_p95", "JCT_P95", true, ar_jct_p95 },			\
	{ "wait_avg", "WAIT_AVG", true, ar_wait_avg }

static const struct table_col acct_row_users_cols[] = {
	{ "user", "USER", false, ar_user },
	ACCT_ROW_JOB_COLS,
	{ "preemptions", "PREEMPT", true, ar_preemptions },
	{ "gpu_hours", "GPU_HOURS", true, ar_gpu_hours },
	{ "share", "SHARE%", true, ar_share },
};

/* An account: its jobs and GPU-hours over the range, as a user's, as run
 * and charged (each run's QOS's usage factor applied); then its month's
 * budget (GPU-hours), what it and the accounts below it used this month,
 * whatever the range, as run and charged, and the percentage of the
 * budget the charged use is. */
static const struct table_col acct_row_accounts_cols[] = {
	{ "account", "ACCOUNT", false, ar_account },
	{ "parent", "PARENT", false, ar_parent },
	ACCT_ROW_JOB_COLS,
	ACCT_ROW_CHARGED_COLS,
	{ "month", "MONTH", false, ar_month },
	{ "budget_hours", "BUDGET_H", true, ar_budget },
	{ "used_hours", "USED_H", true, ar_used },
	{ "used_hours_charged", "USED_H_CHARGED", true, ar_used_charged },
	{ "used_pct", "USED%", true, ar_used_pct },
};

/* A QOS: its usage factor as the settings have it now, its jobs and
 * GPU-hours over the range, as run and charged. */
static const struct table_col acct_row_qos_cols[] = {
	{ "qos", "QOS", false, ar_qos },
	{ "usage_factor", "FACTOR", true, ar_factor },
	ACCT_ROW_JOB_COLS,
	ACCT_ROW_CHARGED_COLS,
};

/* Fair share's line of an account (user empty) or a user's association:
 * shares, their share of their siblings' down the tree, usage (GPU-s,
 * decayed) and its share of the root's and of the parent's, the level
 * fair share (empty: no usage), a user's factor and standing (0 first). */
static const struct table_col acct_row_fairshare_cols[] = {
	{ "account", "ACCOUNT", false, ar_account },
	{ "user", "USER", false, ar_user },
	{ "shares", "SHARES", true, ar_shares },
	{ "norm_shares", "NORM_SHARES", true, ar_norm_shares },
	{ "raw_usage", "RAW_USAGE", true, ar_raw_usage },
	{ "norm_usage", "NORM_USAGE", true, ar_norm_usage },
	{ "effective_usage", "EFFECTV_USAGE", true, ar_effective_usage },
	{ "level_fs", "LEVEL_FS", true, ar_level_fs },
	{ "fairshare", "FAIRSHARE", true, ar_fs_factor },
	{ "standing", "STANDING", true, ar_standing },
};

static const struct table_col acct_row_partitions_cols[] = {
	{ "partition", "PARTITION", false, ar_partition },
	ACCT_ROW_JOB_COLS,
	{ "preemptions", "PREEMPT", true, ar_preemptions },
	{ "gpu_hours", "GPU_HOURS", true, ar_gpu_hours },
	{ "share", "SHARE%", true, ar_share },
};

static const struct table_col acct_row_cluster_cols[] = {
	{ "group", "GROUP", false, ar_group },
	{ "key", "KEY", false, ar_key },
	ACCT_ROW_JOB_COLS,
	{ "wait_median", "WAIT_MED", true, ar_wait_median },
	{ "wait_p95", "WAIT_P95", true, ar_wait_p95 },
	{ "preemptions", "PREEMPT", true, ar_preemptions },
	{ "gpu_hours", "GPU_HOURS", true, ar_gpu_hours },
	{ "capacity_hours", "CAPACITY", true, ar_capacity },
	{ "idle_hours", "IDLE", true, ar_idle },
	{ "utilization", "UTIL%", true, ar_util },
	{ "down_gpu_hours", "DOWN", true, ar_down },
	{ "drained_gpu_hours", "DRAINED", true, ar_drained },
};

static const struct table_col acct_row_nodes_cols[] = {
	{ "node", "NODE", false, ar_node },
	{ "gpus", "GPUS", true, ar_gpus },
	{ "gpu_hours", "GPU_HOURS", true, ar_gpu_hours },
	{ "capacity_hours", "CAPACITY", true, ar_capacity },
	{ "utilization", "UTIL%", true, ar_util },
	{ "down_hours", "DOWN_H", true, ar_down },
	{ "drained_hours", "DRAINED_H", true, ar_drained },
};

/* A bin of a cluster report's series. */
static const struct table_col acct_row_timeline_cols[] = {
	{ "start", "START", false, ar_start },
	{ "end", "END", false, ar_end },
	{ "jobs", "JOBS", true, ar_jobs },
	{ "gpu_hours", "GPU_HOURS", true, ar_gpu_hours },
	{ "capacity_hours", "CAPACITY", true, ar_capacity },
	{ "utilization", "UTIL%", true, ar_util },
	{ "running", "RUNNING", true, ar_running },
	{ "waiting", "WAITING", true, ar_waiting },
};

#define ACCT_ROW_NCOLS(a)	(sizeof (a) / sizeof (a)[0])

static const struct acct_row_report_kind {
	const char		*name;
	const struct table_col	*cols;
	size_t			 ncols;
	const char		*defaults;
} acct_row_reports[] = {
	{ "users", acct_row_users_cols, ACCT_ROW_NCOLS(acct_row_users_cols),
	    "user,jobs,completed,failed,timeout,cancelled,node_fail,"
	    "gpu_hours,share,jct_avg,jct_median,jct_p95,wait_avg,"
	    "preemptions" },
	{ "cluster", acct_row_cluster_cols, ACCT_ROW_NCOLS(acct_row_cluster_cols),
	    "group,key,jobs,completed,failed,timeout,cancelled,node_fail,"
	    "jct_avg,jct_median,jct_p95,wait_avg,wait_median,wait_p95,"
	    "gpu_hours,idle_hours,utilization" },
	{ "nodes", acct_row_nodes_cols, ACCT_ROW_NCOLS(acct_row_nodes_cols),
	    "node,gpus,gpu_hours,capacity_hours,utilization,down_hours,"
	    "drained_hours" },
	{ "timeline", acct_row_timeline_cols,
	    ACCT_ROW_NCOLS(acct_row_timeline_cols),
	    "start,end,jobs,gpu_hours,capacity_hours,utilization,running,"
	    "waiting" },
	{ "accounts", acct_row_accounts_cols,
	    ACCT_ROW_NCOLS(acct_row_accounts_cols),
	    "account,parent,jobs,completed,failed,timeout,cancelled,"
	    "gpu_hours,gpu_hours_charged,share,budget_hours,used_hours,"
	    "used_hours_charged,used_pct" },
	{ "partitions", acct_row_partitions_cols,
	    ACCT_ROW_NCOLS(acct_row_partitions_cols),
	    "partition,jobs,completed,failed,timeout,cancelled,node_fail,"
	    "gpu_hours,share,jct_avg,wait_avg" },
	{ "qos", acct_row_qos_cols, ACCT_ROW_NCOLS(acct_row_qos_cols),
	    "qos,usage_factor,jobs,completed,failed,timeout,cancelled,"
	    "node_fail,gpu_hours,gpu_hours_charged,share,jct_avg,wait_avg" },
	{ "fairshare", acct_row_fairshare_cols,
	    ACCT_ROW_NCOLS(acct_row_fairshare_cols),
	    "account,user,shares,norm_shares,raw_usage,effective_usage,"
	    "level_fs,fairshare" },
};

int
acct_row_parse(const char *name, char *err, size_t errlen)
{
	size_t	i;

	for (i = 0; i < ACCT_ROW_NCOLS(acct_row_reports); i++) {
		if (strcmp(name, acct_row_reports[i].name) == 0)
			return ((int)i);
	}
	snprintf(err, errlen, "--report: expected users, cluster, nodes, "
	    "timeline, accounts, partitions or qos, got \"%s\"", name);
	return (-1);
}

const char *
acct_row_name(int kind)
{
	return (acct_row_reports[kind].name);
}

struct table *
acct_row_table(int kind, const char *fields)
{
	return (table_create(acct_row_reports[kind].cols,
	    acct_row_reports[kind].ncols, fields != NULL ? fields :
	    acct_row_reports[kind].defaults));
}

char *
acct_row_fields(int kind)
{
	return (table_field_names(acct_row_reports[kind].cols,
	    acct_row_reports[kind].ncols));
}

