/* peer.h: one connection to gbatchd, a client on the Unix socket or a node
 * daemon on TCP. The peer knows frames only: it is given a ready
 * bufferevent (plain for the Unix socket, TLS for TCP) and the identity its
 * maker proved (the uid the kernel gave for a Unix socket, the node name a
 * certificate carries), splits its input into frames and hands each
 * message, with that identity, to the message hook (req.c's dispatch). It
 * calls nothing above it: what a message, a bad frame or a closed
 * connection means to the rest of the controller is for the hooks that
 * the composition root registers (peer_init).
 * A peer that misbehaves is closed alone: marked dead at once and freed at
 * the end of the loop pass, so callbacks up the stack never see it freed. */
#ifndef GB_CTL_PEER_H
#define GB_CTL_PEER_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <jansson.h>

enum peer_role {
	PEER_NEW,	/* no HELLO yet */
	PEER_CLIENT,
	PEER_NODE,
	PEER_REPLICA,	/* another replica of a replicated controller */
};

struct peer;
struct peer_limits;
struct node;

struct bufferevent;

/* Who is at the other end, as proved by whoever accepted the connection. */
struct peer_ident {
	bool		 local;		/* the Unix socket */
	uid_t		 uid;		/* local: from SO_PEERCRED */
	gid_t		 gid;
	const char	*node;		/* TCP: the name its certificate
					 * proves; NULL when the link is
					 * not authenticated */
	bool		 trusted;	/* TCP: a certificate was verified
					 * (or the admin turned TLS off):
					 * the peer may relay its users */
	bool		 controller;	/* TCP: the certificate is a
					 * controller's (or TLS is off): it
					 * may be another replica */
};

/* What the controller does with what peers send, registered once at
 * start-up (gbatchd.c). */
struct peer_hooks {
	/* A whole message from p (for a node's frame after a relay
	 * envelope: from the relayed client). */
	void	(*message)(struct peer *p, const json_t *msg);
	/* p sent something that is not a frame, err says what; p is closed
	 * after. */
	void	(*bad_frame)(struct peer *p, const char *err);
	/* p is closing: what holds it (its sessions, its node) lets go. p
	 * is not freed before the end of the loop pass. */
	void	(*gone)(struct peer *p);
};

/* Sets the hooks (copied) for every peer made from now on. */
void		 peer_init(const struct peer_hooks *);

/* Takes bev (the peer owns and frees it from here), which must be ready
 * for frames: connected, and past any TLS handshake. raw: bev is a plain
 * socket bufferevent the peer may read past (Unix socket). addr: how to
 * name the peer in logs. ls: the limits it counts in (peer-limit.h), its
 * listener's. Returns NULL when bev cannot be set up (it is freed). */
struct peer	*peer_create(struct bufferevent *bev, const struct peer_ident *,
		     bool raw, const char *addr, struct peer_limits *ls);

/* Sends msg (not stolen). While a commit is pending the frame waits in the
 * commit queue, so nothing reaches a peer before what it reports is on
 * disk, and replies keep request order. */
void		 peer_send(struct peer *, const json_t *msg);
/* Same for an already packed frame; frame is drained. */
void		 peer_send_frame(struct peer *, struct evbuffer *frame);
/* Same for len bytes of packed frames at data (copied). */
void		 peer_send_bytes(struct peer *, const void *data, size_t len);
/* Writes a frame now, bypassing the commit queue (commit.c's flush). */
void		 peer_write_now(struct peer *, struct evbuffer *frame);

/* Closes the peer now (why is logged); it is freed by peer_reap. */
void		 peer_close(struct peer *, const char *why);
/* Stops reading and closes once what was sent has been written. */
void		 peer_close_after_flush(struct peer *, const char *why);
/* Closes the closing peers whose output is all written (after a flush). */
void		 peer_close_flushed(void);
/* Frees dead peers; call only when no frame for them is queued. */
void		 peer_reap(void);
/* Reads the peer again after its request rate allowed no more
 * (peer-limit.c), unless something else stopped it meanwhile. */
void		 peer_resume(struct peer *);
/* Stops reading from every peer (shutdown). */
void		 peer_stop_reading_all(void);
/* Bytes sent to p and not yet written to its connection (a relayed
 * client's: its node's), for requests that stream a long reply. */
size_t		 peer_backlog(const struct peer *);
/* A number naming p for as long as gbatchd runs, never reused: what a
 * reply that spans loop passes holds instead of the pointer. */
uint64_t	 peer_serial(const struct peer *);
/* The live peer with that serial, or NULL once it is gone. */
struct peer	*peer_by_serial(uint64_t);
/* Open connections: clients on the Unix socket, clients relayed by node
 * daemons, and TCP connections (node daemons). */
void		 peer_count(size_t *local, size_t *relayed, size_t *tcp);
/* Whether every peer's output has been written. */
bool		 peer_all_flushed(void);
void		 peer_free_all(void);

enum peer_role	 peer_role(const struct peer *);
void		 peer_set_role(struct peer *, enum peer_role);
bool		 peer_is_dead(const struct peer *);
bool		 peer_is_local(const struct peer *);
uid_t		 peer_uid(const struct peer *);
gid_t		 peer_gid(const struct peer *);
/* The user's name, or the uid in decimal when it has none. */
const char	*peer_user(const struct peer *);
bool		 peer_is_operator(const struct peer *);
void		 peer_set_operator(struct peer *, bool);
/* "unix:alice" or "10.0.0.7:51234". */
const char	*peer_addr(const struct peer *);
/* The host part of a TCP peer's address. */
const char	*peer_host(const struct peer *);
struct node	*peer_node(const struct peer *);
/* A client relayed by the node daemon at node (its local users' commands,
 * DESIGN.md "Who may do what"): the one on channel chan, made on its first
 * frame with the uid and gid the node vouches for. Its replies go to the
 * node, each behind an envelope naming chan. Returns NULL with *why when
 * the node carries too many, or chan's user changed. */
struct peer	*peer_relayed(struct peer *node, uint32_t chan, uid_t uid,
		     gid_t gid, const char **why);
/* The relayed client on chan, or NULL. */
struct peer	*peer_relayed_find(struct peer *node, uint32_t chan);
/* The next frame node sends is p's (the relay envelope came first). */
void		 peer_next_frame_for(struct peer *node, struct peer *p);
bool		 peer_is_relayed(const struct peer *);
/* Tells node its client on chan is refused, and drops the frame that
 * follows the envelope. */
void		 peer_relay_refuse(struct peer *node, uint32_t chan);
/* The id of the replica at the other end (PEER_REPLICA). */
void		 peer_set_replica(struct peer *, uint64_t id);
uint64_t	 peer_replica(const struct peer *);
/* Whether the peer's certificate is a controller's (peer_ident). */
bool		 peer_is_controller(const struct peer *);
/* Whether a node peer may relay its users' commands (peer_ident.trusted). */
bool		 peer_is_trusted(const struct peer *);
/* The node name the peer's certificate proves, or NULL. */
const char	*peer_cert_name(const struct peer *);
/* Judges again every live connection whose certificate proved a node:
 * still_ok says of its connection whether that certificate still holds
 * (listener-tls.c's, which knows TLS: revoked or expired since the
 * handshake), and a connection it refuses is closed, its relayed clients
 * with it, with a log line naming the peer and why. Returns how many were
 * closed. */
size_t		 peer_recheck(bool (*still_ok)(struct bufferevent *, char *why,
		    size_t len));
/* The node whose daemon is at the other end, and its name (copied);
 * peer_node_name is NULL until it has one. */
const char	*peer_node_name(const struct peer *);
void		 peer_set_node(struct peer *, struct node *, const char *name);

#endif
