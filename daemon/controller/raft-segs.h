/* raft-segs.h: C-raft's log entries in append-only segment files of their
 * own (state_dir/raft.db-log/), the log half of raft-disk.c.
 *
 * Why not rows of raft.db: every replica syncs every append, and on a
 * shared disk those syncs queue behind each other. An SQLite commit
 * writes whole 4 KiB pages, a frame header and, now and then, a
 * checkpoint; a record here is its own bytes, written into space
 * allocated beforehand, so a sync flushes only them. Three replicas
 * appending at once on one virtual disk: SQLite 340 us a sync (median),
 * these files 210 us.
 *
 * A segment is a 16-byte header then records, each a 32-byte header (a
 * CRC-32C of the rest, the data's length, index, term, type) and its data
 * padded to 8 bytes. The space after the last record reads as zeros. A
 * record that fails its check ends the log where it is the last
 * segment's (a write torn by a crash, never acknowledged: it is cleared),
 * and is RAFT_CORRUPT anywhere else.
 *
 * The log holds the entries from `start` on, contiguous; records before
 * start (left by a compaction or an installed snapshot) are skipped and
 * their segments removed once nothing after start is in them. Like
 * raft-disk.c it blocks on the disk and returns C-raft's codes, with the
 * detail in raft_segs_errmsg(); one thread at a time may use it. */
#ifndef GB_CTL_RAFT_SEGS_H
#define GB_CTL_RAFT_SEGS_H

#include <stddef.h>

#include <raft.h>

/* The size a segment is allocated with (one larger record gets a segment
 * of its own size). */
#define RAFT_SEGS_SIZE	(8u << 20)

struct raft_segs;

/* Opens the log in dir (made, mode 0700, if absent) holding the entries
 * from start on, reading every segment to find where it ends; a torn
 * last record is cleared here. NULL with err saying why: a segment that
 * is not ours or fails its checks, or entries that skip an index. */
struct raft_segs	*raft_segs_open(const char *dir, raft_index start, char *err,
		    size_t errlen);
/* raft_segs_close(NULL) does nothing. */
void		 raft_segs_close(struct raft_segs *);
/* The last call's message: borrowed until the next call. */
const char	*raft_segs_errmsg(const struct raft_segs *);

/* The last entry's index; 0 when the log holds none from start on. */
raft_index	 raft_segs_last(const struct raft_segs *);

/* The entries from start on, allocated as C-raft's raft_io.load returns
 * them: one raft_malloc'd array whose data share one raft_malloc'd batch.
 * *entries is NULL when there are none. */
int	raft_segs_load(struct raft_segs *, struct raft_entry **entries,
	    size_t *n);
/* Writes n entries (copied) at index, which must be raft_segs_last() + 1,
 * or start when the log is empty. Not durable until raft_segs_sync(). */
int	raft_segs_append(struct raft_segs *, raft_index index,
	    const struct raft_entry *entries, unsigned n);
/* Makes every append so far durable. */
int	raft_segs_sync(struct raft_segs *);
/* Drops the entry at index and all after it, durably. An index past the
 * last drops nothing; one at or before start drops every entry. */
int	raft_segs_truncate(struct raft_segs *, raft_index index);
/* The log now starts at start (not before the old one, at most last + 1):
 * segments holding nothing from there on are removed. */
int	raft_segs_forget(struct raft_segs *, raft_index start);
/* Drops every entry, durably; the log starts again at start. */
int	raft_segs_reset(struct raft_segs *, raft_index start);

#endif
