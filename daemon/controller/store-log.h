/* store-log.h: the store's change log, what replicated controllers agree
 * on (replica.c). While capture is on, every group transaction is recorded
 * by SQLite's session extension, and its commit leaves behind the
 * changeset it wrote: the rows it inserted, the columns it changed and the
 * rows it deleted, keyed by primary key (every table of the schema has
 * one). A follower applies each changeset, in the log's order, to its own
 * copy, so every replica's database holds the same rows; a snapshot is the
 * whole database's image. Only the write connection is recorded; the
 * schema itself is not (each replica migrates its own at open). */
#ifndef GB_CTL_STORE_LOG_H
#define GB_CTL_STORE_LOG_H

#include <stdbool.h>
#include <stddef.h>

/* Starts or stops recording the group transactions that begin from now
 * on. */
void	 store_log_capture(bool on);
/* Whether recording is on. */
bool	 store_log_capturing(void);
/* The changeset the last commit wrote, handed over (free with
 * store_log_free), or NULL with *len 0 when it changed nothing or nothing
 * was recorded. Each commit replaces the one before: take it right after
 * store_commit. */
void	*store_log_take(size_t *len);
void	 store_log_free(void *);

/* Applies a changeset taken on another replica, in a transaction of its
 * own (the group transaction must not be open). A row the changeset finds
 * changed is overwritten with its values, a row it would delete or update
 * but that is not there is skipped: applying the log from a snapshot over
 * a copy that already holds some of it ends in the same rows. Returns 0,
 * or -1 with err set and nothing changed. */
int	 store_log_apply(const void *, size_t len, char *err, size_t errlen);

/* The whole database as one image (a snapshot of the state), handed over
 * (free with store_log_free); NULL with err set on failure. */
void	*store_log_image(size_t *len, char *err, size_t errlen);
/* Replaces every row of the database with an image's (an installed
 * snapshot). Returns 0, or -1 with err set and nothing changed. */
int	 store_log_restore(const void *, size_t len, char *err, size_t errlen);

/* Called by store.c: after its BEGIN, before its COMMIT, and when the
 * transaction is rolled back. */
void	 store_log_begun(void);
void	 store_log_commit(void);
void	 store_log_rollback(void);

#endif
