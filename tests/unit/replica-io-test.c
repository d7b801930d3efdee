/* replica-io-test.c: three C-raft servers in one process, each on our own
 * raft_io (daemon/controller/replica-io.c: raft-disk.c's SQLite files,
 * raft-wire.c's bytes), joined by a transport that delivers each message
 * later from the loop and can cut a server off. The state machine adds up
 * the numbers it is given. They elect a leader; what the leader
 * acknowledges reaches every server; a server cut off loses the lead, the
 * others elect another and go on, and it catches up when it is back; the
 * three restarted from their files know everything that was acknowledged;
 * a server whose files are lost is brought back by a snapshot. Waits poll
 * the loop until a condition holds or a deadline passes. */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>
#include <raft.h>

#include "common/xmalloc.h"
#include "daemon/controller/replica-io.h"
#include "tests/unit/tap.h"

#define T_N		3
#define T_DEADLINE_MS	10000

struct t_fsm {
	uint64_t	sum;
	unsigned	n;
};

struct t_server {
	struct raft	 raft;
	struct raft_io	 io;
	struct raft_fsm	 fsm;
	struct t_fsm	 state;
	bool		 up;		/* started, not closed */
	bool		 cut;		/* its traffic is dropped, both ways */
	char		 address[16];
};

struct t_msg {
	raft_id			 from, to;
	uint8_t			*buf;
	size_t			 len;
	TAILQ_ENTRY(t_msg)	 entry;
};

static struct {
	struct event_base	*base;
	struct event		*deliver;
	TAILQ_HEAD(, t_msg)	 queue;
	struct t_server		 s[T_N];
	char			*dir;
	unsigned		 acked;
	uint64_t		 acked_sum;
} t;

static int
t_apply(struct raft_fsm *fsm, const struct raft_buffer *buf, void **result)
{
	struct t_fsm	*f = fsm->data;
	uint64_t	 v;

	if (buf->len != sizeof v)
		return (RAFT_MALFORMED);
	memcpy(&v, buf->base, sizeof v);
	f->sum += v;
	f->n++;
	*result = NULL;
	return (0);
}

static int
t_snapshot(struct raft_fsm *fsm, struct raft_buffer *bufs[], unsigned *n)
{
	struct t_fsm	*f = fsm->data;

	*bufs = raft_malloc(sizeof **bufs);
	(*bufs)[0].len = sizeof *f;
	(*bufs)[0].base = raft_malloc(sizeof *f);
	memcpy((*bufs)[0].base, f, sizeof *f);
	*n = 1;
	return (0);
}

static int
t_restore(struct raft_fsm *fsm, struct raft_buffer *buf)
{
	struct t_fsm	*f = fsm->data;

	if (buf->len != sizeof *f)
		return (RAFT_MALFORMED);
	memcpy(f, buf->base, sizeof *f);
	raft_free(buf->base);
	return (0);
}

static void
t_deliver(evutil_socket_t fd, short what, void *arg)
{
	struct t_msg	*m;

	while ((m = TAILQ_FIRST(&t.queue)) != NULL) {
		TAILQ_REMOVE(&t.queue, m, entry);
		if (t.s[m->to - 1].up && !t.s[m->to - 1].cut &&
		    !t.s[m->from - 1].cut)
			(void)replica_io_recv(&t.s[m->to - 1].io, m->from,
			    t.s[m->from - 1].address, m->buf, m->len);
		free(m->buf);
		free(m);
	}
}

static int
t_send(raft_id to, const char *address, const uint8_t *buf, size_t len,
    void *arg)
{
	struct t_server	*from = arg;
	struct t_msg	*m;

	if (to < 1 || to > T_N || from->cut || t.s[to - 1].cut)
		return (-1);
	m = xcalloc(1, sizeof *m);
	m->from = (raft_id)(from - t.s) + 1;
	m->to = to;
	m->buf = xmalloc(len);
	memcpy(m->buf, buf, len);
	m->len = len;
	TAILQ_INSERT_TAIL(&t.queue, m, entry);
	event_active(t.deliver, EV_TIMEOUT, 1);
	return (0);
}

static int64_t
t_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* As replica.c does, a server that leads has its appends written by
 * the writer thread; here one that stops leading writes in the loop
 * again (gbatchd starts itself again instead), with appends waiting. */
static void
t_writers(void)
{
	int	i;
	bool	lead;

	for (i = 0; i < T_N; i++) {
		if (!t.s[i].up)
			continue;
		lead = raft_state(&t.s[i].raft) == RAFT_LEADER;
		replica_io_lead(&t.s[i].io, lead);
	}
}

/* Runs the loop until cond() holds or the deadline passes. */
static bool
t_until(bool (*cond)(void))
{
	int64_t	end = t_ms() + T_DEADLINE_MS;

	t_writers();
	while (!cond()) {
		if (t_ms() > end)
			return (false);
		event_base_loop(t.base, EVLOOP_ONCE);
		t_writers();
	}
	return (true);
}

static int
t_leader(void)
{
	int	i;

	for (i = 0; i < T_N; i++) {
		if (t.s[i].up && !t.s[i].cut &&
		    raft_state(&t.s[i].raft) == RAFT_LEADER)
			return (i);
	}
	return (-1);
}

static bool
t_has_leader(void)
{
	return (t_leader() != -1);
}

static bool
t_all_caught_up(void)
{
	int	i;

	for (i = 0; i < T_N; i++) {
		if (t.s[i].up && (t.s[i].state.n != t.acked ||
		    t.s[i].state.sum != t.acked_sum))
			return (false);
	}
	return (true);
}

static char *
t_path(int i)
{
	return (xasprintf("%s/raft%d.db", t.dir, i + 1));
}

static int
t_start(int i, bool bootstrap)
{
	struct t_server			*s = &t.s[i];
	struct replica_io_transport	 tr = { t_send, s };
	struct raft_configuration	 conf;
	char				 err[256], *path = t_path(i);
	int				 j, rc;

	snprintf(s->address, sizeof s->address, "r%d", i + 1);
	memset(&s->state, 0, sizeof s->state);
	s->fsm.version = 1;
	s->fsm.data = &s->state;
	s->fsm.apply = t_apply;
	s->fsm.snapshot = t_snapshot;
	s->fsm.restore = t_restore;
	rc = replica_io_init(&s->io, t.base, path, &tr, err, sizeof err);
	free(path);
	if (rc != 0) {
		fprintf(stderr, "# %s\n", err);
		return (-1);
	}
	if (raft_init(&s->raft, &s->io, &s->fsm, (raft_id)i + 1,
	    s->address) != 0)
		return (-1);
	raft_set_election_timeout(&s->raft, 200);
	raft_set_heartbeat_timeout(&s->raft, 40);
	raft_set_snapshot_threshold(&s->raft, 16);
	raft_set_snapshot_trailing(&s->raft, 4);
	if (bootstrap) {
		raft_configuration_init(&conf);
		for (j = 0; j < T_N; j++) {
			char	a[16];

			snprintf(a, sizeof a, "r%d", j + 1);
			(void)raft_configuration_add(&conf, (raft_id)j + 1, a,
			    RAFT_VOTER);
		}
		rc = raft_bootstrap(&s->raft, &conf);
		raft_configuration_close(&conf);
		if (rc != 0)
			return (-1);
	}
	if ((rc = raft_start(&s->raft)) != 0) {
		fprintf(stderr, "# start %d: %s\n", i + 1,
		    raft_errmsg(&s->raft));
		return (-1);
	}
	s->up = true;
	return (0);
}

static int	t_closed;

static void
t_close_cb(struct raft *r)
{
	t_closed++;
}

static bool
t_closed_one(void)
{
	return (t_closed > 0);
}

static void
t_stop(int i)
{
	t_closed = 0;
	raft_close(&t.s[i].raft, t_close_cb);
	(void)t_until(t_closed_one);
	replica_io_free(&t.s[i].io);
	t.s[i].up = false;
}

static unsigned	t_cb_ok, t_cb_failed;

static void
t_apply_cb(struct raft_apply *req, int status, void *result)
{
	uint64_t	v = (uint64_t)(uintptr_t)req->data;

	if (status == 0) {
		t_cb_ok++;
		t.acked++;
		t.acked_sum += v;
	} else
		t_cb_failed++;
	free(req);
}

/* Proposes n numbers to the leader and waits for them to be acked. */
static unsigned	t_want;

static bool
t_acked_all(void)
{
	return (t_cb_ok + t_cb_failed >= t_want);
}

/* Proposes n numbers to server at and waits for their callbacks: 0 when
 * all were acknowledged, -1 otherwise (t_cb_failed says how many were
 * refused). */
static int
t_propose_on(int leader, int n, uint64_t base)
{
	int			 i;
	struct raft_buffer	 b;
	struct raft_apply	*req;

	if (leader == -1)
		return (-1);
	t_cb_ok = t_cb_failed = 0;
	t_want = (unsigned)n;
	for (i = 0; i < n; i++) {
		uint64_t v = base + (uint64_t)i;

		b.len = sizeof v;
		b.base = raft_malloc(b.len);
		memcpy(b.base, &v, sizeof v);
		req = xcalloc(1, sizeof *req);
		req->data = (void *)(uintptr_t)v;
		if (raft_apply(&t.s[leader].raft, req, &b, 1,
		    t_apply_cb) != 0) {
			raft_free(b.base);
			free(req);
			return (-1);
		}
	}
	return (t_until(t_acked_all) && t_cb_failed == 0 ? 0 : -1);
}

static int
t_propose(int n, uint64_t base)
{
	return (t_propose_on(t_leader(), n, base));
}

static int	t_cut_leader;

static bool
t_cut_stepped_down(void)
{
	return (raft_state(&t.s[t_cut_leader].raft) != RAFT_LEADER);
}

int
main(void)
{
	char		 tmpl[] = "/tmp/gb-replica-io.XXXXXX", *cmd, *path;
	int		 i, old, now;
	unsigned long	 loops, threads;

	if ((t.dir = mkdtemp(tmpl)) == NULL)
		return (1);
	t.base = event_base_new();
	t.deliver = event_new(t.base, -1, 0, t_deliver, NULL);
	TAILQ_INIT(&t.queue);

	for (i = 0; i < T_N; i++)
		ok(t_start(i, true) == 0, "server %d bootstraps and starts",
		    i + 1);
	ok(t_until(t_has_leader), "a leader is elected");
	ok(t_propose(10, 1) == 0, "the leader acknowledges 10 commands");
	ok(t_until(t_all_caught_up), "every server applied them");

	/* The leader is cut off: the other two go on without it. */
	old = t_leader();
	t.s[old].cut = true;
	t_cut_leader = old;
	ok(t_propose_on(old, 3, 1u << 20) == -1 && t_cb_failed == 3 &&
	    t.acked == 10, "the cut-off leader acknowledges nothing more");
	ok(t_until(t_cut_stepped_down), "and steps down");
	ok(t_until(t_has_leader) && (now = t_leader()) != old,
	    "the two others elect a new leader");
	ok(t_propose(40, 100) == 0, "which acknowledges 40 more, past a "
	    "snapshot");
	t.s[old].cut = false;
	ok(t_until(t_all_caught_up), "the old leader, back, catches up and "
	    "follows");
	ok(raft_state(&t.s[old].raft) != RAFT_LEADER || t_leader() == old,
	    "one leader");

	/* All three restart from their files. */
	for (i = 0; i < T_N; i++)
		t_stop(i);
	for (i = 0; i < T_N; i++)
		ok(t_start(i, false) == 0, "server %d starts again from its "
		    "file", i + 1);
	ok(t_until(t_has_leader), "a leader is elected again");
	ok(t_propose(1, 1000) == 0, "and acknowledges one more");
	ok(t_until(t_all_caught_up), "every server knows all 51 commands");
	is_int(t.acked, 51, "51 were acknowledged");
	/* Since the restart: the one that acknowledged it wrote on the
	 * writer thread, those that followed in their loop. */
	loops = threads = 0;
	for (i = 0; i < T_N; i++) {
		unsigned long	loop, thread;

		replica_io_counts(&t.s[i].io, &loop, &thread);
		loops += loop;
		threads += thread;
	}
	ok(threads > 0, "a leader wrote its appends on the writer thread");
	ok(loops > 0, "followers wrote theirs in the loop");

	/* A follower loses its file: the leader sends it a snapshot. */
	now = t_leader();
	i = (now + 1) % T_N;
	t_stop(i);
	path = t_path(i);
	cmd = xasprintf("rm -rf '%s' '%s-wal' '%s-shm' '%s-log'", path, path,
	    path, path);
	ok(system(cmd) == 0, "server %d's file is gone", i + 1);
	free(cmd);
	free(path);
	ok(t_start(i, false) == 0, "it starts empty");
	ok(t_propose(20, 5000) == 0, "20 more are acknowledged");
	ok(t_until(t_all_caught_up), "and it has everything again, from a "
	    "snapshot and the log");

	for (i = 0; i < T_N; i++)
		t_stop(i);
	t_deliver(-1, 0, NULL);
	event_free(t.deliver);
	event_base_free(t.base);
	cmd = xasprintf("rm -rf '%s'", t.dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# could not remove %s\n", t.dir);
	free(cmd);
	return (tap_done());
}
