/* dirmode.c: the modes of the state directories. See dirmode.h. */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/common/dirmode.h"

int
dirmode_limit(const char *path, mode_t most, char *err, size_t errlen)
{
	struct stat	st;
	mode_t		mode;

	if (stat(path, &st) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory", path);
		return (-1);
	}
	mode = st.st_mode & 07777;
	if ((mode & ~most) == 0)
		return (0);
	if (chmod(path, mode & most) == -1) {
		snprintf(err, errlen, "%s: cannot make it mode %04o (it is "
		    "%04o): %s", path, (unsigned)(mode & most), (unsigned)mode,
		    strerror(errno));
		return (-1);
	}
	return (0);
}
