/* req-node-update.c: NODE_UPDATE (operators): drain a node (its jobs
 * finish, no new ones start) or resume it. */
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/proto.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_node_update(struct peer *p, const json_t *msg)
{
	struct node	*n;
	const char	*name, *action, *reason;
	json_t		*reply;
	char		 target[300];
	bool		 drain;

	name = json_string_value(json_object_get(msg, "node"));
	action = json_string_value(json_object_get(msg, "action"));
	reason = json_string_value(json_object_get(msg, "reason"));
	if (name == NULL) {
		req_error(p, msg, PROTO_E_INVALID, "node: expected a node "
		    "name");
		return;
	}
	if (action == NULL || (strcmp(action, "drain") != 0 &&
	    strcmp(action, "resume") != 0)) {
		req_error(p, msg, PROTO_E_INVALID, "action: expected \"drain\" "
		    "or \"resume\", got \"%s\"", action != NULL ? action : "");
		return;
	}
	if (reason != NULL && strlen(reason) > 256) {
		req_error(p, msg, PROTO_E_INVALID, "reason: longer than 256 "
		    "bytes");
		return;
	}
	if ((n = node_find(name)) == NULL) {
		req_error(p, msg, PROTO_E_NOT_FOUND, "no node %s", name);
		return;
	}
	drain = strcmp(action, "drain") == 0;
	/* Draining a drained node only changes its reason. */
	if (drain != node_is_drained(n) && node_event(n, ctx_now(),
	    drain ? "DRAINED" : "RESUMED", drain ? reason : NULL) != 0) {
		req_error(p, msg, PROTO_E_INTERNAL, "the store failed; see "
		    "gbatchd's log");
		return;
	}
	node_set_drain(n, drain, drain ? (reason != NULL ? reason : "") : "");
	if (node_save(n) != 0) {
		req_error(p, msg, PROTO_E_INTERNAL, "the store failed; see "
		    "gbatchd's log");
		return;
	}
	log_info("node %s: %s by %s%s%s", name, drain ? "drained" : "resumed",
	    peer_user(p), drain && reason != NULL ? ": " : "",
	    drain && reason != NULL ? reason : "");
	snprintf(target, sizeof target, "node %s", name);
	audit_done(p, action, target, drain && reason != NULL ? "reason "
	    "\"%s\"" : NULL, reason);
	if (!drain)
		core_mark_dirty();
	reply = proto_reply_ok(msg);
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_node_update_entry = {
	MSG_NODE_UPDATE, "NODE_UPDATE", REQ_CLIENT, true, true, req_node_update,
	false
};
