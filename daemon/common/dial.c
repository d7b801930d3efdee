/* dial.c: TCP to a controller, framing, reconnect with backoff; with
 * several controllers, each in turn. */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/dns.h>
#include <event2/util.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "common/frame.h"
#include "common/log-limit.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/common/frame-read.h"
#include "common/hostport.h"
#include "daemon/common/tls.h"
#include "daemon/common/dial.h"

#define NODE_LINK_BACKOFF_MIN_MS	100
#define NODE_LINK_BACKOFF_MAX_MS	5000
#define NODE_LINK_CONNECT_TIMEOUT_S	10
/* How often the same failure to connect is logged again (seconds). */
#define NODE_LINK_FAILS_LOG_S		300
/* Unacknowledged data older than this means the controller is gone (a
 * dead host sends no RST; heartbeats then fail within this time). */
#define NODE_LINK_USER_TIMEOUT_MS	30000

/* One controller address, as given. */
struct dial_peer {
	char				*addr;	/* "HOST:PORT", for the log */
	char				*host;
	char				*port;
	/* Its failures to connect, logged once per cause and interval: a
	 * controller that stays down, or a rogue one whose certificate
	 * fails, is said, then said again now and then, never each try. */
	struct log_limit		 fails;
};

struct dial {
	struct event_base		*base;
	struct evdns_base		*dns;
	struct dial_peer		*peers;
	size_t				 npeers;
	size_t				 cur;	/* tried now, or connected */
	size_t				 failed;	/* in this round */
	const struct dial_cb	*cb;
	void				*arg;
	SSL_CTX				*tls;		/* or NULL: plain */
	char				*tls_name;	/* or NULL */
	/* The local address connections leave from (dial_set_source), or
	 * unset (ss_family 0): the kernel's choice. */
	struct sockaddr_storage		 source;
	int				 source_len;
	char				 source_text[64];

	struct bufferevent		*bev;
	bool				 next_raw;	/* dial_next_raw */
	bool				 up;
	bool				 welcomed;	/* cur accepted us */
	bool				 stopped;	/* dial_stop */
	unsigned			 gen;	/* bumped on every reset */
	struct event			*retry;
	struct event			*recheck;	/* TLS: every minute */
	unsigned			 backoff_ms;
};

/* How often the controller's certificate is judged again (seconds). */
#define NODE_LINK_RECHECK_S		60

static void	dial_connect(struct dial *);

static void
dial_schedule(struct dial *link)
{
	struct timeval	tv;
	unsigned	ms;

	/* Jitter of +-25% keeps a rack of nodes from reconnecting in step
	 * after a controller restart. */
	ms = link->backoff_ms * 3 / 4 +
	    (unsigned)(random() % (link->backoff_ms / 2 + 1));
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(link->retry, &tv);
	link->backoff_ms *= 2;
	if (link->backoff_ms > NODE_LINK_BACKOFF_MAX_MS)
		link->backoff_ms = NODE_LINK_BACKOFF_MAX_MS;
}

static void
dial_close(struct dial *link)
{
	bool	was_up = link->up;

	link->gen++;
	link->up = false;
	link->next_raw = false;
	link->welcomed = false;
	if (link->bev != NULL) {
		bufferevent_free(link->bev);
		link->bev = NULL;
	}
	if (was_up && link->cb->down != NULL)
		link->cb->down(link->arg);
}

/* A round tries each controller once, from the one that last accepted
 * us: a controller that fails hands over to the next at once, and only a
 * round in which all failed waits the backoff. */
void
dial_reset(struct dial *link, const char *why)
{
	struct dial_peer	*p = &link->peers[link->cur];
	struct timeval		 now = { 0, 0 };
	bool			 next;
	char			 note[LOG_LIMIT_NOTE];

	if (link->stopped || evtimer_pending(link->retry, NULL)) {
		dial_close(link);
		return;
	}
	next = !link->welcomed && link->failed + 1 < link->npeers;
	if (link->up)
		log_warn("controller %s: connection closed: %s", p->addr, why);
	else if (log_limit_pass(&p->fails, why, (int64_t)time(NULL),
	    NODE_LINK_FAILS_LOG_S, note))
		log_warn("controller %s: cannot connect: %s (%s)%s", p->addr,
		    why, next ? "trying the next" : "retrying", note);
	if (link->welcomed)
		link->failed = 0;
	else {
		link->failed++;
		link->cur = (link->cur + 1) % link->npeers;
	}
	dial_close(link);
	if (next)
		evtimer_add(link->retry, &now);
	else {
		link->failed = 0;
		dial_schedule(link);
	}
}

int
dial_set_source(struct dial *link, const char *host)
{
	link->source_len = (int)sizeof link->source;
	memset(&link->source, 0, sizeof link->source);
	if (evutil_parse_sockaddr_port(host, (struct sockaddr *)&link->source,
	    &link->source_len) != 0) {
		memset(&link->source, 0, sizeof link->source);
		return (-1);
	}
	snprintf(link->source_text, sizeof link->source_text, "%s", host);
	return (0);
}

void
dial_backoff_reset(struct dial *link)
{
	size_t	i;

	link->backoff_ms = NODE_LINK_BACKOFF_MIN_MS;
	link->welcomed = true;
	link->failed = 0;
	for (i = 0; i < link->npeers; i++)
		memset(&link->peers[i].fails, 0, sizeof link->peers[i].fails);
}

static void
dial_read_cb(struct bufferevent *bev, void *arg)
{
	struct dial	*link = arg;
	struct evbuffer		*in = bufferevent_get_input(bev), *frame;
	unsigned		 gen = link->gen;
	json_t			*msg;
	size_t			 len, need;
	char			 err[256];
	int			 rc;

	for (;;) {
		rc = frame_read_peek(in, link->next_raw ? FRAME_MAX_REPLY :
		    FRAME_MAX_REQUEST, &len, &need, err, sizeof err);
		if (rc == -1) {
			dial_reset(link, err);
			return;
		}
		if (rc == 0) {
			/* Wake only once the whole frame is here. */
			bufferevent_setwatermark(bev, EV_READ,
			    need > FRAME_HEADER ? need : 0, 0);
			return;
		}
		bufferevent_setwatermark(bev, EV_READ, 0, 0);
		if (link->next_raw) {
			link->next_raw = false;
			frame = evbuffer_new();
			evbuffer_remove_buffer(in, frame, FRAME_HEADER + len);
			link->cb->raw(frame, link->arg);
			evbuffer_free(frame);
			if (link->gen != gen)
				return;
			continue;
		}
		if ((msg = frame_read_take(in, len, err, sizeof err)) == NULL) {
			dial_reset(link, err);
			return;
		}
		link->cb->message(msg, link->arg);
		json_decref(msg);
		if (link->gen != gen)
			return;
	}
}

static void
dial_tune(evutil_socket_t fd)
{
	int	on = 1, idle = 10, intvl = 5, cnt = 3;
	int	ms = NODE_LINK_USER_TIMEOUT_MS;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
	setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &ms, sizeof ms);
}

static void
dial_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct dial	*link = arg;
	char			 why[512], tlswhy[256];
	unsigned long		 sslerr;
	int			 dnserr;

	if (what & BEV_EVENT_CONNECTED) {
		dial_tune(bufferevent_getfd(bev));
		bufferevent_set_timeouts(bev, NULL, NULL);
		bufferevent_enable(bev, EV_READ | EV_WRITE);
		link->up = true;
		log_info("controller %s: connected", link->peers[link->cur].addr);
		link->cb->up(link->arg);
		return;
	}
	if (link->tls != NULL && (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) &&
	    (sslerr = bufferevent_get_openssl_error(bev)) != 0) {
		tls_error(bufferevent_openssl_get_ssl(bev), sslerr, tlswhy,
		    sizeof tlswhy);
		snprintf(why, sizeof why, "TLS: %s", tlswhy);
	} else if (link->tls != NULL && !link->up &&
	    SSL_get_verify_result(bufferevent_openssl_get_ssl(bev)) !=
	    X509_V_OK) {
		tls_error(bufferevent_openssl_get_ssl(bev), 0, tlswhy,
		    sizeof tlswhy);
		snprintf(why, sizeof why, "TLS: %s", tlswhy);
	} else if (what & BEV_EVENT_EOF)
		snprintf(why, sizeof why, "closed by the controller%s",
		    link->tls != NULL && !link->up ? " during the TLS handshake "
		    "(our certificate refused?)" : "");
	else if (what & BEV_EVENT_TIMEOUT)
		snprintf(why, sizeof why, "timed out");
	else if ((dnserr = bufferevent_socket_get_dns_error(bev)) != 0)
		snprintf(why, sizeof why, "cannot resolve %s: %s",
		    link->peers[link->cur].host, evutil_gai_strerror(dnserr));
	else
		snprintf(why, sizeof why, "%s", evutil_socket_error_to_string(
		    EVUTIL_SOCKET_ERROR()));
	dial_reset(link, why);
}

/* A socket bound to the source address, for dial_connect. */
static evutil_socket_t
dial_bound(struct dial *link, char *err, size_t errlen)
{
	evutil_socket_t	fd;

	if ((fd = socket(link->source.ss_family, SOCK_STREAM | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return (-1);
	}
	if (bind(fd, (struct sockaddr *)&link->source,
	    (socklen_t)link->source_len) != 0) {
		snprintf(err, errlen, "cannot leave from %s: %s",
		    link->source_text, strerror(errno));
		evutil_closesocket(fd);
		return (-1);
	}
	return (fd);
}

static void
dial_connect(struct dial *link)
{
	struct dial_peer	*p = &link->peers[link->cur];
	struct timeval		 tv = { NODE_LINK_CONNECT_TIMEOUT_S, 0 };
	SSL			*ssl = NULL;
	char			 err[256];
	evutil_socket_t		 fd = -1;

	dial_close(link);
	if (link->stopped)
		return;
	/* A new resolver for every attempt: evdns reads /etc/hosts and
	 * /etc/resolv.conf only when it is made, so one kept for the life of
	 * gnoded would dial a controller's old address after its name moved.
	 * No lookup is pending here: the last one ended before its failure
	 * reset the link. Without a resolver, libevent would resolve with a
	 * blocking getaddrinfo. */
	if (link->dns != NULL)
		evdns_base_free(link->dns, 0);
	link->dns = evdns_base_new(link->base,
	    EVDNS_BASE_INITIALIZE_NAMESERVERS);
	if (link->source.ss_family != 0 && (fd = dial_bound(link, err,
	    sizeof err)) == -1) {
		dial_reset(link, err);
		return;
	}
	if (link->tls != NULL) {
		if ((ssl = SSL_new(link->tls)) == NULL ||
		    tls_expect_name(ssl, link->tls_name != NULL ?
		    link->tls_name : p->host, err, sizeof err) == -1) {
			if (ssl != NULL)
				SSL_free(ssl);
			if (fd != -1)
				evutil_closesocket(fd);
			dial_reset(link, ssl == NULL ? "cannot set up "
			    "TLS" : err);
			return;
		}
		link->bev = bufferevent_openssl_socket_new(link->base, fd,
		    ssl, BUFFEREVENT_SSL_CONNECTING, BEV_OPT_CLOSE_ON_FREE);
		if (link->bev == NULL)
			SSL_free(ssl);
	} else
		link->bev = bufferevent_socket_new(link->base, fd,
		    BEV_OPT_CLOSE_ON_FREE);
	if (link->bev == NULL) {
		if (fd != -1)
			evutil_closesocket(fd);
		dial_reset(link, "cannot create a socket");
		return;
	}
	bufferevent_setcb(link->bev, dial_read_cb, NULL,
	    dial_event_cb, link);
	/* A write timeout while connecting bounds the connect itself. */
	bufferevent_set_timeouts(link->bev, NULL, &tv);
	if (bufferevent_socket_connect_hostname(link->bev, link->dns,
	    link->source.ss_family != 0 ? link->source.ss_family : AF_UNSPEC,
	    p->host, atoi(p->port)) == -1)
		dial_reset(link, "cannot start connecting");
}

static void
dial_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	dial_connect(arg);
}

static void
dial_recheck_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	dial_recheck(arg);
}

struct dial *
dial_create(struct event_base *base, char *const *addrs, size_t naddrs,
    SSL_CTX *tls, const char *tls_name, const struct dial_cb *cb,
    void *arg, char *err, size_t errlen)
{
	struct dial	*link;
	struct dial_peer	*p;
	struct timeval		 recheck_tv = { NODE_LINK_RECHECK_S, 0 };
	char			 why[256];
	size_t			 i;

	link = xcalloc(1, sizeof *link);
	link->peers = xcalloc(naddrs, sizeof *link->peers);
	for (i = 0; i < naddrs; i++) {
		p = &link->peers[i];
		if (hostport_split(addrs[i], 1, &p->host, &p->port, why,
		    sizeof why) == -1) {
			snprintf(err, errlen, "controller: %s", why);
			dial_free(link);
			return (NULL);
		}
		p->addr = xstrdup(addrs[i]);
		link->npeers++;
	}
	if (link->npeers == 0) {
		snprintf(err, errlen, "controller: none given");
		dial_free(link);
		return (NULL);
	}
	link->base = base;
	link->tls = tls;
	link->tls_name = tls_name != NULL ? xstrdup(tls_name) : NULL;
	if (tls == NULL)
		log_warn("controller: TLS is off (tls.enabled is false): "
		    "whoever answers at the controller's address is obeyed");
	link->cb = cb;
	link->arg = arg;
	link->backoff_ms = NODE_LINK_BACKOFF_MIN_MS;
	link->retry = evtimer_new(base, dial_retry_cb, link);
	if (tls != NULL) {
		link->recheck = event_new(base, -1, EV_PERSIST,
		    dial_recheck_cb, link);
		event_add(link->recheck, &recheck_tv);
	}
	srandom((unsigned)getpid() ^ (unsigned)time(NULL));
	return (link);
}

void
dial_recheck(struct dial *link)
{
	char	why[256], msg[320];
	SSL	*ssl;

	if (!link->up || link->tls == NULL || link->bev == NULL ||
	    (ssl = bufferevent_openssl_get_ssl(link->bev)) == NULL ||
	    tls_recheck(ssl, why, sizeof why) == 0)
		return;
	snprintf(msg, sizeof msg, "TLS: the controller's certificate no "
	    "longer holds: %s", why);
	dial_reset(link, msg);
}

void
dial_start(struct dial *link)
{
	dial_connect(link);
}

int
dial_send(struct dial *link, const json_t *msg)
{
	uint8_t	*buf;
	size_t	 len;
	int	 rc;

	if (!link->up)
		return (-1);
	if ((buf = frame_pack(msg, FRAME_MAX_REPLY, &len)) == NULL) {
		log_error("controller %s: cannot encode a message of type %d",
		    link->peers[link->cur].addr, (int)json_integer_value(json_object_get(msg,
		    "type")));
		return (-1);
	}
	rc = bufferevent_write(link->bev, buf, len);
	free(buf);
	return (rc);
}

int
dial_send_buffer(struct dial *link, struct evbuffer *frames)
{
	if (!link->up) {
		evbuffer_drain(frames, evbuffer_get_length(frames));
		return (-1);
	}
	/* One piece: the TLS bufferevent writes each piece as a record. */
	if (link->tls != NULL)
		evbuffer_pullup(frames, -1);
	return (bufferevent_write_buffer(link->bev, frames));
}

void
dial_next_raw(struct dial *link)
{
	link->next_raw = true;
}

bool
dial_is_up(const struct dial *link)
{
	return (link->up);
}

void
dial_stop(struct dial *link)
{
	if (link == NULL)
		return;
	link->stopped = true;
	link->up = false;	/* going away: no down callback */
	evtimer_del(link->retry);
	if (link->recheck != NULL)
		event_del(link->recheck);
	dial_close(link);
}

void
dial_free(struct dial *link)
{
	size_t	i;

	if (link == NULL)
		return;
	link->up = false;
	if (link->bev != NULL)
		bufferevent_free(link->bev);
	if (link->retry != NULL)
		event_free(link->retry);
	if (link->recheck != NULL)
		event_free(link->recheck);
	if (link->dns != NULL)
		evdns_base_free(link->dns, 0);
	for (i = 0; i < link->npeers; i++) {
		free(link->peers[i].addr);
		free(link->peers[i].host);
		free(link->peers[i].port);
	}
	free(link->peers);
	free(link->tls_name);
	free(link);
}
