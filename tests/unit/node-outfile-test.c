/* node-outfile-test.c: a job's output files against what another user
 * planted at their names (daemon/node/node-outfile.c): the rule, then, as
 * root (who can give a file to another uid), real files in a sticky
 * directory and in a plain one. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/node/node-outfile.h"
#include "tests/unit/tap.h"

/* Another user, as an attacker would be. */
#define OTHER	54321

static void
test_rule(void)
{
	ok(node_outfile_shared_dir(S_ISVTX | 0777), "/tmp (1777) is shared");
	ok(node_outfile_shared_dir(S_ISVTX | 0770), "a sticky group dir too");
	ok(!node_outfile_shared_dir(0777), "not sticky: not shared");
	ok(!node_outfile_shared_dir(S_ISVTX | 0755), "sticky, owner-only: no");
	ok(node_outfile_may_use(1000, 1000, 0, S_ISVTX | 0777),
	    "the job's user's own file in /tmp");
	ok(node_outfile_may_use(1000, 0, 0, S_ISVTX | 0777),
	    "the directory owner's");
	ok(!node_outfile_may_use(1000, OTHER, 0, S_ISVTX | 0777),
	    "another user's in /tmp: refused");
	ok(node_outfile_may_use(1000, OTHER, 0, 0777),
	    "another user's where the directory is not sticky");
}

/* Reads the whole of path into buf; "" when it cannot. */
static const char *
slurp(const char *path)
{
	static char	buf[256];
	FILE		*f;
	size_t		 n = 0;

	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return (buf);
}

static void
put(const char *path, const char *text, uid_t owner, mode_t mode)
{
	FILE	*f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0 ||
	    chown(path, owner, owner) == -1 || chmod(path, mode) == -1)
		tap_ok(0, __FILE__, __LINE__, "cannot make %s", path);
}

static void
test_files(void)
{
	char	tmpl[] = "/tmp/gbt-outfile.XXXXXX", *top, path[PATH_MAX],
		victim[PATH_MAX], err[512];
	int	fd;

	if ((top = mkdtemp(tmpl)) == NULL) {
		tap_ok(0, __FILE__, __LINE__, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/sticky", top);
	if (mkdir(path, 0700) == -1 || chmod(path, S_ISVTX | 0777) == -1)
		tap_ok(0, __FILE__, __LINE__, "cannot make %s", path);
	snprintf(victim, sizeof victim, "%s/victim", top);
	put(victim, "precious\n", 0, 0644);

	/* A symlink another user planted at the job's name, to a file of
	 * the job's user: not followed, the file untouched. */
	snprintf(path, sizeof path, "%s/sticky/gbatch-1.out", top);
	if (symlink(victim, path) == -1 || lchown(path, OTHER, OTHER) == -1)
		tap_ok(0, __FILE__, __LINE__, "cannot plant %s", path);
	fd = node_outfile_open(path, true, err, sizeof err);
	ok(fd == -1 && errno == EACCES, "a planted symlink is refused");
	ok(strstr(err, "a symlink of another user (uid 54321) in the shared "
	    "directory ") != NULL && strstr(err, "/sticky (sticky, writable "
	    "by others): refused") != NULL, "saying whose and where: %s", err);
	is_str(slurp(victim), "precious\n", "the victim's file is untouched");

	/* A file another user made first, writable by all: not written. */
	snprintf(path, sizeof path, "%s/sticky/gbatch-2.out", top);
	put(path, "", OTHER, 0666);
	fd = node_outfile_open(path, false, err, sizeof err);
	ok(fd == -1 && strstr(err, "a file of another user (uid 54321)") !=
	    NULL, "a planted file is refused: %s", err);

	/* The job's own symlink and file there are its to use. */
	snprintf(path, sizeof path, "%s/sticky/own.link", top);
	if (symlink(victim, path) == -1)
		tap_ok(0, __FILE__, __LINE__, "cannot link %s", path);
	fd = node_outfile_open(path, false, err, sizeof err);
	ok(fd >= 0 && write(fd, "more\n", 5) == 5, "its own symlink is "
	    "followed");
	if (fd >= 0)
		close(fd);
	is_str(slurp(victim), "precious\nmore\n", "and appended to");
	snprintf(path, sizeof path, "%s/sticky/new.out", top);
	fd = node_outfile_open(path, false, err, sizeof err);
	ok(fd >= 0, "a new file is made");
	if (fd >= 0)
		close(fd);
	fd = node_outfile_open(path, true, err, sizeof err);
	ok(fd >= 0, "and opened again, truncated");
	if (fd >= 0)
		close(fd);

	/* Outside a sticky directory another user's symlink is followed,
	 * as the kernel follows it (only its directory's writers could put
	 * it there), and truncate empties the file. */
	snprintf(path, sizeof path, "%s/link", top);
	if (symlink(victim, path) == -1 || lchown(path, OTHER, OTHER) == -1)
		tap_ok(0, __FILE__, __LINE__, "cannot link %s", path);
	fd = node_outfile_open(path, true, err, sizeof err);
	ok(fd >= 0, "a symlink in a plain directory is followed");
	if (fd >= 0)
		close(fd);
	is_str(slurp(victim), "", "truncated");

	/* errno's text for the rest. */
	snprintf(path, sizeof path, "%s/none/x.out", top);
	ok(node_outfile_open(path, false, err, sizeof err) == -1 &&
	    strcmp(err, strerror(ENOENT)) == 0, "a missing directory: %s",
	    err);

	snprintf(path, sizeof path, "rm -rf '%s'", top);
	if (system(path) != 0)
		tap_ok(0, __FILE__, __LINE__, "cannot remove %s", top);
}

int
main(void)
{
	test_rule();
	if (geteuid() == 0)
		test_files();
	else
		printf("# skipped the files: root is needed to give a file "
		    "to another uid\n");
	return (tap_done());
}
