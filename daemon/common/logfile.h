/* logfile.h: a daemon's -L log file, put on standard error (where
 * common/log.c writes and where the processes it starts inherit it) and
 * reopened by name on SIGHUP, so that logrotate can move it away. */
#ifndef GB_DAEMON_LOGFILE_H
#define GB_DAEMON_LOGFILE_H

/* Opens path for appending (created mode 0640) and makes it standard
 * error, line-buffered. Returns 0, or -1 with errno; standard error is
 * unchanged on failure. */
int	logfile_open(const char *path);

#endif
