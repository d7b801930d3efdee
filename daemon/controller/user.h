/* user.h: user names for uids, cached: thousands of short-lived gsub
 * connections a second would otherwise each read the password database. */
#ifndef GB_CTL_USER_H
#define GB_CTL_USER_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

/* Writes the name of uid into buf (its decimal form when it has none). */
void	user_name(uid_t uid, char *buf, size_t len);
/* Whether the account database has a user called name. */
bool	user_known(const char *name);

#endif
