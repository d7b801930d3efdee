/* store-log.c: the store's change log (store-log.h): what a group
 * transaction wrote, recorded as it commits.
 *
 * SQLite's pre-update hook tells which rows the transaction touches: their
 * keys are kept (once each), with whether the row was there before. At
 * the commit each key's row is read as it is then: a row that is there is
 * written whole, one that is gone and was there before is deleted. What
 * the transaction changed and undid (a savepoint rolled back, a row
 * inserted and deleted) is therefore written as it ended, or not at all.
 * The statements that read a row are prepared once per table, not once
 * per transaction as SQLite's session extension did (its per-transaction
 * schema reads and prepares took a quarter of a leader's time). The
 * format is in store-log-int.h; store-log-apply.c applies it. */
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
#include "daemon/controller/store-log-int.h"
#include "daemon/controller/store-log.h"

void
store_log_put(struct store_log_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = b->cap == 0 ? 4096 : b->cap;
		while (b->len + n > b->cap)
			b->cap *= 2;
		b->p = xrealloc(b->p, b->cap);
	}
	if (n > 0)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
store_log_put_u16(struct store_log_buf *b, unsigned v)
{
	uint8_t	x[2] = { v & 0xff, (v >> 8) & 0xff };

	store_log_put(b, x, 2);
}

static void
store_log_put_u32(struct store_log_buf *b, uint32_t v)
{
	uint8_t	x[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff,
	    (v >> 24) & 0xff };

	store_log_put(b, x, 4);
}

static void
store_log_put_u64(struct store_log_buf *b, uint64_t v)
{
	uint8_t	x[8];
	int	i;

	for (i = 0; i < 8; i++)
		x[i] = (v >> (8 * i)) & 0xff;
	store_log_put(b, x, 8);
}

void
store_log_put_value(struct store_log_buf *b, sqlite3_value *v)
{
	int		type = v == NULL ? SQLITE_NULL : sqlite3_value_type(v);
	uint8_t		t = (uint8_t)type;
	double		d;
	uint64_t	u;
	uint32_t	n;
	const void	*p;

	store_log_put(b, &t, 1);
	switch (type) {
	case SQLITE_INTEGER:
		store_log_put_u64(b, (uint64_t)sqlite3_value_int64(v));
		break;
	case SQLITE_FLOAT:
		d = sqlite3_value_double(v);
		memcpy(&u, &d, sizeof u);
		store_log_put_u64(b, u);
		break;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		p = type == SQLITE_TEXT ? (const void *)sqlite3_value_text(v) :
		    sqlite3_value_blob(v);
		n = (uint32_t)sqlite3_value_bytes(v);
		store_log_put_u32(b, n);
		store_log_put(b, p, n);
		break;
	default:
		break;
	}
}

int
store_log_bind(struct store_log_in *in, sqlite3_stmt *st, int i,
    char *err, size_t errlen)
{
	uint64_t	u = 0;
	uint32_t	n;
	double		d;
	int		type, j;

	if (in->p == in->end)
		goto short_log;
	type = *in->p++;
	switch (type) {
	case SQLITE_INTEGER:
	case SQLITE_FLOAT:
		if (in->end - in->p < 8)
			goto short_log;
		for (j = 7; j >= 0; j--)
			u = (u << 8) | in->p[j];
		in->p += 8;
		if (type == SQLITE_INTEGER)
			return (sqlite3_bind_int64(st, i, (sqlite3_int64)u));
		memcpy(&d, &u, sizeof d);
		return (sqlite3_bind_double(st, i, d));
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		if (in->end - in->p < 4)
			goto short_log;
		n = in->p[0] | in->p[1] << 8 | in->p[2] << 16 |
		    (uint32_t)in->p[3] << 24;
		in->p += 4;
		if ((size_t)(in->end - in->p) < n || n > INT32_MAX)
			goto short_log;
		in->p += n;
		return (type == SQLITE_TEXT ? sqlite3_bind_text(st, i,
		    (const char *)in->p - n, (int)n, SQLITE_STATIC) :
		    sqlite3_bind_blob(st, i, in->p - n, (int)n, SQLITE_STATIC));
	case SQLITE_NULL:
		return (sqlite3_bind_null(st, i));
	default:
		snprintf(err, errlen, "a value of unknown type %d", type);
		return (SQLITE_CORRUPT);
	}
short_log:
	snprintf(err, errlen, "the log ends inside a value");
	return (SQLITE_CORRUPT);
}

/* Appends the strings up to NULL to b. The statements are written from
 * the schema's own names, which store_log_table checked are plain
 * identifiers (no quoting needed); nothing from a log or a user is ever
 * written into SQL text, values are bound. */
static void
store_log_sql(struct store_log_buf *b, ...)
{
	va_list		 ap;
	const char	*s;

	va_start(ap, b);
	while ((s = va_arg(ap, const char *)) != NULL)
		store_log_put(b, s, strlen(s));
	va_end(ap);
}

/* ?N into b. */
static void
store_log_sql_param(struct store_log_buf *b, int n)
{
	char	num[16];

	snprintf(num, sizeof num, "?%d", n);
	store_log_sql(b, num, (char *)NULL);
}

static int
store_log_prepare(sqlite3 *db, struct store_log_buf *b, sqlite3_stmt **st)
{
	int	rc;

	store_log_put(b, "", 1);
	rc = sqlite3_prepare_v3(db, (const char *)b->p, -1,
	    SQLITE_PREPARE_PERSISTENT, st, NULL);
	free(b->p);
	memset(b, 0, sizeof *b);
	return (rc);
}

/* Writes t's statements from its columns' names. */
static int
store_log_table_sql(sqlite3 *db, struct store_log_table *t, char **names)
{
	struct store_log_buf	 get = { 0 }, put = { 0 }, del = { 0 };
	struct store_log_buf	 keys = { 0 };
	int			 i, k, n;
	int			 rc;

	store_log_sql(&get, "SELECT * FROM main.", t->name, " WHERE ",
	    (char *)NULL);
	store_log_sql(&del, "DELETE FROM main.", t->name, " WHERE ",
	    (char *)NULL);
	for (k = 0; k < t->n_pk; k++) {
		store_log_sql(&get, k > 0 ? " AND " : "", names[t->pk[k]],
		    " = ", (char *)NULL);
		store_log_sql_param(&get, k + 1);
		store_log_sql(&del, k > 0 ? " AND " : "", names[t->pk[k]],
		    " = ", (char *)NULL);
		store_log_sql_param(&del, k + 1);
		store_log_sql(&keys, k > 0 ? ", " : "", names[t->pk[k]],
		    (char *)NULL);
	}
	store_log_put(&keys, "", 1);
	store_log_sql(&put, "INSERT INTO main.", t->name, " VALUES (",
	    (char *)NULL);
	for (i = 0; i < t->n_col; i++) {
		store_log_sql(&put, i > 0 ? ", " : "", (char *)NULL);
		store_log_sql_param(&put, i + 1);
	}
	store_log_sql(&put, ") ON CONFLICT (", (const char *)keys.p, ") DO ",
	    t->n_pk == t->n_col ? "NOTHING" : "UPDATE SET ", (char *)NULL);
	free(keys.p);
	for (i = 0, n = 0; i < t->n_col; i++) {
		for (k = 0; k < t->n_pk && t->pk[k] != i; k++)
			;
		if (k < t->n_pk)
			continue;
		store_log_sql(&put, n++ > 0 ? ", " : "", names[i],
		    " = excluded.", names[i], (char *)NULL);
	}
	rc = store_log_prepare(db, &get, &t->get);
	if (rc == SQLITE_OK)
		rc = store_log_prepare(db, &put, &t->put);
	if (rc == SQLITE_OK)
		rc = store_log_prepare(db, &del, &t->del);
	free(put.p);
	free(del.p);
	return (rc);
}

/* A name made of letters, digits and '_', not starting with a digit. */
static bool
store_log_plain(const char *s)
{
	if (*s == '\0' || (*s >= '0' && *s <= '9'))
		return (false);
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_'))
			return (false);
	return (true);
}

static void
store_log_table_free(struct store_log_table *t)
{
	free(t->name);
	free(t->pk);
	sqlite3_finalize(t->get);
	sqlite3_finalize(t->put);
	sqlite3_finalize(t->del);
	free(t->keys);
	free(t->slots);
	free(t->arena.p);
}

struct store_log_table *
store_log_table(struct store_log *slog, sqlite3 *db, const char *name,
    char *err, size_t errlen)
{
	struct store_log_table	 t = { 0 };
	sqlite3_stmt		*st = NULL;
	char			**names = NULL;
	int			*place = NULL;
	int			 n = 0, cap = 0, i, k, rc;

	for (i = 0; i < (int)slog->n_tables; i++)
		if (strcmp(slog->tables[i].name, name) == 0)
			return (&slog->tables[i]);
	err[0] = '\0';
	if (!store_log_plain(name)) {
		snprintf(err, errlen, "a table's name is not a plain "
		    "identifier");
		return (NULL);
	}
	if (sqlite3_prepare_v2(db, "SELECT name, pk FROM "
	    "pragma_table_info(?1, 'main')", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK) {
		snprintf(err, errlen, "cannot read table %s: %s", name,
		    sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return (NULL);
	}
	t.name = xstrdup(name);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			names = xreallocarray(names, (size_t)cap, sizeof *names);
			place = xreallocarray(place, (size_t)cap, sizeof *place);
		}
		names[n] = xstrdup((const char *)sqlite3_column_text(st, 0));
		/* Where the column is in the key (1...), 0 if not in it. */
		place[n++] = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	t.n_col = n;
	t.pk = xcalloc((size_t)n + 1, sizeof *t.pk);
	for (k = 1; k <= n; k++)
		for (i = 0; i < n; i++)
			if (place[i] == k)
				t.pk[t.n_pk++] = i;
	free(place);
	if (rc != SQLITE_DONE)
		snprintf(err, errlen, "cannot read table %s: %s", name,
		    sqlite3_errmsg(db));
	else if (n == 0)
		snprintf(err, errlen, "no table %s here", name);
	else if (t.n_pk == 0)
		snprintf(err, errlen, "table %s has no primary key", name);
	for (i = 0; i < n && err[0] == '\0'; i++)
		if (!store_log_plain(names[i]))
			snprintf(err, errlen, "table %s: a column's name is not "
			    "a plain identifier", name);
	if (err[0] == '\0' && (rc = store_log_table_sql(db, &t, names)) !=
	    SQLITE_OK)
		snprintf(err, errlen, "cannot write to table %s: %s", name,
		    sqlite3_errmsg(db));
	for (i = 0; i < n; i++)
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

static void
store_log_drop(struct store_log *slog)
{
	sqlite3_free(slog->taken);
	slog->taken = NULL;
	slog->taken_len = 0;
}

/* Forgets the keys the transaction touched. */
static void
store_log_end(struct store_log *slog)
{
	struct store_log_table	*t;
	size_t			 i;

	slog->recording = false;
	slog->broken = false;
	for (i = 0; i < slog->n_tables; i++) {
		t = &slog->tables[i];
		if (t->n_keys == 0)
			continue;
		t->n_keys = 0;
		t->arena.len = 0;
		memset(t->slots, 0, t->n_slots * sizeof *t->slots);
	}
}

static uint32_t
store_log_hash(const uint8_t *p, size_t n)
{
	uint32_t	h = 2166136261u;

	while (n-- > 0)
		h = (h ^ *p++) * 16777619u;
	return (h);
}

/* The slot of the key of these bytes: its own, or the free one where it
 * would go. */
static uint32_t *
store_log_slot(struct store_log_table *t, const uint8_t *p, size_t n)
{
	size_t			 i = store_log_hash(p, n) & (t->n_slots - 1);
	struct store_log_key	*k;

	for (;; i = (i + 1) & (t->n_slots - 1)) {
		if (t->slots[i] == 0)
			return (&t->slots[i]);
		k = &t->keys[t->slots[i] - 1];
		if (k->len == n && memcmp(t->arena.p + k->off, p, n) == 0)
			return (&t->slots[i]);
	}
}

/* Keeps the key just written at the end of t's arena, unless it is kept
 * already (then the arena gives it back). */
static void
store_log_touch(struct store_log_table *t, size_t off, bool existed)
{
	size_t		 n = t->arena.len - off, i;
	uint32_t	*slot;

	if (2 * (t->n_keys + 1) > t->n_slots) {
		free(t->slots);
		t->n_slots = t->n_slots == 0 ? 64 : 2 * t->n_slots;
		t->slots = xcalloc(t->n_slots, sizeof *t->slots);
		for (i = 0; i < t->n_keys; i++)
			*store_log_slot(t, t->arena.p + t->keys[i].off,
			    t->keys[i].len) = (uint32_t)i + 1;
	}
	slot = store_log_slot(t, t->arena.p + off, n);
	if (*slot != 0) {
		t->arena.len = off;
		return;
	}
	if (t->n_keys == t->cap_keys) {
		t->cap_keys = t->cap_keys == 0 ? 64 : 2 * t->cap_keys;
		t->keys = xreallocarray(t->keys, t->cap_keys, sizeof *t->keys);
	}
	t->keys[t->n_keys].off = off;
	t->keys[t->n_keys].len = n;
	t->keys[t->n_keys].existed = existed;
	*slot = (uint32_t)++t->n_keys;
}

/* Writes the key of the row as it was (old) or is to be, and keeps it. */
static int
store_log_key(sqlite3 *db, struct store_log_table *t, bool old)
{
	sqlite3_value	*v;
	size_t		 off = t->arena.len;
	int		 k;

	for (k = 0; k < t->n_pk; k++) {
		if ((old ? sqlite3_preupdate_old(db, t->pk[k], &v) :
		    sqlite3_preupdate_new(db, t->pk[k], &v)) != SQLITE_OK)
			return (-1);
		store_log_put_value(&t->arena, v);
	}
	store_log_touch(t, off, old);
	return (0);
}

static void
store_log_hook(void *arg, sqlite3 *db, int op, const char *schema,
    const char *name, sqlite3_int64 k1, sqlite3_int64 k2)
{
	struct store_log	*slog = arg;
	struct store_log_table	*t;
	char			 err[256];

	if (!slog->recording || slog->broken || strcmp(schema, "main") != 0 ||
	    strncmp(name, "sqlite_", 7) == 0)
		return;
	if ((t = store_log_table(slog, db, name, err, sizeof err)) == NULL) {
		log_error("store: cannot record the transaction: %s", err);
		slog->broken = true;
		return;
	}
	if ((op != SQLITE_INSERT && store_log_key(db, t, true) != 0) ||
	    (op != SQLITE_DELETE && store_log_key(db, t, false) != 0)) {
		log_error("store: cannot record a change of table %s: %s",
		    name, sqlite3_errmsg(db));
		slog->broken = true;
	}
}

void
store_log_begun(struct store_log *slog, sqlite3 *db)
{
	store_log_end(slog);
	if (slog->on != slog->hooked) {
		(void)sqlite3_preupdate_hook(db, slog->on ? store_log_hook :
		    NULL, slog);
		slog->hooked = slog->on;
	}
	slog->recording = slog->on;
}

/* Reads the row of key (t's bytes at k) as it is now: 'P' and the row
 * into puts, or 'D' and the key into dels if it is gone and was there
 * before; counts what it wrote. */
static int
store_log_row(struct store_log_table *t, const struct store_log_key *k,
    struct store_log_buf *puts, struct store_log_buf *dels, size_t *count)
{
	struct store_log_in	 in = { t->arena.p + k->off,
				    t->arena.p + k->off + k->len };
	struct store_log_buf	*out;
	char			 err[128];
	uint32_t		 n;
	int			 i, rc = SQLITE_OK;

	/* The key's bytes were written by store_log_key: they read back. */
	for (i = 0; i < t->n_pk && rc == SQLITE_OK; i++)
		rc = store_log_bind(&in, t->get, i + 1, err, sizeof err);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(t->get);
	if (rc == SQLITE_ROW || (rc == SQLITE_DONE && k->existed)) {
		out = rc == SQLITE_ROW ? puts : dels;
		(*count)++;
		store_log_put(out, rc == SQLITE_ROW ? "P" : "D", 1);
		n = (uint32_t)strlen(t->name);
		store_log_put_u16(out, n);
		store_log_put(out, t->name, n);
		if (rc == SQLITE_ROW) {
			store_log_put_u16(out, (unsigned)t->n_col);
			for (i = 0; i < t->n_col; i++)
				store_log_put_value(out,
				    sqlite3_column_value(t->get, i));
		} else {
			store_log_put_u16(out, (unsigned)t->n_pk);
			store_log_put(out, t->arena.p + k->off, k->len);
		}
	}
	sqlite3_reset(t->get);
	sqlite3_clear_bindings(t->get);
	return (rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1);
}

void
store_log_commit(struct store_log *slog, sqlite3 *db)
{
	struct store_log_buf	 puts = { 0 }, dels = { 0 };
	struct store_log_table	*t;
	size_t			 i, j, n = 0;
	uint8_t			*p;
	int			 rc = 0;

	store_log_drop(slog);
	if (!slog->recording)
		return;
	for (i = 0; i < slog->n_tables && rc == 0; i++) {
		t = &slog->tables[i];
		for (j = 0; j < t->n_keys && rc == 0; j++)
			rc = store_log_row(t, &t->keys[j], &puts, &dels, &n);
	}
	if (rc != 0 || slog->broken || n > UINT32_MAX) {
		log_error("store: cannot write the transaction's change log: "
		    "%s", slog->broken ? "a change was not recorded" :
		    sqlite3_errmsg(db));
	} else if (n > 0) {
		/* sqlite3_malloc'd, as an image is: one free for both. */
		slog->taken_len = STORE_LOG_HEAD + dels.len + puts.len;
		if ((p = slog->taken = sqlite3_malloc64(slog->taken_len)) ==
		    NULL) {
			log_error("store: no memory for a change log of %zu "
			    "bytes", slog->taken_len);
			slog->taken_len = 0;
		} else {
			p[0] = STORE_LOG_FORMAT;
			for (i = 0; i < 4; i++)
				p[1 + i] = (n >> (8 * i)) & 0xff;
			if (dels.len > 0)
				memcpy(p + STORE_LOG_HEAD, dels.p, dels.len);
			if (puts.len > 0)
				memcpy(p + STORE_LOG_HEAD + dels.len, puts.p,
				    puts.len);
		}
	}
	free(dels.p);
	free(puts.p);
	store_log_end(slog);
}

void
store_log_rollback(struct store_log *slog)
{
	store_log_end(slog);
	store_log_drop(slog);
}

void *
store_log_take(struct store_log *slog, size_t *len)
{
	void	*p = slog->taken;

	*len = slog->taken_len;
	slog->taken = NULL;
	slog->taken_len = 0;
	return (p);
}

void
store_log_free(void *p)
{
	sqlite3_free(p);
}

void
store_log_forget(struct store_log *slog, sqlite3 *db)
{
	size_t	i;

	store_log_rollback(slog);
	if (slog->hooked && db != NULL)
		(void)sqlite3_preupdate_hook(db, NULL, NULL);
	slog->hooked = false;
	for (i = 0; i < slog->n_tables; i++)
		store_log_table_free(&slog->tables[i]);
	free(slog->tables);
	slog->tables = NULL;
	slog->n_tables = 0;
}

int
store_log_idle(sqlite3 *db, char *err, size_t errlen)
{
	if (sqlite3_get_autocommit(db) != 0)
		return (0);
	snprintf(err, errlen, "a transaction is open");
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
