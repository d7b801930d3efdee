/* unixsock.h: the Unix socket a daemon serves commands on (gbatchd's, and
 * gnoded's relay), made the same way by both. */
#ifndef GB_DAEMON_UNIXSOCK_H
#define GB_DAEMON_UNIXSOCK_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a daemon answers on the socket at path. */
bool	unixsock_answers(const char *path);
/* Binds a new non-blocking socket at path, mode 0666 (who connects is
 * told by the kernel, SO_PEERCRED, not by the file's mode). A socket file
 * nobody answers on, left by a crash, is replaced; one that answers
 * belongs to a running daemon (who, for the message) and is left be.
 * Returns the descriptor (not yet listening), or -1 with err set. */
int	unixsock_bind(const char *path, const char *who, char *err,
	    size_t errlen);

#endif
