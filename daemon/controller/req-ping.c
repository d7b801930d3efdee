/* req-ping.c: PING, "is the controller up?" (gctl ping). */
#include <unistd.h>

#include "common/proto.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

static void
req_ping(struct peer *p, const json_t *msg)
{
	const struct sched_conf	*sc;
	json_t			*reply = proto_reply_ok(msg), *thresholds;
	size_t			 up = node_count_up();
	unsigned		 i;

	json_object_set_new(reply, "server", json_string(CTX_SERVER));
	json_object_set_new(reply, "cluster", json_string(
	    ctx_conf()->cluster_name));
	json_object_set_new(reply, "version", json_integer(PROTO_VERSION));
	json_object_set_new(reply, "pid", json_integer(getpid()));
	json_object_set_new(reply, "uptime",
	    json_integer(ctx_now() - ctx_started()));
	json_object_set_new(reply, "jobs", json_pack("{s:I,s:I,s:I}",
	    "pending", (json_int_t)(job_table_count(JOB_PENDING) +
	    job_table_count(JOB_HELD)),
	    "running", (json_int_t)(job_table_count(JOB_RUNNING) +
	    job_table_count(JOB_PREEMPTING)),
	    "suspended", (json_int_t)job_table_count(JOB_SUSPENDED)));
	json_object_set_new(reply, "nodes", json_pack("{s:I,s:I}",
	    "up", (json_int_t)up, "down", (json_int_t)(node_count() - up)));
	/* The policy in force and its queues, for gtop's header and queues
	 * pane: thresholds in GPU-seconds, as gbatch.conf writes them. */
	sc = &ctx_conf()->sched;
	thresholds = json_array();
	for (i = 0; i + 1 < sc->nqueues; i++)
		json_array_append_new(thresholds, json_integer((json_int_t)
		    (sc->thresholds[i] / 1000)));
	json_object_set_new(reply, "scheduler", json_pack("{s:s,s:i,s:o}",
	    "policy", sched_conf_policy_name(sc->policy), "queues",
	    (int)sc->nqueues, "thresholds", thresholds));
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_ping_entry = {
	MSG_PING, "PING", REQ_CLIENT, false, true, req_ping, false
};
