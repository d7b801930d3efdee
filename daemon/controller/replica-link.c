/* replica-link.c: the TLS links between replicas (replica.h): one dial
 * to each other replica, made when raft first sends to it, that opens
 * with a HELLO naming this replica and its log's history; the HELLOs
 * other replicas send, checked; raft's messages both ways. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <raft.h>

#include "common/base64.h"
#include "common/frame.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/common/dial.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/replica-io.h"
#include "daemon/controller/replica-link.h"

/* The links: one dial to each other replica, made when raft first sends
 * to it. */

static void
replica_link_up(void *arg)
{
	struct replica_link	*l = arg;
	struct replica_links	*r = l->ls;
	json_t			*hello;

	hello = json_pack("{s:i, s:i, s:s, s:I, s:s, s:s, s:b}", "type",
	    MSG_HELLO, "version", PROTO_VERSION, "role", "replica", "id",
	    (json_int_t)r->id, "address", r->address, "history", r->history,
	    "fresh", raft_last_index(r->raft) == 0);
	(void)dial_send(l->dial, hello);
	json_decref(hello);
}

static void
replica_link_reply(const json_t *msg, void *arg)
{
	struct replica_link	*l = arg;
	const char		*why;

	if (json_is_true(json_object_get(msg, "ok")))
		return;
	why = json_string_value(json_object_get(msg, "message"));
	dial_reset(l->dial, why != NULL ? why : "refused");
}

static const struct dial_cb replica_link_cb = {
	.up = replica_link_up,
	.message = replica_link_reply,
};

static struct replica_link *
replica_link(struct replica_links *r, raft_id id, const char *address)
{
	struct replica_link	*l;
	char			 err[256], *addr;
	size_t			 i;

	for (i = 0; i < r->n; i++) {
		l = r->v[i];
		if (l->id != id)
			continue;
		if (strcmp(l->address, address) == 0)
			return (l);
		/* Added again at another address. */
		dial_free(l->dial);
		free(l->address);
		break;
	}
	if (i == r->n) {
		r->v = xreallocarray(r->v,
		    r->n + 1, sizeof *r->v);
		r->v[r->n++] = xcalloc(1, sizeof *l);
	}
	l = r->v[i];
	l->ls = r;
	l->id = id;
	l->address = xstrdup(address);
	addr = l->address;
	if ((l->dial = dial_create(r->base, &addr, 1, r->tls, NULL,
	    &replica_link_cb, l, err, sizeof err)) == NULL) {
		log_error("replica %" PRIu64 " at %s: %s", (uint64_t)id,
		    address, err);
		free(l->address);
		free(l);
		r->v[i] = r->v[--r->n];
		return (NULL);
	}
	/* From this replica's own address: cutting it off cuts both ways
	 * (a partition), not only what others send it. */
	if (r->source[0] != '\0')
		(void)dial_set_source(l->dial, r->source);
	dial_start(l->dial);
	return (l);
}

/* raft's bytes to replica to, as {"type": RAFT, "m": "BASE64"}, built
 * by hand: a snapshot is the whole store. */
_Static_assert(MSG_RAFT == 113, "replica_link_send writes MSG_RAFT as 113");
int
replica_link_send(raft_id to, const char *address, const uint8_t *buf,
    size_t len, void *arg)
{
	static const char	 head[] = "{\"type\":113,\"m\":\"";
	static const char	 tail[] = "\"}";
	struct replica_links	*r = arg;
	struct replica_link	*l;
	struct evbuffer		*out;
	struct evbuffer_iovec	 v;
	size_t			 text = BASE64_LEN(len), body;
	uint8_t			 hdr[FRAME_HEADER];

	if ((l = replica_link(r, to, address)) == NULL || !dial_is_up(l->dial))
		return (-1);
	body = sizeof head - 1 + text + sizeof tail - 1;
	if (body > FRAME_MAX_REPLY) {
		log_error("replica %" PRIu64 ": a message of %zu bytes is "
		    "larger than a frame", (uint64_t)to, len);
		return (-1);
	}
	hdr[0] = (uint8_t)(body >> 24);
	hdr[1] = (uint8_t)(body >> 16);
	hdr[2] = (uint8_t)(body >> 8);
	hdr[3] = (uint8_t)body;
	out = evbuffer_new();
	evbuffer_add(out, hdr, sizeof hdr);
	evbuffer_add(out, head, sizeof head - 1);
	if (evbuffer_reserve_space(out, (ev_ssize_t)text + 1, &v, 1) != 1) {
		evbuffer_free(out);
		return (-1);
	}
	v.iov_len = base64_encode(buf, len, v.iov_base);
	evbuffer_commit_space(out, &v, 1);
	evbuffer_add(out, tail, sizeof tail - 1);
	if (dial_send_buffer(l->dial, out) == -1) {
		evbuffer_free(out);
		return (-1);
	}
	evbuffer_free(out);
	return (0);
}

const struct raft_server *
replica_link_member(const struct raft *raft, raft_id id)
{
	const struct raft_configuration	*cf = &raft->configuration;
	unsigned			 i;

	for (i = 0; i < cf->n; i++) {
		if (cf->servers[i].id == id)
			return (&cf->servers[i]);
	}
	return (NULL);
}

void
replica_link_free_all(struct replica_links *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++) {
		dial_free(r->v[i]->dial);
		free(r->v[i]->address);
		free(r->v[i]);
	}
	free(r->v);
	free(r->seen);
}

/* What replica id's HELLO said, or NULL. */
static struct replica_seen *
replica_seen_of(const struct replica_links *r, raft_id id)
{
	size_t	i;

	for (i = 0; i < r->nseen; i++) {
		if (r->seen[i].id == id)
			return (&r->seen[i]);
	}
	return (NULL);
}

int64_t
replica_link_heard(const struct replica_links *r, raft_id id)
{
	const struct replica_seen	*s = replica_seen_of(r, id);

	return (s != NULL ? s->heard_ms : -1);
}

/* The address a replica's HELLO gave, or its configuration's. */
static const char *
replica_address_of(struct replica_links *r, raft_id id)
{
	const struct raft_server	*s;
	const struct replica_seen	*seen;

	if ((seen = replica_seen_of(r, id)) != NULL)
		return (seen->address);
	if ((s = replica_link_member(r->raft, id)) != NULL)
		return (s->address);
	return ("");
}

/* What a history is called in a message, into buf. */
static const char *
replica_history_name(const char *history, char *buf, size_t len)
{
	if (history[0] == '\0')
		return ("that of a set started empty");
	snprintf(buf, len, "seeded history %s", history);
	return (buf);
}

/* Whether replica id, whose log continues history (fresh: it holds no
 * entry yet), may talk raft with this one. Logs of two histories, a
 * seeded set's and one started empty, both hold index 1 of term 1 and
 * mean two stores by it: raft cannot tell them apart, so the links
 * between them are refused. A replica that holds nothing yet (added by
 * gctl replica add) takes the history of the first that speaks to it. */
static int
replica_history_check(struct replica_links *r, raft_id id, const char *history,
    bool fresh, char *why, size_t len)
{
	char	a[REPLICA_HISTORY_MAX + 20], b[REPLICA_HISTORY_MAX + 20];

	if (strcmp(history, r->history) == 0 || fresh)
		return (0);
	if (raft_last_index(r->raft) == 0) {
		if (replica_io_set_history(r->io, history) != 0) {
			snprintf(why, len, "replica %" PRIu64 " cannot keep "
			    "its history: %s", (uint64_t)r->id,
			    replica_io_errmsg(r->io));
			log_error("replica: %s", why);
			return (-1);
		}
		snprintf(r->history, sizeof r->history, "%s", history);
		log_info("replica: this replica holds no log yet and takes "
		    "replica %" PRIu64 "'s history, %s", (uint64_t)id,
		    replica_history_name(history, a, sizeof a));
		return (0);
	}
	snprintf(why, len, "replica %" PRIu64 "'s log is %s, replica %"
	    PRIu64 "'s is %s: they cannot form one set. Start every replica "
	    "from the same raft.db (gbatchd --seed, gbatchd(8)), or empty "
	    "the state_dir of the one that is wrong", (uint64_t)id,
	    replica_history_name(history, a, sizeof a), (uint64_t)r->id,
	    replica_history_name(r->history, b, sizeof b));
	log_error("replica: %s", why);
	return (-1);
}

int
replica_link_hello(struct replica_links *r, struct peer *p, const json_t *msg,
    char *why, size_t len)
{
	const json_t	*hv = json_object_get(msg, "history");
	const char	*history;
	const json_t	*idv = json_object_get(msg, "id");
	const char	*address = json_string_value(json_object_get(msg,
			    "address"));
	raft_id		 id;
	struct replica_seen	*seen;

	if (!peer_is_controller(p)) {
		snprintf(why, len, "a replica must prove a controller "
		    "certificate");
		return (-1);
	}
	if (!json_is_integer(idv) || json_integer_value(idv) < 1 ||
	    json_integer_value(idv) > 65535 || address == NULL ||
	    strlen(address) > REPLICA_ADDR_MAX) {
		snprintf(why, len, "id: expected a number from 1 to 65535, "
		    "and address: HOST:PORT");
		return (-1);
	}
	/* A gbatchd from before histories sends none: its set started
	 * empty. */
	history = hv == NULL ? "" : json_string_value(hv);
	if (history == NULL || strlen(history) > REPLICA_HISTORY_MAX ||
	    strspn(history, "0123456789abcdef") != strlen(history)) {
		snprintf(why, len, "history: expected up to %d hex digits",
		    REPLICA_HISTORY_MAX);
		return (-1);
	}
	if ((id = (raft_id)json_integer_value(idv)) == r->id) {
		snprintf(why, len, "replica %" PRIu64 " is this one",
		    (uint64_t)id);
		return (-1);
	}
	if (replica_history_check(r, id, history,
	    json_is_true(json_object_get(msg, "fresh")), why, len) != 0)
		return (-1);
	if ((seen = replica_seen_of(r, id)) == NULL) {
		r->seen = xreallocarray(r->seen, r->nseen + 1,
		    sizeof *r->seen);
		seen = &r->seen[r->nseen++];
		seen->id = id;
		/* Connected is not answering: raft's own messages say
		 * that. */
		seen->heard_ms = -1;
	}
	snprintf(seen->address, sizeof seen->address, "%s", address);
	peer_set_role(p, PEER_REPLICA);
	peer_set_replica(p, (uint64_t)id);
	log_info("replica %" PRIu64 ": connected from %s", (uint64_t)id,
	    peer_addr(p));
	return (0);
}

void
replica_link_message(struct replica_links *r, struct peer *p, const json_t *msg)
{
	const json_t	*m = json_object_get(msg, "m");
	raft_id		 from = (raft_id)peer_replica(p);
	struct replica_seen	*seen;
	uint8_t		*buf;
	long		 n;

	if (!json_is_string(m))
		return;
	if ((seen = replica_seen_of(r, from)) != NULL)
		seen->heard_ms = (int64_t)r->raft->io->time(r->raft->io);
	buf = xmalloc(json_string_length(m) / 4 * 3 + 1);
	if ((n = base64_decode(json_string_value(m), json_string_length(m),
	    buf)) < 0)
		log_warn("replica %" PRIu64 ": a message that is not base64",
		    (uint64_t)from);
	else
		(void)replica_io_recv(r->io, from,
		    replica_address_of(r, from), buf, (size_t)n);
	free(buf);
}
