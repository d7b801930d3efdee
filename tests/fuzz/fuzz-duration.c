/* fuzz-duration.c: the time limit parser (common/duration.c) on any text,
 * as gsub --time and #GSUB --time pass it. An accepted limit is at most
 * 365 days, was written with digits, ':' and '-' only (or is UNLIMITED or
 * INFINITE), and prints as a limit that reads back to the same seconds; a
 * refused one says why. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/duration.h"
#include "common/xmalloc.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_DURATION_MAX	(365ULL * 86400)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t	 secs, again;
	char		*s, err[256], buf[64];
	int		 r;

	s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';

	err[0] = '\0';
	secs = UINT64_MAX;
	r = duration_parse(s, FUZZ_DURATION_MAX, &secs, err, sizeof err);
	if (r == -1) {
		if (err[0] == '\0')
			abort();
		goto out;
	}
	if (r != 0 || secs > FUZZ_DURATION_MAX)
		abort();
	if (strcasecmp(s, "unlimited") == 0 || strcasecmp(s, "infinite") == 0) {
		if (secs != 0)
			abort();
		goto out;
	}
	if (*s == '\0' || s[strspn(s, "0123456789:-")] != '\0')
		abort();
	duration_format(secs, buf, sizeof buf);
	if (duration_parse(buf, FUZZ_DURATION_MAX, &again, err,
	    sizeof err) != 0 || again != secs)
		abort();
out:
	free(s);
	return (0);
}
