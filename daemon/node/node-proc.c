/* node-proc.c: /proc start times, pidfds, descriptor cleanup. */
#include <sys/syscall.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/node/node-proc.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open		434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal	424
#endif
#ifndef SYS_close_range
#define SYS_close_range		436
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC	(1U << 2)
#endif

/* Reads /proc/PID/stat. The command name (field 2) may hold spaces and
 * parentheses, so fields are counted from the last ')'. Returns the state
 * letter, or 0 when the process is gone. */
static char
node_proc_stat(pid_t pid, uint64_t *ticks)
{
	char	 path[64], buf[1024], *p, *end, state;
	ssize_t	 n;
	int	 fd, field;

	if (pid <= 0)
		return (0);
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (0);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (0);
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return (0);
	p += 2;
	state = *p;
	/* p is at field 3 (state); the start time is field 22. */
	for (field = 3; field < 22; field++) {
		if ((p = strchr(p, ' ')) == NULL)
			return (0);
		p++;
	}
	*ticks = strtoull(p, &end, 10);
	if (end == p)
		return (0);
	return (state);
}

uint64_t
node_proc_start_ticks(pid_t pid)
{
	uint64_t	ticks = 0;

	if (node_proc_stat(pid, &ticks) == 0)
		return (0);
	return (ticks);
}

bool
node_proc_matches(pid_t pid, uint64_t ticks)
{
	uint64_t	now = 0;
	char		state;

	state = node_proc_stat(pid, &now);
	return (state != 0 && state != 'Z' && state != 'X' && now == ticks);
}

int
node_proc_pidfd_open(pid_t pid)
{
	return ((int)syscall(SYS_pidfd_open, pid, 0));
}

int
node_proc_queue(int pidfd, pid_t pid, int sig, int val)
{
	siginfo_t	info;
	union sigval	sv;

	sv.sival_int = val;
	if (pidfd != -1) {
		memset(&info, 0, sizeof info);
		info.si_signo = sig;
		info.si_code = SI_QUEUE;
		info.si_pid = getpid();
		info.si_uid = getuid();
		info.si_value = sv;
		if (syscall(SYS_pidfd_send_signal, pidfd, sig, &info, 0) == 0)
			return (0);
		if (errno != ENOSYS)
			return (-1);
	}
	return (sigqueue(pid, sig, sv));
}

int
node_proc_signal(int pidfd, pid_t pid, int sig)
{
	if (pidfd != -1) {
		if (syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0) == 0)
			return (0);
		if (errno != ENOSYS)
			return (-1);
	}
	return (kill(pid, sig));
}

void
node_proc_close_from(int lowfd)
{
	DIR		*d;
	struct dirent	*de;
	long		 fd, max;
	int		 dfd;

	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, 0) == 0)
		return;
	/* Before Linux 5.9: walk /proc/self/fd, else every possible fd. */
	if ((d = opendir("/proc/self/fd")) != NULL) {
		dfd = dirfd(d);
		while ((de = readdir(d)) != NULL) {
			fd = strtol(de->d_name, NULL, 10);
			if (fd >= lowfd && fd != dfd && de->d_name[0] != '.')
				close((int)fd);
		}
		closedir(d);
		return;
	}
	if ((max = sysconf(_SC_OPEN_MAX)) < 0 || max > 65536)
		max = 65536;
	for (fd = lowfd; fd < max; fd++)
		close((int)fd);
}

int
node_proc_cloexec_from(int lowfd)
{
	DIR		*d;
	struct dirent	*de;
	long		 fd;
	int		 dfd, flags, rc = 0;

	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U,
	    CLOSE_RANGE_CLOEXEC) == 0)
		return (0);
	/* Before Linux 5.11: mark each one /proc/self/fd lists. */
	if ((d = opendir("/proc/self/fd")) == NULL)
		return (-1);
	dfd = dirfd(d);
	while ((de = readdir(d)) != NULL) {
		fd = strtol(de->d_name, NULL, 10);
		if (fd < lowfd || fd == dfd || de->d_name[0] == '.')
			continue;
		if ((flags = fcntl((int)fd, F_GETFD)) == -1 ||
		    fcntl((int)fd, F_SETFD, flags | FD_CLOEXEC) == -1)
			rc = -1;
	}
	closedir(d);
	return (rc);
}
