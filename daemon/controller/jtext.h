/* jtext.h: JSON text written straight into one growing buffer, for the
 * replies that list thousands of records (JOB_LIST, JOB_ACCT, NODE_LIST):
 * building a jansson tree per record, or many small evbuffer appends,
 * costs more than the listing may take. A writer makes room once per
 * record (jtext_reserve, an upper bound from its strings' lengths), then
 * copies without checking (the jtext_put* calls); the jtext_add, _int and
 * _string calls make their own room. */
#ifndef GB_CTL_JTEXT_H
#define GB_CTL_JTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A growing text buffer: zero it (or jtext_init it) to start; free buf
 * when done, or hand it to someone who will. */
struct jtext {
	char	*buf;
	size_t	 len;
	size_t	 size;
};

/* Starts b empty with room for size bytes (a guess: it grows past it). */
void	jtext_init(struct jtext *, size_t size);
/* Makes room for n more bytes. */
void	jtext_reserve(struct jtext *, size_t n);
void	jtext_add(struct jtext *, const char *s, size_t n);
void	jtext_int(struct jtext *, int64_t v);
/* Appends s as a JSON string (quoted, escaped); NULL is "". The strings
 * come from jansson or the store: valid UTF-8, needing only escapes. */
void	jtext_string(struct jtext *, const char *s);

/* The same once jtext_reserve made room: len bytes of s as a JSON string
 * (6 * len + 2 at most); n bytes; an integer (24 bytes at most). Inline:
 * a record is dozens of them. */
void	jtext_put_string(struct jtext *, const char *s, size_t len);

static inline void
jtext_put(struct jtext *b, const char *s, size_t n)
{
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

static inline void
jtext_put_int(struct jtext *b, int64_t v)
{
	char		tmp[24];
	size_t		i = sizeof tmp;
	uint64_t	u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		tmp[--i] = '-';
	jtext_put(b, tmp + i, sizeof tmp - i);
}

#define JTEXT_LIT(b, s)	jtext_put(b, s, sizeof s - 1)

#endif
