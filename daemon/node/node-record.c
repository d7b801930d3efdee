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
#include "daemon/node/node-record.h"

/* A record is a few hundred bytes; anything far larger is not ours. */
#define NODE_RECORD_MAX	65536

static const char *
node_record_suffix(enum node_record_kind kind)
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
	path = xasprintf("%s/jobs", state_dir);
	if (node_record_mkdir(path, 0700, err, errlen) == -1)
		goto out;
	/* A crash between write and rename leaves NAME.tmp behind. */
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

int
node_record_write(const char *state_dir, uint64_t id,
    enum node_record_kind kind, const json_t *rec, char *err, size_t errlen)
{
	char	*path, *tmp, *text;
	size_t	 len, off = 0;
	ssize_t	 n;
	int	 fd, rc = -1;

	path = xasprintf("%s/jobs/%llu.%s", state_dir, (unsigned long long)id,
	    node_record_suffix(kind));
	tmp = xasprintf("%s.tmp", path);
	if ((text = json_dumps(rec, JSON_COMPACT)) == NULL) {
		snprintf(err, errlen, "%s: cannot encode the record", path);
		goto out;
	}
	len = strlen(text);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd == -1) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	while (off < len) {
		if ((n = write(fd, text + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			goto out;
		}
		off += (size_t)n;
	}
	if (close(fd) == -1 || rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(text);
	free(tmp);
	free(path);
	return (rc);
}

json_t *
node_record_read(const char *state_dir, uint64_t id,
    enum node_record_kind kind, char *err, size_t errlen)
{
	json_error_t	 jerr;
	json_t		*rec = NULL;
	char		*path, buf[NODE_RECORD_MAX];
	ssize_t		 n;
	size_t		 len = 0;
	int		 fd, saved;

	path = xasprintf("%s/jobs/%llu.%s", state_dir, (unsigned long long)id,
	    node_record_suffix(kind));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1) {
		saved = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		errno = saved;
		return (NULL);
	}
	while (len < sizeof buf) {
		n = read(fd, buf + len, sizeof buf - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	rec = json_loadb(buf, len, 0, &jerr);
	if (rec == NULL || !json_is_object(rec)) {
		snprintf(err, errlen, "%s: not a job record: %s", path,
		    rec == NULL ? jerr.text : "not an object");
		json_decref(rec);
		rec = NULL;
		errno = EINVAL;
	}
	free(path);
	return (rec);
}

void
node_record_remove(const char *state_dir, uint64_t id)
{
	char	*path;

	path = xasprintf("%s/jobs/%llu.end", state_dir, (unsigned long long)id);
	unlink(path);
	free(path);
	path = xasprintf("%s/jobs/%llu.run", state_dir, (unsigned long long)id);
	unlink(path);
	free(path);
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
		if (errno != 0 || id == 0 ||
		    (strcmp(end, ".run") != 0 && strcmp(end, ".end") != 0))
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
