/* base64-test.c: common/base64.c against RFC 4648's test vectors, every
 * byte value through a round trip, and the texts it must refuse. */
#include <stdint.h>
#include <string.h>

#include "common/base64.h"
#include "tests/unit/tap.h"

/* Encodes s and compares with want; decodes want back to s. */
static int
t_vector(const char *s, const char *want)
{
	char	out[64];
	uint8_t	back[64];
	size_t	n = strlen(s);
	long	m;

	if (base64_encode((const uint8_t *)s, n, out) != strlen(want) ||
	    strcmp(out, want) != 0)
		return (0);
	m = base64_decode(want, strlen(want), back);
	return (m == (long)n && memcmp(back, s, n) == 0);
}

static int
t_bad(const char *text)
{
	uint8_t	out[64];

	return (base64_decode(text, strlen(text), out) == -1);
}

int
main(void)
{
	uint8_t	all[256], back[256];
	char	text[BASE64_LEN(256) + 1];
	size_t	i, len;

	/* RFC 4648, section 10. */
	ok(t_vector("", ""), "empty");
	ok(t_vector("f", "Zg=="), "f");
	ok(t_vector("fo", "Zm8="), "fo");
	ok(t_vector("foo", "Zm9v"), "foo");
	ok(t_vector("foob", "Zm9vYg=="), "foob");
	ok(t_vector("fooba", "Zm9vYmE="), "fooba");
	ok(t_vector("foobar", "Zm9vYmFy"), "foobar");

	for (i = 0; i < 256; i++)
		all[i] = (uint8_t)(255 - i);
	len = base64_encode(all, sizeof all, text);
	is_int((long)len, BASE64_LEN(256), "256 bytes: BASE64_LEN long");
	is_int((long)strlen(text), (long)len, "and NUL-terminated");
	is_int(base64_decode(text, len, back), 256, "decoded back whole");
	ok(memcmp(all, back, sizeof all) == 0, "every byte value survives");

	ok(t_bad("Zg="), "a length not a multiple of 4");
	ok(t_bad("Zg=a"), "padding before a character");
	ok(t_bad("Z==="), "three padding characters");
	ok(t_bad("Zg==Zg=="), "padding in the middle");
	ok(t_bad("Zm9v\n"), "a newline");
	ok(t_bad("Zm-v"), "a character of another alphabet");
	ok(base64_valid("Zm9vYg==", 8), "valid: padded");
	ok(base64_valid("", 0), "valid: empty");
	ok(!base64_valid("Zm9\"Yg==", 8), "not valid: a quote");
	ok(!base64_valid("Zm9v\\g==", 8), "not valid: a backslash");
	ok(!base64_valid("Zg=a", 4), "not valid: padding inside");
	ok(!base64_valid("Zm9", 3), "not valid: a length not a multiple of 4");
	return (tap_done());
}
