/* req-node-heartbeat.c: NODE_HEARTBEAT, a node saying it is alive. */
#include "common/proto.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_node_heartbeat(struct peer *p, const json_t *msg)
{
	if (peer_node(p) == NULL)
		return;
	node_touch(peer_node(p), ctx_now());
	node_gpu_use(peer_node(p), json_object_get(msg, "gpus"),
	    ctx_now());
}

const struct req_entry req_node_heartbeat_entry = {
	MSG_NODE_HEARTBEAT, "NODE_HEARTBEAT", REQ_NODE, false, false,
	req_node_heartbeat
};
