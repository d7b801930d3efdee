/* store.c: the SQLite store. WAL mode, synchronous FULL by default: a job is
 * acknowledged only after the commit that holds it reached the disk.
 * Writes open one transaction lazily; commit.c decides when to commit it, so
 * requests that arrive together share one fsync (group commit).
 *
 * A job's script and environment are most of its bytes (a gsub environment
 * is about 1.5 KB) and are read once, at launch. They live in job_texts,
 * out of the jobs rows, and a user's jobs that carry the same text share
 * one row of it: a sweep of 1,000 jobs from one shell stores its
 * environment once, which is most of the pages each submit would write. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store-log.h"
#include "daemon/controller/store-sql.h"
#include "daemon/controller/store-text.h"
#include "daemon/controller/store.h"

/* The pages this connection keeps (KiB; SQLite's default is 2,000). Its
 * work is appending jobs and changing a few: the paths down the jobs
 * table and its indexes to their newest pages. Reading every job is done
 * at start-up on a connection of its own (store-load.c), and reports on
 * theirs. 512 KiB keeps 20,000 pipelined submits at the same rate, and
 * 1.5 MB off gbatchd. */
#define STORE_CACHE_KB	"512"

/* The statements of the jobs table are written from job_fields at open
 * (store-sql.c); these are the rest. */
static const char *const store_sql[STORE_NSTMTS] = {
	[STORE_BEGIN] = "BEGIN",
	[STORE_COMMIT] = "COMMIT",
	[STORE_ROLLBACK] = "ROLLBACK",
	[STORE_EVENT_INSERT] = "INSERT INTO job_events (job_id, time,"
	    " from_state, to_state, detail) VALUES (?, ?, ?, ?, ?)",
	[STORE_NODE_SAVE] = "INSERT INTO nodes (name, gpus, drained, reason,"
	    " last_seen) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (name) DO"
	    " UPDATE SET gpus = ?2, drained = ?3, reason = ?4, last_seen = ?5",
	[STORE_NODE_ALL] = "SELECT name, gpus, drained, reason, last_seen FROM"
	    " nodes ORDER BY name",
	[STORE_TEXT_INSERT] = "INSERT INTO job_texts (text) VALUES (?)",
	[STORE_EVENTS_OF] = "SELECT time, from_state, to_state, detail FROM"
	    " job_events WHERE job_id = ? ORDER BY id",
	/* A run carries its job's user, account and QOS, so the reports
	 * read runs alone. */
	[STORE_RUN_START] = "INSERT INTO job_runs (job_id, user, account,"
	    " qos, partition, run, start_time, gpus, alloc) SELECT :job,"
	    " user, account, qos, :partition, :run, :start, :gpus, :alloc"
	    " FROM jobs WHERE id = :job",
	/* A job has at most one open run: the one not yet ended. */
	[STORE_RUN_END] = "UPDATE job_runs SET end_time = :end, end_state ="
	    " :state, exit_code = :exit_code, signal = :signal WHERE job_id ="
	    " :job AND end_time = 0",
	[STORE_RUN_PREEMPT] = "UPDATE job_runs SET preempt_time = :time WHERE"
	    " job_id = :job AND end_time = 0",
	[STORE_RUN_REOPEN] = "UPDATE job_runs SET end_time = 0, end_state ="
	    " '', exit_code = NULL, signal = NULL WHERE id = (SELECT MAX(id)"
	    " FROM job_runs WHERE job_id = :job)",
	/* job_runs_job answers it. */
	[STORE_RUN_OPEN_ALLOC] = "SELECT alloc FROM job_runs WHERE job_id ="
	    " :job AND end_time = 0",
	[STORE_NODE_EVENT] = "INSERT INTO node_events (node, time, state,"
	    " detail) VALUES (:node, :time, :state, :detail)",
	[STORE_STEP_START] = "INSERT INTO job_steps (job_id, step, first,"
	    " user, node, task, ntasks, command, start_time) VALUES (:job,"
	    " :step, :first, :user, :node, :task, :ntasks, :command, :start)",
	[STORE_STEP_END] = "UPDATE job_steps SET end_time = :end, state ="
	    " :state, exit_code = :exit_code, signal = :signal WHERE job_id ="
	    " :job AND step = :step AND end_time = 0",
	/* Its job ended: a step whose end never came (its node lost) ends
	 * with it. */
	[STORE_STEP_CLOSE] = "UPDATE job_steps SET end_time = :end, state ="
	    " :state WHERE job_id = :job AND end_time = 0",
	[STORE_STEP_MAX] = "SELECT MAX(step) FROM job_steps",
	[STORE_STEPS_OF] = "SELECT step, first, user, node, task, ntasks,"
	    " command, start_time, end_time, state, exit_code, signal FROM"
	    " job_steps WHERE job_id = ? ORDER BY step",
	/* The jobs_user_end index answers it. */
	[STORE_USER_HAS_JOBS] = "SELECT 1 FROM jobs WHERE user = ? LIMIT 1",
	/* Jobs of schema 1 and 2 have no attained service: their GPU-time
	 * is GPUs x run time. */
	[STORE_GPU_TIMES] = "SELECT CASE WHEN attained > 0 THEN attained ELSE"
	    " gpus * MAX(end_time - start_time, 0) * 1000 END FROM jobs"
	    " WHERE state = 'COMPLETED' ORDER BY id DESC LIMIT ?",
	/* The last completed jobs, newest first (jobs_state holds them in
	 * id order): their run time in all, or (schemas 1 and 2) the last
	 * run's. */
	[STORE_JOB_HISTORY] = "SELECT user, name, gpus, CASE WHEN run_total >"
	    " 0 THEN run_total ELSE MAX(end_time - start_time, 0) * 1000 END"
	    " FROM jobs WHERE state = 'COMPLETED' ORDER BY id DESC LIMIT ?",
};


/* The store's connection, its statements and its transaction. Global:
 * one database a controller, written by every floor above through
 * store.h. */
static struct {
	/* Where the jobs statements' SELECT puts each field (-1: not
	 * read), and each statement's parameter for each field (0: none),
	 * found by name once at open. */
	int			 job_pos[JF_COUNT];
	int			 job_param[STORE_NSTMTS][JF_COUNT];
	struct store_text_cache	 texts;		/* store-text.h */
	sqlite3			*db;
	/* The read-only connection accounting queries share
	 * (store_reader). */
	sqlite3			*reader;
	char			*db_path;
	sqlite3_stmt		*stmts[STORE_NSTMTS];
	bool			 txn;
	uint64_t		 next_id;
	/* Called when a write opens a transaction (commit_want). */
	void			(*begin_cb)(void);
	/* The changesets of the group commits, for replicas. */
	struct store_log	 log;
} store = {
	.next_id = 1,
};

int
store_exec(const char *sql, char *err, size_t errlen)
{
	char	*msg = NULL;

	if (sqlite3_exec(store.db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s", msg != NULL ? msg :
		    sqlite3_errmsg(store.db));
		sqlite3_free(msg);
		return (-1);
	}
	return (0);
}

int64_t
store_int(const char *sql)
{
	sqlite3_stmt	*st;
	int64_t		 v = 0;

	if (sqlite3_prepare_v2(store.db, sql, -1, &st, NULL) != SQLITE_OK)
		return (0);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return (v);
}

/* The SQL of statement i: a new string for the jobs statements, written
 * from job_fields, or NULL for the fixed ones of store_sql. */
static char *
store_job_sql(int i)
{
	switch (i) {
	case STORE_JOB_INSERT:
		return (store_sql_job_insert());
	case STORE_JOB_UPDATE:
		return (store_sql_job_update(JFF_UPDATE));
	case STORE_JOB_EDIT:
		return (store_sql_job_update(JFF_EDIT));
	case STORE_JOB_COPY:
		return (store_sql_job_copy());
	/* Memory and listings keep neither script nor environment. In no
	 * order: jobs_state hands each state's jobs over in id order, and
	 * ORDER BY id would sort whole rows in a temporary b-tree. */
	case STORE_JOB_ACTIVE:
		return (store_sql_job_select(false, " WHERE " STORE_SQL_ACTIVE,
		    store.job_pos));
	case STORE_JOB_IN_STATE:
		return (store_sql_job_select(false, " WHERE state = :state AND"
		    " (:user IS NULL OR user = :user) AND end_time >= :end_time"
		    " ORDER BY id", store.job_pos));
	case STORE_JOB_OF_ARRAY:
		/* "!= 0" lets SQLite use the partial index jobs_array. */
		return (store_sql_job_select(false, " WHERE array_job_id ="
		    " :array_job_id AND array_job_id != 0 ORDER BY id",
		    store.job_pos));
	case STORE_JOB_GET:
		return (store_sql_job_select(true, " WHERE id = :id",
		    store.job_pos));
	}
	return (NULL);
}

/* Prepares statement i and finds each field's named parameter in it. */
static int
store_prepare(int i, char *err, size_t errlen)
{
	const struct job_field_desc *d;
	const char		*text;
	char			*sql, name[64];
	int			 f;

	if ((sql = store_job_sql(i)) != NULL)
		text = sql;
	else if (i >= STORE_PURGE_SAVEPOINT)
		text = store_purge_sql(i);
	else
		text = store_sql[i];
	if (sqlite3_prepare_v3(store.db, text, -1, SQLITE_PREPARE_PERSISTENT,
	    &store.stmts[i], NULL) != SQLITE_OK) {
		snprintf(err, errlen, "preparing \"%s\": %s", text,
		    sqlite3_errmsg(store.db));
		free(sql);
		return (-1);
	}
	free(sql);
	for (f = 0; f < JF_COUNT; f++) {
		d = &job_fields[f];
		store.job_param[i][f] = 0;
		if (d->column == NULL)
			continue;
		snprintf(name, sizeof name, ":%s%s", d->column,
		    d->kind == JFK_TEXTREF ? "_id" : "");
		store.job_param[i][f] = sqlite3_bind_parameter_index(
		    store.stmts[i], name);
	}
	return (0);
}

/* SQLite counts every allocation for sqlite3_status() under one global
 * mutex: a lock and an unlock on each malloc and free, 3.5% of a
 * replica leader's time and 3% of a single controller's under a submit
 * storm. gbatchd never reads those counts (nor sets a soft heap limit,
 * which needs them). */
void
store_tune(void)
{
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int
store_open(const char *dir, enum store_sync sync, void (*begin_cb)(void),
    char *err, size_t errlen)
{
	char	*path, detail[256];
	int	 fd, i;

	path = xasprintf("%s/" STORE_DB, dir);
	/* Create the file ourselves so it is 0600 from the first byte;
	 * SQLite gives its -wal and -shm files the same mode. */
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		return (-1);
	}
	(void)fchmod(fd, 0600);
	close(fd);
	if (sqlite3_open_v2(path, &store.db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, store.db == NULL ?
		    "out of memory" : sqlite3_errmsg(store.db));
		goto fail;
	}
	sqlite3_busy_timeout(store.db, 5000);
	if (store_exec("PRAGMA journal_mode = WAL", detail, sizeof detail) != 0 ||
	    store_exec(sync == STORE_SYNC_FULL ? "PRAGMA synchronous = FULL" :
	    sync == STORE_SYNC_NORMAL ? "PRAGMA synchronous = NORMAL" :
	    "PRAGMA synchronous = OFF", detail, sizeof detail) != 0 ||
	    store_exec("PRAGMA foreign_keys = OFF", detail, sizeof detail) != 0 ||
	    store_exec("PRAGMA cache_size = -" STORE_CACHE_KB, detail,
	    sizeof detail) != 0) {
		snprintf(err, errlen, "%s: %s", path, detail);
		goto fail;
	}
	if (store_schema_migrate(detail, sizeof detail) != 0) {
		snprintf(err, errlen, "%s: %s", path, detail);
		goto fail;
	}
	if (store_purge_open(detail, sizeof detail) != 0) {
		snprintf(err, errlen, "%s: %s", path, detail);
		goto fail;
	}
	for (i = 0; i < STORE_NSTMTS; i++) {
		if (store_prepare(i, detail, sizeof detail) != 0) {
			snprintf(err, errlen, "%s: %s", path, detail);
			goto fail;
		}
	}
	store_refresh();
	store.begin_cb = begin_cb;
	free(store.db_path);
	store.db_path = path;
	return (0);
fail:
	free(path);
	store_close();
	return (-1);
}

void
store_refresh(void)
{
	/* sqlite_sequence remembers the largest id ever handed out, even if
	 * rows are purged later, so ids are never reused. */
	store.next_id = (uint64_t)store_int("SELECT MAX(COALESCE((SELECT seq "
	    "FROM sqlite_sequence WHERE name = 'jobs'), 0), COALESCE((SELECT "
	    "MAX(id) FROM jobs), 0))") + 1;
	store_text_forget();
}

void
store_close(void)
{
	char	err[256];
	int	i;

	if (store.db == NULL)
		return;
	if (store.txn && store_commit(err, sizeof err) != 0)
		log_error("store: %s", err);
	for (i = 0; i < STORE_NSTMTS; i++) {
		sqlite3_finalize(store.stmts[i]);
		store.stmts[i] = NULL;
	}
	store_text_forget();
	store_log_forget(&store.log, store.db);
	/* Queries still open on the reader belong to requests being torn
	 * down: it closes once their last statement is finalized. */
	if (store.reader != NULL)
		sqlite3_close_v2(store.reader);
	store.reader = NULL;
	sqlite3_close(store.db);
	store.db = NULL;
	free(store.db_path);
	store.db_path = NULL;
}

void
store_capture(bool on)
{
	store.log.on = on;
}

/* A replica's apply, image and restore need the store open and no
 * transaction of its own under way. */
static int
store_idle(char *err, size_t errlen)
{
	if (store.db != NULL && !store.txn)
		return (0);
	snprintf(err, errlen, "the store is %s", store.db == NULL ?
	    "not open" : "in a transaction");
	return (-1);
}

void *
store_changeset_take(size_t *len)
{
	return (store_log_take(&store.log, len));
}

void
store_changeset_free(void *cs)
{
	store_log_free(cs);
}

int
store_changeset_apply(const void *cs, size_t len, char *err, size_t errlen)
{
	return (store_changesets_apply(&cs, &len, 1, err, errlen));
}

int
store_changesets_apply(const void *const *cs, const size_t *lens, size_t n,
    char *err, size_t errlen)
{
	if (store_idle(err, errlen) != 0)
		return (-1);
	if (store_log_apply_all(&store.log, store.db, cs, lens, n, err,
	    errlen) != 0)
		return (-1);
	store_refresh();
	return (0);
}

void *
store_image(size_t *len, char *err, size_t errlen)
{
	*len = 0;
	if (store_idle(err, errlen) != 0)
		return (NULL);
	return (store_log_image(store.db, len, err, errlen));
}

int
store_restore(const void *img, size_t len, char *err, size_t errlen)
{
	if (store_idle(err, errlen) != 0)
		return (-1);
	store_log_forget(&store.log, store.db);
	if (store_log_restore(store.db, img, len, err, errlen) != 0)
		return (-1);
	store_refresh();
	return (0);
}

const char *
store_path(void)
{
	return (store.db_path);
}

sqlite3 *
store_reader(char *err, size_t errlen)
{
	if (store.reader != NULL)
		return (store.reader);
	if (store.db_path == NULL) {
		snprintf(err, errlen, "the database is not open");
		return (NULL);
	}
	if (sqlite3_open_v2(store.db_path, &store.reader, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", store.db_path,
		    store.reader == NULL ? "out of memory" :
		    sqlite3_errmsg(store.reader));
		sqlite3_close(store.reader);
		store.reader = NULL;
		return (NULL);
	}
	sqlite3_busy_timeout(store.reader, 5000);
	return (store.reader);
}

bool
store_in_txn(void)
{
	return (store.txn);
}

uint64_t
store_job_next_id(void)
{
	return (store.next_id++);
}

uint64_t
store_job_peek_id(void)
{
	return (store.next_id);
}

/* Runs a statement that returns no rows; resets it either way. */
int
store_step_done(sqlite3_stmt *st, const char *what)
{
	int	rc;

	rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		log_error("store: %s: %s", what, sqlite3_errmsg(store.db));
		return (-1);
	}
	return (0);
}

sqlite3 *
store_handle(void)
{
	return (store.db);
}

/* Opens the group transaction on the first write of a loop pass. */
int
store_begin(void)
{
	if (store.txn)
		return (0);
	if (store_step_done(store.stmts[STORE_BEGIN], "begin") != 0)
		return (-1);
	store.txn = true;
	store_log_begun(&store.log, store.db);
	if (store.begin_cb != NULL)
		store.begin_cb();
	return (0);
}

int
store_commit(char *err, size_t errlen)
{
	int	rc;

	if (!store.txn)
		return (0);
	store_log_commit(&store.log, store.db);
	rc = sqlite3_step(store.stmts[STORE_COMMIT]);
	sqlite3_reset(store.stmts[STORE_COMMIT]);
	if (rc == SQLITE_DONE) {
		store.txn = false;
		return (0);
	}
	snprintf(err, errlen, "commit: %s", sqlite3_errmsg(store.db));
	store_text_forget();
	store_log_rollback(&store.log);
	if (sqlite3_get_autocommit(store.db) == 0) {
		sqlite3_step(store.stmts[STORE_ROLLBACK]);
		sqlite3_reset(store.stmts[STORE_ROLLBACK]);
	}
	store.txn = false;
	return (-1);
}

void
store_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

void
store_text_forget(void)
{
	store_text_clear(&store.texts);
}

/* The id of the job_texts row holding text for uid (store-text.h). */
static int64_t
store_job_text(uint32_t uid, const char *text)
{
	return (store_text_id(&store.texts, store.db,
	    store.stmts[STORE_TEXT_INSERT], uid, text));
}

/* Binds the fields of row that st names (its parameters param[f]); a
 * field kept in job_texts is bound by the caller, with its row's id. */
static void
store_job_bind(sqlite3_stmt *st, const int *param, const struct store_job *r)
{
	const char	*p, *text;
	int		 f, i, v;

	for (f = 0; f < JF_COUNT; f++) {
		if ((i = param[f]) == 0)
			continue;
		p = (const char *)r + store_job_offset[f];
		switch (job_fields[f].kind) {
		case JFK_U64:
			sqlite3_bind_int64(st, i,
			    (sqlite3_int64)*(const uint64_t *)p);
			break;
		case JFK_I64:
			sqlite3_bind_int64(st, i, *(const int64_t *)p);
			break;
		case JFK_U32:
			sqlite3_bind_int64(st, i, *(const uint32_t *)p);
			break;
		case JFK_INT:
			sqlite3_bind_int(st, i, *(const int *)p);
			break;
		case JFK_TEXT:
		case JFK_TEXT0:
			text = *(const char *const *)p;
			if (text == NULL && job_fields[f].kind == JFK_TEXT0)
				text = "";
			store_bind_text(st, i, text);
			break;
		case JFK_STATE:
			store_bind_text(st, i, job_state_name(
			    *(const enum job_state *)p));
			break;
		case JFK_EXIT:
			if (r->has_exit)
				sqlite3_bind_int(st, i, *(const int *)p);
			break;
		case JFK_NULLINT:
			if ((v = *(const int *)p) >= 0)
				sqlite3_bind_int(st, i, v);
			break;
		case JFK_TEXTREF:
		case JFK_DERIVED:
			break;
		}
	}
}

int
store_job_insert(const struct store_job *r)
{
	sqlite3_stmt	*st = store.stmts[STORE_JOB_INSERT];
	const int	*param = store.job_param[STORE_JOB_INSERT];
	int64_t		 script, env;

	if (store_begin() != 0)
		return (-1);
	if ((script = store_job_text(r->uid, r->script != NULL ? r->script :
	    "")) == -1 || (env = store_job_text(r->uid, r->env != NULL ?
	    r->env : "{}")) == -1)
		return (-1);
	store_job_bind(st, param, r);
	sqlite3_bind_int64(st, param[JF_SCRIPT], script);
	sqlite3_bind_int64(st, param[JF_ENV], env);
	return (store_step_done(st, "insert job"));
}

/* Runs statement i, an UPDATE of some of row's fields (what names it in
 * the log), in the open transaction. */
static int
store_job_set(enum store_stmt i, const struct store_job *r, const char *what)
{
	if (store_begin() != 0)
		return (-1);
	store_job_bind(store.stmts[i], store.job_param[i], r);
	return (store_step_done(store.stmts[i], what));
}

int
store_job_update(const struct store_job *r)
{
	return (store_job_set(STORE_JOB_UPDATE, r, "update job"));
}

int
store_job_edit(const struct store_job *r)
{
	return (store_job_set(STORE_JOB_EDIT, r, "edit job"));
}

int
store_job_copy(uint64_t from, uint64_t id, int task)
{
	sqlite3_stmt	*st = store.stmts[STORE_JOB_COPY];
	const int	*param = store.job_param[STORE_JOB_COPY];

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":from"),
	    (sqlite3_int64)from);
	sqlite3_bind_int64(st, param[JF_ID], (sqlite3_int64)id);
	sqlite3_bind_int(st, param[JF_ARRAY_TASK_ID], task);
	store_bind_text(st, param[JF_ARRAY_TASKS], "");
	return (store_step_done(st, "copy job"));
}

int
store_event_insert(uint64_t job, int64_t when, const char *from,
    const char *to, const char *detail)
{
	sqlite3_stmt	*st = store.stmts[STORE_EVENT_INSERT];

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)job);
	sqlite3_bind_int64(st, 2, when);
	store_bind_text(st, 3, from);
	store_bind_text(st, 4, to);
	store_bind_text(st, 5, detail != NULL ? detail : "");
	return (store_step_done(st, "insert job event"));
}

/* The index of st's parameter name; statements are ours, so a missing
 * one is a programmer error. */
int
store_param(sqlite3_stmt *st, const char *name)
{
	int	i;

	if ((i = sqlite3_bind_parameter_index(st, name)) == 0) {
		log_error("store: no parameter %s in \"%s\"", name,
		    sqlite3_sql(st));
		abort();
	}
	return (i);
}

const char *
store_column_text(sqlite3_stmt *st, int i)
{
	return ((const char *)sqlite3_column_text(st, i));
}

void
store_job_read(sqlite3_stmt *st, struct store_job *r)
{
	store_job_read_at(st, store.job_pos, r);
}

void
store_job_read_at(sqlite3_stmt *st, const int pos[JF_COUNT],
    struct store_job *r)
{
	const char	*text;
	char		*p;
	int		 f, c;

	memset(r, 0, sizeof *r);
	r->queue = -1;
	for (f = 0; f < JF_COUNT; f++) {
		if ((c = pos[f]) < 0)
			continue;
		p = (char *)r + store_job_offset[f];
		switch (job_fields[f].kind) {
		case JFK_U64:
			*(uint64_t *)p = (uint64_t)sqlite3_column_int64(st, c);
			break;
		case JFK_I64:
			*(int64_t *)p = sqlite3_column_int64(st, c);
			break;
		case JFK_U32:
			*(uint32_t *)p = (uint32_t)sqlite3_column_int64(st, c);
			break;
		case JFK_INT:
			*(int *)p = sqlite3_column_int(st, c);
			break;
		case JFK_TEXT:
		case JFK_TEXT0:
		case JFK_TEXTREF:
			*(const char **)p = store_column_text(st, c);
			break;
		case JFK_STATE:
			text = store_column_text(st, c);
			if (text == NULL || job_state_parse(text,
			    (enum job_state *)p) != 0)
				*(enum job_state *)p = JOB_FAILED;
			break;
		case JFK_EXIT:
			if (sqlite3_column_type(st, c) == SQLITE_NULL)
				break;
			r->has_exit = true;
			*(int *)p = sqlite3_column_int(st, c);
			break;
		case JFK_NULLINT:
			*(int *)p = sqlite3_column_type(st, c) == SQLITE_NULL ?
			    -1 : sqlite3_column_int(st, c);
			break;
		case JFK_DERIVED:
			break;
		}
	}
}

static int
store_job_each(sqlite3_stmt *st, store_job_cb cb, void *arg)
{
	struct store_job	r;
	int			rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		store_job_read(st, &r);
		cb(&r, arg);
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		log_error("store: reading jobs: %s", sqlite3_errmsg(store.db));
		return (-1);
	}
	return (0);
}

int
store_job_each_active(store_job_cb cb, void *arg)
{
	int	rc;

	/* On threads (store-load.c), else here. */
	if ((rc = store_load_active(cb, arg)) != 1)
		return (rc);
	return (store_job_each(store.stmts[STORE_JOB_ACTIVE], cb, arg));
}

int
store_job_each_in_state(enum job_state state, const char *user,
    int64_t ended_since, store_job_cb cb, void *arg)
{
	sqlite3_stmt	*st = store.stmts[STORE_JOB_IN_STATE];
	const int	*param = store.job_param[STORE_JOB_IN_STATE];

	store_bind_text(st, param[JF_STATE], job_state_name(state));
	store_bind_text(st, param[JF_USER], user);
	sqlite3_bind_int64(st, param[JF_END_TIME], ended_since);
	return (store_job_each(st, cb, arg));
}

int
store_job_each_of_array(uint64_t id, store_job_cb cb, void *arg)
{
	sqlite3_stmt	*st = store.stmts[STORE_JOB_OF_ARRAY];

	sqlite3_bind_int64(st, store.job_param[STORE_JOB_OF_ARRAY]
	    [JF_ARRAY_JOB_ID], (sqlite3_int64)id);
	return (store_job_each(st, cb, arg));
}

int
store_job_get(uint64_t id, struct store_job *r)
{
	sqlite3_stmt	*st = store.stmts[STORE_JOB_GET];
	int		 rc;

	/* The previous caller's strings die here, as store.h says. */
	sqlite3_reset(st);
	sqlite3_bind_int64(st, store.job_param[STORE_JOB_GET][JF_ID],
	    (sqlite3_int64)id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		store_job_read(st, r);
		return (1);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return (0);
	log_error("job %" PRIu64 ": reading it: %s", id,
	    sqlite3_errmsg(store.db));
	return (-1);
}

int
store_user_has_jobs(const char *user)
{
	sqlite3_stmt	*st = store.stmts[STORE_USER_HAS_JOBS];
	int		 rc;

	sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_ROW)
		return (1);
	if (rc == SQLITE_DONE)
		return (0);
	log_error("looking up the jobs of %s: %s", user,
	    sqlite3_errmsg(store.db));
	return (-1);
}

void
store_job_done(void)
{
	/* A statement left on a row holds a read snapshot open, which would
	 * keep the WAL from being checkpointed. */
	sqlite3_reset(store.stmts[STORE_JOB_GET]);
}

int
store_job_events(uint64_t id, store_event_cb cb, void *arg)
{
	sqlite3_stmt	*st = store.stmts[STORE_EVENTS_OF];
	int		 rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cb(sqlite3_column_int64(st, 0), store_column_text(st, 1),
		    store_column_text(st, 2), store_column_text(st, 3), arg);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		log_error("job %" PRIu64 ": reading its events: %s", id,
		    sqlite3_errmsg(store.db));
		return (-1);
	}
	return (0);
}

int
store_job_gpu_times(size_t max, uint64_t **out, size_t *n)
{
	sqlite3_stmt	*st = store.stmts[STORE_GPU_TIMES];
	uint64_t	*v = NULL;
	size_t		 size = 0;
	int64_t		 t;
	int		 rc;

	*n = 0;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((t = sqlite3_column_int64(st, 0)) <= 0)
			continue;
		if (*n == size) {
			size = size != 0 ? size * 2 : 1024;
			v = xreallocarray(v, size, sizeof *v);
		}
		v[(*n)++] = (uint64_t)t;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	*out = v;
	if (rc != SQLITE_DONE) {
		log_error("store: reading GPU-times: %s",
		    sqlite3_errmsg(store.db));
		free(v);
		*out = NULL;
		*n = 0;
		return (-1);
	}
	return (0);
}

int
store_job_history(size_t max, store_history_cb cb, void *arg)
{
	sqlite3_stmt	*st = store.stmts[STORE_JOB_HISTORY];
	struct {
		char		*user, *name;
		uint32_t	 gpus;
		uint64_t	 ms;
	}		*v = NULL;
	const char	*s;
	int64_t		 ms;
	size_t		 n = 0, size = 0, i;
	int		 rc;

	/* Read newest first, handed over oldest first. */
	sqlite3_bind_int64(st, 1, (sqlite3_int64)max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((ms = sqlite3_column_int64(st, 3)) <= 0)
			continue;
		if (n == size) {
			size = size != 0 ? size * 2 : 1024;
			v = xreallocarray(v, size, sizeof *v);
		}
		s = (const char *)sqlite3_column_text(st, 0);
		v[n].user = xstrdup(s != NULL ? s : "");
		s = (const char *)sqlite3_column_text(st, 1);
		v[n].name = xstrdup(s != NULL ? s : "");
		v[n].gpus = (uint32_t)sqlite3_column_int64(st, 2);
		v[n++].ms = (uint64_t)ms;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	for (i = n; i-- > 0; ) {
		if (rc == SQLITE_DONE)
			cb(v[i].user, v[i].name, v[i].gpus, v[i].ms, arg);
		free(v[i].user);
		free(v[i].name);
	}
	free(v);
	if (rc != SQLITE_DONE) {
		log_error("store: reading the completed jobs' run times: %s",
		    sqlite3_errmsg(store.db));
		return (-1);
	}
	return (0);
}

sqlite3_stmt *
store_stmt(enum store_stmt i)
{
	return (store.stmts[i]);
}
