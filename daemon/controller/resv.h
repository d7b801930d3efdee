/* resv.h: the controller's advance reservations, loaded from the store
 * at start and kept in step with it: every change is checked by
 * resv-tab.h's rules, written into the group transaction, then made in
 * the table, so what submits and passes see is what the database will
 * hold. The table is the core's (core_resv): the RESV requests change
 * it, submits read it, the core hands its windows to the scheduler and
 * deletes those that have ended (core-resv.c). */
#ifndef GB_CTL_RESV_H
#define GB_CTL_RESV_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/controller/resv-tab.h"

/* What a change returns besides 0: refused by the rules (err says why),
 * or the store failed (logged). */
#define RESV_REFUSED		(-1)
#define RESV_STORE_FAILED	(-2)

/* Reads the reservations into t, emptied first (after store_open).
 * Returns 0, or -1 after logging. */
int	resv_load(struct resv_tab *t);
/* Adds r (id 0: a new one, given the table's next id, into *id), or
 * replaces the reservation of its id, at now. */
int	resv_set(struct resv_tab *t, const struct resv *r, int64_t now,
	    uint64_t *id, char *err, size_t errlen);
/* Deletes the reservation of name (which must exist). */
int	resv_delete(struct resv_tab *t, const char *name);
/* Deletes the reservations that ended by now, logging each. Returns how
 * many went (a store failure is logged and leaves one for later). */
size_t	resv_expire(struct resv_tab *t, int64_t now);

#endif
