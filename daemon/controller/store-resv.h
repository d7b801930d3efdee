/* store-resv.h: advance reservations (schema 23), as resv-tab.h keeps
 * them in memory: reading them at start and writing each change, into
 * the group transaction as every other write (store.h). Each returns 0,
 * or -1 after logging what failed. */
#ifndef GB_CTL_STORE_RESV_H
#define GB_CTL_STORE_RESV_H

#include "daemon/controller/resv-tab.h"

/* Reads every reservation into t (emptied by the caller), and the id
 * the next one takes (ids are never reused, deleted ones' neither). */
int	store_resv_load(struct resv_tab *t);
/* Writes r (its row of its id, new or not). */
int	store_resv_save(const struct resv *r);
/* Deletes the reservation of id. */
int	store_resv_delete(uint64_t id);

#endif
