/* safe-text.c: escaping peer and user text for terminals and logs. See
 * safe-text.h for the rule. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/jlex.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

/* Reads one character of s (len > 0 bytes) and writes what it prints as
 * into out (at least SAFE_TEXT_MAX_ESC bytes, not NUL-terminated), its
 * length into *outlen. Returns how many bytes of s it took. */
static size_t
safe_text_step(const char *s, size_t len, char *out, size_t *outlen)
{
	static const char	 hex[] = "0123456789abcdef";
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 n;

	n = jlex_utf8_len(u, len);
	if (n == 0) {
		/* Not UTF-8: the byte itself, so nothing is hidden. */
		memcpy(out, "\\x", 2);
		out[2] = hex[u[0] >> 4];
		out[3] = hex[u[0] & 0xf];
		*outlen = 4;
		return (1);
	}
	if (n == 2 && u[0] == 0xc2 && u[1] < 0xa0) {
		/* A C1 control (U+0080..U+009F): U+009B is CSI, which
		 * some terminals obey as ESC [ is obeyed. */
		memcpy(out, "\\u00", 4);
		out[4] = hex[u[1] >> 4];
		out[5] = hex[u[1] & 0xf];
		*outlen = 6;
		return (2);
	}
	if (n > 1 || (u[0] >= 0x20 && u[0] != 0x7f)) {
		memcpy(out, s, n);
		*outlen = n;
		return (n);
	}
	out[0] = '\\';
	*outlen = 2;
	switch (u[0]) {
	case '\n':
		out[1] = 'n';
		break;
	case '\r':
		out[1] = 'r';
		break;
	case '\t':
		out[1] = 't';
		break;
	case 0x1b:
		out[1] = 'e';
		break;
	default:
		out[1] = 'x';
		out[2] = hex[u[0] >> 4];
		out[3] = hex[u[0] & 0xf];
		*outlen = 4;
		break;
	}
	return (1);
}

char *
safe_text(const char *s, size_t len, char *buf, size_t size)
{
	char	out[SAFE_TEXT_MAX_ESC];
	size_t	i = 0, n, olen, used = 0;

	while (i < len) {
		/* Printable ASCII, most of any text, goes as it is. */
		for (n = i; n < len && (unsigned char)s[n] >= 0x20 &&
		    (unsigned char)s[n] < 0x7f; n++)
			;
		if (n > i) {
			if (n - i >= size - used)
				n = i + (size - used - 1);
			memcpy(buf + used, s + i, n - i);
			used += n - i;
			i = n;
			if (used + 1 >= size)
				break;
			continue;
		}
		n = safe_text_step(s + i, len - i, out, &olen);
		if (used + olen >= size)
			break;
		memcpy(buf + used, out, olen);
		used += olen;
		i += n;
	}
	buf[used] = '\0';
	return (buf);
}

char *
safe_text_str(const char *s, char *buf, size_t size)
{
	if (s == NULL)
		s = "";
	return (safe_text(s, strlen(s), buf, size));
}

size_t
safe_text_len(const char *s, size_t len)
{
	char	out[SAFE_TEXT_MAX_ESC];
	size_t	i = 0, olen, total = 0;

	while (i < len) {
		i += safe_text_step(s + i, len - i, out, &olen);
		total += olen;
	}
	return (total);
}

char *
safe_text_dup(const char *s, size_t len)
{
	size_t	 size = safe_text_len(s, len) + 1;

	return (safe_text(s, len, xmalloc(size), size));
}

bool
safe_text_is_line(const char *s, size_t len)
{
	char	out[SAFE_TEXT_MAX_ESC];
	size_t	i = 0, n, olen;

	while (i < len) {
		n = safe_text_step(s + i, len - i, out, &olen);
		if (olen != n || memcmp(out, s + i, n) != 0)
			return (false);
		i += n;
	}
	return (true);
}

void
safe_text_fwrite(const char *s, size_t len, FILE *f)
{
	char		out[SAFE_TEXT_MAX_ESC];
	size_t		i = 0, n, olen, run = 0;

	/* Runs of characters kept as they are go out in one fwrite. */
	while (i < len) {
		n = safe_text_step(s + i, len - i, out, &olen);
		if (olen == n && memcmp(out, s + i, n) == 0) {
			run += n;
			i += n;
			continue;
		}
		fwrite(s + i - run, 1, run, f);
		run = 0;
		fwrite(out, 1, olen, f);
		i += n;
	}
	fwrite(s + i - run, 1, run, f);
}

void
safe_text_json_fwrite(const char *json, size_t len, FILE *f)
{
	const unsigned char	*u = (const unsigned char *)json;
	size_t			 i, start = 0;

	for (i = 0; i < len; i++) {
		if (u[i] == 0x7f) {
			fwrite(json + start, 1, i - start, f);
			fputs("\\u007f", f);
			start = i + 1;
		} else if (u[i] == 0xc2 && i + 1 < len && u[i + 1] >= 0x80 &&
		    u[i + 1] < 0xa0) {
			fwrite(json + start, 1, i - start, f);
			fprintf(f, "\\u00%02x", u[i + 1]);
			start = i + 2;
			i++;
		}
	}
	fwrite(json + start, 1, len - start, f);
}
