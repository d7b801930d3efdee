/* notify.c: the sd_notify(3) datagram protocol, spoken without libsystemd.
 * See notify.h. */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/common/notify.h"

/* The service manager's socket (NOTIFY_SOCKET), one a process. Global:
 * it comes from the process's environment, read once and removed, and
 * both daemons tell the manager from wherever they stand. */
static struct {
	int			 fd;
	struct sockaddr_un	 sun;
	socklen_t		 sunlen;
} notify = {
	.fd = -1,
};

int
notify_open(char *err, size_t errlen)
{
	const char	*name;
	size_t		 len;

	notify_close();
	if ((name = getenv("NOTIFY_SOCKET")) == NULL || *name == '\0')
		return (0);
	len = strlen(name);
	if ((name[0] != '/' && name[0] != '@') || len < 2 ||
	    len >= sizeof notify.sun.sun_path) {
		snprintf(err, errlen, "NOTIFY_SOCKET: expected an absolute "
		    "path or an @abstract name shorter than %zu bytes, got "
		    "\"%.64s\"", sizeof notify.sun.sun_path, name);
		unsetenv("NOTIFY_SOCKET");
		return (-1);
	}
	memset(&notify.sun, 0, sizeof notify.sun);
	notify.sun.sun_family = AF_UNIX;
	memcpy(notify.sun.sun_path, name, len);
	/* An abstract name is the bytes after a leading NUL, no terminator;
	 * its length is all the kernel has to go by. */
	if (name[0] == '@')
		notify.sun.sun_path[0] = '\0';
	notify.sunlen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
	    len + (name[0] == '/'));
	notify.fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    0);
	if (notify.fd == -1) {
		snprintf(err, errlen, "NOTIFY_SOCKET: socket: %s",
		    strerror(errno));
		unsetenv("NOTIFY_SOCKET");
		return (-1);
	}
	unsetenv("NOTIFY_SOCKET");
	return (0);
}

int
notify_send(enum notify_state state, const char *fmt, ...)
{
	struct timespec	 ts;
	va_list		 ap;
	char		 msg[1024], *p;
	size_t		 off = 0;
	int		 n;

	if (notify.fd == -1)
		return (0);
	switch (state) {
	case NOTIFY_STATUS:
		break;
	case NOTIFY_READY:
		off = (size_t)snprintf(msg, sizeof msg, "READY=1");
		break;
	case NOTIFY_RELOADING:
		/* The clock lets systemd tell this reload from an older one
		 * (required with Type=notify-reload, harmless otherwise). */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		off = (size_t)snprintf(msg, sizeof msg,
		    "RELOADING=1\nMONOTONIC_USEC=%llu",
		    (unsigned long long)ts.tv_sec * 1000000ULL +
		    (unsigned long long)ts.tv_nsec / 1000);
		break;
	case NOTIFY_STOPPING:
		off = (size_t)snprintf(msg, sizeof msg, "STOPPING=1");
		break;
	}
	if (fmt != NULL) {
		off += (size_t)snprintf(msg + off, sizeof msg - off, "%sSTATUS=",
		    off > 0 ? "\n" : "");
		va_start(ap, fmt);
		n = vsnprintf(msg + off, sizeof msg - off, fmt, ap);
		va_end(ap);
		if (n < 0)
			n = 0;
		/* One line per assignment: a newline would end STATUS. */
		for (p = msg + off; *p != '\0'; p++) {
			if (*p == '\n')
				*p = ' ';
		}
		off = strlen(msg);
	}
	if (off == 0)
		return (0);
	if (sendto(notify.fd, msg, off, MSG_NOSIGNAL,
	    (struct sockaddr *)&notify.sun, notify.sunlen) == -1)
		return (-1);
	return (0);
}

void
notify_close(void)
{
	if (notify.fd != -1)
		close(notify.fd);
	notify.fd = -1;
}
