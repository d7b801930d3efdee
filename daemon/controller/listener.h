/* listener.h: the Unix socket for clients and the TCP listener for node
 * daemons. When accept runs out of descriptors the listener pauses for a
 * second instead of spinning (tmux does the same). */
#ifndef GB_CTL_LISTENER_H
#define GB_CTL_LISTENER_H

#include <sys/socket.h>

#include <openssl/types.h>

#include <stdbool.h>
#include <stddef.h>

#include <event2/event.h>
#include <event2/listener.h>

struct bufferevent;
struct listener;
struct listener_tls;
struct peer_limits;

/* Binds path (mode 0666; the kernel tells who connects). Refuses when
 * another gbatchd answers there. Returns the listener (the caller's, for
 * listener_free), or NULL with err set. */
struct listener *listener_unix(struct event_base *, const char *path,
	    struct peer_limits *limits, char *err, size_t errlen);
/* Binds "HOST:PORT" and writes the address it got ("HOST:PORT\n") to
 * addr_file. Both count their peers in limits (peer-limit.h), whose owner
 * keeps it until the listener is freed. With tls (not NULL), a connection
 * is a peer only once its
 * TLS handshake proved a node's certificate; without, every connection
 * is taken for a node. With port 0, the port addr_file holds from an earlier run is
 * taken again while it is free (node daemons keep dialling it), else any
 * free port. Returns the listener (the caller's), or NULL with err set. */
struct listener *listener_tcp(struct event_base *, const char *hostport,
	    const char *addr_file, SSL_CTX *tls, struct peer_limits *limits,
	    char *err, size_t errlen);
/* listener-tls.c, for the nodes' listener: the TLS side with ctx
 * (borrowed); takes fd, a node's new TCP connection from addr, through
 * the TLS handshake, and makes a peer only for a verified node
 * certificate (anything else is logged and closed); frees it, dropping
 * the connections still in their handshake (NULL: nothing). */
struct listener_tls *listener_tls_create(SSL_CTX *ctx,
	    struct peer_limits *limits);
void	listener_tls_accept(struct listener_tls *, struct event_base *,
	    evutil_socket_t fd, const char *addr, const char *host);
void	listener_tls_free(struct listener_tls *);
/* For peer_recheck: whether the node certificate a connection proved
 * still verifies (tls_recheck), why not in why. A connection without TLS
 * passes. */
bool	listener_tls_peer_ok(struct bufferevent *, char *why, size_t len);
/* Binds a new TCP socket (close-on-exec, SO_REUSEADDR, not yet
 * listening) to host:port, numeric port, and puts its address in ss.
 * Returns the socket, or -1 with *what naming why (a resolver's error) or
 * NULL and errno set. Blocks while host is resolved. */
int	listener_bind(const char *host, const char *port,
	    struct sockaddr_storage *ss, socklen_t *sslen, const char **what);
/* For an evconnlistener's error callback: when accept failed for want of
 * descriptors or memory, stops lev for a second (the caller's backoff
 * timer enables it again) rather than spin; logs the error under what. */
void	listener_accept_failed(struct evconnlistener *lev,
	    struct event *backoff, const char *what);
/* Stops accepting (shutdown). NULL: nothing. */
void	listener_disable(struct listener *);
/* Closes l (and unlinks its Unix socket), drops its connections still in
 * their TLS handshake, and frees it. NULL: nothing. */
void	listener_free(struct listener *l);

#endif
