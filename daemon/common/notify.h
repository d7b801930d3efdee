/* notify.h: tells the service manager how the daemon stands, through the
 * readiness protocol of sd_notify(3): one datagram of NAME=VALUE lines to
 * the AF_UNIX socket named by $NOTIFY_SOCKET. systemd documents the protocol
 * as stable and meant to be reimplemented, so the daemons speak it
 * themselves and support Type=notify without linking libsystemd. Outside
 * systemd (no $NOTIFY_SOCKET) every call does nothing. */
#ifndef GB_DAEMON_NOTIFY_H
#define GB_DAEMON_NOTIFY_H

#include <stddef.h>

enum notify_state {
	NOTIFY_STATUS = 0,	/* only the status line */
	NOTIFY_READY,		/* start-up or a reload is done */
	NOTIFY_RELOADING,	/* a reload begins; READY follows */
	NOTIFY_STOPPING,	/* a clean stop begins */
};

/* Reads $NOTIFY_SOCKET and removes it from the environment, so that the
 * processes the daemon starts do not inherit it. A path must be absolute;
 * a name starting with '@' is in the abstract namespace. Returns 0 (also
 * when the variable is unset: later calls then do nothing), or -1 with err
 * when the value is not a socket name this module can use. */
int	notify_open(char *err, size_t errlen);

/* Sends state and, when fmt is not NULL, a STATUS= line that `systemctl
 * status` shows (newlines in it become spaces). Does not block: the
 * socket is non-blocking and a full queue loses the message. Returns 0, or
 * -1 with errno when the datagram could not be sent. */
int	notify_send(enum notify_state state, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Closes the socket; later calls do nothing. */
void	notify_close(void);

#endif
