/* node-io.h: the streams of the interactive jobs and steps this node runs
 * (grun; docs/protocol.md "Interactive sessions"). gnoded makes each one's
 * pipes, or its pseudo-terminal, before the processes start; they get the
 * other ends. Output goes to the controller as IO frames, at most
 * PROTO_IO_OUT_WINDOW bytes ahead of the client's acknowledgements; input
 * from the controller is written as the job reads it, and acknowledged.
 *
 * A job's or step's end is reported only once its output is all sent
 * (node_io_defer), so the client sees every byte before the end; a
 * process that leaves the streams open behind it delays the end by
 * NODE_IO_LINGER_MS at most. */
#ifndef GB_NODE_IO_H
#define GB_NODE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <jansson.h>

#include "daemon/node/node-launch.h"

#define NODE_IO_LINGER_MS	2000

struct node_ios;

struct node_ios_cb {
	/* Sends msg (borrowed) to the controller. */
	void	(*send)(const json_t *msg, void *arg);
	/* Sends the packed frames of buf (drained) to the controller. */
	void	(*send_frames)(struct evbuffer *buf, void *arg);
};

struct node_ios	*node_io_create(struct event_base *,
		     const struct node_ios_cb *, void *arg);
void		 node_io_free(struct node_ios *);

/* Makes the streams of job's step (0: the job itself) as l says (a
 * terminal of l->io_rows x l->io_cols owned by l->uid, or pipes), and sets
 * l->io_fd to the ends its processes get. Returns 0, or -1 with err set. */
int	node_io_open(struct node_ios *, uint64_t job, uint32_t step,
	    struct node_launch *l, char *err, size_t errlen);
/* Once the processes are forked (or could not be): closes gnoded's copy
 * of l->io_fd and starts relaying. */
void	node_io_started(struct node_ios *, uint64_t job, uint32_t step,
	    struct node_launch *l);
/* Drops the streams now, whatever is left in them (a hangup: a terminal's
 * processes get SIGHUP). */
void	node_io_close(struct node_ios *, uint64_t job, uint32_t step);

/* Sends end (borrowed; a JOB_ENDED or STEP_ENDED) once job's step's
 * output is all sent, then forgets the streams; at once when it has none
 * here. */
void	node_io_defer(struct node_ios *, uint64_t job, uint32_t step,
	    const json_t *end);

/* IO from the controller: input (fd 0 data or eof), or the ack of output.
 * IO_CONTROL's window size. Unknown sessions are ignored. */
void	node_io_msg(struct node_ios *, const json_t *msg);
void	node_io_winsize(struct node_ios *, uint64_t job, uint32_t step,
	    unsigned rows, unsigned cols);

/* The link to the controller is down: every stream is dropped, and
 * lost(job, step, arg) is called for each, so what ran in it ends. */
void	node_io_lost(struct node_ios *,
	    void (*lost)(uint64_t job, uint32_t step, void *arg), void *arg);

#endif
