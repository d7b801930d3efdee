/* listener-tls.c: a node's TCP connection through its TLS handshake.
 * Nothing it sends is read until its certificate is verified; then it
 * becomes a peer with the node name the certificate proves. Kept apart
 * from listener.c because OpenSSL's headers and the scheduler's cannot
 * meet in one file (<sched.h>'s SCHED_FIFO). */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

#include <openssl/ssl.h>

#include "common/log-limit.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/common/tls.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/listener.h"
#include "daemon/controller/peer.h"

/* A node has this long to finish its TLS handshake: a few round trips
 * and two signatures, milliseconds on any network. */
#define LISTENER_HANDSHAKE_S	3
/* Connections in their handshake are not yet nodes: they have a budget
 * of their own, per source address and in all, so that whoever can open
 * TCP connections cannot take the descriptors kept for nodes, operators
 * and root (peer-limit.c). A gnoded makes one connection at a time. */
#define LISTENER_HS_PER_HOST	8
#define LISTENER_HS_MAX		64
/* How often the same refusal of a handshake is logged again (seconds). */
#define LISTENER_HS_LOG_S	10

/* A TCP connection during its TLS handshake: nothing it sends is read
 * until its certificate is verified. Kept in its listener's list, so that
 * a shutdown during handshakes frees them (listener_tls_free). */
struct listener_tls_hs {
	struct listener_tls		*lt;
	char				*addr;
	char				*host;	/* addr's, without the port */
	struct bufferevent		*bev;
	TAILQ_ENTRY(listener_tls_hs)	 entry;
};
TAILQ_HEAD(listener_tls_hs_list, listener_tls_hs);

/* The TLS side of the nodes' listener: its context, and the connections
 * in their handshake. */
struct listener_tls {
	SSL_CTX				*ctx;
	struct peer_limits		*limits;
	struct listener_tls_hs_list	 pending;
	size_t				 npending;
	/* Failed and refused handshakes, logged once per reason and
	 * interval: anyone can make them as fast as they like. */
	struct log_limit		 refused;
};

struct listener_tls *
listener_tls_create(SSL_CTX *ctx, struct peer_limits *limits)
{
	struct listener_tls	*lt = xcalloc(1, sizeof *lt);

	lt->ctx = ctx;
	lt->limits = limits;
	TAILQ_INIT(&lt->pending);
	return (lt);
}

static void
listener_tls_hs_free(struct listener_tls_hs *hs, struct bufferevent *bev)
{
	TAILQ_REMOVE(&hs->lt->pending, hs, entry);
	hs->lt->npending--;
	if (bev != NULL)
		bufferevent_free(bev);
	free(hs->addr);
	free(hs->host);
	free(hs);
}

void
listener_tls_free(struct listener_tls *lt)
{
	struct listener_tls_hs	*hs;

	if (lt == NULL)
		return;
	while ((hs = TAILQ_FIRST(&lt->pending)) != NULL)
		listener_tls_hs_free(hs, hs->bev);
	free(lt);
}

/* Logs a refused connection, naming the peer and why, once per reason
 * and interval. */
static void
listener_tls_refused(struct listener_tls *lt, const char *addr,
    const char *why)
{
	char	note[LOG_LIMIT_NOTE];

	if (log_limit_pass(&lt->refused, why, ctx_now(), LISTENER_HS_LOG_S,
	    note))
		log_warn("peer %s: refused: %s%s", addr, why, note);
}

/* The handshake ended: a verified node becomes a peer, with the name its
 * certificate proves; anything else is logged, naming the peer, and
 * dropped, having been acted on in nothing. */
static void
listener_tls_hs_cb(struct bufferevent *bev, short what, void *arg)
{
	struct listener_tls_hs	*hs = arg;
	/* A node proven by its certificate: trusted to relay. It was
	 * admitted in the class that keeps its connection when ordinary
	 * users fill the descriptors (listener_accept_cb, peer-limit.c). */
	struct peer_ident	 id = { .local = false, .trusted = true };
	SSL			*ssl = bufferevent_openssl_get_ssl(bev);
	char			 name[256], why[512];
	unsigned long		 e;

	if (what & BEV_EVENT_CONNECTED) {
		if (tls_peer_name(ssl, name, sizeof name) == -1) {
			log_warn("peer %s: refused: its certificate names no "
			    "node", hs->addr);
			listener_tls_hs_free(hs, bev);
			return;
		}
		id.node = name;
		id.controller = tls_peer_is_controller(ssl);
		bufferevent_set_timeouts(bev, NULL, NULL);
		log_debug("peer %s: TLS as node %s", hs->addr, name);
		(void)peer_create(bev, &id, false, hs->addr, hs->lt->limits);
		listener_tls_hs_free(hs, NULL);
		return;
	}
	if (what & BEV_EVENT_TIMEOUT)
		snprintf(why, sizeof why, "no TLS handshake within %d s",
		    LISTENER_HANDSHAKE_S);
	else if ((e = bufferevent_get_openssl_error(bev)) != 0 ||
	    SSL_get_verify_result(ssl) != X509_V_OK)
		tls_error(ssl, e, why, sizeof why);
	else if (what & BEV_EVENT_EOF)
		snprintf(why, sizeof why, "closed during the TLS handshake "
		    "(plain TCP, or our certificate refused)");
	else
		snprintf(why, sizeof why, "TLS handshake failed: %s",
		    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
	listener_tls_refused(hs->lt, hs->addr, why);
	listener_tls_hs_free(hs, bev);
}

bool
listener_tls_peer_ok(struct bufferevent *bev, char *why, size_t len)
{
	SSL	*ssl = bufferevent_openssl_get_ssl(bev);

	return (ssl == NULL || tls_recheck(ssl, why, len) == 0);
}

void
listener_tls_accept(struct listener_tls *lt, struct event_base *base,
    evutil_socket_t fd, const char *addr, const char *host)
{
	struct listener_tls_hs	*hs;
	struct bufferevent	*bev;
	struct timeval		 tv = { LISTENER_HANDSHAKE_S, 0 };
	SSL			*ssl;
	size_t			 mine = 0;
	char			 why[160];

	TAILQ_FOREACH(hs, &lt->pending, entry) {
		if (strcmp(hs->host, host) == 0)
			mine++;
	}
	if (mine >= LISTENER_HS_PER_HOST)
		snprintf(why, sizeof why, "%zu TLS handshakes from %s under "
		    "way, the most taken from one address", mine, host);
	else if (lt->npending >= LISTENER_HS_MAX)
		snprintf(why, sizeof why, "%zu TLS handshakes under way, the "
		    "most taken", lt->npending);
	if (mine >= LISTENER_HS_PER_HOST || lt->npending >= LISTENER_HS_MAX) {
		listener_tls_refused(lt, addr, why);
		evutil_closesocket(fd);
		return;
	}

	if ((ssl = SSL_new(lt->ctx)) == NULL) {
		log_warn("accept %s: cannot set up TLS", addr);
		evutil_closesocket(fd);
		return;
	}
	bev = bufferevent_openssl_socket_new(base, fd, ssl,
	    BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE);
	if (bev == NULL) {
		log_warn("accept %s: cannot set up TLS", addr);
		SSL_free(ssl);
		evutil_closesocket(fd);
		return;
	}
	hs = xcalloc(1, sizeof *hs);
	hs->lt = lt;
	hs->addr = xstrdup(addr);
	hs->host = xstrdup(host);
	hs->bev = bev;
	TAILQ_INSERT_TAIL(&lt->pending, hs, entry);
	lt->npending++;
	log_debug("peer %s: TLS handshake begins", addr);
	bufferevent_setcb(bev, NULL, NULL, listener_tls_hs_cb, hs);
	bufferevent_set_timeouts(bev, &tv, &tv);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
}

