/* store-log-test.c: the store's change log (daemon/controller/store-log.c).
 * Commits on one database leave changesets; applied in order to a fresh
 * database (a follower), and again over it (a replay from a snapshot),
 * they give the same rows and the same next job id; an image restores
 * them whole. What a commit undid before committing is not in its
 * changeset, and bad input changes nothing. Through store.h, as replica.c
 * uses it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/xmalloc.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store-log.h"
#include "daemon/controller/store.h"
#include "tests/unit/tap.h"

/* Runs sql in the group transaction, as a store writer does. */
static int
t_write(const char *sql)
{
	return (store_begin() == 0 && sqlite3_exec(store_handle(), sql, NULL,
	    NULL, NULL) == SQLITE_OK ? 0 : -1);
}

static int
t_job(int id, const char *state)
{
	char	sql[512];

	snprintf(sql, sizeof sql, "INSERT INTO jobs (id, name, user, uid, gid,"
	    " state, gpus, time_limit, script, command, argv, env, workdir,"
	    " stdout, stderr, submit_time) VALUES (%d, 'j%d', 'ann', 1000,"
	    " 1000, '%s', 1, 60, '', 'true', '[]', '[]', '/', '', '', %d)", id,
	    id, state, 100 + id);
	return (t_write(sql));
}

/* Every row that matters here, as text. */
static char *
t_dump(void)
{
	static const char *const q[] = {
		"SELECT id, name, state, gpus, submit_time FROM jobs ORDER BY id",
		"SELECT name, gpus, drained, reason, last_seen FROM nodes"
		    " ORDER BY name",
		"SELECT id, job_id, to_state, detail FROM job_events ORDER BY id",
	};
	sqlite3_stmt	*st;
	size_t		 i;
	char		*out = xstrdup(""), *next;
	int		 c;

	for (i = 0; i < sizeof q / sizeof q[0]; i++) {
		if (sqlite3_prepare_v2(store_handle(), q[i], -1, &st, NULL) !=
		    SQLITE_OK)
			return (out);
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (c = 0; c < sqlite3_column_count(st); c++) {
				const unsigned char *t = sqlite3_column_text(st,
				    c);

				next = xasprintf("%s%s|", out, t == NULL ?
				    "NULL" : (const char *)t);
				free(out);
				out = next;
			}
			next = xasprintf("%s\n", out);
			free(out);
			out = next;
		}
		sqlite3_finalize(st);
	}
	return (out);
}

/* The first column of sql's first row, as text ("" for none). */
static char *
t_query(const char *sql)
{
	sqlite3_stmt	*st;
	char		*out = NULL;

	if (sqlite3_prepare_v2(store_handle(), sql, -1, &st, NULL) !=
	    SQLITE_OK)
		return (xstrdup(""));
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) !=
	    NULL)
		out = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return (out != NULL ? out : xstrdup(""));
}

static char *
t_dir(void)
{
	char	tmpl[] = "/tmp/gb-store-log.XXXXXX";

	if (mkdtemp(tmpl) == NULL)
		return (NULL);
	return (xstrdup(tmpl));
}

static void
t_rm(char *dir)
{
	char	*cmd = xasprintf("rm -rf '%s'", dir);

	if (system(cmd) != 0)
		fprintf(stderr, "# could not remove %s\n", dir);
	free(cmd);
	free(dir);
}

int
main(void)
{
	struct store_node	 n1 = { "n1", 4, false, "", 500 };
	char			 err[512], *a, *b, *c, *want, *got;
	void			*cs1, *cs2, *cs3, *cs4, *img;
	size_t			 len1, len2, len3, len4, ilen, lens[2];
	const void		*logs[2];
	uint64_t		 next_a;
	char			*mode, *here;
	uint8_t			 fmt[8];
	size_t			 i, bad;

	a = t_dir(), b = t_dir(), c = t_dir();
	if (a == NULL || b == NULL || c == NULL)
		return (1);

	/* The leader: three commits, captured. */
	ok(store_open(a, STORE_SYNC_NORMAL, NULL, err, sizeof err) == 0, "open: %s", err);
	store_capture(true);
	ok(t_job(1, "PENDING") == 0 && t_job(2, "PENDING") == 0 &&
	    t_job(3, "PENDING") == 0 && store_node_save(&n1) == 0 &&
	    store_event_insert(1, 101, "", "PENDING", "submitted") == 0,
	    "first transaction written");
	ok(store_commit(err, sizeof err) == 0, "commit: %s", err);
	cs1 = store_changeset_take(&len1);
	ok(cs1 != NULL && len1 > 0, "the commit left a changeset (%zu bytes)",
	    len1);
	ok(store_changeset_take(&len3) == NULL && len3 == 0,
	    "a changeset is taken once");

	n1.drained = true;
	n1.reason = "fan";
	ok(t_write("UPDATE jobs SET state = 'RUNNING' WHERE id = 2") == 0 &&
	    t_write("DELETE FROM jobs WHERE id = 3") == 0 &&
	    store_node_save(&n1) == 0, "second transaction written");
	ok(store_commit(err, sizeof err) == 0, "commit: %s", err);
	cs2 = store_changeset_take(&len2);
	ok(cs2 != NULL && len2 > 0, "the second commit left a changeset");

	/* Written and undone in the same transaction: nothing to ship. */
	ok(t_write("SAVEPOINT p") == 0 && t_job(9, "PENDING") == 0 &&
	    t_write("ROLLBACK TO p") == 0 && t_write("RELEASE p") == 0,
	    "a savepoint's insert rolled back");
	ok(store_commit(err, sizeof err) == 0, "commit: %s", err);
	cs3 = store_changeset_take(&len3);
	ok(cs3 == NULL && len3 == 0, "a commit that changed nothing leaves no "
	    "changeset (%zu bytes)", len3);

	/* A reservation, for the unique name below. */
	ok(t_write("INSERT INTO reservations (id, name, start_time, end_time,"
	    " nodes) VALUES (1, 'r1', 0, 10, 'n1')") == 0 &&
	    store_commit(err, sizeof err) == 0, "a reservation: %s", err);
	cs4 = store_changeset_take(&len4);
	ok(cs4 != NULL && len4 > 0, "its changeset");

	want = t_dump();
	/* What a restart of the leader would hand out (its rows were
	 * written here with their ids, not through store_job_next_id). */
	store_refresh();
	next_a = store_job_next_id();
	is_int(next_a, 4, "the leader's next job id");
	img = store_image(&ilen, err, sizeof err);
	ok(img != NULL && ilen >= 4096, "image of %zu bytes: %s", ilen,
	    img == NULL ? err : "");
	store_close();

	/* A follower applies the log in order; then again, as a replay
	 * from a snapshot over a copy that holds it already. */
	store_capture(false);
	ok(store_open(b, STORE_SYNC_NORMAL, NULL, err, sizeof err) == 0, "open: %s", err);
	logs[0] = cs1;
	logs[1] = cs2;
	lens[0] = len1;
	lens[1] = len2;
	ok(store_changesets_apply(logs, lens, 2, err, sizeof err) == 0,
	    "apply 1 and 2 in one transaction: %s", err);
	got = t_dump();
	is_str(got, want, "the follower has the leader's rows");
	free(got);
	is_int(store_job_next_id(), next_a, "and hands out the next job id "
	    "the leader would have");
	ok(store_changeset_apply(cs1, len1, err, sizeof err) == 0 &&
	    store_changeset_apply(cs2, len2, err, sizeof err) == 0,
	    "the log applied again: %s", err);
	got = t_dump();
	is_str(got, want, "a replay over the rows ends in the same rows");
	free(got);

	/* Bad input changes nothing. */
	ok(store_changeset_apply("garbage!", 8, err, sizeof err) == -1,
	    "a corrupt changeset is refused: %s", err);
	ok(store_changeset_apply(cs2, len2 / 2, err, sizeof err) == -1,
	    "a truncated changeset is refused: %s", err);
	got = t_dump();
	is_str(got, want, "and nothing changed");
	free(got);
	ok(t_write("UPDATE jobs SET state = 'HELD' WHERE id = 1") == 0 &&
	    store_changeset_apply(cs1, len1, err, sizeof err) == -1 &&
	    strstr(err, "transaction") != NULL,
	    "no apply inside the open transaction: %s", err);
	(void)store_commit(err, sizeof err);
	ok(store_restore("SQLite format 3", 16, err, sizeof err) == -1,
	    "a short image is refused: %s", err);

	/* A row written replaces the row of its key, whatever this copy
	 * made of it, and comes back if this copy deleted it. */
	ok(t_write("UPDATE jobs SET state = 'HELD', gpus = 7 WHERE id = 2")
	    == 0 && store_commit(err, sizeof err) == 0, "job 2 changed here");
	logs[0] = cs2;
	logs[1] = "garbage!";
	lens[1] = 8;
	lens[0] = len2;
	ok(store_changesets_apply(logs, lens, 2, err, sizeof err) == -1 &&
	    strstr(err, "change log 2 of 2 (8 bytes)") != NULL,
	    "a batch with a corrupt second log is refused, naming it: %s",
	    err);
	got = t_query("SELECT state || ' ' || gpus FROM jobs WHERE id = 2");
	is_str(got, "HELD 7", "and its first log is not applied either");
	free(got);
	ok(store_changeset_apply(cs2, len2, err, sizeof err) == 0, "apply 2 "
	    "over it: %s", err);
	got = t_query("SELECT state || ' ' || gpus FROM jobs WHERE id = 2");
	is_str(got, "RUNNING 1", "the row is the leader's again");
	free(got);
	ok(t_write("DELETE FROM jobs WHERE id = 2") == 0 &&
	    store_commit(err, sizeof err) == 0 &&
	    store_changeset_apply(cs2, len2, err, sizeof err) == 0,
	    "job 2 deleted here, apply 2: %s", err);
	got = t_query("SELECT state || ' ' || gpus FROM jobs WHERE id = 2");
	is_str(got, "RUNNING 1", "brings the row back");
	free(got);

	/* Every log cut short, and one of another format, is refused and
	 * changes nothing. */
	here = t_dump();
	for (i = 1, bad = 0; i < len1; i++)
		if (store_changeset_apply(cs1, i, err, sizeof err) != -1)
			bad++;
	is_int(bad, 0, "every one of the %zu cuts of a log is refused (%s)",
	    len1 - 1, err);
	memcpy(fmt, cs1, sizeof fmt);
	fmt[0] = 9;
	ok(store_changeset_apply(fmt, sizeof fmt, err, sizeof err) == -1 &&
	    strstr(err, "format 9") != NULL, "a log of another format is "
	    "refused: %s", err);
	got = t_dump();
	is_str(got, here, "and nothing changed");
	free(got);
	free(here);

	/* A unique value another row holds stops the apply. */
	ok(t_write("INSERT INTO reservations (id, name, start_time, end_time,"
	    " nodes) VALUES (5, 'r1', 0, 10, 'n1')") == 0 &&
	    store_commit(err, sizeof err) == 0, "another r1 here");
	ok(store_changeset_apply(cs4, len4, err, sizeof err) == -1 &&
	    strstr(err, "reservations") != NULL &&
	    strstr(err, "UNIQUE") != NULL,
	    "a changeset that breaks a unique name is refused: %s", err);
	got = t_query("SELECT group_concat(id) FROM reservations");
	is_str(got, "5", "and nothing changed");
	free(got);
	store_close();

	/* A new replica installs the image. */
	ok(store_open(c, STORE_SYNC_NORMAL, NULL, err, sizeof err) == 0, "open: %s", err);
	ok(t_job(7, "PENDING") == 0 && store_commit(err, sizeof err) == 0,
	    "a row the image does not have");
	ok(store_restore(img, ilen, err, sizeof err) == 0, "restore: %s",
	    err);
	got = t_dump();
	is_str(got, want, "the image's rows, and only them");
	free(got);
	is_int(store_job_next_id(), next_a, "the next job id follows them");
	mode = NULL;
	{
		sqlite3_stmt	*st;

		if (sqlite3_prepare_v2(store_handle(), "PRAGMA journal_mode",
		    -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) ==
		    SQLITE_ROW)
			mode = xstrdup((const char *)sqlite3_column_text(st,
			    0));
		sqlite3_finalize(st);
	}
	is_str(mode != NULL ? mode : "", "wal", "the restored database stays in WAL mode");
	free(mode);
	ok(t_job(8, "PENDING") == 0 && store_commit(err, sizeof err) == 0,
	    "and takes writes: %s", err);
	store_close();

	store_log_free(cs1);
	store_log_free(cs2);
	store_log_free(cs4);
	store_log_free(img);
	free(want);
	t_rm(a);
	t_rm(b);
	t_rm(c);
	return (tap_done());
}
