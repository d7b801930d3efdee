/* node-link.c: TCP to the controller, framing, reconnect with backoff. */
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
#include <event2/dns.h>
#include <event2/util.h>

#include "common/frame.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/common/hostport.h"
#include "daemon/node/node-link.h"

#define NODE_LINK_BACKOFF_MIN_MS	100
#define NODE_LINK_BACKOFF_MAX_MS	5000
#define NODE_LINK_CONNECT_TIMEOUT_S	10
/* Unacknowledged data older than this means the controller is gone (a
 * dead host sends no RST; heartbeats then fail within this time). */
#define NODE_LINK_USER_TIMEOUT_MS	30000

struct node_link {
	struct event_base		*base;
	struct evdns_base		*dns;
	char				*addr;
	char				*host;
	char				*port;
	const struct node_link_cb	*cb;
	void				*arg;

	struct bufferevent		*bev;
	bool				 up;
	unsigned			 gen;	/* bumped on every reset */
	struct event			*retry;
	unsigned			 backoff_ms;
	bool				 quiet;	/* failure already logged */
};

static void	node_link_connect(struct node_link *);

static void
node_link_schedule(struct node_link *link)
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
node_link_close(struct node_link *link)
{
	bool	was_up = link->up;

	link->gen++;
	link->up = false;
	if (link->bev != NULL) {
		bufferevent_free(link->bev);
		link->bev = NULL;
	}
	if (was_up && link->cb->down != NULL)
		link->cb->down(link->arg);
}

void
node_link_reset(struct node_link *link, const char *why)
{
	if (link->up)
		log_warn("controller %s: connection closed: %s", link->addr,
		    why);
	else if (!link->quiet)
		log_warn("controller %s: cannot connect: %s (retrying)",
		    link->addr, why);
	if (!link->up)
		link->quiet = true;
	node_link_close(link);
	if (!evtimer_pending(link->retry, NULL))
		node_link_schedule(link);
}

void
node_link_backoff_reset(struct node_link *link)
{
	link->backoff_ms = NODE_LINK_BACKOFF_MIN_MS;
	link->quiet = false;
}

static void
node_link_read_cb(struct bufferevent *bev, void *arg)
{
	struct node_link	*link = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	unsigned		 gen = link->gen;
	uint8_t			*hdr, *body;
	json_t			*msg;
	long			 n;
	char			 err[256];

	for (;;) {
		if (evbuffer_get_length(in) < FRAME_HEADER)
			return;
		hdr = evbuffer_pullup(in, FRAME_HEADER);
		if ((n = frame_header(hdr, FRAME_MAX_REQUEST, err,
		    sizeof err)) == -1) {
			node_link_reset(link, err);
			return;
		}
		if (evbuffer_get_length(in) < FRAME_HEADER + (size_t)n) {
			/* Wake only once the whole frame is here. */
			bufferevent_setwatermark(bev, EV_READ,
			    FRAME_HEADER + (size_t)n, 0);
			return;
		}
		bufferevent_setwatermark(bev, EV_READ, 0, 0);
		body = evbuffer_pullup(in, FRAME_HEADER + (ssize_t)n);
		msg = frame_body(body + FRAME_HEADER, (size_t)n, err,
		    sizeof err);
		evbuffer_drain(in, FRAME_HEADER + (size_t)n);
		if (msg == NULL) {
			node_link_reset(link, err);
			return;
		}
		link->cb->message(msg, link->arg);
		json_decref(msg);
		if (link->gen != gen)
			return;
	}
}

static void
node_link_tune(evutil_socket_t fd)
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
node_link_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct node_link	*link = arg;
	char			 why[256];
	int			 dnserr;

	if (what & BEV_EVENT_CONNECTED) {
		node_link_tune(bufferevent_getfd(bev));
		bufferevent_set_timeouts(bev, NULL, NULL);
		bufferevent_enable(bev, EV_READ | EV_WRITE);
		link->up = true;
		log_info("controller %s: connected", link->addr);
		link->cb->up(link->arg);
		return;
	}
	if (what & BEV_EVENT_EOF)
		snprintf(why, sizeof why, "closed by the controller");
	else if (what & BEV_EVENT_TIMEOUT)
		snprintf(why, sizeof why, "timed out");
	else if ((dnserr = bufferevent_socket_get_dns_error(bev)) != 0)
		snprintf(why, sizeof why, "cannot resolve %s: %s", link->host,
		    evutil_gai_strerror(dnserr));
	else
		snprintf(why, sizeof why, "%s", evutil_socket_error_to_string(
		    EVUTIL_SOCKET_ERROR()));
	node_link_reset(link, why);
}

static void
node_link_connect(struct node_link *link)
{
	struct timeval	tv = { NODE_LINK_CONNECT_TIMEOUT_S, 0 };

	node_link_close(link);
	link->bev = bufferevent_socket_new(link->base, -1,
	    BEV_OPT_CLOSE_ON_FREE);
	if (link->bev == NULL) {
		node_link_reset(link, "cannot create a socket");
		return;
	}
	bufferevent_setcb(link->bev, node_link_read_cb, NULL,
	    node_link_event_cb, link);
	/* A write timeout while connecting bounds the connect itself. */
	bufferevent_set_timeouts(link->bev, NULL, &tv);
	if (bufferevent_socket_connect_hostname(link->bev, link->dns,
	    AF_UNSPEC, link->host, atoi(link->port)) == -1)
		node_link_reset(link, "cannot start connecting");
}

static void
node_link_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	node_link_connect(arg);
}

struct node_link *
node_link_create(struct event_base *base, const char *addr,
    const struct node_link_cb *cb, void *arg, char *err, size_t errlen)
{
	struct node_link	*link;
	char			*host, *port, why[256];

	if (hostport_split(addr, 1, &host, &port, why, sizeof why) == -1) {
		snprintf(err, errlen, "controller: %s", why);
		return (NULL);
	}
	link = xcalloc(1, sizeof *link);
	link->base = base;
	link->addr = xstrdup(addr);
	link->host = host;
	link->port = port;
	link->cb = cb;
	link->arg = arg;
	link->backoff_ms = NODE_LINK_BACKOFF_MIN_MS;
	link->retry = evtimer_new(base, node_link_retry_cb, link);
	srandom((unsigned)getpid() ^ (unsigned)time(NULL));
	/* Without a resolver libevent resolves with blocking getaddrinfo. */
	link->dns = evdns_base_new(base, EVDNS_BASE_INITIALIZE_NAMESERVERS);
	return (link);
}

void
node_link_start(struct node_link *link)
{
	node_link_connect(link);
}

int
node_link_send(struct node_link *link, const json_t *msg)
{
	uint8_t	*buf;
	size_t	 len;
	int	 rc;

	if (!link->up)
		return (-1);
	if ((buf = frame_pack(msg, FRAME_MAX_REPLY, &len)) == NULL) {
		log_error("controller %s: cannot encode a message of type %d",
		    link->addr, (int)json_integer_value(json_object_get(msg,
		    "type")));
		return (-1);
	}
	rc = bufferevent_write(link->bev, buf, len);
	free(buf);
	return (rc);
}

bool
node_link_is_up(const struct node_link *link)
{
	return (link->up);
}

void
node_link_free(struct node_link *link)
{
	if (link == NULL)
		return;
	link->up = false;
	if (link->bev != NULL)
		bufferevent_free(link->bev);
	event_free(link->retry);
	if (link->dns != NULL)
		evdns_base_free(link->dns, 0);
	free(link->addr);
	free(link->host);
	free(link->port);
	free(link);
}
