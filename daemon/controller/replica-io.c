/* replica-io.c: C-raft's raft_io on libevent (replica-io.h).
 *
 * Raft asks for a write, a send or a read and expects its callback later,
 * from the loop. Each callback is queued with its status, and one event
 * runs the queue in order, so raft hears of its writes in the order it
 * asked for them.
 *
 * Appends wait for the next round of the loop and are then written
 * together, in one transaction with one sync. Raft asks a leader for its
 * own append before it sends the entries to the followers: writing at
 * once would sync before the sends leave, and a submit would wait for
 * the two syncs one after the other. Deferred, the sends leave first
 * (the sockets' events run before a timer that is due in the same round),
 * the followers' syncs run while the leader's does, and the appends that
 * a round asked for (several submits, several messages a follower got in
 * one read) share a sync.
 *
 * A leader's appends are written by a thread of their own (the writer):
 * its loop has clients to answer and followers' replies to count while
 * the disk syncs, and a majority does not need its own copy first. The
 * appends that arrive meanwhile wait, and go together when the writer is
 * done. A follower writes in the loop: its reply waits for the sync in
 * any case, and a hand-off to a thread and back would add two wake-ups
 * to every submit's path. Every other disk operation first waits for the
 * writer and writes the appends waiting, so the disk sees them in raft's
 * order, and only one thread uses the raft.db connection at a time. */
#include <sys/queue.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/raft-disk.h"
#include "daemon/controller/raft-wire.h"
#include "daemon/controller/replica-io.h"

/* A callback raft waits for. */
struct rio_done {
	enum {
		RIO_SEND,
		RIO_APPEND,
		RIO_PUT,
		RIO_GET,
	}			 kind;
	void			*req;
	int			 status;
	struct raft_snapshot	*snapshot;	/* RIO_GET's */
	TAILQ_ENTRY(rio_done)	 entry;
};
TAILQ_HEAD(rio_dones, rio_done);

/* An append waiting for the next round. */
struct rio_write {
	struct raft_io_append	*req;
	const struct raft_entry	*entries;	/* raft's, held until the cb */
	unsigned		 n;
	TAILQ_ENTRY(rio_write)	 entry;
};
TAILQ_HEAD(rio_writes, rio_write);

/* The writer: the loop hands it a batch (busy) and takes the result
 * back once it is written (done), through the pipe's event, or waits for
 * it on cond. Everything below lock is shared with the thread. */
struct rio_writer {
	pthread_t		 thread;
	bool			 started;
	int			 pipe[2];
	struct event		*ev;		/* pipe[0] readable: a batch done */
	struct rio_writes	 held;		/* the loop's: the batch's writes */
	bool			 on;		/* the loop's: hand appends over */
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	unsigned long		 n_thread;	/* batches it wrote */
	bool			 busy;		/* a batch is handed over */
	bool			 done;		/* and written, with status rc */
	bool			 stop;
	struct raft_disk_batch	*batch;
	unsigned		 n_batch;
	int			 rc;
};

struct rio {
	struct event_base		*base;
	struct raft_disk		*disk;
	struct replica_io_transport	 transport;
	struct event			*tick;
	raft_io_tick_cb			 tick_cb;
	raft_io_recv_cb			 recv_cb;
	struct event			*done_ev;
	struct rio_dones		 dones;
	struct event			*write_ev;
	struct rio_writes		 writes;
	unsigned			 n_writes;
	unsigned long			 n_loop;	/* batches written here */
	struct rio_writer		 writer;
	raft_io_close_cb		 close_cb;
	bool				 closing;
};

static void
rio_done_run(evutil_socket_t fd, short what, void *arg)
{
	struct raft_io	*io = arg;
	struct rio	*rio = io->impl;
	struct rio_done	*d;
	struct rio_dones dones;

	/* The callbacks may queue more: those run in the next round. */
	TAILQ_INIT(&dones);
	TAILQ_CONCAT(&dones, &rio->dones, entry);
	while ((d = TAILQ_FIRST(&dones)) != NULL) {
		TAILQ_REMOVE(&dones, d, entry);
		switch (d->kind) {
		case RIO_SEND: {
			struct raft_io_send *r = d->req;

			if (r->cb != NULL)
				r->cb(r, d->status);
			break;
		}
		case RIO_APPEND: {
			struct raft_io_append *r = d->req;

			if (r->cb != NULL)
				r->cb(r, d->status);
			break;
		}
		case RIO_PUT: {
			struct raft_io_snapshot_put *r = d->req;

			if (r->cb != NULL)
				r->cb(r, d->status);
			break;
		}
		case RIO_GET: {
			struct raft_io_snapshot_get *r = d->req;

			r->cb(r, d->snapshot, d->status);
			break;
		}
		}
		free(d);
	}
	if (TAILQ_EMPTY(&rio->dones) && rio->closing && rio->close_cb != NULL) {
		raft_io_close_cb cb = rio->close_cb;

		rio->close_cb = NULL;
		cb(io);
	}
}

static void
rio_later(struct raft_io *io, int kind, void *req, int status,
    struct raft_snapshot *snapshot)
{
	struct rio	*rio = io->impl;
	struct rio_done	*d = xcalloc(1, sizeof *d);

	d->kind = kind;
	d->req = req;
	d->status = status;
	d->snapshot = snapshot;
	TAILQ_INSERT_TAIL(&rio->dones, d, entry);
	if (!event_pending(rio->done_ev, EV_TIMEOUT, NULL))
		event_active(rio->done_ev, EV_TIMEOUT, 1);
}

/* The appends waiting, as batches for raft_disk_append_batches (w's
 * writes are moved to into; the array is the caller's to free). */
static struct raft_disk_batch *
rio_take_writes(struct rio *rio, struct rio_writes *into, unsigned *n)
{
	struct raft_disk_batch	*b;
	struct rio_write	*w;
	unsigned		 i = 0;

	b = xcalloc(rio->n_writes, sizeof *b);
	TAILQ_FOREACH(w, &rio->writes, entry) {
		b[i].entries = w->entries;
		b[i++].n = w->n;
	}
	TAILQ_CONCAT(into, &rio->writes, entry);
	*n = i;
	rio->n_writes = 0;
	return (b);
}

/* Queues the callbacks of the writes in held with status rc. */
static void
rio_written(struct raft_io *io, struct rio_writes *held, unsigned n, int rc)
{
	struct rio		*rio = io->impl;
	struct rio_write	*w;

	if (rc != 0)
		log_error("replica: cannot write %u batches of raft entries: "
		    "%s", n, raft_disk_errmsg(rio->disk));
	while ((w = TAILQ_FIRST(held)) != NULL) {
		TAILQ_REMOVE(held, w, entry);
		rio_later(io, RIO_APPEND, w->req, rc, NULL);
		free(w);
	}
}

/* The loop takes back the writer's batch, once written. With wait, waits
 * for it; without, takes it only if it is done. Returns whether the
 * writer is free. */
static bool
rio_writer_take(struct raft_io *io, bool wait)
{
	struct rio		*rio = io->impl;
	struct rio_writer	*wr = &rio->writer;
	struct raft_disk_batch	*b;
	unsigned		 n;
	int			 rc;

	pthread_mutex_lock(&wr->lock);
	while (wait && wr->busy && !wr->done)
		pthread_cond_wait(&wr->cond, &wr->lock);
	if (wr->busy && !wr->done) {
		pthread_mutex_unlock(&wr->lock);
		return (false);
	}
	b = wr->batch;
	n = wr->n_batch;
	rc = wr->rc;
	wr->batch = NULL;
	wr->busy = wr->done = false;
	pthread_mutex_unlock(&wr->lock);
	if (b != NULL) {
		free(b);
		rio_written(io, &wr->held, n, rc);
	}
	return (true);
}

/* Takes back the writer's batch if it is written, then hands it the
 * appends waiting, if it is free. */
static void
rio_writer_give(struct raft_io *io)
{
	struct rio		*rio = io->impl;
	struct rio_writer	*wr = &rio->writer;
	struct raft_disk_batch	*b;
	unsigned		 n;

	if (!rio_writer_take(io, false) || rio->n_writes == 0)
		return;
	b = rio_take_writes(rio, &wr->held, &n);
	pthread_mutex_lock(&wr->lock);
	wr->batch = b;
	wr->n_batch = n;
	wr->busy = true;
	pthread_cond_broadcast(&wr->cond);
	pthread_mutex_unlock(&wr->lock);
}

/* Writes every append raft asked for, in its order: waits for the
 * writer's batch, then writes the appends waiting in the loop, in one
 * transaction. Their callbacks are queued with the status. */
static void
rio_flush(struct raft_io *io)
{
	struct rio		*rio = io->impl;
	struct raft_disk_batch	*b;
	struct rio_writes	 held;
	unsigned		 n;

	(void)rio_writer_take(io, true);
	if (rio->n_writes == 0)
		return;
	TAILQ_INIT(&held);
	b = rio_take_writes(rio, &held, &n);
	rio->n_loop++;
	rio_written(io, &held, n, raft_disk_append_batches(rio->disk, b, n));
	free(b);
}

static void *
rio_writer_main(void *arg)
{
	struct rio		*rio = arg;
	struct rio_writer	*wr = &rio->writer;
	int			 rc;
	ssize_t			 k;

	pthread_mutex_lock(&wr->lock);
	for (;;) {
		while (!wr->stop && !(wr->busy && !wr->done))
			pthread_cond_wait(&wr->cond, &wr->lock);
		if (wr->stop)
			break;
		pthread_mutex_unlock(&wr->lock);
		rc = raft_disk_append_batches(rio->disk, wr->batch,
		    wr->n_batch);
		pthread_mutex_lock(&wr->lock);
		wr->rc = rc;
		wr->n_thread++;
		wr->done = true;
		pthread_cond_broadcast(&wr->cond);
		/* A full pipe already holds a wake-up: the loop takes every
		 * batch done when it reads, not one per byte. */
		do
			k = write(wr->pipe[1], "", 1);
		while (k == -1 && errno == EINTR);
	}
	pthread_mutex_unlock(&wr->lock);
	return (NULL);
}

/* The appends waiting are due: to the writer when this server leads
 * (when the writer is free; else when it is done), else written here. */
static void
rio_write_run(evutil_socket_t fd, short what, void *arg)
{
	struct raft_io	*io = arg;
	struct rio	*rio = io->impl;

	if (rio->writer.on)
		rio_writer_give(io);
	else
		rio_flush(io);
}

/* A batch is written: its callbacks are queued, and what waited goes. */
static void
rio_writer_run(evutil_socket_t fd, short what, void *arg)
{
	char	buf[64];

	while (read(fd, buf, sizeof buf) > 0)
		;
	rio_write_run(-1, 0, arg);
}

static int
rio_writer_start(struct rio *rio, char *err, size_t errlen)
{
	struct rio_writer	*wr = &rio->writer;

	TAILQ_INIT(&wr->held);
	wr->pipe[0] = wr->pipe[1] = -1;
	pthread_mutex_init(&wr->lock, NULL);
	pthread_cond_init(&wr->cond, NULL);
	if (pipe2(wr->pipe, O_CLOEXEC | O_NONBLOCK) == -1) {
		snprintf(err, errlen, "raft's writer: pipe: %s",
		    strerror(errno));
		return (-1);
	}
	if ((errno = pthread_create(&wr->thread, NULL, rio_writer_main,
	    rio)) != 0) {
		snprintf(err, errlen, "raft's writer: a thread: %s",
		    strerror(errno));
		return (-1);
	}
	wr->started = true;
	return (0);
}

static void
rio_writer_stop(struct rio *rio)
{
	struct rio_writer	*wr = &rio->writer;

	if (wr->started) {
		pthread_mutex_lock(&wr->lock);
		wr->stop = true;
		pthread_cond_broadcast(&wr->cond);
		pthread_mutex_unlock(&wr->lock);
		pthread_join(wr->thread, NULL);
	}
	if (wr->ev != NULL)
		event_free(wr->ev);
	if (wr->pipe[0] != -1)
		close(wr->pipe[0]);
	if (wr->pipe[1] != -1)
		close(wr->pipe[1]);
	free(wr->batch);
	pthread_cond_destroy(&wr->cond);
	pthread_mutex_destroy(&wr->lock);
}

void
replica_io_counts(struct raft_io *io, unsigned long *loop,
    unsigned long *thread)
{
	struct rio	*rio = io->impl;

	*loop = rio->n_loop;
	pthread_mutex_lock(&rio->writer.lock);
	*thread = rio->writer.n_thread;
	pthread_mutex_unlock(&rio->writer.lock);
}

void
replica_io_lead(struct raft_io *io, bool on)
{
	struct rio	*rio = io->impl;

	rio->writer.on = on;
}

/* Who this server is matters only to the transport, which the caller
 * set up knowing it. */
static int
rio_init(struct raft_io *io, raft_id id, const char *address)
{
	return (0);
}

static void
rio_close(struct raft_io *io, raft_io_close_cb cb)
{
	struct rio	*rio = io->impl;

	if (rio->tick != NULL)
		evtimer_del(rio->tick);
	rio_flush(io);
	evtimer_del(rio->write_ev);
	rio->closing = true;
	rio->close_cb = cb;
	rio->recv_cb = NULL;
	/* The close's callback runs after every one queued before it. */
	if (!event_pending(rio->done_ev, EV_TIMEOUT, NULL))
		event_active(rio->done_ev, EV_TIMEOUT, 1);
}

static int
rio_fail(struct raft_io *io, int rc)
{
	struct rio	*rio = io->impl;

	if (rc != 0)
		snprintf(io->errmsg, sizeof io->errmsg, "%s",
		    raft_disk_errmsg(rio->disk));
	return (rc);
}

static int
rio_load(struct raft_io *io, raft_term *term, raft_id *voted_for,
    struct raft_snapshot **snapshot, raft_index *start_index,
    struct raft_entry *entries[], size_t *n_entries)
{
	struct rio	*rio = io->impl;

	return (rio_fail(io, raft_disk_load(rio->disk, term, voted_for,
	    snapshot, start_index, entries, n_entries)));
}

static void
rio_tick(evutil_socket_t fd, short what, void *arg)
{
	struct raft_io	*io = arg;
	struct rio	*rio = io->impl;

	if (rio->tick_cb != NULL && !rio->closing)
		rio->tick_cb(io);
}

static int
rio_start(struct raft_io *io, unsigned msecs, raft_io_tick_cb tick,
    raft_io_recv_cb recv)
{
	struct rio	*rio = io->impl;
	struct timeval	 tv = { msecs / 1000, (msecs % 1000) * 1000 };

	rio->tick_cb = tick;
	rio->recv_cb = recv;
	rio->tick = event_new(rio->base, -1, EV_PERSIST, rio_tick, io);
	if (rio->tick == NULL || evtimer_add(rio->tick, &tv) != 0) {
		snprintf(io->errmsg, sizeof io->errmsg, "cannot start the "
		    "raft timer");
		return (RAFT_IOERR);
	}
	return (0);
}

static int
rio_bootstrap(struct raft_io *io, const struct raft_configuration *conf)
{
	return (rio_fail(io, raft_disk_bootstrap(((struct rio *)io->impl)->disk,
	    conf)));
}

/* Raft's recover: forcing a configuration onto a cluster that lost its
 * majority. gbatch does not offer it (gctl replica remove changes
 * membership through the log). */
static int
rio_recover(struct raft_io *io, const struct raft_configuration *conf)
{
	snprintf(io->errmsg, sizeof io->errmsg, "recover is not supported");
	return (RAFT_NOTFOUND);
}

static int
rio_set_term(struct raft_io *io, raft_term term)
{
	rio_flush(io);
	return (rio_fail(io, raft_disk_set_term(((struct rio *)io->impl)->disk,
	    term)));
}

static int
rio_set_vote(struct raft_io *io, raft_id id)
{
	rio_flush(io);
	return (rio_fail(io, raft_disk_set_vote(((struct rio *)io->impl)->disk,
	    id)));
}

static int
rio_send(struct raft_io *io, struct raft_io_send *req,
    const struct raft_message *m, raft_io_send_cb cb)
{
	struct rio	*rio = io->impl;
	uint8_t		*buf;
	size_t		 len;
	int		 rc;

	req->cb = cb;
	if ((buf = raft_wire_encode(m, &len)) == NULL) {
		snprintf(io->errmsg, sizeof io->errmsg, "cannot encode a "
		    "message of type %u", m->type);
		return (RAFT_NOMEM);
	}
	rc = rio->transport.send(m->server_id, m->server_address, buf, len,
	    rio->transport.arg);
	free(buf);
	rio_later(io, RIO_SEND, req, rc == 0 ? 0 : RAFT_NOCONNECTION, NULL);
	return (0);
}

static int
rio_append(struct raft_io *io, struct raft_io_append *req,
    const struct raft_entry entries[], unsigned n, raft_io_append_cb cb)
{
	struct rio		*rio = io->impl;
	struct rio_write	*w = xcalloc(1, sizeof *w);
	static const struct timeval now = { 0, 0 };

	req->cb = cb;
	w->req = req;
	w->entries = entries;
	w->n = n;
	TAILQ_INSERT_TAIL(&rio->writes, w, entry);
	if (rio->n_writes++ == 0 && evtimer_add(rio->write_ev, &now) != 0)
		rio_flush(io);
	return (0);
}

static int
rio_truncate(struct raft_io *io, raft_index index)
{
	rio_flush(io);
	return (rio_fail(io, raft_disk_truncate(((struct rio *)io->impl)->disk,
	    index)));
}

static int
rio_snapshot_put(struct raft_io *io, unsigned trailing,
    struct raft_io_snapshot_put *req, const struct raft_snapshot *snapshot,
    raft_io_snapshot_put_cb cb)
{
	struct rio	*rio = io->impl;
	int		 rc;

	req->cb = cb;
	rio_flush(io);
	rc = raft_disk_snapshot_put(rio->disk, trailing, snapshot);
	if (rc != 0)
		log_error("replica: cannot write a snapshot: %s",
		    raft_disk_errmsg(rio->disk));
	rio_later(io, RIO_PUT, req, rc, NULL);
	return (0);
}

static int
rio_snapshot_get(struct raft_io *io, struct raft_io_snapshot_get *req,
    raft_io_snapshot_get_cb cb)
{
	struct rio		*rio = io->impl;
	struct raft_snapshot	*s = NULL;
	int			 rc;

	req->cb = cb;
	rio_flush(io);
	rc = raft_disk_snapshot_get(rio->disk, &s);
	if (rc != 0)
		log_error("replica: cannot read the snapshot: %s",
		    raft_disk_errmsg(rio->disk));
	rio_later(io, RIO_GET, req, rc, s);
	return (0);
}

static raft_time
rio_time(struct raft_io *io)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((raft_time)ts.tv_sec * 1000 + (raft_time)ts.tv_nsec / 1000000);
}

/* Election timeouts are drawn from here: replicas must not draw alike. */
static int
rio_random(struct raft_io *io, int min, int max)
{
	if (max <= min)
		return (min);
	return (min + (int)arc4random_uniform((uint32_t)(max - min)));
}

int
replica_io_init(struct raft_io *io, struct event_base *base,
    const char *disk_path, const struct replica_io_transport *t, char *err,
    size_t errlen)
{
	struct rio	*rio;

	memset(io, 0, sizeof *io);
	rio = xcalloc(1, sizeof *rio);
	if ((rio->disk = raft_disk_open(disk_path, err, errlen)) == NULL) {
		free(rio);
		return (-1);
	}
	rio->base = base;
	rio->transport = *t;
	TAILQ_INIT(&rio->dones);
	TAILQ_INIT(&rio->writes);
	io->impl = rio;
	if (rio_writer_start(rio, err, errlen) != 0 ||
	    (rio->writer.ev = event_new(base, rio->writer.pipe[0],
	    EV_READ | EV_PERSIST, rio_writer_run, io)) == NULL ||
	    event_add(rio->writer.ev, NULL) != 0) {
		if (rio->writer.ev == NULL)
			snprintf(err, errlen, "raft's writer: no event");
		replica_io_free(io);
		return (-1);
	}
	rio->done_ev = event_new(base, -1, 0, rio_done_run, io);
	rio->write_ev = evtimer_new(base, rio_write_run, io);
	io->version = 1;
	io->init = rio_init;
	io->close = rio_close;
	io->load = rio_load;
	io->start = rio_start;
	io->bootstrap = rio_bootstrap;
	io->recover = rio_recover;
	io->set_term = rio_set_term;
	io->set_vote = rio_set_vote;
	io->send = rio_send;
	io->append = rio_append;
	io->truncate = rio_truncate;
	io->snapshot_put = rio_snapshot_put;
	io->snapshot_get = rio_snapshot_get;
	io->time = rio_time;
	io->random = rio_random;
	return (0);
}

void
replica_io_free(struct raft_io *io)
{
	struct rio	*rio = io->impl;
	struct rio_done	*d;
	struct rio_write *w;

	if (rio == NULL)
		return;
	rio_writer_stop(rio);
	while ((w = TAILQ_FIRST(&rio->writer.held)) != NULL) {
		TAILQ_REMOVE(&rio->writer.held, w, entry);
		free(w);
	}
	while ((d = TAILQ_FIRST(&rio->dones)) != NULL) {
		TAILQ_REMOVE(&rio->dones, d, entry);
		free(d);
	}
	while ((w = TAILQ_FIRST(&rio->writes)) != NULL) {
		TAILQ_REMOVE(&rio->writes, w, entry);
		free(w);
	}
	if (rio->write_ev != NULL)
		event_free(rio->write_ev);
	if (rio->tick != NULL)
		event_free(rio->tick);
	if (rio->done_ev != NULL)
		event_free(rio->done_ev);
	raft_disk_close(rio->disk);
	free(rio);
	io->impl = NULL;
}

int
replica_io_history(struct raft_io *io, char *buf, size_t len)
{
	struct rio	*rio = io->impl;

	rio_flush(io);
	return (raft_disk_history(rio->disk, buf, len) == 0 ? 0 : -1);
}

int
replica_io_set_history(struct raft_io *io, const char *history)
{
	struct rio	*rio = io->impl;

	rio_flush(io);
	return (raft_disk_set_history(rio->disk, history) == 0 ? 0 : -1);
}

const char *
replica_io_errmsg(struct raft_io *io)
{
	return (raft_disk_errmsg(((struct rio *)io->impl)->disk));
}

int
replica_io_recv(struct raft_io *io, raft_id from, const char *from_address,
    const uint8_t *buf, size_t len)
{
	struct rio		*rio = io->impl;
	struct raft_message	 m;
	char			 err[256];

	if (rio->recv_cb == NULL)
		return (0);
	if (raft_wire_decode(buf, len, from, from_address, &m, err,
	    sizeof err) != 0) {
		log_warn("replica: a message from replica %llu (%s) is "
		    "dropped: %s", (unsigned long long)from, from_address, err);
		return (-1);
	}
	rio->recv_cb(io, &m);
	return (0);
}
