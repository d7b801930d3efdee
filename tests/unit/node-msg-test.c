/* node-msg-test.c: what gnoded makes of the controller's messages
 * (daemon/node/node-msg.c): the HELLO reply, its refusals and the
 * heartbeat interval it names. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/proto.h"
#include "daemon/node/node-msg.h"
#include "tests/unit/tap.h"

/* Decodes the JSON text into m; returns node_msg_decode's result. */
static int
decode(const char *text, struct node_msg *m)
{
	json_t	*msg = json_loads(text, 0, NULL);
	char	 why[256];
	int	 rc;

	if (msg == NULL)
		return (-2);
	rc = node_msg_decode(msg, m, why, sizeof why);
	json_decref(msg);
	return (rc);
}

int
main(void)
{
	struct node_msg	m;
	char		text[256];

	snprintf(text, sizeof text, "{\"re\":%d,\"ok\":true,\"version\":%d}",
	    MSG_HELLO, PROTO_VERSION);
	is_int(decode(text, &m), 0, "a HELLO reply decodes");
	is_int(m.type, NODE_MSG_HELLO_REPLY, "as a HELLO reply");
	ok(m.accepted, "an ok reply of our version is accepted");
	is_int(m.heartbeat, 0, "one naming no interval leaves it 0");

	snprintf(text, sizeof text, "{\"re\":%d,\"ok\":true,\"version\":%d,"
	    "\"heartbeat_interval\":2}", MSG_HELLO, PROTO_VERSION);
	is_int(decode(text, &m), 0, "a reply naming an interval decodes");
	ok(m.accepted, "and is accepted");
	is_int(m.heartbeat, 2, "the interval is read");

	snprintf(text, sizeof text, "{\"re\":%d,\"ok\":true,\"version\":%d,"
	    "\"heartbeat_interval\":86400}", MSG_HELLO, PROTO_VERSION);
	decode(text, &m);
	ok(m.accepted && m.heartbeat == 86400, "a day is the longest taken");

	snprintf(text, sizeof text, "{\"re\":%d,\"ok\":true,\"version\":%d,"
	    "\"heartbeat_interval\":86401}", MSG_HELLO, PROTO_VERSION);
	decode(text, &m);
	ok(!m.accepted, "a longer interval is refused");
	is_str(m.refusal, "HELLO reply's heartbeat_interval: expected seconds "
	    "from 1 to 86400", "the refusal says what is accepted");

	snprintf(text, sizeof text, "{\"re\":%d,\"ok\":true,\"version\":%d,"
	    "\"heartbeat_interval\":0}", MSG_HELLO, PROTO_VERSION);
	decode(text, &m);
	ok(!m.accepted, "an interval of 0 is refused");

	snprintf(text, sizeof text, "{\"re\":%d,\"ok\":true,\"version\":%d,"
	    "\"heartbeat_interval\":\"5\"}", MSG_HELLO, PROTO_VERSION);
	decode(text, &m);
	ok(!m.accepted, "an interval that is not a number is refused");

	snprintf(text, sizeof text, "{\"re\":%d,\"ok\":true,\"version\":%d}",
	    MSG_HELLO, PROTO_VERSION + 1);
	decode(text, &m);
	ok(!m.accepted, "another protocol version is refused");
	is_str(m.refusal, "controller speaks another protocol version",
	    "and says so");

	snprintf(text, sizeof text, "{\"re\":%d,\"ok\":false,\"code\":"
	    "\"permission_denied\",\"message\":\"no such node\"}", MSG_HELLO);
	decode(text, &m);
	ok(!m.accepted, "a refusal is not accepted");
	is_str(m.refusal, "HELLO refused: no such node (permission_denied)",
	    "its message and code are kept");
	/* JOB_SUSPEND: freeze with the limit to keep should it fail,
	 * thaw with the limit put off; both named, or the link is reset. */
	snprintf(text, sizeof text, "{\"type\":%d,\"id\":7,\"suspend\":true,"
	    "\"time_limit\":60}", MSG_JOB_SUSPEND);
	is_int(decode(text, &m), 0, "JOB_SUSPEND decodes");
	ok(m.type == NODE_MSG_SUSPEND && m.id == 7 && m.suspend &&
	    m.limit == 60, "as a suspend of job 7, limit 60 s");
	snprintf(text, sizeof text, "{\"type\":%d,\"id\":7,\"suspend\":false,"
	    "\"time_limit\":0}", MSG_JOB_SUSPEND);
	is_int(decode(text, &m), 0, "a resume decodes");
	ok(m.type == NODE_MSG_SUSPEND && !m.suspend && m.limit == 0,
	    "as a resume with no limit");
	snprintf(text, sizeof text, "{\"type\":%d,\"id\":7,"
	    "\"time_limit\":0}", MSG_JOB_SUSPEND);
	is_int(decode(text, &m), -1, "one without suspend is refused");
	snprintf(text, sizeof text, "{\"type\":%d,\"id\":7,\"suspend\":true}",
	    MSG_JOB_SUSPEND);
	is_int(decode(text, &m), -1, "one without time_limit is refused");
	snprintf(text, sizeof text, "{\"type\":%d,\"suspend\":true,"
	    "\"time_limit\":0}", MSG_JOB_SUSPEND);
	is_int(decode(text, &m), -1, "one without a job id is refused");

	return (tap_done());
}
