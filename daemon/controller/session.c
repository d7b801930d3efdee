/* session.c: interactive sessions: a client tied to its job or step. */
#include <sys/queue.h>

#include <event2/buffer.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/session.h"
#include "daemon/controller/store.h"

/* Output a node sent that the client has not acknowledged yet, in order:
 * so many bytes from that node (consecutive frames of one node merged). */
struct session_chunk {
	uint64_t	node;		/* its peer's serial */
	size_t		bytes;
};

struct session {
	TAILQ_ENTRY(session)	 entry;
	uint64_t		 job;
	uint32_t		 step;		/* 0: the job itself */
	uint64_t		 client;	/* peer serial; 0: gone */
	uint64_t		 node;		/* a step's node's peer serial */
	char			*node_name;	/* a step's */
	struct session_tty	 tty;
	size_t			 in_flight;	/* input not yet written */
	struct session_chunk	*out;
	size_t			 nout;
	size_t			 outcap;
};
TAILQ_HEAD(session_list, session);

/* Every session, and the numbers of JOB_ATTACH's steps. Global: a session
 * is found by its job and step when a node or a client speaks of it. */
static struct {
	struct session_list	 all;
	uint32_t		 steps;
} sessions = {
	.all = TAILQ_HEAD_INITIALIZER(sessions.all),
};

static struct session *
session_find(uint64_t job, uint32_t step)
{
	struct session	*s;

	TAILQ_FOREACH(s, &sessions.all, entry) {
		if (s->job == job && s->step == step)
			return (s);
	}
	return (NULL);
}

static struct session *
session_new(struct peer *p, uint64_t job, uint32_t step,
    const struct session_tty *tty)
{
	struct session	*s;

	s = xcalloc(1, sizeof *s);
	s->job = job;
	s->step = step;
	s->client = peer_serial(p);
	s->tty = *tty;
	TAILQ_INSERT_TAIL(&sessions.all, s, entry);
	return (s);
}

static void
session_free(struct session *s)
{
	TAILQ_REMOVE(&sessions.all, s, entry);
	free(s->node_name);
	free(s->out);
	free(s);
}

/* Sends msg (stolen) to the session's client, if it is still there. */
static void
session_to_client(struct session *s, json_t *msg)
{
	struct peer	*p;

	if (s->client != 0 && (p = peer_by_serial(s->client)) != NULL)
		peer_send(p, msg);
	json_decref(msg);
}

/* Passes an IO frame of output on to the client, written by hand: the
 * data is most of it and needs no escaping (base64). */
static void
session_data_to_client(struct session *s, const json_t *msg,
    const json_t *data)
{
	struct evbuffer	*frame;
	struct peer	*p;
	char		 head[PROTO_IO_HEAD_MAX];
	size_t		 hlen, tlen = json_string_length(data);

	if (s->client == 0 || (p = peer_by_serial(s->client)) == NULL)
		return;
	hlen = proto_io_head(head, s->job, s->step, (int)json_integer_value(
	    json_object_get(msg, "fd")), tlen);
	frame = evbuffer_new();
	evbuffer_add(frame, head, hlen);
	evbuffer_add(frame, json_string_value(data), tlen);
	evbuffer_add(frame, PROTO_IO_TAIL, sizeof PROTO_IO_TAIL - 1);
	peer_send_frame(p, frame);
	evbuffer_free(frame);
}

/* Tells node peer serial it may send bytes more output of the session. */
static void
session_ack_node(uint64_t job, uint32_t step, uint64_t node, size_t bytes)
{
	struct peer	*p;
	json_t		*msg;

	if (bytes == 0 || (p = peer_by_serial(node)) == NULL)
		return;
	msg = json_pack("{s:i,s:I,s:i,s:I}", "type", MSG_IO,
	    "job", (json_int_t)job, "step", (int)step,
	    "ack", (json_int_t)bytes);
	peer_send(p, msg);
	json_decref(msg);
}

/* Acknowledges to the nodes the first bytes of output they sent. */
static void
session_ack_out(struct session *s, size_t bytes)
{
	size_t	i = 0, n;

	while (bytes > 0 && i < s->nout) {
		n = bytes < s->out[i].bytes ? bytes : s->out[i].bytes;
		session_ack_node(s->job, s->step, s->out[i].node, n);
		s->out[i].bytes -= n;
		bytes -= n;
		if (s->out[i].bytes == 0)
			i++;
	}
	if (i == 0)
		return;
	memmove(s->out, s->out + i, (s->nout - i) * sizeof *s->out);
	s->nout -= i;
}

int
session_submit_read(const struct job_req_val *v, struct store_job *row,
    bool *is, struct session_tty *tty, char *err, size_t errlen)
{
	*is = false;
	memset(tty, 0, sizeof *tty);
	if (v[JRQ_INTERACTIVE].json == NULL)
		return (0);
	if (v[JRQ_ARRAY].json != NULL) {
		snprintf(err, errlen, "interactive: a job array cannot be "
		    "interactive; submit it with gsub");
		return (-1);
	}
	tty->pty = v[JRQ_PTY].n != 0;
	tty->rows = (unsigned)v[JRQ_ROWS].n;
	tty->cols = (unsigned)v[JRQ_COLS].n;
	/* Someone waits at a terminal: the job is not taken away from them
	 * for another unless they said it may be. */
	row->flags |= JOB_F_INTERACTIVE;
	if (tty->pty)
		row->flags |= JOB_F_PTY;
	if (v[JRQ_PREEMPTIBLE].n == 0)
		row->flags |= JOB_F_NO_REQUEUE;
	*is = true;
	return (0);
}

void
session_open_job(struct peer *p, uint64_t id, const struct session_tty *tty)
{
	(void)session_new(p, id, 0, tty);
}

uint32_t
session_open_step(struct peer *p, uint64_t id, struct node *n,
    const struct session_tty *tty)
{
	struct session	*s;

	/* Never 0, never reused while gbatchd runs. */
	if (++sessions.steps == 0)
		sessions.steps = 1;
	s = session_new(p, id, sessions.steps, tty);
	s->node = peer_serial(node_peer(n));
	s->node_name = xstrdup(node_name(n));
	return (s->step);
}

void
session_close_step(uint64_t id, uint32_t step)
{
	struct session	*s;

	if ((s = session_find(id, step)) != NULL)
		session_free(s);
}

/* {"type":SESSION,"job":id,"step":step,"state":name}: a new reference. */
static json_t *
session_event(const struct session *s, const char *state)
{
	return (json_pack("{s:i,s:I,s:i,s:s}", "type", MSG_SESSION,
	    "job", (json_int_t)s->job, "step", (int)s->step, "state", state));
}

void
session_job_changed(struct job *j, enum job_state from, enum job_state to,
    const struct store_job *row)
{
	struct session	*s;
	json_t		*ev;

	if (!job_is_interactive(j) || (s = session_find(job_id(j), 0)) == NULL)
		return;
	if (to == JOB_RUNNING) {
		ev = session_event(s, "RUNNING");
		json_object_set_new(ev, "node", json_string(
		    node_name(job_node(j))));
		json_object_set_new(ev, "num_nodes", json_integer(
		    (json_int_t)job_nparts(j)));
		session_to_client(s, ev);
		return;
	}
	if (to == JOB_PENDING && job_state_on_node(from)) {
		/* What the last run sent is void; its input too. */
		session_ack_out(s, SIZE_MAX);
		s->in_flight = 0;
		ev = session_event(s, "PENDING");
		json_object_set_new(ev, "message", json_string(
		    row->message != NULL ? row->message : ""));
		session_to_client(s, ev);
		return;
	}
	if (!job_state_is_terminal(to))
		return;
	ev = session_event(s, job_state_name(to));
	json_object_set_new(ev, "end", json_true());
	if (row->has_exit) {
		json_object_set_new(ev, "exit_code",
		    json_integer(row->exit_code));
		json_object_set_new(ev, "signal", json_integer(row->signal));
	}
	json_object_set_new(ev, "message", json_string(
	    row->message != NULL ? row->message : ""));
	session_to_client(s, ev);
	session_ack_out(s, SIZE_MAX);
	session_free(s);
}

json_t *
session_launch_spec(const struct job *j, size_t rank)
{
	struct session		*s = session_find(job_id(j), 0);
	struct session_tty	 none = { false, 24, 80 };
	const struct session_tty *tty = s != NULL ? &s->tty : &none;

	/* A terminal has one process at its end: the first task's. */
	if ((job_flags(j) & JOB_F_PTY) && rank != 0)
		return (NULL);
	return (json_pack("{s:b,s:i,s:i,s:b}", "pty",
	    (job_flags(j) & JOB_F_PTY) != 0,
	    "rows", (int)tty->rows, "cols", (int)tty->cols,
	    "stdin", rank == 0));
}

/* The node peer a session's input and terminal go to: its step's, or the
 * job's first part's while it runs; NULL when there is none. */
static struct peer *
session_in_node(const struct session *s)
{
	struct job	*j;

	if (s->step != 0)
		return (peer_by_serial(s->node));
	if ((j = job_table_find(s->job)) == NULL || job_state(j) != JOB_RUNNING)
		return (NULL);
	return (node_peer(job_node(j)));
}

/* The session of msg's job and step if client p holds it. */
static struct session *
session_of_client(struct peer *p, const json_t *msg)
{
	struct session	*s;

	s = session_find((uint64_t)json_integer_value(json_object_get(msg,
	    "job")), (uint32_t)json_integer_value(json_object_get(msg,
	    "step")));
	if (s == NULL || s->client != peer_serial(p))
		return (NULL);
	return (s);
}

/* The decoded length of base64 text of len characters ending in text. */
static size_t
session_b64_bytes(const char *text, size_t len)
{
	size_t	n = len / 4 * 3;

	if (len >= 1 && text[len - 1] == '=')
		n--;
	if (len >= 2 && text[len - 2] == '=')
		n--;
	return (n);
}

void
session_client_io(struct peer *p, const json_t *msg)
{
	struct session	*s;
	struct peer	*node;
	const json_t	*data = json_object_get(msg, "data");
	json_int_t	 ack;
	size_t		 bytes = 0;

	/* Late frames of a session that ended are nobody's business. */
	if ((s = session_of_client(p, msg)) == NULL)
		return;
	if ((ack = json_integer_value(json_object_get(msg, "ack"))) > 0) {
		session_ack_out(s, (size_t)ack);
		return;
	}
	if (data != NULL)
		bytes = session_b64_bytes(json_string_value(data),
		    json_string_length(data));
	if (s->in_flight + bytes > SESSION_IN_WINDOW) {
		peer_close(p, "IO: more input than its window allows");
		return;
	}
	/* Nothing runs to take it (the job was requeued): it is dropped,
	 * and the client may send more. */
	if ((node = session_in_node(s)) == NULL) {
		session_to_client(s, json_pack("{s:i,s:I,s:i,s:I}", "type",
		    MSG_IO, "job", (json_int_t)s->job, "step", (int)s->step,
		    "ack", (json_int_t)bytes));
		return;
	}
	s->in_flight += bytes;
	peer_send(node, msg);
}

void
session_client_control(struct peer *p, const json_t *msg)
{
	struct session	*s;
	struct peer	*node;
	struct job	*j;
	const json_t	*sig = json_object_get(msg, "signal");

	if ((s = session_of_client(p, msg)) == NULL)
		return;
	if (json_object_get(msg, "rows") != NULL) {
		s->tty.rows = (unsigned)json_integer_value(json_object_get(msg,
		    "rows"));
		s->tty.cols = (unsigned)json_integer_value(json_object_get(msg,
		    "cols"));
	}
	/* The job's own command: every task on every node, as gcancel
	 * --signal sends it. */
	if (s->step == 0 && sig != NULL) {
		if ((j = job_table_find(s->job)) != NULL &&
		    job_state(j) == JOB_RUNNING)
			(void)launch_signal(j, (int)json_integer_value(sig),
			    false);
		return;
	}
	if ((node = session_in_node(s)) != NULL)
		peer_send(node, msg);
}

/* Whether node peer p runs (a part of) the session's job or step. */
static bool
session_node_holds(const struct session *s, struct peer *p)
{
	struct job	*j;

	if (s->step != 0)
		return (s->node == peer_serial(p));
	return ((j = job_table_find(s->job)) != NULL && peer_node(p) != NULL &&
	    job_rank_on(j, peer_node(p)) >= 0);
}

void
session_node_io(struct peer *p, const json_t *msg)
{
	struct session	*s;
	const json_t	*data = json_object_get(msg, "data");
	json_int_t	 ack;
	uint64_t	 job;
	uint32_t	 step;
	size_t		 bytes;

	job = (uint64_t)json_integer_value(json_object_get(msg, "job"));
	step = (uint32_t)json_integer_value(json_object_get(msg, "step"));
	bytes = data != NULL ? session_b64_bytes(json_string_value(data),
	    json_string_length(data)) : 0;
	if ((s = session_find(job, step)) == NULL ||
	    !session_node_holds(s, p)) {
		/* No one listens: the node may go on (its job ends). */
		session_ack_node(job, step, peer_serial(p), bytes);
		return;
	}
	if ((ack = json_integer_value(json_object_get(msg, "ack"))) > 0) {
		s->in_flight -= (size_t)ack < s->in_flight ? (size_t)ack :
		    s->in_flight;
		session_to_client(s, json_incref((json_t *)msg));
		return;
	}
	if (bytes == 0)
		return;
	if (s->client == 0 || peer_by_serial(s->client) == NULL) {
		session_ack_node(s->job, s->step, peer_serial(p), bytes);
		return;
	}
	if (s->nout > 0 && s->out[s->nout - 1].node == peer_serial(p))
		s->out[s->nout - 1].bytes += bytes;
	else {
		if (s->nout == s->outcap) {
			s->outcap = s->outcap == 0 ? 4 : s->outcap * 2;
			s->out = xreallocarray(s->out, s->outcap,
			    sizeof *s->out);
		}
		s->out[s->nout].node = peer_serial(p);
		s->out[s->nout++].bytes = bytes;
	}
	session_data_to_client(s, msg, data);
}

/* Ends step session s: the client hears how, then it is forgotten. */
static void
session_step_end(struct session *s, const char *state, int code, int sig,
    const char *message)
{
	json_t	*ev;

	if (s->step != 0)
		(void)store_step_end(s->job, s->step, ctx_now(), state, code,
		    sig);
	ev = session_event(s, state);
	json_object_set_new(ev, "end", json_true());
	json_object_set_new(ev, "exit_code", json_integer(code));
	json_object_set_new(ev, "signal", json_integer(sig));
	json_object_set_new(ev, "message", json_string(message));
	session_to_client(s, ev);
	session_free(s);
}

void
session_step_ended(struct peer *p, const json_t *msg)
{
	struct session	*s;
	struct job	*j;
	const char	*state;
	int		 code, sig;

	s = session_find((uint64_t)json_integer_value(json_object_get(msg,
	    "job")), (uint32_t)json_integer_value(json_object_get(msg,
	    "step")));
	if (s == NULL || s->step == 0 || s->node != peer_serial(p))
		return;
	code = (int)json_integer_value(json_object_get(msg, "exit_code"));
	sig = (int)json_integer_value(json_object_get(msg, "signal"));
	state = code == 0 && sig == 0 ? "COMPLETED" : "FAILED";
	/* Killed as its job ended (cancelled, its time out) or as its
	 * client went (srun ended, hung up): Slurm's CANCELLED. */
	if (sig != 0 && (s->client == 0 || (j = job_table_find(s->job)) ==
	    NULL || job_state(j) != JOB_RUNNING || job_cancel_requested(j)))
		state = "CANCELLED";
	log_info("job %" PRIu64 ": step %u on %s ended (%s)", s->job,
	    s->step, s->node_name, state);
	session_step_end(s, state, code, sig, json_string_value(
	    json_object_get(msg, "message")) != NULL ? json_string_value(
	    json_object_get(msg, "message")) : "");
}

/* The client of s is gone: what it started ends with it. */
static void
session_client_gone(struct session *s)
{
	struct job	*j;
	struct peer	*node;
	char		 detail[160];

	s->client = 0;
	session_ack_out(s, SIZE_MAX);
	if (s->step != 0) {
		/* A hangup, as when a terminal closes. */
		if ((node = peer_by_serial(s->node)) != NULL) {
			json_t *msg = json_pack("{s:i,s:I,s:i,s:b}", "type",
			    MSG_IO_CONTROL, "job", (json_int_t)s->job,
			    "step", (int)s->step, "hangup", 1);
			peer_send(node, msg);
			json_decref(msg);
		}
		return;
	}
	if ((j = job_table_find(s->job)) == NULL || job_cancel_requested(j))
		return;
	log_info("job %" PRIu64 ": its grun session's connection was lost; "
	    "cancelling it", s->job);
	snprintf(detail, sizeof detail, "its grun session's connection was "
	    "lost");
	(void)launch_cancel(j, detail);
}

void
session_peer_gone(struct peer *p)
{
	struct session	*s, *next;
	uint64_t	 serial = peer_serial(p);

	if (TAILQ_EMPTY(&sessions.all))
		return;
	for (s = TAILQ_FIRST(&sessions.all); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		if (s->client == serial)
			session_client_gone(s);
		else if (s->step != 0 && s->node == serial)
			session_step_end(s, "NODE_FAIL", 0, 0, "lost the "
			    "connection to its node");
	}
	/* A cancelled job's session went with launch_cancel(); a
	 * step's stays until its node says it ended. */
	for (s = TAILQ_FIRST(&sessions.all); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		if (s->client == 0 && s->step != 0 &&
		    peer_by_serial(s->node) == NULL)
			session_free(s);
	}
}

void
session_recover(const uint64_t *ids, size_t n)
{
	struct job	*j;
	char		 detail[128];
	size_t		 i;

	/* Step numbers go on from the last recorded: a job's steps keep
	 * their names across restarts. */
	sessions.steps = store_step_max();
	snprintf(detail, sizeof detail, "its grun session ended when "
	    "gbatchd restarted");
	for (i = 0; i < n; i++) {
		if ((j = job_table_find(ids[i])) == NULL ||
		    !job_is_interactive(j) ||
		    job_state_is_terminal(job_state(j)))
			continue;
		if (job_state(j) == JOB_PENDING || job_state(j) == JOB_HELD)
			(void)launch_cancel(j, detail);
		else
			job_set_cancel_requested(j, true);
		commit_want();
	}
}

void
session_free_all(void)
{
	while (!TAILQ_EMPTY(&sessions.all))
		session_free(TAILQ_FIRST(&sessions.all));
}
