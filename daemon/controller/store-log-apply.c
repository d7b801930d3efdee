/* store-log-apply.c: a change log applied to a follower's copy
 * (store-log.h; the format is in store-log-int.h). Each change runs its
 * table's statement, prepared once, with the values bound where they lie
 * in the log. The log came over the network from another replica: every
 * length is checked against what is left before it is read. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "daemon/controller/store-log-int.h"
#include "daemon/controller/store-log.h"

static int
store_log_get_u16(struct store_log_in *in, unsigned *v)
{
	if (in->end - in->p < 2)
		return (-1);
	*v = in->p[0] | (unsigned)in->p[1] << 8;
	in->p += 2;
	return (0);
}

/* The next change, run. */
static int
store_log_apply_one(struct store_log *slog, sqlite3 *db,
    struct store_log_in *in, char *err, size_t errlen)
{
	struct store_log_table	*t;
	sqlite3_stmt		*st;
	char			 name[256];
	unsigned		 len, n = 0;
	int			 op, i, rc = SQLITE_OK;

	op = *in->p++;
	if (op != 'P' && op != 'D') {
		snprintf(err, errlen, "a change of unknown kind %d", op);
		return (-1);
	}
	if (store_log_get_u16(in, &len) != 0 || len == 0 || len >= sizeof name
	    || (size_t)(in->end - in->p) < len) {
		snprintf(err, errlen, "a table's name is cut short or too long");
		return (-1);
	}
	memcpy(name, in->p, len);
	name[len] = '\0';
	in->p += len;
	if (memchr(name, '\0', len) != NULL) {
		snprintf(err, errlen, "a table's name holds a NUL");
		return (-1);
	}
	if ((t = store_log_table(slog, db, name, err, errlen)) == NULL)
		return (-1);
	if (store_log_get_u16(in, &n) != 0 || n != (unsigned)(op == 'P' ?
	    t->n_col : t->n_pk)) {
		snprintf(err, errlen, "table %.64s: %u values where %d are "
		    "expected", name, n, op == 'P' ? t->n_col : t->n_pk);
		return (-1);
	}
	st = op == 'P' ? t->put : t->del;
	for (i = 0; i < (int)n && rc == SQLITE_OK; i++)
		rc = store_log_bind(in, st, i + 1, err, errlen);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_DONE)
		rc = SQLITE_OK;
	else if (rc != SQLITE_CORRUPT)
		snprintf(err, errlen, "table %.64s: %s", name,
		    sqlite3_errmsg(db));
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return (rc == SQLITE_OK ? 0 : -1);
}

/* The changes of one log, inside the caller's transaction. */
static int
store_log_apply_log(struct store_log *slog, sqlite3 *db, const void *log,
    size_t len, char *why, size_t whylen)
{
	struct store_log_in	 in = { log, (const uint8_t *)log + len };
	uint32_t		 n, i;
	int			 rc = 0;

	if (len == 0 || *in.p != STORE_LOG_FORMAT) {
		snprintf(why, whylen, "a change log of format %d (this gbatchd "
		    "reads format %d)", len == 0 ? -1 : *in.p,
		    STORE_LOG_FORMAT);
		return (-1);
	}
	if (len < STORE_LOG_HEAD) {
		snprintf(why, whylen, "a change log of %zu bytes is cut short",
		    len);
		return (-1);
	}
	n = in.p[1] | in.p[2] << 8 | in.p[3] << 16 | (uint32_t)in.p[4] << 24;
	in.p += STORE_LOG_HEAD;
	for (i = 0; i < n && rc == 0; i++) {
		if (in.p == in.end) {
			snprintf(why, whylen, "the log ends after %" PRIu32
			    " of its %" PRIu32 " changes", i, n);
			rc = -1;
		} else
			rc = store_log_apply_one(slog, db, &in, why, whylen);
	}
	if (rc == 0 && in.p != in.end) {
		snprintf(why, whylen, "%td bytes after its %" PRIu32
		    " changes", in.end - in.p, n);
		rc = -1;
	}
	return (rc);
}

int
store_log_apply_all(struct store_log *slog, sqlite3 *db,
    const void *const *logs, const size_t *lens, size_t n, char *err,
    size_t errlen)
{
	char	 why[256] = "", *msg = NULL;
	size_t	 i, failed = n;
	int	 rc = 0;

	if (store_log_idle(db, err, errlen) != 0)
		return (-1);
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s", msg != NULL ? msg :
		    sqlite3_errmsg(db));
		sqlite3_free(msg);
		return (-1);
	}
	for (i = 0; i < n && failed == n; i++) {
		if (store_log_apply_log(slog, db, logs[i], lens[i], why,
		    sizeof why) != 0)
			failed = i;
	}
	if (failed == n && sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) !=
	    SQLITE_OK) {
		snprintf(why, sizeof why, "%s", msg != NULL ? msg :
		    sqlite3_errmsg(db));
		sqlite3_free(msg);
		rc = -1;
	}
	if (failed == n && rc == 0)
		return (0);
	(void)sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	if (failed == n)
		snprintf(err, errlen, "committing %zu change logs: %s", n,
		    why);
	else if (n == 1)
		snprintf(err, errlen, "applying a change log of %zu bytes: %s",
		    lens[0], why);
	else
		snprintf(err, errlen, "applying change log %zu of %zu (%zu "
		    "bytes): %s", failed + 1, n, lens[failed], why);
	return (-1);
}
