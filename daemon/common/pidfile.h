/* pidfile.h: the -P pid file both daemons write. */
#ifndef GB_DAEMON_PIDFILE_H
#define GB_DAEMON_PIDFILE_H

#include <stddef.h>

/* Writes this process's id to path, whole (a new file renamed into place,
 * so a reader never sees it half written). Returns 0, or -1 with err. */
int	pidfile_write(const char *path, char *err, size_t errlen);

#endif
