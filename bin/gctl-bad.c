/* gctl-bad.c: gctl's usage errors, in gctl and in gctl-ca alike. */
#include <stdio.h>

#include "bin/gctl.h"
#include "common/proto.h"

int
gctl_bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "gctl: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'gctl --help' for more information.\n");
	return (EXIT_USAGE);
}
