/* predict-name.c: a job name's key, what the predictor matches names by
 * (see predict_name_key in predict.h). Bytes, not characters: no locale,
 * so gbatchd and gsim key a name alike wherever they run. */
#include <stdbool.h>
#include <string.h>

#include "policy/predict.h"

static bool
predict_name_is_letter(unsigned char c)
{
	return (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

static bool
predict_name_is_digit(unsigned char c)
{
	return (c >= '0' && c <= '9');
}

/* Whether the word s[i..i+wlen) is a timestamp's letter: ISO 8601 puts T
 * between date and time and Z after a UTC time, right after a digit
 * (2026-11-28T10:15:00Z, 20261128T101500Z). */
static bool
predict_name_is_stamp(const unsigned char *s, size_t i, size_t wlen)
{
	return (wlen == 1 && i > 0 && predict_name_is_digit(s[i - 1]) &&
	    strchr("TtZz", s[i]) != NULL);
}

/* Appends s[0..k) to the key of length n in buf, as much as fits; returns
 * the key's new full length. */
static size_t
predict_name_put(char *buf, size_t len, size_t n, const void *s, size_t k)
{
	size_t	fit;

	if (len > 0 && n < len - 1) {
		fit = len - 1 - n < k ? len - 1 - n : k;
		memcpy(buf + n, s, fit);
		buf[n + fit] = '\0';
	}
	return (n + k);
}

size_t
predict_name_key(const char *name, char *buf, size_t len)
{
	const unsigned char	*s = (const unsigned char *)name;
	size_t			 i = 0, w, n = 0;

	if (len > 0)
		buf[0] = '\0';
	if (s == NULL)
		return (0);
	while (s[i] != '\0') {
		if (!predict_name_is_letter(s[i])) {
			i++;
			continue;
		}
		for (w = i; predict_name_is_letter(s[w]); w++)
			;
		if (!predict_name_is_stamp(s, i, w - i)) {
			if (n > 0)
				n = predict_name_put(buf, len, n, "-", 1);
			n = predict_name_put(buf, len, n, s + i, w - i);
		}
		i = w;
	}
	return (n);
}
