/* fuzz-gbatchd-req.c: every request gbatchd decodes, through the real
 * controller: peer.c cuts the bytes into frames, req.c dispatches them and
 * the req-*.c handlers act on a real store. Once per process the
 * controller starts (gbatchd_open) on a scratch directory with TLS off,
 * and two peers are made over socketpairs as listener.c makes them: a
 * local client with a plain uid (not an operator) and a node that proved
 * its name, "fuzz-node", with one GPU; each has said HELLO.
 *
 * An input's first byte picks the peer (even: the client, odd: the node),
 * the rest is written to it as it comes: one or more frames, or garbage.
 * The loop then runs without blocking until the controller is idle, and
 * the replies are read and dropped. What a peer does to the controller
 * stays for the next input (jobs, the node's state); a peer the
 * controller closed is made again, and every FUZZ_REOPEN inputs the
 * controller restarts on an empty store, so the queue stays small.
 * The invariant is the daemon's: nothing a peer sends crashes it, leaks
 * or hangs it. */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/event.h>

#include "common/frame.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/gbatchd.h"
#include "daemon/controller/peer-limit.h"
#include "daemon/controller/peer.h"
#include "tests/fuzz/fuzz.h"

/* The client's uid and gid: nobody's, so never an operator. */
#define FUZZ_UID	4242
#define FUZZ_NODE	"fuzz-node"
/* Inputs between restarts on an empty store. */
#define FUZZ_REOPEN	2000
/* Loop passes one input may take before it counts as a hang. */
#define FUZZ_MAX_PASSES	100000

enum { FUZZ_CLIENT, FUZZ_NODE_PEER, FUZZ_NPEERS };

static struct event_base	*fuzz_base;
/* The fuzz peers' connection limits, as a listener of gbatchd.c holds. */
static struct peer_limits	*fuzz_limits;
static const struct peer_limit_hooks fuzz_limit_hooks = {
	.close = peer_close,
	.resume = peer_resume,
};
static char			*fuzz_dir;
static char			*fuzz_conf;
/* Our end of each peer's socketpair, -1 when it must be made again. */
static int			 fuzz_fd[FUZZ_NPEERS] = { -1, -1 };
static unsigned long		 fuzz_inputs;

static void __attribute__((noreturn))
fuzz_fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz-gbatchd-req: %s: %s\n", what, why);
	abort();
}

static int
fuzz_rm(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	(void)remove(path);
	return (0);
}

/* Reads and drops what the controller sent on fd. Returns the bytes
 * read, or -1 when the controller closed the peer. */
static ssize_t
fuzz_drain(int fd)
{
	char	buf[65536];
	ssize_t	n, got = 0;

	for (;;) {
		n = read(fd, buf, sizeof buf);
		if (n > 0) {
			got += n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return (got);
		return (-1);
	}
}

/* Whether the controller has nothing left to do on what was sent: every
 * byte taken from the sockets, nothing waiting to be committed or
 * written, no event ready to run. */
static int
fuzz_idle(void)
{
	int	i, n;

	for (i = 0; i < FUZZ_NPEERS; i++) {
		if (fuzz_fd[i] != -1 && ioctl(fuzz_fd[i], TIOCOUTQ, &n) == 0 &&
		    n > 0)
			return (0);
	}
	return (!commit_pending() && peer_all_flushed() &&
	    event_base_get_num_events(fuzz_base,
	    EVENT_BASE_COUNT_ACTIVE) == 0);
}

/* Writes len bytes at data to peer i's socket, running the controller
 * while the socket is full, then runs it until it is idle, dropping the
 * replies. A peer the controller closed is forgotten (fd -1). */
static void
fuzz_send(int p, const uint8_t *data, size_t len)
{
	size_t	off = 0;
	ssize_t	n, got;
	int	i, passes, quiet = 0;

	for (passes = 0; passes < FUZZ_MAX_PASSES; passes++) {
		while (fuzz_fd[p] != -1 && off < len) {
			n = send(fuzz_fd[p], data + off, len - off,
			    MSG_NOSIGNAL);
			if (n == -1 && errno == EINTR)
				continue;
			if (n == -1 && errno == EAGAIN)
				break;
			if (n == -1) {
				/* Closed by the controller: the rest is
				 * unsent, as for a real peer. */
				off = len;
				break;
			}
			off += (size_t)n;
		}
		event_base_loop(fuzz_base, EVLOOP_NONBLOCK);
		got = 0;
		for (i = 0; i < FUZZ_NPEERS; i++) {
			if (fuzz_fd[i] == -1)
				continue;
			if ((n = fuzz_drain(fuzz_fd[i])) == -1) {
				close(fuzz_fd[i]);
				fuzz_fd[i] = -1;
				got++;
			} else
				got += n;
		}
		/* Two quiet passes in a row: one to see the last write
		 * arrive, one to be sure nothing followed it. */
		if ((off == len || fuzz_fd[p] == -1) && got == 0 &&
		    fuzz_idle()) {
			if (++quiet == 2)
				return;
		} else
			quiet = 0;
	}
	fuzz_fail("input", "the controller is still busy after "
	    "FUZZ_MAX_PASSES loop passes");
}

static void
fuzz_send_msg(int i, const char *json)
{
	json_error_t	 je;
	json_t		*msg;
	uint8_t		*frame;
	size_t		 len;

	if ((msg = json_loads(json, 0, &je)) == NULL)
		fuzz_fail(json, je.text);
	if ((frame = frame_pack(msg, FRAME_MAX_REQUEST, &len)) == NULL)
		fuzz_fail(json, "cannot pack");
	fuzz_send(i, frame, len);
	free(frame);
	json_decref(msg);
}

/* Makes peer i as listener.c would, and has it say HELLO. */
static void
fuzz_peer(int i)
{
	struct peer_ident	 id = { 0 };
	struct bufferevent	*bev;
	int			 sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		fuzz_fail("socketpair", strerror(errno));
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK) == -1 ||
	    evutil_make_socket_nonblocking(sv[1]) != 0)
		fuzz_fail("socketpair", "cannot make it non-blocking");
	bev = bufferevent_socket_new(fuzz_base, sv[1], BEV_OPT_CLOSE_ON_FREE);
	if (bev == NULL)
		fuzz_fail("bufferevent_socket_new", "failed");
	fuzz_fd[i] = sv[0];
	if (i == FUZZ_CLIENT) {
		id.local = true;
		id.uid = FUZZ_UID;
		id.gid = FUZZ_UID;
		if (peer_create(bev, &id, true, NULL, fuzz_limits) == NULL)
			fuzz_fail("peer_create", "client");
		fuzz_send_msg(i, "{\"type\": 100, \"seq\": 1, \"version\": 1, "
		    "\"role\": \"client\"}");
	} else {
		id.node = FUZZ_NODE;
		id.trusted = true;
		if (peer_create(bev, &id, false, "127.0.0.1:40000",
		    fuzz_limits) == NULL)
			fuzz_fail("peer_create", "node");
		fuzz_send_msg(i, "{\"type\": 100, \"seq\": 1, \"version\": 1, "
		    "\"role\": \"node\", \"name\": \"" FUZZ_NODE "\", "
		    "\"gpu_source\": \"simulated\", \"gpus\": [{\"index\": 0, "
		    "\"name\": \"Fuzz GPU\", \"uuid\": \"GPU-fuzz-0\", "
		    "\"memory_mb\": 1024}], "
		    "\"jobs\": []}");
	}
}

/* Starts the controller on an empty store. */
static void
fuzz_open(void)
{
	char	*db, err[1024];

	db = xasprintf("%s/state/gbatchd.db", fuzz_dir);
	(void)unlink(db);
	free(db);
	if ((fuzz_base = event_base_new()) == NULL)
		fuzz_fail("event_base_new", "failed");
	if (gbatchd_open(fuzz_base, err, sizeof err) != 0)
		fuzz_fail("gbatchd_open", err);
	fuzz_limits = peer_limit_create(fuzz_base, &fuzz_limit_hooks);
}

static void
fuzz_close(void)
{
	int	i;

	gbatchd_close();
	peer_limit_free(fuzz_limits);
	fuzz_limits = NULL;
	event_base_free(fuzz_base);
	fuzz_base = NULL;
	for (i = 0; i < FUZZ_NPEERS; i++) {
		if (fuzz_fd[i] != -1)
			close(fuzz_fd[i]);
		fuzz_fd[i] = -1;
	}
}

static void
fuzz_exit(void)
{
	if (fuzz_base != NULL)
		fuzz_close();
	gbatchd_unconfigure();
	(void)nftw(fuzz_dir, fuzz_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(fuzz_conf);
	free(fuzz_dir);
}

static void
fuzz_init(void)
{
	struct gbatchd_flags	 flags = { 0 };
	const char		*tmp;
	char			 err[1024];
	FILE			*f;

	signal(SIGPIPE, SIG_IGN);
	/* A peer's mistakes are logged as warnings: too many to show. */
	log_open("fuzz-gbatchd-req", 0, LOG_LEVEL_ERROR);
	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	fuzz_dir = xasprintf("%s/gbfuzz.XXXXXX", tmp);
	if (mkdtemp(fuzz_dir) == NULL)
		fuzz_fail(fuzz_dir, strerror(errno));
	fuzz_conf = xasprintf("%s/gbatch.conf", fuzz_dir);
	if ((f = fopen(fuzz_conf, "w")) == NULL)
		fuzz_fail(fuzz_conf, strerror(errno));
	fprintf(f, "controller = {\n  socket = \"%s/gbatchd.sock\";\n"
	    "  listen = \"127.0.0.1:0\";\n  state_dir = \"%s/state\";\n"
	    "  sync = \"normal\";\n  log_level = \"error\";\n};\n"
	    "tls = {\n  enabled = false;\n};\n", fuzz_dir, fuzz_dir);
	if (fclose(f) != 0)
		fuzz_fail(fuzz_conf, strerror(errno));
	flags.conf_path = fuzz_conf;
	flags.conf_must_exist = true;
	if (gbatchd_configure(&flags, err, sizeof err) == -1)
		fuzz_fail("gbatchd_configure", err);
	fuzz_open();
	atexit(fuzz_exit);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int	i;

	if (size == 0 || size > FRAME_MAX_REQUEST + 64)
		return (0);
	if (fuzz_base == NULL)
		fuzz_init();
	else if (++fuzz_inputs % FUZZ_REOPEN == 0) {
		fuzz_close();
		fuzz_open();
	}
	for (i = 0; i < FUZZ_NPEERS; i++) {
		if (fuzz_fd[i] == -1)
			fuzz_peer(i);
	}
	fuzz_send(data[0] & 1, data + 1, size - 1);
	return (0);
}
