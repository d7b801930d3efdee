/* assoc.h: the controller's accounts and users, loaded from the store at
 * start and kept in step with it: every change is checked by
 * assoc-tab.h's rules, written into the group transaction, then made in
 * the table, so what submits see is what the database will hold. The
 * table is the core's (core_assoc): the ASSOC requests change it,
 * submits read it, and the core holds jobs to its limits. */
#ifndef GB_CTL_ASSOC_H
#define GB_CTL_ASSOC_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/controller/assoc-tab.h"

/* What a change returns besides 0: refused by the rules (err says why),
 * or the store failed (logged). */
#define ASSOC_REFUSED		(-1)
#define ASSOC_STORE_FAILED	(-2)

/* Reads the tables into t, emptied first (after store_open). Returns 0,
 * or -1 after logging. */
int	assoc_load(struct assoc_tab *t);

/* Loads into u (new, for now's month) the GPU-seconds of the month's
 * runs that ended, from the store, and the runs under way, from the job
 * table: after recover_load. Returns 0, or -1 after logging. */
struct assoc_usage;
int	assoc_load_usage(struct assoc_usage *u, int64_t now);

/* Adds a, or replaces the account of its name. */
int	assoc_account_set(struct assoc_tab *t, const struct assoc_account *a,
	    char *err, size_t errlen);
int	assoc_account_delete(struct assoc_tab *t, const char *name, char *err,
	    size_t errlen);
/* Adds u, or replaces its association (assoc_tab_user_put's default
 * rules); the user's other associations are written again, as their
 * default may have moved. */
int	assoc_user_set(struct assoc_tab *t, const struct assoc_user *u,
	    char *err, size_t errlen);
/* Deletes user's association with account (NULL: all of them); *n: how
 * many went (0: none was, refused with err). */
int	assoc_user_delete(struct assoc_tab *t, const char *user,
	    const char *account, size_t *n, char *err, size_t errlen);

#endif
