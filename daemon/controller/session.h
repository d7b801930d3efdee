/* session.h: interactive sessions (grun, docs/protocol.md "Interactive
 * sessions"). A session ties a client's connection to an interactive job
 * (JOB_SUBMIT with "interactive") or to a command started inside a running
 * job (JOB_ATTACH, a step). It relays the streams between the client and
 * the nodes (IO, IO_CONTROL), tells the client how its job goes (SESSION),
 * and ends what the client started when its connection is lost.
 *
 * Flow control is SSH's: a node sends at most SESSION_OUT_WINDOW bytes of
 * output the client has not acknowledged, a client at most
 * SESSION_IN_WINDOW bytes of input its node has not written; gbatchd holds
 * no more than those windows per session, however slow either end. */
#ifndef GB_CTL_SESSION_H
#define GB_CTL_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "common/job-req.h"
#include "common/job-state.h"
#include "common/proto.h"

struct job;
struct node;
struct peer;
struct store_job;

/* Output bytes a node may have sent and the client not yet acknowledged;
 * input bytes a client may have sent and the node not yet written. */
#define SESSION_OUT_WINDOW	PROTO_IO_OUT_WINDOW
#define SESSION_IN_WINDOW	PROTO_IO_IN_WINDOW
/* The most bytes one IO frame carries. */
#define SESSION_IO_CHUNK	PROTO_IO_CHUNK

/* What a session's terminal is: a pseudo-terminal of rows x cols, or
 * pipes. */
struct session_tty {
	bool		pty;
	unsigned	rows;
	unsigned	cols;
};

/* Takes JOB_SUBMIT's "interactive" member from v (its members as
 * common/job-req.h read them): sets *is and tty, and the job's flags in
 * row (JOB_F_INTERACTIVE, and JOB_F_NO_REQUEUE unless "preemptible").
 * Returns 0 (*is false when absent), or -1 with err saying why a job
 * cannot be interactive. */
int	session_submit_read(const struct job_req_val *v, struct store_job *row,
	    bool *is, struct session_tty *tty, char *err, size_t errlen);
/* Ties the client p to its new interactive job id. */
void	session_open_job(struct peer *p, uint64_t id,
	    const struct session_tty *);

/* job_change_state() moved job from -> to (row: what was written): the
 * client of an interactive job hears of a start, a requeue and the end.
 * A job_listener_fn (job.h); other jobs are left alone. */
void	session_job_changed(struct job *, enum job_state from,
	    enum job_state to, const struct store_job *row);
/* The "interactive" member of part rank's JOB_LAUNCH (a new reference),
 * or NULL when that part relays nothing (a --pty job's other nodes). */
json_t	*session_launch_spec(const struct job *, size_t rank);

/* JOB_ATTACH's step: a new number, and the session of client p for it on
 * node n. */
uint32_t session_open_step(struct peer *p, uint64_t id, struct node *n,
	    const struct session_tty *);

/* Forgets the step (its launch could not be sent). */
void	 session_close_step(uint64_t id, uint32_t step);

/* Messages (req-session.c decodes and checks their members). */
/* IO from client p: input bytes or its end (fd 0), or "ack". */
void	session_client_io(struct peer *p, const json_t *msg);
/* IO_CONTROL from client p: a signal, a window size. */
void	session_client_control(struct peer *p, const json_t *msg);
/* IO from node peer p: output bytes, or the "ack" of input written. */
void	session_node_io(struct peer *p, const json_t *msg);
/* STEP_ENDED from node peer p. */
void	session_step_ended(struct peer *p, const json_t *msg);

/* Peer p's connection is gone. A client's interactive job is cancelled,
 * its steps hung up; a node's steps end (NODE_FAIL). */
void	session_peer_gone(struct peer *p);

/* At start (recover_load): the interactive jobs of ids (n of them) lost
 * their sessions with the last gbatchd. Pending ones are cancelled now,
 * running ones once their node is back. */
void	session_recover(const uint64_t *ids, size_t n);
void	session_free_all(void);

#endif
