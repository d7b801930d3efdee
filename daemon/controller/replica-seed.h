/* replica-seed.h: turning a controller's own store into the first state of
 * a replica set (gbatchd --seed), offline, before any replica starts. */
#ifndef GB_CTL_REPLICA_SEED_H
#define GB_CTL_REPLICA_SEED_H

#include <stddef.h>

struct conf;

/* Writes c->state_dir/raft.db from c->state_dir/gbatch.db: a snapshot of
 * the store with the configuration of c->replicas, under a random history
 * name (raft_disk_seed); keeps the store as gbatch.db.before-replicas.
 * Refused while a gbatchd answers on c->socket, without controller.replicas,
 * without a gbatch.db, or with a raft.db or raft log already there.
 * Returns 0 with what was done and what to do next in msg, or -1 with err
 * saying why and nothing changed. */
int	replica_seed(const struct conf *c, char *msg, size_t msglen, char *err,
	    size_t errlen);

#endif
