/* node-ckpt.c: make and remove a job's checkpoint directory. */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "daemon/node/node-ckpt.h"

/* How often node_ckpt_make starts over when a parent it found is removed
 * before it could make the next component. Each round needs another job
 * to end in between, so a few are plenty. */
#define NODE_CKPT_TRIES	8

/* One try of mkdir -p. Sets *again when a parent vanished under it. */
static int
node_ckpt_make_once(char *copy, bool *again)
{
	struct stat	 st;
	char		*p;

	*again = false;
	for (p = copy + 1; *p != '\0'; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) == -1 && errno != EEXIST) {
			*again = errno == ENOENT;
			*p = '/';
			return (-1);
		}
		*p = '/';
	}
	if (mkdir(copy, 0700) == 0)
		return (0);
	if (errno == ENOENT)
		*again = true;
	if (errno != EEXIST)
		return (-1);
	if (stat(copy, &st) == -1)
		return (-1);
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return (-1);
	}
	return (0);
}

int
node_ckpt_make(const char *path)
{
	char	*copy;
	bool	 again;
	int	 rc, saved, i;

	copy = xstrdup(path);
	for (i = 0; i < NODE_CKPT_TRIES; i++) {
		if ((rc = node_ckpt_make_once(copy, &again)) == 0 || !again)
			break;
	}
	saved = errno;
	free(copy);
	errno = saved;
	return (rc);
}

/* Where dir lies from top, as text: both come from one launch (ckpt_dir
 * is made from workdir), so no symlink needs resolving. Returns 1 when
 * strictly below it, 0 when it is top, -1 elsewhere. An ancestor of top is
 * never empty, so rmdir leaves it alone by itself. */
static int
node_ckpt_where(const char *dir, const char *top)
{
	size_t	dl = strlen(dir), tl = strlen(top);

	while (dl > 0 && dir[dl - 1] == '/')
		dl--;
	while (tl > 0 && top[tl - 1] == '/')
		tl--;
	if (dl < tl || strncmp(dir, top, tl) != 0)
		return (-1);
	if (dl == tl)
		return (0);
	return (dir[tl] == '/' ? 1 : -1);
}

int
node_ckpt_remove(const char *path, const char *top, char *err, size_t errlen)
{
	char	*copy, *slash;
	int	 rc = 0;

	if (node_ckpt_where(path, top) == 0)
		return (0);
	copy = xstrdup(path);
	for (;;) {
		if (rmdir(copy) == -1 && errno != ENOENT) {
			/* Not empty: the job's checkpoints, or another
			 * job's directory beside ours. */
			if (errno != ENOTEMPTY && errno != EEXIST) {
				snprintf(err, errlen, "cannot remove %s: %s",
				    copy, strerror(errno));
				rc = -1;
			}
			break;
		}
		if ((slash = strrchr(copy, '/')) == NULL || slash == copy)
			break;
		*slash = '\0';
		if (node_ckpt_where(copy, top) != 1)
			break;
	}
	free(copy);
	return (rc);
}
