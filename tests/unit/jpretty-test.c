/* jpretty-test.c: jpretty prints what jansson's json_dumps(JSON_INDENT)
 * followed by safe_text_json_fwrite (cmd_json_print) printed, byte for
 * byte, for hand-picked and random values, from compact text written the
 * way gbatchd writes it, and refuses what is not JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client/jpretty.h"
#include "common/safe-text.h"
#include "tests/unit/tap.h"

/* What gq --json printed for v before it streamed: jansson's text, made
 * safe for a terminal. */
static char *
want_text(const json_t *v, int indent)
{
	char	*text, *out = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&out, &len);

	text = json_dumps(v, JSON_INDENT(indent) | JSON_ENCODE_ANY);
	safe_text_json_fwrite(text, strlen(text), f);
	fclose(f);
	free(text);
	return (out);
}

static char *
got_text(const char *compact, size_t len, int indent, int *rc)
{
	struct jpretty	 p;
	char		*out = NULL;
	size_t		 olen = 0;
	FILE		*f = open_memstream(&out, &olen);

	jpretty_init(&p, f);
	*rc = jpretty_value(&p, compact, len, indent, 0);
	jpretty_end(&p);
	fclose(f);
	return (out);
}

/* compact is JSON text; jpretty of it must equal jansson's of its value. */
static int
same(const char *compact, int indent)
{
	json_error_t	 e;
	json_t		*v = json_loads(compact, JSON_DECODE_ANY, &e);
	char		*want, *got;
	int		 rc, r;

	if (v == NULL) {
		printf("# not JSON: %s\n", compact);
		return (0);
	}
	want = want_text(v, indent);
	got = got_text(compact, strlen(compact), indent, &rc);
	r = rc == 0 && strcmp(want, got) == 0;
	if (!r)
		printf("#   text %s\n#   got  %s\n#   want %s\n", compact, got,
		    want);
	json_decref(v);
	free(want);
	free(got);
	return (r);
}

/* A random value: nested containers of strings holding any character
 * (controls, DEL, C1, two- to four-byte UTF-8), numbers and literals. */
static json_t *
random_value(unsigned *seed, int depth)
{
	static const unsigned	chars[] = { 'a', ' ', '"', '\\', '/', 0x01,
		0x08, 0x0c, 0x0a, 0x0d, 0x09, 0x1b, 0x1f, 0x7f, 0x80, 0x9b,
		0x9f, 0xa0, 0xe9, 0x263a, 0x1f600 };
	json_t			*v;
	char			 s[64];
	size_t			 n, i, k;
	unsigned		 c;
	int			 kind = rand_r(seed) % (depth > 3 ? 4 : 6);

	switch (kind) {
	case 0:
		for (n = rand_r(seed) % 8, k = 0, i = 0; i < n; i++) {
			c = chars[rand_r(seed) % (sizeof chars / sizeof
			    chars[0])];
			if (c < 0x80)
				s[k++] = (char)c;
			else if (c < 0x800) {
				s[k++] = (char)(0xc0 | c >> 6);
				s[k++] = (char)(0x80 | (c & 0x3f));
			} else if (c < 0x10000) {
				s[k++] = (char)(0xe0 | c >> 12);
				s[k++] = (char)(0x80 | (c >> 6 & 0x3f));
				s[k++] = (char)(0x80 | (c & 0x3f));
			} else {
				s[k++] = (char)(0xf0 | c >> 18);
				s[k++] = (char)(0x80 | (c >> 12 & 0x3f));
				s[k++] = (char)(0x80 | (c >> 6 & 0x3f));
				s[k++] = (char)(0x80 | (c & 0x3f));
			}
		}
		return (json_stringn(s, k));
	case 1:
		return (json_integer(rand_r(seed) % 2 ? rand_r(seed) :
		    -(json_int_t)rand_r(seed)));
	case 2:
		return (rand_r(seed) % 3 == 0 ? json_null() :
		    json_boolean(rand_r(seed) % 2));
	case 3:
		return (json_integer(0));
	case 4:
		v = json_array();
		for (n = rand_r(seed) % 4, i = 0; i < n; i++)
			json_array_append_new(v, random_value(seed, depth + 1));
		return (v);
	default:
		v = json_object();
		for (n = rand_r(seed) % 4, i = 0; i < n; i++) {
			snprintf(s, sizeof s, "k%zu", i);
			json_object_set_new(v, s, random_value(seed, depth +
			    1));
		}
		return (v);
	}
}

int
main(void)
{
	static const char	*bad[] = { "", "{", "[1,]", "{\"a\" 1}",
		"{\"a\":1,}", "\"x", "\"\\q\"", "\"\\u12\"", "[1] 2",
		"\"\\ud800\"", "\"a\nb\"", "{1:2}" };
	unsigned		 seed = 42;
	json_t			*v;
	char			*compact, *got;
	size_t			 i;
	int			 rc, bad_random = 0;

	ok(same("{\"id\":1,\"name\":\"x\",\"alloc\":[],\"o\":{},"
	    "\"a\":[{\"node\":\"n1\",\"gpus\":[0,1]}],\"n\":null,\"t\":true}",
	    2), "a job object, empty and nested containers");
	ok(same("[]", 2) && same("{}", 4) && same("7", 2) && same("\"\"", 2),
	    "empty containers and scalars alone");
	/* gbatchd escapes controls in lower case; jansson wrote them in
	 * upper case, and the output keeps jansson's. */
	ok(same("{\"name\":\"a\\u001b[2J\\u0007\\n\\t\\\"\\\\\"}", 2),
	    "C0 controls: short escapes and \\u00XX in upper case");
	ok(same("[\"\\/ slash\", \"\\u00e9\\u263a\\ud83d\\ude00\"]", 2),
	    "escaped slash and escaped non-ASCII, pairs included, as UTF-8");
	ok(same("[\"del \x7f c1 \xc2\x9b \xc2\xa0 \xc3\xa9\"]", 2),
	    "DEL and C1 made safe for a terminal, the rest of UTF-8 kept");
	ok(same(" { \"a\" : [ 1 , 2 ] , \"b\" : { } } \n", 2),
	    "whitespace between tokens");

	for (i = 0; i < 2000; i++) {
		v = random_value(&seed, 0);
		compact = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (!same(compact, 1 + (int)(i % 4)))
			bad_random++;
		free(compact);
		json_decref(v);
	}
	is_int(bad_random, 0, "2,000 random values, as jansson prints them");

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		got = got_text(bad[i], strlen(bad[i]), 2, &rc);
		if (!ok(rc == -1, "refused: %s", bad[i]))
			printf("#   printed %s\n", got);
		free(got);
	}
	return (tap_done());
}
