/* dirmode.h: the modes of the daemons' state directories. gbatchd's holds
 * the job database and the audit log, gnoded's the job records; neither
 * may be listed or written by other users. Both are 0711 rather than 0700:
 * a job runs its script from gnoded's state directory as its own user, and
 * by default that directory lies inside gbatchd's (/var/lib/gbatch/node),
 * so users must be able to pass through both, by name, without reading
 * them. What lies inside is private by its own mode (0600, 0700). */
#ifndef GB_DAEMON_DIRMODE_H
#define GB_DAEMON_DIRMODE_H

#include <sys/types.h>

#include <stddef.h>

/* The state directories' mode. */
#define DIRMODE_STATE	0711

/* Clears the permission bits of directory path that most lacks: 0755
 * becomes 0711 for most 0711, 0700 stays 0700. A directory made by an
 * admin, a package or systemd's StateDirectory= (0755) is tightened at
 * each start. Returns 0, or -1 with err naming the directory. */
int	dirmode_limit(const char *path, mode_t most, char *err, size_t errlen);

#endif
