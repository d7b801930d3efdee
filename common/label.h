/* label.h: the names that label things in gbatch and that scripts match on
 * or terminals show: node and switch names, the cluster's name, accounts.
 * One rule for all, so each is checked the same way wherever it enters. */
#ifndef GB_LABEL_H
#define GB_LABEL_H

#include <stdbool.h>

#define LABEL_MAX	64

/* Whether s is 1 to LABEL_MAX letters, digits, '.', '-' or '_'. */
bool	label_ok(const char *s);
/* Whether s is labels joined by ',' ("gpu,long"): none empty. */
bool	label_list_ok(const char *s);

#endif
