/* store-log.h: change logs, what replicated controllers agree on
 * (replica.c). While capture is on, every group transaction of the store
 * is recorded, and its commit leaves behind its change log: the rows it
 * wrote, whole, and the keys of the rows it deleted (every table of the
 * schema has a primary key). A follower applies each log, in the raft
 * log's order, to its own copy, so every replica's database holds the
 * same rows; a snapshot is the whole database's image. Only the write
 * connection is recorded; the schema itself is not (each replica migrates
 * its own at open).
 *
 * This is the store's lower half: it works on the connection it is given,
 * and store.c, which owns the connection and the state below, offers it
 * to the rest (store_capture, store_changeset_*, store_image...). */
#ifndef GB_CTL_STORE_LOG_H
#define GB_CTL_STORE_LOG_H

#include <stdbool.h>
#include <stddef.h>

struct sqlite3;

struct store_log_table;

/* A connection's recording, kept by its owner, and the tables as
 * recording and applying see them (their statements prepared once). */
struct store_log {
	bool			 on;		/* capture asked for */
	bool			 hooked;	/* the connection's hook is ours */
	bool			 recording;	/* the open transaction */
	bool			 broken;	/* a change it could not record */
	void			*taken;		/* the last commit's log */
	size_t			 taken_len;
	struct store_log_table	*tables;
	size_t			 n_tables;
};

/* Called by the connection's owner after its BEGIN, before its COMMIT
 * (the rows are read as the transaction leaves them), and when the
 * transaction is rolled back. */
void	 store_log_begun(struct store_log *, struct sqlite3 *);
void	 store_log_commit(struct store_log *, struct sqlite3 *);
void	 store_log_rollback(struct store_log *);
/* The change log the last commit wrote, handed over (free with
 * store_log_free), or NULL with *len 0 when it changed nothing or nothing
 * was recorded. */
void	*store_log_take(struct store_log *, size_t *len);
void	 store_log_free(void *);
/* Frees what the recording and the applying hold and takes the hook off
 * the connection: before it closes, and when its schema may have changed
 * (an image restored). */
void	 store_log_forget(struct store_log *, struct sqlite3 *);

/* Applies n change logs taken on another replica, in order, in one
 * transaction of their own (none may be open). A row written replaces
 * the row of its key, or is added; a row to delete that is not there is
 * skipped: applying the log from a snapshot over a copy that already
 * holds some of it ends in the same rows. A unique value that another
 * row holds stops the apply instead: this copy would end different from
 * the others. Returns 0, or -1 with err set (naming the log that failed)
 * and nothing changed. */
int	 store_log_apply_all(struct store_log *, struct sqlite3 *,
	     const void *const *logs, const size_t *lens, size_t n, char *err,
	     size_t errlen);
/* The whole database as one image, handed over (free with
 * store_log_free); NULL with err set on failure. */
void	*store_log_image(struct sqlite3 *, size_t *len, char *err,
	     size_t errlen);
/* Replaces every row of the database with an image's. Returns 0, or -1
 * with err set. */
int	 store_log_restore(struct sqlite3 *, const void *, size_t len,
	     char *err, size_t errlen);

#endif
