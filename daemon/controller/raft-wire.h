/* raft-wire.h: C-raft's messages as bytes, for replicated controllers
 * exchanging them over their TLS connections, and a configuration on its
 * own (a snapshot's, kept on disk). A pure codec: no I/O, no clock.
 *
 * The format (ours; RAFT_WIRE_VERSION says which):
 *
 *   message   version:u8 type:u8 body            (type is RAFT_IO_*)
 *   conf      version:u8 n:u64 server*n
 *   server    id:u64 role:u8 address:bytes       (1 to 255 bytes, no NUL)
 *   bytes     len:u64 then len bytes
 *   entry     term:u64 type:u8 data:bytes        (RAFT_COMMAND, _BARRIER,
 *                                                 _CHANGE)
 *
 *   APPEND_ENTRIES         term prev_log_index prev_log_term leader_commit
 *                          n:u64 entry*n
 *   APPEND_ENTRIES_RESULT  term rejected last_log_index
 *   REQUEST_VOTE           term candidate_id last_log_index last_log_term
 *                          disrupt_leader:u8 pre_vote:u8
 *   REQUEST_VOTE_RESULT    term vote_granted:u8 pre_vote:u8 (raft_tribool)
 *   INSTALL_SNAPSHOT       term last_index last_term conf_index
 *                          n:u64 server*n data:bytes
 *   TIMEOUT_NOW            term last_log_index last_log_term
 *
 * Fields without a size are u64. Integers are little-endian; a u8 that
 * holds a bool is 0 or 1. Nothing may follow the last field. The sender's
 * id and address are not sent: the receiver knows them from the
 * authenticated connection. A later C-raft's fields (each message's
 * version, append_entries_result's features) would come with a new
 * RAFT_WIRE_VERSION. */
#ifndef GB_CTL_RAFT_WIRE_H
#define GB_CTL_RAFT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <raft.h>

#define RAFT_WIRE_VERSION	1
/* Most servers in a configuration, longest address (without its NUL). */
#define RAFT_WIRE_MAX_SERVERS	64
#define RAFT_WIRE_MAX_ADDRESS	255
/* The fewest bytes an entry takes (term, type, data length): an entry
 * count is refused when the bytes left could not hold that many, so a
 * peer cannot make us allocate more than it sent. */
#define RAFT_WIRE_ENTRY_MIN	17

/* Encodes m, any RAFT_IO_* type, leaving out m->server_id and
 * m->server_address (on send they name the destination). Returns a buffer
 * the caller frees with free() and sets *len, or NULL when m is outside
 * the format: an unknown message or entry type, a configuration of more
 * than RAFT_WIRE_MAX_SERVERS or with an address that is empty, longer
 * than RAFT_WIRE_MAX_ADDRESS or NULL, a server id of 0, or an unknown
 * role. */
uint8_t	*raft_wire_encode(const struct raft_message *m, size_t *len);

/* Decodes the len bytes at buf, a peer's, into *m, with m->server_id set
 * to from (nonzero) and m->server_address to from_address (not copied).
 * C-raft copies the address it keeps (its current leader) and uses it
 * otherwise only to address replies through raft_io's send while recv_cb
 * runs, so from_address must be a NUL-terminated string that lives until
 * recv_cb returns; send must not keep the pointer.
 *
 * What the message owns is allocated as C-raft's receive path frees it:
 * append_entries' entries array with raft_malloc (NULL when there are
 * none), and the data of all its entries in one raft_malloc'd batch that
 * every entry's batch points to (C-raft frees entries[0].batch or each
 * distinct batch, then the array); install_snapshot's conf with
 * raft_configuration_add (raft_configuration_close frees it) and its data
 * with raft_malloc (raft_free). Handing m to recv_cb hands all of it to
 * C-raft; otherwise raft_wire_free releases it.
 *
 * Returns 0, or -1 with err saying what was wrong (truncated, a version,
 * type, count or length out of range, bytes left over) and *m zeroed,
 * nothing allocated. Aborts only when memory runs out. */
int	 raft_wire_decode(const uint8_t *buf, size_t len, raft_id from,
	     const char *from_address, struct raft_message *m, char *err,
	     size_t errlen);

/* Frees what a successful raft_wire_decode allocated in m, for a message
 * that is not handed to C-raft, and zeroes it. */
void	 raft_wire_free(struct raft_message *m);

/* Encodes a configuration on its own. Returns a buffer the caller frees
 * with free() and sets *len, or NULL when c is outside the format (as for
 * raft_wire_encode). */
uint8_t	*raft_wire_conf_encode(const struct raft_configuration *c,
	     size_t *len);

/* Decodes len bytes into *c, which it initialises and fills with
 * raft_configuration_add: the caller releases it with
 * raft_configuration_close. Returns 0, or -1 with err set and *c empty
 * (nothing allocated): truncated, too many servers, an id of 0, an
 * unknown role, an address empty, too long or holding a NUL, a duplicate
 * id or address, bytes left over. */
int	 raft_wire_conf_decode(const uint8_t *buf, size_t len,
	     struct raft_configuration *c, char *err, size_t errlen);

#endif
