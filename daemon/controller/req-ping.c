/* req-ping.c: PING, "is the controller up?" (gctl ping). */
#include <unistd.h>

#include "common/proto.h"
#include "daemon/controller/gbatchd.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_ping(struct peer *p, const json_t *msg)
{
	json_t	*reply = proto_reply_ok(msg);
	size_t	 up = node_count_up();

	json_object_set_new(reply, "server", json_string(GBATCHD_SERVER));
	json_object_set_new(reply, "version", json_integer(PROTO_VERSION));
	json_object_set_new(reply, "pid", json_integer(getpid()));
	json_object_set_new(reply, "uptime",
	    json_integer(gbatchd_now() - gbatchd_started()));
	json_object_set_new(reply, "jobs", json_pack("{s:I,s:I}",
	    "pending", (json_int_t)(job_count(JOB_PENDING) +
	    job_count(JOB_HELD)),
	    "running", (json_int_t)(job_count(JOB_RUNNING) +
	    job_count(JOB_PREEMPTING))));
	json_object_set_new(reply, "nodes", json_pack("{s:I,s:I}",
	    "up", (json_int_t)up, "down", (json_int_t)(node_count() - up)));
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_ping_entry = {
	MSG_PING, "PING", REQ_CLIENT, false, true, req_ping
};
