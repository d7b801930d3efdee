/* replica.c: the controller's replicas on C-raft (replica.h): the state
 * machine over the store, who leads, and membership; the links that
 * carry raft's messages are replica-link.c's. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <raft.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "common/hostport.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/replica-io.h"
#include "daemon/controller/replica-judge.h"
#include "daemon/controller/replica-link.h"
#include "daemon/controller/replica.h"
#include "daemon/controller/store.h"

/* An entry: this magic, then the nonce of the process that shipped it
 * (a leader skips its own entries: its store holds them already), then
 * the changeset. */
#define REPLICA_MAGIC		"GBR1"
#define REPLICA_HEAD		16
/* A follower applies the committed entries it holds this long after the
 * first of them, or at once when they are this many or this large: a
 * large apply holds its loop from answering the leader. Nothing reads a
 * follower's store before it leads (the barrier applies what waits), so
 * the wait costs nothing but memory, and each apply's transaction costs
 * the loop a stall: one submit at a time, 20 ms (about 30 entries a
 * transaction) took 0.73-0.77 ms a submit here, 200 ms 0.66-0.68. The
 * wait is drawn between REPLICA_APPLY_MS and twice that: followers get
 * the same entries at the same time, and with one wait their applies
 * held them all at once, so the leader waited for one of them. */
#define REPLICA_APPLY_MS	100
#define REPLICA_APPLY_BATCH	1024
#define REPLICA_APPLY_BYTES	(256 * 1024)
/* How often who leads is looked at (raft has no callback for it). */
#define REPLICA_WATCH_MS	20
/* A follower whose leader's link closed (its process or host may be
 * gone) stands for election after this long to twice that, not after a
 * whole election timeout; pre-vote keeps it from unseating a leader that
 * the others still hear. */
#define REPLICA_QUICK_MS	150
/* A snapshot keeps an eighth of controller.snapshot_every entries
 * behind it, for followers a little late. */
#define REPLICA_SNAPSHOT_KEEP(every)	((every) / 8)
struct replica_req {
	union {
		struct raft_apply	apply;
		struct raft_change	change;
	} u;
	struct replica	*r;
	replica_done_fn	*done;
	void		*arg;
	raft_id		 id;	/* the server added */
};

/* A replica: its raft server, the state machine over the store, the
 * links to the others and who leads. */
struct replica {
	bool			 led;		/* was leader once */
	bool			 serving;	/* barrier applied, memory built */
	bool			 closed;
	bool			 restarting;
	/* This leader is removing itself (gctl replica remove): it takes
	 * no more requests, and steps down once its removal commits. */
	bool			 leaving;
	int			 election_ms;
	/* The leader whose link closed, while this follower's elections
	 * are quick (REPLICA_QUICK_MS); 0 otherwise. */
	raft_id			 lost_leader;
	uint64_t		 nonce;
	raft_id			 id;
	char			*address;
	unsigned		 inflight;	/* shipped, not yet committed */
	struct event_base	*base;
	struct raft		 raft;
	struct raft_io		 io;
	struct raft_fsm		 fsm;
	struct raft_barrier	 barrier;
	struct event		*watch;
	struct replica_links	 links;
	struct replica_hooks	 hooks;
	/* A follower's committed changesets, applied in one transaction
	 * once its reply to the leader has left (apply_ev): they are the
	 * entries from todo_first to raft's last applied. */
	void			**todo;
	size_t			*todo_lens;
	size_t			 ntodo;
	size_t			 todo_cap;
	size_t			 todo_bytes;
	uint64_t		 todo_first;
	struct event		*apply_ev;
};

static void
replica_restart(struct replica *r, const char *why)
{
	if (r->restarting)
		return;
	r->restarting = true;
	r->serving = false;
	r->hooks.restart(why);
}

/* The state machine: apply, snapshot, restore. */

static void
replica_todo_drop(struct replica *r)
{
	size_t	i;

	for (i = 0; i < r->ntodo; i++)
		free(r->todo[i]);
	r->ntodo = 0;
	r->todo_bytes = 0;
}

/* Applies the entries waiting, in one transaction. Returns 0, or -1
 * with the replica restarting: its store no longer follows the log. */
static int
replica_todo_apply(struct replica *r)
{
	char	err[512];
	int	rc = 0;

	if (r->ntodo == 0)
		return (0);
	if (store_changesets_apply((const void *const *)r->todo, r->todo_lens,
	    r->ntodo, err, sizeof err) != 0) {
		log_error("replica: applying entries %" PRIu64 "-%" PRIu64
		    ": %s", r->todo_first,
		    (uint64_t)raft_last_applied(&r->raft), err);
		replica_restart(r, "an entry of the log could not be applied");
		rc = -1;
	}
	replica_todo_drop(r);
	return (rc);
}

static void
replica_todo_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)replica_todo_apply(arg);
}

/* A committed entry. Raft calls this before a follower answers the
 * entries it was sent, so a follower only keeps the entry here and
 * applies it once the answer has left: a timer that falls due now runs
 * after the writes of this round of the loop (replica-io.c's appends
 * rely on the same order), and entries that arrive together share one
 * transaction. A leader applies at once, after any still waiting. */
static int
replica_fsm_apply(struct raft_fsm *fsm, const struct raft_buffer *buf,
    void **result)
{
	const uint8_t	*b = buf->base;
	struct replica	*r = fsm->data;
	struct timeval	 tv = { 0, 0 };
	size_t		 len;
	uint64_t	 nonce;

	*result = NULL;
	if (buf->len < REPLICA_HEAD || memcmp(b, REPLICA_MAGIC, 4) != 0) {
		log_error("replica: an entry of %zu bytes is not a commit of "
		    "this gbatchd; skipped", buf->len);
		return (0);
	}
	memcpy(&nonce, b + 8, sizeof nonce);
	if (nonce == r->nonce || r->restarting)
		return (0);
	len = buf->len - REPLICA_HEAD;
	if (r->ntodo == r->todo_cap) {
		r->todo_cap = r->todo_cap == 0 ? 16 : r->todo_cap * 2;
		r->todo = xreallocarray(r->todo, r->todo_cap,
		    sizeof *r->todo);
		r->todo_lens = xreallocarray(r->todo_lens, r->todo_cap,
		    sizeof *r->todo_lens);
	}
	if (r->ntodo == 0)
		r->todo_first = (uint64_t)raft_last_applied(&r->raft) + 1;
	r->todo[r->ntodo] = xmalloc(len == 0 ? 1 : len);
	memcpy(r->todo[r->ntodo], b + REPLICA_HEAD, len);
	r->todo_lens[r->ntodo++] = len;
	r->todo_bytes += len;
	if (raft_state(&r->raft) != RAFT_FOLLOWER)
		(void)replica_todo_apply(r);
	else if (r->ntodo == 1) {
		tv.tv_usec = (REPLICA_APPLY_MS +
		    arc4random_uniform(REPLICA_APPLY_MS)) * 1000;
		evtimer_add(r->apply_ev, &tv);
	} else if (r->ntodo >= REPLICA_APPLY_BATCH ||
	    r->todo_bytes >= REPLICA_APPLY_BYTES)
		evtimer_add(r->apply_ev, &tv);
	return (0);
}

static int
replica_fsm_snapshot(struct raft_fsm *fsm, struct raft_buffer *bufs[],
    unsigned *n)
{
	struct raft_buffer	*b;
	void			*image;
	struct replica		*r = fsm->data;
	size_t			 len;
	char			 err[256];

	/* A leader's store is ahead of the log while commits wait for a
	 * majority: an image then would hold what may never be committed. */
	if (r->inflight != 0 || store_in_txn())
		return (RAFT_BUSY);
	if (replica_todo_apply(r) != 0)
		return (RAFT_IOERR);
	if ((image = store_image(&len, err, sizeof err)) == NULL) {
		log_warn("replica: snapshot: %s", err);
		return (RAFT_BUSY);
	}
	b = raft_malloc(sizeof *b);
	b->base = raft_malloc(len);
	b->len = len;
	if (b->base == NULL) {
		raft_free(b);
		store_changeset_free(image);
		return (RAFT_NOMEM);
	}
	memcpy(b->base, image, len);
	store_changeset_free(image);
	*bufs = b;
	*n = 1;
	return (0);
}

static int
replica_fsm_restore(struct raft_fsm *fsm, struct raft_buffer *buf)
{
	struct replica	*r = fsm->data;
	char		 err[512];
	int		 rc;

	/* The entries waiting are older than the snapshot, which holds
	 * them. */
	replica_todo_drop(r);
	rc = store_restore(buf->base, buf->len, err, sizeof err);
	raft_free(buf->base);
	if (rc != 0) {
		log_error("replica: installing a snapshot: %s", err);
		replica_restart(r, "a snapshot could not be installed");
		return (RAFT_IOERR);
	}
	log_info("replica: store installed from a snapshot");
	return (0);
}

/* Who leads: raft says nothing when it changes, so look. */

static void
replica_barrier_cb(struct raft_barrier *req, int status)
{
	struct replica	*r = req->data;

	if (status != 0) {
		log_warn("replica: lost the lead before catching up (%s)",
		    raft_strerror(status));
		return;
	}
	if (replica_todo_apply(r) != 0)
		return;
	log_info("replica %" PRIu64 ": leading, with every committed entry "
	    "applied (up to %" PRIu64 ")", (uint64_t)r->id,
	    (uint64_t)raft_last_applied(&r->raft));
	/* From now on this process's commits are the log's. */
	store_capture(true);
	r->serving = true;
	r->hooks.lead();
}

/* Elections back to controller.election_timeout: a leader is heard
 * again, or this replica leads. */
static void
replica_quick_end(struct replica *r, const char *why)
{
	if (r->lost_leader == 0)
		return;
	log_info("replica %" PRIu64 ": %s; elections wait %d ms again",
	    (uint64_t)r->id, why, r->election_ms);
	r->lost_leader = 0;
	raft_set_election_timeout(&r->raft, (unsigned)r->election_ms);
}

void
replica_peer_gone(struct replica *r, uint64_t id)
{
	struct raft	*raft;
	raft_id		 leader;
	const char	*address;
	raft_time	 now, quick;

	if (r == NULL || r->restarting || r->lost_leader != 0)
		return;
	raft = &r->raft;
	raft_leader(raft, &leader, &address);
	if (raft_state(raft) != RAFT_FOLLOWER || leader == 0 ||
	    leader != (raft_id)id)
		return;
	/* C-raft has no call to stand sooner: the timer it runs is cut
	 * short, and the next ones are short too (a first try the other
	 * follower refuses, still hearing no one yet, comes again soon). */
	quick = REPLICA_QUICK_MS + arc4random_uniform(REPLICA_QUICK_MS);
	now = r->io.time(&r->io);
	if (now - raft->election_timer_start + quick <
	    raft->follower_state.randomized_election_timeout)
		raft->follower_state.randomized_election_timeout =
		    (unsigned)(now - raft->election_timer_start + quick);
	raft_set_election_timeout(raft, REPLICA_QUICK_MS);
	r->lost_leader = leader;
	log_info("replica %" PRIu64 ": the link from the leader, replica %"
	    PRIu64 ", closed; standing for election in %u ms unless it is "
	    "heard again", (uint64_t)r->id, id, (unsigned)quick);
}

static void
replica_watch_cb(evutil_socket_t fd, short what, void *arg)
{
	struct replica	*r = arg;
	int		 state = raft_state(&r->raft);
	raft_id		 leader;
	const char	*address;
	int		 rc;

	(void)fd;
	(void)what;
	if (r->restarting)
		return;
	if (r->lost_leader != 0) {
		raft_leader(&r->raft, &leader, &address);
		if (state == RAFT_LEADER)
			replica_quick_end(r, "elected");
		else if (leader != 0 && leader != r->lost_leader)
			replica_quick_end(r, "another replica leads");
	}
	if (state == RAFT_LEADER && !r->led) {
		r->led = true;
		replica_io_lead(&r->io, true);
		log_info("replica %" PRIu64 ": elected leader in term %" PRIu64,
		    (uint64_t)r->id,
		    (uint64_t)r->raft.current_term);
		r->barrier.data = r;
		if ((rc = raft_barrier(&r->raft, &r->barrier,
		    replica_barrier_cb)) != 0)
			log_warn("replica: barrier: %s", raft_strerror(rc));
	} else if (state != RAFT_LEADER && r->led)
		replica_restart(r, r->leaving ? "this replica left the set" :
		    "this replica lost the lead");
}

bool
replica_configured(const struct conf *c)
{
	return (c->replicas.n > 0);
}

int
replica_wipe(const char *state_dir, bool *had_log, char *err, size_t errlen)
{
	static const char *const names[] = STORE_FILES;
	char	*path;
	size_t	 i;

	/* No raft log yet: the first start, or replicas being turned on
	 * over a controller's own store, which the caller judges. */
	path = xasprintf("%s/raft.db", state_dir);
	*had_log = access(path, F_OK) == 0;
	free(path);
	if (!*had_log)
		return (0);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		path = xasprintf("%s/%s", state_dir, names[i]);
		if (unlink(path) != 0 && errno != ENOENT) {
			snprintf(err, errlen, "cannot remove %s, which a "
			    "replica rebuilds from the log: %s", path,
			    strerror(errno));
			free(path);
			return (-1);
		}
		free(path);
	}
	return (0);
}

/* This replica's id: controller.replica_id, or the place of its listen
 * address in controller.replicas. */
static int
replica_self(struct replica *r, const struct conf *c, char *err,
    size_t errlen)
{
	size_t	i;

	if (c->replica_id != 0) {
		r->id = (raft_id)c->replica_id;
		r->address = xstrdup((size_t)c->replica_id <=
		    c->replicas.n ? c->replicas.v[c->replica_id - 1] :
		    c->listen);
		return (0);
	}
	for (i = 0; i < c->replicas.n; i++) {
		if (strcmp(c->replicas.v[i], c->listen) == 0) {
			r->id = (raft_id)i + 1;
			r->address = xstrdup(c->listen);
			return (0);
		}
	}
	snprintf(err, errlen, "controller.listen (\"%s\") is none of "
	    "controller.replicas: set listen to this replica's address in "
	    "that list, or controller.replica_id to its number", c->listen);
	return (-1);
}

struct replica *
replica_open(struct event_base *base, const struct conf *c, SSL_CTX *tls,
    const struct replica_hooks *hooks, char *err, size_t errlen)
{
	struct replica			*r = xcalloc(1, sizeof *r);
	struct replica_io_transport	 t = { replica_link_send, &r->links };
	struct raft_configuration	 conf;
	struct timeval			 tv = { 0, REPLICA_WATCH_MS * 1000 };
	char				*path, *host, *port;
	size_t				 i;
	int				 rc;

	r->base = base;
	r->hooks = *hooks;
	arc4random_buf(&r->nonce, sizeof r->nonce);
	if (replica_self(r, c, err, errlen) == -1) {
		free(r);
		return (NULL);
	}
	r->links.base = base;
	r->links.tls = tls;
	r->links.raft = &r->raft;
	r->links.io = &r->io;
	r->links.id = r->id;
	r->links.address = r->address;
	if (hostport_split(r->address, 1, &host, &port, err, errlen) == 0) {
		snprintf(r->links.source, sizeof r->links.source, "%s", host);
		free(host);
		free(port);
	}
	path = xasprintf("%s/raft.db", c->state_dir);
	rc = replica_io_init(&r->io, base, path, &t, err, errlen);
	if (rc == 0 && (rc = replica_io_history(&r->io, r->links.history,
	    sizeof r->links.history)) != 0) {
		snprintf(err, errlen, "%s: %s", path,
		    replica_io_errmsg(&r->io));
		replica_io_free(&r->io);
	}
	free(path);
	if (rc != 0) {
		free(r->address);
		free(r);
		return (NULL);
	}
	r->fsm.version = 1;
	r->fsm.data = r;
	r->fsm.apply = replica_fsm_apply;
	r->fsm.snapshot = replica_fsm_snapshot;
	r->fsm.restore = replica_fsm_restore;
	if (raft_init(&r->raft, &r->io, &r->fsm, r->id,
	    r->address) != 0) {
		snprintf(err, errlen, "raft: %s", raft_errmsg(&r->raft));
		replica_io_free(&r->io);
		free(r->address);
		free(r);
		return (NULL);
	}
	r->election_ms = c->election_timeout;
	raft_set_election_timeout(&r->raft, (unsigned)c->election_timeout);
	raft_set_heartbeat_timeout(&r->raft,
	    (unsigned)c->election_timeout / 10);
	raft_set_snapshot_threshold(&r->raft, (unsigned)c->snapshot_every);
	raft_set_snapshot_trailing(&r->raft,
	    (unsigned)REPLICA_SNAPSHOT_KEEP(c->snapshot_every));
	raft_set_pre_vote(&r->raft, true);
	/* The first start of the configured members: each starts with the
	 * same configuration. A member added later starts empty and hears
	 * from the leader. */
	if (r->id <= c->replicas.n && c->replica_id == 0) {
		raft_configuration_init(&conf);
		for (i = 0; i < c->replicas.n; i++)
			(void)raft_configuration_add(&conf, (raft_id)i + 1,
			    c->replicas.v[i], RAFT_VOTER);
		rc = raft_bootstrap(&r->raft, &conf);
		raft_configuration_close(&conf);
		if (rc != 0 && rc != RAFT_CANTBOOTSTRAP) {
			snprintf(err, errlen, "raft: %s",
			    raft_errmsg(&r->raft));
			replica_close(r);
			return (NULL);
		}
	}
	r->apply_ev = evtimer_new(base, replica_todo_cb, r);
	if ((rc = raft_start(&r->raft)) != 0) {
		snprintf(err, errlen, "raft: cannot start from %s/raft.db: %s",
		    c->state_dir, raft_errmsg(&r->raft));
		replica_close(r);
		return (NULL);
	}
	r->raft.data = r;
	r->watch = event_new(base, -1, EV_PERSIST, replica_watch_cb, r);
	event_add(r->watch, &tv);
	log_info("replica %" PRIu64 " of %zu at %s: following until elected",
	    (uint64_t)r->id, c->replicas.n, r->address);
	return (r);
}

static void
replica_closed_cb(struct raft *raft)
{
	struct replica	*r = raft->data;

	r->closed = true;
}

void
replica_close(struct replica *r)
{
	if (r == NULL)
		return;
	/* Commits still waiting are refused to their clients as raft
	 * closes; no start again from here. */
	r->restarting = true;
	r->raft.data = r;
	if (r->watch != NULL)
		event_free(r->watch);
	raft_close(&r->raft, replica_closed_cb);
	while (!r->closed)
		(void)event_base_loop(r->base, EVLOOP_ONCE);
	replica_io_free(&r->io);
	replica_link_free_all(&r->links);
	replica_todo_drop(r);
	free(r->todo);
	free(r->todo_lens);
	if (r->apply_ev != NULL)
		event_free(r->apply_ev);
	free(r->address);
	free(r);
}

bool
replica_serving(const struct replica *r)
{
	return (r == NULL || (r->serving && !r->leaving));
}

bool
replica_leaving(const struct replica *r)
{
	return (r != NULL && r->leaving);
}

bool
replica_shipping(const struct replica *r)
{
	return (r != NULL && r->serving);
}

const char *
replica_leader_address(struct replica *r)
{
	raft_id		 id;
	const char	*address;

	if (r == NULL)
		return (NULL);
	raft_leader(&r->raft, &id, &address);
	return (id == 0 ? NULL : address);
}

void
replica_leader_text(struct replica *r, char *buf, size_t len)
{
	raft_id		 id = 0;
	const char	*address = NULL;

	if (r != NULL)
		raft_leader(&r->raft, &id, &address);
	if (r != NULL && r->leaving)
		snprintf(buf, len, "this replica (%" PRIu64 ") is removing "
		    "itself from the set, and the others elect a leader "
		    "within a few seconds", (uint64_t)r->id);
	else if (r != NULL && (id == 0 || id == r->id) &&
	    replica_link_member(&r->raft, r->id) == NULL)
		snprintf(buf, len, "this replica (%" PRIu64 ") is not a "
		    "member of the set: it was removed, or is not added yet "
		    "(gctl replica list and add, on another replica)",
		    (uint64_t)r->id);
	else if (id == 0 || address == NULL)
		snprintf(buf, len, "no replica leads now (an election is "
		    "under way); try again in a few seconds");
	else if (id == r->id)
		snprintf(buf, len, "this replica (%" PRIu64 ") was just "
		    "elected and is catching up; try again in a moment",
		    (uint64_t)id);
	else
		snprintf(buf, len, "the leader is replica %" PRIu64 " at %s",
		    (uint64_t)id, address);
}

static void
replica_apply_cb(struct raft_apply *req, int status, void *result)
{
	struct replica_req	*q = (struct replica_req *)req;
	struct replica		*r = q->r;

	(void)result;
	r->inflight--;
	q->done(q->arg, status);
	if (status != 0)
		replica_restart(r, "a commit did not reach a majority");
	free(q);
}

int
replica_ship(struct replica *r, const void *changeset, size_t len,
    replica_done_fn *done, void *arg)
{
	struct replica_req	*q;
	struct raft_buffer	 buf;
	int			 rc;

	buf.len = REPLICA_HEAD + len;
	if ((buf.base = raft_malloc(buf.len)) == NULL)
		return (-1);
	memset(buf.base, 0, REPLICA_HEAD);
	memcpy(buf.base, REPLICA_MAGIC, 4);
	memcpy((uint8_t *)buf.base + 8, &r->nonce, sizeof r->nonce);
	memcpy((uint8_t *)buf.base + REPLICA_HEAD, changeset, len);
	q = xcalloc(1, sizeof *q);
	q->r = r;
	q->done = done;
	q->arg = arg;
	if ((rc = raft_apply(&r->raft, &q->u.apply, &buf, 1,
	    replica_apply_cb)) != 0) {
		log_error("replica: shipping a commit: %s",
		    raft_strerror(rc));
		free(q);
		replica_restart(r, "a commit could not be shipped");
		return (-1);
	}
	r->inflight++;
	return (0);
}

int
replica_hello(struct replica *r, struct peer *p, const json_t *msg,
    char *why, size_t len)
{
	if (r == NULL) {
		snprintf(why, len, "this gbatchd has no replicas "
		    "(controller.replicas is not set)");
		return (-1);
	}
	return (replica_link_hello(&r->links, p, msg, why, len));
}

void
replica_message(struct replica *r, struct peer *p, const json_t *msg)
{
	if (r == NULL)
		return;
	if (r->lost_leader != 0 && peer_replica(p) == (uint64_t)r->lost_leader)
		replica_quick_end(r, "the leader is heard again");
	replica_link_message(&r->links, p, msg);
}

/* Whether replica id answers this leader now: itself, or heard from
 * within two election timeouts (replica-judge). */
static bool
replica_answers(struct replica *r, raft_id id, int64_t now)
{
	return (id == r->id || replica_judge_answers(replica_link_heard(
	    &r->links, id), now, r->election_ms));
}

json_t *
replica_list(struct replica *r)
{
	const struct raft_configuration	*cf;
	raft_id				 leader = 0;
	const char			*la;
	json_t				*list = json_array(), *e;
	int64_t				 now;
	unsigned			 i;

	if (r == NULL)
		return (list);
	now = (int64_t)r->io.time(&r->io);
	cf = &r->raft.configuration;
	raft_leader(&r->raft, &leader, &la);
	for (i = 0; i < cf->n; i++) {
		e = json_pack("{s:I, s:s, s:s, s:b, s:b}", "id",
		    (json_int_t)cf->servers[i].id, "address",
		    cf->servers[i].address, "role",
		    cf->servers[i].role == RAFT_VOTER ? "voter" :
		    cf->servers[i].role == RAFT_STANDBY ? "standby" : "spare",
		    "leader", cf->servers[i].id == leader, "self",
		    cf->servers[i].id == r->id);
		/* Only the leader hears from every replica. */
		if (r->serving)
			json_object_set_new(e, "answers", json_boolean(
			    replica_answers(r, cf->servers[i].id, now)));
		json_array_append_new(list, e);
	}
	return (list);
}

/* A membership change: add, then make a voter; or remove. */
static void
replica_change_cb(struct raft_change *req, int status)
{
	struct replica_req	*q = (struct replica_req *)req;

	q->done(q->arg, status);
	free(q);
}

static void
replica_added_cb(struct raft_change *req, int status)
{
	struct replica_req	*q = (struct replica_req *)req;
	int			 rc = 0;

	if (status != 0 || (rc = raft_assign(&q->r->raft, &q->u.change,
	    q->id, RAFT_VOTER, replica_change_cb)) != 0) {
		q->done(q->arg, status != 0 ? status : rc);
		free(q);
	}
}

static int
replica_leads(struct replica *r, char *err, size_t errlen)
{
	char	who[256];

	if (r != NULL && r->serving && !r->leaving)
		return (0);
	if (r == NULL) {
		snprintf(err, errlen, "this gbatchd has no replicas "
		    "(controller.replicas is not set)");
		return (-1);
	}
	replica_leader_text(r, who, sizeof who);
	snprintf(err, errlen, "this replica follows: %s", who);
	return (-1);
}

int
replica_add(struct replica *r, const char *address, uint64_t *id,
    replica_done_fn *done, void *arg, char *err, size_t errlen)
{
	const struct raft_configuration	*cf;
	struct replica_req		*q;
	raft_id				 next = 0;
	unsigned			 i;
	int				 rc;

	if (replica_leads(r, err, errlen) == -1)
		return (-1);
	cf = &r->raft.configuration;
	for (i = 0; i < cf->n; i++) {
		if (strcmp(cf->servers[i].address, address) == 0) {
			snprintf(err, errlen, "replica %" PRIu64 " is at %s "
			    "already", (uint64_t)cf->servers[i].id, address);
			return (-1);
		}
		if (cf->servers[i].id > next)
			next = cf->servers[i].id;
	}
	q = xcalloc(1, sizeof *q);
	q->r = r;
	q->done = done;
	q->arg = arg;
	q->id = next + 1;
	if ((rc = raft_add(&r->raft, &q->u.change, next + 1, address,
	    replica_added_cb)) != 0) {
		snprintf(err, errlen, "%s", raft_strerror(rc));
		free(q);
		return (-1);
	}
	*id = (uint64_t)next + 1;
	return (0);
}

/* Whether the set may lose replica id: a majority of the voters left
 * must answer (replica-judge.h); this leader answers. */
static int
replica_may_remove(struct replica *r, raft_id id, char *err, size_t errlen)
{
	const struct raft_configuration	*cf = &r->raft.configuration;
	struct replica_judge_voter	*v;
	int64_t				 now = (int64_t)r->io.time(&r->io);
	size_t				 n = 0;
	unsigned			 i;
	int				 rc;

	v = xcalloc(cf->n + 1, sizeof *v);
	for (i = 0; i < cf->n; i++) {
		if (cf->servers[i].role != RAFT_VOTER)
			continue;
		v[n].id = (uint64_t)cf->servers[i].id;
		v[n++].answers = replica_answers(r, cf->servers[i].id, now);
	}
	rc = replica_judge_remove(v, n, (uint64_t)id, err, errlen);
	free(v);
	return (rc);
}

int
replica_remove(struct replica *r, uint64_t id, replica_done_fn *done,
    void *arg, char *err, size_t errlen)
{
	struct replica_req	*q;
	int			 rc;

	if (replica_leads(r, err, errlen) == -1)
		return (-1);
	if (replica_link_member(&r->raft, (raft_id)id) == NULL) {
		snprintf(err, errlen, "no replica %" PRIu64 "; gctl replica "
		    "list shows them", id);
		return (-1);
	}
	if (replica_may_remove(r, (raft_id)id, err, errlen) != 0)
		return (-1);
	q = xcalloc(1, sizeof *q);
	q->r = r;
	q->done = done;
	q->arg = arg;
	if ((rc = raft_remove(&r->raft, &q->u.change, (raft_id)id,
	    replica_change_cb)) != 0) {
		snprintf(err, errlen, "%s", raft_strerror(rc));
		free(q);
		return (-1);
	}
	/* The leader itself: raft steps it down once the others commit the
	 * configuration without it, and it starts again (replica_watch_cb)
	 * outside the set; until then it takes no request, so that none is
	 * left between its removal and its step-down. */
	if ((raft_id)id == r->id) {
		r->leaving = true;
		log_info("replica %" PRIu64 ": removing itself from the set; "
		    "it steps down once the others commit that", id);
	}
	return (0);
}
