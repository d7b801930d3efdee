/* fakectl.c: a stand-in for gbatchd's node side, for the gnoded suites. It
 * lets a test be the controller: send any message (JOB_LAUNCH, JOB_PREEMPT
 * before gbatchd sends it) and see every message gnoded sends back.
 *
 *	fakectl DIR [CERT KEY CA]
 *
 * With CERT, KEY and CA, it speaks TLS as gbatchd does (daemon/common/tls.c:
 * a controller's certificate, and a node's of that CA required); a rogue
 * controller is one whose certificate comes from another CA, or none.
 * Listens on 127.0.0.1, an ephemeral port, and writes "127.0.0.1:PORT" to
 * DIR/addr once it listens. Every message from gnoded but heartbeats is
 * appended to DIR/recv as one line of compact JSON with sorted keys; a
 * HELLO is answered ok. A file DIR/send/NAME.json holding one JSON object
 * is sent as a frame, in name order, and removed (write it elsewhere and
 * rename it in, so it is never read half written); files wait while no
 * node is connected. A node that connects again replaces the old
 * connection, as with gbatchd. Runs until killed. */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/ssl.h>

#include "common/frame.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/common/tls.h"

/* How often DIR/send is looked at. */
#define FAKECTL_POLL_MS	20

struct fakectl {
	const char	*dir;
	int		 lfd;
	int		 fd;		/* the node, -1 when none */
	SSL_CTX		*tls;		/* or NULL: plain TCP */
	SSL		*ssl;		/* fd's, under TLS */
	uint8_t		*buf;
	size_t		 len;
	size_t		 cap;
};

static void __attribute__((noreturn))
fakectl_fatal(const char *what)
{
	fprintf(stderr, "fakectl: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Writes path through a temporary file, so a reader sees all or nothing. */
static void
fakectl_publish(const char *dir, const char *name, const char *text)
{
	char	*tmp, *path;
	FILE	*f;

	tmp = xasprintf("%s/.%s.tmp", dir, name);
	path = xasprintf("%s/%s", dir, name);
	if ((f = fopen(tmp, "w")) == NULL)
		fakectl_fatal(tmp);
	fputs(text, f);
	if (fclose(f) != 0 || rename(tmp, path) == -1)
		fakectl_fatal(path);
	free(tmp);
	free(path);
}

static void
fakectl_listen(struct fakectl *fc)
{
	struct sockaddr_in	sin;
	socklen_t		slen = sizeof sin;
	char			addr[64];

	if ((fc->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		fakectl_fatal("socket");
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fc->lfd, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    listen(fc->lfd, 4) == -1 ||
	    getsockname(fc->lfd, (struct sockaddr *)&sin, &slen) == -1)
		fakectl_fatal("listen");
	snprintf(addr, sizeof addr, "127.0.0.1:%u\n", ntohs(sin.sin_port));
	fakectl_publish(fc->dir, "addr", addr);
}

static void
fakectl_drop(struct fakectl *fc)
{
	if (fc->fd != -1)
		close(fc->fd);
	if (fc->ssl != NULL)
		SSL_free(fc->ssl);
	fc->ssl = NULL;
	fc->fd = -1;
	fc->len = 0;
}

static void
fakectl_send(struct fakectl *fc, const json_t *msg)
{
	uint8_t	*frame;
	size_t	 len, off = 0;
	ssize_t	 n;

	if ((frame = frame_pack(msg, FRAME_MAX_REQUEST, &len)) == NULL) {
		fprintf(stderr, "fakectl: cannot encode a message\n");
		return;
	}
	while (off < len) {
		if (fc->ssl != NULL)
			n = SSL_write(fc->ssl, frame + off, len - off) > 0 ?
			    (ssize_t)(len - off) : -1;
		else
			n = write(fc->fd, frame + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			fakectl_drop(fc);
			break;
		}
		off += (size_t)n;
	}
	free(frame);
}

static void
fakectl_record(struct fakectl *fc, const json_t *msg)
{
	char	*text, *path;
	FILE	*f;

	path = xasprintf("%s/recv", fc->dir);
	text = json_dumps(msg, JSON_COMPACT | JSON_SORT_KEYS);
	if ((f = fopen(path, "a")) == NULL)
		fakectl_fatal(path);
	fprintf(f, "%s\n", text);
	fclose(f);
	free(text);
	free(path);
}

static void
fakectl_message(struct fakectl *fc, json_t *msg)
{
	json_t	*reply;

	if (proto_type(msg) == MSG_NODE_HEARTBEAT)
		return;
	fakectl_record(fc, msg);
	if (proto_type(msg) != MSG_HELLO)
		return;
	reply = json_pack("{s:i,s:b,s:i,s:i}", "re", MSG_HELLO, "ok", 1,
	    "version", PROTO_VERSION, "heartbeat_interval", 1);
	fakectl_send(fc, reply);
	json_decref(reply);
}

static void
fakectl_read(struct fakectl *fc)
{
	json_t	*msg;
	char	 err[256];
	size_t	 used;
	ssize_t	 n;
	int	 rc;

	if (fc->cap - fc->len < 65536) {
		fc->cap = fc->cap * 2 + 65536;
		fc->buf = xrealloc(fc->buf, fc->cap);
	}
	if (fc->ssl != NULL)
		n = SSL_read(fc->ssl, fc->buf + fc->len, fc->cap - fc->len);
	else
		n = read(fc->fd, fc->buf + fc->len, fc->cap - fc->len);
	if (n == -1 && errno == EINTR)
		return;
	if (n <= 0) {
		fakectl_drop(fc);
		return;
	}
	fc->len += (size_t)n;
	for (;;) {
		rc = frame_parse(fc->buf, fc->len, FRAME_MAX_REQUEST, &used,
		    &msg, err, sizeof err);
		if (rc == 0)
			return;
		if (rc == -1) {
			fprintf(stderr, "fakectl: bad frame: %s\n", err);
			fakectl_drop(fc);
			return;
		}
		fakectl_message(fc, msg);
		json_decref(msg);
		if (fc->fd == -1)
			return;
		memmove(fc->buf, fc->buf + used, fc->len - used);
		fc->len -= used;
	}
}

static int
fakectl_cmp(const struct dirent **a, const struct dirent **b)
{
	return (strcmp((*a)->d_name, (*b)->d_name));
}

static int
fakectl_is_json(const struct dirent *de)
{
	size_t	len = strlen(de->d_name);

	return (de->d_name[0] != '.' && len > 5 &&
	    strcmp(de->d_name + len - 5, ".json") == 0);
}

static void
fakectl_outbox(struct fakectl *fc)
{
	struct dirent	**names;
	json_error_t	  jerr;
	json_t		 *msg;
	char		 *path, *dir;
	int		  n, i;

	if (fc->fd == -1)
		return;
	dir = xasprintf("%s/send", fc->dir);
	n = scandir(dir, &names, fakectl_is_json, fakectl_cmp);
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", dir, names[i]->d_name);
		if (fc->fd != -1) {
			if ((msg = json_load_file(path, 0, &jerr)) == NULL)
				fprintf(stderr, "fakectl: %s: %s\n", path,
				    jerr.text);
			else
				fakectl_send(fc, msg);
			json_decref(msg);
			unlink(path);
		}
		free(path);
		free(names[i]);
	}
	if (n > 0)
		free(names);
	free(dir);
}

/* The handshake, blocking: gnoded starts it at once. */
static int
fakectl_tls(struct fakectl *fc)
{
	if ((fc->ssl = SSL_new(fc->tls)) == NULL ||
	    SSL_set_fd(fc->ssl, fc->fd) != 1 || SSL_accept(fc->ssl) != 1) {
		fprintf(stderr, "fakectl: TLS handshake failed\n");
		return (-1);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct fakectl	 fc;
	struct pollfd	 pfd[2];
	char		*send;
	int		 fd;

	struct tls_conf	 tc;
	char		 err[512];

	if (argc != 2 && argc != 5) {
		fprintf(stderr, "usage: fakectl DIR [CERT KEY CA]\n");
		return (2);
	}
	memset(&fc, 0, sizeof fc);
	if (argc == 5) {
		tc.cert = argv[2];
		tc.key = argv[3];
		tc.ca = argv[4];
		tc.crl = NULL;
		if ((fc.tls = tls_ctx_controller(&tc, err,
		    sizeof err)) == NULL) {
			fprintf(stderr, "fakectl: %s\n", err);
			return (1);
		}
	}
	fc.dir = argv[1];
	fc.fd = -1;
	signal(SIGPIPE, SIG_IGN);
	send = xasprintf("%s/send", fc.dir);
	if (mkdir(send, 0700) == -1 && errno != EEXIST)
		fakectl_fatal(send);
	free(send);
	fakectl_listen(&fc);

	for (;;) {
		pfd[0].fd = fc.lfd;
		pfd[0].events = POLLIN;
		pfd[1].fd = fc.fd;
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, FAKECTL_POLL_MS) == -1 && errno != EINTR)
			fakectl_fatal("poll");
		if (pfd[0].revents & POLLIN) {
			fd = accept4(fc.lfd, NULL, NULL, SOCK_CLOEXEC);
			if (fd != -1) {
				fakectl_drop(&fc);
				fc.fd = fd;
				if (fc.tls != NULL && fakectl_tls(&fc) == -1)
					fakectl_drop(&fc);
			}
		} else if (fc.fd != -1 &&
		    (pfd[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			fakectl_read(&fc);
			/* TLS may hold decrypted bytes the socket no
			 * longer shows. */
			while (fc.ssl != NULL && SSL_pending(fc.ssl) > 0)
				fakectl_read(&fc);
		}
		fakectl_outbox(&fc);
	}
}
