/* req-node-list.c: NODE_LIST (gnodes, gtop). Written as text (jtext.h):
 * gtop asks every few seconds, and a cluster of 1,000 nodes is 8,000 GPU
 * entries; "brief" leaves out the GPUs' descriptions, which only change
 * when a node registers. */
#include "common/proto.h"
#include "daemon/controller/core.h"
#include "daemon/controller/jtext.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req-int.h"
#include "daemon/controller/req.h"

static void
req_node_list(struct peer *p, const json_t *msg)
{
	struct req_state	*rs = req_state();
	struct jtext		 b;
	struct node		*n;
	struct node_use		 use;
	bool			 brief;

	brief = json_is_true(json_object_get(msg, "brief"));
	jtext_init(&b, rs->node_list_last + rs->node_list_last / 8);
	req_text_begin(&b, msg);
	jtext_add(&b, ",\"nodes\":[", 10);
	for (n = node_first(); n != NULL; n = node_next(n)) {
		if (n != node_first())
			jtext_add(&b, ",", 1);
		/* What jobs hold of it is the core's. */
		core_node_use(n, &use);
		node_describe(n, &b, brief, &use);
	}
	jtext_add(&b, "]}", 2);
	rs->node_list_last = b.len;
	req_text_send(p, &b);
}

const struct req_entry req_node_list_entry = {
	MSG_NODE_LIST, "NODE_LIST", REQ_CLIENT, false, true, req_node_list
};
