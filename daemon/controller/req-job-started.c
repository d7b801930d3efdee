/* req-job-started.c: JOB_STARTED, a node's word that a launched job runs.
 * The job is RUNNING since its launch was committed; this only counts as a
 * sign of life and is logged. */
#include <inttypes.h>

#include "common/log.h"
#include "common/proto.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_job_started(struct peer *p, const json_t *msg)
{
	if (peer_node(p) == NULL)
		return;
	node_touch(peer_node(p), ctx_now());
	log_debug("job %" JSON_INTEGER_FORMAT ": started on %s, pid %"
	    JSON_INTEGER_FORMAT, json_integer_value(json_object_get(msg, "id")),
	    node_name(peer_node(p)),
	    json_integer_value(json_object_get(msg, "pid")));
}

const struct req_entry req_job_started_entry = {
	MSG_JOB_STARTED, "JOB_STARTED", REQ_NODE, false, false, req_job_started,
	false
};
