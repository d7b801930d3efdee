/* node-record-test.c: a job's records in the node's state directory
 * (daemon/node/node-record.c), in a temporary directory: the last whole
 * line of a kind is the record, whatever a crash left, and the files an
 * older gnoded wrote are still read. */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "daemon/node/node-record.h"
#include "tests/unit/tap.h"

static char	top[64] = "/tmp/node-record-test.XXXXXX";

static const char *
at(const char *rel)
{
	static char	buf[4][256];
	static int	i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/jobs/%s", top, rel);
	return (buf[i]);
}

/* Appends text (len bytes) to the file rel, as a crash or an old gnoded
 * would have left it. */
static void
put(const char *rel, const char *text, size_t len, const char *mode)
{
	FILE	*f;

	if ((f = fopen(at(rel), mode)) == NULL ||
	    fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		perror(at(rel));
		exit(1);
	}
}

static json_t *
rec(const char *text)
{
	json_t	*r = json_loads(text, 0, NULL);

	if (r == NULL)
		exit(1);
	return (r);
}

/* The value of key in job id's record of kind, or -1 when it has none
 * (errno is kept). */
static long long
field(uint64_t id, enum node_record_kind kind, const char *key)
{
	char	err[512];
	json_t	*r;
	long long v;

	if ((r = node_record_read(top, id, kind, err, sizeof err)) == NULL)
		return (-1);
	v = json_integer_value(json_object_get(r, key));
	json_decref(r);
	return (v);
}

static void
test_append(void)
{
	char	err[512];
	json_t	*r;
	struct stat st;

	errno = 0;
	ok(field(1, NODE_RECORD_RUN, "v") == -1 && errno == ENOENT,
	    "no file: no record, ENOENT");
	r = rec("{\"v\":1}");
	ok(node_record_write(top, 1, NODE_RECORD_RUN, r, err,
	    sizeof err) == 0, "a run record is written");
	json_decref(r);
	r = rec("{\"v\":2}");
	node_record_write(top, 1, NODE_RECORD_RUN, r, err, sizeof err);
	json_decref(r);
	is_int(field(1, NODE_RECORD_RUN, "v"), 2, "the last run record wins");
	errno = 0;
	ok(field(1, NODE_RECORD_END, "v") == -1 && errno == ENOENT,
	    "no end yet: ENOENT");
	r = rec("{\"v\":3}");
	node_record_write(top, 1, NODE_RECORD_END, r, err, sizeof err);
	json_decref(r);
	is_int(field(1, NODE_RECORD_END, "v"), 3, "the end is read");
	is_int(field(1, NODE_RECORD_RUN, "v"), 2, "the run record still is");
	ok(stat(at("1.job"), &st) == 0 && (st.st_mode & 0777) == 0600,
	    "one file, mode 0600");
	ok(stat(at("1.run"), &st) == -1 && stat(at("1.end"), &st) == -1,
	    "and no other");
}

static void
test_torn(void)
{
	const char	*torn = "\nrun {\"v\":9}";
	const char	*nul = "\nend {\"v\":8}\0\0\0\n";

	put("2.job", "\nrun {\"v\":1}\n", 13, "w");
	/* A record without its newline is not one yet. */
	put("2.job", torn, strlen(torn), "a");
	is_int(field(2, NODE_RECORD_RUN, "v"), 1, "a torn line is passed over");
	/* The next record starts on a line of its own. */
	put("2.job", "\nrun {\"v\":5}\n", 13, "a");
	is_int(field(2, NODE_RECORD_RUN, "v"), 5,
	    "the record after a torn line is read");
	/* A whole line that does not parse: the one before it counts. */
	put("2.job", "\nrun {\"v\":\n", 11, "a");
	is_int(field(2, NODE_RECORD_RUN, "v"), 5,
	    "a garbled last line falls back to the one before");
	/* Zeros where a crash lost the data. */
	put("2.job", nul, 16, "a");
	errno = 0;
	ok(field(2, NODE_RECORD_END, "v") == -1 && errno == EINVAL,
	    "an end of zeros is no end (EINVAL)");
	put("2.job", "\nend [1]\n", 9, "a");
	errno = 0;
	ok(field(2, NODE_RECORD_END, "v") == -1 && errno == EINVAL,
	    "nor one that is not an object");
	put("2.job", "\nended {\"v\":1}\nrunx {\"v\":1}\n", 28, "a");
	is_int(field(2, NODE_RECORD_RUN, "v"), 5,
	    "a kind is the whole first word");
}

static void
test_legacy(void)
{
	char		 err[512];
	uint64_t	*ids;
	size_t		 n;
	json_t		*r;

	put("3.run", "{\"v\":7}", 7, "w");
	put("3.end", "{\"v\":6}", 7, "w");
	is_int(field(3, NODE_RECORD_RUN, "v"), 7, "an old ID.run is read");
	is_int(field(3, NODE_RECORD_END, "v"), 6, "an old ID.end is read");
	/* A record written since is in ID.job, and wins. */
	r = rec("{\"v\":4}");
	node_record_write(top, 3, NODE_RECORD_END, r, err, sizeof err);
	json_decref(r);
	is_int(field(3, NODE_RECORD_END, "v"), 4, "ID.job before ID.end");
	is_int(field(3, NODE_RECORD_RUN, "v"), 7,
	    "ID.run when ID.job has no run record");
	put("4.end", "{\"v\":", 5, "w");
	errno = 0;
	ok(field(4, NODE_RECORD_END, "v") == -1 && errno == EINVAL,
	    "a broken old file is EINVAL");
	ok(node_record_scan(top, &ids, &n, err, sizeof err) == 0,
	    "scan");
	ok(n == 4 && ids[0] == 1 && ids[1] == 2 && ids[2] == 3 && ids[3] == 4,
	    "each id once, in order, whatever its files");
	free(ids);
	node_record_remove(top, 3);
	errno = 0;
	ok(field(3, NODE_RECORD_RUN, "v") == -1 && errno == ENOENT &&
	    access(at("3.run"), F_OK) == -1 && access(at("3.end"), F_OK) == -1,
	    "remove takes every file of the job");
}

static void
test_large(void)
{
	char	*big;
	size_t	 len = 300000;

	big = malloc(len);
	memset(big, '\n', len);
	put("5.job", big, len, "w");
	free(big);
	errno = 0;
	ok(field(5, NODE_RECORD_RUN, "v") == -1 && errno == EINVAL,
	    "a file far larger than records is not read (EINVAL)");
}

int
main(void)
{
	char	cmd[128], err[512];

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	if (node_record_init(top, err, sizeof err) == -1) {
		fprintf(stderr, "%s\n", err);
		return (1);
	}
	test_append();
	test_torn();
	test_legacy();
	test_large();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	(void)!system(cmd);
	return (tap_done());
}
