/* raft-disk.h: what C-raft keeps on disk for one controller: its term,
 * its vote and its newest snapshot in an SQLite file of its own
 * (state_dir/raft.db), its log in raft-segs.c's files beside it
 * (state_dir/raft.db-log/). It is the storage half of our struct raft_io:
 * each call below is durable (WAL, synchronous = FULL; the log's files
 * synced) before it returns, so the raft_io around it may fire raft's
 * callback from the loop at once. Nothing here knows libevent or the
 * network.
 *
 * The calls return 0 or one of C-raft's codes (RAFT_IOERR, RAFT_CORRUPT,
 * RAFT_NOMEM, RAFT_NOSPACE, RAFT_CANTBOOTSTRAP, RAFT_INVALID, RAFT_TOOBIG),
 * as raft_io's methods must, and leave the detail in raft_disk_errmsg().
 * All of them block on the disk. */
#ifndef GB_CTL_RAFT_DISK_H
#define GB_CTL_RAFT_DISK_H

#include <stddef.h>

#include <raft.h>

struct raft_disk;

/* Opens the store at path, creating it (mode 0600) and its schema if the
 * file is new or empty, and its log at path-log. Returns NULL with err
 * saying why: a file that is not SQLite, an SQLite file of someone
 * else's, one of a newer schema, a new file beside an old log, or a log
 * that fails its checks is refused, never changed. A store that kept its
 * entries as rows (before raft-segs.c) has them moved into the log. */
struct raft_disk *raft_disk_open(const char *path, char *err, size_t errlen);
/* raft_disk_close(NULL) does nothing. */
void		  raft_disk_close(struct raft_disk *);
/* The last call's message: borrowed until the next call on d. */
const char	 *raft_disk_errmsg(const struct raft_disk *);

/* What raft_io.load returns, allocated as C-raft owns and frees it: the
 * snapshot (NULL if none) with raft_malloc, its configuration built with
 * raft_configuration_add and one buffer in bufs; the entries (NULL if
 * none) in one raft_malloc'd array whose data share one raft_malloc'd
 * batch (each entry's batch field). start_index is the first entry's
 * index: 1 with no snapshot, at most the snapshot's index + 1 with one.
 * RAFT_CORRUPT if the stored state breaks what raft_start asserts. */
int	raft_disk_load(struct raft_disk *, raft_term *term, raft_id *voted_for,
	    struct raft_snapshot **snapshot, raft_index *start_index,
	    struct raft_entry **entries, size_t *n_entries);

/* Writes term 1 and entry 1 (term 1, RAFT_CHANGE, the configuration as
 * raft_configuration_encode writes it). RAFT_CANTBOOTSTRAP if the store
 * holds any term, entry or snapshot already. */
int	raft_disk_bootstrap(struct raft_disk *,
	    const struct raft_configuration *);
/* Seeds an empty store with a controller's own store (image, len bytes:
 * store_image's): a snapshot of it at index 1, term 1, with configuration
 * conf, term 1, and history as the name of the history the log goes on
 * from. Every replica seeded from the same image starts where the others
 * do. RAFT_CANTBOOTSTRAP if the store holds a term or a snapshot already
 * (entries of term 0, a bootstrap a crash cut short, are written over). */
int	raft_disk_seed(struct raft_disk *, const struct raft_configuration *,
	    const void *image, size_t len, const char *history);
/* The name of the history this store's log belongs to ("" for a set
 * that started empty), into buf; and setting it (a replica that joins
 * empty takes its set's). */
int	raft_disk_history(struct raft_disk *, char *buf, size_t len);
int	raft_disk_set_history(struct raft_disk *, const char *history);
/* Sets the term and forgets the vote, as C-raft's own stores do: a vote
 * belongs to the term it was cast in. */
int	raft_disk_set_term(struct raft_disk *, raft_term);
int	raft_disk_set_vote(struct raft_disk *, raft_id);

/* Appends n entries (copied) at raft_disk_last_index() + 1. */
int	raft_disk_append(struct raft_disk *, const struct raft_entry *entries,
	    unsigned n);
/* Appends nb batches of entries one after the other in one transaction,
 * so with one sync: all of them, or on failure none. */
struct raft_disk_batch {
	const struct raft_entry	*entries;
	unsigned		 n;
};
int	raft_disk_append_batches(struct raft_disk *,
	    const struct raft_disk_batch *, unsigned nb);
/* Drops the entry at index and all after it; the next append goes at
 * index. An index past the last entry drops nothing. */
int	raft_disk_truncate(struct raft_disk *, raft_index index);

/* Keeps snapshot (copied; its bufs are written one after the other as
 * one blob) in place of the one before, then compacts the log as
 * raft_io.snapshot_put says: trailing > 0 (a snapshot this server took)
 * drops the entries up to snapshot->index - trailing and keeps the rest,
 * those after the snapshot too, and the next append index is unchanged;
 * trailing 0 (a snapshot installed from the leader) drops the whole log
 * and the next append goes at snapshot->index + 1. */
int	raft_disk_snapshot_put(struct raft_disk *, unsigned trailing,
	    const struct raft_snapshot *);
/* The newest snapshot, allocated as raft_disk_load's (C-raft frees it
 * with its configuration, bufs[0].base, bufs, then itself). RAFT_NOTFOUND
 * if there is none. */
int	raft_disk_snapshot_get(struct raft_disk *, struct raft_snapshot **);

/* The index of the last entry, or of the snapshot when the log after it
 * is empty (0 for an empty store): the next append goes after it. */
raft_index	raft_disk_last_index(const struct raft_disk *);

#endif
