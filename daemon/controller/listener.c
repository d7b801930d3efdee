/* listener.c: accepting connections. */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/listener.h>

#include "common/frame.h"
#include "common/log-limit.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "common/hostport.h"
#include "daemon/common/unixsock.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/listener.h"
#include "daemon/controller/peer-limit.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/user.h"

struct listener {
	struct peer_limits	*limits;	/* its peers' */
	struct evconnlistener	*lev;
	struct listener_tls	*tls;		/* TCP: or NULL, plain */
	struct event		*backoff;
	int			 local;
	char			*path;		/* Unix socket, unlinked at exit */
	/* Refusals are logged once per reason and interval: whoever is
	 * refused can connect again at once, as fast as they like. */
	struct log_limit	 refused;
};

/* How often the same refusal is logged again (seconds). */
#define LISTENER_REFUSED_LOG_S	10

static void
listener_backoff_cb(evutil_socket_t fd, short what, void *arg)
{
	struct listener	*l = arg;

	evconnlistener_enable(l->lev);
}

void
listener_accept_failed(struct evconnlistener *lev, struct event *backoff,
    const char *what)
{
	struct timeval	tv = { 1, 0 };
	int		e = EVUTIL_SOCKET_ERROR();

	if (e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM) {
		log_warn("%s: accept: %s; not accepting for a second", what,
		    strerror(e));
		evconnlistener_disable(lev);
		evtimer_add(backoff, &tv);
		return;
	}
	log_warn("%s: accept: %s", what, strerror(e));
}

static void
listener_error_cb(struct evconnlistener *lev, void *arg)
{
	struct listener	*l = arg;

	listener_accept_failed(lev, l->backoff, l->local ? "unix" : "tcp");
}

/* Turns away a connection over a limit of peer-limit.c: the reply to the
 * HELLO every client sends first says why, and the socket is closed at
 * once, so the refused costs a descriptor only for this moment. */
static void
listener_refuse(struct listener *l, evutil_socket_t fd, const char *addr,
    bool busy, const char *why)
{
	json_t		*hello, *reply;
	uint8_t		*buf;
	size_t		 len;
	char		 note[LOG_LIMIT_NOTE];

	if (log_limit_pass(&l->refused, why, ctx_now(),
	    LISTENER_REFUSED_LOG_S, note))
		log_info("peer %s: refused: %s%s", addr, why, note);
	hello = proto_msg(MSG_HELLO);
	reply = proto_reply_error(hello, busy ? PROTO_E_BUSY :
	    PROTO_E_PERMISSION, "%s", why);
	if ((buf = frame_pack(reply, FRAME_MAX_REQUEST, &len)) != NULL) {
		/* The socket is new: its send buffer has room. */
		(void)send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		free(buf);
	}
	json_decref(reply);
	json_decref(hello);
	evutil_closesocket(fd);
}

/* A connection on the Unix socket: a client, whose uid and gid the kernel
 * gives (SO_PEERCRED), never the client. */
static void
listener_accept_local(struct listener *l, struct event_base *base,
    evutil_socket_t fd)
{
	struct peer_ident	 id = { .local = true };
	struct bufferevent	*bev;
	struct ucred		 cred;
	socklen_t		 len = sizeof cred;
	char			 user[64], addr[80], why[256];
	bool			 busy;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
		log_warn("accept: SO_PEERCRED: %s", strerror(errno));
		evutil_closesocket(fd);
		return;
	}
	id.uid = cred.uid;
	id.gid = cred.gid;
	user_name(cred.uid, user, sizeof user);
	if (peer_limit_admit(l->limits, true, cred.uid,
	    conf_is_operator(ctx_conf(), cred.uid, user), &busy, why,
	    sizeof why) != 0) {
		snprintf(addr, sizeof addr, "unix:%s", user);
		listener_refuse(l, fd, addr, busy, why);
		return;
	}
	if ((bev = bufferevent_socket_new(base, fd,
	    BEV_OPT_CLOSE_ON_FREE)) == NULL) {
		log_warn("accept: cannot set up a connection");
		evutil_closesocket(fd);
		return;
	}
	(void)peer_create(bev, &id, true, NULL, l->limits);
}

static void
listener_accept_cb(struct evconnlistener *lev, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct listener		*l = arg;
	struct event_base	*base = evconnlistener_get_base(lev);
	/* Without TLS (tls.enabled false) every node is taken at its word. */
	struct peer_ident	 id = { .local = false, .trusted = true,
	    .controller = true };
	struct bufferevent	*bev;
	char			 host[NI_MAXHOST], port[NI_MAXSERV];
	char			 addr[NI_MAXHOST + NI_MAXSERV + 4], why[256];
	int			 one = 1;
	bool			 busy;

	if (l->local) {
		listener_accept_local(l, base, fd);
		return;
	}
	if (getnameinfo(sa, (socklen_t)salen, host, sizeof host, port,
	    sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		snprintf(addr, sizeof addr, "tcp:?");
		snprintf(host, sizeof host, "?");
	} else if (sa->sa_family == AF_INET6)
		snprintf(addr, sizeof addr, "[%s]:%s", host, port);
	else
		snprintf(addr, sizeof addr, "%s:%s", host, port);
	if (peer_limit_admit(l->limits, false, 0, true, &busy, why,
	    sizeof why) != 0) {
		listener_refuse(l, fd, addr, busy, why);
		return;
	}
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (l->tls != NULL) {
		listener_tls_accept(l->tls, base, fd, addr, host);
		return;
	}
	if ((bev = bufferevent_socket_new(base, fd,
	    BEV_OPT_CLOSE_ON_FREE)) == NULL) {
		log_warn("accept %s: cannot set up a connection", addr);
		evutil_closesocket(fd);
		return;
	}
	(void)peer_create(bev, &id, false, addr, l->limits);
}

static int
listener_start(struct event_base *base, struct listener *l, int fd,
    char *err, size_t errlen)
{
	l->lev = evconnlistener_new(base, listener_accept_cb, l,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 128, fd);
	if (l->lev == NULL) {
		snprintf(err, errlen, "cannot listen: %s",
		    strerror(EVUTIL_SOCKET_ERROR()));
		close(fd);
		return (-1);
	}
	evconnlistener_set_error_cb(l->lev, listener_error_cb);
	l->backoff = evtimer_new(base, listener_backoff_cb, l);
	return (0);
}

struct listener *
listener_unix(struct event_base *base, const char *path,
    struct peer_limits *limits, char *err, size_t errlen)
{
	struct listener		*l;
	int			 fd;

	if ((fd = unixsock_bind(path, "gbatchd", err, errlen)) == -1)
		return (NULL);
	l = xcalloc(1, sizeof *l);
	l->limits = limits;
	l->local = 1;
	l->path = xstrdup(path);
	if (listener_start(base, l, fd, err, errlen) != 0) {
		listener_free(l);
		return (NULL);
	}
	return (l);
}

static int
listener_write_addr(const char *file, const struct sockaddr *sa,
    socklen_t salen, char *err, size_t errlen)
{
	char	 host[NI_MAXHOST], port[NI_MAXSERV], *tmp;
	FILE	*f;
	int	 rc;

	if ((rc = getnameinfo(sa, salen, host, sizeof host, port, sizeof port,
	    NI_NUMERICHOST | NI_NUMERICSERV)) != 0) {
		snprintf(err, errlen, "listen: %s", gai_strerror(rc));
		return (-1);
	}
	/* Written whole and renamed, so a reader never sees half. */
	tmp = xasprintf("%s.tmp", file);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return (-1);
	}
	if (sa->sa_family == AF_INET6)
		fprintf(f, "[%s]:%s\n", host, port);
	else
		fprintf(f, "%s:%s\n", host, port);
	if (fclose(f) != 0 || rename(tmp, file) != 0) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		unlink(tmp);
		free(tmp);
		return (-1);
	}
	free(tmp);
	return (0);
}

/* The port of the address file a previous run left ("HOST:PORT\n"), or
 * NULL. A new string. */
static char *
listener_old_port(const char *addr_file)
{
	char	 line[NI_MAXHOST + NI_MAXSERV + 8], *host, *port, why[128];
	FILE	*f;

	if ((f = fopen(addr_file, "r")) == NULL)
		return (NULL);
	if (fgets(line, sizeof line, f) == NULL) {
		fclose(f);
		return (NULL);
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (hostport_split(line, 1, &host, &port, why, sizeof why) != 0)
		return (NULL);
	free(host);
	return (port);
}

int
listener_bind(const char *host, const char *port, struct sockaddr_storage *ss,
    socklen_t *sslen, const char **what)
{
	struct addrinfo	 hints, *res = NULL;
	int		 fd = -1, rc, one = 1, e;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	if ((rc = getaddrinfo(host, port, &hints, &res)) != 0) {
		*what = gai_strerror(rc);
		errno = 0;
		return (-1);
	}
	fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, 0);
	if (fd == -1 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
	    bind(fd, res->ai_addr, res->ai_addrlen) != 0 ||
	    getsockname(fd, (struct sockaddr *)ss, sslen) != 0) {
		e = errno;
		if (fd != -1)
			close(fd);
		freeaddrinfo(res);
		*what = NULL;
		errno = e;
		return (-1);
	}
	freeaddrinfo(res);
	return (fd);
}

struct listener *
listener_tcp(struct event_base *base, const char *hostport,
    const char *addr_file, SSL_CTX *tls, struct peer_limits *limits,
    char *err, size_t errlen)
{
	struct listener		*l;
	struct sockaddr_storage	 ss;
	socklen_t		 sslen = sizeof ss;
	char			*host, *port, *old = NULL, why[256];
	const char		*what = NULL;
	int			 fd = -1, rc = -1;

	if (hostport_split(hostport, 0, &host, &port, why, sizeof why) != 0) {
		snprintf(err, errlen, "listen: %s", why);
		return (NULL);
	}
	l = xcalloc(1, sizeof *l);
	l->limits = limits;
	if (tls != NULL)
		l->tls = listener_tls_create(tls, limits);
	/* Port 0 means "any free port", but node daemons keep dialling the
	 * port they were given: a restart takes the port the last run had,
	 * while it is free, so the nodes find the controller again. */
	if (strcmp(port, "0") == 0 &&
	    (old = listener_old_port(addr_file)) != NULL) {
		sslen = sizeof ss;
		if ((fd = listener_bind(host, old, &ss, &sslen, &what)) == -1)
			log_warn("listen %s: the port of the last run, %s, is "
			    "taken (%s); taking another: node daemons that "
			    "dial %s will not find this controller", hostport,
			    old, what != NULL ? what : strerror(errno), old);
		free(old);
	}
	if (fd == -1) {
		sslen = sizeof ss;
		if ((fd = listener_bind(host, port, &ss, &sslen,
		    &what)) == -1) {
			snprintf(err, errlen, "listen %s: %s", hostport,
			    what != NULL ? what : strerror(errno));
			goto out;
		}
	}
	evutil_make_socket_nonblocking(fd);
	if (listener_start(base, l, fd, err, errlen) != 0 ||
	    listener_write_addr(addr_file, (struct sockaddr *)&ss, sslen, err,
	    errlen) != 0)
		goto out;
	if (tls == NULL)
		log_warn("listen %s: TLS is off (tls.enabled is false): "
		    "whoever reaches this port is taken for a node", hostport);
	rc = 0;
out:
	free(host);
	free(port);
	if (rc != 0) {
		listener_free(l);
		return (NULL);
	}
	return (l);
}

void
listener_disable(struct listener *l)
{
	if (l == NULL)
		return;
	if (l->lev != NULL)
		evconnlistener_disable(l->lev);
	if (l->backoff != NULL)
		evtimer_del(l->backoff);
}

void
listener_free(struct listener *l)
{
	if (l == NULL)
		return;
	listener_tls_free(l->tls);
	if (l->lev != NULL)
		evconnlistener_free(l->lev);
	if (l->backoff != NULL)
		event_free(l->backoff);
	if (l->path != NULL) {
		unlink(l->path);
		free(l->path);
	}
	free(l);
}
