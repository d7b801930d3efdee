/* frame-test.c: the wire codec (common/frame.c): round trips, frames that
 * arrive in pieces, every way a frame is refused, and garbage that must be
 * refused without a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/frame.h"
#include "tests/unit/tap.h"

/* Builds a frame around n raw body bytes; the caller frees it. */
static uint8_t *
t_raw(const char *body, size_t n, size_t *len)
{
	uint8_t	*buf;

	buf = malloc(FRAME_HEADER + n + 1);
	if (buf == NULL)
		abort();
	buf[0] = (uint8_t)(n >> 24);
	buf[1] = (uint8_t)(n >> 16);
	buf[2] = (uint8_t)(n >> 8);
	buf[3] = (uint8_t)n;
	memcpy(buf + FRAME_HEADER, body, n);
	*len = FRAME_HEADER + n;
	return (buf);
}

static int
t_parse(const uint8_t *buf, size_t len, size_t *used, json_t **msg,
    char *err, size_t errlen)
{
	*msg = NULL;
	*used = 0;
	err[0] = '\0';
	return (frame_parse(buf, len, FRAME_MAX_REQUEST, used, msg, err, errlen));
}

static void
test_round_trip(void)
{
	json_t	*in, *out;
	uint8_t	*buf;
	size_t	 len, used;
	char	 err[256];

	in = json_pack("{s:i,s:i,s:s,s:[i,i],s:{s:b}}", "type", 200, "seq", 7,
	    "name", "tr\xc3\xa4in \"x\"\n", "gpus", 0, 1, "job", "hold", 0);
	buf = frame_pack(in, FRAME_MAX_REQUEST, &len);
	ok(buf != NULL, "pack: an object packs");
	is_int(((size_t)buf[0] << 24 | buf[1] << 16 | buf[2] << 8 | buf[3]),
	    len - FRAME_HEADER, "pack: header is the big-endian body length");
	is_int(t_parse(buf, len, &used, &out, err, sizeof err), 1,
	    "parse: a whole frame decodes");
	is_int(used, len, "parse: used is the whole frame");
	ok(out != NULL && json_equal(in, out), "parse: same JSON back");
	json_decref(out);
	free(buf);
	json_decref(in);

	in = json_pack("[i]", 1);
	ok(frame_pack(in, FRAME_MAX_REQUEST, &len) == NULL, "pack: an array is refused");
	json_decref(in);

	in = json_pack("{s:s}", "big", "0123456789");
	ok(frame_pack(in, 10, &len) == NULL, "pack: larger than max is refused");
	json_decref(in);
}

static void
test_partial(void)
{
	json_t	*in, *out;
	uint8_t	*buf;
	size_t	 len, used, n;
	char	 err[256];
	int	 bad = 0;

	in = json_pack("{s:i,s:s}", "type", 100, "role", "client");
	buf = frame_pack(in, FRAME_MAX_REQUEST, &len);

	/* Every prefix shorter than the frame (header split across reads,
	 * then a partial body) needs more bytes and touches nothing. */
	for (n = 0; n < len; n++) {
		if (t_parse(buf, n, &used, &out, err, sizeof err) != 0 ||
		    out != NULL || used != 0)
			bad++;
	}
	is_int(bad, 0, "partial: each of %zu prefixes returns 0", len);
	is_int(t_parse(buf, 2, &used, &out, err, sizeof err), 0,
	    "partial: half a header returns 0");
	is_int(t_parse(buf, FRAME_HEADER, &used, &out, err, sizeof err), 0,
	    "partial: header without body returns 0");
	is_int(t_parse(buf, len - 1, &used, &out, err, sizeof err), 0,
	    "partial: body one byte short returns 0");
	free(buf);
	json_decref(in);
}

static void
test_refused(void)
{
	uint8_t	 hdr[FRAME_HEADER], *buf;
	json_t	*out;
	size_t	 len, used;
	char	 err[256];

	/* The header alone is enough to refuse: no need to wait for a body
	 * that would be too large to hold. */
	hdr[0] = 0x00; hdr[1] = 0x10; hdr[2] = 0x00; hdr[3] = 0x01;
	is_int(t_parse(hdr, sizeof hdr, &used, &out, err, sizeof err), -1,
	    "oversize: 1 MiB + 1 is refused from the header");
	ok(strstr(err, "1048577") != NULL, "oversize: error names the size (%s)", err);
	ok(out == NULL, "oversize: no message");
	is_int(frame_header(hdr, FRAME_MAX_REPLY, err, sizeof err), 0x100001,
	    "oversize: the same length is fine under the reply limit");
	hdr[0] = hdr[1] = hdr[2] = hdr[3] = 0xff;
	is_int(frame_header(hdr, FRAME_MAX_REPLY, err, sizeof err), -1,
	    "oversize: 4 GiB is refused even for replies");
	hdr[0] = 0x00; hdr[1] = 0x10; hdr[2] = 0x00; hdr[3] = 0x00;
	is_int(frame_header(hdr, FRAME_MAX_REQUEST, err, sizeof err), 1 << 20,
	    "exactly the limit is accepted");

	memset(hdr, 0, sizeof hdr);
	is_int(t_parse(hdr, sizeof hdr, &used, &out, err, sizeof err), -1,
	    "zero length is refused");
	ok(strstr(err, "length 0") != NULL, "zero length: error says so (%s)", err);

	buf = t_raw("hello", 5, &len);
	is_int(t_parse(buf, len, &used, &out, err, sizeof err), -1,
	    "non-JSON is refused");
	ok(strstr(err, "not JSON") != NULL, "non-JSON: error says so (%s)", err);
	free(buf);

	buf = t_raw("[1,2]", 5, &len);
	is_int(t_parse(buf, len, &used, &out, err, sizeof err), -1,
	    "a JSON array is refused");
	ok(strstr(err, "array") != NULL, "array: error says so (%s)", err);
	free(buf);

	buf = t_raw("42", 2, &len);
	is_int(t_parse(buf, len, &used, &out, err, sizeof err), -1,
	    "a JSON scalar is refused");
	free(buf);

	buf = t_raw("{\"a\":1,\"a\":2}", 13, &len);
	is_int(t_parse(buf, len, &used, &out, err, sizeof err), -1,
	    "duplicate keys are refused");
	free(buf);

	buf = t_raw("{\"a\":1} x", 9, &len);
	is_int(t_parse(buf, len, &used, &out, err, sizeof err), -1,
	    "trailing bytes inside the frame are refused");
	free(buf);

	buf = t_raw("{\"a\":\"\xff\"}", 8, &len);
	is_int(t_parse(buf, len, &used, &out, err, sizeof err), -1,
	    "invalid UTF-8 is refused");
	free(buf);

	buf = t_raw("{\"a\":\"x\0y\"}", 11, &len);
	is_int(t_parse(buf, len, &used, &out, err, sizeof err), -1,
	    "a raw NUL byte is refused");
	free(buf);
}

static void
test_back_to_back(void)
{
	json_t	*a, *b, *out;
	uint8_t	*fa, *fb, *buf;
	size_t	 la, lb, used, off;
	char	 err[256];

	a = json_pack("{s:i,s:i}", "type", 200, "seq", 1);
	b = json_pack("{s:i,s:i}", "type", 201, "seq", 2);
	fa = frame_pack(a, FRAME_MAX_REQUEST, &la);
	fb = frame_pack(b, FRAME_MAX_REQUEST, &lb);
	buf = malloc(la + lb);
	if (buf == NULL)
		abort();
	memcpy(buf, fa, la);
	memcpy(buf + la, fb, lb);

	is_int(t_parse(buf, la + lb, &used, &out, err, sizeof err), 1,
	    "two frames: the first decodes");
	is_int(used, la, "two frames: used stops at the first frame's end");
	ok(out != NULL && json_equal(out, a), "two frames: first is the first");
	json_decref(out);
	off = used;
	is_int(t_parse(buf + off, la + lb - off, &used, &out, err, sizeof err), 1,
	    "two frames: the second decodes");
	is_int(used, lb, "two frames: second used");
	ok(out != NULL && json_equal(out, b), "two frames: second is the second");
	json_decref(out);

	/* The first frame and part of the second: one message, then wait. */
	is_int(t_parse(buf, la + 3, &used, &out, err, sizeof err), 1,
	    "frame and a bit: first decodes");
	json_decref(out);
	is_int(t_parse(buf + la, 3, &used, &out, err, sizeof err), 0,
	    "frame and a bit: the rest needs more");

	free(buf);
	free(fa);
	free(fb);
	json_decref(a);
	json_decref(b);
}

static void
test_fuzz(void)
{
	static const char	*seeds[] = {
		"{\"type\":200,\"job\":{\"gpus\":2,\"argv\":[\"a\",\"b\"]}}",
		"{\"a\":[1,2,{\"b\":null}],\"c\":1.5e3,\"d\":\"\\u00e4\"}",
		"{}",
	};
	uint8_t		 buf[512];
	json_t		*out;
	size_t		 len, used, i, j, n;
	char		 err[256];
	int		 r, bad = 0, decoded = 0, iter;

	for (iter = 0; iter < 20000; iter++) {
		/* Half start from a valid frame and flip bytes, half are
		 * random bytes with a plausible length. */
		if (iter % 2 == 0) {
			const char *s = seeds[tap_rand() % 3];

			n = strlen(s);
			buf[0] = buf[1] = 0;
			buf[2] = (uint8_t)(n >> 8);
			buf[3] = (uint8_t)n;
			memcpy(buf + FRAME_HEADER, s, n);
			len = FRAME_HEADER + n;
			for (j = tap_rand() % 4 + 1; j > 0; j--)
				buf[tap_rand() % len] = (uint8_t)tap_rand();
		} else {
			len = tap_rand() % sizeof buf;
			for (i = 0; i < len; i++)
				buf[i] = (uint8_t)tap_rand();
			if (len >= FRAME_HEADER && tap_rand() % 2 == 0) {
				n = tap_rand() % (len - FRAME_HEADER + 8);
				buf[0] = buf[1] = 0;
				buf[2] = (uint8_t)(n >> 8);
				buf[3] = (uint8_t)n;
			}
		}
		/* Sometimes cut it short, as a read would. */
		if (tap_rand() % 4 == 0)
			len = tap_rand() % (len + 1);
		r = t_parse(buf, len, &used, &out, err, sizeof err);
		if (r == 1) {
			decoded++;
			if (!json_is_object(out) || used > len ||
			    used < FRAME_HEADER + 1)
				bad++;
			json_decref(out);
		} else if (r == 0) {
			if (out != NULL)
				bad++;
		} else if (r == -1) {
			if (out != NULL || err[0] == '\0')
				bad++;
		} else
			bad++;
	}
	is_int(bad, 0, "fuzz: 20000 inputs, every result consistent (%d decoded)",
	    decoded);
}

int
main(void)
{
	test_round_trip();
	test_partial();
	test_refused();
	test_back_to_back();
	test_fuzz();
	return (tap_done());
}
