/* jpretty.c: JSON text re-indented as jansson indents it (jpretty.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "client/jpretty.h"
#include "common/jlex.h"
#include "common/xmalloc.h"

/* Deeper than any reply of ours; refusing it bounds the recursion. */
#define JPRETTY_MAX_DEPTH	64
#define JPRETTY_FLUSH		65536

void
jpretty_init(struct jpretty *p, FILE *f)
{
	memset(p, 0, sizeof *p);
	p->f = f;
}

void
jpretty_flush(struct jpretty *p, int force)
{
	if (p->len == 0 || (!force && p->len < JPRETTY_FLUSH))
		return;
	fwrite(p->s, 1, p->len, p->f);
	p->len = 0;
}

void
jpretty_end(struct jpretty *p)
{
	jpretty_flush(p, 1);
	free(p->s);
	p->s = NULL;
	p->size = 0;
}

/* Room for n more bytes; returns where they go. */
static inline char *
jpretty_room(struct jpretty *p, size_t n)
{
	if (p->len + n > p->size) {
		while (p->len + n > p->size)
			p->size = p->size != 0 ? p->size * 2 : 65536 + 4096;
		p->s = xrealloc(p->s, p->size);
	}
	return (p->s + p->len);
}

/* Appends len bytes: inline, for the few bytes of punctuation. */
static inline void
jpretty_put(struct jpretty *p, const char *s, size_t len)
{
	memcpy(jpretty_room(p, len), s, len);
	p->len += len;
}

void
jpretty_raw(struct jpretty *p, const char *s, size_t len)
{
	jpretty_put(p, s, len);
}

void
jpretty_newline(struct jpretty *p, int indent, int depth)
{
	size_t	n = (size_t)indent * (size_t)depth;
	char	*o = jpretty_room(p, n + 1);

	o[0] = '\n';
	memset(o + 1, ' ', n);
	p->len += n + 1;
}

static size_t
jpretty_ws(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r'))
		i++;
	return (i);
}

/* Appends code point c as jansson writes it, made safe for a terminal. */
static void
jpretty_char(struct jpretty *p, unsigned c)
{
	static const char	hex[] = "0123456789ABCDEF";
	char			*o = jpretty_room(p, 6);

	if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' ||
	    c == '\r' || c == '\t') {
		o[0] = '\\';
		o[1] = c == '\b' ? 'b' : c == '\f' ? 'f' : c == '\n' ? 'n' :
		    c == '\r' ? 'r' : c == '\t' ? 't' : (char)c;
		p->len += 2;
	} else if (c < 0x20) {
		memcpy(o, "\\u00", 4);
		o[4] = hex[c >> 4];
		o[5] = hex[c & 0xf];
		p->len += 6;
	} else if (c == 0x7f || (c >= 0x80 && c < 0xa0)) {
		/* What safe_text_json_fwrite writes: lower case. */
		memcpy(o, "\\u00", 4);
		o[4] = "0123456789abcdef"[c >> 4];
		o[5] = "0123456789abcdef"[c & 0xf];
		p->len += 6;
	} else
		p->len += jlex_utf8_put(c, o);
}

/* A string whose opening quote is at i. Returns the index past its
 * closing quote, or 0 when it is malformed. */
static size_t
jpretty_string(struct jpretty *p, const char *s, size_t len, size_t i)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 run, k;
	uint32_t		 c;
	enum jlex_escape	 what;

	jpretty_put(p, "\"", 1);
	for (i++, run = i; i < len; ) {
		c = u[i];
		/* Most bytes go out as they are. */
		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f &&
		    c != 0xc2) {
			i++;
			continue;
		}
		if (i > run)
			jpretty_raw(p, s + run, i - run);
		if (c == '"') {
			jpretty_put(p, "\"", 1);
			return (i + 1);
		}
		if (c < 0x20)
			return (0);
		if (c == 0x7f) {
			jpretty_char(p, c);
			i++;
		} else if (c == 0xc2) {
			/* A C1 control, escaped; else the byte as it is,
			 * the next one looked at on its own. */
			if (i + 1 < len && u[i + 1] >= 0x80 && u[i + 1] < 0xa0) {
				jpretty_char(p, u[i + 1]);
				i += 2;
			} else {
				jpretty_put(p, s + i, 1);
				i++;
			}
		} else {
			/* An escape: decoded, then written again. */
			if ((k = jlex_escape(s + i, len - i, &c, &what)) ==
			    0 || what != JLEX_ESC_OK)
				return (0);
			jpretty_char(p, c);
			i += k;
		}
		run = i;
	}
	return (0);
}

static size_t
jpretty_digits(const char *s, size_t len, size_t i)
{
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return (i);
}

/* A number (JSON's grammar) or true, false or null at i: the index past
 * it, or 0 when there is none. */
static size_t
jpretty_scalar(const char *s, size_t len, size_t i)
{
	static const char *const lit[] = { "true", "false", "null" };
	size_t			 k, n;

	for (k = 0; k < 3; k++) {
		n = strlen(lit[k]);
		if (len - i >= n && memcmp(s + i, lit[k], n) == 0)
			return (i + n);
	}
	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0')
		i++;
	else if (i < len && s[i] >= '1' && s[i] <= '9')
		i = jpretty_digits(s, len, i);
	else
		return (0);
	if (i < len && s[i] == '.') {
		if ((n = jpretty_digits(s, len, i + 1)) == i + 1)
			return (0);
		i = n;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		if ((n = jpretty_digits(s, len, i)) == i)
			return (0);
		i = n;
	}
	return (i);
}

/* The value at i; returns the index past it, or 0 when malformed. */
static size_t
jpretty_at(struct jpretty *p, const char *s, size_t len, size_t i,
    int indent, int depth)
{
	size_t	start;
	char	open, close;
	int	n = 0;

	i = jpretty_ws(s, len, i);
	if (i >= len || depth > JPRETTY_MAX_DEPTH)
		return (0);
	if (s[i] == '"')
		return (jpretty_string(p, s, len, i));
	if (s[i] != '{' && s[i] != '[') {
		/* A number or a literal, as it is. */
		start = i;
		if ((i = jpretty_scalar(s, len, i)) == 0)
			return (0);
		jpretty_put(p, s + start, i - start);
		return (i);
	}
	open = s[i];
	close = open == '{' ? '}' : ']';
	i = jpretty_ws(s, len, i + 1);
	if (i < len && s[i] == close) {
		jpretty_put(p, open == '{' ? "{}" : "[]", 2);
		return (i + 1);
	}
	jpretty_put(p, &open, 1);
	for (;;) {
		if (n++ > 0)
			jpretty_put(p, ",", 1);
		jpretty_newline(p, indent, depth + 1);
		if (open == '{') {
			i = jpretty_ws(s, len, i);
			if (i >= len || s[i] != '"' ||
			    (i = jpretty_string(p, s, len, i)) == 0)
				return (0);
			i = jpretty_ws(s, len, i);
			if (i >= len || s[i] != ':')
				return (0);
			jpretty_put(p, ": ", 2);
			i++;
		}
		if ((i = jpretty_at(p, s, len, i, indent, depth + 1)) == 0)
			return (0);
		i = jpretty_ws(s, len, i);
		if (i < len && s[i] == ',') {
			i++;
			continue;
		}
		if (i < len && s[i] == close)
			break;
		return (0);
	}
	jpretty_newline(p, indent, depth);
	jpretty_put(p, &close, 1);
	return (i + 1);
}

int
jpretty_value(struct jpretty *p, const char *text, size_t len, int indent,
    int depth)
{
	size_t	end;

	if ((end = jpretty_at(p, text, len, 0, indent, depth)) == 0 ||
	    jpretty_ws(text, len, end) != len)
		return (-1);
	return (0);
}
