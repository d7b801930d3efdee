/* node-io.c: interactive jobs' and steps' streams, relayed. */
#include <sys/ioctl.h>
#include <sys/queue.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "common/base64.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/node/node-io.h"

struct node_io {
	TAILQ_ENTRY(node_io)	 entry;
	struct node_ios		*ios;
	uint64_t		 job;
	uint32_t		 step;
	bool			 pty;
	int			 in;		/* -1: closed */
	int			 out[2];	/* stdout, stderr; -1 closed */
	struct event		*out_ev[2];
	struct event		*in_ev;
	struct evbuffer		*inbuf;
	bool			 in_eof;	/* end once inbuf is written */
	size_t			 window;	/* output it may still send */
	json_t			*end;		/* sent once drained */
	struct event		*linger;
};
TAILQ_HEAD(node_io_list, node_io);

struct node_ios {
	struct event_base		*base;
	const struct node_ios_cb	*cb;
	void				*arg;
	struct node_io_list		 list;
};

static void	node_io_read_cb(evutil_socket_t, short, void *);
static void	node_io_write_cb(evutil_socket_t, short, void *);

struct node_ios *
node_io_create(struct event_base *base, const struct node_ios_cb *cb,
    void *arg)
{
	struct node_ios	*ios;

	ios = xcalloc(1, sizeof *ios);
	ios->base = base;
	ios->cb = cb;
	ios->arg = arg;
	TAILQ_INIT(&ios->list);
	return (ios);
}

static struct node_io *
node_io_find(struct node_ios *ios, uint64_t job, uint32_t step)
{
	struct node_io	*io;

	TAILQ_FOREACH(io, &ios->list, entry) {
		if (io->job == job && io->step == step)
			return (io);
	}
	return (NULL);
}

static void
node_io_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void
node_io_close_out(struct node_io *io, int k)
{
	if (io->out_ev[k] != NULL)
		event_free(io->out_ev[k]);
	io->out_ev[k] = NULL;
	node_io_close_fd(&io->out[k]);
}

static void
node_io_drop(struct node_io *io)
{
	TAILQ_REMOVE(&io->ios->list, io, entry);
	node_io_close_out(io, 0);
	node_io_close_out(io, 1);
	if (io->in_ev != NULL)
		event_free(io->in_ev);
	node_io_close_fd(&io->in);
	if (io->linger != NULL)
		event_free(io->linger);
	evbuffer_free(io->inbuf);
	json_decref(io->end);
	free(io);
}

static void
node_io_send(struct node_io *io, json_t *msg)
{
	io->ios->cb->send(msg, io->ios->arg);
	json_decref(msg);
}

/* The output is all sent (or given up): the end goes, the streams too. */
static void
node_io_finish(struct node_io *io)
{
	if (io->end != NULL)
		io->ios->cb->send(io->end, io->ios->arg);
	node_io_drop(io);
}

static bool
node_io_drained(const struct node_io *io)
{
	return (io->out[0] < 0 && io->out[1] < 0);
}

/* A pseudo-terminal for l: the master (gnoded's, both ways) and the
 * terminal its first task gets, owned by the job's user as a login's. */
static int
node_io_pty(struct node_launch *l, int *master, int *slave, char *err,
    size_t errlen)
{
	struct winsize	ws;
	char		name[64];

	if ((*master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1 ||
	    grantpt(*master) == -1 || unlockpt(*master) == -1 ||
	    ptsname_r(*master, name, sizeof name) != 0) {
		snprintf(err, errlen, "cannot make a terminal: %s",
		    strerror(errno));
		if (*master >= 0)
			close(*master);
		return (-1);
	}
	if ((*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "cannot open terminal %s: %s", name,
		    strerror(errno));
		close(*master);
		return (-1);
	}
	if (geteuid() == 0 && (fchown(*slave, l->uid, (gid_t)-1) == -1 ||
	    fchmod(*slave, 0620) == -1))
		log_warn("job %llu: cannot give terminal %s to uid %lu: %s",
		    (unsigned long long)l->id, name, (unsigned long)l->uid,
		    strerror(errno));
	memset(&ws, 0, sizeof ws);
	ws.ws_row = (unsigned short)l->io_rows;
	ws.ws_col = (unsigned short)l->io_cols;
	(void)ioctl(*master, TIOCSWINSZ, &ws);
	return (0);
}

int
node_io_open(struct node_ios *ios, uint64_t job, uint32_t step,
    struct node_launch *l, char *err, size_t errlen)
{
	struct node_io	*io;
	int		 p[3][2], i, master, slave;

	io = xcalloc(1, sizeof *io);
	io->ios = ios;
	io->job = job;
	io->step = step;
	io->pty = l->io_pty;
	io->in = io->out[0] = io->out[1] = -1;
	io->window = PROTO_IO_OUT_WINDOW;
	io->inbuf = evbuffer_new();
	if (l->io_pty) {
		if (node_io_pty(l, &master, &slave, err, errlen) == -1) {
			evbuffer_free(io->inbuf);
			free(io);
			return (-1);
		}
		io->out[0] = master;
		io->in = fcntl(master, F_DUPFD_CLOEXEC, 3);
		l->io_fd[0] = l->io_fd[1] = l->io_fd[2] = slave;
	} else {
		for (i = 0; i < 3; i++) {
			if (pipe2(p[i], O_CLOEXEC) == -1) {
				snprintf(err, errlen, "cannot make a pipe: %s",
				    strerror(errno));
				while (i-- > 0) {
					close(p[i][0]);
					close(p[i][1]);
				}
				evbuffer_free(io->inbuf);
				free(io);
				return (-1);
			}
		}
		io->in = p[0][1];
		io->out[0] = p[1][0];
		io->out[1] = p[2][0];
		l->io_fd[0] = p[0][0];
		l->io_fd[1] = p[1][1];
		l->io_fd[2] = p[2][1];
	}
	TAILQ_INSERT_TAIL(&ios->list, io, entry);
	return (0);
}

void
node_io_started(struct node_ios *ios, uint64_t job, uint32_t step,
    struct node_launch *l)
{
	struct node_io	*io;
	int		 i, k;

	/* A terminal's three are one descriptor. */
	for (i = 0; i < 3; i++) {
		if (l->io_fd[i] < 0)
			continue;
		for (k = i + 1; k < 3; k++) {
			if (l->io_fd[k] == l->io_fd[i])
				l->io_fd[k] = -1;
		}
		node_io_close_fd(&l->io_fd[i]);
	}
	if ((io = node_io_find(ios, job, step)) == NULL)
		return;
	for (k = 0; k < 2; k++) {
		if (io->out[k] < 0)
			continue;
		(void)fcntl(io->out[k], F_SETFL, O_NONBLOCK);
		io->out_ev[k] = event_new(ios->base, io->out[k],
		    EV_READ | EV_PERSIST, node_io_read_cb, io);
		event_add(io->out_ev[k], NULL);
	}
	if (io->in >= 0) {
		(void)fcntl(io->in, F_SETFL, O_NONBLOCK);
		io->in_ev = event_new(ios->base, io->in, EV_WRITE,
		    node_io_write_cb, io);
	}
}

/* Sends n bytes of stream fd (1 or 2) as an IO frame, written by hand
 * around the base64 text (made in text, room for BASE64_LEN(n) + 1). */
static void
node_io_send_data(struct node_io *io, int fd, const uint8_t *buf, size_t n,
    char *text)
{
	struct evbuffer	*frame = evbuffer_new();
	char		 head[PROTO_IO_HEAD_MAX];
	size_t		 tlen, hlen;

	tlen = base64_encode(buf, n, text);
	hlen = proto_io_head(head, io->job, io->step, fd, tlen);
	evbuffer_add(frame, head, hlen);
	evbuffer_add(frame, text, tlen);
	evbuffer_add(frame, PROTO_IO_TAIL, sizeof PROTO_IO_TAIL - 1);
	io->ios->cb->send_frames(frame, io->ios->arg);
	evbuffer_free(frame);
}

/* Reads what stream k (fd) has, as much as the window allows. */
static void
node_io_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct node_io	*io = arg;
	uint8_t		 buf[PROTO_IO_CHUNK];
	char		 text[BASE64_LEN(PROTO_IO_CHUNK) + 1];
	size_t		 want;
	ssize_t		 n;
	int		 k = fd == io->out[0] ? 0 : 1;

	want = io->window < sizeof buf ? io->window : sizeof buf;
	if (want == 0)
		return;
	n = read(fd, buf, want);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		/* The end of a pipe, or EIO: a terminal with no process
		 * left at its other end. */
		node_io_close_out(io, k);
		if (io->pty)
			node_io_close_fd(&io->in);
		if (node_io_drained(io) && io->end != NULL)
			node_io_finish(io);
		return;
	}
	io->window -= (size_t)n;
	node_io_send_data(io, k + 1, buf, (size_t)n, text);
	/* The client is behind: wait for its acknowledgement. */
	if (io->window == 0) {
		for (k = 0; k < 2; k++) {
			if (io->out_ev[k] != NULL)
				event_del(io->out_ev[k]);
		}
	}
}

/* The input is all written and its end was sent: a pipe closes, a
 * terminal gets its end-of-file character. */
static void
node_io_in_end(struct node_io *io)
{
	struct termios	t;
	char		c = 4;

	if (io->pty) {
		if (tcgetattr(io->in, &t) == 0)
			c = (char)t.c_cc[VEOF];
		(void)!write(io->in, &c, 1);
		return;
	}
	if (io->in_ev != NULL)
		event_free(io->in_ev);
	io->in_ev = NULL;
	node_io_close_fd(&io->in);
}

static void
node_io_write_cb(evutil_socket_t fd, short what, void *arg)
{
	struct node_io	*io = arg;
	size_t		 len = evbuffer_get_length(io->inbuf);
	int		 n;

	n = evbuffer_write(io->inbuf, fd);
	if (n == -1 && (errno == EAGAIN || errno == EINTR)) {
		event_add(io->in_ev, NULL);
		return;
	}
	if (n == -1) {
		/* The job closed its input: what it will never read is
		 * acknowledged all the same, so the client may go on. */
		evbuffer_drain(io->inbuf, len);
		n = (int)len;
		io->in_eof = false;
		if (io->in_ev != NULL)
			event_free(io->in_ev);
		io->in_ev = NULL;
		node_io_close_fd(&io->in);
	}
	if (n > 0)
		node_io_send(io, json_pack("{s:i,s:I,s:i,s:i}", "type",
		    MSG_IO, "job", (json_int_t)io->job, "step", (int)io->step,
		    "ack", n));
	if (io->in_ev != NULL && evbuffer_get_length(io->inbuf) > 0)
		event_add(io->in_ev, NULL);
	else if (io->in_eof && io->in >= 0) {
		io->in_eof = false;
		node_io_in_end(io);
	}
}

void
node_io_msg(struct node_ios *ios, const json_t *msg)
{
	struct node_io	*io;
	const json_t	*data = json_object_get(msg, "data");
	json_int_t	 ack = json_integer_value(json_object_get(msg, "ack"));
	uint8_t		 buf[PROTO_IO_CHUNK + 3];
	size_t		 len;
	long		 n;
	int		 k;

	io = node_io_find(ios, (uint64_t)json_integer_value(json_object_get(
	    msg, "job")), (uint32_t)json_integer_value(json_object_get(msg,
	    "step")));
	if (io == NULL)
		return;
	if (ack > 0) {
		io->window += (size_t)ack;
		if (io->window > PROTO_IO_OUT_WINDOW)
			io->window = PROTO_IO_OUT_WINDOW;
		for (k = 0; k < 2; k++) {
			if (io->out_ev[k] != NULL)
				event_add(io->out_ev[k], NULL);
		}
		return;
	}
	if (json_is_true(json_object_get(msg, "eof"))) {
		if (io->in < 0 || io->in_ev == NULL)
			return;
		if (evbuffer_get_length(io->inbuf) > 0)
			io->in_eof = true;
		else
			node_io_in_end(io);
		return;
	}
	if (!json_is_string(data) || (len = json_string_length(data)) >
	    BASE64_LEN(PROTO_IO_CHUNK) || (n = base64_decode(
	    json_string_value(data), len, buf)) <= 0) {
		log_warn("job %llu: IO input that is not base64 of 1 to %u "
		    "bytes; dropped", (unsigned long long)io->job,
		    PROTO_IO_CHUNK);
		return;
	}
	/* Nothing reads it any more: acknowledged, so the client may go
	 * on to its end. */
	if (io->in < 0 || io->in_ev == NULL) {
		node_io_send(io, json_pack("{s:i,s:I,s:i,s:i}", "type",
		    MSG_IO, "job", (json_int_t)io->job, "step", (int)io->step,
		    "ack", (int)n));
		return;
	}
	evbuffer_add(io->inbuf, buf, (size_t)n);
	event_add(io->in_ev, NULL);
}

void
node_io_winsize(struct node_ios *ios, uint64_t job, uint32_t step,
    unsigned rows, unsigned cols)
{
	struct node_io	*io;
	struct winsize	 ws;

	if ((io = node_io_find(ios, job, step)) == NULL || !io->pty ||
	    io->out[0] < 0)
		return;
	memset(&ws, 0, sizeof ws);
	ws.ws_row = (unsigned short)rows;
	ws.ws_col = (unsigned short)cols;
	/* The kernel sends the terminal's foreground group SIGWINCH. */
	(void)ioctl(io->out[0], TIOCSWINSZ, &ws);
}

static void
node_io_linger_cb(evutil_socket_t fd, short what, void *arg)
{
	struct node_io	*io = arg;

	log_info("job %llu: its output stays open after its end; "
	    "reporting the end without the rest", (unsigned long long)io->job);
	node_io_finish(io);
}

void
node_io_defer(struct node_ios *ios, uint64_t job, uint32_t step,
    const json_t *end)
{
	struct node_io	*io;
	struct timeval	 tv = { NODE_IO_LINGER_MS / 1000,
			    (NODE_IO_LINGER_MS % 1000) * 1000 };

	if ((io = node_io_find(ios, job, step)) == NULL) {
		ios->cb->send(end, ios->arg);
		return;
	}
	json_decref(io->end);
	io->end = json_deep_copy(end);
	if (node_io_drained(io)) {
		node_io_finish(io);
		return;
	}
	if (io->linger == NULL) {
		io->linger = evtimer_new(ios->base, node_io_linger_cb, io);
		evtimer_add(io->linger, &tv);
	}
}

void
node_io_close(struct node_ios *ios, uint64_t job, uint32_t step)
{
	struct node_io	*io;

	if ((io = node_io_find(ios, job, step)) != NULL)
		node_io_drop(io);
}

void
node_io_lost(struct node_ios *ios,
    void (*lost)(uint64_t job, uint32_t step, void *arg), void *arg)
{
	struct node_io	*io;
	uint64_t	 job;
	uint32_t	 step;

	while ((io = TAILQ_FIRST(&ios->list)) != NULL) {
		job = io->job;
		step = io->step;
		/* Its end goes in the next HELLO, or nowhere (a step). */
		json_decref(io->end);
		io->end = NULL;
		node_io_drop(io);
		lost(job, step, arg);
	}
}

void
node_io_free(struct node_ios *ios)
{
	if (ios == NULL)
		return;
	while (!TAILQ_EMPTY(&ios->list))
		node_io_drop(TAILQ_FIRST(&ios->list));
	free(ios);
}
