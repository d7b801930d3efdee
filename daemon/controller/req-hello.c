/* req-hello.c: HELLO, the first message of every connection. Clients learn
 * who the controller thinks they are; node daemons register, list their
 * jobs and get them reconciled. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "common/proto.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-report.h"
#include "daemon/controller/node-health.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/replica.h"
#include "daemon/controller/req.h"
#include "policy/place.h"
#include "policy/sched.h"

/* Node names go into logs, file names and tables: keep them plain. */
static int
req_hello_name_ok(const char *s)
{
	size_t	i, len = strlen(s);

	if (len == 0 || len > 64)
		return (0);
	for (i = 0; i < len; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '-' || s[i] == '_' || s[i] == '.'))
			return (0);
	}
	return (1);
}

static void
req_hello_client(struct peer *p, const json_t *msg)
{
	const struct conf	*c = ctx_conf();
	json_t			*reply;

	peer_set_role(p, PEER_CLIENT);
	/* A relayed user may be root on some node, never an operator of
	 * the cluster: operators work on the controller's host. */
	peer_set_operator(p, !peer_is_relayed(p) &&
	    conf_is_operator(c, peer_uid(p), peer_user(p)));
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "version", json_integer(PROTO_VERSION));
	json_object_set_new(reply, "server", json_string(CTX_SERVER));
	json_object_set_new(reply, "user", json_string(peer_user(p)));
	json_object_set_new(reply, "uid", json_integer(peer_uid(p)));
	json_object_set_new(reply, "operator",
	    json_boolean(peer_is_operator(p)));
	peer_send(p, reply);
	json_decref(reply);
}

/* Closes p, refused at HELLO, and leaves the audit line that says who was
 * turned away and why. */
static void
req_hello_refuse(struct peer *p, const char *why)
{
	audit_refused(p, "HELLO", NULL, "%s; connection closed", why);
	peer_close_after_flush(p, why);
}

/* The longest GPU name and UUID taken from a node: NVML's own limits
 * (NVML_DEVICE_NAME_V2_BUFFER_SIZE 96, UUID 80) with room to spare. */
#define REQ_HELLO_GPU_NAME_MAX	256
#define REQ_HELLO_GPU_UUID_MAX	128

/* Each GPU is an object whose name and uuid, when there, are strings of
 * bounded length: they are kept for as long as the node is, and listed. */
static int
req_hello_gpus_check(const json_t *gpus, char *why, size_t len)
{
	json_t		*g, *v;
	size_t		 i;

	json_array_foreach(gpus, i, g) {
		if (!json_is_object(g)) {
			snprintf(why, len, "gpus[%zu]: expected an object", i);
			return (-1);
		}
		v = json_object_get(g, "name");
		if (v != NULL && (!json_is_string(v) ||
		    json_string_length(v) > REQ_HELLO_GPU_NAME_MAX)) {
			snprintf(why, len, "gpus[%zu].name: expected a string "
			    "of at most %d bytes", i, REQ_HELLO_GPU_NAME_MAX);
			return (-1);
		}
		v = json_object_get(g, "uuid");
		if (v != NULL && (!json_is_string(v) ||
		    json_string_length(v) > REQ_HELLO_GPU_UUID_MAX)) {
			snprintf(why, len, "gpus[%zu].uuid: expected a string "
			    "of at most %d bytes", i, REQ_HELLO_GPU_UUID_MAX);
			return (-1);
		}
	}
	return (0);
}

/* A node's "cpus" (1 to 65536) and "memory_mb" (1 to 2^40), each
 * optional: a node that does not say has them not counted. */
static int
req_hello_res(const json_t *msg, uint32_t *cpus, uint64_t *mem, char *why,
    size_t whylen)
{
	const json_t	*c = json_object_get(msg, "cpus");
	const json_t	*m = json_object_get(msg, "memory_mb");

	*cpus = 0;
	*mem = 0;
	if (c != NULL && (!json_is_integer(c) || json_integer_value(c) < 1 ||
	    json_integer_value(c) > 65536)) {
		snprintf(why, whylen, "cpus: expected a whole number from 1 "
		    "to 65536");
		return (-1);
	}
	if (m != NULL && (!json_is_integer(m) || json_integer_value(m) < 1 ||
	    json_integer_value(m) > (json_int_t)1 << 40)) {
		snprintf(why, whylen, "memory_mb: expected a whole number of "
		    "MB from 1 to 2^40");
		return (-1);
	}
	if (c != NULL)
		*cpus = (uint32_t)json_integer_value(c);
	if (m != NULL)
		*mem = (uint64_t)json_integer_value(m);
	return (0);
}

/* A node's "gpu_shards": the shards each of its GPUs is offered in (2 to
 * PLACE_MAX_SHARDS; absent: 1, none). */
static int
req_hello_shards(const json_t *msg, uint32_t *shards, char *why,
    size_t whylen)
{
	const json_t	*v = json_object_get(msg, "gpu_shards");

	*shards = 1;
	if (v == NULL)
		return (0);
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > PLACE_MAX_SHARDS) {
		snprintf(why, whylen, "gpu_shards: expected a whole number "
		    "from 1 to %d", PLACE_MAX_SHARDS);
		return (-1);
	}
	*shards = (uint32_t)json_integer_value(v);
	return (0);
}

static void
req_hello_node(struct peer *p, const json_t *msg)
{
	struct node		*n;
	const char		*name, *state, *sw;
	json_t			*gpus, *jobs, *reply, *r, *v;
	size_t			 i;
	char			 why[160];
	int			 interval;
	uint32_t		 cpus, shards;
	uint64_t		 mem;

	name = json_string_value(json_object_get(msg, "name"));
	gpus = json_object_get(msg, "gpus");
	jobs = json_object_get(msg, "jobs");
	if (name == NULL || !req_hello_name_ok(name)) {
		req_error(p, msg, PROTO_E_INVALID, "name: expected 1-64 "
		    "letters, digits, '-', '_' or '.'");
		req_hello_refuse(p, "node HELLO with a bad name");
		return;
	}
	/* The name is what the node's certificate proves, or nothing:
	 * otherwise any node could take over another's jobs. */
	if (peer_cert_name(p) != NULL && strcmp(name, peer_cert_name(p)) != 0) {
		req_error(p, msg, PROTO_E_PERMISSION, "name: this connection's "
		    "certificate is for node %s, not %s", peer_cert_name(p),
		    name);
		log_warn("peer %s: refused: a certificate for node %s used "
		    "to register as %s", peer_addr(p), peer_cert_name(p), name);
		req_hello_refuse(p, "node name does not match its "
		    "certificate");
		return;
	}
	if (!json_is_array(gpus) ||
	    json_array_size(gpus) > SCHED_MAX_GPUS_PER_NODE) {
		req_error(p, msg, PROTO_E_INVALID, "gpus: expected an array of "
		    "at most %d GPUs", SCHED_MAX_GPUS_PER_NODE);
		req_hello_refuse(p, "node HELLO with bad gpus");
		return;
	}
	if (req_hello_gpus_check(gpus, why, sizeof why) != 0) {
		req_error(p, msg, PROTO_E_INVALID, "%s", why);
		req_hello_refuse(p, "node HELLO with bad gpus");
		return;
	}
	v = json_object_get(msg, "switch");
	sw = json_string_value(v);
	if (v != NULL && (sw == NULL || !req_hello_name_ok(sw))) {
		req_error(p, msg, PROTO_E_INVALID, "switch: expected 1-64 "
		    "letters, digits, '-', '_' or '.'");
		req_hello_refuse(p, "node HELLO with a bad switch");
		return;
	}
	if (req_hello_res(msg, &cpus, &mem, why, sizeof why) != 0) {
		req_error(p, msg, PROTO_E_INVALID, "%s", why);
		req_hello_refuse(p, "node HELLO with bad cpus or memory_mb");
		return;
	}
	if (req_hello_shards(msg, &shards, why, sizeof why) != 0) {
		req_error(p, msg, PROTO_E_INVALID, "%s", why);
		req_hello_refuse(p, "node HELLO with bad gpu_shards");
		return;
	}
	if (jobs != NULL && !json_is_array(jobs)) {
		req_error(p, msg, PROTO_E_INVALID, "jobs: expected an array "
		    "of job reports");
		req_hello_refuse(p, "node HELLO with bad jobs");
		return;
	}

	n = node_get(name);
	if (node_peer(n) != NULL && node_peer(n) != p) {
		log_info("node %s: new connection from %s replaces %s", name,
		    peer_addr(p), peer_addr(node_peer(n)));
		peer_close(node_peer(n), "replaced by the node's new "
		    "connection");
	}
	peer_set_role(p, PEER_NODE);
	peer_set_node(p, n, name);
	/* A node already up that reconnects was never down. */
	if (!node_is_up(n))
		(void)node_event(n, ctx_now(), "UP", NULL);
	node_set_up(n, p, peer_host(p),
	    json_string_value(json_object_get(msg, "gpu_source")), gpus,
	    ctx_now());
	node_set_switch(n, sw);
	node_set_res(n, cpus, mem);
	node_set_gpu_shards(n, shards);
	node_set_freezer(n, json_is_true(json_object_get(msg, "freezer")));
	(void)node_save(n);
	log_info("node %s: up from %s with %zu GPUs, %zu job reports", name,
	    peer_addr(p), json_array_size(gpus), json_array_size(jobs));

	/* The reply goes first: the ACKs and signals below follow it. */
	interval = node_health_interval();
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "version", json_integer(PROTO_VERSION));
	json_object_set_new(reply, "heartbeat_interval",
	    json_integer(interval));
	peer_send(p, reply);
	json_decref(reply);

	/* Stale copies it was stopping are in its reports again, if they
	 * still run. */
	job_report_stale_forget(n);
	/* Ends first, so a finished job is not taken for a missing one. */
	json_array_foreach(jobs, i, r) {
		state = json_string_value(json_object_get(r, "state"));
		if (state != NULL && strcmp(state, "RUNNING") != 0)
			job_report_ended(n, p, r);
	}
	json_array_foreach(jobs, i, r) {
		state = json_string_value(json_object_get(r, "state"));
		if (state != NULL && strcmp(state, "RUNNING") == 0)
			job_report_running(n, p, r);
	}
	job_report_missing(n, jobs);
	core_mark_dirty();
}

static void
req_hello(struct peer *p, const json_t *msg)
{
	const char	*role;
	json_t		*v = json_object_get(msg, "version"), *reply;
	char		 why[256];

	if (!json_is_integer(v) || json_integer_value(v) != PROTO_VERSION) {
		req_error(p, msg, PROTO_E_VERSION, "protocol version %s; this "
		    "gbatchd speaks version %d", json_is_integer(v) ?
		    "mismatch" : "missing", PROTO_VERSION);
		req_hello_refuse(p, "protocol version mismatch");
		return;
	}
	role = json_string_value(json_object_get(msg, "role"));
	if (role != NULL && strcmp(role, "client") == 0) {
		if (!peer_is_local(p) && !peer_is_relayed(p)) {
			req_error(p, msg, PROTO_E_PERMISSION, "clients must "
			    "use the controller's Unix socket, or a node "
			    "daemon's");
			req_hello_refuse(p, "client on the TCP listener");
			return;
		}
		req_hello_client(p, msg);
	} else if (role != NULL && strcmp(role, "node") == 0) {
		if (peer_is_local(p) || peer_is_relayed(p)) {
			req_error(p, msg, PROTO_E_PERMISSION, "node daemons "
			    "must use the controller's TCP listener");
			req_hello_refuse(p, "node on the Unix socket");
			return;
		}
		if (peer_is_controller(p) && peer_cert_name(p) != NULL) {
			req_error(p, msg, PROTO_E_PERMISSION, "a controller "
			    "certificate cannot register a node: give the node "
			    "its own (gctl cert issue NAME --node)");
			req_hello_refuse(p, "node with a controller certificate");
			return;
		}
		if (!replica_serving(ctx_replica())) {
			req_not_leader(p, msg);
			req_hello_refuse(p, "node at a replica that follows");
			return;
		}
		req_hello_node(p, msg);
	} else if (role != NULL && strcmp(role, "replica") == 0) {
		if (peer_is_local(p) || peer_is_relayed(p) ||
		    replica_hello(ctx_replica(), p, msg, why, sizeof why) == -1) {
			req_error(p, msg, PROTO_E_PERMISSION, "%s",
			    peer_is_local(p) || peer_is_relayed(p) ?
			    "replicas must use the controller's TCP listener" :
			    why);
			req_hello_refuse(p, "replica refused");
			return;
		}
		reply = proto_reply_ok(msg);
		peer_send(p, reply);
		json_decref(reply);
	} else {
		req_error(p, msg, PROTO_E_BAD_REQUEST, "role: expected "
		    "\"client\", \"node\" or \"replica\"");
		req_hello_refuse(p, "HELLO with a bad role");
	}
}

const struct req_entry req_hello_entry = {
	MSG_HELLO, "HELLO", REQ_CLIENT | REQ_NODE | REQ_REPLICA, false, true,
	req_hello, true
};
