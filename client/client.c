/* client.c: a command's connection to gbatchd (blocking Unix socket). */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/client.h"
#include "client/jscan.h"
#include "common/frame.h"
#include "common/paths.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

struct client {
	int		 fd;
	char		*path;
	json_t		*hello;		/* the controller's HELLO reply */
	int		 said_hello;
	unsigned	 timeout_s;	/* 0: wait for ever */
	uint64_t	 deadline;	/* of the call under way, ms */
};

static const char client_hint[] =
    "is it running? Start it with 'gbatchd', or set GBATCH_SOCKET";
/* Where the limit a user ran into comes from, so they can raise it. */
static const char client_timeout_hint[] = "--timeout, GBATCH_TIMEOUT";

/* jansson seeds its hash tables at the first object made, from
 * /dev/urandom: a file opened and read in every command. A seed guards a
 * daemon against keys chosen to collide; a command parses only what
 * gbatchd says, so a fixed one does, set before main() in every program
 * linked with this library (the daemons are not). */
static void __attribute__((constructor))
client_seed(void)
{
	json_object_seed(0x9e3779b9);
}

const char *
client_socket_path(void)
{
	const char	*s;

	if ((s = getenv("GBATCH_SOCKET")) != NULL && *s != '\0')
		return (s);
	return (GB_PATH_SOCKET);
}

static uint64_t
client_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* Names a user for a message: their login name as /etc/passwd has it,
 * else "uid N". The commands call no NSS (they link statically, and a
 * static NSS needs the very glibc it was built with at run time): a user
 * from a directory service is named by uid, in an error message only. */
static void
client_user_name(uid_t uid, char *buf, size_t len)
{
	FILE		*f;
	char		 line[1024], *name, *p, *end;
	unsigned long	 u;

	snprintf(buf, len, "uid %u", (unsigned)uid);
	if ((f = fopen("/etc/passwd", "re")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		/* name:password:uid:... */
		name = line;
		if ((p = strchr(line, ':')) == NULL)
			continue;
		*p++ = '\0';
		if ((p = strchr(p, ':')) == NULL)
			continue;
		u = strtoul(++p, &end, 10);
		if (end != p && *end == ':' && u == (unsigned long)uid &&
		    strlen(name) < len) {
			memcpy(buf, name, strlen(name) + 1);
			break;
		}
	}
	fclose(f);
}

/* Explains an EACCES from connect(): names the first directory on path
 * this user may not search, or the socket they may not write, with its
 * mode and owner, and what would let them in. */
static void
client_denied(const char *path, char *buf, size_t len)
{
	struct stat	 sb;
	char		*part, user[64], owner[64];
	const char	*what = "socket";
	size_t		 i;
	int		 found = 0;

	part = xstrdup(path);
	for (i = 1; part[i] != '\0' && !found; i++) {
		if (part[i] != '/')
			continue;
		part[i] = '\0';
		if (access(part, X_OK) == -1 && errno == EACCES)
			found = 1;
		else
			part[i] = '/';
	}
	if (found)
		what = "directory";
	else {
		free(part);
		part = xstrdup(path);
	}
	client_user_name(getuid(), user, sizeof user);
	if (stat(part, &sb) == -1) {
		snprintf(buf, len, "%s %s does not let %s in; set GBATCH_SOCKET "
		    "to a socket you may use", what, part, user);
		free(part);
		return;
	}
	client_user_name(sb.st_uid, owner, sizeof owner);
	if (found)
		snprintf(buf, len, "directory %s (mode %04o, owner %s) does "
		    "not let %s in; the admin makes it searchable (chmod a+x; "
		    "under systemd, RuntimeDirectoryMode=0755), or set "
		    "GBATCH_SOCKET to a socket you may use", part,
		    (unsigned)(sb.st_mode & 07777), owner, user);
	else
		snprintf(buf, len, "the socket (mode %04o, owner %s) is not "
		    "writable by %s; gbatchd makes it 0666, and the admin can "
		    "make it so again (chmod 0666), or set GBATCH_SOCKET to a "
		    "socket you may use", (unsigned)(sb.st_mode & 07777), owner,
		    user);
	free(part);
}

/* Connects fd to path, waiting at most timeout_s (0: for ever). Returns 0
 * or an errno. */
static int
client_connect(int fd, const char *path, unsigned timeout_s)
{
	struct sockaddr_un	 sun;
	struct timeval		 tv = { (time_t)timeout_s, 0 };

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	/* A controller that is stopped, or too busy to accept, fills its
	 * listen queue; the send timeout bounds connect() then (0, as
	 * --timeout 0, means none). */
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1)
		return (errno);
	return (0);
}

int
client_open(unsigned timeout_s, struct client **cp, char *err,
    size_t errlen)
{
	struct client		*c;
	struct sockaddr_un	 sun;
	const char		*path = client_socket_path();
	char			 why[1024];
	int			 fd, error;
	bool			 chosen;

	*cp = NULL;
	chosen = getenv("GBATCH_SOCKET") != NULL &&
	    *getenv("GBATCH_SOCKET") != '\0';
	if (strlen(path) >= sizeof sun.sun_path) {
		snprintf(err, errlen, "cannot reach gbatchd at %s: the path is "
		    "longer than %zu bytes, the limit for a Unix socket; set "
		    "GBATCH_SOCKET to a shorter path", path,
		    sizeof sun.sun_path - 1);
		return (EXIT_UNREACHABLE);
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "cannot reach gbatchd at %s: socket: %s",
		    path, strerror(errno));
		return (EXIT_UNREACHABLE);
	}
	error = client_connect(fd, path, timeout_s);
	/* On a host without gbatchd, the node daemon relays (DESIGN.md "Who
	 * may do what"); errors name the controller's socket, the one a
	 * user sets. */
	if (!chosen && (error == ENOENT || error == ECONNREFUSED)) {
		close(fd);
		if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC,
		    0)) == -1) {
			snprintf(err, errlen, "cannot reach gbatchd at %s: "
			    "socket: %s", path, strerror(errno));
			return (EXIT_UNREACHABLE);
		}
		if (client_connect(fd, GB_PATH_NODE_SOCKET, timeout_s) == 0) {
			path = GB_PATH_NODE_SOCKET;
			error = 0;
		}
	}
	if (error != 0) {
		close(fd);
		if (error == EAGAIN || error == EINPROGRESS) {
			snprintf(err, errlen, "gbatchd at %s did not accept the "
			    "connection within %u s (%s)", path, timeout_s,
			    client_timeout_hint);
			return (EXIT_UNREACHABLE);
		}
		if (error == EACCES || error == EPERM) {
			client_denied(path, why, sizeof why);
			snprintf(err, errlen, "permission denied: cannot "
			    "connect to gbatchd at %s: %s", path, why);
			return (EXIT_PERMISSION);
		}
		snprintf(err, errlen, "cannot reach gbatchd at %s: %s; %s",
		    path, strerror(error), client_hint);
		return (EXIT_UNREACHABLE);
	}

	c = xcalloc(1, sizeof *c);
	c->fd = fd;
	c->path = xstrdup(path);
	c->timeout_s = timeout_s;
	*cp = c;
	return (0);
}

void
client_free(struct client *c)
{
	if (c == NULL)
		return;
	close(c->fd);
	json_decref(c->hello);
	free(c->path);
	free(c);
}

void
client_set_timeout(struct client *c, unsigned timeout_s)
{
	c->timeout_s = timeout_s;
}

const json_t *
client_hello(struct client *c)
{
	return (c->hello);
}

static int
client_io_error(struct client *c, const char *what, int error, char *err,
    size_t errlen)
{
	if (error == 0)
		snprintf(err, errlen, "gbatchd at %s closed the connection "
		    "before replying", c->path);
	else
		snprintf(err, errlen, "%s gbatchd at %s: %s", what, c->path,
		    strerror(error));
	return (EXIT_UNREACHABLE);
}

/* Waits until the socket is ready for events or the call's deadline
 * passes. Returns 0, or EXIT_UNREACHABLE with err saying what gbatchd did
 * not do in time. */
static int
client_wait(struct client *c, short events, char *err, size_t errlen)
{
	struct pollfd	 pfd;
	uint64_t	 now;
	int		 ms = -1, n;

	for (;;) {
		if (c->timeout_s != 0) {
			now = client_now_ms();
			if (now >= c->deadline) {
				snprintf(err, errlen, "gbatchd at %s did not %s "
				    "within %u s (%s)", c->path, events ==
				    POLLOUT ? "take the request" : "answer",
				    c->timeout_s, client_timeout_hint);
				return (EXIT_UNREACHABLE);
			}
			ms = (int)(c->deadline - now);
		}
		pfd.fd = c->fd;
		pfd.events = events;
		pfd.revents = 0;
		n = poll(&pfd, 1, ms);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			snprintf(err, errlen, "cannot wait for gbatchd at %s: "
			    "%s", c->path, strerror(errno));
			return (EXIT_UNREACHABLE);
		}
		if (n == 1)
			return (0);
	}
}

static int
client_write(struct client *c, const uint8_t *buf, size_t len, char *err,
    size_t errlen)
{
	ssize_t	n;
	int	r;

	while (len > 0) {
		/* MSG_NOSIGNAL: a controller that goes away is an error to
		 * report, not a SIGPIPE that kills the command silently.
		 * MSG_DONTWAIT: the wait is client_wait()'s, bounded. */
		n = send(c->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if ((r = client_wait(c, POLLOUT, err, errlen)) != 0)
				return (r);
			continue;
		}
		if (n == -1) {
			/* The controller may have refused the HELLO and
			 * closed; its reply, if any, says why. */
			if (errno == EPIPE || errno == ECONNRESET)
				return (0);
			return (client_io_error(c, "cannot write to", errno,
			    err, errlen));
		}
		buf += n;
		len -= (size_t)n;
	}
	return (0);
}

static int
client_read_full(struct client *c, uint8_t *buf, size_t len, char *err,
    size_t errlen)
{
	ssize_t	n;
	int	r;

	while (len > 0) {
		n = recv(c->fd, buf, len, MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if ((r = client_wait(c, POLLIN, err, errlen)) != 0)
				return (r);
			continue;
		}
		if (n <= 0)
			return (client_io_error(c, "cannot read from",
			    n == 0 ? 0 : errno, err, errlen));
		buf += n;
		len -= (size_t)n;
	}
	return (0);
}

/* Reads one frame's body: a NUL-terminated buffer the caller frees. */
static int
client_read_frame(struct client *c, char **body, size_t *len, char *err,
    size_t errlen)
{
	uint8_t	 hdr[FRAME_HEADER];
	char	 ferr[256];
	long	 n;
	int	 r;

	if ((r = client_read_full(c, hdr, sizeof hdr, err, errlen)) != 0)
		return (r);
	if ((n = frame_header(hdr, FRAME_MAX_REPLY, ferr, sizeof ferr)) == -1) {
		snprintf(err, errlen, "bad reply from gbatchd at %s: %s",
		    c->path, ferr);
		return (EXIT_UNREACHABLE);
	}
	*body = xmalloc((size_t)n + 1);
	if ((r = client_read_full(c, (uint8_t *)*body, (size_t)n, err,
	    errlen)) != 0) {
		free(*body);
		*body = NULL;
		return (r);
	}
	(*body)[n] = '\0';
	*len = (size_t)n;
	return (0);
}

/* Turns a reply with "ok": false into the command's exit status. The
 * message goes to a terminal and may quote what a user or node sent (a job
 * name, a node's reason): it is escaped here, once, for every command. */
static int
client_reply_error(const char *code, const char *message, char *err,
    size_t errlen)
{
	if (message != NULL && *message != '\0')
		safe_text_str(message, err, errlen);
	else
		snprintf(err, errlen, "gbatchd refused the request without "
		    "saying why");
	return (proto_exit_status(code));
}

/* HELLO, framed (the caller frees it). */
static uint8_t *
client_hello_frame(size_t *len)
{
	json_t	*hello;
	uint8_t	*h;

	hello = json_pack("{s:i,s:i,s:s}", "type", MSG_HELLO, "version",
	    PROTO_VERSION, "role", "client");
	h = frame_pack(hello, FRAME_MAX_REQUEST, len);
	json_decref(hello);
	return (h);
}

/* Sends HELLO (on the first call) and req in one write. */
static int
client_send(struct client *c, json_t *req, char *err, size_t errlen)
{
	uint8_t	*h = NULL, *r, *both;
	size_t	 hlen = 0, rlen;
	int	 ret;

	if ((r = frame_pack(req, FRAME_MAX_REQUEST, &rlen)) == NULL) {
		snprintf(err, errlen, "the request is larger than the %u bytes "
		    "gbatchd accepts", FRAME_MAX_REQUEST);
		return (EXIT_USAGE);
	}
	if (!c->said_hello)
		h = client_hello_frame(&hlen);
	both = xmalloc(hlen + rlen);
	if (h != NULL)
		memcpy(both, h, hlen);
	memcpy(both + hlen, r, rlen);
	ret = client_write(c, both, hlen + rlen, err, errlen);
	free(both);
	free(r);
	free(h);
	return (ret);
}

/* Reads the HELLO reply once; a refusal (version mismatch) is fatal. */
static int
client_read_hello(struct client *c, char *err, size_t errlen)
{
	char		*body;
	char		 ferr[256];
	size_t		 len;
	json_t		*msg;
	int		 r;

	if (c->said_hello)
		return (0);
	c->said_hello = 1;
	if ((r = client_read_frame(c, &body, &len, err, errlen)) != 0)
		return (r);
	msg = frame_body((uint8_t *)body, len, ferr, sizeof ferr);
	free(body);
	if (msg == NULL) {
		snprintf(err, errlen, "bad reply from gbatchd at %s: %s",
		    c->path, ferr);
		return (EXIT_UNREACHABLE);
	}
	if (!json_is_true(json_object_get(msg, "ok"))) {
		r = client_reply_error(json_string_value(json_object_get(msg,
		    "code")), json_string_value(json_object_get(msg,
		    "message")), err, errlen);
		json_decref(msg);
		/* A refused HELLO means this client cannot talk to this
		 * controller at all, whatever the code. */
		return (r == EXIT_PERMISSION ? r : EXIT_UNREACHABLE);
	}
	c->hello = msg;
	return (0);
}

/* Reads one reply frame into *body and checks its "ok". */
static int
client_take_reply(struct client *c, char **body, size_t *len, char *err,
    size_t errlen)
{
	struct jscan_val	 top, ok, code, message;
	char			 codebuf[64], msgbuf[1024];
	int			 r;

	if ((r = client_read_frame(c, body, len, err, errlen)) != 0)
		return (r);
	if (jscan_open(*body, *len, &top) == -1) {
		snprintf(err, errlen, "bad reply from gbatchd at %s: not a "
		    "JSON object", c->path);
		r = EXIT_UNREACHABLE;
		goto fail;
	}
	jscan_get(&top, "ok", &ok);
	if (!jscan_true(&ok)) {
		jscan_get(&top, "code", &code);
		jscan_get(&top, "message", &message);
		jscan_string(&code, codebuf, sizeof codebuf);
		jscan_string(&message, msgbuf, sizeof msgbuf);
		r = client_reply_error(code.type == JSCAN_STRING ? codebuf :
		    NULL, msgbuf, err, errlen);
		goto fail;
	}
	return (0);

fail:
	free(*body);
	*body = NULL;
	return (r);
}

int
client_call_raw(struct client *c, json_t *req, char **body, size_t *len,
    char *err, size_t errlen)
{
	int	r;

	*body = NULL;
	/* Each request gets the whole --timeout: a command that asks twice
	 * (gcancel --name) is not cut short by its first answer. */
	c->deadline = client_now_ms() + (uint64_t)c->timeout_s * 1000;
	if ((r = client_send(c, req, err, errlen)) != 0)
		return (r);
	if ((r = client_read_hello(c, err, errlen)) != 0)
		return (r);
	return (client_take_reply(c, body, len, err, errlen));
}

int
client_whoami(struct client *c, const char **user, char *err, size_t errlen)
{
	uint8_t	*h;
	size_t	 hlen;
	int	 r;

	if (!c->said_hello) {
		c->deadline = client_now_ms() + (uint64_t)c->timeout_s * 1000;
		h = client_hello_frame(&hlen);
		r = client_write(c, h, hlen, err, errlen);
		free(h);
		if (r != 0 || (r = client_read_hello(c, err, errlen)) != 0)
			return (r);
	}
	if ((*user = json_string_value(json_object_get(c->hello, "user"))) ==
	    NULL) {
		snprintf(err, errlen, "bad reply from gbatchd at %s: its HELLO "
		    "names no user", c->path);
		return (EXIT_UNREACHABLE);
	}
	return (0);
}

int
client_next_raw(struct client *c, char **body, size_t *len, char *err,
    size_t errlen)
{
	*body = NULL;
	c->deadline = client_now_ms() + (uint64_t)c->timeout_s * 1000;
	return (client_take_reply(c, body, len, err, errlen));
}

int
client_call(struct client *c, json_t *req, json_t **reply, char *err,
    size_t errlen)
{
	char	*body;
	char	 ferr[256];
	size_t	 len;
	int	 r;

	*reply = NULL;
	if ((r = client_call_raw(c, req, &body, &len, err, errlen)) != 0)
		return (r);
	*reply = frame_body((uint8_t *)body, len, ferr, sizeof ferr);
	free(body);
	if (*reply == NULL) {
		snprintf(err, errlen, "bad reply from gbatchd at %s: %s",
		    c->path, ferr);
		return (EXIT_UNREACHABLE);
	}
	return (0);
}

int
client_fd(const struct client *c)
{
	return (c->fd);
}

int
client_post(struct client *c, json_t *msg, char *err, size_t errlen)
{
	c->deadline = client_now_ms() + (uint64_t)c->timeout_s * 1000;
	return (client_send(c, msg, err, errlen));
}
