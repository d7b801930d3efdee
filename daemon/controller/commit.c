/* commit.c: group commit. Handlers write inside one transaction that the
 * first write opens; their replies wait here until it is committed. The
 * question is when to commit.
 *
 * Commit when the loop has nothing else to do. The commit event has the
 * lowest of three priorities, and libevent runs a lower priority only in a
 * pass where no higher one had an event ready; every other event has the
 * middle one (the default). So while requests keep arriving the loop keeps
 * reading and dispatching them into the open transaction, and the moment
 * the sockets run dry it commits: a lone gsub never waits on a timer, and a
 * pipelining client's frames share one fsync as far as its window allows.
 *
 * But a loop that never runs dry would never commit, so a timer bounds the
 * wait: after the first write, the commit runs anyway once as long as the
 * last commit took has passed (at least COMMIT_MIN_DELAY_US, at most
 * COMMIT_MAX_DELAY_US). Waiting as long as an fsync takes at most doubles
 * a request's wait, and lets a slow disk's fsync cover as many requests as
 * arrived during the previous one.
 *
 * Measured on the 2-core development VM (fdatasync 50-400 us) with bench's
 * submit-pipelined (20,000 frames of 1.9 KB, 1,024 in flight): what
 * decided the grouping was the read side. libevent 2.1 reads 4 KiB per
 * callback, two frames, so every commit held 1.8 jobs (2,790 fdatasyncs
 * for 5,000 jobs); peer.c now reads local sockets itself, and commits hold
 * 100-150 jobs. Committing at the end of every loop pass and committing
 * when idle then gave the same rate (the client was the bottleneck, at
 * 22,000-27,000 jobs/s), and a lone client's submit took the same 0.4 ms
 * either way; the idle commit stays because on a disk whose fsync takes
 * milliseconds it lets a whole window of frames share one. A fixed bound
 * of 1 ms measured no different from 2 ms here. */
#include <sys/queue.h>

#include <stdlib.h>
#include <time.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/store.h"

struct commit_item {
	struct peer			*peer;
	struct evbuffer			*frame;
	STAILQ_ENTRY(commit_item)	 entry;
};
STAILQ_HEAD(commit_items, commit_item);

/* A commit shipped to the replicas: its frames wait until a majority
 * holds it, and leave in the order of the commits. */
struct commit_batch {
	struct commit_items		 items;
	bool				 done;
	int				 status;
	STAILQ_ENTRY(commit_batch)	 entry;
};
STAILQ_HEAD(commit_batches, commit_batch);

/* Bounds of how long a write waits for its commit while the loop stays
 * busy (the last commit's duration, within these). */
#define COMMIT_MIN_DELAY_US	1000
#define COMMIT_MAX_DELAY_US	20000
#define COMMIT_PRIORITIES	3
#define COMMIT_PRIORITY_IDLE	(COMMIT_PRIORITIES - 1)

/* The group commit's state. Global: one transaction at a time on the
 * controller's one database, which every write of every module joins. */
static struct {
	struct event		*ev;
	struct event		*timer;
	struct commit_items	 items;
	struct commit_item	*last;	/* the queue's tail */
	struct commit_batches	 shipping;
	long			 delay_us;
	bool			 busy;
	struct commit_hooks	 hooks;
} commit = {
	.items = STAILQ_HEAD_INITIALIZER(commit.items),
	.shipping = STAILQ_HEAD_INITIALIZER(commit.shipping),
	.delay_us = COMMIT_MIN_DELAY_US,
};

static void	commit_cb(evutil_socket_t, short, void *);

void
commit_init(struct event_base *base, const struct commit_hooks *hooks)
{
	commit.hooks = *hooks;
	/* Before any event exists: events made later get the middle
	 * priority, above the commit's. */
	if (event_base_priority_init(base, COMMIT_PRIORITIES) != 0)
		log_warn("commit: cannot set event priorities; committing "
		    "once per loop pass");
	commit.ev = event_new(base, -1, 0, commit_cb, NULL);
	(void)event_priority_set(commit.ev, COMMIT_PRIORITY_IDLE);
	commit.timer = evtimer_new(base, commit_cb, NULL);
}

void
commit_free(void)
{
	struct commit_batch	*b;
	struct commit_item	*ci;

	commit_run();
	/* Shipped and never answered (raft closed first): their peers are
	 * gone. */
	while ((b = STAILQ_FIRST(&commit.shipping)) != NULL) {
		STAILQ_REMOVE_HEAD(&commit.shipping, entry);
		while ((ci = STAILQ_FIRST(&b->items)) != NULL) {
			STAILQ_REMOVE_HEAD(&b->items, entry);
			evbuffer_free(ci->frame);
			free(ci);
		}
		free(b);
	}
	if (commit.ev != NULL)
		event_free(commit.ev);
	if (commit.timer != NULL)
		event_free(commit.timer);
	commit.ev = commit.timer = NULL;
}

void
commit_want(void)
{
	struct timeval	delay = { 0, commit.delay_us };

	if (commit.ev == NULL || commit.busy)
		return;
	if (!event_pending(commit.ev, EV_TIMEOUT, NULL))
		event_active(commit.ev, EV_TIMEOUT, 1);
	if (!evtimer_pending(commit.timer, NULL))
		evtimer_add(commit.timer, &delay);
}

void
commit_priority_idle(struct event *ev)
{
	(void)event_priority_set(ev, COMMIT_PRIORITY_IDLE);
}

bool
commit_pending(void)
{
	return (store_in_txn() || !STAILQ_EMPTY(&commit.items) ||
	    !STAILQ_EMPTY(&commit.shipping));
}

/* The item frames for p go into: the last one when it is p's (frames of
 * one peer in a row share an item, so a pipelined batch costs no
 * allocation per reply), else a new one. */
static struct commit_item *
commit_item_for(struct peer *p)
{
	struct commit_item	*ci;

	if ((ci = commit.last) != NULL && ci->peer == p)
		return (ci);
	ci = xmalloc(sizeof *ci);
	ci->peer = p;
	ci->frame = evbuffer_new();
	STAILQ_INSERT_TAIL(&commit.items, ci, entry);
	commit.last = ci;
	return (ci);
}

void
commit_queue(struct peer *p, struct evbuffer *frame)
{
	evbuffer_add_buffer(commit_item_for(p)->frame, frame);
	commit_want();
}

void
commit_queue_bytes(struct peer *p, const void *data, size_t len)
{
	evbuffer_add(commit_item_for(p)->frame, data, len);
	commit_want();
}

/* Writes the queued frames, or drops them when the commit failed: then
 * their peers are closed, since a reply saying "accepted" would lie and
 * the request is not known any more. */
static void
commit_flush_items(struct commit_items *items, const char *failed)
{
	struct commit_item	*ci;

	while ((ci = STAILQ_FIRST(items)) != NULL) {
		STAILQ_REMOVE_HEAD(items, entry);
		if (failed != NULL)
			commit.hooks.drop(ci->peer, failed);
		else
			commit.hooks.write(ci->peer, ci->frame);
		evbuffer_free(ci->frame);
		free(ci);
	}
}

static void
commit_flush(bool failed)
{
	commit.last = NULL;
	commit_flush_items(&commit.items, failed ?
	    "the store failed to commit" : NULL);
}

/* Writes the frames of the shipped commits a majority holds, oldest
 * first, up to the first still waiting. */
static void
commit_drain(void)
{
	struct commit_batch	*b;

	while ((b = STAILQ_FIRST(&commit.shipping)) != NULL && b->done) {
		STAILQ_REMOVE_HEAD(&commit.shipping, entry);
		commit_flush_items(&b->items, b->status == 0 ? NULL :
		    "the commit did not reach a majority of the replicas");
		free(b);
	}
}

static void
commit_shipped(void *arg, int status)
{
	struct commit_batch	*b = arg;

	b->done = true;
	b->status = status;
	commit_drain();
	commit.hooks.flushed();
	commit.hooks.done();
}

/* The replicas' commit: the frames wait for a majority (replica.h). A
 * commit that wrote nothing ships nothing, but its frames still wait for
 * those before them. */
static void
commit_ship(void)
{
	struct commit_batch	*b = xcalloc(1, sizeof *b);
	void			*cs;
	size_t			 len;

	STAILQ_INIT(&b->items);
	STAILQ_CONCAT(&b->items, &commit.items);
	commit.last = NULL;
	STAILQ_INSERT_TAIL(&commit.shipping, b, entry);
	if ((cs = store_changeset_take(&len)) == NULL)
		b->done = true;
	else {
		if (commit.hooks.ship(cs, len, commit_shipped, b) != 0) {
			b->done = true;
			b->status = -1;
		}
		store_changeset_free(cs);
	}
	commit_drain();
}

void
commit_run(void)
{
	struct timespec	t0, t1;
	char		err[512];
	bool		failed = false, wrote;
	long		took;
	int		rounds;

	commit.busy = true;
	if (commit.ev != NULL) {
		event_del(commit.ev);
		evtimer_del(commit.timer);
	}
	/* A pass may free GPUs for another pass (launch failures end jobs
	 * at once); bound the rounds so a pass never spins. */
	for (rounds = 0; rounds < 4 && commit.hooks.dirty(); rounds++)
		commit.hooks.pass();
	wrote = store_in_txn();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (store_commit(err, sizeof err) != 0) {
		log_error("store: %s", err);
		failed = true;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took = (t1.tv_sec - t0.tv_sec) * 1000000L +
	    (t1.tv_nsec - t0.tv_nsec) / 1000;
	if (wrote)
		metrics_observe_commit_us(took);
	if (took > 0) {
		commit.delay_us = took < COMMIT_MIN_DELAY_US ?
		    COMMIT_MIN_DELAY_US : took > COMMIT_MAX_DELAY_US ?
		    COMMIT_MAX_DELAY_US : took;
	}
	if (!failed && commit.hooks.shipping != NULL &&
	    commit.hooks.shipping())
		commit_ship();
	else
		commit_flush(failed);
	commit.hooks.flushed();
	commit.busy = false;
	if (commit.hooks.dirty())
		commit_want();
	commit.hooks.done();
}

static void
commit_cb(evutil_socket_t fd, short what, void *arg)
{
	commit_run();
}
