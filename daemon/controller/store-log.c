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

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/log.h"
#include "common/xmalloc.h"
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

/* A table as the applier writes to it: its columns (from the schema,
 * the changeset has only their number), which of them make the primary
 * key, and its three statements:
 *   put  INSERT ... VALUES (?1..?n) ON CONFLICT (pk) DO UPDATE SET every
 *        other column: a row already there takes the changeset's values,
 *        another unique value breaks (the apply stops);
 *   set  UPDATE ... SET c = CASE WHEN ?(n+i) THEN ?i ELSE c END, ...
 *        WHERE pk = ?(2n+i): the columns the changeset changed, by the
 *        key's old values (sessions record a changed key as a delete and
 *        an insert);
 *   del  DELETE ... WHERE pk = ?i.
 * A row the update or delete does not find is skipped. */
struct store_log_table {
	char		*name;
	int		 n_col;
	bool		*pk;
	sqlite3_stmt	*put, *set, *del;
};

static void
store_log_table_free(struct store_log_table *t)
{
	free(t->name);
	free(t->pk);
	sqlite3_finalize(t->put);
	sqlite3_finalize(t->set);
	sqlite3_finalize(t->del);
}

void
store_log_forget(struct store_log *slog)
{
	size_t	i;

	store_log_rollback(slog);
	for (i = 0; i < slog->n_tables; i++)
		store_log_table_free(&slog->tables[i]);
	free(slog->tables);
	slog->tables = NULL;
	slog->n_tables = 0;
}

/* Appends to *sql (an sqlite3_mprintf string, or NULL on failure). */
static void
store_log_sql(char **sql, const char *fmt, ...)
{
	va_list	 ap;
	char	*more, *both;

	if (*sql == NULL)
		return;
	va_start(ap, fmt);
	more = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	both = more == NULL ? NULL : sqlite3_mprintf("%s%s", *sql, more);
	sqlite3_free(more);
	sqlite3_free(*sql);
	*sql = both;
}

static int
store_log_prepare(sqlite3 *db, char *sql, sqlite3_stmt **st)
{
	int	rc;

	if (sql == NULL)
		return (SQLITE_NOMEM);
	rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
	    NULL);
	sqlite3_free(sql);
	return (rc);
}

/* Writes t's statements from its columns' names. */
static int
store_log_table_sql(sqlite3 *db, struct store_log_table *t, char **names)
{
	char	*put, *set, *del, *keys;
	int	 i, n_pk = 0;
	int	 rc;

	put = sqlite3_mprintf("INSERT INTO main.\"%w\" VALUES (", t->name);
	for (i = 0; i < t->n_col; i++)
		store_log_sql(&put, "%s?%d", i > 0 ? ", " : "", i + 1);
	keys = sqlite3_mprintf("");
	del = sqlite3_mprintf("DELETE FROM main.\"%w\" WHERE ", t->name);
	set = sqlite3_mprintf("UPDATE main.\"%w\" SET ", t->name);
	for (i = 0; i < t->n_col; i++) {
		if (!t->pk[i])
			continue;
		store_log_sql(&keys, "%s\"%w\"", n_pk > 0 ? ", " : "",
		    names[i]);
		store_log_sql(&del, "%s\"%w\" = ?%d", n_pk > 0 ? " AND " : "",
		    names[i], i + 1);
		n_pk++;
	}
	store_log_sql(&put, ") ON CONFLICT (%s) DO ", keys == NULL ? "" :
	    keys);
	sqlite3_free(keys);
	if (n_pk == t->n_col)
		store_log_sql(&put, "NOTHING");
	else
		store_log_sql(&put, "UPDATE SET ");
	for (i = 0, n_pk = 0; i < t->n_col; i++) {
		if (t->pk[i])
			continue;
		store_log_sql(&put, "%s\"%w\" = excluded.\"%w\"",
		    n_pk > 0 ? ", " : "", names[i], names[i]);
		store_log_sql(&set, "%s\"%w\" = CASE WHEN ?%d THEN ?%d ELSE "
		    "\"%w\" END", n_pk > 0 ? ", " : "", names[i],
		    t->n_col + i + 1, i + 1, names[i]);
		n_pk++;
	}
	store_log_sql(&set, " WHERE ");
	for (i = 0, n_pk = 0; i < t->n_col; i++) {
		if (!t->pk[i])
			continue;
		store_log_sql(&set, "%s\"%w\" = ?%d", n_pk > 0 ? " AND " : "",
		    names[i], 2 * t->n_col + i + 1);
		n_pk++;
	}
	rc = store_log_prepare(db, put, &t->put);
	if (rc == SQLITE_OK && n_pk < t->n_col)
		rc = store_log_prepare(db, set, &t->set);
	else
		sqlite3_free(set);
	if (rc == SQLITE_OK)
		rc = store_log_prepare(db, del, &t->del);
	else
		sqlite3_free(del);
	return (rc);
}

/* The table named so, its statements written on first use. NULL with
 * err set if the schema has no such table, one without a primary key,
 * or one of another number of columns than the changeset's. */
static struct store_log_table *
store_log_table(struct store_log *slog, sqlite3 *db, const char *name,
    int n_col, char *err, size_t errlen)
{
	struct store_log_table	 t = { 0 };
	sqlite3_stmt		*st = NULL;
	char			**names = NULL, *sql;
	size_t			 i;
	int			 n = 0, rc, has_pk = 0;

	for (i = 0; i < slog->n_tables; i++)
		if (strcmp(slog->tables[i].name, name) == 0) {
			if (slog->tables[i].n_col == n_col)
				return (&slog->tables[i]);
			break;
		}
	if (i < slog->n_tables) {
		snprintf(err, errlen, "table %s has %d columns here, %d in "
		    "the changeset", name, slog->tables[i].n_col, n_col);
		return (NULL);
	}
	sql = sqlite3_mprintf("PRAGMA main.table_info(\"%w\")", name);
	if (sql == NULL || sqlite3_prepare_v2(db, sql, -1, &st, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "cannot read table %s: %s", name,
		    sqlite3_errmsg(db));
		sqlite3_free(sql);
		return (NULL);
	}
	sqlite3_free(sql);
	t.name = xstrdup(name);
	t.n_col = n_col;
	t.pk = xcalloc((size_t)n_col + 1, sizeof *t.pk);
	names = xcalloc((size_t)n_col + 1, sizeof *names);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n < n_col) {
			names[n] = xstrdup((const char *)sqlite3_column_text(st,
			    1));
			t.pk[n] = sqlite3_column_int(st, 5) > 0;
			has_pk |= t.pk[n];
		}
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE || n != n_col || !has_pk)
		snprintf(err, errlen, n == 0 ? "no table %s here" : !has_pk ?
		    "table %s has no primary key" : "table %s has %d columns "
		    "here, %d in the changeset", name, n, n_col);
	else if ((rc = store_log_table_sql(db, &t, names)) != SQLITE_OK)
		snprintf(err, errlen, "cannot write to table %s: %s", name,
		    sqlite3_errstr(rc));
	for (i = 0; i < (size_t)n_col; i++)
		free(names[i]);
	free(names);
	if (err[0] != '\0') {
		store_log_table_free(&t);
		return (NULL);
	}
	slog->tables = xreallocarray(slog->tables, slog->n_tables + 1,
	    sizeof *slog->tables);
	slog->tables[slog->n_tables] = t;
	return (&slog->tables[slog->n_tables++]);
}

/* Binds v (NULL: SQL NULL) to parameter i of st. */
static int
store_log_bind(sqlite3_stmt *st, int i, sqlite3_value *v)
{
	return (v == NULL ? sqlite3_bind_null(st, i) :
	    sqlite3_bind_value(st, i, v));
}

/* One change: the row's statement, bound from the iterator and run. */
static int
store_log_change(sqlite3_changeset_iter *it, struct store_log_table *t,
    int op)
{
	sqlite3_stmt	*st;
	sqlite3_value	*v;
	int		 i, rc = SQLITE_OK;

	st = op == SQLITE_INSERT ? t->put : op == SQLITE_DELETE ? t->del :
	    t->set;
	if (st == NULL)
		return (SQLITE_OK);	/* an update of a table of keys only */
	for (i = 0; i < t->n_col && rc == SQLITE_OK; i++) {
		v = NULL;
		if (op == SQLITE_INSERT) {
			if ((rc = sqlite3changeset_new(it, i, &v)) == SQLITE_OK)
				rc = store_log_bind(st, i + 1, v);
		} else if (t->pk[i]) {
			if ((rc = sqlite3changeset_old(it, i, &v)) == SQLITE_OK)
				rc = store_log_bind(st, op == SQLITE_DELETE ?
				    i + 1 : 2 * t->n_col + i + 1, v);
		} else if (op == SQLITE_UPDATE) {
			/* An unchanged column's new value is NULL. */
			if ((rc = sqlite3changeset_new(it, i, &v)) == SQLITE_OK)
				rc = store_log_bind(st, i + 1, v);
			if (rc == SQLITE_OK)
				rc = sqlite3_bind_int(st, t->n_col + i + 1,
				    v != NULL);
		}
	}
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return (rc);
}

int
store_log_apply(struct store_log *slog, sqlite3 *db, const void *cs,
    size_t len, char *err, size_t errlen)
{
	sqlite3_changeset_iter	*it = NULL;
	struct store_log_table	*t;
	const char		*name;
	char			*msg = NULL, why[256];
	int			 n_col, op, indirect, rc;

	err[0] = '\0';
	if (store_log_idle(db, err, errlen) != 0)
		return (-1);
	if (len > INT32_MAX) {
		snprintf(err, errlen, "a changeset of %zu bytes is too long",
		    len);
		return (-1);
	}
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s", msg != NULL ? msg :
		    sqlite3_errmsg(db));
		sqlite3_free(msg);
		return (-1);
	}
	rc = sqlite3changeset_start(&it, (int)len, (void *)cs);
	while (rc == SQLITE_OK && (rc = sqlite3changeset_next(it)) ==
	    SQLITE_ROW) {
		rc = sqlite3changeset_op(it, &name, &n_col, &op, &indirect);
		if (rc != SQLITE_OK)
			break;
		if ((t = store_log_table(slog, db, name, n_col, err,
		    errlen)) == NULL) {
			rc = SQLITE_ERROR;
			break;
		}
		if ((rc = store_log_change(it, t, op)) != SQLITE_OK)
			snprintf(err, errlen, "table %s: %s", name,
			    sqlite3_errmsg(db));
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	if (it != NULL && sqlite3changeset_finalize(it) != SQLITE_OK &&
	    rc == SQLITE_OK)
		rc = SQLITE_CORRUPT;
	if (rc == SQLITE_OK && sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "%s", msg != NULL ? msg :
		    sqlite3_errmsg(db));
		sqlite3_free(msg);
		rc = SQLITE_ERROR;
	}
	if (rc == SQLITE_OK)
		return (0);
	if (err[0] == '\0')
		snprintf(err, errlen, "%s", sqlite3_errstr(rc));
	(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	snprintf(why, sizeof why, "%s", err);
	snprintf(err, errlen, "applying a changeset of %zu bytes: %s", len,
	    why);
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
