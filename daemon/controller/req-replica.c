/* req-replica.c: REPLICA (gctl replica list, add, remove) and RAFT, the
 * replicas' own messages. Listing works on every replica, so an operator
 * finds the leader from any of them; a change is the leader's. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <raft.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "common/hostport.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/replica.h"
#include "daemon/controller/req.h"

/* A change's request, until raft has committed it. */
struct req_replica_wait {
	uint64_t	 peer;		/* peer_serial */
	json_t		*msg;		/* the request */
	uint64_t	 id;
};

static void
req_replica_done(void *arg, int status)
{
	struct req_replica_wait	*w = arg;
	struct peer		*p = peer_by_serial(w->peer);
	const char		*op = json_string_value(json_object_get(w->msg,
				    "op"));
	json_t			*reply;

	if (status != 0)
		log_warn("replica: %s of replica %" PRIu64 " failed: %s", op,
		    w->id, raft_strerror(status));
	else
		log_info("replica: replica %" PRIu64 " %s", w->id,
		    strcmp(op, "add") == 0 ? "added" : "removed");
	if (p != NULL) {
		if (status == 0) {
			reply = proto_reply_ok(w->msg);
			json_object_set_new(reply, "id", json_integer(
			    (json_int_t)w->id));
			if (replica_leaving(ctx_replica()))
				json_object_set_new(reply, "stepped_down",
				    json_true());
			peer_send(p, reply);
			json_decref(reply);
		} else
			req_error(p, w->msg, PROTO_E_INTERNAL, "the change "
			    "was not committed: %s", raft_strerror(status));
	}
	json_decref(w->msg);
	free(w);
}

static void
req_replica(struct peer *p, const json_t *msg)
{
	const char		*op = json_string_value(json_object_get(msg,
				    "op"));
	const char		*address;
	const json_t		*idv;
	struct req_replica_wait	*w;
	json_t			*reply;
	char			 err[512];
	uint64_t		 id = 0;
	int			 rc;

	if (op == NULL || strcmp(op, "list") == 0) {
		if (!(ctx_replica() != NULL)) {
			req_error(p, msg, PROTO_E_INVALID, "this gbatchd has no "
			    "replicas (controller.replicas is not set)");
			return;
		}
		reply = proto_reply_ok(msg);
		json_object_set_new(reply, "replicas", replica_list(ctx_replica()));
		peer_send(p, reply);
		json_decref(reply);
		return;
	}
	if (strcmp(op, "add") != 0 && strcmp(op, "remove") != 0) {
		req_error(p, msg, PROTO_E_BAD_REQUEST, "op: expected \"list\", "
		    "\"add\" or \"remove\"");
		return;
	}
	if (!peer_is_operator(p)) {
		req_error(p, msg, PROTO_E_PERMISSION, "only operators may "
		    "change the replicas (root and controller.operators)");
		audit_refused(p, "REPLICA", op, "operators only");
		return;
	}
	w = xcalloc(1, sizeof *w);
	w->peer = peer_serial(p);
	w->msg = json_deep_copy(msg);
	if (strcmp(op, "add") == 0) {
		address = json_string_value(json_object_get(msg, "address"));
		if (address == NULL || hostport_check(address, 1, err,
		    sizeof err) == -1) {
			req_error(p, msg, PROTO_E_INVALID, "address: %s",
			    address == NULL ? "expected HOST:PORT, the new "
			    "replica's controller.listen" : err);
			rc = -1;
			goto fail;
		}
		rc = replica_add(ctx_replica(), address, &w->id, req_replica_done, w, err,
		    sizeof err);
	} else {
		idv = json_object_get(msg, "id");
		if (!json_is_integer(idv) || json_integer_value(idv) < 1) {
			req_error(p, msg, PROTO_E_INVALID, "id: expected a "
			    "replica's number (gctl replica list)");
			rc = -1;
			goto fail;
		}
		w->id = id = (uint64_t)json_integer_value(idv);
		rc = replica_remove(ctx_replica(), id, req_replica_done, w, err, sizeof err);
	}
	if (rc == 0) {
		snprintf(err, sizeof err, "replica %" PRIu64, w->id);
		audit_done(p, strcmp(op, "add") == 0 ? "replica_add" :
		    "replica_remove", err, NULL);
		return;
	}
	req_error(p, msg, replica_serving(ctx_replica()) ? PROTO_E_INVALID :
	    PROTO_E_NOT_LEADER, "%s", err);
fail:
	json_decref(w->msg);
	free(w);
}

const struct req_entry req_replica_entry = {
	MSG_REPLICA, "REPLICA", REQ_CLIENT, false, true, req_replica, true
};

static void
req_raft(struct peer *p, const json_t *msg)
{
	replica_message(ctx_replica(), p, msg);
}

const struct req_entry req_raft_entry = {
	MSG_RAFT, "RAFT", REQ_REPLICA, false, false, req_raft, true
};
