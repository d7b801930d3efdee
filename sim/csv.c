/* csv.c: a small reader for the CSV files gsim takes; see csv.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "sim/csv.h"

/* Splits buf (one line, its newline gone) into fields in place. Returns
 * 0, or -1 when a quote is left open. */
static int
csv_split(struct csv *c)
{
	char	*r = c->buf, *w, *start, *end;
	int	 quoted;

	c->nfields = 0;
	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (c->nfields == c->fieldsize) {
			c->fieldsize = c->fieldsize != 0 ? c->fieldsize * 2 : 16;
			c->fields = xreallocarray(c->fields, c->fieldsize,
			    sizeof *c->fields);
		}
		start = w = r;
		quoted = (*r == '"');
		if (quoted) {
			r++;
			for (;;) {
				if (*r == '\0')
					return (-1);
				if (*r == '"' && r[1] == '"') {
					*w++ = '"';
					r += 2;
				} else if (*r == '"') {
					r++;
					break;
				} else
					*w++ = *r++;
			}
			while (*r == ' ' || *r == '\t')
				r++;
			end = w;
		} else {
			while (*r != ',' && *r != '\0')
				r++;
			end = r;
			while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
		}
		c->fields[c->nfields++] = start;
		if (*r != ',') {
			*end = '\0';
			return (*r == '\0' ? 0 : -1);
		}
		r++;
		*end = '\0';
	}
}

/* Reads the next line that is not blank into buf and splits it: 1, 0 at
 * the end, -1 with the reason. */
static int
csv_read(struct csv *c, char *err, size_t errlen)
{
	ssize_t	 n;
	char	*p;

	for (;;) {
		errno = 0;
		n = getline(&c->buf, &c->bufsize, c->fp);
		if (n < 0) {
			if (ferror(c->fp)) {
				snprintf(err, errlen, "%s: %s", c->path,
				    strerror(errno != 0 ? errno : EIO));
				return (-1);
			}
			return (0);
		}
		c->line++;
		if (c->line == 1 && strncmp(c->buf, "\xef\xbb\xbf", 3) == 0) {
			memmove(c->buf, c->buf + 3, (size_t)n - 2);
			n -= 3;
		}
		while (n > 0 && (c->buf[n - 1] == '\n' ||
		    c->buf[n - 1] == '\r'))
			c->buf[--n] = '\0';
		if (strlen(c->buf) != (size_t)n) {
			snprintf(err, errlen, "%s:%u: a NUL byte; expected "
			    "text", c->path, c->line);
			return (-1);
		}
		for (p = c->buf; *p == ' ' || *p == '\t'; p++)
			;
		if (*p != '\0')
			break;
	}
	if (csv_split(c) != 0) {
		snprintf(err, errlen, "%s:%u: a quoted field is not closed "
		    "(or text follows its closing quote)", c->path, c->line);
		return (-1);
	}
	return (1);
}

int
csv_open(struct csv *c, const char *path, char *err, size_t errlen)
{
	size_t	i;
	int	r;

	memset(c, 0, sizeof *c);
	c->path = path;
	if ((c->fp = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if ((r = csv_read(c, err, errlen)) <= 0) {
		if (r == 0)
			snprintf(err, errlen, "%s: empty; expected a header "
			    "line naming the columns", path);
		csv_close(c);
		return (-1);
	}
	c->nnames = c->nfields;
	c->names = xcalloc(c->nnames, sizeof *c->names);
	for (i = 0; i < c->nnames; i++)
		c->names[i] = xstrdup(c->fields[i]);
	return (0);
}

void
csv_close(struct csv *c)
{
	size_t	i;

	if (c->fp != NULL)
		fclose(c->fp);
	for (i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
	free(c->fields);
	free(c->buf);
	memset(c, 0, sizeof *c);
}

int
csv_column(const struct csv *c, const char *const *names)
{
	size_t	i, j;

	for (j = 0; names[j] != NULL; j++) {
		for (i = 0; i < c->nnames; i++) {
			if (strcasecmp(c->names[i], names[j]) == 0)
				return ((int)i);
		}
	}
	return (-1);
}

char *
csv_header(const struct csv *c)
{
	char	*s, *t;
	size_t	 i;

	s = xstrdup("");
	for (i = 0; i < c->nnames; i++) {
		t = xasprintf("%s%s%s", s, i > 0 ? ", " : "", c->names[i]);
		free(s);
		s = t;
	}
	return (s);
}

int
csv_next(struct csv *c, char *err, size_t errlen)
{
	int	r;

	if ((r = csv_read(c, err, errlen)) <= 0)
		return (r);
	if (c->nfields != c->nnames) {
		snprintf(err, errlen, "%s:%u: %zu fields; the header names %zu "
		    "columns", c->path, c->line, c->nfields, c->nnames);
		return (-1);
	}
	return (1);
}

const char *
csv_field(const struct csv *c, int col)
{
	return (c->fields[col]);
}

int
csv_seconds(const struct csv *c, int col, const char *colname, int positive,
    int64_t *ms, char *err, size_t errlen)
{
	const char	*s = c->fields[col];
	char		*end;
	double		 v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < 0 || v > 1e12 || (positive && llround(v * 1000) <= 0)) {
		snprintf(err, errlen, "%s:%u: %s \"%s\": expected %s number of "
		    "seconds (fractions allowed)", c->path, c->line, colname, s,
		    positive ? "a positive" : "a non-negative");
		return (-1);
	}
	*ms = (int64_t)llround(v * 1000);
	return (0);
}

int
csv_uint(const struct csv *c, int col, const char *colname, uint64_t min,
    uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const char		*s = c->fields[col];
	char			*end;
	unsigned long long	 v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end != '\0' || errno != 0 ||
	    v < min || v > max) {
		snprintf(err, errlen, "%s:%u: %s \"%s\": expected a whole "
		    "number from %llu to %llu", c->path, c->line, colname, s,
		    (unsigned long long)min, (unsigned long long)max);
		return (-1);
	}
	*out = v;
	return (0);
}
