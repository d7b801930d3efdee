/* fuzz-jdecode.c: common/jdecode.c, the decoder of every frame, against
 * jansson's own on any text. Both must take the same texts, and decode
 * each to equal values: jdecode accepts what json_loadb(JSON_DECODE_ANY |
 * JSON_REJECT_DUPLICATES) accepts, no more and no less, but for one quirk
 * of jansson's: a NUL byte it reads just after a number or a literal and
 * puts back is lost, so it takes "1\0" and "[true\0]". jdecode refuses
 * every NUL byte; a text with one may be refused by jdecode alone, never
 * taken by it alone. A refusal must say why and where. The text is also
 * tried cut short, as a stream would end it. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/jdecode.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_JDECODE_MAX	65536

static void
fuzz_jdecode_one(const char *text, size_t len)
{
	json_error_t	 e;
	json_t		*want, *got;
	char		 err[256];

	want = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES,
	    &e);
	err[0] = '\0';
	got = jdecode(text, len, err, sizeof err);
	if (want == NULL && got != NULL)
		abort();
	if (want != NULL && got == NULL && memchr(text, '\0', len) == NULL)
		abort();
	if (got == NULL && (err[0] == '\0' || strstr(err, " at byte ") ==
	    NULL))
		abort();
	if (got != NULL && (err[0] != '\0' || !json_equal(want, got)))
		abort();
	json_decref(want);
	json_decref(got);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_JDECODE_MAX)
		return (0);
	fuzz_jdecode_one((const char *)data, size);
	if (size > 1)
		fuzz_jdecode_one((const char *)data, size / 2);
	return (0);
}
