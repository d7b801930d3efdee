/* node-ckpt-test.c: making and removing checkpoint directories
 * (daemon/node/node-ckpt.c), in a temporary directory. */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/node/node-ckpt.h"
#include "tests/unit/tap.h"

static char	top[64] = "/tmp/node-ckpt-test.XXXXXX";

/* A path under the test's directory; a static buffer per call slot. */
static const char *
at(const char *rel)
{
	static char	buf[4][256];
	static int	i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", top, rel);
	return (buf[i]);
}

static int
exists(const char *rel)
{
	struct stat	st;

	return (stat(at(rel), &st) == 0);
}

static void
touch(const char *rel)
{
	FILE	*f;

	if ((f = fopen(at(rel), "w")) != NULL)
		fclose(f);
}

static void
test_make(void)
{
	struct stat	st;

	is_int(node_ckpt_make(at("w/.gbatch/ckpt/7")), 0,
	    "makes the directory and its parents");
	ok(stat(at("w/.gbatch/ckpt/7"), &st) == 0 &&
	    (st.st_mode & 0777) == 0700, "the last one mode 0700");
	ok(stat(at("w/.gbatch"), &st) == 0 && (st.st_mode & 0777) == 0755,
	    "its parents mode 0755");
	is_int(node_ckpt_make(at("w/.gbatch/ckpt/7")), 0,
	    "an existing directory is used as it is");
	touch("w/file");
	errno = 0;
	ok(node_ckpt_make(at("w/file")) == -1 && errno == ENOTDIR,
	    "a file in the way is ENOTDIR");
	errno = 0;
	ok(node_ckpt_make(at("w/file/ck")) == -1 && errno == ENOTDIR,
	    "and so is a file as a parent");
	unlink(at("w/file"));
}

static void
test_remove(void)
{
	char	err[256] = "";

	/* An empty directory and the empty parents below the workdir. */
	node_ckpt_make(at("w/.gbatch/ckpt/7"));
	is_int(node_ckpt_remove(at("w/.gbatch/ckpt/7"), at("w"), err,
	    sizeof err), 0, "removing an empty one succeeds");
	ok(!exists("w/.gbatch"), "it and its empty parents are gone");
	ok(exists("w"), "the working directory stays");

	/* A checkpoint keeps the job's directory and so its parents. */
	node_ckpt_make(at("w/.gbatch/ckpt/8"));
	touch("w/.gbatch/ckpt/8/state");
	is_int(node_ckpt_remove(at("w/.gbatch/ckpt/8"), at("w"), err,
	    sizeof err), 0, "a directory with files is not an error");
	ok(exists("w/.gbatch/ckpt/8/state"), "and is left as it was");

	/* Another job's directory keeps the shared parents. */
	node_ckpt_make(at("w/.gbatch/ckpt/9"));
	node_ckpt_remove(at("w/.gbatch/ckpt/9"), at("w"), err, sizeof err);
	ok(!exists("w/.gbatch/ckpt/9") && exists("w/.gbatch/ckpt/8"),
	    "only the job's own empty directory goes");

	/* Gone already (the job removed it): the parents are still looked
	 * at. */
	unlink(at("w/.gbatch/ckpt/8/state"));
	rmdir(at("w/.gbatch/ckpt/8"));
	is_int(node_ckpt_remove(at("w/.gbatch/ckpt/8"), at("w/"), err,
	    sizeof err), 0, "a directory already gone is not an error");
	ok(!exists("w/.gbatch"), "its empty parents go (top with a slash)");

	/* Outside the working directory only the directory itself goes. */
	node_ckpt_make(at("ck/a/b"));
	node_ckpt_remove(at("ck/a/b"), at("w"), err, sizeof err);
	ok(!exists("ck/a/b") && exists("ck/a"),
	    "a directory outside top goes alone");

	/* A file where the directory was is never removed. */
	node_ckpt_make(at("w/.gbatch/ckpt"));
	touch("w/.gbatch/ckpt/10");
	node_ckpt_remove(at("w/.gbatch/ckpt/10"), at("w"), err, sizeof err);
	ok(exists("w/.gbatch/ckpt/10"), "a file in its place stays");
	unlink(at("w/.gbatch/ckpt/10"));

	/* top itself is never removed, even empty. */
	node_ckpt_make(at("e"));
	node_ckpt_remove(at("e"), at("e"), err, sizeof err);
	ok(exists("e"), "top is not removed");
}

static void
test_remove_error(void)
{
	char	err[256] = "";
	int	r;

	/* The user put a file where the directory's parent was. */
	node_ckpt_make(at("x"));
	touch("x/.gbatch");
	r = node_ckpt_remove(at("x/.gbatch/ckpt/11"), at("x"), err,
	    sizeof err);
	ok(r == -1 && strstr(err, "cannot remove ") != NULL &&
	    strstr(err, "Not a directory") != NULL,
	    "what cannot be removed is named, with why: %s", err);
	ok(exists("x/.gbatch"), "and left alone");
}

int
main(void)
{
	char	cmd[128];

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	test_make();
	test_remove();
	test_remove_error();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	(void)!system(cmd);
	return (tap_done());
}
