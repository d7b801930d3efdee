/* fuzz-frame.c: the frame decoder (common/frame.c) on any byte stream, as
 * a daemon reads it from a peer. The stream is cut where the input's
 * second byte says, so frames are seen arriving whole and in two pieces.
 * Each call of frame_parse must say "more", "one frame" or "never" as
 * frame_header and frame_body say on the same bytes, a decoded frame must
 * be an object that packs back into a frame decoding to an equal object,
 * and a refusal must say why. */
#include <stdlib.h>
#include <string.h>

#include "common/frame.h"
#include "tests/fuzz/fuzz.h"

/* Small, so the fuzzer reaches the limit; frames are checked against it
 * and against the real one. */
#define FUZZ_FRAME_MAX	512

/* frame_parse on buf[0..len) must agree with decoding the header and the
 * body separately. Returns frame_parse's result. */
static int
fuzz_frame_one(const uint8_t *buf, size_t len, size_t max, size_t *used)
{
	json_t	*msg = NULL, *again;
	uint8_t	*packed;
	size_t	 plen, pused;
	char	 err[512], herr[512];
	long	 n;
	int	 r;

	err[0] = '\0';
	*used = 0;
	r = frame_parse(buf, len, max, used, &msg, err, sizeof err);
	if (len < FRAME_HEADER) {
		if (r != 0)
			abort();
		return (r);
	}
	herr[0] = '\0';
	n = frame_header(buf, max, herr, sizeof herr);
	if (n == -1) {
		/* Refused on the header alone, with the header's reason. */
		if (r != -1 || herr[0] == '\0' || strcmp(err, herr) != 0)
			abort();
		return (r);
	}
	if (n <= 0 || (size_t)n > max)
		abort();
	if (len - FRAME_HEADER < (size_t)n) {
		if (r != 0)
			abort();
		return (r);
	}
	if (r == -1) {
		if (err[0] == '\0' || msg != NULL)
			abort();
		return (r);
	}
	if (r != 1 || !json_is_object(msg) || *used != FRAME_HEADER +
	    (size_t)n)
		abort();
	/* What was accepted packs back and reads the same (re-encoded, "1e9"
	 * grows, hence the larger limit). */
	if ((packed = frame_pack(msg, FRAME_MAX_REPLY, &plen)) == NULL)
		abort();
	again = NULL;
	if (frame_parse(packed, plen, FRAME_MAX_REPLY, &pused, &again, err,
	    sizeof err) != 1 || pused != plen || !json_equal(msg, again))
		abort();
	json_decref(again);
	free(packed);
	json_decref(msg);
	return (r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t	max, split, off, used;
	int	r;

	if (size < 2)
		return (0);
	/* The first byte picks the limit, the second where the stream is
	 * cut; the rest is the stream. */
	max = data[0] & 1 ? FRAME_MAX_REQUEST : FUZZ_FRAME_MAX;
	split = data[1];
	data += 2;
	size -= 2;
	split %= size + 1;

	/* The bytes up to the cut, as a read that ended early. */
	off = 0;
	while (off < split && (r = fuzz_frame_one(data + off, split - off,
	    max, &used)) == 1)
		off += used;
	/* The whole stream, frame after frame, until more is needed or a
	 * frame is refused (the connection would be closed). */
	off = 0;
	while (off < size && (r = fuzz_frame_one(data + off, size - off, max,
	    &used)) == 1)
		off += used;
	return (0);
}
