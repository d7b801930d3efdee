/* raft-disk.c: C-raft's term, vote, log and snapshot in SQLite. See
 * raft-disk.h.
 *
 * The log is the rows of entries, contiguous from meta.log_start (the
 * index the log begins at, past what a snapshot compacted away) to the
 * last row; an empty log says where the next append goes by log_start
 * alone. Raft ids and terms are unsigned 64-bit and SQLite's integers
 * signed: they are stored as the same 64 bits, so ids made by
 * raft_digest() survive. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/xmalloc.h"
#include "daemon/controller/raft-disk.h"
#include "daemon/controller/wal-ckpt.h"

/* "gbRf" in PRAGMA application_id: how we know a raft.db from the jobs
 * database or any other SQLite file put in its place by mistake. */
#define RAFT_DISK_APP_ID	0x67625266

/* The schema, as an ordered list of migrations (store-schema.c's way):
 * PRAGMA user_version holds how many have run, and each sets it last.
 * Append, never edit. */
static const char *const raft_disk_migrations[] = {
	/* 1: the term and vote, the log, the newest snapshot and the
	 * servers of its configuration in their order. */
	"CREATE TABLE meta (id INTEGER PRIMARY KEY CHECK (id = 1),"
	" term INTEGER NOT NULL, vote INTEGER NOT NULL,"
	" log_start INTEGER NOT NULL);"
	"INSERT INTO meta VALUES (1, 0, 0, 1);"
	"CREATE TABLE entries (idx INTEGER PRIMARY KEY,"
	" term INTEGER NOT NULL, type INTEGER NOT NULL, data BLOB NOT NULL);"
	"CREATE TABLE snapshot (id INTEGER PRIMARY KEY CHECK (id = 1),"
	" idx INTEGER NOT NULL, term INTEGER NOT NULL,"
	" conf_index INTEGER NOT NULL, data BLOB NOT NULL);"
	"CREATE TABLE snapshot_servers (pos INTEGER PRIMARY KEY,"
	" id INTEGER NOT NULL, address TEXT NOT NULL, role INTEGER NOT NULL);"
	"PRAGMA user_version = 1",
};
#define RAFT_DISK_VERSION \
	((int)(sizeof raft_disk_migrations / sizeof raft_disk_migrations[0]))

struct raft_disk {
	sqlite3		*db;
	sqlite3_stmt	*append;	/* prepared once: the hot path */
	struct wal_ckpt	*ckpt;
	raft_index	 next;		/* where the next append goes */
	char		 errmsg[RAFT_ERRMSG_BUF_SIZE];
};

static void __attribute__((format(printf, 2, 3)))
raft_disk_fail(struct raft_disk *d, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(d->errmsg, sizeof d->errmsg, fmt, ap);
	va_end(ap);
}

/* Maps SQLite's result code to the one raft_io callers expect, keeping
 * SQLite's message under what. */
static int
raft_disk_sqlerr(struct raft_disk *d, const char *what)
{
	int	rc = sqlite3_errcode(d->db);

	raft_disk_fail(d, "%s: %s", what, sqlite3_errmsg(d->db));
	switch (rc & 0xff) {
	case SQLITE_NOMEM:
		return (RAFT_NOMEM);
	case SQLITE_FULL:
		return (RAFT_NOSPACE);
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return (RAFT_CORRUPT);
	case SQLITE_TOOBIG:
		return (RAFT_TOOBIG);
	default:
		return (RAFT_IOERR);
	}
}

static int
raft_disk_exec(struct raft_disk *d, const char *sql, const char *what)
{
	if (sqlite3_exec(d->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, what));
	return (0);
}

/* Runs sql, one statement, with ?1.. bound to the n values that follow,
 * each an unsigned long long (raft_index, raft_term, raft_id). */
static int
raft_disk_run(struct raft_disk *d, const char *what, const char *sql,
    int n, ...)
{
	sqlite3_stmt	*st;
	va_list		 ap;
	int		 i, rv = 0;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, what));
	va_start(ap, n);
	for (i = 1; i <= n; i++)
		sqlite3_bind_int64(st, i, (sqlite3_int64)va_arg(ap,
		    unsigned long long));
	va_end(ap);
	if (sqlite3_step(st) != SQLITE_DONE)
		rv = raft_disk_sqlerr(d, what);
	sqlite3_finalize(st);
	return (rv);
}

/* The first column of the first row of sql as an integer; 0 if none. */
static int
raft_disk_int(struct raft_disk *d, const char *sql, unsigned long long *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	*out = 0;
	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, sql));
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*out = (unsigned long long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return (raft_disk_sqlerr(d, sql));
	return (0);
}

/* Ends the transaction a write began: COMMIT after rv == 0, otherwise
 * ROLLBACK and rv, with the message the failure left. */
static int
raft_disk_end(struct raft_disk *d, int rv)
{
	char	keep[RAFT_ERRMSG_BUF_SIZE];

	if (rv == 0 && (rv = raft_disk_exec(d, "COMMIT", "commit")) == 0)
		return (0);
	/* A failed COMMIT may leave the transaction open: the next BEGIN
	 * would fail on it. */
	if (sqlite3_get_autocommit(d->db))
		return (rv);
	memcpy(keep, d->errmsg, sizeof keep);
	(void)sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
	memcpy(d->errmsg, keep, sizeof keep);
	return (rv);
}


/* Checks that the file is ours, or new (then makes it ours), and runs the
 * migrations it has not seen. */
static int
raft_disk_schema(struct raft_disk *d)
{
	unsigned long long	app, version, tables;
	int		rv, v;

	if (raft_disk_int(d, "PRAGMA application_id", &app) != 0 ||
	    raft_disk_int(d, "PRAGMA user_version", &version) != 0 ||
	    raft_disk_int(d, "SELECT count(*) FROM sqlite_master",
	    &tables) != 0) {
		raft_disk_fail(d, "not a raft store (%s)",
		    sqlite3_errmsg(d->db));
		return (RAFT_CORRUPT);
	}
	if (app != RAFT_DISK_APP_ID && (app != 0 || tables != 0)) {
		raft_disk_fail(d, "not a raft store but another SQLite "
		    "database (application_id 0x%08x, %u tables)",
		    (unsigned)app, (unsigned)tables);
		return (RAFT_CORRUPT);
	}
	if (version > (unsigned long long)RAFT_DISK_VERSION) {
		raft_disk_fail(d, "raft store of schema version %llu, newer "
		    "than this gbatchd knows (%d): run a newer gbatchd",
		    version, RAFT_DISK_VERSION);
		return (RAFT_CORRUPT);
	}
	for (v = (int)version; v < RAFT_DISK_VERSION; v++) {
		rv = raft_disk_exec(d, "BEGIN IMMEDIATE", "begin");
		if (rv == 0)
			rv = raft_disk_exec(d, raft_disk_migrations[v], "schema");
		/* RAFT_DISK_APP_ID, written out: SQL is fixed text. */
		if (rv == 0)
			rv = raft_disk_exec(d, "PRAGMA application_id = 1734496870",
			    "schema");
		if ((rv = raft_disk_end(d, rv)) != 0)
			return (rv);
	}
	return (0);
}

/* Where the next append goes: after the last entry, or at log_start. */
static int
raft_disk_find_next(struct raft_disk *d)
{
	unsigned long long	last, start;
	int		rv;

	if ((rv = raft_disk_int(d, "SELECT log_start FROM meta",
	    &start)) != 0 ||
	    (rv = raft_disk_int(d, "SELECT max(idx) FROM entries",
	    &last)) != 0)
		return (rv);
	d->next = last != 0 ? last + 1 : start;
	if (d->next == 0) {
		raft_disk_fail(d, "the meta row is missing");
		return (RAFT_CORRUPT);
	}
	return (0);
}

struct raft_disk *
raft_disk_open(const char *path, char *err, size_t errlen)
{
	struct raft_disk	*d;
	int			 fd;

	d = xcalloc(1, sizeof *d);
	/* Made by us so it is 0600 from the first byte (store.c's way):
	 * SQLite gives the -wal and -shm files the same mode. */
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(d);
		return (NULL);
	}
	(void)fchmod(fd, 0600);
	close(fd);
	if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		raft_disk_fail(d, "%s", d->db == NULL ? "out of memory" :
		    sqlite3_errmsg(d->db));
		goto fail;
	}
	/* The file's kind is checked before any pragma writes to it. A
	 * snapshot of tens of MB passes through the WAL in one
	 * transaction; journal_size_limit gives that space back after the
	 * checkpoint. */
	if (raft_disk_schema(d) != 0 ||
	    raft_disk_exec(d, "PRAGMA journal_mode = WAL", "journal") != 0 ||
	    raft_disk_exec(d, "PRAGMA synchronous = FULL", "synchronous") != 0 ||
	    raft_disk_exec(d, "PRAGMA journal_size_limit = 67108864",
	    "journal_size_limit") != 0 ||
	    raft_disk_find_next(d) != 0)
		goto fail;
	if (sqlite3_prepare_v2(d->db, "INSERT INTO entries (idx, term, type, "
	    "data) VALUES (?1, ?2, ?3, ?4)", -1, &d->append, NULL) !=
	    SQLITE_OK) {
		raft_disk_sqlerr(d, "prepare");
		goto fail;
	}
	/* Every replica appends the same entries, so their checkpoints
	 * would fall due together and hold each loop a few ms at once. */
	if ((d->ckpt = wal_ckpt_start(d->db, path, d->errmsg,
	    sizeof d->errmsg)) == NULL)
		goto fail;
	return (d);
fail:
	snprintf(err, errlen, "%s: %s", path, d->errmsg);
	raft_disk_close(d);
	return (NULL);
}

void
raft_disk_close(struct raft_disk *d)
{
	if (d == NULL)
		return;
	wal_ckpt_stop(d->ckpt);
	sqlite3_finalize(d->append);
	sqlite3_close(d->db);
	free(d);
}

const char *
raft_disk_errmsg(const struct raft_disk *d)
{
	return (d->errmsg);
}

raft_index
raft_disk_last_index(const struct raft_disk *d)
{
	return (d->next - 1);
}

/* Frees s as C-raft's snapshotDestroy would; s may be half built. */
static void
raft_disk_snapshot_free(struct raft_snapshot *s)
{
	unsigned	i;

	if (s == NULL)
		return;
	raft_configuration_close(&s->configuration);
	for (i = 0; i < s->n_bufs; i++)
		raft_free(s->bufs[i].base);
	raft_free(s->bufs);
	raft_free(s);
}

/* Adds the snapshot's servers, in their order, to s's configuration. */
static int
raft_disk_servers_read(struct raft_disk *d, struct raft_snapshot *s)
{
	sqlite3_stmt	*st;
	const char	*address;
	int		 rc, rv = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT id, address, role FROM "
	    "snapshot_servers ORDER BY pos", -1, &st, NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, "read snapshot servers"));
	while (rv == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		address = (const char *)sqlite3_column_text(st, 1);
		rv = raft_configuration_add(&s->configuration,
		    (raft_id)sqlite3_column_int64(st, 0), address != NULL ?
		    address : "", sqlite3_column_int(st, 2));
		if (rv != 0 && rv != RAFT_NOMEM) {
			raft_disk_fail(d, "snapshot server %llu: %s",
			    (unsigned long long)sqlite3_column_int64(st, 0),
			    raft_strerror(rv));
			rv = RAFT_CORRUPT;
		}
	}
	if (rv == 0 && rc != SQLITE_DONE)
		rv = raft_disk_sqlerr(d, "read snapshot servers");
	sqlite3_finalize(st);
	return (rv);
}

/* The stored snapshot into *out (NULL if none), allocated as C-raft
 * expects: one buffer, read from the blob without a copy in between. */
static int
raft_disk_snapshot_read(struct raft_disk *d, struct raft_snapshot **out)
{
	struct raft_snapshot	*s = NULL;
	sqlite3_stmt		*st;
	sqlite3_blob		*blob = NULL;
	size_t			 len;
	int			 rc, rv = 0;

	*out = NULL;
	if (sqlite3_prepare_v2(d->db, "SELECT idx, term, conf_index, "
	    "length(data) FROM snapshot", -1, &st, NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, "read snapshot"));
	if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
		rv = rc == SQLITE_DONE ? 0 : raft_disk_sqlerr(d,
		    "read snapshot");
		sqlite3_finalize(st);
		return (rv);
	}
	s = raft_calloc(1, sizeof *s);
	if (s == NULL || (s->bufs = raft_calloc(1, sizeof *s->bufs)) == NULL) {
		sqlite3_finalize(st);
		raft_free(s);
		raft_disk_fail(d, "read snapshot: out of memory");
		return (RAFT_NOMEM);
	}
	raft_configuration_init(&s->configuration);
	s->n_bufs = 1;
	s->index = (raft_index)sqlite3_column_int64(st, 0);
	s->term = (raft_term)sqlite3_column_int64(st, 1);
	s->configuration_index = (raft_index)sqlite3_column_int64(st, 2);
	len = (size_t)sqlite3_column_int64(st, 3);
	sqlite3_finalize(st);
	/* Raft's restore owns bufs[0].base, even of an empty snapshot. */
	if ((s->bufs[0].base = raft_malloc(len > 0 ? len : 1)) == NULL) {
		raft_disk_fail(d, "read snapshot of %zu bytes: out of memory",
		    len);
		rv = RAFT_NOMEM;
		goto fail;
	}
	s->bufs[0].len = len;
	if (s->index == 0 || s->term == 0) {
		raft_disk_fail(d, "snapshot has index %llu, term %llu",
		    s->index, s->term);
		rv = RAFT_CORRUPT;
		goto fail;
	}
	if (len > 0 && (sqlite3_blob_open(d->db, "main", "snapshot", "data",
	    1, 0, &blob) != SQLITE_OK || sqlite3_blob_read(blob,
	    s->bufs[0].base, (int)len, 0) != SQLITE_OK)) {
		rv = raft_disk_sqlerr(d, "read snapshot data");
		goto fail;
	}
	if ((rv = raft_disk_servers_read(d, s)) != 0)
		goto fail;
	sqlite3_blob_close(blob);
	*out = s;
	return (0);
fail:
	sqlite3_blob_close(blob);
	raft_disk_snapshot_free(s);
	return (rv);
}

/* The log, from start, into one entries array and one batch, as C-raft's
 * own stores load it (raft_start frees them through the batch field). */
static int
raft_disk_entries_read(struct raft_disk *d, raft_index start,
    struct raft_entry **out, size_t *n)
{
	struct raft_entry	*e = NULL;
	sqlite3_stmt		*st = NULL;
	unsigned long long		 count, total;
	uint8_t			*batch = NULL, *cursor;
	size_t			 i = 0, len;
	int			 rc, rv;

	*out = NULL;
	*n = 0;
	if ((rv = raft_disk_int(d, "SELECT count(*) FROM entries",
	    &count)) != 0 || (rv = raft_disk_int(d, "SELECT "
	    "coalesce(sum(length(data)), 0) FROM entries", &total)) != 0)
		return (rv);
	if (count == 0)
		return (0);
	e = raft_calloc(count, sizeof *e);
	batch = raft_malloc(total > 0 ? total : 1);
	if (e == NULL || batch == NULL) {
		raft_disk_fail(d, "load %llu entries: out of memory",
		    (unsigned long long)count);
		rv = RAFT_NOMEM;
		goto fail;
	}
	if (sqlite3_prepare_v2(d->db, "SELECT idx, term, type, data FROM "
	    "entries ORDER BY idx", -1, &st, NULL) != SQLITE_OK) {
		rv = raft_disk_sqlerr(d, "load entries");
		goto fail;
	}
	cursor = batch;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && i < count) {
		e[i].term = (raft_term)sqlite3_column_int64(st, 1);
		e[i].type = (unsigned short)sqlite3_column_int(st, 2);
		if ((raft_index)sqlite3_column_int64(st, 0) != start + i ||
		    e[i].term == 0 || e[i].type < RAFT_COMMAND ||
		    e[i].type > RAFT_CHANGE) {
			raft_disk_fail(d, "entry %lld (term %llu, type %u) "
			    "where entry %llu was expected",
			    sqlite3_column_int64(st, 0), e[i].term,
			    e[i].type, start + i);
			rv = RAFT_CORRUPT;
			goto fail;
		}
		len = (size_t)sqlite3_column_bytes(st, 3);
		if ((size_t)(cursor - batch) + len > total) {
			raft_disk_fail(d, "entry %llu: data is not a blob",
			    start + i);
			rv = RAFT_CORRUPT;
			goto fail;
		}
		if (len > 0)
			memcpy(cursor, sqlite3_column_blob(st, 3), len);
		e[i].buf.base = cursor;
		e[i].buf.len = len;
		e[i].batch = batch;
		cursor += len;
		i++;
	}
	if (rc != SQLITE_DONE) {
		rv = raft_disk_sqlerr(d, "load entries");
		goto fail;
	}
	sqlite3_finalize(st);
	*out = e;
	*n = i;
	return (0);
fail:
	sqlite3_finalize(st);
	raft_free(batch);
	raft_free(e);
	return (rv);
}

/* Refuses a stored state that raft_start would assert on, rather than
 * let it abort the daemon. */
static int
raft_disk_check(struct raft_disk *d, const struct raft_snapshot *s,
    raft_index start, const struct raft_entry *e, size_t n)
{
	if (s == NULL && start != 1) {
		raft_disk_fail(d, "the log starts at %llu with no snapshot "
		    "before it", start);
		return (RAFT_CORRUPT);
	}
	if (s == NULL && n > 0 && e[0].type != RAFT_CHANGE) {
		raft_disk_fail(d, "entry 1 is not a configuration");
		return (RAFT_CORRUPT);
	}
	if (s != NULL && (start > s->index + 1 || (n == 0 && start !=
	    s->index + 1) || (n > 0 && start + n - 1 < s->index))) {
		raft_disk_fail(d, "the log (entries %llu to %llu) does not "
		    "reach snapshot %llu", start, start + n - 1, s->index);
		return (RAFT_CORRUPT);
	}
	return (0);
}

int
raft_disk_load(struct raft_disk *d, raft_term *term, raft_id *voted_for,
    struct raft_snapshot **snapshot, raft_index *start_index,
    struct raft_entry **entries, size_t *n_entries)
{
	unsigned long long	start;
	int		rv;

	*snapshot = NULL;
	*entries = NULL;
	*n_entries = 0;
	*start_index = 1;
	/* One read transaction, so the parts agree with each other. */
	if ((rv = raft_disk_exec(d, "BEGIN", "load")) != 0)
		return (rv);
	if ((rv = raft_disk_int(d, "SELECT term FROM meta", term)) != 0 ||
	    (rv = raft_disk_int(d, "SELECT vote FROM meta", voted_for)) != 0 ||
	    (rv = raft_disk_int(d, "SELECT log_start FROM meta",
	    &start)) != 0 ||
	    (rv = raft_disk_snapshot_read(d, snapshot)) != 0 ||
	    (rv = raft_disk_entries_read(d, start, entries, n_entries)) != 0 ||
	    (rv = raft_disk_check(d, *snapshot, start, *entries,
	    *n_entries)) != 0)
		goto fail;
	if ((rv = raft_disk_end(d, 0)) != 0)
		goto fail;
	*start_index = start;
	return (0);
fail:
	(void)raft_disk_end(d, rv);
	raft_disk_snapshot_free(*snapshot);
	*snapshot = NULL;
	if (*entries != NULL)
		raft_free((*entries)[0].batch);
	raft_free(*entries);
	*entries = NULL;
	*n_entries = 0;
	return (rv);
}

/* Writes e at index idx, within the caller's transaction. */
static int
raft_disk_put_entry(struct raft_disk *d, raft_index idx,
    const struct raft_entry *e)
{
	char	what[48];
	int	rv = 0;

	if (e->term == 0 || e->type < RAFT_COMMAND || e->type > RAFT_CHANGE) {
		raft_disk_fail(d, "entry %llu: term %llu, type %u", idx,
		    e->term, e->type);
		return (RAFT_INVALID);
	}
	sqlite3_bind_int64(d->append, 1, (sqlite3_int64)idx);
	sqlite3_bind_int64(d->append, 2, (sqlite3_int64)e->term);
	sqlite3_bind_int(d->append, 3, e->type);
	/* A NULL pointer would bind SQL NULL, not an empty blob. */
	sqlite3_bind_blob64(d->append, 4, e->buf.len > 0 ? e->buf.base : "",
	    e->buf.len, SQLITE_STATIC);
	if (sqlite3_step(d->append) != SQLITE_DONE) {
		snprintf(what, sizeof what, "append entry %llu", idx);
		rv = raft_disk_sqlerr(d, what);
	}
	sqlite3_reset(d->append);
	sqlite3_clear_bindings(d->append);
	return (rv);
}

int
raft_disk_bootstrap(struct raft_disk *d,
    const struct raft_configuration *conf)
{
	struct raft_entry	e;
	unsigned long long		term, n, snap;
	int			rv;

	memset(&e, 0, sizeof e);
	if ((rv = raft_configuration_encode(conf, &e.buf)) != 0) {
		raft_disk_fail(d, "bootstrap: %s", raft_strerror(rv));
		return (rv);
	}
	e.term = 1;
	e.type = RAFT_CHANGE;
	if ((rv = raft_disk_exec(d, "BEGIN IMMEDIATE", "bootstrap")) != 0)
		goto out;
	if ((rv = raft_disk_int(d, "SELECT term FROM meta", &term)) == 0 &&
	    (rv = raft_disk_int(d, "SELECT count(*) FROM entries", &n)) == 0 &&
	    (rv = raft_disk_int(d, "SELECT count(*) FROM snapshot",
	    &snap)) == 0 && (term != 0 || n != 0 || snap != 0)) {
		raft_disk_fail(d, "cannot bootstrap: the store holds term "
		    "%llu, %llu entries and %llu snapshots already",
		    (unsigned long long)term, (unsigned long long)n,
		    (unsigned long long)snap);
		rv = RAFT_CANTBOOTSTRAP;
	}
	if (rv == 0)
		rv = raft_disk_put_entry(d, 1, &e);
	if (rv == 0)
		rv = raft_disk_run(d, "bootstrap", "UPDATE meta SET term = 1, "
		    "vote = 0, log_start = 1", 0);
	if ((rv = raft_disk_end(d, rv)) == 0)
		d->next = 2;
out:
	raft_free(e.buf.base);
	return (rv);
}

int
raft_disk_set_term(struct raft_disk *d, raft_term term)
{
	/* One statement commits alone, durably. */
	return (raft_disk_run(d, "set term", "UPDATE meta SET term = ?1, "
	    "vote = 0", 1, term));
}

int
raft_disk_set_vote(struct raft_disk *d, raft_id id)
{
	return (raft_disk_run(d, "set vote", "UPDATE meta SET vote = ?1", 1,
	    id));
}

int
raft_disk_append(struct raft_disk *d, const struct raft_entry *entries,
    unsigned n)
{
	struct raft_disk_batch	b = { entries, n };

	return (raft_disk_append_batches(d, &b, 1));
}

int
raft_disk_append_batches(struct raft_disk *d,
    const struct raft_disk_batch *b, unsigned nb)
{
	raft_index	next = d->next;
	unsigned	i, j;
	int		rv;

	for (i = 0; i < nb && b[i].n == 0; i++)
		;
	if (i == nb)
		return (0);
	if ((rv = raft_disk_exec(d, "BEGIN IMMEDIATE", "append")) != 0)
		return (rv);
	for (i = 0; i < nb && rv == 0; i++)
		for (j = 0; j < b[i].n && rv == 0; j++)
			rv = raft_disk_put_entry(d, next++, &b[i].entries[j]);
	if ((rv = raft_disk_end(d, rv)) == 0)
		d->next = next;
	return (rv);
}

int
raft_disk_truncate(struct raft_disk *d, raft_index index)
{
	int	rv;

	if (index == 0) {
		raft_disk_fail(d, "truncate at index 0");
		return (RAFT_INVALID);
	}
	if (index >= d->next)
		return (0);
	/* Truncating below log_start (only C-raft's test fixture does)
	 * leaves an empty log that goes on at index, as C-raft's uv does. */
	if ((rv = raft_disk_exec(d, "BEGIN IMMEDIATE", "truncate")) == 0 &&
	    (rv = raft_disk_run(d, "truncate", "DELETE FROM entries WHERE "
	    "idx >= ?1", 1, index)) == 0)
		rv = raft_disk_run(d, "truncate", "UPDATE meta SET log_start = "
		    "min(log_start, ?1)", 1, index);
	if ((rv = raft_disk_end(d, rv)) == 0)
		d->next = index;
	return (rv);
}

/* Writes s's buffers one after the other into the snapshot row's blob,
 * sized beforehand, so tens of MB are never copied into one piece. */
static int
raft_disk_snapshot_write(struct raft_disk *d, const struct raft_snapshot *s,
    size_t total)
{
	sqlite3_stmt	*st;
	sqlite3_blob	*blob = NULL;
	size_t		 off = 0;
	unsigned	 i;
	int		 rv = 0;

	if ((rv = raft_disk_run(d, "put snapshot", "INSERT INTO snapshot "
	    "VALUES (1, ?1, ?2, ?3, zeroblob(?4))", 4, s->index, s->term,
	    s->configuration_index, (unsigned long long)total)) != 0)
		return (rv);
	if (total > 0 && sqlite3_blob_open(d->db, "main", "snapshot", "data",
	    1, 1, &blob) != SQLITE_OK)
		rv = raft_disk_sqlerr(d, "put snapshot data");
	for (i = 0; rv == 0 && i < s->n_bufs; off += s->bufs[i++].len)
		if (s->bufs[i].len > 0 && sqlite3_blob_write(blob,
		    s->bufs[i].base, (int)s->bufs[i].len, (int)off) != SQLITE_OK)
			rv = raft_disk_sqlerr(d, "put snapshot data");
	if (sqlite3_blob_close(blob) != SQLITE_OK && rv == 0)
		rv = raft_disk_sqlerr(d, "put snapshot data");
	if (rv != 0)
		return (rv);
	if (sqlite3_prepare_v2(d->db, "INSERT INTO snapshot_servers VALUES "
	    "(?1, ?2, ?3, ?4)", -1, &st, NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, "put snapshot servers"));
	for (i = 0; rv == 0 && i < s->configuration.n; i++) {
		sqlite3_bind_int(st, 1, (int)i);
		sqlite3_bind_int64(st, 2,
		    (sqlite3_int64)s->configuration.servers[i].id);
		sqlite3_bind_text(st, 3, s->configuration.servers[i].address,
		    -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 4, s->configuration.servers[i].role);
		if (sqlite3_step(st) != SQLITE_DONE)
			rv = raft_disk_sqlerr(d, "put snapshot servers");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return (rv);
}

int
raft_disk_snapshot_put(struct raft_disk *d, unsigned trailing,
    const struct raft_snapshot *s)
{
	raft_index	next = d->next, retain;
	size_t		total = 0;
	unsigned	i;
	int		rv;

	for (i = 0; i < s->n_bufs; i++)
		total += s->bufs[i].len;
	/* Blob I/O takes int offsets; SQLite's own limit is lower still. */
	if (total > (size_t)sqlite3_limit(d->db, SQLITE_LIMIT_LENGTH, -1)) {
		raft_disk_fail(d, "snapshot %llu of %zu bytes: over SQLite's "
		    "limit of %d", s->index, total,
		    sqlite3_limit(d->db, SQLITE_LIMIT_LENGTH, -1));
		return (RAFT_TOOBIG);
	}
	if (s->index == 0 || s->term == 0) {
		raft_disk_fail(d, "snapshot with index %llu, term %llu",
		    s->index, s->term);
		return (RAFT_INVALID);
	}
	if ((rv = raft_disk_exec(d, "BEGIN IMMEDIATE", "put snapshot")) == 0 &&
	    (rv = raft_disk_exec(d, "DELETE FROM snapshot; DELETE FROM "
	    "snapshot_servers", "put snapshot")) == 0)
		rv = raft_disk_snapshot_write(d, s, total);
	if (rv == 0 && trailing == 0) {
		/* Installed from the leader: the log, even past the
		 * snapshot, is the old leader's history and goes. */
		next = s->index + 1;
		if ((rv = raft_disk_exec(d, "DELETE FROM entries",
		    "put snapshot")) == 0)
			rv = raft_disk_run(d, "put snapshot", "UPDATE meta SET "
			    "log_start = ?1", 1, next);
	} else if (rv == 0 && s->index > trailing) {
		/* Taken here: keep the trailing entries up to the snapshot,
		 * for followers just behind, and all after it. */
		retain = s->index - trailing + 1;
		if ((rv = raft_disk_run(d, "put snapshot", "DELETE FROM "
		    "entries WHERE idx < ?1", 1, retain)) == 0)
			rv = raft_disk_run(d, "put snapshot", "UPDATE meta SET "
			    "log_start = max(log_start, ?1)", 1,
			    retain < next ? retain : next);
	}
	if ((rv = raft_disk_end(d, rv)) == 0)
		d->next = next;
	return (rv);
}

int
raft_disk_snapshot_get(struct raft_disk *d, struct raft_snapshot **s)
{
	int	rv;

	*s = NULL;
	if ((rv = raft_disk_exec(d, "BEGIN", "get snapshot")) != 0)
		return (rv);
	rv = raft_disk_end(d, raft_disk_snapshot_read(d, s));
	if (rv != 0) {
		raft_disk_snapshot_free(*s);
		*s = NULL;
	} else if (*s == NULL) {
		raft_disk_fail(d, "there is no snapshot");
		rv = RAFT_NOTFOUND;
	}
	return (rv);
}
