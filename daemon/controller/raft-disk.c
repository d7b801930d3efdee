/* raft-disk.c: C-raft's term, vote and snapshot in SQLite, and its log in
 * raft-segs.c's segment files beside it (raft.db-log/). See raft-disk.h.
 *
 * meta.log_start is the index the log begins at, past what a snapshot
 * compacted away; the log holds the entries from there on, and an empty
 * log says where the next append goes by log_start alone. A change to
 * both (a snapshot, a truncation below log_start) commits raft.db first
 * and then changes the log, so a crash in between leaves entries before
 * log_start, which the log skips, or entries past a snapshot installed
 * from the leader: entries it sent and raft handles like any a follower
 * holds. Raft ids and terms are unsigned 64-bit and SQLite's integers
 * signed: they are stored as the same 64 bits, so ids made by
 * raft_digest() survive. */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/xmalloc.h"
#include "daemon/controller/raft-disk.h"
#include "daemon/controller/raft-segs.h"
#include "daemon/controller/wal-ckpt.h"

/* "gbRf" in PRAGMA application_id: how we know a raft.db from the jobs
 * database or any other SQLite file put in its place by mistake. */
#define RAFT_DISK_APP_ID	0x67625266

/* The schema, as an ordered list of migrations (store-schema.c's way):
 * PRAGMA user_version holds how many have run, and each sets it last.
 * Append, never edit. */
static const char *const raft_disk_migrations[] = {
	/* 1: the term and vote, the log, the newest snapshot and the
	 * servers of its configuration in their order. The entries have
	 * moved to raft-segs.c's files since: a store that still holds rows
	 * has them moved when it is opened. */
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
	/* 2: which history the log continues: '' for a set that started
	 * empty, or the seed's name (raft_disk_seed). */
	"ALTER TABLE meta ADD COLUMN history TEXT NOT NULL DEFAULT '';"
	"PRAGMA user_version = 2",
};
#define RAFT_DISK_VERSION \
	((int)(sizeof raft_disk_migrations / sizeof raft_disk_migrations[0]))

struct raft_disk {
	sqlite3		*db;
	struct raft_segs	*log;
	struct wal_ckpt	*ckpt;
	raft_index	 start;		/* meta.log_start */
	int		 created;	/* the schema was made by this open */
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

/* One statement with one text parameter. */
static int
raft_disk_text(struct raft_disk *d, const char *what, const char *sql,
    const char *text)
{
	sqlite3_stmt	*st;
	int		 rv = 0;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, what));
	sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
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
	d->created = version == 0;
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
static void
raft_disk_find_next(struct raft_disk *d)
{
	raft_index	last = raft_segs_last(d->log);

	d->next = last != 0 ? last + 1 : d->start;
}

/* Whether dir is absent or holds nothing. */
static bool
raft_disk_dir_empty(const char *dir)
{
	struct dirent	*de;
	DIR		*dp;
	bool		 empty = true;

	if ((dp = opendir(dir)) == NULL)
		return (errno == ENOENT);
	while (empty && (de = readdir(dp)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0;
	closedir(dp);
	return (empty);
}

/* Moves the rows of entries, a store's log before raft-segs.c, into the log
 * files: those first, synced, then the rows go. A crash in between moves
 * them again from the start. */
static int
raft_disk_import(struct raft_disk *d)
{
	struct raft_entry	 e;
	sqlite3_stmt		*st;
	unsigned long long	 rows;
	raft_index		 idx;
	int			 rc, rv;

	/* Any row at all: the table is empty once moved, so a store
	 * that never had rows is not written to here. */
	if ((rv = raft_disk_int(d, "SELECT count(*) FROM entries",
	    &rows)) != 0 || rows == 0)
		return (rv);
	if ((rv = raft_segs_reset(d->log, d->start)) != 0) {
		raft_disk_fail(d, "import: %s", raft_segs_errmsg(d->log));
		return (rv);
	}
	if (sqlite3_prepare_v2(d->db, "SELECT idx, term, type, data FROM "
	    "entries WHERE idx >= (SELECT log_start FROM meta) ORDER BY idx",
	    -1, &st, NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, "import"));
	while (rv == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&e, 0, sizeof e);
		idx = (raft_index)sqlite3_column_int64(st, 0);
		e.term = (raft_term)sqlite3_column_int64(st, 1);
		e.type = (unsigned short)sqlite3_column_int(st, 2);
		e.buf.base = (void *)sqlite3_column_blob(st, 3);
		e.buf.len = (size_t)sqlite3_column_bytes(st, 3);
		if ((rv = raft_segs_append(d->log, idx, &e, 1)) != 0) {
			raft_disk_fail(d, "import entry %llu: %s", idx,
			    raft_segs_errmsg(d->log));
			rv = RAFT_CORRUPT;
		}
	}
	if (rv == 0 && rc != SQLITE_DONE)
		rv = raft_disk_sqlerr(d, "import");
	sqlite3_finalize(st);
	if (rv == 0 && (rv = raft_segs_sync(d->log)) != 0)
		raft_disk_fail(d, "import: %s", raft_segs_errmsg(d->log));
	if (rv == 0)
		rv = raft_disk_exec(d, "DELETE FROM entries", "import");
	return (rv);
}

struct raft_disk *
raft_disk_open(const char *path, char *err, size_t errlen)
{
	struct raft_disk	*d;
	unsigned long long	 start;
	char			*log_dir;
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
	/* wal-ckpt's thread holds a WAL lock while it copies frames, and a
	 * transaction that begins then gets SQLITE_BUSY at once without a
	 * busy handler (wal-ckpt.t saw 302 of 3,000 commits fail so, under
	 * the sanitizers' slower run): wait for it, as store.c does. */
	sqlite3_busy_timeout(d->db, 5000);
	/* The file's kind is checked before any pragma writes to it. A
	 * snapshot of tens of MB passes through the WAL in one
	 * transaction; journal_size_limit gives that space back after the
	 * checkpoint. */
	if (raft_disk_schema(d) != 0 ||
	    raft_disk_exec(d, "PRAGMA journal_mode = WAL", "journal") != 0 ||
	    raft_disk_exec(d, "PRAGMA synchronous = FULL", "synchronous") != 0 ||
	    raft_disk_exec(d, "PRAGMA journal_size_limit = 67108864",
	    "journal_size_limit") != 0 ||
	    raft_disk_int(d, "SELECT log_start FROM meta", &start) != 0)
		goto fail;
	if ((d->start = start) == 0) {
		raft_disk_fail(d, "the meta row is missing");
		goto fail;
	}
	log_dir = xasprintf("%s-log", path);
	if (d->created && !raft_disk_dir_empty(log_dir)) {
		raft_disk_fail(d, "the file is new but %s holds a log, the "
		    "log of the raft.db that was here: remove that directory "
		    "too, or put its raft.db back", log_dir);
		free(log_dir);
		goto fail;
	}
	d->log = raft_segs_open(log_dir, d->start, d->errmsg,
	    sizeof d->errmsg);
	free(log_dir);
	if (d->log == NULL || raft_disk_import(d) != 0)
		goto fail;
	raft_disk_find_next(d);
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
	sqlite3_close(d->db);
	raft_segs_close(d->log);
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
	    (rv = raft_disk_snapshot_read(d, snapshot)) != 0)
		goto fail;
	if ((rv = raft_disk_end(d, 0)) != 0)
		goto fail;
	if ((rv = raft_segs_load(d->log, entries, n_entries)) != 0) {
		raft_disk_fail(d, "%s", raft_segs_errmsg(d->log));
		goto fail;
	}
	raft_disk_find_next(d);
	if ((rv = raft_disk_check(d, *snapshot, d->start, *entries,
	    *n_entries)) != 0)
		goto fail;
	*start_index = d->start;
	return (0);
fail:
	if (!sqlite3_get_autocommit(d->db))
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

/* Makes the log's last failure d's, with its code. */
static int
raft_disk_logerr(struct raft_disk *d, int rv, const char *what)
{
	if (rv != 0)
		raft_disk_fail(d, "%s: %s", what, raft_segs_errmsg(d->log));
	return (rv);
}

/* 0 when the store has never started: no term, no snapshot (entries with
 * term 0 are only a bootstrap a crash cut short, written over). Else
 * RAFT_CANTBOOTSTRAP, saying why "cannot <what>". */
static int
raft_disk_unstarted(struct raft_disk *d, const char *what)
{
	unsigned long long	term, snap;
	int			rv;

	if ((rv = raft_disk_int(d, "SELECT term FROM meta", &term)) != 0 ||
	    (rv = raft_disk_int(d, "SELECT count(*) FROM snapshot",
	    &snap)) != 0)
		return (rv);
	if (term == 0 && snap == 0)
		return (0);
	raft_disk_fail(d, "cannot %s: the store holds term %llu, entries to "
	    "%llu and %llu snapshots already", what, term,
	    (unsigned long long)raft_segs_last(d->log), snap);
	return (RAFT_CANTBOOTSTRAP);
}

int
raft_disk_bootstrap(struct raft_disk *d,
    const struct raft_configuration *conf)
{
	struct raft_entry	e;
	int			rv;

	memset(&e, 0, sizeof e);
	if ((rv = raft_disk_unstarted(d, "bootstrap")) != 0)
		return (rv);
	if ((rv = raft_configuration_encode(conf, &e.buf)) != 0) {
		raft_disk_fail(d, "bootstrap: %s", raft_strerror(rv));
		return (rv);
	}
	e.term = 1;
	e.type = RAFT_CHANGE;
	/* Term 0 with entries is only a bootstrap a crash cut short: raft
	 * sets a term before it appends anything. The entry goes first,
	 * then the term that makes it count. */
	if ((rv = raft_disk_logerr(d, raft_segs_reset(d->log, 1),
	    "bootstrap")) == 0 &&
	    (rv = raft_disk_logerr(d, raft_segs_append(d->log, 1, &e, 1),
	    "bootstrap")) == 0 &&
	    (rv = raft_disk_logerr(d, raft_segs_sync(d->log),
	    "bootstrap")) == 0)
		rv = raft_disk_run(d, "bootstrap", "UPDATE meta SET term = 1, "
		    "vote = 0, log_start = 1", 0);
	if (rv == 0) {
		d->start = 1;
		d->next = 2;
	}
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
	unsigned	i;
	int		rv = 0;

	for (i = 0; i < nb && rv == 0; i++) {
		if (b[i].n == 0)
			continue;
		rv = raft_segs_append(d->log, next, b[i].entries, b[i].n);
		next += b[i].n;
	}
	if (rv == 0 && next != d->next)
		rv = raft_segs_sync(d->log);
	if (rv == 0) {
		d->next = next;
		return (0);
	}
	/* None of them, as promised: what was written goes again. */
	raft_disk_logerr(d, rv, "append");
	(void)raft_segs_truncate(d->log, d->next);
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
	if (index >= d->start) {
		if ((rv = raft_disk_logerr(d, raft_segs_truncate(d->log, index),
		    "truncate")) == 0)
			d->next = index;
		return (rv);
	}
	/* Truncating below log_start (only C-raft's test fixture does)
	 * leaves an empty log that goes on at index, as C-raft's uv does. */
	if ((rv = raft_disk_logerr(d, raft_segs_reset(d->log, index),
	    "truncate")) == 0 && (rv = raft_disk_run(d, "truncate",
	    "UPDATE meta SET log_start = ?1", 1, index)) == 0)
		d->start = d->next = index;
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
	raft_index	next = d->next, start = d->start, retain;
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
	if (trailing == 0) {
		/* Installed from the leader: the log, even past the
		 * snapshot, is the old leader's history and goes. */
		next = start = s->index + 1;
	} else if (s->index > trailing) {
		/* Taken here: keep the trailing entries up to the snapshot,
		 * for followers just behind, and all after it. */
		retain = s->index - trailing + 1;
		if (retain > next)
			retain = next;
		if (retain > start)
			start = retain;
	}
	if (rv == 0 && start != d->start)
		rv = raft_disk_run(d, "put snapshot", "UPDATE meta SET "
		    "log_start = ?1", 1, start);
	if ((rv = raft_disk_end(d, rv)) != 0)
		return (rv);
	/* raft.db first: see the top of this file. */
	d->start = start;
	d->next = next;
	return (raft_disk_logerr(d, trailing == 0 ? raft_segs_reset(d->log,
	    start) : raft_segs_forget(d->log, start), "put snapshot"));
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

int
raft_disk_seed(struct raft_disk *d, const struct raft_configuration *conf,
    const void *image, size_t len, const char *history)
{
	struct raft_snapshot	s;
	int			rv;

	if ((rv = raft_disk_unstarted(d, "seed")) != 0)
		return (rv);
	memset(&s, 0, sizeof s);
	s.index = s.term = s.configuration_index = 1;
	s.configuration = *conf;
	s.bufs = &(struct raft_buffer){ (void *)image, len };
	s.n_bufs = 1;
	if (len > (size_t)sqlite3_limit(d->db, SQLITE_LIMIT_LENGTH, -1)) {
		raft_disk_fail(d, "a seed of %zu bytes: over SQLite's limit "
		    "of %d", len, sqlite3_limit(d->db, SQLITE_LIMIT_LENGTH,
		    -1));
		return (RAFT_TOOBIG);
	}
	/* One transaction: the snapshot, the term that makes it count and
	 * the history's name, or none of them. */
	if ((rv = raft_disk_exec(d, "BEGIN IMMEDIATE", "seed")) == 0)
		rv = raft_disk_snapshot_write(d, &s, len);
	if (rv == 0)
		rv = raft_disk_run(d, "seed", "UPDATE meta SET term = 1, "
		    "vote = 0, log_start = 2", 0);
	if (rv == 0)
		rv = raft_disk_text(d, "seed", "UPDATE meta SET history = ?1",
		    history);
	if ((rv = raft_disk_end(d, rv)) != 0)
		return (rv);
	d->start = d->next = 2;
	return (raft_disk_logerr(d, raft_segs_reset(d->log, 2), "seed"));
}

int
raft_disk_history(struct raft_disk *d, char *buf, size_t len)
{
	sqlite3_stmt	*st;
	int		 rv = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT history FROM meta", -1, &st,
	    NULL) != SQLITE_OK)
		return (raft_disk_sqlerr(d, "history"));
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st,
		    0));
	else
		rv = raft_disk_sqlerr(d, "history");
	sqlite3_finalize(st);
	return (rv);
}

int
raft_disk_set_history(struct raft_disk *d, const char *history)
{
	return (raft_disk_text(d, "set history", "UPDATE meta SET "
	    "history = ?1", history));
}
