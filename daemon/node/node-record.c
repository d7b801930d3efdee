/* node-record.c: job records in the node's state directory. */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "daemon/common/dirmode.h"
#include "daemon/node/node-launch.h"
#include "daemon/node/node-record.h"

/* A record is a few hundred bytes, and a job's file holds a few: its run
 * record as gnoded and then the shepherd wrote it, again on a preemption,
 * and its end. Anything far larger is not ours. */
#define NODE_RECORD_MAX		65536
#define NODE_RECORD_FILE_MAX	(4 * NODE_RECORD_MAX)

static const char *
node_record_kind_name(enum node_record_kind kind)
{
	return (kind == NODE_RECORD_RUN ? "run" : "end");
}

static int
node_record_mkdir(const char *path, mode_t mode, char *err, size_t errlen)
{
	struct stat	st;

	if (mkdir(path, mode) == 0)
		return (0);
	if (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return (0);
	snprintf(err, errlen, "%s: cannot create directory: %s", path,
	    errno == EEXIST ? "exists and is not a directory" :
	    strerror(errno));
	return (-1);
}

int
node_record_init(const char *state_dir, char *err, size_t errlen)
{
	DIR		*d;
	struct dirent	*de;
	char		*path, *p, *copy;
	int		 rc = -1;

	/* mkdir -p: the parents of a fresh state directory may be missing. */
	copy = xstrdup(state_dir);
	for (p = copy + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) == -1 && errno != EEXIST) {
			snprintf(err, errlen, "%s: cannot create directory: %s",
			    copy, strerror(errno));
			free(copy);
			return (-1);
		}
		*p = '/';
	}
	free(copy);
	if (node_record_mkdir(state_dir, DIRMODE_STATE, err, errlen) == -1 ||
	    dirmode_limit(state_dir, DIRMODE_STATE, err, errlen) == -1)
		return (-1);

	path = xasprintf("%s/scripts", state_dir);
	if (node_record_mkdir(path, 0711, err, errlen) == -1)
		goto out;
	free(path);
	/* The jobs' progress files (node-progress.h): each its user's, in
	 * a directory of ours no one lists. */
	path = xasprintf("%s/progress", state_dir);
	if (node_record_mkdir(path, 0711, err, errlen) == -1) {
		free(path);
		return (-1);
	}
	free(path);
	path = xasprintf("%s/jobs", state_dir);
	if (node_record_mkdir(path, 0700, err, errlen) == -1)
		goto out;
	/* An older gnoded wrote each record to NAME.tmp and renamed it: a
	 * crash in between left the temporary file. */
	if ((d = opendir(path)) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		p = strrchr(de->d_name, '.');
		if (p != NULL && strcmp(p, ".tmp") == 0)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
	rc = 0;
out:
	free(path);
	return (rc);
}

static char *
node_record_path(const char *state_dir, uint64_t id, const char *suffix)
{
	return (xasprintf("%s/jobs/%llu.%s", state_dir, (unsigned long long)id,
	    suffix));
}

int
node_record_write(const char *state_dir, uint64_t id,
    enum node_record_kind kind, const json_t *rec, char *err, size_t errlen)
{
	char	*path, *text = NULL, *line = NULL;
	size_t	 len, off = 0;
	ssize_t	 n;
	int	 fd, rc = -1;

	path = node_record_path(state_dir, id, "job");
	if ((text = json_dumps(rec, JSON_COMPACT)) == NULL) {
		snprintf(err, errlen, "%s: cannot encode the record", path);
		goto out;
	}
	/* One write, so that a reader sees the line whole or not at all.
	 * The leading newline ends whatever a crash may have left torn. */
	line = xasprintf("\n%s %s\n", node_record_kind_name(kind), text);
	len = strlen(line);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	while (off < len) {
		if ((n = write(fd, line + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			goto out;
		}
		off += (size_t)n;
	}
	if (close(fd) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(line);
	free(text);
	free(path);
	return (rc);
}

/* Reads the whole file at path into a new NUL-terminated buffer. Returns
 * it, or NULL with err set and errno kept (ENOENT: no such file). */
static char *
node_record_load(const char *path, size_t max, size_t *lenp, char *err,
    size_t errlen)
{
	struct stat	 st;
	char		*buf;
	size_t		 len = 0;
	ssize_t		 n;
	int		 fd, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		goto fail;
	if (fstat(fd, &st) == -1) {
		saved = errno;
		close(fd);
		errno = saved;
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
		close(fd);
		snprintf(err, errlen, "%s: not a job record: %s", path,
		    S_ISREG(st.st_mode) ? "too large" : "not a file");
		errno = EINVAL;
		return (NULL);
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (len < (size_t)st.st_size) {
		n = read(fd, buf + len, (size_t)st.st_size - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return (buf);
fail:
	saved = errno;
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	errno = saved;
	return (NULL);
}

static json_t *
node_record_parse(const char *path, const char *text, size_t len, char *err,
    size_t errlen)
{
	json_error_t	 jerr;
	json_t		*rec;

	rec = json_loadb(text, len, 0, &jerr);
	if (rec == NULL || !json_is_object(rec)) {
		snprintf(err, errlen, "%s: not a job record: %s", path,
		    rec == NULL ? jerr.text : "not an object");
		json_decref(rec);
		errno = EINVAL;
		return (NULL);
	}
	return (rec);
}

/* The last whole line of kind in the job's file that holds a record: a
 * line is whole once its newline is written, and one a crash cut short
 * or garbled is passed over for the one before. NULL with errno ENOENT
 * when the file holds none, or with err set. */
static json_t *
node_record_read_lines(const char *path, enum node_record_kind kind,
    char *err, size_t errlen)
{
	const char	*name = node_record_kind_name(kind);
	size_t		 nlen = strlen(name), len, nlines = 0, i;
	char		*buf, *p, *nl;
	json_t		*rec = NULL;
	struct {
		const char	*text;	/* the record, past its kind */
		size_t		 len;	/* to its newline; NULs and all */
	}		*lines = NULL;

	if ((buf = node_record_load(path, NODE_RECORD_FILE_MAX, &len, err,
	    errlen)) == NULL)
		return (NULL);
	for (p = buf; (nl = memchr(p, '\n', len - (size_t)(p - buf))) != NULL;
	    p = nl + 1) {
		if ((size_t)(nl - p) > nlen && memcmp(p, name, nlen) == 0 &&
		    p[nlen] == ' ') {
			lines = xreallocarray(lines, nlines + 1, sizeof *lines);
			lines[nlines].text = p + nlen + 1;
			lines[nlines++].len = (size_t)(nl - p) - nlen - 1;
		}
	}
	for (i = nlines; i > 0 && rec == NULL; i--)
		rec = node_record_parse(path, lines[i - 1].text,
		    lines[i - 1].len, err, errlen);
	if (nlines == 0) {
		snprintf(err, errlen, "%s: no %s record", path, name);
		errno = ENOENT;
	}
	free(lines);
	free(buf);
	return (rec);
}

json_t *
node_record_read(const char *state_dir, uint64_t id,
    enum node_record_kind kind, char *err, size_t errlen)
{
	json_t	*rec;
	char	*path, *text;
	size_t	 len;
	int	 saved;

	path = node_record_path(state_dir, id, "job");
	rec = node_record_read_lines(path, kind, err, errlen);
	saved = errno;
	free(path);
	if (rec != NULL || saved != ENOENT) {
		errno = saved;
		return (rec);
	}
	/* A job that an older gnoded started: its shepherd writes whole
	 * files, ID.run and ID.end. */
	path = node_record_path(state_dir, id, node_record_kind_name(kind));
	if ((text = node_record_load(path, NODE_RECORD_MAX, &len, err,
	    errlen)) != NULL) {
		rec = node_record_parse(path, text, len, err, errlen);
		free(text);
	}
	saved = errno;
	free(path);
	errno = saved;
	return (rec);
}

void
node_record_remove(const char *state_dir, uint64_t id)
{
	static const char *const	 suffixes[] = { "job", "end", "run" };
	char				*path;
	size_t				 i;

	for (i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		path = node_record_path(state_dir, id, suffixes[i]);
		unlink(path);
		free(path);
	}
}

static int
node_record_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

int
node_record_scan(const char *state_dir, uint64_t **ids, size_t *n, char *err,
    size_t errlen)
{
	DIR			*d;
	struct dirent		*de;
	unsigned long long	 id;
	uint64_t		*v = NULL;
	size_t			 count = 0, cap = 0, i, out;
	char			*path, *end;

	path = xasprintf("%s/jobs", state_dir);
	if ((d = opendir(path)) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		return (-1);
	}
	free(path);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		errno = 0;
		id = strtoull(de->d_name, &end, 10);
		if (errno != 0 || id == 0 || (strcmp(end, ".job") != 0 &&
		    strcmp(end, ".run") != 0 && strcmp(end, ".end") != 0))
			continue;
		if (count == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[count++] = id;
	}
	closedir(d);
	if (count > 1)
		qsort(v, count, sizeof *v, node_record_cmp);
	for (i = 0, out = 0; i < count; i++) {
		if (out == 0 || v[out - 1] != v[i])
			v[out++] = v[i];
	}
	*ids = v;
	*n = out;
	return (0);
}

void
node_record_run_launch(json_t *rec, const struct node_launch *l)
{
	json_object_set_new(rec, "uid", json_integer((json_int_t)l->uid));
	if (l->cpuset != NULL)
		json_object_set_new(rec, "cpuset", json_string(l->cpuset));
	if (l->gpu_share > 0)
		json_object_set_new(rec, "gpu_share",
		    json_integer(l->gpu_share));
	if (l->mps_pipe != NULL)
		json_object_set_new(rec, "mps", json_true());
	if (l->io)
		json_object_set_new(rec, "interactive", json_true());
}
