/* base64.h: the bytes of an interactive job's streams inside JSON frames
 * (docs/protocol.md, IO): JSON strings hold UTF-8 text, a terminal's output
 * is any bytes. RFC 4648's standard alphabet, with padding. */
#ifndef GB_BASE64_H
#define GB_BASE64_H

#include <stddef.h>
#include <stdint.h>

/* The length of the text for n bytes, without the NUL. */
#define BASE64_LEN(n)	((((n) + 2) / 3) * 4)

/* Writes the text of the n bytes at in to out (room for BASE64_LEN(n) + 1)
 * with a NUL. Returns the text's length. */
size_t	base64_encode(const uint8_t *in, size_t n, char *out);

/* Decodes len characters of text into out (room for len / 4 * 3). Returns
 * the bytes written, or -1 when text is not base64 (a length that is not a
 * multiple of 4, a character outside the alphabet, padding not at the
 * end). */
long	base64_decode(const char *text, size_t len, uint8_t *out);

/* Whether len characters of text are base64 as base64_decode takes it
 * (it may then be copied into JSON as it is: no character needs
 * escaping). */
int	base64_valid(const char *text, size_t len);

#endif
