/* node-shm-test.c: a user's files in /dev/shm removed once the user's
 * last job ends (daemon/node/node-shm.c), in a directory of its own made
 * like /dev/shm (1777): only that user's entries go, directories with
 * what they hold, and a symlink is removed, never followed. Root is needed
 * to give files to other uids; without it only the refusals are tested. */
#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/node/node-shm.h"
#include "tests/unit/tap.h"

#define USER	54321
#define OTHER	54322

static char	top[32];

/* Makes top/name, a file (or with dir, a directory) of uid. */
static void
make(const char *name, uid_t uid, bool dir)
{
	char	path[128];
	int	fd, r;

	snprintf(path, sizeof path, "%s/%s", top, name);
	if (dir)
		r = mkdir(path, 0700);
	else if ((r = fd = open(path, O_CREAT | O_WRONLY, 0600)) != -1)
		r = close(fd);
	if (r == -1 || lchown(path, uid, uid) == -1)
		tap_ok(0, __FILE__, __LINE__, "cannot make %s", path);
}

static bool
there(const char *name)
{
	char		path[128];
	struct stat	st;

	snprintf(path, sizeof path, "%s/%s", top, name);
	return (lstat(path, &st) == 0);
}

int
main(void)
{
	char	tmpl[] = "/tmp/gbt-shm.XXXXXX", err[512], path[128], link[128];
	long	n;

	is_int(node_shm_clean("/tmp", 0, err, sizeof err), -1,
	    "root's files are never removed");
	ok(strstr(err, "root's files in /tmp are the system's") != NULL,
	    "saying so: %s", err);
	is_int(node_shm_clean("/nonexistent/shm", USER, err, sizeof err), -1,
	    "a directory that is not there");
	if (geteuid() != 0) {
		printf("# skipped the files: root is needed to give them to "
		    "other uids\n");
		return (tap_done());
	}
	if (mkdtemp(tmpl) == NULL || chmod(tmpl, S_ISVTX | 0777) == -1) {
		tap_ok(0, __FILE__, __LINE__, "mkdtemp");
		return (tap_done());
	}
	snprintf(top, sizeof top, "%s", tmpl);
	make("torch_1234_0", USER, false);	/* a DataLoader's segment */
	make("sem.mp-abc", USER, false);
	make("nccl-dir", USER, true);
	make("nccl-dir/seg", USER, false);
	make("theirs", OTHER, false);
	make("their-dir", OTHER, true);
	make("root-file", 0, false);
	/* The user's symlink to another's file: removed, not followed. */
	snprintf(path, sizeof path, "%s/theirs", top);
	snprintf(link, sizeof link, "%s/link", top);
	if (symlink(path, link) == -1 || lchown(link, USER, USER) == -1)
		tap_ok(0, __FILE__, __LINE__, "cannot link");

	n = node_shm_clean(top, USER, err, sizeof err);
	is_int(n, 5, "five gone: two files, a directory and the file in it, "
	    "a link");
	ok(!there("torch_1234_0") && !there("sem.mp-abc") &&
	    !there("nccl-dir") && !there("link"), "the user's entries are gone");
	ok(there("theirs") && there("their-dir") && there("root-file"),
	    "another user's and root's stay; the link's target too");
	is_int(node_shm_clean(top, USER, err, sizeof err), 0,
	    "again: nothing left of the user's");
	snprintf(path, sizeof path, "rm -rf '%s'", top);
	if (system(path) != 0)
		tap_ok(0, __FILE__, __LINE__, "cannot remove %s", top);
	return (tap_done());
}
