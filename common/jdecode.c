/* jdecode.c: JSON text to jansson values (jdecode.h). A recursive descent
 * over the bytes where they lie: a string without escapes goes to jansson
 * straight from the text, one with escapes through a scratch buffer. */
#include <errno.h>
#include <math.h>
#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jdecode.h"
#include "common/jlex.h"
#include "common/xmalloc.h"

struct jdecode {
	const unsigned char	*start, *p, *end;
	char			*buf;		/* a string, unescaped */
	size_t			 size;
	unsigned		 depth;
	char			*err;
	size_t			 errlen;
};

/* Whether c, in a string, is printable ASCII but for '"' and '\\': the
 * bytes a string is copied over without a look. */
static inline bool
jdecode_plain(unsigned char c)
{
	return (c >= 0x20 && c < 0x80 && c != '"' && c != '\\');
}

static json_t *jdecode_value(struct jdecode *);

static json_t *
jdecode_fail(struct jdecode *d, const unsigned char *at, const char *fmt, ...)
{
	va_list	ap;
	size_t	n;

	if (d->err[0] != '\0')
		return (NULL);
	va_start(ap, fmt);
	vsnprintf(d->err, d->errlen, fmt, ap);
	va_end(ap);
	n = strlen(d->err);
	snprintf(d->err + n, d->errlen - n, " at byte %zu",
	    (size_t)(at - d->start));
	return (NULL);
}

static void
jdecode_space(struct jdecode *d)
{
	while (d->p < d->end && (*d->p == ' ' || *d->p == '\n' ||
	    *d->p == '\t' || *d->p == '\r'))
		d->p++;
}

/* Skips whitespace, then c if it comes next: whether it did. */
static bool
jdecode_eat(struct jdecode *d, unsigned char c)
{
	jdecode_space(d);
	if (d->p == d->end || *d->p != c)
		return (false);
	d->p++;
	return (true);
}

static void
jdecode_room(struct jdecode *d, size_t need)
{
	if (d->buf != NULL && need <= d->size)
		return;
	d->size = need > 2 * d->size ? need : 2 * d->size;
	if (d->size < 256)
		d->size = 256;
	d->buf = xrealloc(d->buf, d->size);
}

/* Decodes the escape at d->p (its backslash) onto d->buf at *n. */
static int
jdecode_escape(struct jdecode *d, size_t *n)
{
	const unsigned char	*at = d->p;
	enum jlex_escape	 what;
	uint32_t		 cp;
	size_t			 k;

	k = jlex_escape((const char *)d->p, (size_t)(d->end - d->p), &cp,
	    &what);
	switch (what) {
	case JLEX_ESC_OK:
		break;
	case JLEX_ESC_LETTER:
		jdecode_fail(d, at, "invalid escape \\%c%s",
		    d->p[1] >= 0x20 && d->p[1] < 0x7f ? d->p[1] : '?',
		    d->p[1] >= 0x20 && d->p[1] < 0x7f ? "" : " (not shown)");
		return (-1);
	case JLEX_ESC_HEX:
		jdecode_fail(d, at, "\\u without four hex digits");
		return (-1);
	case JLEX_ESC_SURROGATE:
		jdecode_fail(d, at, "a \\u surrogate without its pair");
		return (-1);
	}
	if (k == 0) {
		jdecode_fail(d, at, "unterminated string");
		return (-1);
	}
	/* jansson's strings end at a NUL: it refuses this one too. */
	if (cp == 0) {
		jdecode_fail(d, at, "\\u0000 in a string");
		return (-1);
	}
	jdecode_room(d, *n + 4);
	*n += jlex_utf8_put(cp, d->buf + *n);
	d->p += k;
	return (0);
}

/* The string at d->p (its opening quote): *s and *len point into the
 * text when it holds no escape, else into d->buf (until the next string).
 * Leaves d->p past the closing quote. */
static int
jdecode_string(struct jdecode *d, const char **s, size_t *len)
{
	const unsigned char	*open = d->p, *run;
	size_t			 n = 0, k;
	bool			 escaped = false;

	run = ++d->p;
	for (;;) {
		while (d->p < d->end && jdecode_plain(*d->p))
			d->p++;
		if (d->p == d->end) {
			jdecode_fail(d, open, "unterminated string");
			return (-1);
		}
		if (*d->p < 0x20) {
			jdecode_fail(d, d->p, "control character 0x%02x in a "
			    "string", *d->p);
			return (-1);
		}
		if (*d->p >= 0x80) {
			if ((k = jlex_utf8_len(d->p, (size_t)(d->end -
			    d->p))) == 0) {
				jdecode_fail(d, d->p, "invalid UTF-8 (byte "
				    "0x%02x)", *d->p);
				return (-1);
			}
			d->p += k;
			continue;
		}
		if (*d->p == '"')
			break;
		/* A backslash: what came before it, then the escape. */
		escaped = true;
		jdecode_room(d, n + (size_t)(d->p - run));
		memcpy(d->buf + n, run, (size_t)(d->p - run));
		n += (size_t)(d->p - run);
		if (jdecode_escape(d, &n) != 0)
			return (-1);
		run = d->p;
	}
	if (!escaped) {
		*s = (const char *)run;
		*len = (size_t)(d->p - run);
	} else {
		jdecode_room(d, n + (size_t)(d->p - run));
		memcpy(d->buf + n, run, (size_t)(d->p - run));
		n += (size_t)(d->p - run);
		*s = d->buf;
		*len = n;
	}
	d->p++;
	return (0);
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?: an integer when neither
 * fraction nor exponent, in 64 bits; else a real that does not overflow. */
static json_t *
jdecode_number(struct jdecode *d)
{
	const unsigned char	*at = d->p, *p = d->p;
	const char		*dp;
	bool			 real = false;
	size_t			 n;
	char			*end, *c;
	long long		 i;
	double			 r;

	if (p < d->end && *p == '-')
		p++;
	if (p < d->end && *p == '0')
		p++;
	else if (p < d->end && *p >= '1' && *p <= '9') {
		while (p < d->end && *p >= '0' && *p <= '9')
			p++;
	} else
		return (jdecode_fail(d, at, "invalid token"));
	if (p < d->end && *p == '.') {
		real = true;
		if (++p == d->end || *p < '0' || *p > '9')
			return (jdecode_fail(d, at, "invalid number"));
		while (p < d->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < d->end && (*p == 'e' || *p == 'E')) {
		real = true;
		if (++p < d->end && (*p == '+' || *p == '-'))
			p++;
		if (p == d->end || *p < '0' || *p > '9')
			return (jdecode_fail(d, at, "invalid number"));
		while (p < d->end && *p >= '0' && *p <= '9')
			p++;
	}
	n = (size_t)(p - at);
	jdecode_room(d, n + 1);
	memcpy(d->buf, at, n);
	d->buf[n] = '\0';
	d->p = p;
	errno = 0;
	if (!real) {
		i = strtoll(d->buf, &end, 10);
		if (errno == ERANGE)
			return (jdecode_fail(d, at, "integer out of 64 bits"));
		return (json_integer(i));
	}
	/* strtod reads the locale's decimal point (gtop sets a locale). */
	dp = localeconv()->decimal_point;
	if (dp[0] != '.' && dp[0] != '\0' && dp[1] == '\0' &&
	    (c = strchr(d->buf, '.')) != NULL)
		*c = dp[0];
	r = strtod(d->buf, &end);
	if (errno == ERANGE && (r == HUGE_VAL || r == -HUGE_VAL))
		return (jdecode_fail(d, at, "real number overflow"));
	return (json_real(r));
}

static json_t *
jdecode_literal(struct jdecode *d, const char *word, json_t *v)
{
	size_t	n = strlen(word);

	if ((size_t)(d->end - d->p) < n || memcmp(d->p, word, n) != 0)
		return (jdecode_fail(d, d->p, "invalid token"));
	d->p += n;
	return (v);
}

static json_t *
jdecode_array(struct jdecode *d)
{
	json_t	*a = json_array(), *v;

	d->p++;
	if (jdecode_eat(d, ']'))
		return (a);
	for (;;) {
		if ((v = jdecode_value(d)) == NULL)
			break;
		json_array_append_new(a, v);
		if (jdecode_eat(d, ','))
			continue;
		if (jdecode_eat(d, ']'))
			return (a);
		jdecode_fail(d, d->p, "',' or ']' expected");
		break;
	}
	json_decref(a);
	return (NULL);
}

static json_t *
jdecode_object(struct jdecode *d)
{
	const unsigned char	*at;
	const char		*s;
	json_t			*o = json_object(), *v;
	char			*key = NULL;
	size_t			 len;

	d->p++;
	if (jdecode_eat(d, '}'))
		return (o);
	for (;;) {
		jdecode_space(d);
		if (d->p == d->end || *d->p != '"') {
			jdecode_fail(d, d->p, "a string key expected");
			break;
		}
		at = d->p;
		if (jdecode_string(d, &s, &len) != 0)
			break;
		if (json_object_getn(o, s, len) != NULL) {
			jdecode_fail(d, at, "duplicate key");
			break;
		}
		/* The value's strings reuse the scratch buffer. */
		if (s == d->buf) {
			key = xmalloc(len + 1);
			memcpy(key, s, len);
			s = key;
		}
		if (!jdecode_eat(d, ':')) {
			jdecode_fail(d, d->p, "':' expected");
			break;
		}
		if ((v = jdecode_value(d)) == NULL)
			break;
		json_object_setn_new_nocheck(o, s, len, v);
		free(key);
		key = NULL;
		if (jdecode_eat(d, ','))
			continue;
		if (jdecode_eat(d, '}'))
			return (o);
		jdecode_fail(d, d->p, "',' or '}' expected");
		break;
	}
	free(key);
	json_decref(o);
	return (NULL);
}

static json_t *
jdecode_value(struct jdecode *d)
{
	const char	*s;
	json_t		*v;
	size_t		 len;

	jdecode_space(d);
	if (d->p == d->end)
		return (jdecode_fail(d, d->p, "a value expected"));
	switch (*d->p) {
	case '{':
	case '[':
		if (++d->depth > JDECODE_MAX_DEPTH)
			return (jdecode_fail(d, d->p, "nested more than %d "
			    "deep", JDECODE_MAX_DEPTH));
		v = *d->p == '{' ? jdecode_object(d) : jdecode_array(d);
		d->depth--;
		return (v);
	case '"':
		if (jdecode_string(d, &s, &len) != 0)
			return (NULL);
		return (json_stringn_nocheck(s, len));
	case 't':
		return (jdecode_literal(d, "true", json_true()));
	case 'f':
		return (jdecode_literal(d, "false", json_false()));
	case 'n':
		return (jdecode_literal(d, "null", json_null()));
	default:
		return (jdecode_number(d));
	}
}

json_t *
jdecode(const char *text, size_t len, char *err, size_t errlen)
{
	struct jdecode	 d;
	json_t		*v;
	char		 scratch[1];

	memset(&d, 0, sizeof d);
	d.start = d.p = (const unsigned char *)text;
	d.end = d.p + len;
	d.err = errlen > 0 ? err : scratch;
	d.errlen = errlen > 0 ? errlen : sizeof scratch;
	d.err[0] = '\0';
	v = jdecode_value(&d);
	if (v != NULL) {
		jdecode_space(&d);
		if (d.p != d.end) {
			jdecode_fail(&d, d.p, "end of text expected");
			json_decref(v);
			v = NULL;
		}
	}
	free(d.buf);
	return (v);
}
