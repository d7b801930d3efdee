/* submit-pipelined.c (bench): the controller's submit throughput without
 * process start-up in the way. One connection to gbatchd's Unix socket,
 * HELLO, then N JOB_SUBMIT frames written back to back while the replies
 * are read as they come (docs/protocol.md allows pipelining; replies come
 * in order, each only after its job is committed). Prints jobs/s.
 *
 * With -e it then waits, on the same connection, until gbatchd has no job
 * pending or running (a PING every 5 ms), so a run of jobs end to end is
 * timed without a loop of processes polling beside it: a shell's
 * `gctl ping | grep` every 20 ms is some 150 processes a second, taken
 * from the jobs it times.
 *
 * With -l it also prints each submit's latency, from the moment its frame
 * is queued to the moment its reply is read, as percentiles: a mean hides
 * the tail, and a latency target is read off the median and the p99. */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "common/frame.h"
#include "common/proto.h"
#include "common/xmalloc.h"

/* A growable byte buffer; data lives in [off, len). */
struct bench_buf {
	uint8_t	*data;
	size_t	 off, len, size;
};

static const char *bench_usage =
    "usage: submit-pipelined [-eHl] [-d SPEC] [-n JOBS] [-w WINDOW] [-s SOCKET]\n"
    "  -n JOBS    jobs to submit (default 20000)\n"
    "  -w WINDOW  most requests in flight at once (default 1024)\n"
    "  -H         submit the jobs held, so they do not run\n"
    "  -d SPEC    each job waits for SPEC (gsub -d: afterok:7)\n"
    "  -e         then wait until gbatchd has no job pending or running\n"
    "  -l         also print the submits' latency: p50, p90, p99, max\n"
    "  -s SOCKET  gbatchd's socket (default $GBATCH_SOCKET)\n"
    "Prints one line: jobs, seconds, jobs/s (with -e, until the end);\n"
    "with -l a second: latency p50 MS p90 MS p99 MS max MS.\n"
    "Exits 1 if any reply is not ok.\n";

static double
bench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

static void
bench_buf_add(struct bench_buf *b, const void *p, size_t n)
{
	if (b->off > 0 && b->off == b->len)
		b->off = b->len = 0;
	if (b->len + n > b->size) {
		if (b->off > 0) {
			memmove(b->data, b->data + b->off, b->len - b->off);
			b->len -= b->off;
			b->off = 0;
		}
		while (b->len + n > b->size)
			b->size = b->size == 0 ? 65536 : b->size * 2;
		b->data = xrealloc(b->data, b->size);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void
bench_queue(struct bench_buf *b, json_t *msg)
{
	uint8_t	*f;
	size_t	 n;

	if ((f = frame_pack(msg, FRAME_MAX_REQUEST, &n)) == NULL) {
		fprintf(stderr, "submit-pipelined: cannot encode a request\n");
		exit(1);
	}
	bench_buf_add(b, f, n);
	free(f);
	json_decref(msg);
}

/* Queues a JOB_SUBMIT of seq carrying job, whose compact JSON text is
 * jtext (jlen bytes): the same bytes frame_pack writes for the request, but
 * the job is encoded once, not once a request, so the client's time does
 * not take the controller's on a small machine. */
static void
bench_queue_submit(struct bench_buf *b, long long seq, const char *jtext,
    size_t jlen)
{
	char	head[64];
	uint8_t	hdr[FRAME_HEADER];
	size_t	n;
	int	h;

	h = snprintf(head, sizeof head, "{\"type\":%d,\"seq\":%lld,\"job\":",
	    MSG_JOB_SUBMIT, seq);
	n = (size_t)h + jlen + 1;
	hdr[0] = (uint8_t)(n >> 24);
	hdr[1] = (uint8_t)(n >> 16);
	hdr[2] = (uint8_t)(n >> 8);
	hdr[3] = (uint8_t)n;
	bench_buf_add(b, hdr, sizeof hdr);
	bench_buf_add(b, head, (size_t)h);
	bench_buf_add(b, jtext, jlen);
	bench_buf_add(b, "}", 1);
}

extern char **environ;

/* The job every request carries: what `gsub --wrap true` sends, the whole
 * environment included, so the frames are as large as real ones. */
static json_t *
bench_job(int hold, const char *cwd)
{
	json_t		 *env;
	char		**e;
	const char	 *eq;
	char		 *key;

	env = json_object();
	for (e = environ; *e != NULL; e++) {
		if ((eq = strchr(*e, '=')) == NULL || eq == *e)
			continue;
		/* json_string() refuses values that are not UTF-8; the
		 * job simply goes without them. */
		key = xstrndup(*e, (size_t)(eq - *e));
		json_object_set_new(env, key, json_string(eq + 1));
		free(key);
	}
	return (json_pack("{s:s,s:s,s:s,s:[],s:s,s:s,s:s,s:i,s:i,"
	    "s:o,s:b}",
	    "name", "bench",
	    "script", "#!/bin/sh\ntrue\n",
	    "command", "true",
	    "argv",
	    "workdir", cwd,
	    "stdout", "/dev/null",
	    "stderr", "/dev/null",
	    "gpus", 1,
	    "time_limit", 0,
	    "env", env,
	    "hold", hold));
}

/* Checks one reply; exits on anything but the ok reply to seq. */
static void
bench_check(json_t *reply, long long seq)
{
	json_t		*okv, *s;
	const char	*code, *msg;

	okv = json_object_get(reply, "ok");
	s = json_object_get(reply, "seq");
	if (!json_is_true(okv)) {
		code = json_string_value(json_object_get(reply, "code"));
		msg = json_string_value(json_object_get(reply, "message"));
		if (seq == 0)
			fprintf(stderr, "submit-pipelined: HELLO refused: %s "
			    "(%s)\n", msg ? msg : "no message",
			    code ? code : "no code");
		else
			fprintf(stderr, "submit-pipelined: request %lld refused: "
			    "%s (%s)\n", seq, msg ? msg : "no message",
			    code ? code : "no code");
		exit(1);
	}
	if (seq < 0)
		return;
	if (seq > 0 && (!json_is_integer(s) || json_integer_value(s) != seq)) {
		fprintf(stderr, "submit-pipelined: reply out of order: expected "
		    "seq %lld\n", seq);
		exit(1);
	}
	if (seq > 0 && !json_is_integer(json_object_get(reply, "job_id"))) {
		fprintf(stderr, "submit-pipelined: reply %lld has no job_id\n",
		    seq);
		exit(1);
	}
}

/* Reads one frame from fd (blocking with poll) into in; returns it. */
static json_t *
bench_read_one(int fd, struct bench_buf *in)
{
	struct pollfd	 pfd = { fd, POLLIN, 0 };
	uint8_t		 rbuf[65536];
	json_t		*msg;
	size_t		 used;
	ssize_t		 n;
	char		 err[256];
	int		 r;

	for (;;) {
		r = frame_parse(in->data + in->off, in->len - in->off,
		    FRAME_MAX_REPLY, &used, &msg, err, sizeof err);
		if (r == -1) {
			fprintf(stderr, "submit-pipelined: bad reply: %s\n",
			    err);
			exit(3);
		}
		if (r == 1) {
			in->off += used;
			return (msg);
		}
		if (poll(&pfd, 1, 30000) <= 0) {
			fprintf(stderr, "submit-pipelined: no reply for 30 s\n");
			exit(3);
		}
		n = read(fd, rbuf, sizeof rbuf);
		if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR)) {
			fprintf(stderr, "submit-pipelined: gbatchd closed the "
			    "connection\n");
			exit(3);
		}
		if (n > 0)
			bench_buf_add(in, rbuf, (size_t)n);
	}
}

/* Waits until gbatchd holds no job pending (or held) or running: a PING
 * every 5 ms, on fd, for BENCH_WAIT_S at most. */
#define BENCH_WAIT_S	600
static void
bench_wait_idle(int fd, struct bench_buf *in, long long seq)
{
	const struct timespec	 pause = { 0, 5000000 };
	struct bench_buf	 out = { 0 };
	json_t			*reply, *jobs;
	json_int_t		 pending, running;
	double			 deadline = bench_now() + BENCH_WAIT_S;
	ssize_t			 n;

	for (;; seq++) {
		bench_queue(&out, json_pack("{s:i,s:I}", "type", MSG_PING,
		    "seq", (json_int_t)seq));
		while (out.off < out.len) {
			n = write(fd, out.data + out.off, out.len - out.off);
			if (n == -1 && errno != EAGAIN && errno != EINTR) {
				fprintf(stderr, "submit-pipelined: write: "
				    "%s\n", strerror(errno));
				exit(3);
			}
			if (n > 0)
				out.off += (size_t)n;
		}
		reply = bench_read_one(fd, in);
		bench_check(reply, -1);
		jobs = json_object_get(reply, "jobs");
		pending = json_integer_value(json_object_get(jobs, "pending"));
		running = json_integer_value(json_object_get(jobs, "running"));
		json_decref(reply);
		if (pending == 0 && running == 0)
			break;
		if (bench_now() > deadline) {
			fprintf(stderr, "submit-pipelined: %lld pending and %lld "
			    "running after %d s\n", (long long)pending,
			    (long long)running, BENCH_WAIT_S);
			exit(3);
		}
		nanosleep(&pause, NULL);
	}
	free(out.data);
}

static int
bench_connect(const char *path)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		fprintf(stderr, "submit-pipelined: socket path too long: %s\n",
		    path);
		exit(2);
	}
	strcpy(sun.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof sun) == -1) {
		fprintf(stderr, "submit-pipelined: %s: %s\n", path,
		    strerror(errno));
		exit(3);
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == -1) {
		fprintf(stderr, "submit-pipelined: fcntl: %s\n", strerror(errno));
		exit(3);
	}
	return (fd);
}

static long
bench_number(const char *opt, const char *s, long lo, long hi)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) {
		fprintf(stderr, "submit-pipelined: %s: expected a whole number "
		    "%ld-%ld, got \"%s\"\n", opt, lo, hi, s);
		exit(2);
	}
	return (v);
}

static int
bench_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

/* Prints the percentiles of the n latencies in lat (seconds; sorted
 * here), in milliseconds. The p-th percentile is the smallest latency
 * that p% of the submits did not exceed. */
static void
bench_print_latency(double *lat, long n)
{
	static const int	 pct[] = { 50, 90, 99 };
	size_t			 i, k;

	qsort(lat, (size_t)n, sizeof *lat, bench_cmp_double);
	printf("latency");
	for (i = 0; i < sizeof pct / sizeof pct[0]; i++) {
		k = ((size_t)n * (size_t)pct[i] + 99) / 100;
		printf(" p%d %.3f ms", pct[i], lat[k == 0 ? 0 : k - 1] * 1e3);
	}
	printf(" max %.3f ms\n", lat[n - 1] * 1e3);
}

int
main(int argc, char **argv)
{
	struct bench_buf	 out = { 0 }, in = { 0 };
	struct pollfd		 pfd;
	json_t			*msg, *job;
	char			*jtext;
	size_t			 jlen;
	const char		*path = getenv("GBATCH_SOCKET"), *depend = NULL;
	char			 cwd[PATH_MAX], err[256];
	uint8_t			 rbuf[65536];
	long			 njobs = 20000, window = 1024;
	long long		 sent = 0, answered = 0;
	int			 fd, ch, hold = 0, hello_done = 0, r;
	int			 wait_end = 0, latency = 0;
	double			*queued = NULL, *lat = NULL;
	size_t			 used;
	ssize_t			 n;
	double			 t0, t;

	while ((ch = getopt(argc, argv, "Hd:ehln:s:w:")) != -1) {
		switch (ch) {
		case 'e':
			wait_end = 1;
			break;
		case 'H':
			hold = 1;
			break;
		case 'l':
			latency = 1;
			break;
		case 'n':
			njobs = bench_number("-n", optarg, 1, 100000000);
			break;
		case 's':
			path = optarg;
			break;
		case 'd':
			depend = optarg;
			break;
		case 'w':
			window = bench_number("-w", optarg, 1, 1000000);
			break;
		case 'h':
			fputs(bench_usage, stdout);
			return (0);
		default:
			fputs(bench_usage, stderr);
			return (2);
		}
	}
	if (wait_end && hold) {
		fprintf(stderr, "submit-pipelined: -e waits for the jobs to "
		    "end, and -H holds them: give one or the other\n");
		return (2);
	}
	if (optind != argc || path == NULL || *path == '\0') {
		fputs(bench_usage, stderr);
		return (2);
	}
	if (getcwd(cwd, sizeof cwd) == NULL)
		strcpy(cwd, "/tmp");

	fd = bench_connect(path);
	msg = json_pack("{s:i,s:i,s:s}", "type", MSG_HELLO, "version",
	    PROTO_VERSION, "role", "client");
	bench_queue(&out, msg);
	job = bench_job(hold, cwd);
	if (depend != NULL)
		json_object_set_new(job, "dependency", json_string(depend));
	if ((jtext = json_dumps(job, JSON_COMPACT)) == NULL) {
		fprintf(stderr, "submit-pipelined: cannot encode the job\n");
		return (1);
	}
	jlen = strlen(jtext);
	if (latency) {
		queued = xcalloc((size_t)njobs, sizeof *queued);
		lat = xcalloc((size_t)njobs, sizeof *lat);
	}

	t0 = bench_now();
	while (answered < njobs) {
		/* Keep the window full, a few hundred frames at a time so the
		 * output buffer stays small. */
		while (sent < njobs && sent - answered < window &&
		    out.len - out.off < 256 * 1024) {
			bench_queue_submit(&out, sent + 1, jtext, jlen);
			if (queued != NULL)
				queued[sent] = bench_now();
			sent++;
		}
		pfd.fd = fd;
		pfd.events = POLLIN | (out.len > out.off ? POLLOUT : 0);
		if (poll(&pfd, 1, 30000) <= 0) {
			fprintf(stderr, "submit-pipelined: no progress for 30 s "
			    "(%lld sent, %lld answered)\n", sent, answered);
			return (3);
		}
		if ((pfd.revents & POLLOUT) && out.len > out.off) {
			n = write(fd, out.data + out.off, out.len - out.off);
			if (n == -1 && errno != EAGAIN && errno != EINTR) {
				fprintf(stderr, "submit-pipelined: write: %s\n",
				    strerror(errno));
				return (3);
			}
			if (n > 0)
				out.off += (size_t)n;
		}
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read(fd, rbuf, sizeof rbuf);
			if (n == 0 || (n == -1 && errno != EAGAIN &&
			    errno != EINTR)) {
				fprintf(stderr, "submit-pipelined: gbatchd closed "
				    "the connection after %lld replies\n",
				    answered);
				return (3);
			}
			if (n > 0)
				bench_buf_add(&in, rbuf, (size_t)n);
		}
		for (;;) {
			r = frame_parse(in.data + in.off, in.len - in.off,
			    FRAME_MAX_REPLY, &used, &msg, err, sizeof err);
			if (r == 0)
				break;
			if (r == -1) {
				fprintf(stderr, "submit-pipelined: bad reply: "
				    "%s\n", err);
				return (3);
			}
			in.off += used;
			if (!hello_done) {
				bench_check(msg, 0);
				hello_done = 1;
			} else {
				bench_check(msg, ++answered);
				if (lat != NULL)
					lat[answered - 1] = bench_now() -
					    queued[answered - 1];
			}
			json_decref(msg);
		}
	}
	if (wait_end)
		bench_wait_idle(fd, &in, njobs + 1);
	t = bench_now() - t0;
	printf("%ld jobs in %.3f s: %.0f jobs/s\n", njobs, t, njobs / t);
	if (lat != NULL)
		bench_print_latency(lat, njobs);
	free(queued);
	free(lat);
	json_decref(job);
	free(jtext);
	free(out.data);
	free(in.data);
	close(fd);
	return (0);
}
