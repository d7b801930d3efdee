/* raft-segs-test.c: the raft log's segment files, against real files in a
 * temporary directory. Each step closes and opens the log again, so what
 * is checked is what a restarted gbatchd would load; damage is done to
 * the files behind the log's back, as a crash or a bad disk would. */
#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <raft.h>

#include "daemon/controller/raft-segs.h"
#include "tests/unit/tap.h"

static char	t_dir[] = "/tmp/raft-segs-test.XXXXXX";
static char	t_log[64];

static struct raft_segs *
t_open(raft_index start)
{
	struct raft_segs	*l;
	char			 err[256];

	if ((l = raft_segs_open(t_log, start, err, sizeof err)) == NULL)
		printf("# open: %s\n", err);
	return (l);
}

/* Appends entry idx, its data "e<idx>" (or size bytes of 'x'). */
static int
t_append(struct raft_segs *l, raft_index idx, raft_term term, size_t size)
{
	struct raft_entry	e;
	char			small[32];
	int			rv;

	memset(&e, 0, sizeof e);
	e.term = term;
	e.type = RAFT_COMMAND;
	if (size == 0) {
		snprintf(small, sizeof small, "e%llu", idx);
		e.buf.base = small;
		e.buf.len = strlen(small);
		return (raft_segs_append(l, idx, &e, 1));
	}
	e.buf.base = malloc(size);
	memset(e.buf.base, 'x', size);
	e.buf.len = size;
	rv = raft_segs_append(l, idx, &e, 1);
	free(e.buf.base);
	return (rv);
}

/* Loads the log: 1 if it holds entries first..last, each small one's
 * data "e<idx>" and term as appended by t_append with term idx / 10 + 1. */
static int
t_holds(struct raft_segs *l, raft_index first, raft_index last)
{
	struct raft_entry	*e;
	size_t			 n, i;
	char			 want[32];
	int			 good;

	if (raft_segs_load(l, &e, &n) != 0) {
		printf("# load: %s\n", raft_segs_errmsg(l));
		return (0);
	}
	good = n == (first == 0 ? 0 : last - first + 1) &&
	    raft_segs_last(l) == last;
	for (i = 0; good && i < n; i++) {
		snprintf(want, sizeof want, "e%llu", first + i);
		good = e[i].term == (first + i) / 10 + 1 &&
		    e[i].type == RAFT_COMMAND && e[i].batch == e[0].batch &&
		    (e[i].buf.len > 1000 || (e[i].buf.len == strlen(want) &&
		    memcmp(e[i].buf.base, want, e[i].buf.len) == 0));
	}
	if (!good)
		printf("# loaded %zu entries, last %llu\n", n, raft_segs_last(l));
	if (n > 0)
		raft_free(e[0].batch);
	raft_free(e);
	return (good);
}

static int
t_count_segs(void)
{
	struct dirent	*de;
	DIR		*dp;
	int		 n = 0;

	if ((dp = opendir(t_log)) == NULL)
		return (-1);
	while ((de = readdir(dp)) != NULL)
		n += strlen(de->d_name) == 16;
	closedir(dp);
	return (n);
}

/* Flips one byte of segment seq at off. */
static void
t_damage(unsigned seq, off_t off)
{
	char		path[128];
	unsigned char	c;
	int		fd;

	snprintf(path, sizeof path, "%s/%016x", t_log, seq);
	if ((fd = open(path, O_RDWR)) == -1 || pread(fd, &c, 1, off) != 1) {
		printf("# damage %s: cannot\n", path);
		return;
	}
	c ^= 0x5a;
	if (pwrite(fd, &c, 1, off) != 1)
		printf("# damage %s: cannot write\n", path);
	close(fd);
}

static struct raft_segs *
t_reopen(struct raft_segs *l, raft_index start)
{
	raft_segs_close(l);
	return (t_open(start));
}

static void
t_append_and_reload(void)
{
	struct raft_segs	*l;
	struct stat		 sb;
	raft_index		 i;

	l = t_open(1);
	ok(l != NULL && stat(t_log, &sb) == 0 && (sb.st_mode & 0777) == 0700,
	    "a new log's directory is made, mode 0700");
	ok(l != NULL && t_holds(l, 0, 0), "a new log holds nothing");
	ok(t_append(l, 2, 1, 0) == RAFT_INVALID, "an append past the start "
	    "is refused: %s", raft_segs_errmsg(l));
	for (i = 1; i <= 5; i++)
		if (t_append(l, i, i / 10 + 1, 0) != 0)
			break;
	ok(i == 6 && raft_segs_sync(l) == 0, "five entries are appended");
	ok(t_append(l, 7, 1, 0) == RAFT_INVALID, "one that skips 6 is "
	    "refused: %s", raft_segs_errmsg(l));
	l = t_reopen(l, 1);
	ok(l != NULL && t_holds(l, 1, 5), "they load after a restart");
	ok(t_count_segs() == 1, "in one segment");

	/* A crash tore entry 6: its bytes are cleared, 6 goes again. */
	ok(t_append(l, 6, 1, 0) == 0 && raft_segs_sync(l) == 0,
	    "entry 6 is appended");
	raft_segs_close(l);
	t_damage(1, 16 + 5 * 40 + 33);
	l = t_open(1);
	ok(l != NULL && t_holds(l, 1, 5), "a torn last record ends the log");
	ok(l != NULL && t_append(l, 6, 1, 0) == 0 && raft_segs_sync(l) == 0,
	    "and the next append goes where it was");
	l = t_reopen(l, 1);
	ok(l != NULL && t_holds(l, 1, 6), "which loads");
	raft_segs_close(l);
}

static void
t_segments(void)
{
	struct raft_segs	*l;
	char			 err[256] = "";

	/* 7 does not fit in segment 1, and 8 not in 7's own. */
	l = t_open(1);
	ok(l != NULL && t_append(l, 7, 1, RAFT_SEGS_SIZE) == 0 &&
	    t_append(l, 8, 1, 0) == 0 && raft_segs_sync(l) == 0,
	    "an entry larger than a segment is appended, and one after it");
	ok(t_count_segs() == 3, "in segments of their own (%d)",
	    t_count_segs());
	l = t_reopen(l, 1);
	ok(l != NULL && t_holds(l, 1, 8), "all of them load");

	/* Damage anywhere but the last segment is not a torn write. */
	raft_segs_close(l);
	t_damage(1, 16 + 40 + 33);
	l = raft_segs_open(t_log, 1, err, sizeof err);
	ok(l == NULL && strstr(err, "fails its checksum") != NULL,
	    "a bad record before the last segment is refused: %s", err);
	raft_segs_close(l);
	t_damage(1, 16 + 40 + 33);

	l = t_open(1);
	ok(l != NULL && raft_segs_truncate(l, 7) == 0 && t_count_segs() == 1,
	    "truncating at 7 removes the segments after 6");
	ok(l != NULL && t_append(l, 7, 1, 0) == 0 && raft_segs_sync(l) == 0,
	    "7 is appended again");
	l = t_reopen(l, 1);
	ok(l != NULL && t_holds(l, 1, 7), "and the log ends there");
	ok(l != NULL && raft_segs_truncate(l, 9) == 0 && t_holds(l, 1, 7),
	    "truncating past the end drops nothing");
	ok(l != NULL && raft_segs_truncate(l, 3) == 0, "truncate at 3");
	l = t_reopen(l, 1);
	ok(l != NULL && t_holds(l, 1, 2), "leaves 1 and 2");
	raft_segs_close(l);
}

static void
t_forget_and_reset(void)
{
	struct raft_segs	*l;
	char			 err[256] = "";
	raft_index		 i;

	/* 1-2 in segment 1, 3 filling one of its own, 4-30 in the next. */
	l = t_open(1);
	i = 3;
	if (l != NULL && t_append(l, i, 1, RAFT_SEGS_SIZE) == 0)
		for (i = 4; i <= 30; i++)
			if (t_append(l, i, i / 10 + 1, 0) != 0)
				break;
	ok(i == 31 && raft_segs_sync(l) == 0 && t_count_segs() == 3,
	    "entries to 30 in three segments");
	ok(l != NULL && raft_segs_forget(l, 3) == 0 && t_count_segs() == 2,
	    "forgetting before 3 removes segment 1");
	ok(l != NULL && raft_segs_forget(l, 20) == 0 && t_count_segs() == 1,
	    "before 20, segment 2");
	l = t_reopen(l, 20);
	ok(l != NULL && t_holds(l, 20, 30), "the log loads from 20");
	raft_segs_close(l);
	l = raft_segs_open(t_log, 35, err, sizeof err);
	ok(l != NULL && t_holds(l, 0, 0), "from 35 it holds nothing");
	ok(l != NULL && t_append(l, 35, 4, 0) == 0 && raft_segs_sync(l) == 0,
	    "35 goes after the records before it");
	l = t_reopen(l, 35);
	ok(l != NULL && t_holds(l, 35, 35), "and loads alone");
	raft_segs_close(l);
	l = raft_segs_open(t_log, 1, err, sizeof err);
	ok(l == NULL && strstr(err, "where 1 was expected") != NULL,
	    "a log that does not reach its start is refused: %s", err);

	l = t_open(35);
	ok(l != NULL && raft_segs_reset(l, 50) == 0 && t_count_segs() == 0 &&
	    t_holds(l, 0, 0), "a reset removes every segment");
	ok(l != NULL && t_append(l, 50, 6, 0) == 0 && raft_segs_sync(l) == 0,
	    "and the log goes on at its new start");
	l = t_reopen(l, 50);
	ok(l != NULL && t_holds(l, 50, 50), "which loads");
	raft_segs_close(l);
}

static void
t_leftovers(void)
{
	struct raft_segs	*l;
	char			 path[128];
	int			 fd;

	/* A crash between making a segment and writing its header. */
	snprintf(path, sizeof path, "%s/%016x", t_log, 0x99);
	if ((fd = open(path, O_CREAT | O_WRONLY, 0600)) != -1)
		close(fd);
	snprintf(path, sizeof path, "%s/README", t_log);
	if ((fd = open(path, O_CREAT | O_WRONLY, 0600)) != -1)
		close(fd);
	l = t_open(50);
	ok(l != NULL && t_holds(l, 50, 50) && t_count_segs() == 1 &&
	    access(path, F_OK) == 0, "an empty last segment is removed, "
	    "other files are left alone");
	ok(l != NULL && t_append(l, 51, 6, 0) == 0 && raft_segs_sync(l) == 0,
	    "appends go on");
	l = t_reopen(l, 50);
	ok(l != NULL && t_holds(l, 50, 51), "and load");
	raft_segs_close(l);
}

int
main(void)
{
	char	cmd[128];

	if (mkdtemp(t_dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(t_log, sizeof t_log, "%s/raft.db-log", t_dir);
	t_append_and_reload();
	t_segments();
	t_forget_and_reset();
	t_leftovers();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t_dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", t_dir);
	return (tap_done());
}
