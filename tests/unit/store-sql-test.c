/* store-sql-test.c: the jobs table's row and statements, derived from
 * common/job-field.h. A row with a distinct value in every field goes into
 * a real database (store_open in a temporary directory) and comes back
 * equal, field by field; an update rewrites exactly the fields marked
 * JFF_UPDATE. A field bound to the wrong column, or one that no statement
 * names, fails here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/job-field.h"
#include "common/xmalloc.h"
#include "common/job-state.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store-sql.h"
#include "daemon/controller/store.h"
#include "tests/unit/tap.h"

/* Seeds 1 to 3: the insert's, the update's and the edit's texts. */
static char	t_text[3][JF_COUNT][64];

/* Gives every field of r a value of its own, from seed. */
static void
t_fill(struct store_job *r, int seed)
{
	char	*p;
	int	 f;

	memset(r, 0, sizeof *r);
	r->has_exit = true;
	for (f = 0; f < JF_COUNT; f++) {
		if (job_fields[f].kind == JFK_DERIVED)
			continue;
		p = (char *)r + store_job_offset[f];
		switch (job_fields[f].kind) {
		case JFK_U64:
			*(uint64_t *)p = (UINT64_C(1) << 40) + (uint64_t)(f *
			    100 + seed);
			break;
		case JFK_I64:
			*(int64_t *)p = -((INT64_C(1) << 40) + f * 100 + seed);
			break;
		case JFK_U32:
			*(uint32_t *)p = 4000000000U + (uint32_t)(f * 100 +
			    seed);
			break;
		case JFK_INT:
		case JFK_EXIT:
		case JFK_NULLINT:
			*(int *)p = f * 100 + seed;
			break;
		case JFK_TEXT:
		case JFK_TEXT0:
		case JFK_TEXTREF:
			snprintf(t_text[seed - 1][f], sizeof t_text[0][0],
			    "%s %d '\"\n", job_fields[f].column, seed);
			*(const char **)p = t_text[seed - 1][f];
			break;
		case JFK_STATE:
			*(enum job_state *)p = seed % 2 ? JOB_PREEMPTING :
			    JOB_HELD;
			break;
		case JFK_DERIVED:
			break;
		}
	}
	r->id = 42;
	r->queue = -1;
}

/* Whether field f of a and b hold the same value. */
static int
t_same(const struct store_job *a, const struct store_job *b, int f)
{
	const char	*pa = (const char *)a + store_job_offset[f];
	const char	*pb = (const char *)b + store_job_offset[f];

	switch (job_fields[f].kind) {
	case JFK_U64:
	case JFK_I64:
		return (memcmp(pa, pb, 8) == 0);
	case JFK_U32:
	case JFK_INT:
	case JFK_EXIT:
	case JFK_NULLINT:
	case JFK_STATE:
		return (memcmp(pa, pb, 4) == 0);
	case JFK_TEXT:
	case JFK_TEXT0:
	case JFK_TEXTREF:
		return (strcmp(*(const char *const *)pa,
		    *(const char *const *)pb) == 0);
	case JFK_DERIVED:
		break;
	}
	return (1);
}

/* Writes row 42 with write (seeds 1 to seed - 1 wrote it before, each
 * the fields of the writes before): the fields with flag come back as
 * seed fills them, the others as before. */
static void
t_write(int (*write)(const struct store_job *), unsigned flag, int seed,
    const char *what)
{
	struct store_job	 up, before, out;
	char			 err[256];
	int			 f;

	t_fill(&up, seed);
	ok(write(&up) == 0, "%s", what);
	ok(store_commit(err, sizeof err) == 0, "commit: %s", err);
	ok(store_job_get(42, &out) == 1, "read it after the %s", what);
	for (f = 0; f < JF_COUNT; f++) {
		if (job_fields[f].column == NULL)
			continue;
		/* What the last write of the field left: the insert's
		 * (seed 1), or the update's (seed 2, JFF_UPDATE). */
		t_fill(&before, seed > 2 && (job_fields[f].flags &
		    JFF_UPDATE) ? 2 : 1);
		if (job_fields[f].flags & flag)
			ok(t_same(&up, &out, f), "%s is rewritten by the %s",
			    job_fields[f].column, what);
		else
			ok(t_same(&before, &out, f), "%s is kept by the %s",
			    job_fields[f].column, what);
	}
	store_job_done();
}

int
main(void)
{
	struct store_job	 in, up, out;
	char			 dir[] = "/tmp/store-sql-test.XXXXXX", err[256];
	char			*sql, *cmd;
	int			 pos[JF_COUNT], f, stored, n, i;

	if (mkdtemp(dir) == NULL)
		return (1);

	sql = store_sql_job_select(false, "", pos);
	for (f = 0, n = 0, stored = 0; f < JF_COUNT; f++) {
		if (job_fields[f].column == NULL)
			continue;
		stored++;
		n += pos[f] >= 0 && pos[f] < JF_COUNT;
	}
	is_int(n, stored, "the select reads every stored field once");
	free(sql);
	sql = store_sql_job_update(JFF_UPDATE);
	ok(strstr(sql, " name = ") == NULL && strstr(sql, "state = :state") !=
	    NULL, "the update sets transition fields, not the name: %s", sql);
	free(sql);
	sql = store_sql_job_update(JFF_EDIT);
	ok(strstr(sql, " name = :name") != NULL && strstr(sql, "state =") ==
	    NULL, "the edit sets the request's fields, not the state: %s",
	    sql);
	free(sql);

	ok(store_open(dir, STORE_SYNC_NORMAL, NULL, err, sizeof err) == 0, "open: %s", err);
	t_fill(&in, 1);
	ok(store_job_insert(&in) == 0, "insert a row with every field set");
	ok(store_commit(err, sizeof err) == 0, "commit: %s", err);
	ok(store_job_get(42, &out) == 1, "read it back");
	for (f = 0; f < JF_COUNT; f++) {
		if (job_fields[f].column == NULL)
			continue;
		ok(t_same(&in, &out, f), "%s comes back as written",
		    job_fields[f].column);
	}
	ok(out.has_exit, "an exit status comes back known");
	is_int(out.queue, -1, "queue is not stored");
	store_job_done();

	/* An update takes the transition fields only, an edit those of a
	 * request that may change. */
	t_write(store_job_update, JFF_UPDATE, 2, "update");
	t_write(store_job_edit, JFF_EDIT, 3, "edit");
	t_fill(&up, 2);

	/* NULL-able fields: no exit status, no umask. */
	up.has_exit = false;
	up.umask = -1;
	ok(store_job_update(&up) == 0 && store_commit(err, sizeof err) == 0,
	    "update without an exit status");
	ok(store_job_get(42, &out) == 1 && !out.has_exit,
	    "no exit status comes back unknown");
	store_job_done();

	store_close();
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# could not remove %s\n", dir);
	free(cmd);
	/* The SQL of "finished" names exactly the terminal states. */
	for (i = 0; i < JOB_STATE_COUNT; i++) {
		char	quoted[32];

		snprintf(quoted, sizeof quoted, "'%s'", job_state_name(i));
		ok((strstr(STORE_SQL_FINISHED, quoted) != NULL) ==
		    job_state_is_terminal(i), "STORE_SQL_FINISHED and %s",
		    job_state_name(i));
	}
	return (tap_done());
}
