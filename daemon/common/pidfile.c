/* pidfile.c: writing a daemon's pid file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "daemon/common/pidfile.h"

int
pidfile_write(const char *path, char *err, size_t errlen)
{
	FILE	*f;
	char	*tmp;
	int	 e;

	tmp = xasprintf("%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "pid file %s: %s", path,
		    strerror(errno));
		free(tmp);
		return (-1);
	}
	fprintf(f, "%ld\n", (long)getpid());
	if (fclose(f) == EOF || rename(tmp, path) != 0) {
		e = errno;
		snprintf(err, errlen, "pid file %s: %s", path, strerror(e));
		unlink(tmp);
		free(tmp);
		return (-1);
	}
	free(tmp);
	return (0);
}
