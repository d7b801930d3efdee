/* commit.c: the end-of-pass event. It is made active from inside the read
 * callbacks, so libevent runs it after every callback that was already ready
 * in this pass: all the requests that arrived together share its one commit.
 * See commit.h. */
#include <sys/queue.h>

#include <stdlib.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/gbatchd.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/schedule.h"
#include "daemon/controller/store.h"

struct commit_item {
	struct peer			*peer;
	struct evbuffer			*frame;
	STAILQ_ENTRY(commit_item)	 entry;
};
STAILQ_HEAD(commit_items, commit_item);

static struct event		*commit_ev;
static struct commit_items	 commit_items =
    STAILQ_HEAD_INITIALIZER(commit_items);
static bool			 commit_busy;

static void	commit_cb(evutil_socket_t, short, void *);

void
commit_init(struct event_base *base)
{
	commit_ev = event_new(base, -1, 0, commit_cb, NULL);
}

void
commit_free(void)
{
	commit_run();
	if (commit_ev != NULL)
		event_free(commit_ev);
	commit_ev = NULL;
}

void
commit_want(void)
{
	if (commit_ev != NULL && !commit_busy &&
	    !event_pending(commit_ev, EV_TIMEOUT, NULL))
		event_active(commit_ev, EV_TIMEOUT, 1);
}

bool
commit_pending(void)
{
	return (store_in_txn() || !STAILQ_EMPTY(&commit_items));
}

void
commit_queue(struct peer *p, struct evbuffer *frame)
{
	struct commit_item	*ci;

	ci = xmalloc(sizeof *ci);
	ci->peer = p;
	ci->frame = evbuffer_new();
	evbuffer_add_buffer(ci->frame, frame);
	STAILQ_INSERT_TAIL(&commit_items, ci, entry);
	commit_want();
}

/* Writes the queued frames, or drops them when the commit failed: then
 * their peers are closed, since a reply saying "accepted" would lie and
 * the request is not known any more. */
static void
commit_flush(bool failed)
{
	struct commit_item	*ci;

	while ((ci = STAILQ_FIRST(&commit_items)) != NULL) {
		STAILQ_REMOVE_HEAD(&commit_items, entry);
		if (failed)
			peer_close(ci->peer, "the store failed to commit");
		else
			peer_write_now(ci->peer, ci->frame);
		evbuffer_free(ci->frame);
		free(ci);
	}
}

void
commit_run(void)
{
	char	err[512];
	bool	failed = false;
	int	rounds;

	commit_busy = true;
	/* A pass may free GPUs for another pass (launch failures end jobs
	 * at once); bound the rounds so a pass never spins. */
	for (rounds = 0; rounds < 4 && schedule_is_dirty(); rounds++)
		schedule_run();
	if (store_commit(err, sizeof err) != 0) {
		log_error("store: %s", err);
		failed = true;
	}
	commit_flush(failed);
	peer_close_flushed();
	peer_reap();
	commit_busy = false;
	if (schedule_is_dirty())
		commit_want();
	gbatchd_check_stop();
}

static void
commit_cb(evutil_socket_t fd, short what, void *arg)
{
	commit_run();
}
