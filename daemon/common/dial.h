/* dial.h: a connection a daemon dials out to a controller: one TCP
 * bufferevent carrying frames (common/frame.h), reconnecting with
 * exponential backoff and jitter (100 ms doubling to 5 s), to one of
 * several controllers. gnoded's link to gbatchd, and a controller
 * replica's to each other replica (replica.c). The only file of either
 * that knows about outgoing sockets, so TLS (bufferevent_openssl) slots
 * in here. */
#ifndef GB_DIAL_H
#define GB_DIAL_H

#include <stdbool.h>
#include <stddef.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <jansson.h>
#include <openssl/types.h>

struct dial;

struct dial_cb {
	/* Connected: the first thing sent must be HELLO. */
	void	(*up)(void *arg);
	/* One decoded message (borrowed). May call dial_reset(). */
	void	(*message)(const json_t *msg, void *arg);
	/* The connection is gone; a reconnect is scheduled. */
	void	(*down)(void *arg);
	/* The frame asked for by dial_next_raw, undecoded: header and
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
struct dial	*dial_create(struct event_base *,
			     char *const *addrs, size_t naddrs, SSL_CTX *tls,
			     const char *tls_name,
			     const struct dial_cb *, void *arg, char *err,
			     size_t errlen);
/* Connections leave from host (a numeric address, port 0), as a replica
 * leaves from its own listening address, so that cutting that address
 * off cuts both ways. Returns 0, or -1 when host is not a numeric address
 * (the kernel then chooses). */
int			 dial_set_source(struct dial *, const char *host);
/* Starts connecting now. Never blocks. */
void			 dial_start(struct dial *);
/* Queues msg. Returns 0, or -1 when not connected (nothing is sent). */
int			 dial_send(struct dial *, const json_t *msg);
/* Queues the packed frames in frames (drained) as they are, in one write:
 * under TLS every write is a record of its own, so a caller with several
 * frames at hand hands them over together. Returns 0, or -1 when not
 * connected (frames is drained). */
int			 dial_send_buffer(struct dial *,
			     struct evbuffer *frames);
/* The next frame is not decoded but handed to cb->raw; it may be as large
 * as a reply (FRAME_MAX_REPLY). */
void			 dial_next_raw(struct dial *);
bool			 dial_is_up(const struct dial *);
/* Closes the connection (logging why) and schedules a reconnect. */
void			 dial_reset(struct dial *, const char *why);
/* Judges the connection that is up again: when the controller's
 * certificate no longer verifies against the trust store now (revoked by
 * a CRL read again, expired), closes it and reconnects (where the
 * handshake refuses it). Runs by itself every minute; gnoded also calls
 * it after a SIGHUP reads the CRL again. */
void			 dial_recheck(struct dial *);
/* The controller accepted us: the next reconnect starts at 100 ms again,
 * with this controller. */
void			 dial_backoff_reset(struct dial *);
/* Closes the connection for good: no reconnect, no callback. A session
 * stops its link before the last pass of its loop (node_session_free). */
void			 dial_stop(struct dial *);
void			 dial_free(struct dial *);

#endif
