/* gen-util.h (bench): what the trace generators (gen-trace.c,
 * gen-fair-trace.c) share: a seeded generator of uniform doubles, so the
 * same arguments give the same trace byte for byte, and a checked whole
 * number argument. */
#ifndef GB_BENCH_GEN_UTIL_H
#define GB_BENCH_GEN_UTIL_H

#include <stdint.h>

/* The generators' fixed start; a SEED argument is added to it. */
#define GEN_UTIL_STATE	0x2545f4914f6cdd1dULL

/* xorshift64*: the next uniform double in (0, 1) from *state. */
double	gen_util_uniform(uint64_t *state);
/* s as a whole number from lo to hi; else prints "PROG: WHAT: expected
 * LO-HI, got S" and exits 2. */
long	gen_util_arg(const char *prog, const char *s, const char *what,
	    long lo, long hi);

#endif
