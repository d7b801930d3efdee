/* gen-util.c (bench): see gen-util.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/gen-util.h"

double
gen_util_uniform(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return (((*state * 0x2545f4914f6cdd1dULL) >> 11) + 0.5) /
	    9007199254740992.0;
}

long
gen_util_arg(const char *prog, const char *s, const char *what, long lo,
    long hi)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) {
		fprintf(stderr, "%s: %s: expected %ld-%ld, got \"%s\"\n", prog,
		    what, lo, hi, s);
		exit(2);
	}
	return (v);
}
