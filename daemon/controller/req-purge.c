/* req-purge.c: PURGE (gctl purge, operators; docs/protocol.md, 107): delete
 * the finished jobs that ended before a time, as the automatic retention
 * does (purge.h). The last reply waits until the last batch is committed,
 * so the count it gives is what went; the controller serves everyone else
 * meanwhile. A million jobs take longer than a command waits for a reply
 * (--timeout), so until then a reply with "more" reports the count every
 * REQ_PURGE_PROGRESS seconds, as JOB_ACCT's frames do. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <event2/event.h>

#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/purge.h"
#include "daemon/controller/req.h"

#define REQ_PURGE_PROGRESS	2

/* Who asked, for the replies while the purge runs. */
struct req_purge {
	uint64_t			 peer;	/* peer_serial: it may go */
	json_t				*req;	/* its type and seq */
	const struct purge_result	*res;
	struct event			*progress;
};

/* Sends the counts so far; more: the purge goes on. */
static void
req_purge_send(struct peer *p, const struct req_purge *rp,
    const struct purge_result *res, bool more)
{
	json_t	*reply = proto_reply_ok(rp->req);

	json_object_set_new(reply, "more", json_boolean(more));
	json_object_set_new(reply, "before",
	    json_integer((json_int_t)res->cutoff));
	json_object_set_new(reply, "dry_run", json_boolean(res->dry_run));
	json_object_set_new(reply, "jobs", json_integer((json_int_t)res->jobs));
	json_object_set_new(reply, "node_events",
	    json_integer((json_int_t)res->node_events));
	peer_send(p, reply);
	json_decref(reply);
}

static void
req_purge_progress_cb(evutil_socket_t fd, short what, void *arg)
{
	struct req_purge	*rp = arg;
	struct timeval		 tv = { REQ_PURGE_PROGRESS, 0 };
	struct peer		*p;

	(void)fd;
	(void)what;
	/* Nobody to tell: the purge goes on all the same. */
	if ((p = peer_by_serial(rp->peer)) == NULL)
		return;
	req_purge_send(p, rp, rp->res, true);
	evtimer_add(rp->progress, &tv);
}

static void
req_purge_done_cb(const struct purge_result *res, void *arg)
{
	struct req_purge	*rp = arg;
	struct peer		*p;

	if ((p = peer_by_serial(rp->peer)) == NULL)
		goto out;
	if (res->failed)
		req_error(p, rp->req, PROTO_E_INTERNAL, "the store failed after "
		    "%zu jobs were deleted; see gbatchd's log", res->jobs);
	else if (res->stopped)
		req_error(p, rp->req, PROTO_E_SHUTTING_DOWN, "gbatchd stopped "
		    "after %zu jobs were deleted", res->jobs);
	else
		req_purge_send(p, rp, res, false);
out:
	if (rp->progress != NULL)
		event_free(rp->progress);
	json_decref(rp->req);
	free(rp);
}

static void
req_purge(struct peer *p, const json_t *msg)
{
	struct req_purge	*rp;
	struct timeval		 tv = { REQ_PURGE_PROGRESS, 0 };
	json_t			*before, *dry, *seq;
	char			 who[300], target[64];
	bool			 dry_run;

	before = json_object_get(msg, "before");
	if (!json_is_integer(before) || json_integer_value(before) < 0) {
		req_error(p, msg, PROTO_E_INVALID, "before: expected a time in "
		    "seconds since the epoch (jobs that ended before it go)");
		return;
	}
	dry = json_object_get(msg, "dry_run");
	if (dry != NULL && !json_is_boolean(dry)) {
		req_error(p, msg, PROTO_E_INVALID, "dry_run: expected true or "
		    "false");
		return;
	}
	dry_run = json_is_true(dry);
	snprintf(target, sizeof target, "jobs that ended before @%" PRId64,
	    (int64_t)json_integer_value(before));
	audit_done(p, "purge", target, dry_run ? "dry run" : NULL);

	rp = xcalloc(1, sizeof *rp);
	rp->peer = peer_serial(p);
	rp->req = json_pack("{s:i}", "type", MSG_PURGE);
	if ((seq = json_object_get(msg, "seq")) != NULL)
		json_object_set(rp->req, "seq", seq);
	snprintf(who, sizeof who, "gctl purge by %s", peer_user(p));
	rp->progress = evtimer_new(ctx_base(), req_purge_progress_cb,
	    rp);
	evtimer_add(rp->progress, &tv);
	rp->res = purge_queue((int64_t)json_integer_value(before), dry_run,
	    who, req_purge_done_cb, rp);
}

const struct req_entry req_purge_entry = {
	MSG_PURGE, "PURGE", REQ_CLIENT, true, true, req_purge, false
};
