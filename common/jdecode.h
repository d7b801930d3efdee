/* jdecode.h: JSON text to jansson values, for frames (common/frame.c).
 * jansson's own decoder reads a character at a time through a stream: 24-26
 * us for a 1.7 kB JOB_SUBMIT (an environment of 37 variables), nine tenths
 * of it lexing, and 60% of gbatchd's time under pipelined submits. This one
 * walks the bytes in place and builds the same values in 4.6-5 us. It
 * accepts what json_loadb(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES)
 * accepts, and tests/fuzz/fuzz-jdecode.c holds it to that: RFC 8259 text in
 * valid UTF-8, no \u0000, no duplicate key in an object, 64-bit integers,
 * reals that do not overflow, nesting 2048 deep at most. One difference:
 * jansson loses a NUL byte that follows a number or a literal (it puts the
 * byte back, and a NUL in its buffer reads as empty), so it takes "1\0";
 * jdecode refuses any NUL byte. */
#ifndef GB_JDECODE_H
#define GB_JDECODE_H

#include <stddef.h>

#include <jansson.h>

/* Most arrays and objects one inside the other, as jansson's decoder. */
#define JDECODE_MAX_DEPTH	2048

/* Decodes the len bytes of text (one JSON value, whitespace around it).
 * Returns a new reference, or NULL with err saying what is wrong and at
 * which byte. */
json_t	*jdecode(const char *text, size_t len, char *err, size_t errlen);

#endif
