/* node-msg.h: what the controller says to a node (docs/protocol.md, role
 * "node"), decoded: the reply to HELLO, JOB_LAUNCH's job id, JOB_SIGNAL,
 * JOB_PREEMPT, JOB_SUSPEND, JOB_ENDED_ACK and RELAY_REPLY's envelope. A pure function of the message, so
 * node-session.c only acts and tests/fuzz can try any frame on it. The
 * launched job itself is node-launch.c's to decode. */
#ifndef GB_NODE_MSG_H
#define GB_NODE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

enum node_msg_type {
	NODE_MSG_HELLO_REPLY,	/* accepted, or refusal says why not */
	NODE_MSG_OTHER_REPLY,	/* a reply to something else: ignored */
	NODE_MSG_LAUNCH,	/* id */
	NODE_MSG_SIGNAL,	/* id, sig, cancel */
	NODE_MSG_PREEMPT,	/* id */
	NODE_MSG_LIMIT,		/* id, limit */
	NODE_MSG_SUSPEND,	/* id, suspend, limit */
	NODE_MSG_ENDED_ACK,	/* id */
	NODE_MSG_RELAY_REPLY,	/* chan, close */
	/* An interactive session's (node-io.c and node-steps.c read the
	 * rest): IO, IO_CONTROL, STEP_LAUNCH; id is the job, step its
	 * step (0: the job itself). */
	NODE_MSG_IO,
	NODE_MSG_IO_CONTROL,
	NODE_MSG_STEP_LAUNCH,
};

/* The longest heartbeat interval a controller may ask for (seconds). */
#define NODE_MSG_MAX_HEARTBEAT	86400

struct node_msg {
	enum node_msg_type	 type;
	uint64_t		 id;		/* the job, > 0 */
	int			 sig;		/* 1 to NSIG - 1 */
	bool			 cancel;
	uint64_t		 limit;		/* LIMIT, SUSPEND: s, 0 none */
	bool			 suspend;	/* SUSPEND: false resumes */
	uint32_t		 chan;		/* RELAY_REPLY: > 0 */
	bool			 close;		/* RELAY_REPLY */
	uint32_t		 step;		/* IO, IO_CONTROL */
	long long		 re;		/* OTHER_REPLY: what it answers */
	bool			 accepted;	/* HELLO_REPLY */
	/* HELLO_REPLY: the seconds between heartbeats the controller asks
	 * for (1 to NODE_MSG_MAX_HEARTBEAT); 0: it named none. */
	unsigned		 heartbeat;
	char			 refusal[512];	/* HELLO_REPLY, not accepted */
};

/* Decodes msg into m. Returns 0, or -1 with why naming what is missing or
 * wrong (a protocol error: the link is reset). */
int	node_msg_decode(const json_t *msg, struct node_msg *m, char *why,
	    size_t len);

#endif
