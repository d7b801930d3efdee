/* jscan.c: an in-place JSON scanner (see jscan.h for why). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "client/jscan.h"
#include "common/jlex.h"

/* Deeper nesting than this is no reply of ours; refusing it bounds the
 * bracket stack without allocating. */
#define JSCAN_MAX_DEPTH	64

/* A walk of a lazy container that reached its closing bracket: *pos holds
 * the offset past it, with this bit set. */
#define JSCAN_ENDED	(~(SIZE_MAX >> 1))

static size_t
jscan_ws(const char *b, size_t len, size_t i)
{
	while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' ||
	    b[i] == '\r'))
		i++;
	return (i);
}

/* Moves past a string whose opening quote is at i. Returns the index after
 * the closing quote, or 0 on an unterminated string. memchr() makes this
 * the fast path of the whole scanner; escapes are checked when
 * jscan_string() decodes a value, and control characters are the
 * printer's business (table.c). */
static size_t
jscan_skip_string(const char *b, size_t len, size_t i)
{
	const char	*q;
	size_t		 k, bs;

	for (i++; i < len; i = k + 1) {
		/* Most strings are names and figures of a few bytes, where
		 * a look at each byte beats a call of memchr. */
		for (k = i; k < len && k < i + 32 && b[k] != '"'; k++)
			continue;
		if (k == len)
			return (0);
		if (b[k] != '"') {
			if ((q = memchr(b + k, '"', len - k)) == NULL)
				return (0);
			k = (size_t)(q - b);
		}
		for (bs = 0; k - bs > i && b[k - bs - 1] == '\\'; bs++)
			/* count the backslashes before the quote */;
		if (bs % 2 == 0)
			return (k + 1);
	}
	return (0);
}

static size_t
jscan_skip_scalar(const char *b, size_t len, size_t i, enum jscan_type *t)
{
	size_t	digits = 0;

	if (b[i] == '-' || (b[i] >= '0' && b[i] <= '9')) {
		for (; i < len; i++) {
			if (b[i] >= '0' && b[i] <= '9')
				digits++;
			else if (b[i] != '-' && b[i] != '+' && b[i] != '.' &&
			    b[i] != 'e' && b[i] != 'E')
				break;
		}
		if (digits == 0)
			return (0);
		*t = JSCAN_NUMBER;
		return (i);
	}
	if (len - i >= 4 && memcmp(b + i, "null", 4) == 0) {
		*t = JSCAN_NULL;
		return (i + 4);
	}
	if (len - i >= 4 && memcmp(b + i, "true", 4) == 0) {
		*t = JSCAN_BOOL;
		return (i + 4);
	}
	if (len - i >= 5 && memcmp(b + i, "false", 5) == 0) {
		*t = JSCAN_BOOL;
		return (i + 5);
	}
	return (0);
}

/* Moves past an array or object opening at i, checking that brackets pair
 * up and strings and scalars are well formed. The grammar between them
 * (commas, colons) is checked when jscan_member/jscan_element walk it. */
static size_t
jscan_skip_container(const char *b, size_t len, size_t i)
{
	char		stack[JSCAN_MAX_DEPTH];
	int		depth = 0;
	enum jscan_type	t;

	while (i < len) {
		switch (b[i]) {
		case '{':
		case '[':
			if (depth == JSCAN_MAX_DEPTH)
				return (0);
			stack[depth++] = b[i] == '{' ? '}' : ']';
			i++;
			break;
		case '}':
		case ']':
			if (depth == 0 || stack[depth - 1] != b[i])
				return (0);
			i++;
			if (--depth == 0)
				return (i);
			break;
		case '"':
			if ((i = jscan_skip_string(b, len, i)) == 0)
				return (0);
			break;
		case ' ': case '\t': case '\n': case '\r': case ',': case ':':
			i++;
			break;
		default:
			if ((i = jscan_skip_scalar(b, len, i, &t)) == 0)
				return (0);
			break;
		}
	}
	return (0);
}

/* jscan_value, inlined where a listing reads every value of a row. */
static inline int
jscan_value_at(const char *buf, size_t len, size_t *pos, struct jscan_val *v)
{
	enum jscan_type	t;
	size_t		i, end;

	v->type = JSCAN_NONE;
	v->lazy = false;
	i = jscan_ws(buf, len, *pos);
	if (i >= len || len > JSCAN_MAX_LEN)
		return (-1);
	switch (buf[i]) {
	case '"':
		if ((end = jscan_skip_string(buf, len, i)) == 0)
			return (-1);
		v->type = JSCAN_STRING;
		v->p = buf + i + 1;
		v->n = end - i - 2;
		break;
	case '{':
	case '[':
		if ((end = jscan_skip_container(buf, len, i)) == 0)
			return (-1);
		v->type = buf[i] == '{' ? JSCAN_OBJECT : JSCAN_ARRAY;
		v->p = buf + i;
		v->n = end - i;
		break;
	default:
		if ((end = jscan_skip_scalar(buf, len, i, &t)) == 0)
			return (-1);
		v->type = t;
		v->p = buf + i;
		v->n = end - i;
		break;
	}
	*pos = end;
	return (0);
}

int
jscan_value(const char *buf, size_t len, size_t *pos, struct jscan_val *v)
{
	return (jscan_value_at(buf, len, pos, v));
}

int
jscan_open(const char *buf, size_t len, struct jscan_val *v)
{
	size_t	i = jscan_ws(buf, len, 0);

	while (len > i && (buf[len - 1] == ' ' || buf[len - 1] == '\n' ||
	    buf[len - 1] == '\t' || buf[len - 1] == '\r'))
		len--;
	v->type = JSCAN_NONE;
	v->lazy = false;
	if (len - i < 2 || buf[i] != '{' || buf[len - 1] != '}' ||
	    len > JSCAN_MAX_LEN)
		return (-1);
	v->type = JSCAN_OBJECT;
	v->p = buf + i;
	v->n = len - i;
	return (0);
}

/* Consumes the separator after an item: ',' (more follow) or the closing
 * bracket (the walk ends, *pos set past the end). */
static int
jscan_next_sep(const struct jscan_val *c, size_t *pos, char close)
{
	size_t	i = jscan_ws(c->p, c->n, *pos);

	if (i >= c->n)
		return (-1);
	if (c->p[i] == ',') {
		*pos = i + 1;
		return (0);
	}
	if (c->p[i] == close && c->lazy) {
		*pos = (i + 1) | JSCAN_ENDED;
		return (0);
	}
	if (c->p[i] == close && i == c->n - 1) {
		*pos = c->n;
		return (0);
	}
	return (-1);
}

/* Starts a walk (*pos == 0) or checks one is still going. Returns 1 when an
 * item follows, 0 at the end, -1 on bad syntax. */
static int
jscan_walk(const struct jscan_val *c, size_t *pos, char open, char close)
{
	size_t	i;

	if (c->n < 2 || c->p[0] != open)
		return (-1);
	if ((*pos & JSCAN_ENDED) != 0 || *pos >= c->n)
		return (0);
	if (*pos == 0) {
		i = jscan_ws(c->p, c->n, 1);
		if (i < c->n && c->p[i] == close && c->lazy) {
			*pos = (i + 1) | JSCAN_ENDED;
			return (0);
		}
		if (i < c->n && c->p[i] == close) {
			if (i != c->n - 1)
				return (-1);
			*pos = c->n;
			return (0);
		}
		*pos = 1;
	}
	return (1);
}

/* A value at *pos of c and the separator after it; with lazy, an array or
 * an object is handed over unmeasured instead, *pos left at its start. */
static int
jscan_item_value(const struct jscan_val *c, size_t *pos, struct jscan_val *v,
    bool lazy)
{
	size_t	i = jscan_ws(c->p, c->n, *pos);

	if (!lazy || i >= c->n || (c->p[i] != '{' && c->p[i] != '[')) {
		if (jscan_value(c->p, c->n, pos, v) == -1)
			return (-1);
		return (jscan_next_sep(c, pos, c->type == JSCAN_OBJECT ? '}' :
		    ']'));
	}
	v->type = c->p[i] == '{' ? JSCAN_OBJECT : JSCAN_ARRAY;
	v->p = c->p + i;
	v->n = c->n - i;
	v->lazy = true;
	*pos = i;
	return (0);
}

static int
jscan_member_at(const struct jscan_val *obj, size_t *pos,
    struct jscan_val *key, struct jscan_val *val, bool lazy)
{
	size_t	i;
	int	r;

	if (obj->type != JSCAN_OBJECT)
		return (-1);
	if ((r = jscan_walk(obj, pos, '{', '}')) != 1)
		return (r);
	if (jscan_value(obj->p, obj->n, pos, key) == -1 ||
	    key->type != JSCAN_STRING)
		return (-1);
	i = jscan_ws(obj->p, obj->n, *pos);
	if (i >= obj->n || obj->p[i] != ':')
		return (-1);
	*pos = i + 1;
	if (jscan_item_value(obj, pos, val, lazy) == -1)
		return (-1);
	return (1);
}

static int
jscan_element_at(const struct jscan_val *arr, size_t *pos,
    struct jscan_val *val, bool lazy)
{
	int	r;

	if (arr->type != JSCAN_ARRAY)
		return (-1);
	if ((r = jscan_walk(arr, pos, '[', ']')) != 1)
		return (r);
	if (jscan_item_value(arr, pos, val, lazy) == -1)
		return (-1);
	return (1);
}

int
jscan_member(const struct jscan_val *obj, size_t *pos, struct jscan_val *key,
    struct jscan_val *val)
{
	return (jscan_member_at(obj, pos, key, val, false));
}

int
jscan_element(const struct jscan_val *arr, size_t *pos, struct jscan_val *val)
{
	return (jscan_element_at(arr, pos, val, false));
}

int
jscan_member_lazy(const struct jscan_val *obj, size_t *pos,
    struct jscan_val *key, struct jscan_val *val)
{
	return (jscan_member_at(obj, pos, key, val, true));
}

int
jscan_element_lazy(const struct jscan_val *arr, size_t *pos,
    struct jscan_val *val)
{
	return (jscan_element_at(arr, pos, val, true));
}

int
jscan_elements(struct jscan_val *arr, struct jscan_val *vals, size_t max,
    size_t *n)
{
	const char	*b = arr->p;
	size_t		 len = arr->n, i, k = 0;

	if (arr->type != JSCAN_ARRAY || len < 2 || b[0] != '[')
		return (-1);
	i = jscan_ws(b, len, 1);
	if (i < len && b[i] == ']')
		goto end;
	for (;;) {
		if (k == max || jscan_value_at(b, len, &i, &vals[k++]) == -1)
			return (-1);
		i = jscan_ws(b, len, i);
		if (i >= len)
			return (-1);
		if (b[i] == ']')
			break;
		if (b[i] != ',')
			return (-1);
		i++;
	}
end:
	if (i >= len)
		return (-1);
	if (arr->lazy) {
		arr->n = (uint32_t)(i + 1);
		arr->lazy = false;
	} else if (i != len - 1)
		return (-1);
	*n = k;
	return (0);
}

void
jscan_close(struct jscan_val *c, size_t pos)
{
	if (!c->lazy || (pos & JSCAN_ENDED) == 0)
		return;
	c->n = pos & ~JSCAN_ENDED;
	c->lazy = false;
}

int
jscan_resume(const struct jscan_val *parent, size_t *ppos,
    const struct jscan_val *child)
{
	size_t	start, end;

	if (!child->lazy && (child->type != JSCAN_OBJECT &&
	    child->type != JSCAN_ARRAY))
		return (0);
	start = (size_t)(child->p - parent->p);
	if (child->p < parent->p || start != *ppos)
		return (child->lazy ? -1 : 0);
	if (!child->lazy)
		end = start + child->n;
	else if ((end = jscan_skip_container(parent->p, parent->n, start)) ==
	    0)
		return (-1);
	*ppos = end;
	return (jscan_next_sep(parent, ppos, parent->type == JSCAN_OBJECT ?
	    '}' : ']'));
}

int
jscan_get(const struct jscan_val *obj, const char *key, struct jscan_val *val)
{
	struct jscan_val	k;
	size_t			pos = 0;
	int			r;

	while ((r = jscan_member(obj, &pos, &k, val)) == 1) {
		if (jscan_key_is(&k, key))
			return (0);
	}
	val->type = JSCAN_NONE;
	return (-1);
}

static size_t
jscan_put(char *out, size_t outlen, size_t n, const char *s, size_t k)
{
	size_t	i;

	for (i = 0; i < k; i++, n++) {
		if (n + 1 < outlen)
			out[n] = s[i];
	}
	return (n);
}

size_t
jscan_string(const struct jscan_val *v, char *out, size_t outlen)
{
	const char		*p = v->p, *end = v->p + v->n;
	size_t			 n = 0, k;
	uint32_t		 cp;
	enum jlex_escape	 what;
	char			 u[4];

	if (v->type == JSCAN_NONE) {
		if (outlen > 0)
			out[0] = '\0';
		return (0);
	}
	if (v->type != JSCAN_STRING) {
		n = jscan_put(out, outlen, 0, v->p, v->n);
		if (outlen > 0)
			out[n < outlen ? n : outlen - 1] = '\0';
		return (n);
	}
	while (p < end) {
		if (*p != '\\') {
			const char *q = memchr(p, '\\', (size_t)(end - p));

			if (q == NULL)
				q = end;
			n = jscan_put(out, outlen, n, p, (size_t)(q - p));
			p = q;
			continue;
		}
		/* An escape: lenient, as a listing is printed whatever it
		 * holds (a malformed one stands for U+FFFD or its letter). */
		if ((k = jlex_escape(p, (size_t)(end - p), &cp, &what)) == 0)
			break;
		if (what == JLEX_ESC_LETTER)
			n = jscan_put(out, outlen, n, p + 1, 1);
		else
			n = jscan_put(out, outlen, n, u, jlex_utf8_put(cp, u));
		p += k;
	}
	if (outlen > 0)
		out[n < outlen ? n : outlen - 1] = '\0';
	return (n);
}

int
jscan_int(const struct jscan_val *v, long long *out)
{
	const char		*p = v->p, *end = v->p + v->n;
	unsigned long long	 x = 0, lim;
	bool			 neg;

	/* By hand rather than strtoll: a million jobs' listing reads
	 * several integers of each, and this is most of their cost. */
	if (v->type != JSCAN_NUMBER || v->n == 0)
		return (-1);
	if ((neg = *p == '-'))
		p++;
	if (p == end)
		return (-1);
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return (-1);
		if (x > (lim - (unsigned)(*p - '0')) / 10)
			return (-1);
		x = x * 10 + (unsigned)(*p - '0');
	}
	*out = neg ? (long long)(0 - x) : (long long)x;
	return (0);
}

bool
jscan_true(const struct jscan_val *v)
{
	return (v->type == JSCAN_BOOL && v->n == 4);
}
