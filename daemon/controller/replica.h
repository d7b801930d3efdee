/* replica.h: a controller replicated on a Raft log (C-raft, over
 * replica-io.c). Every replica keeps the same SQLite store: the leader's
 * group commit ships the changeset each commit wrote (store-log.c) as one
 * log entry, and a commit's replies leave only once a majority holds it;
 * every other replica applies the entries in log order. One replica
 * leads: it schedules, talks to the nodes and answers the clients. The
 * others answer that they follow, naming the leader.
 *
 * A replica's own store is never trusted at start: it may hold a lost
 * leader's writes that no majority took. So it starts from an empty store
 * and rebuilds it from raft's snapshot and log; and a leader that loses
 * the lead starts again (its store and its memory may both be ahead of
 * the log). A replica that wins an election first applies every entry
 * committed before (a barrier), then builds its memory from the store
 * as a start does, and serves.
 *
 * The replicas talk over the nodes' TCP listener: each dials every other
 * (daemon/common/dial.h), says HELLO with role "replica" and its id, and
 * sends raft's messages (raft-wire.c) as REPLICA frames; under TLS both
 * ends prove a controller certificate. */
#ifndef GB_CTL_REPLICA_H
#define GB_CTL_REPLICA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>
#include <jansson.h>
#include <openssl/types.h>

struct conf;
struct peer;

/* What replication tells the controller above it (gbatchd.c). */
struct replica_hooks {
	/* This replica leads, and its store holds every entry committed
	 * before: build the memory from it and serve. */
	void	(*lead)(void);
	/* This replica may not go on as it is (it lost the lead, or an
	 * entry could not be applied): start the process again. */
	void	(*restart)(const char *why);
};

/* Called with a shipped commit's outcome: 0 once a majority holds it,
 * else a raft error (the replies must not leave). */
typedef void	replica_done_fn(void *arg, int status);

struct replica;

/* Whether c asks for replicas (controller.replicas). */
bool	 replica_configured(const struct conf *c);
/* Clears the store's files in state_dir before store_open when raft's
 * log is there (*had_log): a replica rebuilds them from it. Without one
 * (a first start) the store is left for the caller to judge: one that
 * holds jobs is a controller's own, which replicas would not keep.
 * Returns 0, or -1 with err set. */
int	 replica_wipe(const char *state_dir, bool *had_log, char *err,
	     size_t errlen);
/* Starts raft on base: raft's state in state_dir/raft.db, links to the
 * other replicas with tls (NULL: plain TCP, tls.enabled false). The
 * store must be open. Returns the replica, or NULL with err set. */
struct replica *replica_open(struct event_base *, const struct conf *,
	     SSL_CTX *tls, const struct replica_hooks *, char *err,
	     size_t errlen);
/* Closes raft (running the loop until it has) and the links; commits
 * still waiting are refused. NULL is nothing. */
void	 replica_close(struct replica *);

/* The functions below take NULL for a controller without replicas. */

/* Whether this replica leads and serves (true without replicas). */
bool	 replica_serving(const struct replica *);
/* Whether this replica, leading, removes itself from the set: it takes
 * no more requests, and steps down once the removal commits. */
bool	 replica_leaving(const struct replica *);
/* Whether commits are shipped and wait for a majority. */
bool	 replica_shipping(const struct replica *);
/* Writes into buf who leads, for a follower's refusal ("the leader is
 * replica 2 at ctl2:6820", or that an election is under way). */
void	 replica_leader_text(struct replica *, char *buf, size_t len);
/* The leader's address, or NULL when none is known. */
const char *replica_leader_address(struct replica *);

/* The leader ships len bytes of changeset (copied) as one entry; done
 * runs with its outcome, later, from the loop. Returns 0, or -1 when
 * raft refused it at once (done is not called; the process starts
 * again). */
int	 replica_ship(struct replica *, const void *changeset, size_t len,
	     replica_done_fn *, void *arg);

/* A HELLO with role "replica" from p (replica-link.h): its id, address
 * and history. Returns 0, or -1 with why set (p is refused); r NULL (no
 * replicas here) refuses. */
int	 replica_hello(struct replica *, struct peer *, const json_t *msg,
	     char *why, size_t len);
/* A RAFT frame from a replica peer: raft's message, base64 in "m". */
void	 replica_message(struct replica *, struct peer *, const json_t *msg);
/* A replica peer's connection closed (id: peer_replica). When it came
 * from the leader this follower stands for election soon (a killed
 * leader's links close at once), not after a whole election timeout. */
void	 replica_peer_gone(struct replica *, uint64_t id);
/* The members, their roles and who leads, for gctl replica list. */
json_t	*replica_list(struct replica *);
/* gctl replica add ADDRESS (the next free id) and remove ID, on the
 * leader: done runs once the change is committed. A removal is refused
 * when a majority of the voters left would not answer (replica-judge.h);
 * the leader may remove itself (replica_leaving). Returns 0 (add: with
 * *id set), or -1 with err. */
int	 replica_add(struct replica *, const char *address, uint64_t *id,
	     replica_done_fn *, void *arg, char *err, size_t errlen);
int	 replica_remove(struct replica *, uint64_t id, replica_done_fn *,
	     void *arg, char *err, size_t errlen);

#endif
