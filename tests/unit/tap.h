/* tap.h: a minimal TAP producer for the C unit tests. Each test file
 * includes it once, calls the checks, and returns tap_done() from main(). */
#ifndef GB_TAP_H
#define GB_TAP_H

#include <stdio.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) do {					\
	long long tap_g = (long long)(got), tap_w = (long long)(want);	\
	if (!ok(tap_g == tap_w, __VA_ARGS__))				\
		printf("#   got %lld, want %lld\n", tap_g, tap_w);	\
} while (0)
#define is_str(got, want, ...) do {					\
	const char *tap_gs = (got), *tap_ws = (want);			\
	if (!ok(tap_gs != NULL && strcmp(tap_gs, tap_ws) == 0, __VA_ARGS__)) \
		printf("#   got \"%s\", want \"%s\"\n",			\
		    tap_gs ? tap_gs : "(null)", tap_ws);		\
} while (0)

static int __attribute__((format(printf, 4, 5), unused))
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list	ap;

	tap_n++;
	printf("%s %d - ", pass ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("#   at %s:%d\n", file, line);
	}
	return (pass);
}

/* A deterministic generator (xorshift32) for the randomized tests, so a
 * failure reproduces run after run. */
static uint32_t tap_seed = 2463534242U;

static uint32_t __attribute__((unused))
tap_rand(void)
{
	tap_seed ^= tap_seed << 13;
	tap_seed ^= tap_seed >> 17;
	tap_seed ^= tap_seed << 5;
	return (tap_seed);
}

static int __attribute__((unused))
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return (tap_failed == 0 ? 0 : 1);
}

#endif
