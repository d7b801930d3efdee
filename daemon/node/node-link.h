/* node-link.h: gnoded's connection to gbatchd: one TCP bufferevent carrying
 * frames (common/frame.h), reconnecting with exponential backoff and jitter
 * (100 ms doubling to 5 s), to one of several controllers. The only file that knows about sockets, so TLS
 * (bufferevent_openssl) slots in here. */
#ifndef GB_NODE_LINK_H
#define GB_NODE_LINK_H

#include <stdbool.h>
#include <stddef.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <jansson.h>
#include <openssl/types.h>

struct node_link;

struct node_link_cb {
	/* Connected: the first thing sent must be HELLO. */
	void	(*up)(void *arg);
	/* One decoded message (borrowed). May call node_link_reset(). */
	void	(*message)(const json_t *msg, void *arg);
	/* The connection is gone; a reconnect is scheduled. */
	void	(*down)(void *arg);
	/* The frame asked for by node_link_next_raw, undecoded: header and
	 * body, to be drained by the callee. */
	void	(*raw)(struct evbuffer *frame, void *arg);
};

/* With tls (not NULL), every connection is TLS (daemon/common/tls.h) and
 * the controller's certificate must carry tls_name, or, when tls_name is
 * NULL, the host of the address dialled.
 * addrs are the controllers' "HOST:PORT" (naddrs >= 1), tried in turn:
 * when one fails the next is tried at once, and the backoff is waited
 * after a round in which every one failed. A host name is resolved again
 * on every attempt. Returns a new link (not yet connecting) or NULL with
 * err set. */
struct node_link	*node_link_create(struct event_base *,
			     char *const *addrs, size_t naddrs, SSL_CTX *tls,
			     const char *tls_name,
			     const struct node_link_cb *, void *arg, char *err,
			     size_t errlen);
/* Starts connecting now. Never blocks. */
void			 node_link_start(struct node_link *);
/* Queues msg. Returns 0, or -1 when not connected (nothing is sent). */
int			 node_link_send(struct node_link *, const json_t *msg);
/* Queues the packed frames in frames (drained) as they are, in one write:
 * under TLS every write is a record of its own, so a caller with several
 * frames at hand hands them over together. Returns 0, or -1 when not
 * connected (frames is drained). */
int			 node_link_send_buffer(struct node_link *,
			     struct evbuffer *frames);
/* The next frame is not decoded but handed to cb->raw; it may be as large
 * as a reply (FRAME_MAX_REPLY). */
void			 node_link_next_raw(struct node_link *);
bool			 node_link_is_up(const struct node_link *);
/* Closes the connection (logging why) and schedules a reconnect. */
void			 node_link_reset(struct node_link *, const char *why);
/* Judges the connection that is up again: when the controller's
 * certificate no longer verifies against the trust store now (revoked by
 * a CRL read again, expired), closes it and reconnects (where the
 * handshake refuses it). Runs by itself every minute; gnoded also calls
 * it after a SIGHUP reads the CRL again. */
void			 node_link_recheck(struct node_link *);
/* The controller accepted us: the next reconnect starts at 100 ms again,
 * with this controller. */
void			 node_link_backoff_reset(struct node_link *);
/* Closes the connection for good: no reconnect, no callback. A session
 * stops its link before the last pass of its loop (node_session_free). */
void			 node_link_stop(struct node_link *);
void			 node_link_free(struct node_link *);

#endif
