/* fair-shares.h: gsim --shares FILE, the entitlement tree of the fairness
 * figures, read from a CSV with the header kind,name,parent,shares (in any
 * order; other columns are ignored). A row of kind "account" puts account
 * name under account parent (empty: under the root); a row of kind "user"
 * gives user name in account parent (empty: the root, where the jobs of no
 * account are) its shares among that account's children. shares is a whole number from 1. Rows may come in
 * any order: a parent may be named before its own row.
 *
 *   kind,name,parent,shares
 *   account,vision,,2
 *   account,speech,,1
 *   account,asr,speech,1
 *   user,alice,vision,3
 */
#ifndef GB_SIM_FAIR_SHARES_H
#define GB_SIM_FAIR_SHARES_H

#include <stddef.h>

#include "sim/fair-tree.h"

/* Adds path's accounts and users to tree (a new one, holding only its
 * root). Returns 0, or -1 with "FILE:LINE: what was wrong and what is
 * accepted" in err. */
int	fair_shares_load(const char *path, struct fair_tree *, char *err,
	    size_t errlen);

#endif
