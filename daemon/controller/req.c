/* req.c: the list of requests and the dispatcher. To add a request, write
 * req-<name>.c and add its entry here. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "common/array.h"
#include "common/frame.h"
#include "common/log.h"
#include "common/proto.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/jtext.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req-int.h"
#include "daemon/controller/replica.h"
#include "daemon/controller/req.h"
#include "daemon/controller/store.h"
#include "daemon/controller/user.h"

extern const struct req_entry	req_hello_entry;
extern const struct req_entry	req_ping_entry;
extern const struct req_entry	req_shutdown_entry;
extern const struct req_entry	req_reconfigure_entry;
extern const struct req_entry	req_config_show_entry;
extern const struct req_entry	req_purge_entry;
extern const struct req_entry	req_assoc_entry;
extern const struct req_entry	req_assoc_list_entry;
extern const struct req_entry	req_resv_entry;
extern const struct req_entry	req_resv_list_entry;
extern const struct req_entry	req_job_submit_entry;
extern const struct req_entry	req_job_list_entry;
extern const struct req_entry	req_job_acct_entry;
extern const struct req_entry	req_job_cancel_entry;
extern const struct req_entry	req_job_update_entry;
extern const struct req_entry	req_node_list_entry;
extern const struct req_entry	req_node_update_entry;
extern const struct req_entry	req_node_heartbeat_entry;
extern const struct req_entry	req_job_started_entry;
extern const struct req_entry	req_job_ended_entry;
extern const struct req_entry	req_relay_entry;
extern const struct req_entry	req_io_entry;
extern const struct req_entry	req_io_control_entry;
extern const struct req_entry	req_job_attach_entry;
extern const struct req_entry	req_step_ended_entry;
extern const struct req_entry	req_step_list_entry;
extern const struct req_entry	req_replica_entry;
extern const struct req_entry	req_raft_entry;

static const struct req_entry *const req_table[] = {
	&req_hello_entry,
	&req_ping_entry,
	&req_shutdown_entry,
	&req_reconfigure_entry,
	&req_config_show_entry,
	&req_purge_entry,
	&req_assoc_entry,
	&req_assoc_list_entry,
	&req_resv_entry,
	&req_resv_list_entry,
	&req_job_submit_entry,
	&req_job_list_entry,
	&req_job_acct_entry,
	&req_job_cancel_entry,
	&req_job_update_entry,
	&req_node_list_entry,
	&req_node_update_entry,
	&req_node_heartbeat_entry,
	&req_job_started_entry,
	&req_job_ended_entry,
	&req_relay_entry,
	&req_io_entry,
	&req_io_control_entry,
	&req_job_attach_entry,
	&req_step_ended_entry,
	&req_step_list_entry,
	&req_replica_entry,
	&req_raft_entry,
};

#define REQ_NTABLE	(sizeof req_table / sizeof req_table[0])

_Static_assert(REQ_NTABLE <= REQ_ENTRIES_MAX, "req-int.h counts each entry");

/* The request layer's state (req-int.h). Global: a singleton, as the
 * controller has one request table, whose handlers share it. */
static struct req_state	req;

struct req_state *
req_state(void)
{
	return (&req);
}


void
req_error(struct peer *p, const json_t *msg, const char *code,
    const char *fmt, ...)
{
	json_t	*reply;
	va_list	 ap;
	char	 text[512];

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	reply = proto_reply_error(msg, code, "%s", text);
	peer_send(p, reply);
	json_decref(reply);
}

void
req_text_begin(struct jtext *b, const json_t *msg)
{
	json_t	*seq = json_object_get(msg, "seq");
	char	*text;

	b->len = 0;
	jtext_reserve(b, FRAME_HEADER);
	b->len = FRAME_HEADER;
	jtext_add(b, "{\"re\":", 6);
	jtext_int(b, proto_type(msg));
	if (seq != NULL && (text = json_dumps(seq, JSON_ENCODE_ANY |
	    JSON_COMPACT)) != NULL) {
		jtext_add(b, ",\"seq\":", 7);
		jtext_add(b, text, strlen(text));
		free(text);
	}
	jtext_add(b, ",\"ok\":true", 10);
}

void
req_text_end(struct jtext *b)
{
	size_t	len = b->len - FRAME_HEADER;

	b->buf[0] = (char)(len >> 24);
	b->buf[1] = (char)(len >> 16);
	b->buf[2] = (char)(len >> 8);
	b->buf[3] = (char)len;
}

static void
req_text_free(const void *data, size_t len, void *arg)
{
	free((void *)data);
}

void
req_text_send(struct peer *p, struct jtext *b)
{
	struct evbuffer	*frame = evbuffer_new();

	req_text_end(b);
	if (evbuffer_add_reference(frame, b->buf, b->len, req_text_free,
	    NULL) != 0) {
		evbuffer_add(frame, b->buf, b->len);
		free(b->buf);
	}
	b->buf = NULL;
	b->len = b->size = 0;
	peer_send_frame(p, frame);
	evbuffer_free(frame);
}

int
req_is_job_id(const json_t *v)
{
	struct array_set	tasks;
	uint64_t		id;
	char			err[256];

	if (json_is_integer(v))
		return (json_integer_value(v) > 0);
	if (!json_is_string(v) || array_jobid_parse(json_string_value(v),
	    &id, &tasks, err, sizeof err) == -1)
		return (0);
	array_free(&tasks);
	return (1);
}

int
req_get_uint(const json_t *obj, const char *key, unsigned long long max,
    unsigned long long *out, char *err, size_t errlen)
{
	json_t		*v = json_object_get(obj, key);
	json_int_t	 n;

	if (v == NULL)
		return (0);
	if (!json_is_integer(v) || (n = json_integer_value(v)) < 0 ||
	    (unsigned long long)n > max) {
		snprintf(err, errlen, "%s: expected a whole number from 0 to "
		    "%llu", key, max);
		return (-1);
	}
	*out = (unsigned long long)n;
	return (0);
}

/* What an operators-only request would have acted on, for the audit log:
 * "drain node n1", or NULL. */
static const char *
req_target(const json_t *msg, char *buf, size_t len)
{
	const char	*action, *node;

	action = json_string_value(json_object_get(msg, "action"));
	node = json_string_value(json_object_get(msg, "node"));
	if (action == NULL && node == NULL)
		return (NULL);
	snprintf(buf, len, "%s%s%s%s", action != NULL ? action : "",
	    action != NULL && node != NULL ? " " : "", node != NULL ? "node " :
	    "", node != NULL ? node : "");
	return (buf);
}

/* The table's index of type, or -1. */
static int
req_find(int type)
{
	size_t	i;

	for (i = 0; i < REQ_NTABLE; i++) {
		if (req_table[i]->type == type)
			return ((int)i);
	}
	return (-1);
}

size_t
req_stats(struct metrics_request *out, size_t max)
{
	size_t	i;

	for (i = 0; i < REQ_NTABLE && i < max; i++) {
		out[i].name = req_table[i]->name;
		out[i].count = req.count[i];
		out[i].us = req.us[i];
	}
	return (i);
}

void
req_dispatch(struct peer *p, const json_t *msg)
{
	const struct req_entry	*re;
	enum peer_role		 role = peer_role(p);
	char			 why[128], target[300];
	int64_t			 t0;
	int			 type = proto_type(msg), at;

	if ((at = req_find(type)) == -1) {
		req_error(p, msg, PROTO_E_BAD_REQUEST, "unknown message type "
		    "%d", type);
		if (role == PEER_NEW) {
			audit_refused(p, "message", NULL, "unknown type %d "
			    "first; connection closed", type);
			peer_close_after_flush(p, "unknown first message");
		}
		return;
	}
	re = req_table[at];
	if (role == PEER_NEW && type != MSG_HELLO) {
		req_error(p, msg, PROTO_E_BAD_REQUEST, "the first message must "
		    "be of type %d, with the protocol version and role; got "
		    "type %d", MSG_HELLO, type);
		audit_refused(p, re->name, NULL, "no HELLO first; connection "
		    "closed");
		peer_close_after_flush(p, "no HELLO first");
		return;
	}
	if (role != PEER_NEW && type == MSG_HELLO) {
		req_error(p, msg, PROTO_E_BAD_REQUEST, "the protocol version "
		    "and role were already given on this connection");
		return;
	}
	if (role == PEER_REPLICA && (re->roles & REQ_REPLICA) == 0) {
		audit_refused(p, re->name, NULL, "%s from a replica; "
		    "connection closed", re->name);
		peer_close_after_flush(p, "not a replica's message");
		return;
	}
	if (role != PEER_REPLICA && (re->roles & REQ_REPLICA) != 0 &&
	    (re->roles & (REQ_CLIENT | REQ_NODE)) == 0) {
		req_error(p, msg, PROTO_E_BAD_REQUEST, "message type %d is "
		    "for replicas only", type);
		return;
	}
	if (!replica_serving(ctx_replica()) && !re->follower && type != MSG_HELLO) {
		req_not_leader(p, msg);
		return;
	}
	if ((role == PEER_CLIENT && (re->roles & REQ_CLIENT) == 0) ||
	    (role == PEER_NODE && (re->roles & REQ_NODE) == 0)) {
		snprintf(why, sizeof why, "%s message %s from a %s",
		    role == PEER_CLIENT ? "node" : "client", re->name,
		    role == PEER_CLIENT ? "client" : "node");
		if (role == PEER_CLIENT)
			req_error(p, msg, PROTO_E_BAD_REQUEST, "message type "
			    "%d is not a client request", type);
		audit_refused(p, re->name, NULL, "%s; connection closed", why);
		peer_close_after_flush(p, why);
		return;
	}
	if (ctx_stopping() && type != MSG_HELLO && re->reply) {
		req_error(p, msg, PROTO_E_SHUTTING_DOWN, "gbatchd is shutting "
		    "down");
		return;
	}
	if (re->operator && !peer_is_operator(p)) {
		/* Users see this: the command names what they asked for,
		 * not the request's protocol name. */
		req_error(p, msg, PROTO_E_PERMISSION, "only operators may do "
		    "this (root and controller.operators); you are %s%s",
		    peer_user(p), peer_is_relayed(p) ? ", on a node: "
		    "operators work on the controller's host" : "");
		audit_refused(p, re->name, req_target(msg, target,
		    sizeof target), "operators only");
		return;
	}
	log_debug("peer %s: %s", peer_addr(p), re->name);
	t0 = metrics_clock_us();
	re->handler(p, msg);
	req.count[at]++;
	req.us[at] += (uint64_t)(metrics_clock_us() - t0);
}

void
req_not_leader(struct peer *p, const json_t *msg)
{
	const char	*leader = replica_leader_address(ctx_replica());
	char		 who[300];
	json_t		*reply;

	replica_leader_text(ctx_replica(), who, sizeof who);
	reply = proto_reply_error(msg, PROTO_E_NOT_LEADER, "this gbatchd is "
	    "a replica that follows: %s", who);
	json_object_set_new(reply, "leader", leader != NULL ?
	    json_string(leader) : json_null());
	peer_send(p, reply);
	json_decref(reply);
}

bool
req_user_exists(const char *name)
{
	return (user_known(name) || store_user_has_jobs(name) == 1);
}

int
req_get_users(const json_t *obj, const char *key, const char **users,
    size_t max, size_t *n, char *err, size_t errlen)
{
	json_t		*v = json_object_get(obj, key), *e;
	const char	*name;
	size_t		 i;

	*n = 0;
	if (v == NULL || json_is_null(v))
		return (0);
	if (!json_is_array(v) || json_array_size(v) == 0 ||
	    json_array_size(v) > max) {
		snprintf(err, errlen, "%s: expected an array of 1 to %zu user "
		    "names", key, max);
		return (-1);
	}
	json_array_foreach(v, i, e) {
		if ((name = json_string_value(e)) == NULL || *name == '\0' ||
		    strlen(name) != json_string_length(e) ||
		    json_string_length(e) > 255) {
			snprintf(err, errlen, "%s: element %zu is not a user "
			    "name", key, i + 1);
			return (-1);
		}
		if (!req_user_exists(name)) {
			snprintf(err, errlen, "no such user \"%s\"", name);
			return (-1);
		}
		users[(*n)++] = name;
	}
	return (0);
}
