/* node-outfile.c: a job's output files, opened safely (node-outfile.h). */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/node/node-outfile.h"

bool
node_outfile_shared_dir(mode_t dir_mode)
{
	return ((dir_mode & S_ISVTX) != 0 &&
	    (dir_mode & (S_IWGRP | S_IWOTH)) != 0);
}

bool
node_outfile_may_use(uid_t me, uid_t owner, uid_t dir_uid, mode_t dir_mode)
{
	if (!node_outfile_shared_dir(dir_mode))
		return (true);
	return (owner == me || owner == dir_uid);
}

/* The directory path names its file in: what comes before its last '/',
 * "/" for a file at the root, "." for a bare name. */
static void
node_outfile_dir(const char *path, char *dir, size_t len)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* What refuses a name: "WHAT owned by uid N in the shared directory DIR
 * (sticky, writable by others): refused, as fs.protected_... would". */
static int
node_outfile_refuse(const char *what, uid_t owner, const char *dir,
    char *err, size_t errlen)
{
	snprintf(err, errlen, "%s of another user (uid %lu) in the shared "
	    "directory %s (sticky, writable by others): refused, so that no "
	    "one can steer a job's output by making its name first", what,
	    (unsigned long)owner, dir);
	errno = EACCES;
	return (-1);
}

int
node_outfile_open(const char *path, bool truncate, char *err, size_t errlen)
{
	char		dir[PATH_MAX];
	struct stat	ds, st;
	uid_t		me = geteuid();
	int		fd, saved, flags = O_WRONLY | O_CREAT | O_APPEND |
			    O_NOCTTY | O_CLOEXEC;
	bool		known;

	node_outfile_dir(path, dir, sizeof dir);
	known = stat(dir, &ds) == 0;
	fd = open(path, flags | O_NOFOLLOW, 0666);
	saved = errno;
	if (fd == -1 && (errno == ELOOP || errno == EACCES) &&
	    lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* A symlink at the name (ELOOP; EACCES where the kernel's
		 * own protected_symlinks refused it first): followed only
		 * when its owner is someone the rule trusts. In a sticky
		 * directory no one else can replace it between this check
		 * and the open. */
		if (known && !node_outfile_may_use(me, st.st_uid, ds.st_uid,
		    ds.st_mode))
			return (node_outfile_refuse("a symlink", st.st_uid,
			    dir, err, errlen));
		fd = open(path, flags, 0666);
		saved = errno;
	}
	if (fd == -1) {
		errno = saved;
		snprintf(err, errlen, "%s", strerror(errno));
		return (-1);
	}
	/* The file it opened: one it made is its own; one that was there
	 * must be its user's, or the directory owner's. */
	if (fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		close(fd);
		return (-1);
	}
	if (known && !node_outfile_may_use(me, st.st_uid, ds.st_uid,
	    ds.st_mode)) {
		close(fd);
		return (node_outfile_refuse("a file", st.st_uid, dir, err,
		    errlen));
	}
	if (truncate && S_ISREG(st.st_mode) && ftruncate(fd, 0) == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		close(fd);
		return (-1);
	}
	return (fd);
}
