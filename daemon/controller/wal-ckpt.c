/* wal-ckpt.c: a WAL's checkpoints on a thread (wal-ckpt.h).
 *
 * The writer's commit hook only raises a flag under the mutex; the thread
 * waits on the condition, then checkpoints with its own connection, so no
 * connection is ever used by two threads. A passive checkpoint copies the
 * frames that no reader needs and stops there; the writer starts the log
 * over at its next commit once every frame is copied. A writer that
 * commits faster than the thread copies would never find every frame
 * copied, and the log would grow without end: past WAL_CKPT_MOST pages
 * the writer waits for the thread's checkpoint to end, if one runs, and
 * checkpoints itself, as SQLite would, so the log stays within that
 * while commits keep coming. (SQLite's own busy handler is no help: a
 * checkpoint that finds another running fails at once.)
 *
 * A checkpoint that fails (not one that found the log busy: an I/O error,
 * a full disk) leaves the log growing until one succeeds: it is logged
 * with SQLite's reason, the 1st, 10th, 100th... of them, so a disk that
 * fails every checkpoint is seen and does not fill the log. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/wal-ckpt.h"

struct wal_ckpt {
	sqlite3		*db;		/* the writer's */
	sqlite3		*own;		/* the thread's */
	char		*path;
	pthread_t	 thread;
	pthread_mutex_t	 lock;
	pthread_cond_t	 wake;
	pthread_cond_t	 idle;		/* the thread's checkpoint ended */
	bool		 running;	/* the thread checkpoints */
	bool		 writer;	/* the writer checkpoints */
	bool		 wanted;
	bool		 stopping;
	unsigned long	 runs;
	unsigned long	 failed;
	unsigned long	 writer_runs;
};

bool
wal_ckpt_worth_logging(unsigned long failed)
{
	if (failed == 0)
		return (false);
	while (failed % 10 == 0)
		failed /= 10;
	return (failed == 1);
}

/* Counts a failed checkpoint (rc, SQLite's reason why) by the thread or
 * the writer, under the lock, and logs it when it is worth it (after the
 * lock is let go). */
static void
wal_ckpt_failed(struct wal_ckpt *w, int rc, const char *why,
    const char *by)
{
	unsigned long	n;

	if (rc == SQLITE_OK || rc == SQLITE_BUSY)
		return;
	pthread_mutex_lock(&w->lock);
	n = ++w->failed;
	pthread_mutex_unlock(&w->lock);
	if (wal_ckpt_worth_logging(n))
		log_warn("%s: a checkpoint of its write-ahead log by %s "
		    "failed: %s; the log grows until one succeeds (%lu "
		    "failed so far)", w->path, by, why, n);
}

/* SQLite calls this after each commit of db, in the writer's thread. */
static int
wal_ckpt_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct wal_ckpt	*w = arg;
	int		 rc;

	if (pages < WAL_CKPT_PAGES)
		return (SQLITE_OK);
	if (pages >= WAL_CKPT_MOST) {
		pthread_mutex_lock(&w->lock);
		while (w->running)
			pthread_cond_wait(&w->idle, &w->lock);
		w->writer = true;
		w->wanted = false;
		pthread_mutex_unlock(&w->lock);
		rc = sqlite3_wal_checkpoint_v2(db, name,
		    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&w->lock);
		w->writer = false;
		w->writer_runs++;
		pthread_mutex_unlock(&w->lock);
		wal_ckpt_failed(w, rc, sqlite3_errmsg(db), "the writer");
		return (SQLITE_OK);
	}
	pthread_mutex_lock(&w->lock);
	if (!w->wanted) {
		w->wanted = true;
		pthread_cond_signal(&w->wake);
	}
	pthread_mutex_unlock(&w->lock);
	return (SQLITE_OK);
}

static void *
wal_ckpt_run(void *arg)
{
	struct wal_ckpt	*w = arg;
	int		 rc;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while ((!w->wanted || w->writer) && !w->stopping)
			pthread_cond_wait(&w->wake, &w->lock);
		if (w->stopping)
			break;
		w->wanted = false;
		w->running = true;
		pthread_mutex_unlock(&w->lock);
		rc = sqlite3_wal_checkpoint_v2(w->own, NULL,
		    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		wal_ckpt_failed(w, rc, sqlite3_errmsg(w->own), "its thread");
		pthread_mutex_lock(&w->lock);
		w->running = false;
		pthread_cond_broadcast(&w->idle);
		w->runs++;
	}
	pthread_mutex_unlock(&w->lock);
	return (NULL);
}

struct wal_ckpt *
wal_ckpt_start(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	struct wal_ckpt	*w = xcalloc(1, sizeof *w);

	w->db = db;
	w->path = xstrdup(path);
	if (sqlite3_open_v2(path, &w->own, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: the checkpointer's connection: %s",
		    path, w->own == NULL ? "out of memory" :
		    sqlite3_errmsg(w->own));
		goto fail;
	}
	/* A checkpoint waits for no lock: the writer is never held. A
	 * connection learns that the file is in WAL mode from its first
	 * read; until then a checkpoint does nothing and says it is done. */
	sqlite3_busy_timeout(w->own, 0);
	if (sqlite3_exec(w->own, "SELECT count(*) FROM sqlite_master", NULL,
	    NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: the checkpointer's connection: %s",
		    path, sqlite3_errmsg(w->own));
		goto fail;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->idle, NULL);
	if (pthread_create(&w->thread, NULL, wal_ckpt_run, w) != 0) {
		snprintf(err, errlen, "%s: cannot start the checkpointer's "
		    "thread", path);
		pthread_cond_destroy(&w->idle);
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		goto fail;
	}
	/* Replaces SQLite's own checkpoints (wal_autocheckpoint is this
	 * hook). */
	sqlite3_wal_hook(db, wal_ckpt_hook, w);
	return (w);
fail:
	sqlite3_close(w->own);
	free(w->path);
	free(w);
	return (NULL);
}

void
wal_ckpt_stop(struct wal_ckpt *w)
{
	if (w == NULL)
		return;
	sqlite3_wal_autocheckpoint(w->db, WAL_CKPT_PAGES);
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->idle);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	sqlite3_close(w->own);
	free(w->path);
	free(w);
}

void
wal_ckpt_counts(struct wal_ckpt *w, unsigned long *runs,
    unsigned long *failed, unsigned long *writer_runs)
{
	pthread_mutex_lock(&w->lock);
	*runs = w->runs;
	*failed = w->failed;
	*writer_runs = w->writer_runs;
	pthread_mutex_unlock(&w->lock);
}
