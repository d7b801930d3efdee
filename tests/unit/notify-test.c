/* notify-test.c: the sd_notify protocol (daemon/common/notify.c) against
 * real AF_UNIX datagram sockets, one bound to a path and one to an
 * abstract name, as systemd binds them. */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/common/notify.h"
#include "tests/unit/tap.h"

/* Binds a datagram socket to name ('@' for abstract) and returns it. */
static int
t_listen(const char *name)
{
	struct sockaddr_un	sun;
	socklen_t		len;
	size_t			n = strlen(name);
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, name, n);
	if (name[0] == '@')
		sun.sun_path[0] = '\0';
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, len) == -1) {
		printf("Bail out! bind %s: %s\n", name, strerror(errno));
		exit(1);
	}
	return (fd);
}

/* The next datagram, as a string; "" when none is waiting. */
static const char *
t_recv(int fd)
{
	static char	buf[2048];
	ssize_t		n;

	n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
	buf[n < 0 ? 0 : n] = '\0';
	return (buf);
}

static void
t_states(int fd)
{
	const char	*got;

	is_int(notify_send(NOTIFY_READY, "serving %d nodes", 3), 0,
	    "READY is sent");
	is_str(t_recv(fd), "READY=1\nSTATUS=serving 3 nodes",
	    "READY=1 and the status line arrive in one datagram");
	is_int(notify_send(NOTIFY_RELOADING, NULL), 0, "RELOADING is sent");
	got = t_recv(fd);
	ok(strncmp(got, "RELOADING=1\nMONOTONIC_USEC=", 27) == 0 &&
	    strspn(got + 27, "0123456789") == strlen(got + 27) &&
	    strlen(got) > 27, "RELOADING=1 carries MONOTONIC_USEC");
	is_int(notify_send(NOTIFY_STOPPING, "stopping (%s)", "SIGTERM"), 0,
	    "STOPPING is sent");
	is_str(t_recv(fd), "STOPPING=1\nSTATUS=stopping (SIGTERM)",
	    "STOPPING=1 with its status");
	is_int(notify_send(NOTIFY_STATUS, "two\nlines"), 0, "STATUS is sent");
	is_str(t_recv(fd), "STATUS=two lines",
	    "a newline in the status cannot start another assignment");
}

int
main(void)
{
	char	dir[] = "/tmp/gbnotify.XXXXXX", path[256], abs[64], err[256];
	int	fd;

	/* No manager: nothing to do, and no error. */
	unsetenv("NOTIFY_SOCKET");
	is_int(notify_open(err, sizeof err), 0, "no NOTIFY_SOCKET is fine");
	is_int(notify_send(NOTIFY_READY, "x"), 0, "and sending does nothing");

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return (1);
	}
	snprintf(path, sizeof path, "%s/notify", dir);
	fd = t_listen(path);
	setenv("NOTIFY_SOCKET", path, 1);
	is_int(notify_open(err, sizeof err), 0, "a socket path is accepted");
	ok(getenv("NOTIFY_SOCKET") == NULL,
	    "NOTIFY_SOCKET is removed so that children do not inherit it");
	t_states(fd);
	notify_close();
	is_int(notify_send(NOTIFY_READY, NULL), 0, "closed: nothing is sent");
	is_str(t_recv(fd), "", "and nothing arrives");
	close(fd);
	unlink(path);
	rmdir(dir);

	snprintf(abs, sizeof abs, "@gbatch-notify-test-%ld", (long)getpid());
	fd = t_listen(abs);
	setenv("NOTIFY_SOCKET", abs, 1);
	is_int(notify_open(err, sizeof err), 0, "an abstract name is accepted");
	t_states(fd);
	notify_close();
	close(fd);

	setenv("NOTIFY_SOCKET", "relative/sock", 1);
	ok(notify_open(err, sizeof err) == -1 &&
	    strstr(err, "expected an absolute path") != NULL &&
	    strstr(err, "relative/sock") != NULL,
	    "a relative name is refused, saying what is accepted");
	is_int(notify_send(NOTIFY_READY, NULL), 0,
	    "after a refused name sending does nothing");

	/* A socket nobody listens on: the error comes back, no crash. */
	setenv("NOTIFY_SOCKET", "/nonexistent/gbatch-notify", 1);
	is_int(notify_open(err, sizeof err), 0, "a missing path opens");
	ok(notify_send(NOTIFY_READY, NULL) == -1 && errno == ENOENT,
	    "sending to it fails with ENOENT");
	notify_close();
	return (tap_done());
}
