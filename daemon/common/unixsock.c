/* unixsock.c: binding a daemon's Unix socket. */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/common/unixsock.h"

/* Fills sun with path; -1 if it is too long for a Unix socket. */
static int
unixsock_addr(struct sockaddr_un *sun, const char *path)
{
	memset(sun, 0, sizeof *sun);
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun->sun_path)
		return (-1);
	memcpy(sun->sun_path, path, strlen(path) + 1);
	return (0);
}

bool
unixsock_answers(const char *path)
{
	struct sockaddr_un	 sun;
	bool			 yes;
	int			 fd;

	if (unixsock_addr(&sun, path) != 0 ||
	    (fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return (false);
	yes = connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0;
	close(fd);
	return (yes);
}

int
unixsock_bind(const char *path, const char *who, char *err, size_t errlen)
{
	struct sockaddr_un	 sun;
	int			 fd, flags;

	if (unixsock_addr(&sun, path) != 0) {
		snprintf(err, errlen, "socket %s: the path is longer than %zu "
		    "bytes, the limit for a Unix socket", path,
		    sizeof sun.sun_path - 1);
		return (-1);
	}
	if (unixsock_answers(path)) {
		snprintf(err, errlen, "socket %s: another %s is already "
		    "listening there", path, who);
		return (-1);
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "socket %s: %s", path, strerror(errno));
		return (-1);
	}
	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(err, errlen, "socket %s: cannot remove the stale "
		    "socket: %s", path, strerror(errno));
		goto fail;
	}
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		snprintf(err, errlen, "socket %s: %s", path, strerror(errno));
		goto fail;
	}
	if (chmod(path, 0666) != 0) {
		snprintf(err, errlen, "socket %s: chmod: %s", path,
		    strerror(errno));
		goto fail;
	}
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1) {
		snprintf(err, errlen, "socket %s: %s", path, strerror(errno));
		goto fail;
	}
	return (fd);
fail:
	close(fd);
	return (-1);
}
