/* node-msg.c: decoding the controller's messages to a node. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "common/job-req.h"
#include "common/proto.h"
#include "daemon/node/node-launch.h"
#include "daemon/node/node-msg.h"

static int
node_msg_id(const json_t *msg, uint64_t *id)
{
	json_t	*v = json_object_get(msg, "id");

	if (!json_is_integer(v) || json_integer_value(v) <= 0)
		return (-1);
	*id = (uint64_t)json_integer_value(v);
	return (0);
}

static void
node_msg_hello_reply(const json_t *msg, struct node_msg *m)
{
	const char	*message, *code;
	json_t		*v;

	if (!json_is_true(json_object_get(msg, "ok"))) {
		message = json_string_value(json_object_get(msg, "message"));
		code = json_string_value(json_object_get(msg, "code"));
		snprintf(m->refusal, sizeof m->refusal, "HELLO refused: %s "
		    "(%s)", message != NULL ? message : "no message",
		    code != NULL ? code : "no code");
		return;
	}
	v = json_object_get(msg, "version");
	if (v != NULL && (!json_is_integer(v) ||
	    json_integer_value(v) != PROTO_VERSION)) {
		snprintf(m->refusal, sizeof m->refusal, "controller speaks "
		    "another protocol version");
		return;
	}
	v = json_object_get(msg, "heartbeat_interval");
	if (v != NULL && (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > NODE_MSG_MAX_HEARTBEAT)) {
		snprintf(m->refusal, sizeof m->refusal, "HELLO reply's "
		    "heartbeat_interval: expected seconds from 1 to %d",
		    NODE_MSG_MAX_HEARTBEAT);
		return;
	}
	m->heartbeat = v != NULL ? (unsigned)json_integer_value(v) : 0;
	m->accepted = true;
}

static int
node_msg_signal(const json_t *msg, struct node_msg *m, char *why, size_t len)
{
	json_t	*v;

	m->cancel = json_is_true(json_object_get(msg, "cancel"));
	m->sig = SIGTERM;
	v = json_object_get(msg, "signal");
	if (v != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) >= NSIG) {
			snprintf(why, len, "JOB_SIGNAL with a signal number "
			    "out of range");
			return (-1);
		}
		m->sig = (int)json_integer_value(v);
	} else if (!m->cancel) {
		snprintf(why, len, "JOB_SIGNAL without a signal");
		return (-1);
	}
	return (0);
}

/* JOB_LIMIT's and JOB_SUSPEND's time_limit: seconds, 0 for none, a
 * launch's bounds. */
static int
node_msg_limit(const json_t *msg, struct node_msg *m, char *why, size_t len)
{
	json_t	*v = json_object_get(msg, "time_limit");

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > JOB_REQ_MAX_TIME) {
		snprintf(why, len, "%s without a time_limit of 0 to "
		    "%lld seconds", m->type == NODE_MSG_LIMIT ? "JOB_LIMIT" :
		    "JOB_SUSPEND", (long long)JOB_REQ_MAX_TIME);
		return (-1);
	}
	m->limit = (uint64_t)json_integer_value(v);
	return (0);
}

int
node_msg_decode(const json_t *msg, struct node_msg *m, char *why, size_t len)
{
	json_t		*re;
	const char	*name;
	int		 type;

	memset(m, 0, sizeof *m);
	if ((re = json_object_get(msg, "re")) != NULL) {
		if (json_integer_value(re) == MSG_HELLO) {
			m->type = NODE_MSG_HELLO_REPLY;
			node_msg_hello_reply(msg, m);
		} else {
			m->type = NODE_MSG_OTHER_REPLY;
			m->re = (long long)json_integer_value(re);
		}
		return (0);
	}
	switch ((type = proto_type(msg))) {
	case MSG_RELAY_REPLY:
		re = json_object_get(msg, "chan");
		if (!json_is_integer(re) || json_integer_value(re) < 1 ||
		    json_integer_value(re) > UINT32_MAX) {
			snprintf(why, len, "RELAY_REPLY without a channel");
			return (-1);
		}
		m->type = NODE_MSG_RELAY_REPLY;
		m->chan = (uint32_t)json_integer_value(re);
		m->close = json_is_true(json_object_get(msg, "close"));
		return (0);
	case MSG_IO:
	case MSG_IO_CONTROL:
		m->type = type == MSG_IO ? NODE_MSG_IO : NODE_MSG_IO_CONTROL;
		re = json_object_get(msg, "job");
		if (!json_is_integer(re) || json_integer_value(re) < 1 ||
		    !json_is_integer(json_object_get(msg, "step")) ||
		    json_integer_value(json_object_get(msg, "step")) < 0 ||
		    json_integer_value(json_object_get(msg, "step")) >
		    UINT32_MAX) {
			snprintf(why, len, "%s without a job and a step",
			    type == MSG_IO ? "IO" : "IO_CONTROL");
			return (-1);
		}
		m->id = (uint64_t)json_integer_value(re);
		m->step = (uint32_t)json_integer_value(json_object_get(msg,
		    "step"));
		return (0);
	case MSG_STEP_LAUNCH:
		m->type = NODE_MSG_STEP_LAUNCH;
		name = "STEP_LAUNCH";
		break;
	case MSG_JOB_LAUNCH:
		m->type = NODE_MSG_LAUNCH;
		name = "JOB_LAUNCH";
		break;
	case MSG_JOB_SIGNAL:
		m->type = NODE_MSG_SIGNAL;
		name = "JOB_SIGNAL";
		break;
	case MSG_JOB_PREEMPT:
		m->type = NODE_MSG_PREEMPT;
		name = "JOB_PREEMPT";
		break;
	case MSG_JOB_LIMIT:
		m->type = NODE_MSG_LIMIT;
		name = "JOB_LIMIT";
		break;
	case MSG_JOB_SUSPEND:
		m->type = NODE_MSG_SUSPEND;
		name = "JOB_SUSPEND";
		if (!json_is_boolean(json_object_get(msg, "suspend"))) {
			snprintf(why, len, "JOB_SUSPEND without suspend (true "
			    "or false)");
			return (-1);
		}
		m->suspend = json_is_true(json_object_get(msg, "suspend"));
		break;
	case MSG_JOB_ENDED_ACK:
		m->type = NODE_MSG_ENDED_ACK;
		name = "JOB_ENDED_ACK";
		break;
	default:
		snprintf(why, len, "unexpected message type %d from the "
		    "controller", type);
		return (-1);
	}
	/* A launch names its job inside "job"; the job's own fields are
	 * checked when it is launched, where a bad one fails that job and
	 * not the link. */
	if ((m->type == NODE_MSG_LAUNCH || m->type == NODE_MSG_STEP_LAUNCH ?
	    node_launch_id(msg, &m->id) :
	    node_msg_id(msg, &m->id)) == -1) {
		snprintf(why, len, "%s without a job id", name);
		return (-1);
	}
	if (m->type == NODE_MSG_SIGNAL)
		return (node_msg_signal(msg, m, why, len));
	if (m->type == NODE_MSG_LIMIT || m->type == NODE_MSG_SUSPEND)
		return (node_msg_limit(msg, m, why, len));
	return (0);
}
