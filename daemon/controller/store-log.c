/* store-log.c: the store's change log (store-log.h), on SQLite's session
 * extension.
 *
 * A session records a table's row as it was before the transaction first
 * changed it; the changeset it writes compares that with the row as it is
 * at the commit. So what a transaction changed and then undid (the
 * purge's savepoint rolled back, a row inserted and deleted) is not in the
 * changeset, and a commit's changeset is exactly what it wrote. */
/* sqlite3.h declares the session extension only when asked; configure
 * checked that the library has it. */
#define SQLITE_ENABLE_SESSION		1
#define SQLITE_ENABLE_PREUPDATE_HOOK	1

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/log.h"
#include "daemon/controller/store-log.h"

static void
store_log_end_session(struct store_log *slog)
{
	if (slog->session != NULL)
		sqlite3session_delete(slog->session);
	slog->session = NULL;
}

static void
store_log_drop(struct store_log *slog)
{
	sqlite3_free(slog->taken);
	slog->taken = NULL;
	slog->taken_len = 0;
}

void
store_log_begun(struct store_log *slog, sqlite3 *db)
{
	store_log_end_session(slog);
	if (!slog->on)
		return;
	if (sqlite3session_create(db, "main", &slog->session) != SQLITE_OK ||
	    sqlite3session_attach(slog->session, NULL) != SQLITE_OK) {
		log_error("store: cannot record the transaction: %s",
		    sqlite3_errmsg(db));
		store_log_end_session(slog);
	}
}

void
store_log_commit(struct store_log *slog)
{
	store_log_drop(slog);
	if (slog->session == NULL)
		return;
	if (sqlite3session_changeset(slog->session, &slog->taken_len,
	    &slog->taken) != SQLITE_OK) {
		log_error("store: cannot write the transaction's changeset");
		slog->taken = NULL;
		slog->taken_len = 0;
	}
	store_log_end_session(slog);
}

void
store_log_rollback(struct store_log *slog)
{
	store_log_end_session(slog);
	store_log_drop(slog);
}

void *
store_log_take(struct store_log *slog, size_t *len)
{
	void	*p = slog->taken;

	*len = p == NULL ? 0 : (size_t)slog->taken_len;
	slog->taken = NULL;
	slog->taken_len = 0;
	if (*len == 0) {
		sqlite3_free(p);
		return (NULL);
	}
	return (p);
}

void
store_log_free(void *p)
{
	sqlite3_free(p);
}

/* Changesets apply, and images are read and written, outside any
 * transaction of the connection's. */
static int
store_log_idle(sqlite3 *db, char *err, size_t errlen)
{
	if (sqlite3_get_autocommit(db) != 0)
		return (0);
	snprintf(err, errlen, "a transaction is open");
	return (-1);
}

/* A changed row takes the changeset's values; a missing one is skipped
 * (store-log.h). A constraint the changeset breaks even so (a unique name
 * held by another row) would leave this copy different from the others:
 * the apply stops. */
static int
store_log_conflict(void *arg, int why, sqlite3_changeset_iter *it)
{
	switch (why) {
	case SQLITE_CHANGESET_DATA:
	case SQLITE_CHANGESET_CONFLICT:
		return (SQLITE_CHANGESET_REPLACE);
	case SQLITE_CHANGESET_NOTFOUND:
	case SQLITE_CHANGESET_FOREIGN_KEY:
		return (SQLITE_CHANGESET_OMIT);
	default:
		return (SQLITE_CHANGESET_ABORT);
	}
}

int
store_log_apply(sqlite3 *db, const void *cs, size_t len, char *err,
    size_t errlen)
{
	char	*msg = NULL;
	int	 rc;

	if (store_log_idle(db, err, errlen) != 0)
		return (-1);
	if (len > INT32_MAX) {
		snprintf(err, errlen, "a changeset of %zu bytes is too long",
		    len);
		return (-1);
	}
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, &msg) != SQLITE_OK)
		goto fail;
	rc = sqlite3changeset_apply(db, (int)len, (void *)cs, NULL,
	    store_log_conflict, NULL);
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "applying a changeset of %zu bytes: %s",
		    len, sqlite3_errstr(rc));
		(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return (-1);
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
		(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto fail;
	}
	return (0);
fail:
	snprintf(err, errlen, "%s", msg != NULL ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return (-1);
}

void *
store_log_image(sqlite3 *db, size_t *len, char *err, size_t errlen)
{
	sqlite3_int64	 n = 0;
	unsigned char	*p;

	*len = 0;
	if (store_log_idle(db, err, errlen) != 0)
		return (NULL);
	if ((p = sqlite3_serialize(db, "main", &n, 0)) == NULL) {
		snprintf(err, errlen, "cannot read the database's image");
		return (NULL);
	}
	*len = (size_t)n;
	return (p);
}

int
store_log_restore(sqlite3 *db, const void *img, size_t len, char *err,
    size_t errlen)
{
	sqlite3		*mem = NULL;
	sqlite3_backup	*b;
	unsigned char	*copy;
	int		 rc;

	if (store_log_idle(db, err, errlen) != 0)
		return (-1);
	/* An image of a database in WAL mode says so in its header (bytes
	 * 18 and 19), and an in-memory copy cannot read one that does: the
	 * copy says rollback journal instead, as SQLite's own CLI does. */
	if (len < 100 || memcmp(img, "SQLite format 3", 16) != 0) {
		snprintf(err, errlen, "the image (%zu bytes) is not an SQLite "
		    "database", len);
		return (-1);
	}
	if ((copy = sqlite3_malloc64(len)) == NULL) {
		snprintf(err, errlen, "out of memory for a %zu-byte image",
		    len);
		return (-1);
	}
	memcpy(copy, img, len);
	copy[18] = copy[19] = 1;
	if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "cannot read the image: out of memory");
		sqlite3_free(copy);
		sqlite3_close(mem);
		return (-1);
	}
	/* Frees copy, even when it fails. */
	if (sqlite3_deserialize(mem, "main", copy, (sqlite3_int64)len,
	    (sqlite3_int64)len, SQLITE_DESERIALIZE_FREEONCLOSE |
	    SQLITE_DESERIALIZE_READONLY) != SQLITE_OK) {
		snprintf(err, errlen, "cannot read the image: %s",
		    sqlite3_errmsg(mem));
		sqlite3_close(mem);
		return (-1);
	}
	if ((b = sqlite3_backup_init(db, "main", mem,
	    "main")) == NULL) {
		snprintf(err, errlen, "cannot restore the image: %s",
		    sqlite3_errmsg(db));
		sqlite3_close(mem);
		return (-1);
	}
	rc = sqlite3_backup_step(b, -1);
	(void)sqlite3_backup_finish(b);
	sqlite3_close(mem);
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "cannot restore the image: %s",
		    sqlite3_errstr(rc));
		return (-1);
	}
	/* The copied header said rollback journal: back to WAL. */
	if (sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL,
	    NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "restored, but not in WAL mode: %s",
		    sqlite3_errmsg(db));
		return (-1);
	}
	return (0);
}
