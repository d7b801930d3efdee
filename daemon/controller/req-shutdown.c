/* req-shutdown.c: SHUTDOWN (operators). Running jobs keep running on their
 * nodes; a restarted gbatchd re-adopts them. */
#include <stdio.h>

#include "common/proto.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_shutdown(struct peer *p, const json_t *msg)
{
	json_t	*reply = proto_reply_ok(msg);
	char	 why[128];

	peer_send(p, reply);
	json_decref(reply);
	audit_done(p, "shutdown", NULL, NULL);
	snprintf(why, sizeof why, "SHUTDOWN from %s", peer_user(p));
	ctx_stop(why);
}

const struct req_entry req_shutdown_entry = {
	MSG_SHUTDOWN, "SHUTDOWN", REQ_CLIENT, true, true, req_shutdown, true
};
