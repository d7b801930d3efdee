/* client-test.c: the command's connection gives up on a gbatchd that does
 * not accept or does not answer within --timeout, and says what it waited
 * for. The peer is a real Unix socket that listens and never answers. */
#include <sys/socket.h>
#include <sys/un.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/client.h"
#include "common/proto.h"
#include "tests/unit/tap.h"

static char	dir[] = "/tmp/gbct.XXXXXX";
static char	path[64];

/* A socket that listens with room for backlog waiting connections and
 * never accepts one. */
static int
listener(int backlog)
{
	struct sockaddr_un	sun;
	int			fd;

	unlink(path);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd == -1 || bind(fd, (struct sockaddr *)&sun, sizeof sun) == -1 ||
	    listen(fd, backlog) == -1) {
		perror("listener");
		exit(1);
	}
	return (fd);
}

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static void
test_no_answer(void)
{
	struct client	*c;
	json_t		*req, *reply = NULL;
	char		 err[1024], want[512];
	double		 t0;
	int		 fd, r;

	fd = listener(16);
	r = client_open(1, &c, err, sizeof err);
	is_int(r, 0, "the connection is queued by a gbatchd that never "
	    "accepts");
	req = proto_msg(MSG_PING);
	t0 = now();
	r = client_call(c, req, &reply, err, sizeof err);
	is_int(r, EXIT_UNREACHABLE, "no answer: exit status 3");
	ok(now() - t0 >= 0.9 && now() - t0 < 3, "after about 1 s (%.2f s)",
	    now() - t0);
	snprintf(want, sizeof want, "gbatchd at %s did not answer within 1 s "
	    "(--timeout, GBATCH_TIMEOUT)", path);
	is_str(err, want, "says what it waited for and which setting limits "
	    "it");
	ok(reply == NULL, "and hands back no reply");
	json_decref(req);
	client_free(c);
	close(fd);
}

static void
test_no_accept(void)
{
	struct client	*c = NULL, *first = NULL;
	char		 err[1024], want[512];
	double		 t0;
	int		 fd, r;

	/* With a backlog of 0 the queue holds one connection: the first
	 * fills it, as a stopped gbatchd's clients fill its queue. */
	fd = listener(0);
	r = client_open(1, &first, err, sizeof err);
	is_int(r, 0, "the first connection fills the queue");
	t0 = now();
	r = client_open(1, &c, err, sizeof err);
	is_int(r, EXIT_UNREACHABLE, "a full queue: exit status 3");
	ok(c == NULL, "and no client");
	ok(now() - t0 >= 0.9 && now() - t0 < 3, "after about 1 s (%.2f s)",
	    now() - t0);
	snprintf(want, sizeof want, "gbatchd at %s did not accept the "
	    "connection within 1 s (--timeout, GBATCH_TIMEOUT)", path);
	is_str(err, want, "says it waited for the connection");
	client_free(first);
	close(fd);
}

int
main(void)
{
	alarm(30);
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return (1);
	}
	snprintf(path, sizeof path, "%s/gbatchd.sock", dir);
	setenv("GBATCH_SOCKET", path, 1);
	test_no_answer();
	test_no_accept();
	unlink(path);
	rmdir(dir);
	return (tap_done());
}
