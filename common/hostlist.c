/* hostlist.c: Slurm's node lists expanded (hostlist.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hostlist.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

static const char hostlist_forms[] = "give node names joined by ',', "
    "each with at most one range list in brackets, e.g. n1,n2 or "
    "gpu[01-04,07]";

struct hostlist {
	char	**v;
	size_t	  n, size;
};

static void
hostlist_bad(const char *what, const char *s, size_t len, char *err,
    size_t errlen)
{
	char	word[64], q[256];

	snprintf(word, sizeof word, "%.*s", (int)(len < 48 ? len : 48), s);
	snprintf(err, errlen, "\"%s\": %s; %s", safe_text_str(word, q,
	    sizeof q), what, hostlist_forms);
}

/* Adds name unless it is there already. Returns -1 past HOSTLIST_MAX. */
static int
hostlist_add(struct hostlist *h, const char *name)
{
	size_t	i;

	for (i = 0; i < h->n; i++) {
		if (strcmp(h->v[i], name) == 0)
			return (0);
	}
	if (h->n == HOSTLIST_MAX)
		return (-1);
	if (h->n == h->size) {
		h->size = h->size != 0 ? h->size * 2 : 16;
		h->v = xreallocarray(h->v, h->size, sizeof *h->v);
	}
	h->v[h->n++] = xstrdup(name);
	return (0);
}

static int
hostlist_name_char(int c)
{
	return (isalnum(c) || c == '-' || c == '_' || c == '.');
}

/* One name, len bytes at s: "n1" or "pre[1-3,5]post". */
static int
hostlist_one(struct hostlist *h, const char *s, size_t len, char *err,
    size_t errlen)
{
	const char	*lb, *rb, *p, *q, *e;
	char		 name[512];
	unsigned long	 a, b, v;
	int		 width, plen;
	size_t		 i;

	/* The caller split at the ',' outside brackets. */
	lb = memchr(s, '[', len);
	for (i = 0; i < len; i++) {
		if (!hostlist_name_char((unsigned char)s[i]) && s[i] != '[' &&
		    s[i] != ']' && s[i] != ',')
			goto bad_char;
	}
	if (len == 0 || len >= sizeof name - 16) {
		hostlist_bad(len == 0 ? "an empty name" : "too long", s, len,
		    err, errlen);
		return (-1);
	}
	if (lb == NULL) {
		if (memchr(s, ']', len) != NULL)
			goto bad_bracket;
		snprintf(name, sizeof name, "%.*s", (int)len, s);
		return (hostlist_add(h, name) == 0 ? 0 : -2);
	}
	if ((rb = memchr(lb, ']', len - (size_t)(lb - s))) == NULL ||
	    memchr(rb + 1, '[', len - (size_t)(rb + 1 - s)) != NULL ||
	    memchr(rb + 1, ']', len - (size_t)(rb + 1 - s)) != NULL ||
	    rb == lb + 1)
		goto bad_bracket;
	plen = (int)(lb - s);
	for (p = lb + 1; p < rb; p = q + 1) {
		for (q = p; q < rb && *q != ','; q++)
			;
		if (q == p || !isdigit((unsigned char)*p))
			goto bad_range;
		a = strtoul(p, (char **)&e, 10);
		width = (int)(e - p);
		b = a;
		if (e < q && *e == '-') {
			if (!isdigit((unsigned char)e[1]))
				goto bad_range;
			b = strtoul(e + 1, (char **)&e, 10);
		}
		if (e != q || b < a)
			goto bad_range;
		if (b - a >= HOSTLIST_MAX)
			return (-2);
		for (v = a; v <= b; v++) {
			snprintf(name, sizeof name, "%.*s%0*lu%.*s", plen, s,
			    *p == '0' ? width : 1, v,
			    (int)(len - (size_t)(rb + 1 - s)), rb + 1);
			if (hostlist_add(h, name) != 0)
				return (-2);
		}
	}
	return (0);
bad_char:
	hostlist_bad("a node name is letters, digits, '-', '_' or '.'", s,
	    len, err, errlen);
	return (-1);
bad_bracket:
	hostlist_bad("one range list in brackets per name", s, len, err,
	    errlen);
	return (-1);
bad_range:
	hostlist_bad("expected numbers and ranges N-M (M >= N) in the "
	    "brackets", s, len, err, errlen);
	return (-1);
}

int
hostlist_expand(const char *s, char ***names, size_t *n, char *err,
    size_t errlen)
{
	struct hostlist	 h = { NULL, 0, 0 };
	const char	*p, *q;
	int		 depth, r;

	*names = NULL;
	*n = 0;
	if (*s == '\0') {
		snprintf(err, errlen, "empty; %s", hostlist_forms);
		return (-1);
	}
	for (p = s;; p = q + 1) {
		/* A ',' inside brackets separates ranges, not names. */
		for (q = p, depth = 0; *q != '\0' && (*q != ',' || depth > 0);
		    q++)
			depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
		if ((r = hostlist_one(&h, p, (size_t)(q - p), err,
		    errlen)) != 0) {
			if (r == -2)
				snprintf(err, errlen, "more than %d node "
				    "names", HOSTLIST_MAX);
			hostlist_free(h.v, h.n);
			return (-1);
		}
		if (*q == '\0')
			break;
	}
	*names = h.v;
	*n = h.n;
	return (0);
}

void
hostlist_free(char **names, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* A name as a prefix and a trailing number: the number's digits start at
 * digits (len when there are none) and count ndigits. */
struct hostlist_key {
	const char	*name;
	size_t		 digits;
	size_t		 ndigits;
	unsigned long	 num;
	bool		 padded;	/* the number starts with a 0 */
	/* The width its group writes numbers in: ndigits where it or a
	 * name of the same prefix and width is zero-padded, else 0. */
	size_t		 width;
};

static void
hostlist_key(const char *name, struct hostlist_key *k)
{
	size_t	len = strlen(name), i = len;

	while (i > 0 && isdigit((unsigned char)name[i - 1]) && len - i < 9)
		i--;
	k->name = name;
	k->digits = i;
	k->ndigits = len - i;
	k->num = k->ndigits > 0 ? strtoul(name + i, NULL, 10) : 0;
	k->padded = k->ndigits > 1 && name[i] == '0';
}

/* Whether a and b go in one range list: the same prefix, both numbered,
 * and numbers written alike (the same padded width, or neither padded). */
static bool
hostlist_same_group(const struct hostlist_key *a, const struct hostlist_key *b)
{
	return (a->ndigits > 0 && b->ndigits > 0 && a->digits == b->digits &&
	    strncmp(a->name, b->name, a->digits) == 0 && a->width == b->width);
}

static int
hostlist_key_cmp(const void *x, const void *y)
{
	const struct hostlist_key	*a = x, *b = y;
	size_t				 n = a->digits < b->digits ?
					    a->digits : b->digits;
	int				 c;

	if ((c = strncmp(a->name, b->name, n)) != 0 || a->digits != b->digits)
		return (c != 0 ? c : a->digits < b->digits ? -1 : 1);
	if (a->width != b->width)
		return (a->width < b->width ? -1 : 1);
	if (a->num != b->num)
		return (a->num < b->num ? -1 : 1);
	return (a->ndigits < b->ndigits ? -1 : a->ndigits > b->ndigits);
}

/* Appends s (len bytes) to *out (size *cap, used *len). */
static void
hostlist_put(char **out, size_t *used, size_t *cap, const char *s, size_t len)
{
	while (*used + len + 1 > *cap) {
		*cap = *cap * 2 + 64;
		*out = xrealloc(*out, *cap);
	}
	memcpy(*out + *used, s, len);
	*used += len;
	(*out)[*used] = '\0';
}

char *
hostlist_compress(char *const *names, size_t n)
{
	struct hostlist_key	*k;
	char			*out = NULL, num[48];
	size_t			 used = 0, cap = 0, i, j, r, width;

	hostlist_put(&out, &used, &cap, "", 0);
	k = xcalloc(n + 1, sizeof *k);
	for (i = 0; i < n; i++)
		hostlist_key(names[i], &k[i]);
	/* gpu01 pads gpu10 too: one width for a prefix and digit count
	 * where any of them has a leading zero. */
	for (i = 0; i < n; i++) {
		for (j = 0; j < n && k[i].ndigits > 0 && k[i].width == 0; j++) {
			if (k[j].padded && k[j].ndigits == k[i].ndigits &&
			    k[j].digits == k[i].digits && strncmp(k[i].name,
			    k[j].name, k[i].digits) == 0)
				k[i].width = k[i].ndigits;
		}
	}
	qsort(k, n, sizeof *k, hostlist_key_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && hostlist_same_group(&k[i], &k[j]); j++)
			continue;
		if (i > 0)
			hostlist_put(&out, &used, &cap, ",", 1);
		if (j - i == 1) {
			hostlist_put(&out, &used, &cap, k[i].name,
			    strlen(k[i].name));
			continue;
		}
		width = k[i].width;
		hostlist_put(&out, &used, &cap, k[i].name, k[i].digits);
		hostlist_put(&out, &used, &cap, "[", 1);
		for (r = i; r < j; r = r + 1) {
			size_t	e = r;

			/* A run of consecutive numbers, r to e. */
			while (e + 1 < j && k[e + 1].num == k[e].num + 1)
				e++;
			snprintf(num, sizeof num, "%s%0*lu", r > i ? "," : "",
			    (int)width, k[r].num);
			hostlist_put(&out, &used, &cap, num, strlen(num));
			if (e > r) {
				snprintf(num, sizeof num, "-%0*lu", (int)width,
				    k[e].num);
				hostlist_put(&out, &used, &cap, num,
				    strlen(num));
			}
			r = e;
		}
		hostlist_put(&out, &used, &cap, "]", 1);
	}
	free(k);
	return (out);
}
