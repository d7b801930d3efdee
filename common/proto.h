/* proto.h: the one protocol header (docs/protocol.md). Message types are
 * numbered in ranges: 100s hello and admin, 200s jobs, 300s nodes. Add new
 * numbers; never renumber. */
#ifndef GB_PROTO_H
#define GB_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* Checked on the first message of every connection (MSG_HELLO). */
#define PROTO_VERSION		1

enum msg_type {
	MSG_HELLO = 100,	/* first message: version, role */
	MSG_PING = 101,		/* gctl ping */
	MSG_SHUTDOWN = 102,	/* gctl shutdown (operators) */
	MSG_RECONFIGURE = 103,	/* gctl reconfigure (operators) */
	MSG_CONFIG_SHOW = 104,	/* gctl show config */
	MSG_RELAY = 105,	/* node -> controller: a local client's frame */
	MSG_RELAY_REPLY = 106,	/* controller -> node: a frame for it */
	MSG_PURGE = 107,	/* gctl purge (operators) */
	MSG_ASSOC = 108,	/* gctl account/user changes (operators) */
	MSG_ASSOC_LIST = 109,	/* gctl account/user list and show */
	MSG_RESV = 110,		/* gctl reservation changes (operators) */
	MSG_RESV_LIST = 111,	/* gctl reservation list */
	MSG_REPLICA = 112,	/* gctl replica list, add, remove */
	MSG_RAFT = 113,		/* replica -> replica: raft's message */

	MSG_JOB_SUBMIT = 200,
	MSG_JOB_LIST = 201,
	MSG_JOB_CANCEL = 202,
	MSG_JOB_UPDATE = 203,	/* gctl hold, release, requeue */
	MSG_JOB_ACCT = 204,	/* gacct: finished jobs, streamed */
	MSG_JOB_ATTACH = 205,	/* grun --jobid: a command in a running job */
	MSG_SESSION = 206,	/* controller -> client: its session's news */
	MSG_IO = 207,		/* a session's bytes, every way */
	MSG_IO_CONTROL = 208,	/* a session's signal, window size */
	MSG_STEP_LIST = 209,	/* gq -l, sacct: jobs' steps */

	MSG_NODE_LIST = 300,
	MSG_NODE_HEARTBEAT = 301,	/* node -> controller */
	MSG_NODE_UPDATE = 302,		/* gctl drain/resume (operators) */
	MSG_JOB_LAUNCH = 310,		/* controller -> node */
	MSG_JOB_SIGNAL = 311,		/* controller -> node */
	MSG_JOB_STARTED = 312,		/* node -> controller */
	MSG_JOB_ENDED = 313,		/* node -> controller */
	MSG_JOB_ENDED_ACK = 314,	/* controller -> node */
	MSG_JOB_PREEMPT = 315,		/* controller -> node */
	MSG_STEP_LAUNCH = 316,		/* controller -> node: JOB_ATTACH */
	MSG_STEP_ENDED = 317,		/* node -> controller */
	MSG_JOB_LIMIT = 318,		/* controller -> node */
	MSG_JOB_SUSPEND = 319,		/* controller -> node: (un)freeze */
};

/* Interactive sessions' flow control (docs/protocol.md, IO): the output
 * bytes a node may send ahead of the client's acknowledgements, the input
 * bytes a client may send ahead of its node's, and the most one IO frame
 * carries. */
#define PROTO_IO_OUT_WINDOW	(256U * 1024)
#define PROTO_IO_IN_WINDOW	(64U * 1024)
#define PROTO_IO_CHUNK		(16U * 1024)

/* The bytes of an IO frame that carries data, written by hand rather than
 * through a JSON tree, since they are most of what a session sends: the
 * frame header and {"type":207,"job":J,"step":S,"fd":F,"data":" into buf
 * (room for PROTO_IO_HEAD_MAX), for a body of text_len characters of
 * base64 then PROTO_IO_TAIL. Returns the length written. */
#define PROTO_IO_HEAD_MAX	96
#define PROTO_IO_TAIL		"\"}"
size_t		 proto_io_head(char *buf, uint64_t job, uint32_t step, int fd,
		    size_t text_len);

/* Stable error codes carried in replies ("code"); each maps to one exit
 * status of the commands. */
#define PROTO_E_BAD_REQUEST	"bad_request"	/* malformed or unknown message */
#define PROTO_E_VERSION		"version"	/* protocol version mismatch */
#define PROTO_E_INVALID		"invalid"	/* a value is out of range */
#define PROTO_E_NOT_FOUND	"not_found"	/* no such job or node */
#define PROTO_E_PERMISSION	"permission"	/* not yours / operators only */
#define PROTO_E_UNSATISFIABLE	"unsatisfiable"	/* no node could ever run it */
#define PROTO_E_INTERNAL	"internal"	/* controller failure (store) */
#define PROTO_E_SHUTTING_DOWN	"shutting_down"
#define PROTO_E_BUSY		"busy"		/* connections ran short */
/* A replica that follows (replicated controllers): the message names the
 * leader; the reply's "leader" holds its address when one is known. */
#define PROTO_E_NOT_LEADER	"not_leader"

/* Exit statuses shared by every command (man/gbatch-exit-status in each
 * page's EXIT STATUS). */
#define EXIT_OK			0
#define EXIT_REFUSED		1	/* the controller refused the request */
#define EXIT_USAGE		2	/* bad option or argument */
#define EXIT_UNREACHABLE	3	/* cannot reach or talk to gbatchd */
#define EXIT_PERMISSION		4	/* not allowed */

/* Maps a reply's code to the exit status above. */
int		 proto_exit_status(const char *code);

/* Builds {"type": type} (a new reference). */
json_t		*proto_msg(enum msg_type type);
/* Builds the reply to req: {"re": type, "seq": seq, "ok": true}. */
json_t		*proto_reply_ok(const json_t *req);
/* Builds an error reply: ok false, code and a one-line message. */
json_t		*proto_reply_error(const json_t *req, const char *code,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Returns the message's type or -1 when it has none. */
int		 proto_type(const json_t *msg);

#endif
