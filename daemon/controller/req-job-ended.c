/* req-job-ended.c: JOB_ENDED, a job finished on a node. */
#include "common/proto.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-report.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_job_ended(struct peer *p, const json_t *msg)
{
	if (peer_node(p) == NULL)
		return;
	node_touch(peer_node(p), ctx_now());
	job_report_ended(peer_node(p), p, msg);
}

const struct req_entry req_job_ended_entry = {
	MSG_JOB_ENDED, "JOB_ENDED", REQ_NODE, false, false, req_job_ended, false
};
