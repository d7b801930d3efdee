/* raft-disk-test.c: C-raft's disk state in raft.db, against a real file in
 * a temporary directory. Each step writes, closes, reopens and loads, so
 * what is checked is what a restarted gbatchd would hand raft_start. What
 * the store returns is freed as C-raft frees it (each distinct batch once,
 * then the array; the snapshot's configuration, buffer, bufs, itself), so
 * a build with sanitizers catches a leak or a double free; and C-raft
 * itself starts from what was loaded and frees it at raft_close. */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <raft.h>
#include <sqlite3.h>

#include "daemon/controller/raft-disk.h"
#include "tests/unit/tap.h"

static char	t_dir[] = "/tmp/raft-disk-test.XXXXXX";
static char	t_path[64];

/* What raft_disk_load returned. */
struct t_load {
	int			 rv;
	raft_term		 term;
	raft_id			 vote;
	struct raft_snapshot	*snap;
	raft_index		 start;
	struct raft_entry	*e;
	size_t			 n;
};

/* As C-raft's entryBatchesDestroy and snapshotDestroy. */
static void
t_free_entries(struct raft_entry *e, size_t n)
{
	void	*batch = NULL;
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (e[i].batch != batch) {
			batch = e[i].batch;
			raft_free(batch);
		}
	}
	raft_free(e);
}

static void
t_free_snapshot(struct raft_snapshot *s)
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

static void
t_free(struct t_load *l)
{
	t_free_entries(l->e, l->n);
	t_free_snapshot(l->snap);
	memset(l, 0, sizeof *l);
}

static struct raft_disk *
t_open(void)
{
	struct raft_disk	*d;
	char			 err[256];

	if ((d = raft_disk_open(t_path, err, sizeof err)) == NULL) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	return (d);
}

/* Closes d, reopens the file and loads it: what a restart sees. */
static struct raft_disk *
t_reload(struct raft_disk *d, struct t_load *l)
{
	raft_disk_close(d);
	d = t_open();
	l->rv = raft_disk_load(d, &l->term, &l->vote, &l->snap, &l->start,
	    &l->e, &l->n);
	if (l->rv != 0)
		printf("# load: %s\n", raft_disk_errmsg(d));
	return (d);
}

static struct raft_entry
t_entry(raft_term term, unsigned short type, const char *data)
{
	struct raft_entry	e;

	memset(&e, 0, sizeof e);
	e.term = term;
	e.type = type;
	e.buf.base = (void *)data;
	e.buf.len = strlen(data);
	return (e);
}

static int
t_entry_is(const struct raft_entry *e, raft_term term, unsigned short type,
    const char *data)
{
	return (e->term == term && e->type == type &&
	    e->buf.len == strlen(data) && memcmp(e->buf.base, data,
	    e->buf.len) == 0 && e->batch != NULL);
}

static void
t_conf(struct raft_configuration *c)
{
	raft_configuration_init(c);
	raft_configuration_add(c, 1, "10.0.0.1:7000", RAFT_VOTER);
	/* An id as raft_digest() makes them: past INT64_MAX. */
	raft_configuration_add(c, 0xfedcba9876543210ULL, "ctl-b:7000",
	    RAFT_STANDBY);
	raft_configuration_add(c, 3, "ctl-c:7000", RAFT_SPARE);
}

static int
t_conf_is(const struct raft_configuration *got,
    const struct raft_configuration *want)
{
	unsigned	i;

	if (got->n != want->n)
		return (0);
	for (i = 0; i < got->n; i++)
		if (got->servers[i].id != want->servers[i].id ||
		    got->servers[i].role != want->servers[i].role ||
		    strcmp(got->servers[i].address,
		    want->servers[i].address) != 0)
			return (0);
	return (1);
}

/* A raft_io of load alone, for raft_start and raft_close: C-raft takes
 * what raft_disk_load returns and frees it as its own. */
static struct raft_disk	*t_io_disk;
static size_t		 t_restored = (size_t)-1;

static int
t_io_init(struct raft_io *io, raft_id id, const char *address)
{
	return (0);
}

static int
t_io_load(struct raft_io *io, raft_term *term, raft_id *vote,
    struct raft_snapshot **snap, raft_index *start, struct raft_entry **e,
    size_t *n)
{
	return (raft_disk_load(t_io_disk, term, vote, snap, start, e, n));
}

static int
t_io_start(struct raft_io *io, unsigned msecs, raft_io_tick_cb tick,
    raft_io_recv_cb recv)
{
	return (0);
}

static void
t_io_close(struct raft_io *io, raft_io_close_cb cb)
{
	cb(io);
}

static raft_time
t_io_time(struct raft_io *io)
{
	return (0);
}

static int
t_io_random(struct raft_io *io, int min, int max)
{
	return (min);
}

static int
t_fsm_restore(struct raft_fsm *fsm, struct raft_buffer *buf)
{
	t_restored = buf->len;
	raft_free(buf->base);
	return (0);
}

/* Starts C-raft (id 99, in no configuration: it stays a follower) on d's
 * state and closes it. */
static void
t_raft_start(struct raft_disk *d, raft_index last, size_t restored)
{
	struct raft	 r;
	struct raft_io	 io;
	struct raft_fsm	 fsm;
	int		 rv;

	memset(&r, 0, sizeof r);
	memset(&io, 0, sizeof io);
	memset(&fsm, 0, sizeof fsm);
	io.version = 1;
	io.init = t_io_init;
	io.load = t_io_load;
	io.start = t_io_start;
	io.close = t_io_close;
	io.time = t_io_time;
	io.random = t_io_random;
	fsm.version = 1;
	fsm.restore = t_fsm_restore;
	t_io_disk = d;
	t_restored = (size_t)-1;
	if (raft_init(&r, &io, &fsm, 99, "ctl-z:7000") != 0) {
		ok(0, "raft_init: %s", r.errmsg);
		return;
	}
	rv = raft_start(&r);
	ok(rv == 0 && raft_last_index(&r) == last && t_restored == restored,
	    "raft_start takes the loaded state: last index %llu, %s", last,
	    restored == (size_t)-1 ? "no snapshot" : "a snapshot restored");
	if (rv != 0)
		printf("# raft_start: %s\n", r.errmsg);
	raft_close(&r, NULL);
}

static struct raft_disk *
t_empty_and_bootstrap(struct raft_disk *d)
{
	struct raft_configuration	 c;
	struct raft_buffer		 enc;
	struct t_load			 l;
	struct stat			 sb;

	d = t_reload(d, &l);
	ok(l.rv == 0 && l.term == 0 && l.vote == 0 && l.snap == NULL &&
	    l.start == 1 && l.e == NULL && l.n == 0,
	    "an empty store loads term 0, no vote, no snapshot, no entries, "
	    "start 1");
	is_int(raft_disk_last_index(d), 0, "an empty store's last index is 0");
	ok(stat(t_path, &sb) == 0 && (sb.st_mode & 0777) == 0600,
	    "raft.db is 0600");

	t_conf(&c);
	is_int(raft_disk_bootstrap(d, &c), 0, "bootstrap");
	is_int(raft_disk_bootstrap(d, &c), RAFT_CANTBOOTSTRAP,
	    "a second bootstrap is refused");
	ok(strstr(raft_disk_errmsg(d), "cannot bootstrap") != NULL,
	    "and says why: %s", raft_disk_errmsg(d));
	d = t_reload(d, &l);
	raft_configuration_encode(&c, &enc);
	ok(l.rv == 0 && l.term == 1 && l.vote == 0 && l.snap == NULL &&
	    l.start == 1 && l.n == 1 && l.e[0].term == 1 &&
	    l.e[0].type == RAFT_CHANGE && l.e[0].buf.len == enc.len &&
	    memcmp(l.e[0].buf.base, enc.base, enc.len) == 0,
	    "bootstrap wrote term 1 and entry 1, the encoded configuration");
	is_int(raft_disk_last_index(d), 1, "the last index is 1");
	raft_free(enc.base);
	raft_configuration_close(&c);
	t_free(&l);
	return (d);
}

static struct raft_disk *
t_term_and_vote(struct raft_disk *d)
{
	struct t_load	l;

	is_int(raft_disk_set_term(d, 5), 0, "set term 5");
	is_int(raft_disk_set_vote(d, 0xfedcba9876543210ULL), 0, "set vote");
	d = t_reload(d, &l);
	ok(l.rv == 0 && l.term == 5 && l.vote == 0xfedcba9876543210ULL,
	    "term and vote survive a reopen, a 64-bit id whole");
	t_free(&l);
	raft_disk_set_term(d, 6);
	d = t_reload(d, &l);
	ok(l.rv == 0 && l.term == 6 && l.vote == 0,
	    "a new term forgets the vote");
	t_free(&l);
	return (d);
}

static struct raft_disk *
t_append_and_truncate(struct raft_disk *d)
{
	struct raft_entry	e[4];
	struct raft_disk_batch	b[3] = { { e, 3 }, { e, 0 }, { &e[3], 1 } };
	struct t_load		l;

	e[0] = t_entry(6, RAFT_COMMAND, "cmd two");
	e[1] = t_entry(6, RAFT_BARRIER, "b");
	e[2] = t_entry(6, RAFT_CHANGE, "conf four");
	e[3] = t_entry(6, RAFT_COMMAND, "");
	is_int(raft_disk_append_batches(d, b, 3), 0, "append 3 entries, no "
	    "entry and an empty one, as batches of one transaction");
	is_int(raft_disk_last_index(d), 5, "the last index is 5");
	d = t_reload(d, &l);
	ok(l.rv == 0 && l.start == 1 && l.n == 5 &&
	    t_entry_is(&l.e[1], 6, RAFT_COMMAND, "cmd two") &&
	    t_entry_is(&l.e[2], 6, RAFT_BARRIER, "b") &&
	    t_entry_is(&l.e[3], 6, RAFT_CHANGE, "conf four") &&
	    t_entry_is(&l.e[4], 6, RAFT_COMMAND, ""),
	    "entries of each type come back with their terms and bytes");
	ok(l.n == 5 && l.e[0].batch == l.e[4].batch,
	    "loaded entries share one batch");
	t_free(&l);

	is_int(raft_disk_truncate(d, 3), 0, "truncate at 3");
	is_int(raft_disk_last_index(d), 2, "the last index is 2");
	is_int(raft_disk_truncate(d, 9), 0, "truncate past the end");
	is_int(raft_disk_truncate(d, 0), RAFT_INVALID, "truncate at 0 refused");
	e[0] = t_entry(7, RAFT_COMMAND, "three again");
	e[1] = t_entry(7, RAFT_COMMAND, "four again");
	raft_disk_append(d, e, 2);
	is_int(raft_disk_last_index(d), 4, "appends go on after the cut");
	d = t_reload(d, &l);
	ok(l.rv == 0 && l.start == 1 && l.n == 4 &&
	    t_entry_is(&l.e[1], 6, RAFT_COMMAND, "cmd two") &&
	    t_entry_is(&l.e[2], 7, RAFT_COMMAND, "three again") &&
	    t_entry_is(&l.e[3], 7, RAFT_COMMAND, "four again"),
	    "after truncate and append, a reopen loads entries 1 to 4");
	is_int(raft_disk_last_index(d), 4, "and the last index is 4");
	t_free(&l);
	return (d);
}

static struct raft_disk *
t_snapshots(struct raft_disk *d)
{
	struct raft_configuration	 c;
	struct raft_snapshot		 s, *got;
	struct raft_buffer		 bufs[2];
	struct raft_entry		 e[6];
	struct t_load			 l;
	size_t				 big = 3 << 20, i;
	char				 name[6][8];
	unsigned char			*data;

	for (i = 0; i < 6; i++) {
		snprintf(name[i], sizeof name[i], "e%zu", i + 5);
		e[i] = t_entry(7, RAFT_COMMAND, name[i]);
	}
	raft_disk_append(d, e, 6);		/* 5 to 10 */
	t_conf(&c);
	memset(&s, 0, sizeof s);
	s.index = 8;
	s.term = 7;
	s.configuration = c;
	s.configuration_index = 1;
	bufs[0].base = "abc";
	bufs[0].len = 3;
	bufs[1].base = "defgh";
	bufs[1].len = 5;
	s.bufs = bufs;
	s.n_bufs = 2;
	is_int(raft_disk_snapshot_put(d, 3, &s), 0,
	    "put snapshot 8, trailing 3");
	is_int(raft_disk_last_index(d), 10, "the next append index is kept");
	d = t_reload(d, &l);
	ok(l.rv == 0 && l.snap != NULL && l.snap->index == 8 &&
	    l.snap->term == 7 && l.snap->configuration_index == 1 &&
	    l.snap->n_bufs == 1 && l.snap->bufs[0].len == 8 &&
	    memcmp(l.snap->bufs[0].base, "abcdefgh", 8) == 0 &&
	    t_conf_is(&l.snap->configuration, &c),
	    "the snapshot comes back: index, term, configuration, one buffer");
	ok(l.rv == 0 && l.start == 6 && l.n == 5 &&
	    t_entry_is(&l.e[0], 7, RAFT_COMMAND, "e6") &&
	    t_entry_is(&l.e[4], 7, RAFT_COMMAND, "e10"),
	    "entries up to 5 are gone, 3 before the snapshot and those after "
	    "it are kept");
	t_free(&l);

	/* Installed from a leader: a bigger one, replacing the first. */
	data = malloc(big);
	for (i = 0; i < big; i++)
		data[i] = (unsigned char)(i * 7 + i / 251);
	s.index = 20;
	s.term = 9;
	s.configuration_index = 15;
	bufs[0].base = data;
	bufs[0].len = big;
	s.n_bufs = 1;
	is_int(raft_disk_snapshot_put(d, 0, &s), 0, "put snapshot 20, "
	    "trailing 0");
	is_int(raft_disk_last_index(d), 20, "the log is gone: the last index "
	    "is the snapshot's");
	d = t_reload(d, &l);
	ok(l.rv == 0 && l.snap != NULL && l.snap->index == 20 &&
	    l.snap->bufs[0].len == big &&
	    memcmp(l.snap->bufs[0].base, data, big) == 0 && l.start == 21 &&
	    l.n == 0 && l.e == NULL,
	    "after an install: the new snapshot alone, start 21, no entries");
	t_free(&l);
	e[0] = t_entry(9, RAFT_COMMAND, "e21");
	e[1] = t_entry(9, RAFT_COMMAND, "e22");
	raft_disk_append(d, e, 2);
	d = t_reload(d, &l);
	ok(l.rv == 0 && l.start == 21 && l.n == 2 &&
	    t_entry_is(&l.e[1], 9, RAFT_COMMAND, "e22"),
	    "appends after an install go on at 21");
	t_free(&l);
	t_raft_start(d, 22, big);

	is_int(raft_disk_snapshot_get(d, &got), 0, "get the snapshot");
	ok(got != NULL && got->index == 20 && got->term == 9 &&
	    got->configuration_index == 15 && got->n_bufs == 1 &&
	    got->bufs[0].len == big &&
	    memcmp(got->bufs[0].base, data, big) == 0 &&
	    t_conf_is(&got->configuration, &c),
	    "it is the newest one, whole");
	t_free_snapshot(got);

	/* A trailing longer than the log drops nothing. */
	s.index = 22;
	bufs[0].len = 0;
	is_int(raft_disk_snapshot_put(d, 100, &s), 0, "put an empty snapshot "
	    "22, trailing 100");
	d = t_reload(d, &l);
	ok(l.rv == 0 && l.snap != NULL && l.snap->index == 22 &&
	    l.snap->bufs[0].len == 0 && l.snap->bufs[0].base != NULL &&
	    l.start == 21 && l.n == 2, "it keeps entries 21 and 22");
	t_free(&l);
	free(data);
	raft_configuration_close(&c);
	return (d);
}

/* Runs sql on the file behind the store's back. */
static void
t_sql(const char *path, const char *sql)
{
	sqlite3	*db;

	if (sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		printf("# %s: %s\n", sql, sqlite3_errmsg(db));
	sqlite3_close(db);
}

static void
t_refused(const char *path, const char *want, const char *what)
{
	struct raft_disk	*d;
	char			 err[256] = "";

	d = raft_disk_open(path, err, sizeof err);
	ok(d == NULL && strstr(err, want) != NULL, "%s is refused: %s", what,
	    err);
	raft_disk_close(d);
}

static void
t_foreign(void)
{
	struct raft_disk	*d;
	struct t_load		 l;
	char			 path[80];
	FILE			*f;

	snprintf(path, sizeof path, "%s/text.db", t_dir);
	if ((f = fopen(path, "w")) != NULL) {
		fputs("term=3\nvote=1\nthis is not a database at all\n", f);
		fclose(f);
	}
	t_refused(path, "not a raft store", "a text file");
	unlink(path);

	snprintf(path, sizeof path, "%s/gbatch.db", t_dir);
	t_sql(path, "CREATE TABLE jobs (id INTEGER PRIMARY KEY)");
	t_refused(path, "another SQLite database", "the jobs database");
	unlink(path);

	snprintf(path, sizeof path, "%s/newer.db", t_dir);
	raft_disk_close(raft_disk_open(path, NULL, 0));
	t_sql(path, "PRAGMA user_version = 99");
	t_refused(path, "newer than this gbatchd", "a newer schema");

	/* A log that starts past 1 with no snapshot before it (the schema
	 * version back to the current one, 2). */
	t_sql(path, "PRAGMA user_version = 2; UPDATE meta SET log_start = 4");
	if ((d = raft_disk_open(path, NULL, 0)) != NULL) {
		memset(&l, 0, sizeof l);
		l.rv = raft_disk_load(d, &l.term, &l.vote, &l.snap, &l.start,
		    &l.e, &l.n);
		ok(l.rv == RAFT_CORRUPT && l.snap == NULL && l.e == NULL &&
		    strstr(raft_disk_errmsg(d), "no snapshot") != NULL,
		    "a log with a hole is RAFT_CORRUPT: %s",
		    raft_disk_errmsg(d));
		ok(raft_disk_snapshot_get(d, &l.snap) == RAFT_NOTFOUND &&
		    l.snap == NULL, "no snapshot to get is RAFT_NOTFOUND");
		raft_disk_close(d);
	} else
		ok(0, "the altered store opens");
	unlink(path);
}

/* A store of the version that kept entries as rows; and a new store
 * beside the log of one removed. */
static void
t_upgrade(void)
{
	struct raft_disk	*d;
	struct t_load		 l;
	char			 path[80], cmd[320], err[256] = "";
	sqlite3			*db;
	sqlite3_stmt		*st;
	int			 rows = -1;

	snprintf(path, sizeof path, "%s/old.db", t_dir);
	raft_disk_close(raft_disk_open(path, NULL, 0));
	t_sql(path, "UPDATE meta SET term = 2; INSERT INTO entries VALUES "
	    "(1, 1, 3, x'00'), (2, 2, 1, 'two')");
	memset(&l, 0, sizeof l);
	if ((d = raft_disk_open(path, err, sizeof err)) != NULL)
		l.rv = raft_disk_load(d, &l.term, &l.vote, &l.snap, &l.start,
		    &l.e, &l.n);
	raft_disk_close(d);
	ok(d != NULL && l.rv == 0 && l.term == 2 && l.start == 1 &&
	    l.n == 2 && t_entry_is(&l.e[1], 2, RAFT_COMMAND, "two"),
	    "a store's entries kept as rows load: %s", err);
	t_free(&l);
	if (sqlite3_open(path, &db) == SQLITE_OK && sqlite3_prepare_v2(db,
	    "SELECT count(*) FROM entries", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			rows = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	ok(rows == 0, "and have moved to the log files (%d rows left)", rows);
	d = raft_disk_open(path, NULL, 0);
	if (d != NULL)
		l.rv = raft_disk_load(d, &l.term, &l.vote, &l.snap, &l.start,
		    &l.e, &l.n);
	raft_disk_close(d);
	ok(d != NULL && l.rv == 0 && l.n == 2 && l.e[0].type == RAFT_CHANGE &&
	    t_entry_is(&l.e[1], 2, RAFT_COMMAND, "two"),
	    "from where they load again");
	t_free(&l);

	snprintf(cmd, sizeof cmd, "rm -f '%s' '%s-wal' '%s-shm'", path, path,
	    path);
	if (system(cmd) != 0)
		printf("# %s failed\n", cmd);
	t_refused(path, "holds a log", "a new store beside an old log");
}

/* A store seeded with a controller's own store; the history's name, kept
 * across a reopen and by a store of schema 1. */
static void
t_seed(void)
{
	static const char		 image[] = "SQLite format 3, say";
	struct raft_configuration	 c;
	struct raft_disk		*d;
	struct t_load			 l;
	char				 path[80], hist[64] = "?";

	snprintf(path, sizeof path, "%s/seed.db", t_dir);
	t_conf(&c);
	if ((d = raft_disk_open(path, NULL, 0)) == NULL) {
		ok(0, "open %s", path);
		raft_configuration_close(&c);
		return;
	}
	is_int(raft_disk_seed(d, &c, image, sizeof image, "0123abcd"), 0,
	    "seed an empty store");
	is_int(raft_disk_last_index(d), 1, "a seeded store's last index is 1");
	is_int(raft_disk_seed(d, &c, image, sizeof image, "x"),
	    RAFT_CANTBOOTSTRAP, "a second seed is refused");
	ok(strstr(raft_disk_errmsg(d), "cannot seed") != NULL,
	    "and says why: %s", raft_disk_errmsg(d));
	is_int(raft_disk_bootstrap(d, &c), RAFT_CANTBOOTSTRAP,
	    "a seeded store is not bootstrapped again");
	raft_disk_close(d);
	memset(&l, 0, sizeof l);
	if ((d = raft_disk_open(path, NULL, 0)) != NULL)
		l.rv = raft_disk_load(d, &l.term, &l.vote, &l.snap, &l.start,
		    &l.e, &l.n);
	ok(d != NULL && l.rv == 0 && l.term == 1 && l.vote == 0 &&
	    l.snap != NULL && l.snap->index == 1 && l.snap->term == 1 &&
	    l.snap->configuration_index == 1 &&
	    t_conf_is(&l.snap->configuration, &c) && l.snap->n_bufs == 1 &&
	    l.snap->bufs[0].len == sizeof image &&
	    memcmp(l.snap->bufs[0].base, image, sizeof image) == 0 &&
	    l.start == 2 && l.n == 0,
	    "it loads term 1 and the image as snapshot 1 with the "
	    "configuration, and an empty log from 2");
	t_free(&l);
	ok(d != NULL && raft_disk_history(d, hist, sizeof hist) == 0 &&
	    strcmp(hist, "0123abcd") == 0, "the history is named: %s", hist);
	if (d != NULL)
		t_raft_start(d, 1, sizeof image);
	raft_disk_close(d);
	raft_configuration_close(&c);

	/* A store of schema 1 gains the history, unnamed. */
	snprintf(path, sizeof path, "%s/v1.db", t_dir);
	t_sql(path, "CREATE TABLE meta (id INTEGER PRIMARY KEY CHECK "
	    "(id = 1), term INTEGER NOT NULL, vote INTEGER NOT NULL, "
	    "log_start INTEGER NOT NULL); INSERT INTO meta VALUES (1, 3, 0, "
	    "1); CREATE TABLE entries (idx INTEGER PRIMARY KEY, term INTEGER "
	    "NOT NULL, type INTEGER NOT NULL, data BLOB NOT NULL); CREATE "
	    "TABLE snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), idx "
	    "INTEGER NOT NULL, term INTEGER NOT NULL, conf_index INTEGER NOT "
	    "NULL, data BLOB NOT NULL); CREATE TABLE snapshot_servers (pos "
	    "INTEGER PRIMARY KEY, id INTEGER NOT NULL, address TEXT NOT NULL, "
	    "role INTEGER NOT NULL); PRAGMA user_version = 1; PRAGMA "
	    "application_id = 1734496870");
	strcpy(hist, "?");
	d = raft_disk_open(path, NULL, 0);
	ok(d != NULL && raft_disk_history(d, hist, sizeof hist) == 0 &&
	    hist[0] == '\0', "a store of schema 1 opens with no history named");
	ok(d != NULL && raft_disk_set_history(d, "feed") == 0,
	    "a history is set");
	raft_disk_close(d);
	d = raft_disk_open(path, NULL, 0);
	ok(d != NULL && raft_disk_history(d, hist, sizeof hist) == 0 &&
	    strcmp(hist, "feed") == 0, "and kept: %s", hist);
	raft_disk_close(d);
}

int
main(void)
{
	struct raft_disk	*d;
	char			 cmd[128];

	if (mkdtemp(t_dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(t_path, sizeof t_path, "%s/raft.db", t_dir);
	d = t_open();
	d = t_empty_and_bootstrap(d);
	d = t_term_and_vote(d);
	d = t_append_and_truncate(d);
	t_raft_start(d, 4, (size_t)-1);
	d = t_snapshots(d);
	t_raft_start(d, 22, 0);
	raft_disk_close(d);
	t_foreign();
	t_upgrade();
	t_seed();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t_dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", t_dir);
	return (tap_done());
}
