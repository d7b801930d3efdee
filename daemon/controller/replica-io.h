/* replica-io.h: C-raft's I/O (struct raft_io) on the controller's libevent
 * loop. Raft's clock is a timer on the loop; its disk is raft-disk.c, whose
 * writes are synchronous in the loop as the group commit's fsync is, but
 * for a leader's appends, which a thread of their own writes (see
 * replica_io_lead); its messages are encoded by raft-wire.c and handed to
 * a transport the caller gives (replica.c: the TLS links between
 * replicas; the unit test: a loop back within one process). Every
 * callback raft expects later runs from the loop, never inside the call
 * that asked for it, as raft requires. Raft, the store and the scheduler
 * share the one loop. */
#ifndef GB_CTL_REPLICA_IO_H
#define GB_CTL_REPLICA_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>
#include <raft.h>

/* Where messages go. send returns 0 once the bytes are queued on a link
 * to server to, -1 when there is none now (raft then sees the send fail
 * and tries again at its next heartbeat). */
struct replica_io_transport {
	int	(*send)(raft_id to, const char *address, const uint8_t *buf,
		    size_t len, void *arg);
	void	 *arg;
};

/* Makes io a raft_io over base, keeping raft's state in the SQLite file
 * disk_path (created 0600). t is copied. Returns 0, or -1 with err set. */
int	replica_io_init(struct raft_io *io, struct event_base *base,
	    const char *disk_path, const struct replica_io_transport *t,
	    char *err, size_t errlen);
/* Frees what replica_io_init made, once raft_close's callback has run. */
void	replica_io_free(struct raft_io *io);
/* Whether raft's appends are written by the writer thread (on: this
 * server leads, and its loop goes on while the disk syncs) or in the loop
 * (off, the default: a follower, whose reply waits for the sync). */
void	replica_io_lead(struct raft_io *io, bool on);
/* How many batches of appends were written in the loop and by the writer
 * since replica_io_init. */
void	replica_io_counts(struct raft_io *io, unsigned long *loop,
	    unsigned long *thread);
/* The name of the history raft.db's log belongs to (raft-disk.h), into
 * buf; and setting it. Each returns 0, or -1 with replica_io_errmsg()
 * saying why. */
int	replica_io_history(struct raft_io *io, char *buf, size_t len);
int	replica_io_set_history(struct raft_io *io, const char *history);
const char *replica_io_errmsg(struct raft_io *io);
/* Hands raft a message the transport received from server from, at
 * from_address (bytes of raft_wire_encode; a bad one is dropped and
 * logged). Returns 0, or -1 when the bytes were refused. */
int	replica_io_recv(struct raft_io *io, raft_id from,
	    const char *from_address, const uint8_t *buf, size_t len);

#endif
