/* req-node-list.c: NODE_LIST (gnodes). */
#include "common/proto.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_node_list(struct peer *p, const json_t *msg)
{
	struct node	*n;
	json_t		*reply, *nodes = json_array();

	for (n = node_first(); n != NULL; n = node_next(n))
		node_describe(n, nodes);
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "nodes", nodes);
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_node_list_entry = {
	MSG_NODE_LIST, "NODE_LIST", REQ_CLIENT, false, true, req_node_list
};
