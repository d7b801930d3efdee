/* jtext.c: JSON text written straight into one growing buffer (jtext.h). */
#include <stdint.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/jtext.h"

void
jtext_init(struct jtext *b, size_t size)
{
	b->len = 0;
	b->size = size < 4096 ? 4096 : size;
	b->buf = xmalloc(b->size);
}

void
jtext_reserve(struct jtext *b, size_t n)
{
	if (b->len + n <= b->size)
		return;
	if (b->size == 0)
		b->size = 65536;
	while (b->len + n > b->size)
		b->size *= 2;
	b->buf = xrealloc(b->buf, b->size);
}

void
jtext_add(struct jtext *b, const char *s, size_t n)
{
	jtext_reserve(b, n);
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

void
jtext_int(struct jtext *b, int64_t v)
{
	jtext_reserve(b, 24);
	jtext_put_int(b, v);
}

void
jtext_put_string(struct jtext *b, const char *s, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	const char		*end = s + len, *run;
	unsigned char		 c;
	char			*o;

	b->buf[b->len++] = '"';
	for (run = s; s < end; s++) {
		c = (unsigned char)*s;
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		jtext_put(b, run, (size_t)(s - run));
		o = b->buf + b->len;
		o[0] = '\\';
		switch (c) {
		case '"':
		case '\\':
			o[1] = (char)c;
			b->len += 2;
			break;
		case '\n':
			o[1] = 'n';
			b->len += 2;
			break;
		case '\t':
			o[1] = 't';
			b->len += 2;
			break;
		default:
			memcpy(o + 1, "u00", 3);
			o[4] = hex[c >> 4];
			o[5] = hex[c & 0xf];
			b->len += 6;
			break;
		}
		run = s + 1;
	}
	jtext_put(b, run, (size_t)(s - run));
	b->buf[b->len++] = '"';
}

void
jtext_string(struct jtext *b, const char *s)
{
	size_t	len;

	if (s == NULL)
		s = "";
	len = strlen(s);
	jtext_reserve(b, 6 * len + 2);
	jtext_put_string(b, s, len);
}
