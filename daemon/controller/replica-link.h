/* replica-link.h: the TLS links between a controller's replicas: raft's
 * messages out over a dial to each other replica, and in from the peers
 * that said HELLO as replicas. */
#ifndef GB_CTL_REPLICA_LINK_H
#define GB_CTL_REPLICA_LINK_H

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>
#include <jansson.h>
#include <openssl/types.h>
#include <raft.h>

struct peer;

/* The longest history name (a seed's is 32 hex digits). */
#define REPLICA_HISTORY_MAX	64
/* The longest address raft is given. */
#define REPLICA_ADDR_MAX	255

/* A link to another replica: raft's messages to it leave here. */
struct replica_link {
	struct replica_links	*ls;
	raft_id		 id;
	char		*address;
	struct dial	*dial;
};

/* A replica's address as its HELLO gave it, for raft's replies to a
 * server not yet in the configuration, and when it was last heard from
 * (a monotonic clock, ms). */
struct replica_seen {
	raft_id		 id;
	int64_t		 heard_ms;
	char		 address[REPLICA_ADDR_MAX + 1];
};

/* What the links know of the replica they belong to (part of struct
 * replica, which fills the first fields at its start). */
struct replica_links {
	struct event_base	*base;
	SSL_CTX			*tls;
	struct raft		*raft;
	struct raft_io		*io;
	raft_id			 id;
	const char		*address;
	char			 source[REPLICA_ADDR_MAX + 1];	/* its host */
	/* raft.db's history: "" for a set that started empty, else the
	 * seed's name (gbatchd --seed). */
	char			 history[REPLICA_HISTORY_MAX + 1];
	struct replica_link	**v;	/* each its own: dials point at it */
	size_t			 n;
	struct replica_seen	*seen;
	size_t			 nseen;
};

/* A HELLO with role "replica" from p: its id, address and history (a
 * replica of another history is refused; this one, holding no log yet,
 * takes the history of the first that speaks to it). Returns 0, or -1
 * with why set (p is refused). */
int	replica_link_hello(struct replica_links *, struct peer *, const json_t *msg,
	    char *why, size_t len);
/* A RAFT frame from a replica peer: raft's message, base64 in "m". */
void	replica_link_message(struct replica_links *, struct peer *,
	    const json_t *msg);

/* raft's bytes to replica to (replica_io's transport; arg is the
 * replica's links): 0 once queued on its link, -1 when it is not up. */
int	replica_link_send(raft_id to, const char *address, const uint8_t *buf,
	    size_t len, void *arg);
/* Frees the links and what HELLOs said, at replica_close. */
void	replica_link_free_all(struct replica_links *);
/* When replica id's last raft message came (a HELLO is a connection,
 * not an answer), on raft's clock (its io->time, ms), or -1 for never. */
int64_t	replica_link_heard(const struct replica_links *, raft_id id);
/* Server id of raft's configuration, or NULL. */
const struct raft_server *replica_link_member(const struct raft *, raft_id);

#endif
