/* store-load.c: start-up's reading of every unfinished job, on threads of
 * their own while the caller's thread builds the jobs. Most of a start-up's
 * time is SQLite's: some 2 us a row to step and to read 60 columns (100,000
 * jobs: 200 ms and more on one core), against well under 1 us to build the
 * job. So up to STORE_LOAD_READERS threads read, each through its own
 * read-only connection, in batches that the caller takes as they come.
 *
 * The readers share the work as ranges of ids: the span from the least to
 * the greatest unfinished job's id (a search of jobs_state for each end of
 * each state) is cut in up to STORE_LOAD_CHUNKS ranges, and each reader
 * takes the next range left when it is done with one. A reader thus walks
 * only its own part of jobs_state, and its rows come in the table's order,
 * mostly each the next row of the page it is on; a range with no jobs
 * (finished ones' ids) costs a search of the index. The caller touches no
 * SQLite meanwhile; its callback must not either. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/job-state.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store-sql.h"

/* Readers at most (one a core, up to this), rows a batch holds, and
 * batches in flight per reader: each runs ahead of the caller by at most
 * STORE_LOAD_DEPTH - 1 batches. */
#define STORE_LOAD_READERS	4
#define STORE_LOAD_ROWS		512
#define STORE_LOAD_DEPTH	4
/* Ranges of ids at most, and ids a range at least. */
#define STORE_LOAD_CHUNKS	256
#define STORE_LOAD_CHUNK_MIN	1024

struct store_load_batch {
	struct store_job	 rows[STORE_LOAD_ROWS];
	size_t			 n;
	char			*text;		/* the rows' strings */
	size_t			 len, size;
};

struct store_load;

struct store_load_reader {
	struct store_load	*l;
	sqlite3			*db;
	sqlite3_stmt		*st;
	pthread_t		 th;
	bool			 threaded;	/* th runs it */
	bool			 bound;		/* st holds a range */
	struct store_load_batch	 batch[STORE_LOAD_DEPTH];
	size_t			 filled;	/* batches handed over */
	size_t			 taken;		/* batches the caller took */
	bool			 done;		/* it has ended */
	int			 rc;		/* its last sqlite3_step's */
	char			 err[256];
};

struct store_load {
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	int			 pos[JF_COUNT];
	/* Where in a row the strings read are (store_job_offset). */
	size_t			 text[JF_COUNT];
	size_t			 ntext;
	size_t			 n;
	/* The ids to read: from lo, width a range, nchunks ranges; next is
	 * the first no reader has taken (under mu). */
	int64_t			 lo, width;
	size_t			 nchunks, next;
	struct store_load_reader r[STORE_LOAD_READERS];
};

static bool
store_load_is_text(int f)
{
	return (job_fields[f].kind == JFK_TEXT ||
	    job_fields[f].kind == JFK_TEXT0 ||
	    job_fields[f].kind == JFK_TEXTREF);
}

static const char **
store_load_text(struct store_job *r, size_t off)
{
	return ((const char **)(void *)((char *)r + off));
}

/* Moves each string of row r (borrowed from SQLite) into b's text, as an
 * offset plus one (0 stays NULL) until store_load_fix makes it a pointer:
 * the text may move as it grows. */
static void
store_load_keep(const struct store_load *l, struct store_load_batch *b,
    struct store_job *r)
{
	const char	**p;
	size_t		  n, k;

	for (k = 0; k < l->ntext; k++) {
		if (*(p = store_load_text(r, l->text[k])) == NULL)
			continue;
		n = strlen(*p) + 1;
		if (b->len + n > b->size) {
			b->size = b->size * 2 > b->len + n ? b->size * 2 :
			    b->len + n;
			b->text = xrealloc(b->text, b->size);
		}
		memcpy(b->text + b->len, *p, n);
		*p = (const char *)(uintptr_t)(b->len + 1);
		b->len += n;
	}
}

/* Turns the offsets store_load_keep left in b's rows into pointers. */
static void
store_load_fix(const struct store_load *l, struct store_load_batch *b)
{
	const char	**p;
	size_t		  i, k;

	for (i = 0; i < b->n; i++) {
		for (k = 0; k < l->ntext; k++) {
			if (*(p = store_load_text(&b->rows[i], l->text[k])) !=
			    NULL)
				*p = b->text + ((uintptr_t)*p - 1);
		}
	}
}

/* Binds r's statement to the next range no reader has taken. Returns
 * false when none is left. */
static bool
store_load_chunk(struct store_load *l, struct store_load_reader *r)
{
	size_t	c;

	pthread_mutex_lock(&l->mu);
	c = l->next < l->nchunks ? l->next++ : l->nchunks;
	pthread_mutex_unlock(&l->mu);
	if (c == l->nchunks)
		return (false);
	sqlite3_reset(r->st);
	sqlite3_bind_int64(r->st, 1, l->lo + (int64_t)c * l->width);
	sqlite3_bind_int64(r->st, 2, l->lo + (int64_t)(c + 1) * l->width);
	return (r->bound = true);
}

/* Steps r to its next row, through the ranges it takes: SQLITE_ROW,
 * SQLITE_DONE once no range is left, or SQLite's error. */
static int
store_load_step(struct store_load *l, struct store_load_reader *r)
{
	int	rc;

	do {
		if (!r->bound && !store_load_chunk(l, r))
			return (SQLITE_DONE);
		if ((rc = sqlite3_step(r->st)) == SQLITE_DONE)
			r->bound = false;
	} while (rc == SQLITE_DONE);
	return (rc);
}

static void *
store_load_main(void *arg)
{
	struct store_load_reader *r = arg;
	struct store_load	*l = r->l;
	struct store_load_batch	*b;
	int			 rc = SQLITE_ROW;

	while (rc == SQLITE_ROW) {
		pthread_mutex_lock(&l->mu);
		while (r->filled - r->taken == STORE_LOAD_DEPTH)
			pthread_cond_wait(&l->cv, &l->mu);
		pthread_mutex_unlock(&l->mu);
		b = &r->batch[r->filled % STORE_LOAD_DEPTH];
		b->n = 0;
		b->len = 0;
		while (b->n < STORE_LOAD_ROWS &&
		    (rc = store_load_step(l, r)) == SQLITE_ROW) {
			store_job_read_at(r->st, l->pos, &b->rows[b->n]);
			store_load_keep(l, b, &b->rows[b->n]);
			b->n++;
		}
		store_load_fix(l, b);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			snprintf(r->err, sizeof r->err, "%s",
			    sqlite3_errmsg(r->db));
		pthread_mutex_lock(&l->mu);
		r->filled++;
		if (rc != SQLITE_ROW) {
			r->rc = rc;
			r->done = true;
		}
		pthread_cond_broadcast(&l->cv);
		pthread_mutex_unlock(&l->mu);
	}
	return (NULL);
}

/* Hands each batch the threads fill to cb, row by row, until every
 * threaded reader has ended and its batches are taken. */
static void
store_load_take(struct store_load *l, store_job_cb cb, void *arg)
{
	struct store_load_reader *r;
	struct store_load_batch	*b;
	size_t			 i, k, left;

	for (;;) {
		pthread_mutex_lock(&l->mu);
		for (;;) {
			left = 0;
			r = NULL;
			for (k = 0; k < l->n && r == NULL; k++) {
				if (!l->r[k].threaded)
					continue;
				if (l->r[k].filled > l->r[k].taken)
					r = &l->r[k];
				else if (!l->r[k].done)
					left++;
			}
			if (r != NULL || left == 0)
				break;
			pthread_cond_wait(&l->cv, &l->mu);
		}
		pthread_mutex_unlock(&l->mu);
		if (r == NULL)
			return;
		b = &r->batch[r->taken % STORE_LOAD_DEPTH];
		for (i = 0; i < b->n; i++)
			cb(&b->rows[i], arg);
		pthread_mutex_lock(&l->mu);
		r->taken++;
		pthread_cond_broadcast(&l->cv);
		pthread_mutex_unlock(&l->mu);
	}
}

/* Reads r's rows on the caller's thread (no thread could be had). */
static void
store_load_here(struct store_load *l, struct store_load_reader *r,
    store_job_cb cb, void *arg)
{
	struct store_job	row;

	while ((r->rc = store_load_step(l, r)) == SQLITE_ROW) {
		store_job_read_at(r->st, l->pos, &row);
		cb(&row, arg);
	}
	if (r->rc != SQLITE_DONE)
		snprintf(r->err, sizeof r->err, "%s", sqlite3_errmsg(r->db));
}

static void
store_load_free(struct store_load *l)
{
	size_t	k, i;

	for (k = 0; k < l->n; k++) {
		sqlite3_finalize(l->r[k].st);
		sqlite3_close(l->r[k].db);
		for (i = 0; i < STORE_LOAD_DEPTH; i++)
			free(l->r[k].batch[i].text);
	}
	pthread_cond_destroy(&l->cv);
	pthread_mutex_destroy(&l->mu);
	free(l);
}

/* Cuts the ids of the unfinished jobs, from the least to the greatest, in
 * l's ranges. Each is one search of jobs_state: the least and the greatest
 * id of a state are its ends there. Returns 0, or -1 with err. */
static int
store_load_span(struct store_load *l, sqlite3 *db, char *err, size_t errlen)
{
	static const char *const sql[2] = {
		"SELECT min(id) FROM jobs WHERE state = ?1",
		"SELECT max(id) FROM jobs WHERE state = ?1",
	};
	sqlite3_stmt	*st;
	int64_t		 ends[2] = { INT64_MAX, 0 }, id, span;
	int		 k, s, rc = SQLITE_OK;

	for (k = 0; k < 2 && rc == SQLITE_OK; k++) {
		if ((rc = sqlite3_prepare_v2(db, sql[k], -1, &st, NULL)) !=
		    SQLITE_OK)
			break;
		for (s = 0; s < JOB_STATE_COUNT; s++) {
			if (job_state_is_terminal(s))
				continue;
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, job_state_name(s), -1,
			    SQLITE_STATIC);
			if ((rc = sqlite3_step(st)) != SQLITE_ROW)
				break;
			rc = SQLITE_OK;
			if (sqlite3_column_type(st, 0) == SQLITE_NULL)
				continue;
			id = sqlite3_column_int64(st, 0);
			if (k == 0 ? id < ends[0] : id > ends[1])
				ends[k] = id;
		}
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		return (-1);
	}
	if (ends[0] > ends[1])
		return (0);		/* no job: no range */
	span = ends[1] - ends[0] + 1;
	l->lo = ends[0];
	l->nchunks = (size_t)((span + STORE_LOAD_CHUNK_MIN - 1) /
	    STORE_LOAD_CHUNK_MIN);
	if (l->nchunks > STORE_LOAD_CHUNKS)
		l->nchunks = STORE_LOAD_CHUNKS;
	l->width = (span + (int64_t)l->nchunks - 1) / (int64_t)l->nchunks;
	return (0);
}

/* Opens l's readers: a connection each and its share of the jobs.
 * Returns 0, or -1 with err. */
static int
store_load_open(struct store_load *l, size_t n, char *err, size_t errlen)
{
	const char		*path = store_path();
	struct store_load_reader *r;
	char			*sql;
	int			 f;

	sql = store_sql_job_select(false, " WHERE " STORE_SQL_ACTIVE
	    " AND id >= ?1 AND id < ?2", l->pos);
	for (f = 0; f < JF_COUNT; f++) {
		if (l->pos[f] != -1 && store_load_is_text(f))
			l->text[l->ntext++] = store_job_offset[f];
	}
	for (l->n = 0; l->n < n; l->n++) {
		r = &l->r[l->n];
		r->l = l;
		if (path == NULL || sqlite3_open_v2(path, &r->db,
		    SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
		    SQLITE_OK || sqlite3_prepare_v2(r->db, sql, -1, &r->st,
		    NULL) != SQLITE_OK) {
			snprintf(err, errlen, "%s", path == NULL ?
			    "the database is not open" : r->db == NULL ?
			    "out of memory" : sqlite3_errmsg(r->db));
			l->n++;
			free(sql);
			return (-1);
		}
		sqlite3_busy_timeout(r->db, 5000);
	}
	free(sql);
	return (store_load_span(l, l->r[0].db, err, errlen));
}

int
store_load_active(store_job_cb cb, void *arg)
{
	struct store_load	*l;
	long			 cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t			 n, k;
	int			 e, rc = 0;
	char			 err[256];

	n = cpus < 1 ? 1 : cpus > STORE_LOAD_READERS ? STORE_LOAD_READERS :
	    (size_t)cpus;
	l = xcalloc(1, sizeof *l);
	pthread_mutex_init(&l->mu, NULL);
	pthread_cond_init(&l->cv, NULL);
	if (store_load_open(l, n, err, sizeof err) != 0) {
		log_warn("store: reading jobs on threads: %s; reading them "
		    "on one", err);
		store_load_free(l);
		return (1);
	}
	for (k = 0; k < n; k++) {
		if ((e = pthread_create(&l->r[k].th, NULL, store_load_main,
		    &l->r[k])) == 0)
			l->r[k].threaded = true;
		else
			log_warn("store: reading jobs on a thread: "
			    "pthread_create: %s; reading them here",
			    strerror(e));
	}
	store_load_take(l, cb, arg);
	for (k = 0; k < n; k++) {
		if (l->r[k].threaded)
			pthread_join(l->r[k].th, NULL);
		else
			store_load_here(l, &l->r[k], cb, arg);
		if (l->r[k].rc != SQLITE_DONE) {
			log_error("store: reading jobs: %s", l->r[k].err);
			rc = -1;
		}
	}
	store_load_free(l);
	return (rc);
}
