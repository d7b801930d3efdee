/* wal-ckpt.h: checkpoints an SQLite database's write-ahead log from a
 * thread of its own.
 *
 * SQLite checkpoints a WAL in the commit that takes it past 1,000 pages:
 * that commit copies the log into the database and fsyncs it, a few
 * milliseconds that the caller's event loop then waits. Started on a
 * connection, this turns that off and hands the work to a thread with a
 * connection of its own, which runs a passive checkpoint (one that never
 * waits for the writer, nor makes it wait) whenever a commit leaves the
 * log past the threshold. Only a writer that outruns the thread until
 * the log is WAL_CKPT_MOST pages long checkpoints itself again (after the
 * thread's checkpoint, if one runs). */
#ifndef GB_CTL_WAL_CKPT_H
#define GB_CTL_WAL_CKPT_H

#include <stdbool.h>
#include <stddef.h>

#include <sqlite3.h>

/* The WAL's size, in pages, past which a commit asks for a checkpoint
 * (SQLite's own default). */
#define WAL_CKPT_PAGES	1000
/* The longest the log grows before the writer checkpoints itself. */
#define WAL_CKPT_MOST	(4 * WAL_CKPT_PAGES)

struct wal_ckpt;

/* Starts the checkpointer of db, a connection in WAL mode to the file at
 * path, used by the calling thread alone. Returns it, or NULL with err
 * set (db keeps checkpointing itself). */
struct wal_ckpt	*wal_ckpt_start(sqlite3 *db, const char *path, char *err,
		    size_t errlen);
/* Stops the thread (after the checkpoint it runs, if any) and gives db
 * its own checkpoints back; before db is closed. NULL is ignored. */
void		 wal_ckpt_stop(struct wal_ckpt *);
/* How many checkpoints the thread ran and how many of them failed (a
 * passive checkpoint that found the log busy is not a failure), and how
 * many the writer ran itself. */
void		 wal_ckpt_counts(struct wal_ckpt *, unsigned long *runs,
		    unsigned long *failed, unsigned long *writer_runs);

/* Whether the failed-th failed checkpoint is logged: the 1st, 10th,
 * 100th... (pure). */
bool		 wal_ckpt_worth_logging(unsigned long failed);

#endif
