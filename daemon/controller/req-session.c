/* req-session.c: the messages of interactive sessions (docs/protocol.md
 * "Interactive sessions"): IO and IO_CONTROL from clients and nodes,
 * JOB_ATTACH from clients, STEP_ENDED from nodes. Each is checked here,
 * member by member; session.c acts on what passed. A malformed one is a
 * protocol error: its peer is closed. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/base64.h"
#include "common/job-req.h"
#include "common/job-state.h"
#include "common/proto.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"
#include "daemon/controller/session.h"

/* Whether msg names a session: "job" above 0, "step" absent or >= 0. */
static bool
req_session_names(const json_t *msg)
{
	const json_t	*job = json_object_get(msg, "job");
	const json_t	*step = json_object_get(msg, "step");

	return (json_is_integer(job) && json_integer_value(job) > 0 &&
	    (step == NULL || (json_is_integer(step) &&
	    json_integer_value(step) >= 0 &&
	    json_integer_value(step) <= UINT32_MAX)));
}

/* Checks an IO frame from a client (node false: fd 0 data or eof, or an
 * ack of output) or a node (fd 1 or 2 data, or an ack of input). Returns
 * NULL, or what is wrong. */
static const char *
req_session_io_bad(const json_t *msg, bool node)
{
	const json_t	*data = json_object_get(msg, "data");
	const json_t	*ack = json_object_get(msg, "ack");
	const json_t	*fd = json_object_get(msg, "fd");
	size_t		 len;

	if (!req_session_names(msg))
		return ("job: expected a job id; step: a whole number");
	if (ack != NULL)
		return (json_is_integer(ack) && json_integer_value(ack) > 0 &&
		    json_integer_value(ack) <= (node ? SESSION_IN_WINDOW :
		    SESSION_OUT_WINDOW) ? NULL : "ack: expected a whole number "
		    "within the window");
	if (!json_is_integer(fd) || (node ? json_integer_value(fd) != 1 &&
	    json_integer_value(fd) != 2 : json_integer_value(fd) != 0))
		return (node ? "fd: expected 1 or 2" : "fd: expected 0");
	if (!node && json_is_true(json_object_get(msg, "eof")))
		return (NULL);
	if (!json_is_string(data) || (len = json_string_length(data)) == 0 ||
	    len > BASE64_LEN(SESSION_IO_CHUNK) ||
	    !base64_valid(json_string_value(data), len))
		return ("data: expected base64 of 1 to 16384 bytes");
	return (NULL);
}

static void
req_io(struct peer *p, const json_t *msg)
{
	const char	*why;
	char		 text[160];
	bool		 node = peer_role(p) == PEER_NODE;

	if ((why = req_session_io_bad(msg, node)) != NULL) {
		snprintf(text, sizeof text, "IO: %s", why);
		peer_close(p, text);
		return;
	}
	if (node)
		session_node_io(p, msg);
	else
		session_client_io(p, msg);
}

static void
req_io_control(struct peer *p, const json_t *msg)
{
	const json_t	*sig = json_object_get(msg, "signal");
	const json_t	*rows = json_object_get(msg, "rows");
	const json_t	*cols = json_object_get(msg, "cols");

	if (!req_session_names(msg) ||
	    (sig != NULL && (!json_is_integer(sig) ||
	    json_integer_value(sig) < 1 || json_integer_value(sig) > 64)) ||
	    ((rows != NULL || cols != NULL) && (!json_is_integer(rows) ||
	    !json_is_integer(cols) || json_integer_value(rows) < 1 ||
	    json_integer_value(rows) > 65535 || json_integer_value(cols) < 1 ||
	    json_integer_value(cols) > 65535)) ||
	    (sig == NULL && rows == NULL)) {
		peer_close(p, "IO_CONTROL: expected job, step, and signal (1 "
		    "to 64) or rows and cols (1 to 65535)");
		return;
	}
	session_client_control(p, msg);
}

static void
req_step_ended(struct peer *p, const json_t *msg)
{
	if (!req_session_names(msg) ||
	    !json_is_integer(json_object_get(msg, "exit_code")) ||
	    !json_is_integer(json_object_get(msg, "signal"))) {
		peer_close(p, "STEP_ENDED: expected job, step, exit_code and "
		    "signal");
		return;
	}
	session_step_ended(p, msg);
}

/* Checks JOB_ATTACH's command: argv, env and workdir. */
static int
req_job_attach_cmd(const json_t *msg, char *err, size_t errlen)
{
	const json_t	*argv = json_object_get(msg, "argv");
	const json_t	*env = json_object_get(msg, "env");
	const json_t	*wd = json_object_get(msg, "workdir");
	const json_t	*v;
	const char	*k;
	size_t		 i;

	if (!json_is_array(argv) || json_array_size(argv) == 0) {
		snprintf(err, errlen, "argv: expected the command and its "
		    "arguments");
		return (-1);
	}
	json_array_foreach(argv, i, v) {
		if (!json_is_string(v)) {
			snprintf(err, errlen, "argv: expected strings");
			return (-1);
		}
	}
	if (!json_is_object(env)) {
		snprintf(err, errlen, "env: expected an object of strings");
		return (-1);
	}
	json_object_foreach((json_t *)env, k, v) {
		if (!json_is_string(v) || *k == '\0' || strchr(k, '=') != NULL) {
			snprintf(err, errlen, "env: expected NAME: \"value\" "
			    "pairs");
			return (-1);
		}
	}
	if (!json_is_string(wd) || json_string_value(wd)[0] != '/') {
		snprintf(err, errlen, "workdir: expected an absolute path");
		return (-1);
	}
	return (0);
}

/* The part of j on the node JOB_ATTACH names (its first when none), or
 * -1 with err set. */
static int
req_job_attach_rank(struct job *j, const json_t *msg, char *err,
    size_t errlen)
{
	const char	*name = json_string_value(json_object_get(msg, "node"));
	struct node	*n;
	int		 rank;

	if (name == NULL)
		return (0);
	if ((n = node_find(name)) == NULL || (rank = job_rank_on(j, n)) < 0) {
		snprintf(err, errlen, "job %" PRIu64 " does not run on %s",
		    job_id(j), name);
		return (-1);
	}
	return (rank);
}

/* JOB_ATTACH's "task" (optional): which task of a step of several the
 * command is (srun's), {"rank", "local", "count", "world_size"}: its
 * global rank, its rank among the count on its node, and the step's tasks
 * in all. Returns 0, or -1 with err saying what is accepted. */
static int
req_job_attach_task(const json_t *msg, char *err, size_t errlen)
{
	const json_t	*t = json_object_get(msg, "task");
	json_int_t	 v[4];
	const char	*k[4] = { "rank", "local", "count", "world_size" };
	const json_int_t max = (json_int_t)JOB_REQ_MAX_TASKS *
			    JOB_REQ_MAX_NODES;
	int		 i;

	if (t == NULL)
		return (0);
	for (i = 0; i < 4; i++) {
		if (!json_is_integer(json_object_get(t, k[i])) ||
		    (v[i] = json_integer_value(json_object_get(t, k[i]))) <
		    (i < 2 ? 0 : 1) || v[i] > max)
			goto bad;
	}
	if (v[2] > JOB_REQ_MAX_TASKS || v[1] >= v[2] || v[0] < v[1] ||
	    v[0] >= v[3] || v[0] - v[1] + v[2] > v[3])
		goto bad;
	/* The step its first task opened (the step's name); absent for
	 * that first task. */
	if (json_object_get(t, "gpu_bind") != NULL &&
	    !json_is_boolean(json_object_get(t, "gpu_bind")))
		goto bad;
	if (json_object_get(t, "first") != NULL &&
	    (!json_is_integer(json_object_get(t, "first")) ||
	    json_integer_value(json_object_get(t, "first")) < 1 ||
	    json_integer_value(json_object_get(t, "first")) > UINT32_MAX))
		goto bad;
	return (0);
bad:
	snprintf(err, errlen, "task: expected {\"rank\", \"local\", "
	    "\"count\", \"world_size\", \"first\"?}: local below count (at "
	    "most %d), the node's tasks from rank - local within world_size, "
	    "first a step's number", JOB_REQ_MAX_TASKS);
	return (-1);
}

/* Records job j's new step (a task of it) on node n: its row in
 * job_steps, named by its first task's number. */
static void
req_job_attach_record(struct peer *p, const struct job *j,
    const struct node *n, uint32_t step, const json_t *msg)
{
	const json_t		*t = json_object_get(msg, "task");
	const json_t		*a;
	struct store_step	 s;
	char			 cmd[1024];
	size_t			 i, len = 0;

	cmd[0] = '\0';
	json_array_foreach(json_object_get(msg, "argv"), i, a) {
		if (len < sizeof cmd - 1)
			len += (size_t)snprintf(cmd + len, sizeof cmd - len,
			    "%s%s", i > 0 ? " " : "", json_string_value(a));
	}
	memset(&s, 0, sizeof s);
	s.job = job_id(j);
	s.step = step;
	s.first = json_is_integer(json_object_get(t, "first")) ? (uint32_t)
	    json_integer_value(json_object_get(t, "first")) : step;
	s.user = peer_user(p);
	s.node = node_name(n);
	s.task = (uint32_t)json_integer_value(json_object_get(t, "rank"));
	s.ntasks = t != NULL ? (uint32_t)json_integer_value(
	    json_object_get(t, "world_size")) : 1;
	s.command = cmd;
	s.start_time = ctx_now();
	(void)store_step_start(&s);
}

static void
req_job_attach(struct peer *p, const json_t *msg)
{
	const struct conf	*c = ctx_conf();
	struct session_tty	 tty;
	struct job_req_val	 v[JRQ_COUNT];
	struct store_job	 row;
	struct job		*j;
	struct node		*n;
	json_t			*io, *reply, *job;
	char			 err[256], target[64];
	bool			 is;
	uint32_t		 step;
	int			 rank;

	if (!json_is_integer(json_object_get(msg, "job"))) {
		req_error(p, msg, PROTO_E_INVALID, "job: expected a job id");
		return;
	}
	snprintf(target, sizeof target, "job %" JSON_INTEGER_FORMAT,
	    json_integer_value(json_object_get(msg, "job")));
	if ((j = job_table_find((uint64_t)json_integer_value(
	    json_object_get(msg, "job")))) == NULL) {
		req_error(p, msg, PROTO_E_NOT_FOUND, "no job %" 
		    JSON_INTEGER_FORMAT " is pending or running",
		    json_integer_value(json_object_get(msg, "job")));
		return;
	}
	/* A shell inside someone's job is that someone's to open. */
	if (job_uid(j) != peer_uid(p) && !peer_is_operator(p)) {
		req_error(p, msg, PROTO_E_PERMISSION, "job %" PRIu64 " belongs "
		    "to %s; you may attach only to your own jobs", job_id(j),
		    job_user(j));
		audit_refused(p, "attach", target, "it belongs to %s",
		    job_user(j));
		return;
	}
	if (peer_uid(p) == 0 && !c->allow_root_jobs) {
		req_error(p, msg, PROTO_E_PERMISSION, "root may not run "
		    "commands in jobs (controller.allow_root_jobs is false); "
		    "attach as the job's user");
		audit_refused(p, "attach", target, "root jobs are off "
		    "(controller.allow_root_jobs)");
		return;
	}
	if (job_state(j) != JOB_RUNNING) {
		req_error(p, msg, PROTO_E_INVALID, "job %" PRIu64 " is %s; "
		    "grun --jobid attaches to running jobs only", job_id(j),
		    job_state_name(job_state(j)));
		return;
	}
	memset(&row, 0, sizeof row);
	/* Without "interactive": pipes, as grun without --pty. */
	job = json_object();
	json_object_set_new(job, "interactive", json_object_get(msg,
	    "interactive") != NULL ? json_incref(json_object_get(msg,
	    "interactive")) : json_object());
	if (req_job_attach_cmd(msg, err, sizeof err) != 0 ||
	    req_job_attach_task(msg, err, sizeof err) != 0 ||
	    job_req_read(job, v, err, sizeof err) != 0 ||
	    session_submit_read(v, &row, &is, &tty, err, sizeof err) != 0 ||
	    (rank = req_job_attach_rank(j, msg, err, sizeof err)) < 0) {
		json_decref(job);
		req_error(p, msg, PROTO_E_INVALID, "%s", err);
		return;
	}
	json_decref(job);
	n = job_part_const(j, (size_t)rank)->node;
	if (node_peer(n) == NULL) {
		req_error(p, msg, PROTO_E_INVALID, "node %s, where job %"
		    PRIu64 " runs, is not connected", node_name(n), job_id(j));
		return;
	}
	if (job_uid(j) != peer_uid(p))
		audit_done(p, "attach", target, "of %s, on %s", job_user(j),
		    node_name(n));
	step = session_open_step(p, job_id(j), n, &tty);
	io = json_pack("{s:b,s:i,s:i,s:b}", "pty", tty.pty, "rows",
	    (int)tty.rows, "cols", (int)tty.cols, "stdin", 1);
	if (launch_step(j, (size_t)rank, step, p, msg, io, err,
	    sizeof err) != 0) {
		json_decref(io);
		session_close_step(job_id(j), step);
		req_error(p, msg, PROTO_E_INTERNAL, "%s", err);
		return;
	}
	json_decref(io);
	req_job_attach_record(p, j, n, step, msg);
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "job", json_integer((json_int_t)job_id(j)));
	json_object_set_new(reply, "step", json_integer(step));
	json_object_set_new(reply, "node", json_string(node_name(n)));
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_io_entry = {
	MSG_IO, "IO", REQ_CLIENT | REQ_NODE, false, false, req_io, false
};
const struct req_entry req_io_control_entry = {
	MSG_IO_CONTROL, "IO_CONTROL", REQ_CLIENT, false, false, req_io_control,
	false
};
const struct req_entry req_job_attach_entry = {
	MSG_JOB_ATTACH, "JOB_ATTACH", REQ_CLIENT, false, true, req_job_attach,
	false
};
const struct req_entry req_step_ended_entry = {
	MSG_STEP_ENDED, "STEP_ENDED", REQ_NODE, false, false, req_step_ended, false
};
