/* fuzz-jpretty.c: client/jpretty.c, which re-indents gbatchd's JSON for
 * gq --json, on any text. Whatever the input, jpretty neither crashes nor
 * writes past its buffer; when it takes the input, what it wrote is JSON
 * holding the same value (jansson decodes both and finds them equal), and
 * holds no byte that could steer a terminal: no control but the newlines
 * of its indentation, no DEL, no C1 control. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client/jpretty.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_JPRETTY_MAX	65536

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jpretty	 p;
	json_error_t	 e;
	json_t		*in, *out;
	char		*text = NULL;
	size_t		 len = 0, i;
	FILE		*f;
	int		 rc;

	if (size > FUZZ_JPRETTY_MAX || (f = open_memstream(&text, &len)) ==
	    NULL)
		return (0);
	jpretty_init(&p, f);
	rc = jpretty_value(&p, (const char *)data, size, 2, 0);
	jpretty_end(&p);
	fclose(f);
	if (rc == 0) {
		for (i = 0; i < len; i++) {
			if (((unsigned char)text[i] < 0x20 && text[i] != '\n') ||
			    (unsigned char)text[i] == 0x7f ||
			    ((unsigned char)text[i] == 0xc2 && i + 1 < len &&
			    (unsigned char)text[i + 1] >= 0x80 &&
			    (unsigned char)text[i + 1] < 0xa0))
				abort();
		}
		in = json_loadb((const char *)data, size, JSON_DECODE_ANY, &e);
		if (in != NULL) {
			/* Numbers are copied as they came, so the two
			 * decode to the very same value. */
			if ((out = json_loadb(text, len, JSON_DECODE_ANY,
			    &e)) == NULL || !json_equal(in, out))
				abort();
			json_decref(out);
			json_decref(in);
		}
	}
	free(text);
	return (0);
}
