/* store-acct.c: accounting queries on a read-only connection. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/job-req.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/acct-report.h"
#include "daemon/controller/budget.h"
#include "daemon/controller/store-acct.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store-sql.h"

struct store_acct {
	sqlite3_stmt	*jobs;
	sqlite3_stmt	*runs;
	int		 pos[JF_COUNT];	/* where jobs puts each field */
};


/* The query's filters are parameters; a list is a JSON array read with
 * json_each, so no SQL is ever made from what a client sent. */
#define STORE_ACCT_WHERE						\
	" WHERE " STORE_SQL_FINISHED " AND end_time >= :since AND"	\
	" end_time < :until AND"					\
	" (:users IS NULL OR user IN (SELECT value FROM json_each(:users)))" \
	" AND (:states IS NULL OR state IN (SELECT value FROM"		\
	" json_each(:states))) AND (:ids IS NULL OR id IN (SELECT value"	\
	" FROM json_each(:ids) WHERE type = 'integer') OR array_job_id IN"	\
	" (SELECT value FROM json_each(:ids) WHERE type = 'integer') OR"	\
	" (array_job_id != 0 AND array_job_id || '_' || array_task_id IN"	\
	" (SELECT value FROM json_each(:ids) WHERE type = 'text')))"	\
	" AND (:accounts IS NULL OR account IN"				\
	" (SELECT value FROM json_each(:accounts))) AND (:partitions IS"	\
	" NULL OR EXISTS (SELECT 1 FROM json_each(:partitions) WHERE"	\
	" instr(',' || partition || ',', ',' || value || ',') > 0))"	\
	" ORDER BY end_time, id"

static void
store_acct_bind(sqlite3_stmt *st, const char *name, const char *text)
{
	int	i = sqlite3_bind_parameter_index(st, name);

	if (i == 0)
		return;
	if (text == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
}

struct store_acct *
store_acct_open(const struct store_acct_query *q, char *err, size_t errlen)
{
	struct store_acct	*a;
	sqlite3			*db;
	char			*sql;
	int			 rc;

	if ((db = store_reader(err, errlen)) == NULL)
		return (NULL);
	a = xcalloc(1, sizeof *a);
	/* Only the columns the reply is written from: over a year of
	 * jobs, reading every column of every row costs more than the
	 * search itself. */
	sql = store_sql_job_select_only(false, q->fields, STORE_ACCT_WHERE,
	    a->pos);
	rc = sqlite3_prepare_v2(db, sql, -1, &a->jobs, NULL);
	free(sql);
	if (rc != SQLITE_OK || sqlite3_prepare_v2(db, "SELECT run,"
	    " start_time, end_time, gpus, alloc, end_state, exit_code, signal,"
	    " preempt_time FROM job_runs WHERE job_id = :job ORDER BY id", -1,
	    &a->runs, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "accounting query: %s",
		    sqlite3_errmsg(db));
		store_acct_close(a);
		return (NULL);
	}
	sqlite3_bind_int64(a->jobs, sqlite3_bind_parameter_index(a->jobs,
	    ":since"), q->since);
	sqlite3_bind_int64(a->jobs, sqlite3_bind_parameter_index(a->jobs,
	    ":until"), q->until);
	store_acct_bind(a->jobs, ":users", q->users);
	store_acct_bind(a->jobs, ":states", q->states);
	store_acct_bind(a->jobs, ":ids", q->ids);
	store_acct_bind(a->jobs, ":accounts", q->accounts);
	store_acct_bind(a->jobs, ":partitions", q->partitions);
	return (a);
}

int
store_acct_next(struct store_acct *a, struct store_job *row, char *err,
    size_t errlen)
{
	int	rc;

	rc = sqlite3_step(a->jobs);
	if (rc == SQLITE_ROW) {
		store_job_read_at(a->jobs, a->pos, row);
		return (1);
	}
	if (rc == SQLITE_DONE)
		return (0);
	snprintf(err, errlen, "accounting query: %s",
	    sqlite3_errmsg(sqlite3_db_handle(a->jobs)));
	return (-1);
}

int
store_acct_runs(struct store_acct *a, uint64_t id, store_run_cb cb,
    void *arg)
{
	sqlite3_stmt		*st = a->runs;
	struct store_run	 r;
	int			 rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		store_run_read(st, &r);
		cb(&r, arg);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		log_error("job %" PRIu64 ": reading its runs: %s", id,
		    sqlite3_errmsg(sqlite3_db_handle(st)));
		return (-1);
	}
	return (0);
}

void
store_acct_close(struct store_acct *a)
{
	if (a == NULL)
		return;
	sqlite3_finalize(a->jobs);
	sqlite3_finalize(a->runs);
	free(a);
}

/* The statements of a report, in the order they are read. */
enum store_acct_phase {
	STORE_ACCT_JOBS,
	STORE_ACCT_RUNS,
	STORE_ACCT_OPEN_RUNS,
	STORE_ACCT_NODE_ROWS,
	STORE_ACCT_EVENTS,
	STORE_ACCT_ACTIVE,
	STORE_ACCT_LATER,
	STORE_ACCT_NPHASES
};

/* What the rows are keyed by (the first column of the jobs and runs
 * read; store-acct.h), in jobs and in job_runs. */
#define STORE_ACCT_JOB_PARTITION					\
	"COALESCE((SELECT r.partition FROM job_runs r WHERE r.job_id ="	\
	" jobs.id ORDER BY r.id DESC LIMIT 1), CASE WHEN partition = ''"	\
	" THEN 'gbatch' WHEN instr(partition, ',') > 0 THEN"		\
	" substr(partition, 1, instr(partition, ',') - 1) ELSE partition"	\
	" END)"
#define STORE_ACCT_QOS_KEY						\
	"CASE WHEN qos = '' THEN :qos_default ELSE qos END"
/* And what the runs' weights are read from: their QOS where a report
 * shows what they are charged; elsewhere nothing, so that the runs are
 * read from job_runs_end alone. */
static const struct {
	const char	*job;
	const char	*run;
	const char	*weight;
} store_acct_keys[STORE_ACCT_NREPORTS] = {
	[STORE_ACCT_USERS] = { "user", "user", "NULL" },
	[STORE_ACCT_CLUSTER] = { "user", "user", "NULL" },
	[STORE_ACCT_NODES] = { "user", "user", "NULL" },
	[STORE_ACCT_ACCOUNTS] = { "account", "account", "qos" },
	[STORE_ACCT_PARTITIONS] = { STORE_ACCT_JOB_PARTITION, "partition",
	    "NULL" },
	[STORE_ACCT_QOS] = { STORE_ACCT_QOS_KEY, STORE_ACCT_QOS_KEY, "qos" },
};

/* The statements, %s where the key goes (in the first three) and the
 * runs' weights. */
static const char *const store_acct_report_sql[STORE_ACCT_NPHASES] = {
	/* From jobs_acct alone (or jobs_user_end with users). */
	[STORE_ACCT_JOBS] = "SELECT %s, state, gpus, submit_time, end_time,"
	    " queue_delay, preemptions, last_queue FROM jobs WHERE "
	    STORE_SQL_FINISHED " AND end_time >= :since AND end_time < :until"
	    " AND (:users IS NULL OR"
	    " user IN (SELECT value FROM json_each(:users))) AND (:states IS"
	    " NULL OR state IN (SELECT value FROM json_each(:states)))",
	/* Runs that ended after since, and runs still going: two ranges of
	 * job_runs_end, read as two statements (as one, with OR, SQLite
	 * gathered their rowids in a set first, a third of the read). Those
	 * that started at or after until are left out here rather than
	 * read. A run that ended at since counts 0; since is never below 0,
	 * so no run is in both. */
	[STORE_ACCT_RUNS] = "SELECT %s, start_time, end_time, gpus, alloc,"
	    " %s FROM job_runs WHERE end_time > :since AND start_time <"
	    " :until",
	[STORE_ACCT_OPEN_RUNS] = "SELECT %s, start_time, end_time, gpus,"
	    " alloc, %s FROM job_runs WHERE end_time = 0 AND start_time <"
	    " :until",
	[STORE_ACCT_NODE_ROWS] = "SELECT name, gpus, (SELECT state FROM"
	    " node_events e WHERE e.node = nodes.name AND e.time < :since AND"
	    " e.state IN ('UP', 'DOWN') ORDER BY e.time DESC, e.id DESC LIMIT"
	    " 1), (SELECT state FROM node_events e WHERE e.node = nodes.name"
	    " AND e.time < :since AND e.state IN ('DRAINED', 'RESUMED') ORDER"
	    " BY e.time DESC, e.id DESC LIMIT 1) FROM nodes",
	[STORE_ACCT_EVENTS] = "SELECT node, time, state FROM node_events WHERE"
	    " time >= :since AND time < :until ORDER BY node, time, id",
	/* For a series, the jobs alive at until: those not finished (the
	 * scheduler's, through jobs_state), and those that finished later
	 * (a range of jobs_acct; none when until is now). */
	[STORE_ACCT_ACTIVE] = "SELECT submit_time FROM jobs WHERE "
	    STORE_SQL_ACTIVE " AND submit_time < :until",
	[STORE_ACCT_LATER] = "SELECT submit_time FROM jobs WHERE"
	    " end_time >= :until AND " STORE_SQL_FINISHED " AND"
	    " submit_time < :until",
};

struct store_acct_rep {
	sqlite3		*db;		/* the shared connection or its own */
	bool		 own;
	/* The query's weights of the runs. */
	uint32_t	(*weigh)(const char *qos, const void *arg);
	const void	*weigh_arg;
	sqlite3_stmt	*st[STORE_ACCT_NPHASES];
	int		 phase;
};

struct store_acct_rep *
store_acct_report_open(const struct store_acct_query *q,
    enum store_acct_report kind, unsigned parts, char *err, size_t errlen)
{
	struct store_acct_rep	*a;
	sqlite3_stmt		*st;
	const char		*path = store_path();
	char			*sql;
	int			 i, idx, rc;
	bool			 keyed = kind != STORE_ACCT_CLUSTER &&
				     kind != STORE_ACCT_NODES;

	a = xcalloc(1, sizeof *a);
	a->weigh = q->weigh;
	a->weigh_arg = q->weigh_arg;
	if ((parts & STORE_ACCT_PART_OWN) == 0) {
		if ((a->db = store_reader(err, errlen)) == NULL) {
			free(a);
			return (NULL);
		}
	} else {
		/* Another thread reads through it: a connection that no
		 * other statement uses (SQLite's multi-thread mode). */
		a->own = true;
		if (path == NULL || sqlite3_open_v2(path, &a->db,
		    SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
		    SQLITE_OK) {
			snprintf(err, errlen, "%s: %s", path != NULL ? path :
			    "the database", path == NULL ? "not open" :
			    a->db == NULL ? "out of memory" :
			    sqlite3_errmsg(a->db));
			store_acct_report_close(a);
			return (NULL);
		}
		sqlite3_busy_timeout(a->db, 5000);
	}
	for (i = 0; i < STORE_ACCT_NPHASES; i++) {
		if ((i == STORE_ACCT_JOBS && kind == STORE_ACCT_NODES) ||
		    (i >= STORE_ACCT_NODE_ROWS && keyed) ||
		    (i >= STORE_ACCT_ACTIVE && !q->alive) ||
		    (i == STORE_ACCT_JOBS &&
		    (parts & STORE_ACCT_PART_JOBS) == 0) ||
		    (i != STORE_ACCT_JOBS &&
		    (parts & STORE_ACCT_PART_REST) == 0))
			continue;
		if (i == STORE_ACCT_JOBS)
			sql = xasprintf(store_acct_report_sql[i],
			    store_acct_keys[kind].job);
		else if (i <= STORE_ACCT_OPEN_RUNS)
			sql = xasprintf(store_acct_report_sql[i],
			    store_acct_keys[kind].run,
			    store_acct_keys[kind].weight);
		else
			sql = xstrdup(store_acct_report_sql[i]);
		rc = sqlite3_prepare_v2(a->db, sql, -1, &a->st[i], NULL);
		free(sql);
		if (rc != SQLITE_OK) {
			snprintf(err, errlen, "accounting report: %s",
			    sqlite3_errmsg(a->db));
			store_acct_report_close(a);
			return (NULL);
		}
		st = a->st[i];
		if ((idx = sqlite3_bind_parameter_index(st, ":since")) != 0)
			sqlite3_bind_int64(st, idx, q->since);
		if ((idx = sqlite3_bind_parameter_index(st, ":until")) != 0)
			sqlite3_bind_int64(st, idx, q->until);
		store_acct_bind(st, ":users", q->users);
		store_acct_bind(st, ":states", q->states);
		store_acct_bind(st, ":qos_default", q->qos_default != NULL ?
		    q->qos_default : JOB_REQ_QOS);
	}
	return (a);
}

/* The state an UP/DOWN or DRAINED/RESUMED text says (1: up or drained),
 * -1 for NULL (no event). */
static int
store_acct_state(const char *s, const char *yes)
{
	if (s == NULL)
		return (-1);
	return (strcmp(s, yes) == 0);
}

static void
store_acct_feed(const struct store_acct_rep *a, sqlite3_stmt *st,
    struct acct_report *r)
{
	struct acct_report_job	 j;
	struct acct_report_run	 run;
	const char		*s;

	switch (a->phase) {
	case STORE_ACCT_JOBS:
		memset(&j, 0, sizeof j);
		j.user = store_column_text(st, 0);
		if (job_state_parse(store_column_text(st, 1), &j.state) != 0)
			return;
		j.gpus = (uint32_t)sqlite3_column_int64(st, 2);
		j.submit_time = sqlite3_column_int64(st, 3);
		j.end_time = sqlite3_column_int64(st, 4);
		j.queue_delay = sqlite3_column_int64(st, 5);
		j.preemptions = (uint32_t)sqlite3_column_int64(st, 6);
		j.last_queue = sqlite3_column_int(st, 7);
		acct_report_job(r, &j);
		break;
	case STORE_ACCT_RUNS:
	case STORE_ACCT_OPEN_RUNS:
		run.user = store_column_text(st, 0);
		run.start_time = sqlite3_column_int64(st, 1);
		run.end_time = sqlite3_column_int64(st, 2);
		run.gpus = (uint32_t)sqlite3_column_int64(st, 3);
		run.alloc = store_column_text(st, 4);
		run.weight = a->weigh == NULL || sqlite3_column_type(st, 5) ==
		    SQLITE_NULL ? BUDGET_MILLI : a->weigh(store_column_text(st,
		    5), a->weigh_arg);
		acct_report_run(r, &run);
		break;
	case STORE_ACCT_NODE_ROWS:
		acct_report_node(r, store_column_text(st, 0),
		    (uint32_t)sqlite3_column_int64(st, 1),
		    store_acct_state(store_column_text(st, 2), "UP"),
		    store_acct_state(store_column_text(st, 3), "DRAINED"));
		break;
	case STORE_ACCT_EVENTS:
		s = store_column_text(st, 2);
		acct_report_node_event(r, store_column_text(st, 0),
		    sqlite3_column_int64(st, 1), strcmp(s, "UP") == 0 ?
		    ACCT_NODE_UP : strcmp(s, "DOWN") == 0 ? ACCT_NODE_DOWN :
		    strcmp(s, "DRAINED") == 0 ? ACCT_NODE_DRAINED :
		    ACCT_NODE_RESUMED);
		break;
	case STORE_ACCT_ACTIVE:
	case STORE_ACCT_LATER:
		acct_report_alive(r, sqlite3_column_int64(st, 0));
		break;
	}
}

int
store_acct_report_step(struct store_acct_rep *a, struct acct_report *r,
    size_t max, char *err, size_t errlen)
{
	size_t	n = 0;
	int	rc = SQLITE_DONE;

	for (; a->phase < STORE_ACCT_NPHASES; a->phase++) {
		if (a->st[a->phase] == NULL)
			continue;
		while (n < max &&
		    (rc = sqlite3_step(a->st[a->phase])) == SQLITE_ROW) {
			store_acct_feed(a, a->st[a->phase], r);
			n++;
		}
		if (n == max)
			return (1);
		if (rc != SQLITE_DONE) {
			snprintf(err, errlen, "accounting report: %s",
			    rc == SQLITE_INTERRUPT ? "interrupted" :
			    sqlite3_errmsg(a->db));
			return (-1);
		}
	}
	return (0);
}

void
store_acct_report_close(struct store_acct_rep *a)
{
	int	i;

	if (a == NULL)
		return;
	for (i = 0; i < STORE_ACCT_NPHASES; i++)
		sqlite3_finalize(a->st[i]);
	if (a->own)
		sqlite3_close(a->db);
	free(a);
}

void
store_acct_report_interrupt(struct store_acct_rep *a)
{
	if (a != NULL && a->db != NULL)
		sqlite3_interrupt(a->db);
}
