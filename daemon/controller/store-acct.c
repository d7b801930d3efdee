/* store-acct.c: accounting queries on a read-only connection. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/store-acct.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store-sql.h"

struct store_acct {
	sqlite3_stmt	*jobs;
	sqlite3_stmt	*runs;
};

static sqlite3	*store_acct_db;

/* The query's filters are parameters; a list is a JSON array read with
 * json_each, so no SQL is ever made from what a client sent. */
#define STORE_ACCT_WHERE						\
	" WHERE state IN ('COMPLETED', 'FAILED', 'TIMEOUT', 'CANCELLED',"	\
	" 'NODE_FAIL') AND end_time >= :since AND end_time < :until AND"	\
	" (:users IS NULL OR user IN (SELECT value FROM json_each(:users)))" \
	" AND (:states IS NULL OR state IN (SELECT value FROM"		\
	" json_each(:states))) AND (:ids IS NULL OR id IN (SELECT value"	\
	" FROM json_each(:ids))) ORDER BY end_time, id"

static int
store_acct_connect(char *err, size_t errlen)
{
	const char	*path = store_path();

	if (store_acct_db != NULL)
		return (0);
	if (path == NULL) {
		snprintf(err, errlen, "the database is not open");
		return (-1);
	}
	if (sqlite3_open_v2(path, &store_acct_db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, store_acct_db == NULL ?
		    "out of memory" : sqlite3_errmsg(store_acct_db));
		sqlite3_close(store_acct_db);
		store_acct_db = NULL;
		return (-1);
	}
	sqlite3_busy_timeout(store_acct_db, 5000);
	return (0);
}

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
	int			 pos[JF_COUNT];
	char			*sql;
	int			 rc;

	if (store_acct_connect(err, errlen) != 0)
		return (NULL);
	a = xcalloc(1, sizeof *a);
	/* The same columns as every jobs SELECT: store_job_read's. */
	sql = store_sql_job_select(false, STORE_ACCT_WHERE, pos);
	rc = sqlite3_prepare_v2(store_acct_db, sql, -1, &a->jobs, NULL);
	free(sql);
	if (rc != SQLITE_OK || sqlite3_prepare_v2(store_acct_db, "SELECT run,"
	    " start_time, end_time, gpus, alloc, end_state, exit_code, signal,"
	    " preempt_time FROM job_runs WHERE job_id = :job ORDER BY id", -1,
	    &a->runs, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "accounting query: %s",
		    sqlite3_errmsg(store_acct_db));
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
	return (a);
}

int
store_acct_next(struct store_acct *a, struct store_job *row, char *err,
    size_t errlen)
{
	int	rc;

	rc = sqlite3_step(a->jobs);
	if (rc == SQLITE_ROW) {
		store_job_read(a->jobs, row);
		return (1);
	}
	if (rc == SQLITE_DONE)
		return (0);
	snprintf(err, errlen, "accounting query: %s",
	    sqlite3_errmsg(store_acct_db));
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
		    sqlite3_errmsg(store_acct_db));
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

void
store_acct_close_all(void)
{
	/* Queries still open belong to requests being torn down; the
	 * connection closes once the last statement is finalized. */
	if (store_acct_db != NULL)
		sqlite3_close_v2(store_acct_db);
	store_acct_db = NULL;
}
