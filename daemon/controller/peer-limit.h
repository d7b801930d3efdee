/* peer-limit.h: what connections may hold of gbatchd. Descriptors: per
 * user, in all, and a reserve that only root, operators and node daemons
 * may use, so idle connections of ordinary users never lock out the
 * people who would clean them up. Memory: the bytes of half-received
 * frames across all connections. Time: a frame must arrive whole within
 * controller.frame_timeout, and a client may stay silent between requests
 * for controller.idle_timeout. Rate: a client's requests other than
 * JOB_SUBMIT (bounded by controller.max_pending_per_user and a commit
 * each) pass a token bucket; when it is empty the connection is read no
 * further for a while, so a pipelining client slows down instead of
 * failing.
 * peer.c and listener.c call these hooks; the rules and the bookkeeping
 * live here, and the limits are read from the settings at each use, so a
 * reload changes them at once. This module sits below peer.c: it acts on
 * a peer only through the hooks it is given (peer_limit_init). */
#ifndef GB_CTL_PEER_LIMIT_H
#define GB_CTL_PEER_LIMIT_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

#include <event2/event.h>

struct peer;
struct peer_limit;
struct peer_limits;

/* What the limits do to a peer: close it (why is logged), and read it
 * again once its rate allows (peer_close, peer_resume). */
struct peer_limit_hooks {
	void	(*close)(struct peer *, const char *why);
	void	(*resume)(struct peer *);
};

/* The limits of one controller's connections and their bookkeeping,
 * whose owner (gbatchd.c) makes it before its listeners and gives it to
 * them; hooks is copied. Start it once the store and listeners are open:
 * it raises the descriptor limit to its hard limit, counts the
 * descriptors gbatchd holds besides its connections, and starts the
 * once-a-second sweep (timeouts, memory given back). Free it once every
 * peer is closed. */
struct peer_limits *peer_limit_create(struct event_base *,
	    const struct peer_limit_hooks *hooks);
void	peer_limit_start(struct peer_limits *);
void	peer_limit_free(struct peer_limits *);

/* Whether a new connection may be accepted: local (the Unix socket, uid
 * from the kernel) or a node daemon's (TCP). privileged: root or an
 * operator. May close the longest-silent idle client to make room.
 * Returns 0, or -1 with why set (for the refused peer and the log); *busy
 * tells whether gbatchd as a whole is full (else the user is at its own
 * limit). */
int	peer_limit_admit(struct peer_limits *, bool local, uid_t uid,
	    bool privileged, bool *busy, char *why, size_t len);

/* Bookkeeping for a new peer, freed by peer_limit_gone; addr names it in
 * the log (borrowed: it must outlive the bookkeeping). */
struct peer_limit *peer_limit_new(struct peer_limits *, struct peer *,
	    const char *addr, bool local, uid_t uid);
/* The peer is a node daemon's link: no idle timeout, no request rate, and
 * never closed to make room. */
void	peer_limit_set_node(struct peer_limit *);
/* The peer is closing; unread is what its input still held. */
void	peer_limit_gone(struct peer_limit *, size_t unread);

/* The peer's input holds held bytes short of a whole frame and gbatchd
 * waits for the rest (waiting false: gbatchd stopped reading it, so what
 * is held is not the peer's delay). May close peers, this one included,
 * when half-received frames pass controller.max_buffered_mib. */
void	peer_limit_input(struct peer_limit *, size_t held, bool waiting);
/* A whole request of type arrived. Returns false when the peer's rate is
 * spent: the caller stops reading it, and peer_resume is called once it
 * may go on. */
bool	peer_limit_request(struct peer_limit *, int type);

#endif
