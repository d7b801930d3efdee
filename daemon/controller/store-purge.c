/* store-purge.c: retention's SQL (purge.h decides when and how much).
 *
 * A batch is the oldest finished jobs after a position, with their runs,
 * their events and the texts (scripts, environments) that no job points at
 * once they are gone. Texts are shared between jobs (store.c), so a text
 * goes only when no row of jobs names it any more, whoever's it was; the
 * indexes of schema 6 make that check a search.
 *
 * A batch writes into the group transaction, like every other write, but
 * inside a savepoint: it goes whole or not at all, and a failure in its
 * middle never leaves a job without its runs for the commit to keep.
 *
 * job_texts has no AUTOINCREMENT, so SQLite may give a purged text's id to
 * the next text it stores. store.c remembers recent texts by id to share
 * them, so a batch that deleted any text makes it forget them all. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "common/log.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store.h"

/* The jobs after :t, :id in (end_time, id) order that ended before
 * :cutoff: a range of the jobs_acct index, read in its order. Jobs that
 * never ended have end_time 0. */
#define STORE_PURGE_RANGE						\
	" FROM jobs WHERE end_time > 0 AND end_time < :cutoff AND"	\
	" end_time >= :t AND (end_time > :t OR id > :id)"


static const char *const store_purge_sqls[STORE_NSTMTS] = {
	[STORE_PURGE_SAVEPOINT] = "SAVEPOINT purge",
	[STORE_PURGE_RELEASE] = "RELEASE purge",
	[STORE_PURGE_ROLLBACK] = "ROLLBACK TO purge",
	[STORE_PURGE_PICK] = "INSERT INTO temp.purge_batch (id, end_time,"
	    " script_id, env_id) SELECT id, end_time, script_id, env_id"
	    STORE_PURGE_RANGE " AND " STORE_SQL_FINISHED
	    " ORDER BY end_time, id LIMIT :max",
	[STORE_PURGE_LAST] = "SELECT end_time, id FROM temp.purge_batch"
	    " ORDER BY end_time DESC, id DESC LIMIT 1",
	[STORE_PURGE_RUNS] = "DELETE FROM job_runs WHERE job_id IN"
	    " (SELECT id FROM temp.purge_batch)",
	[STORE_PURGE_STEPS] = "DELETE FROM job_steps WHERE job_id IN"
	    " (SELECT id FROM temp.purge_batch)",
	[STORE_PURGE_EVENTS] = "DELETE FROM job_events WHERE job_id IN"
	    " (SELECT id FROM temp.purge_batch)",
	[STORE_PURGE_JOBS] = "DELETE FROM jobs WHERE id IN"
	    " (SELECT id FROM temp.purge_batch)",
	/* Jobs of schema 1 keep their texts inline, with ids 0: no row. */
	[STORE_PURGE_TEXTS] = "DELETE FROM job_texts WHERE id IN"
	    " (SELECT script_id FROM temp.purge_batch UNION"
	    " SELECT env_id FROM temp.purge_batch) AND NOT EXISTS"
	    " (SELECT 1 FROM jobs WHERE script_id = job_texts.id) AND"
	    " NOT EXISTS (SELECT 1 FROM jobs WHERE env_id = job_texts.id)",
	[STORE_PURGE_CLEAR] = "DELETE FROM temp.purge_batch",
	[STORE_PURGE_SCAN] = "SELECT end_time, id, " STORE_SQL_FINISHED
	    STORE_PURGE_RANGE " ORDER BY end_time, id LIMIT :max",
	[STORE_PURGE_NODE_EVENTS] = "DELETE FROM node_events WHERE id IN"
	    " (SELECT id FROM node_events WHERE time < :cutoff ORDER BY time"
	    " LIMIT :max)",
};

const char *
store_purge_sql(enum store_stmt i)
{
	return (store_purge_sqls[i]);
}

int
store_purge_open(char *err, size_t errlen)
{
	sqlite3	*db = store_handle();
	char	*msg = NULL;

	/* A temporary table is this connection's alone: the batch's ids,
	 * so that each DELETE names the same jobs. */
	if (sqlite3_exec(db, "CREATE TEMP TABLE IF NOT EXISTS purge_batch ("
	    " id INTEGER PRIMARY KEY, end_time INTEGER NOT NULL,"
	    " script_id INTEGER NOT NULL, env_id INTEGER NOT NULL)", NULL,
	    NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "making the purge's table: %s",
		    msg != NULL ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return (-1);
	}
	return (0);
}

static void
store_purge_bind(sqlite3_stmt *st, const char *name, int64_t v)
{
	int	i;

	/* The statements are ours: a name missing is a programmer error. */
	if ((i = sqlite3_bind_parameter_index(st, name)) == 0) {
		log_error("store: no parameter %s in \"%s\"", name,
		    sqlite3_sql(st));
		abort();
	}
	sqlite3_bind_int64(st, i, v);
}

static void
store_purge_bind_range(sqlite3_stmt *st, int64_t cutoff, size_t max,
    const struct store_purge_pos *pos)
{
	store_purge_bind(st, ":cutoff", cutoff);
	store_purge_bind(st, ":t", pos->end_time);
	store_purge_bind(st, ":id", (int64_t)pos->id);
	store_purge_bind(st, ":max", (int64_t)max);
}

/* Runs statement i, which returns no rows. Returns 0, or -1 after
 * logging. */
static int
store_purge_run(enum store_stmt i)
{
	sqlite3_stmt	*st = store_stmt(i);
	int		 rc;

	rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		log_error("store: purge: \"%s\": %s", sqlite3_sql(st),
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	return (0);
}

/* Moves pos to the last job of the batch. */
static int
store_purge_last(struct store_purge_pos *pos)
{
	sqlite3_stmt	*st = store_stmt(STORE_PURGE_LAST);
	int		 rc;

	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pos->end_time = sqlite3_column_int64(st, 0);
		pos->id = (uint64_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("store: purge: reading the batch: %s",
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	return (0);
}

int
store_purge_jobs(int64_t cutoff, size_t max, struct store_purge_pos *pos,
    size_t *n)
{
	sqlite3			*db = store_handle();
	struct store_purge_pos	 at = *pos;
	int			 texts = 0;

	*n = 0;
	if (store_begin() != 0 || store_purge_run(STORE_PURGE_SAVEPOINT) != 0)
		return (-1);
	store_purge_bind_range(store_stmt(STORE_PURGE_PICK), cutoff,
	    max, pos);
	if (store_purge_run(STORE_PURGE_PICK) != 0 ||
	    store_purge_last(&at) != 0 ||
	    store_purge_run(STORE_PURGE_RUNS) != 0 ||
	    store_purge_run(STORE_PURGE_STEPS) != 0 ||
	    store_purge_run(STORE_PURGE_EVENTS) != 0 ||
	    store_purge_run(STORE_PURGE_JOBS) != 0)
		goto fail;
	*n = (size_t)sqlite3_changes(db);
	if (store_purge_run(STORE_PURGE_TEXTS) != 0)
		goto fail;
	texts = sqlite3_changes(db);
	if (store_purge_run(STORE_PURGE_CLEAR) != 0 ||
	    store_purge_run(STORE_PURGE_RELEASE) != 0)
		goto fail;
	if (texts > 0)
		store_text_forget();
	*pos = at;
	return (0);
fail:
	*n = 0;
	(void)store_purge_run(STORE_PURGE_ROLLBACK);
	(void)store_purge_run(STORE_PURGE_RELEASE);
	return (-1);
}

int
store_purge_count(int64_t cutoff, size_t max, struct store_purge_pos *pos,
    size_t *n, bool *more)
{
	sqlite3_stmt	*st = store_stmt(STORE_PURGE_SCAN);
	size_t		 seen = 0;
	int		 rc;

	*n = 0;
	store_purge_bind_range(st, cutoff, max, pos);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pos->end_time = sqlite3_column_int64(st, 0);
		pos->id = (uint64_t)sqlite3_column_int64(st, 1);
		if (sqlite3_column_int(st, 2) != 0)
			(*n)++;
		seen++;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	*more = seen == max;
	if (rc != SQLITE_DONE) {
		log_error("store: purge: counting finished jobs: %s",
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	return (0);
}

int
store_purge_node_events(int64_t cutoff, size_t max, size_t *n)
{
	sqlite3_stmt	*st = store_stmt(STORE_PURGE_NODE_EVENTS);

	*n = 0;
	if (store_begin() != 0)
		return (-1);
	store_purge_bind(st, ":cutoff", cutoff);
	store_purge_bind(st, ":max", (int64_t)max);
	if (store_purge_run(STORE_PURGE_NODE_EVENTS) != 0)
		return (-1);
	*n = (size_t)sqlite3_changes(store_handle());
	return (0);
}
