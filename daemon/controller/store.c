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
#include "daemon/controller/store.h"

/* The schema, as an ordered list of migrations. PRAGMA user_version holds
 * how many have run; a new version appends an entry, never edits one. */
static const char *const store_migrations[] = {
	/* 1: jobs, their event log, nodes. */
	"CREATE TABLE jobs ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" name TEXT NOT NULL, user TEXT NOT NULL,"
	" uid INTEGER NOT NULL, gid INTEGER NOT NULL,"
	" state TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '',"
	" gpus INTEGER NOT NULL, time_limit INTEGER NOT NULL,"
	" script TEXT NOT NULL, command TEXT NOT NULL,"
	" argv TEXT NOT NULL, env TEXT NOT NULL,"
	" workdir TEXT NOT NULL, stdout TEXT NOT NULL, stderr TEXT NOT NULL,"
	" submit_time INTEGER NOT NULL, start_time INTEGER NOT NULL DEFAULT 0,"
	" end_time INTEGER NOT NULL DEFAULT 0,"
	" exit_code INTEGER, signal INTEGER, message TEXT NOT NULL DEFAULT '',"
	" node TEXT, gpu_mask INTEGER NOT NULL DEFAULT 0,"
	" restarts INTEGER NOT NULL DEFAULT 0);"
	"CREATE INDEX jobs_state ON jobs (state);"
	"CREATE TABLE job_events ("
	" id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL,"
	" time INTEGER NOT NULL, from_state TEXT NOT NULL,"
	" to_state TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '');"
	"CREATE INDEX job_events_job ON job_events (job_id);"
	"CREATE TABLE nodes ("
	" name TEXT PRIMARY KEY, gpus INTEGER NOT NULL,"
	" drained INTEGER NOT NULL DEFAULT 0, reason TEXT NOT NULL DEFAULT '',"
	" last_seen INTEGER NOT NULL DEFAULT 0);",
	/* 2: scripts and environments out of the rows, shared (see above).
	 * Rows of version 1 keep their text inline, with ids 0. */
	"CREATE TABLE job_texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
	"ALTER TABLE jobs ADD COLUMN script_id INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN env_id INTEGER NOT NULL DEFAULT 0;",
	/* 3: scheduling (Tiresias). Service in GPU-ms, times in ms since
	 * the epoch as of the job's last start or stop; the per-job
	 * checkpoint settings and flags of gsub; the nodes of a multi-node
	 * allocation ("n1:0x0f,n2:0x0f", '' when node and gpu_mask say it).
	 * Finished jobs' GPU-times feed the Gittins index. */
	"ALTER TABLE jobs ADD COLUMN attained INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN executed INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN run_total INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN first_start INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN last_stop INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN preemptions INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN promotions INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN ckpt_signal INTEGER NOT NULL DEFAULT 10;"
	"ALTER TABLE jobs ADD COLUMN ckpt_grace INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN alloc TEXT NOT NULL DEFAULT '';",
	/* 4: the submitter's umask, for the job's files. NULL for the jobs
	 * of earlier versions, whose launch then carries none and gnoded
	 * picks (node-launch.h). */
	"ALTER TABLE jobs ADD COLUMN umask INTEGER;",
};
#define STORE_NMIGRATIONS \
	((int)(sizeof store_migrations / sizeof store_migrations[0]))

#define STORE_JOB_COLUMNS \
	"id, name, user, uid, gid, state, reason, gpus, time_limit, script," \
	" command, argv, env, workdir, stdout, stderr, submit_time," \
	" start_time, end_time, exit_code, signal, message, node, gpu_mask," \
	" restarts, script_id, env_id, attained, executed, run_total," \
	" first_start, last_stop, preemptions, promotions, flags, ckpt_signal," \
	" ckpt_grace, alloc, umask"
/* The same columns read back, script and env from job_texts (a job of
 * schema 1 has them inline), or '' where the reader needs neither. */
#define STORE_JOB_SELECT(script, env) \
	"SELECT id, name, user, uid, gid, state, reason, gpus, time_limit, " \
	script ", command, argv, " env ", workdir, stdout, stderr," \
	" submit_time, start_time, end_time, exit_code, signal, message, node," \
	" gpu_mask, restarts, attained, executed, run_total, first_start," \
	" last_stop, preemptions, promotions, flags, ckpt_signal, ckpt_grace," \
	" alloc, umask FROM jobs"
#define STORE_JOB_TEXT(col) \
	"CASE WHEN " col "_id = 0 THEN " col " ELSE (SELECT text FROM" \
	" job_texts WHERE job_texts.id = " col "_id) END"

enum store_stmt {
	STORE_BEGIN,
	STORE_COMMIT,
	STORE_ROLLBACK,
	STORE_JOB_INSERT,
	STORE_JOB_UPDATE,
	STORE_EVENT_INSERT,
	STORE_NODE_SAVE,
	STORE_JOB_ACTIVE,
	STORE_JOB_IN_STATE,
	STORE_JOB_GET,
	STORE_NODE_ALL,
	STORE_TEXT_INSERT,
	STORE_GPU_TIMES,
	STORE_EVENTS_OF,
	STORE_NSTMTS
};

static const char *const store_sql[STORE_NSTMTS] = {
	[STORE_BEGIN] = "BEGIN",
	[STORE_COMMIT] = "COMMIT",
	[STORE_ROLLBACK] = "ROLLBACK",
	[STORE_JOB_INSERT] = "INSERT INTO jobs (" STORE_JOB_COLUMNS ") VALUES"
	    " (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
	    " ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28,"
	    " ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39)",
	[STORE_JOB_UPDATE] = "UPDATE jobs SET state = ?6, reason = ?7,"
	    " start_time = ?18, end_time = ?19, exit_code = ?20, signal = ?21,"
	    " message = ?22, node = ?23, gpu_mask = ?24, restarts = ?25,"
	    " attained = ?28, executed = ?29, run_total = ?30,"
	    " first_start = ?31, last_stop = ?32, preemptions = ?33,"
	    " promotions = ?34, alloc = ?38 WHERE id = ?1",
	[STORE_EVENT_INSERT] = "INSERT INTO job_events (job_id, time,"
	    " from_state, to_state, detail) VALUES (?, ?, ?, ?, ?)",
	[STORE_NODE_SAVE] = "INSERT INTO nodes (name, gpus, drained, reason,"
	    " last_seen) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (name) DO"
	    " UPDATE SET gpus = ?2, drained = ?3, reason = ?4, last_seen = ?5",
	/* Memory and listings keep neither script nor environment. */
	[STORE_JOB_ACTIVE] = STORE_JOB_SELECT("''", "''") " WHERE"
	    " state IN ('PENDING', 'HELD', 'RUNNING', 'PREEMPTING')"
	    " ORDER BY id",
	[STORE_JOB_IN_STATE] = STORE_JOB_SELECT("''", "''") " WHERE"
	    " state = ?1 AND (?2 IS NULL OR user = ?2) ORDER BY id",
	[STORE_JOB_GET] = STORE_JOB_SELECT(STORE_JOB_TEXT("script"),
	    STORE_JOB_TEXT("env")) " WHERE id = ?",
	[STORE_NODE_ALL] = "SELECT name, gpus, drained, reason, last_seen FROM"
	    " nodes ORDER BY name",
	[STORE_TEXT_INSERT] = "INSERT INTO job_texts (text) VALUES (?)",
	/* Jobs of schema 1 and 2 have no attained service: their GPU-time
	 * is GPUs x run time. */
	[STORE_EVENTS_OF] = "SELECT time, from_state, to_state, detail FROM"
	    " job_events WHERE job_id = ? ORDER BY id",
	[STORE_GPU_TIMES] = "SELECT CASE WHEN attained > 0 THEN attained ELSE"
	    " gpus * MAX(end_time - start_time, 0) * 1000 END FROM jobs"
	    " WHERE state = 'COMPLETED' ORDER BY id DESC LIMIT ?",
};

/* The texts written lately, so the next job of the same user with the same
 * script or environment points at the same row. Compared byte for byte,
 * never by a hash alone: a collision would hand one user's environment to
 * another's job. Rows exist only once committed, so a failed commit
 * forgets them all. */
#define STORE_TEXT_CACHE	16
/* Larger texts are stored each time rather than held in memory. */
#define STORE_TEXT_CACHE_MAX	(64U << 10)

struct store_text {
	char		*text;
	size_t		 len;
	uint32_t	 uid;
	int64_t		 id;
};
static struct store_text	store_texts[STORE_TEXT_CACHE];
static unsigned			store_text_next;

static void	store_text_forget(void);

static sqlite3		*store_db;
static sqlite3_stmt	*store_stmts[STORE_NSTMTS];
static bool		 store_txn;
static uint64_t		 store_next_id = 1;
static void		(*store_begin_cb)(void);

static int
store_exec(const char *sql, char *err, size_t errlen)
{
	char	*msg = NULL;

	if (sqlite3_exec(store_db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s", msg != NULL ? msg :
		    sqlite3_errmsg(store_db));
		sqlite3_free(msg);
		return (-1);
	}
	return (0);
}

static int64_t
store_int(const char *sql)
{
	sqlite3_stmt	*st;
	int64_t		 v = 0;

	if (sqlite3_prepare_v2(store_db, sql, -1, &st, NULL) != SQLITE_OK)
		return (0);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return (v);
}

/* Runs the migrations the database has not seen, each in its own
 * transaction with the version bump, so a crash leaves a whole version. */
static int
store_migrate(char *err, size_t errlen)
{
	char	 sql[64], detail[160];
	int	 v;

	v = (int)store_int("PRAGMA user_version");
	if (v > STORE_NMIGRATIONS) {
		snprintf(err, errlen, "the database has schema version %d, "
		    "newer than this gbatchd knows (%d); run a newer gbatchd",
		    v, STORE_NMIGRATIONS);
		return (-1);
	}
	for (; v < STORE_NMIGRATIONS; v++) {
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
		if (store_exec("BEGIN", detail, sizeof detail) != 0 ||
		    store_exec(store_migrations[v], detail, sizeof detail) != 0 ||
		    store_exec(sql, detail, sizeof detail) != 0 ||
		    store_exec("COMMIT", detail, sizeof detail) != 0) {
			snprintf(err, errlen, "schema migration to version %d: "
			    "%s", v + 1, detail);
			(void)store_exec("ROLLBACK", detail, sizeof detail);
			return (-1);
		}
		log_info("store: schema migrated to version %d", v + 1);
	}
	return (0);
}

int
store_open(const char *dir, bool sync_full, void (*begin_cb)(void),
    char *err, size_t errlen)
{
	char	*path, detail[256];
	int	 fd, i;

	path = xasprintf("%s/gbatch.db", dir);
	/* Create the file ourselves so it is 0600 from the first byte;
	 * SQLite gives its -wal and -shm files the same mode. */
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		return (-1);
	}
	(void)fchmod(fd, 0600);
	close(fd);
	if (sqlite3_open_v2(path, &store_db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, store_db == NULL ?
		    "out of memory" : sqlite3_errmsg(store_db));
		goto fail;
	}
	sqlite3_busy_timeout(store_db, 5000);
	if (store_exec("PRAGMA journal_mode = WAL", detail, sizeof detail) != 0 ||
	    store_exec(sync_full ? "PRAGMA synchronous = FULL" :
	    "PRAGMA synchronous = NORMAL", detail, sizeof detail) != 0 ||
	    store_exec("PRAGMA foreign_keys = OFF", detail, sizeof detail) != 0) {
		snprintf(err, errlen, "%s: %s", path, detail);
		goto fail;
	}
	if (store_migrate(detail, sizeof detail) != 0) {
		snprintf(err, errlen, "%s: %s", path, detail);
		goto fail;
	}
	for (i = 0; i < STORE_NSTMTS; i++) {
		if (sqlite3_prepare_v3(store_db, store_sql[i], -1,
		    SQLITE_PREPARE_PERSISTENT, &store_stmts[i], NULL) !=
		    SQLITE_OK) {
			snprintf(err, errlen, "%s: preparing \"%s\": %s", path,
			    store_sql[i], sqlite3_errmsg(store_db));
			goto fail;
		}
	}
	/* sqlite_sequence remembers the largest id ever handed out, even if
	 * rows are purged later, so ids are never reused. */
	store_next_id = (uint64_t)store_int("SELECT MAX(COALESCE((SELECT seq "
	    "FROM sqlite_sequence WHERE name = 'jobs'), 0), COALESCE((SELECT "
	    "MAX(id) FROM jobs), 0))") + 1;
	store_begin_cb = begin_cb;
	free(path);
	return (0);
fail:
	free(path);
	store_close();
	return (-1);
}

void
store_close(void)
{
	char	err[256];
	int	i;

	if (store_db == NULL)
		return;
	if (store_txn && store_commit(err, sizeof err) != 0)
		log_error("store: %s", err);
	for (i = 0; i < STORE_NSTMTS; i++) {
		sqlite3_finalize(store_stmts[i]);
		store_stmts[i] = NULL;
	}
	store_text_forget();
	sqlite3_close(store_db);
	store_db = NULL;
}

bool
store_in_txn(void)
{
	return (store_txn);
}

uint64_t
store_job_next_id(void)
{
	return (store_next_id++);
}

/* Runs a statement that returns no rows; resets it either way. */
static int
store_step_done(sqlite3_stmt *st, const char *what)
{
	int	rc;

	rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		log_error("store: %s: %s", what, sqlite3_errmsg(store_db));
		return (-1);
	}
	return (0);
}

/* Opens the group transaction on the first write of a loop pass. */
static int
store_begin(void)
{
	if (store_txn)
		return (0);
	if (store_step_done(store_stmts[STORE_BEGIN], "begin") != 0)
		return (-1);
	store_txn = true;
	if (store_begin_cb != NULL)
		store_begin_cb();
	return (0);
}

int
store_commit(char *err, size_t errlen)
{
	int	rc;

	if (!store_txn)
		return (0);
	rc = sqlite3_step(store_stmts[STORE_COMMIT]);
	sqlite3_reset(store_stmts[STORE_COMMIT]);
	if (rc == SQLITE_DONE) {
		store_txn = false;
		return (0);
	}
	snprintf(err, errlen, "commit: %s", sqlite3_errmsg(store_db));
	store_text_forget();
	if (sqlite3_get_autocommit(store_db) == 0) {
		sqlite3_step(store_stmts[STORE_ROLLBACK]);
		sqlite3_reset(store_stmts[STORE_ROLLBACK]);
	}
	store_txn = false;
	return (-1);
}

static void
store_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

static void
store_text_forget(void)
{
	unsigned	i;

	for (i = 0; i < STORE_TEXT_CACHE; i++) {
		free(store_texts[i].text);
		memset(&store_texts[i], 0, sizeof store_texts[i]);
	}
}

/* Returns the id of the job_texts row holding text for uid, inserting it
 * unless a recent one matches; -1 on failure (logged). */
static int64_t
store_text_id(uint32_t uid, const char *text)
{
	sqlite3_stmt		*st = store_stmts[STORE_TEXT_INSERT];
	struct store_text	*t;
	size_t			 len = strlen(text);
	unsigned		 i;

	for (i = 0; i < STORE_TEXT_CACHE; i++) {
		t = &store_texts[i];
		if (t->text != NULL && t->uid == uid && t->len == len &&
		    memcmp(t->text, text, len) == 0)
			return (t->id);
	}
	sqlite3_bind_text(st, 1, text, (int)len, SQLITE_STATIC);
	if (store_step_done(st, "insert job text") != 0)
		return (-1);
	if (len > STORE_TEXT_CACHE_MAX)
		return (sqlite3_last_insert_rowid(store_db));
	t = &store_texts[store_text_next++ % STORE_TEXT_CACHE];
	free(t->text);
	t->text = xmalloc(len + 1);
	memcpy(t->text, text, len + 1);
	t->len = len;
	t->uid = uid;
	t->id = sqlite3_last_insert_rowid(store_db);
	return (t->id);
}

/* Binds the scheduling columns (schema 3) of both insert and update. */
static void
store_job_bind_sched(sqlite3_stmt *st, const struct store_job *r)
{
	sqlite3_bind_int64(st, 28, (sqlite3_int64)r->attained);
	sqlite3_bind_int64(st, 29, r->executed);
	sqlite3_bind_int64(st, 30, r->run_total);
	sqlite3_bind_int64(st, 31, r->first_start);
	sqlite3_bind_int64(st, 32, r->last_stop);
	sqlite3_bind_int64(st, 33, r->preemptions);
	sqlite3_bind_int64(st, 34, r->promotions);
	sqlite3_bind_int64(st, 35, r->flags);
	sqlite3_bind_int(st, 36, r->ckpt_signal != 0 ? r->ckpt_signal : 10);
	sqlite3_bind_int64(st, 37, r->ckpt_grace);
	store_bind_text(st, 38, r->alloc != NULL ? r->alloc : "");
}

/* Binds every column of row under the numbering of STORE_JOB_COLUMNS;
 * statements use the ones they name. */
static void
store_job_bind(sqlite3_stmt *st, const struct store_job *r)
{
	int	n = sqlite3_bind_parameter_count(st);

	sqlite3_bind_int64(st, 1, (sqlite3_int64)r->id);
	if (n < 25)
		return;
	store_bind_text(st, 2, r->name);
	store_bind_text(st, 3, r->user);
	sqlite3_bind_int64(st, 4, r->uid);
	sqlite3_bind_int64(st, 5, r->gid);
	store_bind_text(st, 6, job_state_name(r->state));
	store_bind_text(st, 7, r->reason != NULL ? r->reason : "");
	sqlite3_bind_int64(st, 8, r->gpus);
	sqlite3_bind_int64(st, 9, (sqlite3_int64)r->time_limit);
	store_bind_text(st, 10, r->script);
	store_bind_text(st, 11, r->command);
	store_bind_text(st, 12, r->argv);
	store_bind_text(st, 13, r->env);
	store_bind_text(st, 14, r->workdir);
	store_bind_text(st, 15, r->stdout_path);
	store_bind_text(st, 16, r->stderr_path);
	sqlite3_bind_int64(st, 17, r->submit_time);
	sqlite3_bind_int64(st, 18, r->start_time);
	sqlite3_bind_int64(st, 19, r->end_time);
	if (r->has_exit) {
		sqlite3_bind_int(st, 20, r->exit_code);
		sqlite3_bind_int(st, 21, r->signal);
	}
	store_bind_text(st, 22, r->message != NULL ? r->message : "");
	store_bind_text(st, 23, r->node);
	sqlite3_bind_int64(st, 24, (sqlite3_int64)r->gpu_mask);
	sqlite3_bind_int64(st, 25, r->restarts);
	store_job_bind_sched(st, r);
	if (r->umask >= 0)
		sqlite3_bind_int(st, 39, r->umask);
}

int
store_job_insert(const struct store_job *r)
{
	sqlite3_stmt	*st = store_stmts[STORE_JOB_INSERT];
	int64_t		 script, env;

	if (store_begin() != 0)
		return (-1);
	if ((script = store_text_id(r->uid, r->script != NULL ? r->script :
	    "")) == -1 || (env = store_text_id(r->uid, r->env != NULL ?
	    r->env : "{}")) == -1)
		return (-1);
	store_job_bind(st, r);
	sqlite3_bind_text(st, 10, "", 0, SQLITE_STATIC);
	sqlite3_bind_text(st, 13, "", 0, SQLITE_STATIC);
	sqlite3_bind_int64(st, 26, script);
	sqlite3_bind_int64(st, 27, env);
	return (store_step_done(st, "insert job"));
}

int
store_job_update(const struct store_job *r)
{
	sqlite3_stmt	*st = store_stmts[STORE_JOB_UPDATE];

	if (store_begin() != 0)
		return (-1);
	/* The update names a subset of the insert's parameters. */
	sqlite3_bind_int64(st, 1, (sqlite3_int64)r->id);
	store_bind_text(st, 6, job_state_name(r->state));
	store_bind_text(st, 7, r->reason != NULL ? r->reason : "");
	sqlite3_bind_int64(st, 18, r->start_time);
	sqlite3_bind_int64(st, 19, r->end_time);
	if (r->has_exit) {
		sqlite3_bind_int(st, 20, r->exit_code);
		sqlite3_bind_int(st, 21, r->signal);
	}
	store_bind_text(st, 22, r->message != NULL ? r->message : "");
	store_bind_text(st, 23, r->node);
	sqlite3_bind_int64(st, 24, (sqlite3_int64)r->gpu_mask);
	sqlite3_bind_int64(st, 25, r->restarts);
	store_job_bind_sched(st, r);
	return (store_step_done(st, "update job"));
}

int
store_event_insert(uint64_t job, int64_t when, const char *from,
    const char *to, const char *detail)
{
	sqlite3_stmt	*st = store_stmts[STORE_EVENT_INSERT];

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)job);
	sqlite3_bind_int64(st, 2, when);
	store_bind_text(st, 3, from);
	store_bind_text(st, 4, to);
	store_bind_text(st, 5, detail != NULL ? detail : "");
	return (store_step_done(st, "insert job event"));
}

int
store_node_save(const struct store_node *n)
{
	sqlite3_stmt	*st = store_stmts[STORE_NODE_SAVE];

	if (store_begin() != 0)
		return (-1);
	store_bind_text(st, 1, n->name);
	sqlite3_bind_int64(st, 2, n->gpus);
	sqlite3_bind_int(st, 3, n->drained);
	store_bind_text(st, 4, n->reason != NULL ? n->reason : "");
	sqlite3_bind_int64(st, 5, n->last_seen);
	return (store_step_done(st, "save node"));
}

static const char *
store_column_text(sqlite3_stmt *st, int i)
{
	return ((const char *)sqlite3_column_text(st, i));
}

static void
store_job_read(sqlite3_stmt *st, struct store_job *r)
{
	const char	*s;

	memset(r, 0, sizeof *r);
	r->queue = -1;
	r->id = (uint64_t)sqlite3_column_int64(st, 0);
	r->name = store_column_text(st, 1);
	r->user = store_column_text(st, 2);
	r->uid = (uint32_t)sqlite3_column_int64(st, 3);
	r->gid = (uint32_t)sqlite3_column_int64(st, 4);
	s = store_column_text(st, 5);
	if (s == NULL || job_state_parse(s, &r->state) != 0)
		r->state = JOB_FAILED;
	r->reason = store_column_text(st, 6);
	r->gpus = (uint32_t)sqlite3_column_int64(st, 7);
	r->time_limit = (uint64_t)sqlite3_column_int64(st, 8);
	r->script = store_column_text(st, 9);
	r->command = store_column_text(st, 10);
	r->argv = store_column_text(st, 11);
	r->env = store_column_text(st, 12);
	r->workdir = store_column_text(st, 13);
	r->stdout_path = store_column_text(st, 14);
	r->stderr_path = store_column_text(st, 15);
	r->submit_time = sqlite3_column_int64(st, 16);
	r->start_time = sqlite3_column_int64(st, 17);
	r->end_time = sqlite3_column_int64(st, 18);
	if (sqlite3_column_type(st, 19) != SQLITE_NULL) {
		r->has_exit = true;
		r->exit_code = sqlite3_column_int(st, 19);
		r->signal = sqlite3_column_int(st, 20);
	}
	r->message = store_column_text(st, 21);
	r->node = store_column_text(st, 22);
	r->gpu_mask = (uint64_t)sqlite3_column_int64(st, 23);
	r->restarts = (uint32_t)sqlite3_column_int64(st, 24);
	r->attained = (uint64_t)sqlite3_column_int64(st, 25);
	r->executed = sqlite3_column_int64(st, 26);
	r->run_total = sqlite3_column_int64(st, 27);
	r->first_start = sqlite3_column_int64(st, 28);
	r->last_stop = sqlite3_column_int64(st, 29);
	r->preemptions = (uint32_t)sqlite3_column_int64(st, 30);
	r->promotions = (uint32_t)sqlite3_column_int64(st, 31);
	r->flags = (uint32_t)sqlite3_column_int64(st, 32);
	r->ckpt_signal = sqlite3_column_int(st, 33);
	r->ckpt_grace = (uint32_t)sqlite3_column_int64(st, 34);
	r->alloc = store_column_text(st, 35);
	r->umask = sqlite3_column_type(st, 36) == SQLITE_NULL ? -1 :
	    sqlite3_column_int(st, 36);
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
		log_error("store: reading jobs: %s", sqlite3_errmsg(store_db));
		return (-1);
	}
	return (0);
}

int
store_job_each_active(store_job_cb cb, void *arg)
{
	return (store_job_each(store_stmts[STORE_JOB_ACTIVE], cb, arg));
}

int
store_job_each_in_state(enum job_state state, const char *user,
    store_job_cb cb, void *arg)
{
	sqlite3_stmt	*st = store_stmts[STORE_JOB_IN_STATE];

	store_bind_text(st, 1, job_state_name(state));
	store_bind_text(st, 2, user);
	return (store_job_each(st, cb, arg));
}

int
store_job_get(uint64_t id, struct store_job *r)
{
	sqlite3_stmt	*st = store_stmts[STORE_JOB_GET];
	int		 rc;

	/* The previous caller's strings die here, as store.h says. */
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		store_job_read(st, r);
		return (1);
	}
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return (0);
	log_error("job %" PRIu64 ": reading it: %s", id,
	    sqlite3_errmsg(store_db));
	return (-1);
}

void
store_job_done(void)
{
	/* A statement left on a row holds a read snapshot open, which would
	 * keep the WAL from being checkpointed. */
	sqlite3_reset(store_stmts[STORE_JOB_GET]);
}

int
store_job_events(uint64_t id, store_event_cb cb, void *arg)
{
	sqlite3_stmt	*st = store_stmts[STORE_EVENTS_OF];
	int		 rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cb(sqlite3_column_int64(st, 0), store_column_text(st, 1),
		    store_column_text(st, 2), store_column_text(st, 3), arg);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		log_error("job %" PRIu64 ": reading its events: %s", id,
		    sqlite3_errmsg(store_db));
		return (-1);
	}
	return (0);
}

int
store_job_gpu_times(size_t max, uint64_t **out, size_t *n)
{
	sqlite3_stmt	*st = store_stmts[STORE_GPU_TIMES];
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
		    sqlite3_errmsg(store_db));
		free(v);
		*out = NULL;
		*n = 0;
		return (-1);
	}
	return (0);
}

int
store_node_each(store_node_cb cb, void *arg)
{
	sqlite3_stmt		*st = store_stmts[STORE_NODE_ALL];
	struct store_node	 n;
	int			 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n.name = store_column_text(st, 0);
		n.gpus = (uint32_t)sqlite3_column_int64(st, 1);
		n.drained = sqlite3_column_int(st, 2) != 0;
		n.reason = store_column_text(st, 3);
		n.last_seen = sqlite3_column_int64(st, 4);
		cb(&n, arg);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		log_error("store: reading nodes: %s", sqlite3_errmsg(store_db));
		return (-1);
	}
	return (0);
}
