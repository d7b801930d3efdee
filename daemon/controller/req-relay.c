/* req-relay.c: RELAY, a node daemon passing on a frame from a command run
 * on its host (DESIGN.md "Who may do what"). The envelope names the
 * command's channel and the uid and gid the node's kernel gave for it; the
 * frame that follows is the command's own, handled as if it had come on
 * the Unix socket from that user, except that a relayed user is never an
 * operator. Only a node that proved its name with a certificate may relay:
 * anyone else could claim any uid. */
#include <stdio.h>

#include "common/log.h"
#include "common/proto.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

/* The largest uid or gid taken from a node: (uid_t)-1 means "none". */
#define REQ_RELAY_ID_MAX	((unsigned long long)UINT32_MAX - 1)

static void
req_relay(struct peer *p, const json_t *msg)
{
	struct peer		*c;
	unsigned long long	 chan = 0, uid = 0, gid = 0;
	const char		*why;
	char			 err[128], text[200];


	if (!peer_is_trusted(p)) {
		peer_close(p, "RELAY from a node that is not authenticated");
		return;
	}
	if (json_object_get(msg, "chan") == NULL ||
	    req_get_uint(msg, "chan", UINT32_MAX, &chan, err,
	    sizeof err) != 0 || chan == 0) {
		snprintf(text, sizeof text, "RELAY: %s", chan == 0 ?
		    "chan: expected a whole number from 1" : err);
		peer_close(p, text);
		return;
	}
	if (json_is_true(json_object_get(msg, "close"))) {
		if ((c = peer_relayed_find(p, (uint32_t)chan)) != NULL)
			peer_close_after_flush(c, "its command ended");
		return;
	}
	if (json_object_get(msg, "uid") == NULL ||
	    json_object_get(msg, "gid") == NULL ||
	    req_get_uint(msg, "uid", REQ_RELAY_ID_MAX, &uid, err,
	    sizeof err) != 0 ||
	    req_get_uint(msg, "gid", REQ_RELAY_ID_MAX, &gid, err,
	    sizeof err) != 0) {
		snprintf(text, sizeof text, "RELAY: %s",
		    json_object_get(msg, "uid") == NULL ||
		    json_object_get(msg, "gid") == NULL ?
		    "uid and gid are required" : err);
		peer_close(p, text);
		return;
	}
	if ((c = peer_relayed(p, (uint32_t)chan, (uid_t)uid, (gid_t)gid,
	    &why)) == NULL) {
		/* The node's link carries others: refuse this one alone. */
		log_warn("peer %s: relay channel %llu refused: %s",
		    peer_addr(p), chan, why);
		peer_relay_refuse(p, (uint32_t)chan);
		return;
	}
	peer_next_frame_for(p, c);
}

const struct req_entry req_relay_entry = {
	MSG_RELAY, "RELAY", REQ_NODE, false, false, req_relay, false
};
