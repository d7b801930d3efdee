/* peer.c: connections. Input is cut into frames here; each message goes to
 * the message hook (req_dispatch, as gbatchd.c wires it). A peer that stops
 * reading its replies stops being read (backpressure), so one slow client
 * cannot grow gbatchd without bound. */
#include <sys/ioctl.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/bufferevent.h>

#include "common/frame.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/common/frame-read.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/peer-limit.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/user.h"

/* Stop reading a peer whose unread replies pass this, resume below the low
 * mark. A 10,000-job listing is a few MB, so this only bites on a client
 * that pipelines without reading. */
#define PEER_OUT_HIGH	(16U << 20)
#define PEER_OUT_LOW	(1U << 20)
/* Read in large gulps: a pipelined client's requests of one pass then
 * share one commit. libevent 2.1 reads at most 4 KiB per callback whatever
 * bufferevent_set_max_single_read says (about two JOB_SUBMIT frames), so
 * peer_read_more reads a local peer's socket itself, up to this much per
 * callback so that one busy client cannot starve the others. */
#define PEER_READ_MAX	(256U << 10)
#define PEER_READ_CHUNK	(64U << 10)
/* Write in large gulps too: libevent writes 16 KiB per pass unless told,
 * so a megabyte frame of gacct took 64 passes of the loop to leave, each
 * perhaps behind the next frame's making, gacct waiting on every one. */
#define PEER_WRITE_MAX	(1U << 20)
/* Relayed clients one node may carry at once: its users' commands, each
 * open for the length of one command. */
#define PEER_RELAY_MAX		256

struct peer {
	struct bufferevent	*bev;
	enum peer_role		 role;
	bool			 local;
	bool			 raw;		/* may read its socket itself */
	bool			 reading;	/* in its read pass */
	/* A local client's replies made in its read pass, written at the
	 * pass's end (peer_release) or put behind a commit. */
	struct evbuffer		*held;
	bool			 dead;
	bool			 closing;	/* close once output is written */
	bool			 paused;	/* backpressure */
	bool			 stopped;	/* shutdown: read nothing more */
	bool			 throttled;	/* over its request rate */
	bool			 operator;
	uid_t			 uid;
	gid_t			 gid;
	char			 user[64];
	char			*addr;
	char			*host;
	char			*cert_name;	/* proven by TLS, or NULL */
	struct node		*node;
	char			*node_name;	/* the node's, once it has one */
	/* A relayed client has no connection of its own: its frames travel
	 * inside its node's link (via), tagged with chan. */
	struct peer		*via;
	uint32_t		 chan;
	/* A node: the peer its next frame is for (a relayed client), set
	 * by the relay envelope that comes before it; and how many relayed
	 * clients it carries. */
	struct peer		*next_for;
	bool			 discard_next;	/* its client was refused */
	unsigned		 nrelayed;
	bool			 trusted;	/* may relay */
	bool			 controller;	/* may be a replica */
	uint64_t		 replica;	/* PEER_REPLICA: its id */
	struct peer_limit	*lim;
	uint64_t		 serial;	/* never reused */
	TAILQ_ENTRY(peer)	 entry;
};
TAILQ_HEAD(peer_list, peer);

/* Every connection, live or dead, and what the controller does with what
 * they send. Global: a peer is found by its serial or its node's name
 * from the floors above, which keep no pointer to it across the loop. */
static struct {
	struct peer_list	 live;
	struct peer_list	 dead;
	uint64_t		 serials;
	struct peer_hooks	 hooks;
} peers = {
	.live = TAILQ_HEAD_INITIALIZER(peers.live),
	.dead = TAILQ_HEAD_INITIALIZER(peers.dead),
};

static void	peer_read_cb(struct bufferevent *, void *);
static void	peer_write_cb(struct bufferevent *, void *);
static void	peer_event_cb(struct bufferevent *, short, void *);

void
peer_init(const struct peer_hooks *hooks)
{
	peers.hooks = *hooks;
}

struct peer *
peer_create(struct bufferevent *bev, const struct peer_ident *id, bool raw,
    const char *addr, struct peer_limits *ls)
{
	struct peer	*p;
	char		*colon;

	p = xcalloc(1, sizeof *p);
	p->bev = bev;
	p->local = id->local;
	p->raw = raw;
	p->trusted = !id->local && id->trusted;
	p->controller = !id->local && id->controller;
	p->uid = id->uid;
	p->gid = id->gid;
	if (id->local) {
		user_name(id->uid, p->user, sizeof p->user);
		p->addr = xasprintf("unix:%s", p->user);
		p->host = xstrdup("localhost");
	} else {
		snprintf(p->user, sizeof p->user, "-");
		p->addr = xstrdup(addr);
		p->host = xstrdup(addr);
		/* Cut the port: "10.0.0.7:51234", "[::1]:51234". */
		if ((colon = strrchr(p->host, ':')) != NULL)
			*colon = '\0';
		if (id->node != NULL)
			p->cert_name = xstrdup(id->node);
	}
	bufferevent_set_max_single_read(p->bev, PEER_READ_MAX);
	bufferevent_set_max_single_write(p->bev, PEER_WRITE_MAX);
	bufferevent_setcb(p->bev, peer_read_cb, peer_write_cb, peer_event_cb,
	    p);
	/* A local client's replies go straight to its socket
	 * (peer_write_local): the loop need not watch it for room from the
	 * start. A new bufferevent has writing enabled without its event
	 * added; what the socket does not take adds it. */
	if (bufferevent_enable(p->bev, raw ? EV_READ : EV_READ | EV_WRITE) !=
	    0) {
		log_warn("peer %s: cannot set up the connection", p->addr);
		bufferevent_free(p->bev);
		free(p->cert_name);
		free(p->addr);
		free(p->host);
		free(p);
		return (NULL);
	}
	p->serial = ++peers.serials;
	TAILQ_INSERT_TAIL(&peers.live, p, entry);
	p->lim = peer_limit_new(ls, p, p->addr, id->local, id->uid);
	log_debug("peer %s: connected", p->addr);
	/* What arrived with the end of a TLS handshake waits in the input
	 * and would raise no callback of its own. A command sends its
	 * requests as it connects: read them now rather than after another
	 * turn of the loop (peer_read_more asks first, and finds nothing if
	 * they have not come yet). */
	if (raw || evbuffer_get_length(bufferevent_get_input(bev)) != 0)
		peer_read_cb(bev, p);
	return (p);
}

enum peer_role peer_role(const struct peer *p) { return (p->role); }

void
peer_set_role(struct peer *p, enum peer_role r)
{
	p->role = r;
	if (r == PEER_NODE || r == PEER_REPLICA)
		peer_limit_set_node(p->lim);
}

bool peer_is_dead(const struct peer *p) { return (p->dead); }
bool peer_is_local(const struct peer *p) { return (p->local); }
uid_t peer_uid(const struct peer *p) { return (p->uid); }
gid_t peer_gid(const struct peer *p) { return (p->gid); }
const char *peer_user(const struct peer *p) { return (p->user); }
bool peer_is_operator(const struct peer *p) { return (p->operator); }
void peer_set_operator(struct peer *p, bool on) { p->operator = on; }
const char *peer_addr(const struct peer *p) { return (p->addr); }
const char *peer_host(const struct peer *p) { return (p->host); }
struct node *peer_node(const struct peer *p) { return (p->node); }
const char *peer_cert_name(const struct peer *p) { return (p->cert_name); }
const char *peer_node_name(const struct peer *p) { return (p->node_name); }

void
peer_set_node(struct peer *p, struct node *n, const char *name)
{
	p->node = n;
	free(p->node_name);
	p->node_name = xstrdup(name);
}

/* Tells node that the connection of its client on chan ends. */
static void
peer_relay_end(struct peer *node, uint32_t chan)
{
	json_t	*env;
	uint8_t	*buf;
	size_t	 len;

	env = json_pack("{s:i, s:I, s:b}", "type", MSG_RELAY_REPLY, "chan",
	    (json_int_t)chan, "close", 1);
	if ((buf = frame_pack(env, FRAME_MAX_REQUEST, &len)) != NULL)
		bufferevent_write(node->bev, buf, len);
	free(buf);
	json_decref(env);
}

static void
peer_relay_close(struct peer *p)
{
	if (p->via != NULL && !p->via->dead)
		peer_relay_end(p->via, p->chan);
}

void
peer_relay_refuse(struct peer *node, uint32_t chan)
{
	if (node->dead)
		return;
	peer_relay_end(node, chan);
	node->discard_next = true;
}

void
peer_close(struct peer *p, const char *why)
{
	struct peer	*q, *next;

	if (p->dead)
		return;
	if (why != NULL)
		log_info("peer %s: closing: %s", p->addr, why);
	else
		log_debug("peer %s: closed", p->addr);
	p->dead = true;
	peers.hooks.gone(p);
	if (p->lim != NULL)
		peer_limit_gone(p->lim, p->bev != NULL ?
		    evbuffer_get_length(bufferevent_get_input(p->bev)) : 0);
	p->lim = NULL;
	if (p->via != NULL) {
		peer_relay_close(p);
		p->via->nrelayed--;
		if (p->via->next_for == p)
			p->via->next_for = NULL;
	} else {
		bufferevent_free(p->bev);
		p->bev = NULL;
	}
	TAILQ_REMOVE(&peers.live, p, entry);
	TAILQ_INSERT_TAIL(&peers.dead, p, entry);
	/* A node's relayed clients go with it. */
	if (p->nrelayed != 0) {
		for (q = TAILQ_FIRST(&peers.live); q != NULL; q = next) {
			next = TAILQ_NEXT(q, entry);
			if (q->via == p)
				peer_close(q, NULL);
		}
	}
	commit_want();
}

/* Bytes written but not yet sent; a relayed client's go out with its
 * node's. */
static size_t
peer_unsent(const struct peer *p)
{
	if (p->via != NULL)
		return (0);
	return (evbuffer_get_length(bufferevent_get_output(p->bev)) +
	    (p->held != NULL ? evbuffer_get_length(p->held) : 0));
}

size_t
peer_backlog(const struct peer *p)
{
	if (p->via != NULL)
		p = p->via;
	return (p->bev != NULL ? peer_unsent(p) : 0);
}

uint64_t
peer_serial(const struct peer *p)
{
	return (p->serial);
}

struct peer *
peer_by_serial(uint64_t serial)
{
	struct peer	*p;

	TAILQ_FOREACH(p, &peers.live, entry) {
		if (p->serial == serial)
			return (p->dead ? NULL : p);
	}
	return (NULL);
}

void
peer_close_after_flush(struct peer *p, const char *why)
{
	if (p->dead || p->closing)
		return;
	log_info("peer %s: closing: %s", p->addr, why);
	p->closing = true;
	if (p->bev != NULL)
		bufferevent_disable(p->bev, EV_READ);
	/* Queued frames reach the output at the commit; the write callback
	 * closes once they are written. */
	if (!commit_pending() && peer_unsent(p) == 0)
		peer_close(p, NULL);
}

void
peer_close_flushed(void)
{
	struct peer	*p, *next;
	bool		 relays;

	for (p = TAILQ_FIRST(&peers.live); p != NULL; p = next) {
		next = TAILQ_NEXT(p, entry);
		if (!p->closing || peer_unsent(p) != 0)
			continue;
		relays = p->nrelayed != 0;
		peer_close(p, NULL);
		/* A node's relayed clients closed with it, and one may have
		 * been next: start again. */
		if (relays)
			next = TAILQ_FIRST(&peers.live);
	}
}

void
peer_reap(void)
{
	struct peer	*p;

	while ((p = TAILQ_FIRST(&peers.dead)) != NULL) {
		TAILQ_REMOVE(&peers.dead, p, entry);
		if (p->held != NULL)
			evbuffer_free(p->held);
		free(p->cert_name);
		free(p->node_name);
		free(p->addr);
		free(p->host);
		free(p);
	}
}

void
peer_free_all(void)
{
	struct peer	*p;

	/* Replies already let go to a local client leave before its
	 * connection does, as far as its socket takes them without
	 * waiting: a stop or a replica's start again (the one that removed
	 * itself answers so) does not swallow them. What waits for a commit
	 * is not among them. */
	TAILQ_FOREACH(p, &peers.live, entry) {
		if (p->local && p->via == NULL && p->bev != NULL)
			(void)evbuffer_write(bufferevent_get_output(p->bev),
			    bufferevent_getfd(p->bev));
	}
	while (!TAILQ_EMPTY(&peers.live))
		peer_close(TAILQ_FIRST(&peers.live), NULL);
	peer_reap();
}

void
peer_stop_reading_all(void)
{
	struct peer	*p;

	TAILQ_FOREACH(p, &peers.live, entry) {
		p->stopped = true;
		if (p->bev != NULL)
			bufferevent_disable(p->bev, EV_READ);
	}
}

void
peer_count(size_t *local, size_t *relayed, size_t *tcp)
{
	struct peer	*p;

	*local = *relayed = *tcp = 0;
	TAILQ_FOREACH(p, &peers.live, entry) {
		if (p->via != NULL)
			(*relayed)++;
		else if (p->local)
			(*local)++;
		else
			(*tcp)++;
	}
}

size_t
peer_recheck(bool (*still_ok)(struct bufferevent *, char *, size_t))
{
	struct peer	*p, **nodes;
	size_t		 n = 0, i, closed = 0;
	char		 why[256], msg[320];

	/* Closing a node closes its relayed clients too, so the walk is
	 * over the nodes taken first, not over the list it changes; a peer
	 * closed meanwhile stays in memory, dead, until peer_reap. */
	TAILQ_FOREACH(p, &peers.live, entry)
		n++;
	nodes = xcalloc(n + 1, sizeof *nodes);
	n = 0;
	TAILQ_FOREACH(p, &peers.live, entry) {
		if (p->cert_name != NULL && p->via == NULL && p->bev != NULL)
			nodes[n++] = p;
	}
	for (i = 0; i < n; i++) {
		p = nodes[i];
		if (p->dead || still_ok(p->bev, why, sizeof why))
			continue;
		log_warn("peer %s: node %s refused: %s; connection closed",
		    p->addr, p->cert_name, why);
		snprintf(msg, sizeof msg, "refused: %s", why);
		peer_close(p, msg);
		closed++;
	}
	free(nodes);
	return (closed);
}

bool
peer_all_flushed(void)
{
	struct peer	*p;

	TAILQ_FOREACH(p, &peers.live, entry) {
		if (peer_unsent(p) != 0)
			return (false);
	}
	return (true);
}

/* Writes frames to a node. Under TLS each piece of an evbuffer becomes a
 * record and a write of its own, so the frames go as one piece. */
static void
peer_write_tcp(struct peer *p, struct evbuffer *frames)
{
	if (p->cert_name != NULL)
		evbuffer_pullup(frames, -1);
	bufferevent_write_buffer(p->bev, frames);
}

/* Writes a relayed client's frames to its node, each behind an envelope
 * naming the client's channel; the frames themselves pass untouched. */
static void
peer_relay_write(struct peer *p, struct evbuffer *frames)
{
	struct evbuffer	*out = evbuffer_new();
	uint8_t		 hdr[FRAME_HEADER], *buf;
	json_t		*env;
	size_t		 n, len;
	char		 err[128];
	long		 body;

	env = json_pack("{s:i, s:I}", "type", MSG_RELAY_REPLY, "chan",
	    (json_int_t)p->chan);
	buf = frame_pack(env, FRAME_MAX_REQUEST, &len);
	json_decref(env);
	while ((n = evbuffer_get_length(frames)) >= FRAME_HEADER) {
		evbuffer_copyout(frames, hdr, sizeof hdr);
		if ((body = frame_header(hdr, FRAME_MAX_REPLY, err,
		    sizeof err)) == -1 || n < FRAME_HEADER + (size_t)body)
			break;
		evbuffer_add(out, buf, len);
		evbuffer_remove_buffer(frames, out, FRAME_HEADER +
		    (size_t)body);
	}
	evbuffer_drain(frames, evbuffer_get_length(frames));
	free(buf);
	peer_write_tcp(p->via, out);
	evbuffer_free(out);
}

/* Writes frames to a local client. Those made while its requests are
 * read wait for the end of that pass, so the replies to what one read
 * brought (HELLO and the request after it) leave together: one write, and
 * one wake-up of the client. Otherwise, when nothing is queued before
 * them, they go straight to the socket, without the loop first waiting to
 * hear that it is writable (two epoll_ctl and a wake-up per reply). What
 * the socket does not take, and any error, is left to the bufferevent,
 * which writes the rest or reports the error as for any write. */
static void
peer_write_local(struct peer *p, struct evbuffer *frames)
{
	if (p->reading) {
		if (p->held == NULL)
			p->held = evbuffer_new();
		evbuffer_add_buffer(p->held, frames);
		return;
	}
	/* A paused peer's replies go through the bufferevent, whose write
	 * callback resumes it once they have left. */
	if (p->raw && !p->paused &&
	    evbuffer_get_length(bufferevent_get_output(p->bev)) == 0)
		(void)evbuffer_write(frames, bufferevent_getfd(p->bev));
	if (evbuffer_get_length(frames) != 0)
		bufferevent_write_buffer(p->bev, frames);
}

/* A frame for p is about to wait for the commit: what p's read pass holds
 * goes before it, in order. */
static void
peer_hold_behind_commit(struct peer *p)
{
	if (p->held != NULL && evbuffer_get_length(p->held) != 0)
		commit_queue(p, p->held);
}

/* The end of p's read pass: what it holds is written, or waits for the
 * commit that one of its requests opened. A peer closing once its replies
 * are out closes now if they all went. */
static void
peer_release(struct peer *p)
{
	p->reading = false;
	if (p->held == NULL || evbuffer_get_length(p->held) == 0)
		return;
	if (p->dead) {
		evbuffer_drain(p->held, evbuffer_get_length(p->held));
		return;
	}
	if (commit_pending()) {
		commit_queue(p, p->held);
		return;
	}
	peer_write_local(p, p->held);
	if (p->closing && peer_unsent(p) == 0)
		peer_close(p, NULL);
}

void
peer_write_now(struct peer *p, struct evbuffer *frame)
{
	if (p->dead || (p->via != NULL && p->via->dead)) {
		evbuffer_drain(frame, evbuffer_get_length(frame));
		return;
	}
	if (p->via != NULL)
		peer_relay_write(p, frame);
	else if (!p->local)
		peer_write_tcp(p, frame);
	else
		peer_write_local(p, frame);
}

void
peer_send_frame(struct peer *p, struct evbuffer *frame)
{
	if (p->dead) {
		evbuffer_drain(frame, evbuffer_get_length(frame));
		return;
	}
	if (commit_pending()) {
		peer_hold_behind_commit(p);
		commit_queue(p, frame);
	} else
		peer_write_now(p, frame);
}

void
peer_send_bytes(struct peer *p, const void *data, size_t len)
{
	struct evbuffer	*frame;

	if (p->dead)
		return;
	if (commit_pending()) {
		peer_hold_behind_commit(p);
		commit_queue_bytes(p, data, len);
	} else if (p->via == NULL && !p->local)
		bufferevent_write(p->bev, data, len);
	else {
		frame = evbuffer_new();
		evbuffer_add(frame, data, len);
		peer_write_now(p, frame);
		evbuffer_free(frame);
	}
}

struct peer *
peer_relayed(struct peer *node, uint32_t chan, uid_t uid, gid_t gid,
    const char **why)
{
	struct peer	*p;

	TAILQ_FOREACH(p, &peers.live, entry) {
		if (p->via == node && p->chan == chan) {
			if (p->uid != uid || p->gid != gid) {
				*why = "a relay channel changed its user";
				return (NULL);
			}
			return (p);
		}
	}
	if (node->nrelayed >= PEER_RELAY_MAX) {
		*why = "too many relayed clients at once";
		return (NULL);
	}
	p = xcalloc(1, sizeof *p);
	p->via = node;
	p->chan = chan;
	p->uid = uid;
	p->gid = gid;
	user_name(uid, p->user, sizeof p->user);
	p->addr = xasprintf("%s via %s", p->user, node->node_name != NULL ?
	    node->node_name : node->addr);
	p->host = xstrdup(node->host);
	node->nrelayed++;
	p->serial = ++peers.serials;
	TAILQ_INSERT_TAIL(&peers.live, p, entry);
	log_debug("peer %s: relayed", p->addr);
	return (p);
}

struct peer *
peer_relayed_find(struct peer *node, uint32_t chan)
{
	struct peer	*p;

	if (node->nrelayed == 0)
		return (NULL);
	TAILQ_FOREACH(p, &peers.live, entry) {
		if (p->via == node && p->chan == chan)
			return (p);
	}
	return (NULL);
}

void
peer_next_frame_for(struct peer *node, struct peer *p)
{
	node->next_for = p;
}

bool peer_is_relayed(const struct peer *p) { return (p->via != NULL); }
bool peer_is_trusted(const struct peer *p) { return (p->trusted); }
bool peer_is_controller(const struct peer *p) { return (p->controller); }
void peer_set_replica(struct peer *p, uint64_t id) { p->replica = id; }
uint64_t peer_replica(const struct peer *p) { return (p->replica); }

void
peer_send(struct peer *p, const json_t *msg)
{
	struct evbuffer	*frame;
	uint8_t		*buf;
	size_t		 len;

	if (p->dead)
		return;
	if ((buf = frame_pack(msg, FRAME_MAX_REPLY, &len)) == NULL) {
		log_error("peer %s: cannot encode a reply", p->addr);
		peer_close(p, "reply too large to encode");
		return;
	}
	frame = evbuffer_new();
	evbuffer_add(frame, buf, len);
	free(buf);
	peer_send_frame(p, frame);
	evbuffer_free(frame);
}

/* Reads what the socket of a local peer holds into its input, at most
 * *budget bytes. Returns whether anything was read. End of file and errors
 * are left in the socket: the bufferevent's own read sees them on the next
 * pass and reports them through peer_event_cb as usual. Only for a plain
 * socket bufferevent (raw): under TLS the socket holds ciphertext. */
static bool
peer_read_more(struct peer *p, size_t *budget)
{
	struct evbuffer		*in = bufferevent_get_input(p->bev);
	struct evbuffer_iovec	 v;
	ssize_t			 n;
	size_t			 want;
	int			 ready;

	if (!p->raw || *budget == 0)
		return (false);
	/* Ask what is there first: a command's socket is usually empty by
	 * now, and reserving a whole chunk for nothing would take 128 KiB of
	 * heap for each connection. End of file and errors show as 0. */
	if (ioctl(bufferevent_getfd(p->bev), FIONREAD, &ready) == -1 ||
	    ready <= 0)
		return (false);
	want = *budget < PEER_READ_CHUNK ? *budget : PEER_READ_CHUNK;
	if ((size_t)ready < want)
		want = (size_t)ready;
	/* The bufferevent freezes the end of its input between its own
	 * reads; thaw it for this one. */
	evbuffer_unfreeze(in, 0);
	if (evbuffer_reserve_space(in, (ev_ssize_t)want, &v, 1) < 1) {
		evbuffer_freeze(in, 0);
		return (false);
	}
	if (v.iov_len > want)
		v.iov_len = want;
	do
		n = recv(bufferevent_getfd(p->bev), v.iov_base, v.iov_len, 0);
	while (n == -1 && errno == EINTR);
	v.iov_len = n > 0 ? (size_t)n : 0;
	evbuffer_commit_space(in, &v, 1);
	evbuffer_freeze(in, 0);
	if (n <= 0)
		return (false);
	*budget -= (size_t)n;
	return (true);
}

/* Tells peer-limit.c what the input holds short of a frame; waiting:
 * whether it is for the peer to send the rest. */
static void
peer_held(struct peer *p, bool waiting)
{
	if (p->lim != NULL)
		peer_limit_input(p->lim,
		    evbuffer_get_length(bufferevent_get_input(p->bev)), waiting);
}

/* Stops reading a peer over its request rate; peer_resume goes on. */
static void
peer_throttle(struct peer *p)
{
	p->throttled = true;
	bufferevent_disable(p->bev, EV_READ);
}

void
peer_resume(struct peer *p)
{
	if (p->dead || !p->throttled)
		return;
	p->throttled = false;
	if (p->paused || p->stopped || p->closing)
		return;
	bufferevent_enable(p->bev, EV_READ);
	peer_read_cb(p->bev, p);
}

/* Cuts whole frames off the input and dispatches them, until the input
 * holds less than a frame (and the socket has nothing more this pass) or
 * the peer is closed, paused or stopped. */
static void
peer_read_frames(struct bufferevent *bev, struct peer *p)
{
	struct peer	*target;
	struct evbuffer	*in = bufferevent_get_input(bev);
	char		 err[256], why[300];
	json_t		*msg;
	size_t		 len, need, budget = PEER_READ_MAX;
	int		 rc;

	while (!p->dead && !p->paused && !p->closing && !p->stopped &&
	    !p->throttled) {
		/* A replica's messages carry raft's snapshots. */
		rc = frame_read_peek(in, p->role == PEER_REPLICA ?
		    FRAME_MAX_REPLY : FRAME_MAX_REQUEST, &len, &need, err,
		    sizeof err);
		if (rc == -1) {
			snprintf(why, sizeof why, "bad frame: %s", err);
			peers.hooks.bad_frame(p, err);
			peer_close(p, why);
			return;
		}
		if (rc == 0) {
			if (peer_read_more(p, &budget))
				continue;
			peer_held(p, true);
			return;
		}
		if ((msg = frame_read_take(in, len, err, sizeof err)) == NULL) {
			snprintf(why, sizeof why, "bad frame: %s", err);
			peers.hooks.bad_frame(p, err);
			peer_close(p, why);
			return;
		}
		if (!peer_limit_request(p->lim, proto_type(msg)))
			peer_throttle(p);
		/* A frame after a relay envelope is its client's. */
		if (p->discard_next)
			p->discard_next = false;
		else if ((target = p->next_for) != NULL) {
			p->next_for = NULL;
			if (!target->dead && !target->closing)
				peers.hooks.message(target, msg);
		} else
			peers.hooks.message(p, msg);
		json_decref(msg);
		if (!p->dead && peer_unsent(p) > PEER_OUT_HIGH) {
			p->paused = true;
			bufferevent_disable(bev, EV_READ);
			bufferevent_setwatermark(bev, EV_WRITE, PEER_OUT_LOW, 0);
			log_debug("peer %s: paused until it reads its replies",
			    p->addr);
		}
	}
	if (!p->dead)
		peer_held(p, false);
}

static void
peer_read_cb(struct bufferevent *bev, void *arg)
{
	struct peer	*p = arg;

	p->reading = true;
	peer_read_frames(bev, p);
	peer_release(p);
}

static void
peer_write_cb(struct bufferevent *bev, void *arg)
{
	struct peer	*p = arg;
	size_t		 left = evbuffer_get_length(bufferevent_get_output(bev));

	if (p->closing && left == 0 && !commit_pending()) {
		peer_close(p, NULL);
		return;
	}
	if (p->paused) {
		p->paused = false;
		bufferevent_setwatermark(bev, EV_WRITE, 0, 0);
		if (!p->stopped && !p->closing && !p->throttled) {
			bufferevent_enable(bev, EV_READ);
			peer_read_cb(bev, p);
		}
	}
	if (left == 0 && p->stopped)
		commit_want();
}

static void
peer_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct peer	*p = arg;
	char		 why[128];
	size_t		 left = evbuffer_get_length(bufferevent_get_input(bev));

	if (what & BEV_EVENT_EOF) {
		if (left != 0) {
			snprintf(why, sizeof why, "connection closed in the "
			    "middle of a frame (%zu bytes unread)", left);
			peer_close(p, why);
		} else if (p->role == PEER_NODE)
			peer_close(p, "node daemon disconnected");
		else
			peer_close(p, NULL);
	} else if (what & BEV_EVENT_ERROR) {
		snprintf(why, sizeof why, "connection error: %s",
		    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
		peer_close(p, why);
	}
}
