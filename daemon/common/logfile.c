/* logfile.c: the -L log file of both daemons. See logfile.h. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "daemon/common/logfile.h"

int
logfile_open(const char *path)
{
	int	fd;

	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
	    0640)) == -1)
		return (-1);
	fflush(stderr);
	if (fd != STDERR_FILENO) {
		/* dup2 clears close-on-exec on the copy: what is started
		 * later logs to the same file. */
		if (dup2(fd, STDERR_FILENO) == -1) {
			close(fd);
			return (-1);
		}
		close(fd);
	}
	setvbuf(stderr, NULL, _IOLBF, 0);
	return (0);
}
