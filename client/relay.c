/* relay.c: grun's relay loop: the socket, standard input, signals. */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "client/client.h"
#include "client/job-wait.h"
#include "client/relay.h"
#include "common/base64.h"
#include "common/frame.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

/* How often a waiting job's reason is asked for, and the spinner turns. */
#define RELAY_POLL_MS		1000
#define RELAY_SPIN_MS		100
/* A job that starts sooner gets no word about the queue. */
#define RELAY_QUIET_MS		1000
/* A labelled line longer than this is written in pieces, each labelled. */
#define RELAY_LINE_MAX		4096
/* Output is acknowledged by this much, well inside the node's window. */
#define RELAY_ACK_BYTES		(PROTO_IO_OUT_WINDOW / 8)

struct relay {
	struct client			*c;
	const struct relay_opts		*o;
	int				 sock;
	uint8_t				*buf;		/* frames read */
	size_t				 len;
	size_t				 cap;
	bool				 running;
	bool				 ended;
	bool				 lost;
	bool				 in_eof;	/* stdin ended */
	size_t				 in_flight;	/* sent, not written */
	size_t				 unacked;	/* output written */
	bool				 out_broken;	/* stdout closed */
	/* With a label: the line begun on stdout and stderr, not yet
	 * written (a line is written whole, after its label). */
	char				 line[2][RELAY_LINE_MAX];
	size_t				 linelen[2];
	int				 status;
	/* While it waits. */
	uint64_t			 since;
	uint64_t			 next_poll;
	bool				 asking;	/* a JOB_LIST out */
	bool				 told;		/* it said it waits */
	char				 reason[64];
	unsigned			 spin;
	bool				 spinning;	/* a line to clear */
};

/* The signals grun passes on, through a pipe to the loop. */
static int		relay_sigfd[2] = { -1, -1 };
static const int	relay_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
			    SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT };
/* The terminal's settings before raw mode, restored on the way out. */
static struct termios	relay_saved;
static bool		relay_raw;

static uint64_t
relay_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

void
relay_winsize(int fd, unsigned *rows, unsigned *cols)
{
	struct winsize	ws;

	*rows = *cols = 0;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

static void
relay_sig_handler(int sig)
{
	unsigned char	c = (unsigned char)sig;
	int		saved = errno;

	(void)!write(relay_sigfd[1], &c, 1);
	errno = saved;
}

static void
relay_restore(void)
{
	if (relay_raw) {
		(void)tcsetattr(STDIN_FILENO, TCSADRAIN, &relay_saved);
		relay_raw = false;
	}
}

/* Raw mode, as ssh sets it: every key goes to the remote terminal, which
 * does its own echo, line editing and Ctrl-C. */
static void
relay_make_raw(void)
{
	struct termios	t;

	if (relay_raw || tcgetattr(STDIN_FILENO, &relay_saved) == -1)
		return;
	t = relay_saved;
	t.c_iflag |= IGNPAR;
	t.c_iflag &= ~(tcflag_t)(ISTRIP | INLCR | IGNCR | ICRNL | IXON |
	    IXANY | IXOFF);
	t.c_lflag &= ~(tcflag_t)(ISIG | ICANON | ECHO | ECHOE | ECHOK |
	    ECHONL | IEXTEN);
	t.c_oflag &= ~(tcflag_t)OPOST;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSADRAIN, &t) == 0) {
		relay_raw = true;
		atexit(relay_restore);
	}
}

static void
relay_signals_on(void)
{
	struct sigaction	sa;
	size_t			i;

	if (pipe2(relay_sigfd, O_CLOEXEC | O_NONBLOCK) == -1)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = relay_sig_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof relay_signals / sizeof relay_signals[0]; i++)
		sigaction(relay_signals[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* Sends msg (stolen); a failure is the connection's loss. */
static void
relay_send(struct relay *r, json_t *msg)
{
	char	err[512];

	if (!r->lost && client_post(r->c, msg, err, sizeof err) != 0)
		r->lost = true;
	json_decref(msg);
}

static json_t *
relay_msg(struct relay *r, int type)
{
	return (json_pack("{s:i,s:I,s:i}", "type", type, "job",
	    (json_int_t)r->o->job, "step", (int)r->o->step));
}

static void
relay_send_winsize(struct relay *r)
{
	json_t		*msg;
	unsigned	 rows, cols;

	relay_winsize(STDIN_FILENO, &rows, &cols);
	if (rows == 0)
		relay_winsize(STDOUT_FILENO, &rows, &cols);
	if (rows == 0 || !r->o->pty)
		return;
	msg = relay_msg(r, MSG_IO_CONTROL);
	json_object_set_new(msg, "rows", json_integer(rows));
	json_object_set_new(msg, "cols", json_integer(cols));
	relay_send(r, msg);
}

/* Clears the spinner's line, if one is shown. */
static void
relay_unspin(struct relay *r)
{
	if (r->spinning) {
		fputs("\r\033[K", stderr);
		r->spinning = false;
	}
}

/* While the job waits: its reason, once; on a terminal, a spinner. */
static void
relay_tell_wait(struct relay *r)
{
	static const char	spin[] = "|/-\\";
	uint64_t		now = relay_now_ms();

	if (r->o->quiet || r->running || now - r->since < RELAY_QUIET_MS)
		return;
	if (isatty(STDERR_FILENO)) {
		fprintf(stderr, "\r\033[K%c %s: job %llu waits: %s (%llus)",
		    spin[r->spin++ % 4], r->o->prog,
		    (unsigned long long)r->o->job, r->reason[0] != '\0' ?
		    r->reason : "queued", (unsigned long long)((now -
		    r->since) / 1000));
		r->spinning = true;
		r->told = true;
		return;
	}
	if (!r->told && r->reason[0] != '\0') {
		fprintf(stderr, "%s: job %llu queued and waiting: %s\n",
		    r->o->prog, (unsigned long long)r->o->job, r->reason);
		r->told = true;
	}
}

/* A JOB_LIST reply: why the job waits. */
static void
relay_reply(struct relay *r, const json_t *msg)
{
	const json_t	*j = json_array_get(json_object_get(msg, "jobs"), 0);
	const char	*reason;

	r->asking = false;
	if ((reason = json_string_value(json_object_get(j, "reason"))) !=
	    NULL && strcmp(reason, "None") != 0)
		safe_text_str(reason, r->reason, sizeof r->reason);
	relay_tell_wait(r);
}

/* Writes all of data to fd; a closed stdout is dropped from then on. */
static void
relay_write(struct relay *r, int fd, const uint8_t *data, size_t len)
{
	ssize_t	n;

	while (len > 0 && !(fd == STDOUT_FILENO && r->out_broken)) {
		n = write(fd, data, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			if (fd == STDOUT_FILENO)
				r->out_broken = true;
			return;
		}
		data += n;
		len -= (size_t)n;
	}
}

/* Writes line i's buffer (0 stdout, 1 stderr) after the label, in one
 * write: another task's lines, on the same file, come whole before or
 * after it. */
static void
relay_flush_line(struct relay *r, int i)
{
	char	buf[64 + RELAY_LINE_MAX];
	size_t	n;

	if (r->linelen[i] == 0)
		return;
	n = (size_t)snprintf(buf, 64, "%s",
	    r->o->label != NULL ? r->o->label : "");
	memcpy(buf + n, r->line[i], r->linelen[i]);
	relay_write(r, i == 0 ? STDOUT_FILENO : STDERR_FILENO,
	    (const uint8_t *)buf, n + r->linelen[i]);
	r->linelen[i] = 0;
}

/* Output of the command: as it comes, or line by line (with a label). */
static void
relay_out(struct relay *r, int fd, const uint8_t *data, size_t len)
{
	int	i = fd == STDERR_FILENO;
	size_t	k;

	if (r->o->label == NULL && !r->o->lines) {
		relay_write(r, fd, data, len);
		return;
	}
	for (k = 0; k < len; k++) {
		r->line[i][r->linelen[i]++] = (char)data[k];
		if (data[k] == '\n' || r->linelen[i] == RELAY_LINE_MAX)
			relay_flush_line(r, i);
	}
}

/* n bytes of output were written: acknowledged by RELAY_ACK_BYTES. */
static void
relay_took(struct relay *r, size_t n)
{
	json_t	*ack;

	r->unacked += n;
	if (r->unacked >= RELAY_ACK_BYTES) {
		ack = relay_msg(r, MSG_IO);
		json_object_set_new(ack, "ack", json_integer(
		    (json_int_t)r->unacked));
		relay_send(r, ack);
		r->unacked = 0;
	}
}

static void
relay_output(struct relay *r, const json_t *msg)
{
	const json_t	*data = json_object_get(msg, "data");
	uint8_t		 buf[PROTO_IO_CHUNK + 3];
	long		 n;
	size_t		 len;
	int		 fd;

	if (json_integer_value(json_object_get(msg, "ack")) > 0) {
		len = (size_t)json_integer_value(json_object_get(msg, "ack"));
		r->in_flight -= len < r->in_flight ? len : r->in_flight;
		return;
	}
	if (!json_is_string(data) || (len = json_string_length(data)) >
	    BASE64_LEN(PROTO_IO_CHUNK) || (n = base64_decode(
	    json_string_value(data), len, buf)) < 0)
		return;
	fd = json_integer_value(json_object_get(msg, "fd")) == 2 ?
	    STDERR_FILENO : STDOUT_FILENO;
	relay_unspin(r);
	relay_out(r, fd, buf, (size_t)n);
	relay_took(r, (size_t)n);
}

static void
relay_started(struct relay *r, const json_t *msg)
{
	const char	*node = json_string_value(json_object_get(msg, "node"));
	char		 safe[128];

	relay_unspin(r);
	if (r->told && !r->o->quiet)
		fprintf(stderr, "%s: job %llu runs on %s\n", r->o->prog,
		    (unsigned long long)r->o->job, node != NULL ?
		    safe_text_str(node, safe, sizeof safe) : "its nodes");
	r->running = true;
	r->in_flight = 0;
	if (r->o->pty && isatty(STDIN_FILENO))
		relay_make_raw();
	relay_send_winsize(r);
}

/* The job's or the step's end: the exit status, and a word unless it
 * simply exited. */
static void
relay_ended(struct relay *r, const json_t *msg)
{
	struct job_wait_end	 e;
	const char		*state, *m;
	char			 why[512], safe[600];

	memset(&e, 0, sizeof e);
	e.id = r->o->job;
	snprintf(e.name, sizeof e.name, "%llu", (unsigned long long)r->o->job);
	state = json_string_value(json_object_get(msg, "state"));
	snprintf(e.state, sizeof e.state, "%s", state != NULL ? state :
	    "FAILED");
	e.has_exit = json_is_integer(json_object_get(msg, "exit_code"));
	e.exit_code = (int)json_integer_value(json_object_get(msg,
	    "exit_code"));
	e.signal = (int)json_integer_value(json_object_get(msg, "signal"));
	m = json_string_value(json_object_get(msg, "message"));
	snprintf(e.message, sizeof e.message, "%s", m != NULL ? m : "");
	relay_restore();
	relay_unspin(r);
	r->status = job_wait_status(&e, why, sizeof why);
	/* A command that exited non-zero says so itself, as over ssh. */
	if (why[0] != '\0' && !(strcmp(e.state, "FAILED") == 0 &&
	    e.signal == 0 && e.has_exit && e.exit_code != 0))
		fprintf(stderr, "%s: %s%s\n", r->o->prog, r->o->step != 0 ?
		    "step: " : "", safe_text_str(why, safe, sizeof safe));
	r->ended = true;
}

static void
relay_session(struct relay *r, const json_t *msg)
{
	const char	*state = json_string_value(json_object_get(msg,
			    "state"));
	const char	*m;
	char		 safe[600];

	if (json_is_true(json_object_get(msg, "end"))) {
		relay_ended(r, msg);
		return;
	}
	if (state != NULL && strcmp(state, "RUNNING") == 0) {
		relay_started(r, msg);
		return;
	}
	if (state != NULL && strcmp(state, "PENDING") == 0) {
		/* Preempted or requeued: back in the queue, as it started. */
		relay_restore();
		m = json_string_value(json_object_get(msg, "message"));
		fprintf(stderr, "%s: job %llu went back to the queue%s%s\n",
		    r->o->prog, (unsigned long long)r->o->job, m != NULL &&
		    *m != '\0' ? ": " : "", m != NULL ? safe_text_str(m, safe,
		    sizeof safe) : "");
		r->running = false;
		r->since = relay_now_ms();
		r->told = true;
	}
}

static void
relay_frame(struct relay *r, const json_t *msg)
{
	int	type = proto_type(msg);

	if (json_object_get(msg, "re") != NULL)
		relay_reply(r, msg);
	else if (json_integer_value(json_object_get(msg, "job")) !=
	    (json_int_t)r->o->job || json_integer_value(json_object_get(msg,
	    "step")) != (json_int_t)r->o->step)
		return;
	else if (type == MSG_IO)
		relay_output(r, msg);
	else if (type == MSG_SESSION)
		relay_session(r, msg);
}

/* An IO frame of output as gbatchd writes it (proto_io_head), read
 * without a JSON tree: most of a session's bytes come so. Returns 0 when
 * body is not one (it is then read as any frame). */
static int
relay_fast_output(struct relay *r, const char *body, size_t len)
{
	static const char	 data_key[] = ",\"data\":\"";
	uint8_t			 buf[PROTO_IO_CHUNK + 3];
	unsigned long long	 job, step;
	const char		*p, *end = body + len;
	char			*e;
	long			 n;
	int			 fd, k;

	k = snprintf((char *)buf, sizeof buf, "{\"type\":%d,\"job\":", MSG_IO);
	if (len < (size_t)k + 32 || memcmp(body, buf, (size_t)k) != 0 ||
	    memcmp(end - 2, PROTO_IO_TAIL, 2) != 0)
		return (0);
	job = strtoull(body + k, &e, 10);
	if (strncmp(e, ",\"step\":", 8) != 0)
		return (0);
	step = strtoull(e + 8, &e, 10);
	if (strncmp(e, ",\"fd\":", 6) != 0 || (e[6] != '1' && e[6] != '2'))
		return (0);
	fd = e[6] - '0';
	p = e + 7;
	if ((size_t)(end - p) < sizeof data_key - 1 + 2 ||
	    memcmp(p, data_key, sizeof data_key - 1) != 0)
		return (0);
	p += sizeof data_key - 1;
	if (job != r->o->job || step != r->o->step)
		return (1);
	if ((size_t)(end - 2 - p) > BASE64_LEN(PROTO_IO_CHUNK) ||
	    (n = base64_decode(p, (size_t)(end - 2 - p), buf)) < 0)
		return (0);
	relay_unspin(r);
	relay_out(r, fd == 2 ? STDERR_FILENO : STDOUT_FILENO, buf, (size_t)n);
	relay_took(r, (size_t)n);
	return (1);
}

/* Reads what the socket has and handles every whole frame in it. */
static void
relay_read_sock(struct relay *r)
{
	json_t	*msg;
	char	 err[256];
	size_t	 off = 0;
	ssize_t	 n;
	long	 blen;

	if (r->cap - r->len < 65536) {
		r->cap = r->cap * 2 + 65536;
		r->buf = xrealloc(r->buf, r->cap);
	}
	n = recv(r->sock, r->buf + r->len, r->cap - r->len, MSG_DONTWAIT);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		r->lost = true;
		return;
	}
	r->len += (size_t)n;
	while (!r->ended && r->len - off >= FRAME_HEADER) {
		if ((blen = frame_header(r->buf + off, FRAME_MAX_REPLY, err,
		    sizeof err)) < 0) {
			r->lost = true;
			break;
		}
		if (r->len - off < FRAME_HEADER + (size_t)blen)
			break;
		off += FRAME_HEADER;
		if (!relay_fast_output(r, (const char *)r->buf + off,
		    (size_t)blen)) {
			if ((msg = frame_body(r->buf + off, (size_t)blen, err,
			    sizeof err)) == NULL) {
				r->lost = true;
				break;
			}
			relay_frame(r, msg);
			json_decref(msg);
		}
		off += (size_t)blen;
	}
	memmove(r->buf, r->buf + off, r->len - off);
	r->len -= off;
}

/* Sends what standard input has, within the input window. */
static void
relay_read_stdin(struct relay *r)
{
	uint8_t	buf[PROTO_IO_CHUNK];
	char	text[BASE64_LEN(PROTO_IO_CHUNK) + 1];
	size_t	want = PROTO_IO_IN_WINDOW - r->in_flight;
	json_t	*msg;
	ssize_t	n;

	if (want > sizeof buf)
		want = sizeof buf;
	n = read(STDIN_FILENO, buf, want);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	msg = relay_msg(r, MSG_IO);
	json_object_set_new(msg, "fd", json_integer(0));
	if (n <= 0) {
		r->in_eof = true;
		json_object_set_new(msg, "eof", json_true());
	} else {
		base64_encode(buf, (size_t)n, text);
		json_object_set_new(msg, "data", json_string(text));
		r->in_flight += (size_t)n;
	}
	relay_send(r, msg);
}

/* A signal grun caught: passed on to the command, or, while the job
 * waits, the end of the wait (the job is cancelled as the connection
 * closes). */
static void
relay_signal(struct relay *r, int sig)
{
	json_t	*msg;

	if (sig == SIGWINCH) {
		if (r->running)
			relay_send_winsize(r);
		return;
	}
	if (sig == SIGCONT) {
		if (r->running && r->o->pty && isatty(STDIN_FILENO)) {
			relay_raw = false;
			relay_make_raw();
		}
		return;
	}
	if (!r->running) {
		relay_unspin(r);
		fprintf(stderr, "%s: job %llu cancelled before it started\n",
		    r->o->prog, (unsigned long long)r->o->job);
		r->status = 128 + sig;
		r->ended = true;
		return;
	}
	msg = relay_msg(r, MSG_IO_CONTROL);
	json_object_set_new(msg, "signal", json_integer(sig));
	relay_send(r, msg);
}

/* The JOB_LIST that asks why the job waits. */
static void
relay_ask(struct relay *r)
{
	json_t	*req;

	req = json_pack("{s:i,s:i,s:[I],s:[ss]}", "type", MSG_JOB_LIST,
	    "seq", 1, "ids", (json_int_t)r->o->job, "fields", "state",
	    "reason");
	r->asking = true;
	relay_send(r, req);
}

int
relay_run(struct client *c, const struct relay_opts *o)
{
	struct relay	r;
	struct pollfd	pfd[3];
	unsigned char	sigs[16];
	uint64_t	now;
	ssize_t		n, i;
	int		ms, np;

	memset(&r, 0, sizeof r);
	r.c = c;
	r.o = o;
	r.sock = client_fd(c);
	r.since = relay_now_ms();
	r.next_poll = r.since + RELAY_QUIET_MS / 4;
	/* A session lasts as long as its command: no call timeout. */
	client_set_timeout(c, 0);
	relay_signals_on();
	if (o->running)
		relay_started(&r, NULL);
	while (!r.ended && !r.lost) {
		np = 0;
		pfd[np].fd = r.sock;
		pfd[np++].events = POLLIN;
		pfd[np].fd = relay_sigfd[0];
		pfd[np++].events = POLLIN;
		if (r.running && !r.in_eof && r.in_flight < PROTO_IO_IN_WINDOW) {
			pfd[np].fd = STDIN_FILENO;
			pfd[np++].events = POLLIN;
		}
		ms = -1;
		if (!r.running)
			ms = isatty(STDERR_FILENO) && !o->quiet ?
			    RELAY_SPIN_MS : RELAY_POLL_MS / 4;
		if (poll(pfd, (nfds_t)np, ms) == -1 && errno != EINTR)
			break;
		if (np > 0 && (pfd[1].revents & POLLIN)) {
			n = read(relay_sigfd[0], sigs, sizeof sigs);
			for (i = 0; i < n && !r.ended; i++)
				relay_signal(&r, sigs[i]);
		}
		if (!r.ended && (pfd[0].revents & (POLLIN | POLLHUP |
		    POLLERR)))
			relay_read_sock(&r);
		if (!r.ended && np > 2 && (pfd[2].revents & (POLLIN |
		    POLLHUP | POLLERR)))
			relay_read_stdin(&r);
		now = relay_now_ms();
		if (!r.ended && !r.running) {
			if (now >= r.next_poll && !r.asking) {
				relay_ask(&r);
				r.next_poll = now + RELAY_POLL_MS;
			}
			relay_tell_wait(&r);
		}
	}
	relay_restore();
	relay_unspin(&r);
	/* A last line without its newline still gets its label. */
	relay_flush_line(&r, 0);
	relay_flush_line(&r, 1);
	free(r.buf);
	if (!r.ended && r.lost) {
		fprintf(stderr, "%s: lost the connection to gbatchd; job %llu%s "
		    "is cancelled\n", o->prog, (unsigned long long)o->job,
		    o->step != 0 ? "'s command" : "");
		return (EXIT_UNREACHABLE);
	}
	return (r.status);
}
