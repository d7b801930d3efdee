/* wal-ckpt-test.c: the WAL checkpointer's thread, against a real file.
 * A writer commits far more than the threshold; the thread must have
 * checkpointed (its count, and the log's file staying near the
 * threshold's size while the database file grows), with every row kept
 * and the writer's own checkpoints back after the stop. */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "daemon/controller/wal-ckpt.h"
#include "tests/unit/tap.h"

#define T_COMMITS	3000
#define T_ROW		4000	/* bytes a commit writes: about a page */

static char	t_dir[] = "/tmp/wal-ckpt-test.XXXXXX";

static long long
t_size(const char *path)
{
	struct stat	st;

	return (stat(path, &st) == 0 ? (long long)st.st_size : -1);
}

static int
t_exec(sqlite3 *db, const char *sql)
{
	char	*msg = NULL;
	int	 rc = sqlite3_exec(db, sql, NULL, NULL, &msg);

	if (rc != SQLITE_OK)
		printf("# %s: %s\n", sql, msg != NULL ? msg : "?");
	sqlite3_free(msg);
	return (rc);
}

static int
t_count(sqlite3 *db)
{
	sqlite3_stmt	*st;
	int		 n = -1;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM t", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return (n);
}

int
main(void)
{
	struct wal_ckpt	*w;
	struct timespec	 nap = { 0, 10 * 1000 * 1000 };
	sqlite3		*db;
	sqlite3_stmt	*ins;
	char		 path[64], wal[80], err[256], cmd[128];
	unsigned long	 runs = 0, failed = 0, writer_runs = 0;
	long long	 wal_max = 0, sz;
	int		 i, waited, bad = 0;
	static char	 row[T_ROW];

	if (mkdtemp(t_dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(path, sizeof path, "%s/t.db", t_dir);
	snprintf(wal, sizeof wal, "%s-wal", path);
	memset(row, 'x', sizeof row);
	/* The writer waits out the thread's locks, as raft-disk.c's does:
	 * without a busy handler a commit that begins while the thread
	 * copies frames fails at once. */
	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_busy_timeout(db, 5000) != SQLITE_OK ||
	    t_exec(db, "PRAGMA journal_mode = WAL") != SQLITE_OK ||
	    t_exec(db, "PRAGMA synchronous = OFF") != SQLITE_OK ||
	    t_exec(db, "CREATE TABLE t (i INTEGER PRIMARY KEY, b BLOB)") !=
	    SQLITE_OK) {
		printf("Bail out! cannot make %s\n", path);
		return (1);
	}
	w = wal_ckpt_start(db, path, err, sizeof err);
	ok(w != NULL, "started: %s", w == NULL ? err : "ok");
	if (w == NULL)
		return (tap_done());
	sqlite3_prepare_v2(db, "INSERT INTO t (b) VALUES (?1)", -1, &ins,
	    NULL);
	for (i = 0; i < T_COMMITS; i++) {
		sqlite3_bind_blob(ins, 1, row, sizeof row, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE)
			bad++;
		sqlite3_reset(ins);
		if ((sz = t_size(wal)) > wal_max)
			wal_max = sz;
	}
	sqlite3_finalize(ins);
	is_int(bad, 0, "%d commits, each about a page", T_COMMITS);
	/* The thread runs on its own time: poll for its count. */
	for (waited = 0; waited < 1000; waited++) {
		wal_ckpt_counts(w, &runs, &failed, &writer_runs);
		if (runs > 0)
			break;
		nanosleep(&nap, NULL);
	}
	ok(runs > 0, "the thread checkpointed (%lu runs)", runs);
	is_int((int)failed, 0, "no checkpoint failed");
	/* Without checkpoints the log would hold every commit (about 37
	 * MB). The writer here commits without a pause, faster than the
	 * thread copies, so the log is bounded by the writer's own
	 * checkpoints at WAL_CKPT_MOST pages (and a commit's frames), which
	 * wait for the thread's: however slow the thread, no more. */
	ok(wal_max < (WAL_CKPT_MOST + 100) * 4120LL, "the log stayed "
	    "within %d pages: at most %lld bytes (%d commits of a page; the "
	    "writer checkpointed %lu times)", WAL_CKPT_MOST, wal_max,
	    T_COMMITS, writer_runs);
	ok(t_size(path) > (long long)T_COMMITS / 2 * T_ROW,
	    "the database file holds the copied pages (%lld bytes)",
	    t_size(path));
	wal_ckpt_stop(w);
	is_int(t_count(db), T_COMMITS, "every row is there");
	/* Stopped: the writer checkpoints itself again. */
	is_int(sqlite3_wal_autocheckpoint(db, WAL_CKPT_PAGES), SQLITE_OK,
	    "the writer's own checkpoints are back");
	sqlite3_close(db);
	if (sqlite3_open(path, &db) == SQLITE_OK) {
		is_int(t_count(db), T_COMMITS, "every row is there after a "
		    "reopen");
		sqlite3_close(db);
	} else
		ok(0, "reopens");
	/* Failures are logged the 1st, 10th, 100th... time. */
	ok(!wal_ckpt_worth_logging(0), "none failed: nothing to log");
	ok(wal_ckpt_worth_logging(1), "the first failure is logged");
	ok(!wal_ckpt_worth_logging(2) && !wal_ckpt_worth_logging(9) &&
	    !wal_ckpt_worth_logging(11) && !wal_ckpt_worth_logging(20),
	    "the 2nd to 9th, 11th and 20th are not");
	ok(wal_ckpt_worth_logging(10) && wal_ckpt_worth_logging(100) &&
	    wal_ckpt_worth_logging(1000000), "the 10th, 100th, millionth are");
	ok(!wal_ckpt_worth_logging(101) && !wal_ckpt_worth_logging(110) &&
	    !wal_ckpt_worth_logging(1001), "the 101st, 110th, 1001st are not");
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t_dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", t_dir);
	return (tap_done());
}
