/* base64.c: RFC 4648 base64, standard alphabet, padded. */
#include <stddef.h>
#include <stdint.h>

#include "common/base64.h"

static const char base64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t
base64_encode(const uint8_t *in, size_t n, char *out)
{
	size_t		i, o = 0;
	uint32_t	v;

	for (i = 0; i + 2 < n; i += 3) {
		v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		out[o++] = base64_alphabet[v >> 18];
		out[o++] = base64_alphabet[(v >> 12) & 63];
		out[o++] = base64_alphabet[(v >> 6) & 63];
		out[o++] = base64_alphabet[v & 63];
	}
	if (i < n) {
		v = (uint32_t)in[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)in[i + 1] << 8;
		out[o++] = base64_alphabet[v >> 18];
		out[o++] = base64_alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < n ? base64_alphabet[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	out[o] = '\0';
	return (o);
}

/* The value of character c, or -1. */
static int
base64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return (c - 'A');
	if (c >= 'a' && c <= 'z')
		return (c - 'a' + 26);
	if (c >= '0' && c <= '9')
		return (c - '0' + 52);
	if (c == '+')
		return (62);
	if (c == '/')
		return (63);
	return (-1);
}

long
base64_decode(const char *text, size_t len, uint8_t *out)
{
	size_t		i, o = 0, pad = 0;
	uint32_t	v;
	int		k, d;

	if (len % 4 != 0)
		return (-1);
	for (i = 0; i < len; i += 4) {
		v = 0;
		for (k = 0; k < 4; k++) {
			if (text[i + k] == '=' && i + 4 == len && k >= 2 &&
			    (k == 3 || text[i + 3] == '=')) {
				pad++;
				v <<= 6;
				continue;
			}
			if (pad != 0 || (d = base64_value(text[i + k])) < 0)
				return (-1);
			v = v << 6 | (uint32_t)d;
		}
		out[o++] = (uint8_t)(v >> 16);
		if (pad < 2)
			out[o++] = (uint8_t)(v >> 8);
		if (pad < 1)
			out[o++] = (uint8_t)v;
	}
	return ((long)o);
}

int
base64_valid(const char *text, size_t len)
{
	size_t	i, pad = 0;

	if (len % 4 != 0)
		return (0);
	if (len > 0 && text[len - 1] == '=')
		pad = len > 1 && text[len - 2] == '=' ? 2 : 1;
	for (i = 0; i < len - pad; i++) {
		if (base64_value(text[i]) < 0)
			return (0);
	}
	return (1);
}
