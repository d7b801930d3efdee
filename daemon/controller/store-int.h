/* store-int.h: what store.c shares with the other files of the store
 * (store-acct.c, store-purge.c), and no one else: reading a jobs row the
 * way the field table says, and writing in the group transaction. */
#ifndef GB_CTL_STORE_INT_H
#define GB_CTL_STORE_INT_H

#include <sqlite3.h>

#include "common/job-field.h"
#include "daemon/controller/store.h"

/* A WHERE term: the job is finished (job_state_is_terminal's states).
 * The unary + keeps the planner off jobs_state, through which it would
 * read every finished job whatever the time range; the end-time index
 * (jobs_acct) then hands over just the range, in order. */
#define STORE_SQL_FINISHED						\
	"+state IN ('COMPLETED', 'FAILED', 'TIMEOUT', 'CANCELLED',"	\
	" 'NODE_FAIL', 'OUT_OF_MEMORY')"

/* A WHERE term: the job is not finished, one the scheduler holds; a
 * search of jobs_state, which holds few of these. */
#define STORE_SQL_ACTIVE						\
	"state IN ('PENDING', 'HELD', 'RUNNING', 'PREEMPTING', 'SUSPENDED')"

/* Fills r from st's current row (strings borrowed from st). */
void		 store_job_read(sqlite3_stmt *, struct store_job *r);
/* The same for a SELECT whose fields are at pos (store_sql_job_select_only). */
void		 store_job_read_at(sqlite3_stmt *, const int pos[JF_COUNT],
		     struct store_job *r);
const char	*store_column_text(sqlite3_stmt *, int);
/* Calls cb with every unfinished job's row, read on threads of their own
 * (store-load.c); cb must not touch SQLite. Returns 0, -1 after logging a
 * failure, or 1 when no reader could be opened (nothing read: the caller
 * reads them itself). */
int		 store_load_active(store_job_cb cb, void *arg);
/* Fills r from a row of SELECT run, start_time, end_time, gpus, alloc,
 * end_state, exit_code, signal, preempt_time FROM job_runs. */
void		 store_run_read(sqlite3_stmt *, struct store_run *r);
/* The database file, while the store is open. */
const char	*store_path(void);
/* The store's read-only connection, which accounting queries share
 * (store-acct.c), opened at the first use and closed by store_close once
 * the last statement on it is finalized. Returns NULL with err when the
 * store is not open or the file cannot be opened. */
sqlite3		*store_reader(char *err, size_t errlen);

/* Forgets what the store keeps in memory of the rows (the next job id,
 * the texts it knows): rows were written under it (store-log.c). */
void		 store_refresh(void);
/* The statements store_open prepares on the write connection. */
enum store_stmt {
	STORE_BEGIN,
	STORE_COMMIT,
	STORE_ROLLBACK,
	STORE_JOB_INSERT,
	STORE_JOB_UPDATE,
	STORE_JOB_EDIT,
	STORE_JOB_COPY,
	STORE_EVENT_INSERT,
	STORE_NODE_SAVE,
	STORE_JOB_ACTIVE,
	STORE_JOB_IN_STATE,
	STORE_JOB_OF_ARRAY,
	STORE_JOB_GET,
	STORE_NODE_ALL,
	STORE_TEXT_INSERT,
	STORE_GPU_TIMES,
	STORE_JOB_HISTORY,
	STORE_EVENTS_OF,
	STORE_RUN_START,
	STORE_RUN_END,
	STORE_RUN_PREEMPT,
	STORE_RUN_REOPEN,
	STORE_RUN_OPEN_ALLOC,
	STORE_NODE_EVENT,
	STORE_USER_HAS_JOBS,
	STORE_STEP_START,
	STORE_STEP_END,
	STORE_STEP_CLOSE,
	STORE_STEP_MAX,
	STORE_STEPS_OF,
	/* The purge's, in its own savepoint (store-purge.c writes them). */
	STORE_PURGE_SAVEPOINT,
	STORE_PURGE_RELEASE,
	STORE_PURGE_ROLLBACK,
	STORE_PURGE_PICK,
	STORE_PURGE_LAST,
	STORE_PURGE_RUNS,
	STORE_PURGE_EVENTS,
	STORE_PURGE_JOBS,
	STORE_PURGE_STEPS,
	STORE_PURGE_TEXTS,
	STORE_PURGE_CLEAR,
	STORE_PURGE_SCAN,
	STORE_PURGE_NODE_EVENTS,
	STORE_NSTMTS
};

/* Statement i, prepared, while the store is open. */
sqlite3_stmt	*store_stmt(enum store_stmt i);
/* Runs st, which returns no rows, and resets it either way. Returns 0,
 * or -1 after logging what failed (what: "insert job run"). */
int		 store_step_done(sqlite3_stmt *st, const char *what);
/* Binds s (NULL: SQL NULL) as parameter i of st. */
void		 store_bind_text(sqlite3_stmt *st, int i, const char *s);
/* The index of st's parameter name; statements are ours, so a missing
 * name is a programmer's error (logged, then abort). */
int		 store_param(sqlite3_stmt *st, const char *name);

/* Runs sql (no rows) on the write connection: 0, or -1 with err. */
int		 store_exec(const char *sql, char *err, size_t errlen);
/* The first column of sql's first row on the write connection; 0 when
 * there is none. */
int64_t		 store_int(const char *sql);
/* Runs the migrations the database has not seen (store-schema.c), each
 * in its own transaction with the version bump. Returns 0, or -1 with
 * err. */
int		 store_schema_migrate(char *err, size_t errlen);

/* The write connection, while the store is open. */
sqlite3		*store_handle(void);
/* Opens the group transaction unless it is open (and tells commit.c).
 * Returns 0, or -1 after logging. */
int		 store_begin(void);
/* Forgets the texts remembered for reuse (store_text_id): after a
 * failed commit, and after a purge deleted texts, whose ids SQLite may
 * hand out again. */
void		 store_text_forget(void);
/* Makes the purge's scratch table (store_open, after the migrations and
 * before its statements are prepared). Returns 0, or -1 with err. */
int		 store_purge_open(char *err, size_t errlen);
/* The SQL of purge statement i (STORE_PURGE_SAVEPOINT and after). */
const char	*store_purge_sql(enum store_stmt i);

#endif
