/* node-shm.c: a user's files in /dev/shm removed (node-shm.h). */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/node/node-shm.h"

/* How deep a user's directories are followed down. */
#define NODE_SHM_DEPTH	16

/* Removes the entries of the directory dfd (closed here) that uid owns,
 * directories with their contents; returns how many. */
static long
node_shm_empty(int dfd, uid_t uid, int depth)
{
	DIR		*d;
	struct dirent	*e;
	struct stat	 st;
	long		 n = 0;
	int		 sub;

	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return (0);
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
		    st.st_uid != uid)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth >= NODE_SHM_DEPTH || (sub = openat(dfd,
			    e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			    O_CLOEXEC)) == -1)
				continue;
			n += node_shm_empty(sub, uid, depth + 1);
			if (unlinkat(dfd, e->d_name, AT_REMOVEDIR) == 0)
				n++;
		} else if (unlinkat(dfd, e->d_name, 0) == 0)
			n++;
	}
	closedir(d);
	return (n);
}

long
node_shm_clean(const char *dir, uid_t uid, char *err, size_t errlen)
{
	int	dfd;

	if (uid == 0) {
		snprintf(err, errlen, "root's files in %s are the system's: "
		    "left alone", dir);
		return (-1);
	}
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return (-1);
	}
	return (node_shm_empty(dfd, uid, 0));
}
