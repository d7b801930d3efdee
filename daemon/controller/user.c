/* user.c: a small uid -> name cache. Entries expire so a renamed account is
 * seen within a minute. */
#include <sys/types.h>

#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/controller/user.h"

#define USER_CACHE	64
#define USER_TTL	60

struct user_entry {
	uid_t	uid;
	time_t	when;		/* 0: free slot */
	char	name[64];
};

/* The names looked up lately. Global: a cache of the system's user
 * database, which is the process's, asked from every request. */
static struct user_entry	user_cache[USER_CACHE];

void
user_name(uid_t uid, char *buf, size_t len)
{
	struct user_entry	*e = &user_cache[uid % USER_CACHE];
	struct passwd		 pw, *res = NULL;
	char			 pwbuf[4096];
	time_t			 now = time(NULL);

	if (e->when != 0 && e->uid == uid && now - e->when < USER_TTL) {
		snprintf(buf, len, "%s", e->name);
		return;
	}
	if (getpwuid_r(uid, &pw, pwbuf, sizeof pwbuf, &res) == 0 &&
	    res != NULL && strlen(pw.pw_name) < sizeof e->name)
		snprintf(e->name, sizeof e->name, "%s", pw.pw_name);
	else
		snprintf(e->name, sizeof e->name, "%lu", (unsigned long)uid);
	e->uid = uid;
	e->when = now;
	snprintf(buf, len, "%s", e->name);
}

bool
user_known(const char *name)
{
	struct passwd	 pw, *res = NULL;
	char		 pwbuf[4096];

	return (getpwnam_r(name, &pw, pwbuf, sizeof pwbuf, &res) == 0 &&
	    res != NULL);
}
