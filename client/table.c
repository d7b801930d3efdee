/* table.c: field selection, column widths and row printing in the four
 * formats of table.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "client/table.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

/* Wider than any terminal; a width beyond it is a typo. */
#define TABLE_MAX_WIDTH	1000
#define TABLE_MAX_SEL	64

struct table_sel {
	const struct table_col	*col;
	size_t			 fixed;		/* 0: size to content */
	size_t			 width;		/* widest cell seen */
	size_t			 hwidth;	/* the header's width */
};

struct table_cell {
	uint32_t	off;
	uint32_t	len;
	uint32_t	width;		/* display width */
};

/* A line of an aligned table, built before it is handed over. */
struct table_line {
	char	*s;
	size_t	 len;
	size_t	 size;
};

struct table {
	const struct table_col	*cols;
	size_t			 ncols;
	struct table_sel	 sel[TABLE_MAX_SEL];
	size_t			 nsel;

	enum table_format	 format;
	FILE			*out;
	bool			 header;
	bool			 tty;		/* CSV: out is a terminal */
	bool			 started;	/* streamed: header line done */
	bool			 ended;		/* table_end() was called */
	bool			 flushed;	/* aligned: table_flush() was
						 * called; rows print as added */

	/* Aligned: every cell, back to back. Streamed: the line being
	 * written, so a row leaves in one fwrite. */
	char			*text;
	size_t			 textlen;
	size_t			 textsize;
	struct table_cell	*cells;		/* nrows x nsel */
	size_t			 nrows;
	size_t			 rowsize;	/* rows room in cells */

	char			*esc;		/* a cell escaped: table_safe */
	size_t			 escsize;
	struct table_line	 line;		/* aligned and flushed: a row */
	table_span_fn		 span;		/* or NULL */
	table_raw_fn		 raw;		/* CSV: or NULL */
};

struct table *
table_create(const struct table_col *cols, size_t ncols, const char *defaults)
{
	struct table	*t;
	char		 err[256];

	t = xcalloc(1, sizeof *t);
	t->cols = cols;
	t->ncols = ncols;
	t->format = TABLE_ALIGNED;
	t->out = stdout;
	t->header = true;
	t->textsize = 65536;
	t->text = xmalloc(t->textsize);
	if (table_select(t, defaults, err, sizeof err) == -1) {
		/* The defaults are ours: a bad one is a programmer error. */
		fprintf(stderr, "table: bad default fields: %s\n", err);
		abort();
	}
	return (t);
}

void
table_free(struct table *t)
{
	if (t == NULL)
		return;
	free(t->text);
	free(t->cells);
	free(t->line.s);
	free(t->esc);
	free(t);
}

char *
table_field_names(const struct table_col *cols, size_t ncols)
{
	size_t	 i, len = 1;
	char	*s;

	for (i = 0; i < ncols; i++)
		len += strlen(cols[i].name) + 2;
	s = xmalloc(len);
	*s = '\0';
	for (i = 0; i < ncols; i++) {
		if (i > 0)
			strcat(s, ", ");
		strcat(s, cols[i].name);
	}
	return (s);
}

/* Display width of UTF-8 text: one column per code point. */
static size_t
table_width(const char *s, size_t len)
{
	size_t	i, w = 0;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	}
	return (w);
}

/* Bytes of s (len bytes) that fit in width columns. */
static size_t
table_cut(const char *s, size_t len, size_t width)
{
	size_t	i, w = 0;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && w++ == width)
			return (i);
	}
	return (len);
}

int
table_select(struct table *t, const char *format, char *err, size_t errlen)
{
	struct table_sel	 sel[TABLE_MAX_SEL];
	size_t			 nsel = 0, i, namelen;
	const char		*p = format, *end, *colon;
	char			*names, *e;
	unsigned long		 w;

	if (*format == '\0') {
		names = table_field_names(t->cols, t->ncols);
		snprintf(err, errlen, "no fields given; accepted: %s", names);
		free(names);
		return (-1);
	}
	for (;;) {
		end = strchr(p, ',');
		if (end == NULL)
			end = p + strlen(p);
		colon = memchr(p, ':', (size_t)(end - p));
		namelen = (size_t)((colon != NULL ? colon : end) - p);
		for (i = 0; i < t->ncols; i++) {
			if (strlen(t->cols[i].name) == namelen &&
			    strncasecmp(t->cols[i].name, p, namelen) == 0)
				break;
		}
		if (i == t->ncols) {
			names = table_field_names(t->cols, t->ncols);
			snprintf(err, errlen, "unknown field \"%.*s\"; accepted: "
			    "%s", (int)namelen, p, names);
			free(names);
			return (-1);
		}
		if (nsel == TABLE_MAX_SEL) {
			snprintf(err, errlen, "more than %d fields",
			    TABLE_MAX_SEL);
			return (-1);
		}
		sel[nsel].col = &t->cols[i];
		sel[nsel].fixed = 0;
		if (colon != NULL) {
			errno = 0;
			w = strtoul(colon + 1, &e, 10);
			if (colon + 1 == end || e != end || errno != 0 ||
			    w < 1 || w > TABLE_MAX_WIDTH || colon[1] == '-' ||
			    colon[1] == '+' || colon[1] == ' ') {
				snprintf(err, errlen, "field \"%.*s\": expected "
				    "a width from 1 to %d after ':', got "
				    "\"%.*s\"", (int)namelen, p, TABLE_MAX_WIDTH,
				    (int)(end - colon - 1), colon + 1);
				return (-1);
			}
			sel[nsel].fixed = w;
		}
		nsel++;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	for (i = 0; i < nsel; i++) {
		sel[i].width = sel[i].fixed;
		sel[i].hwidth = table_width(sel[i].col->header,
		    strlen(sel[i].col->header));
	}
	memcpy(t->sel, sel, nsel * sizeof sel[0]);
	t->nsel = nsel;
	return (0);
}

void
table_set_format(struct table *t, enum table_format format, FILE *out,
    bool header)
{
	if (t->nrows != 0 || t->started || t->ended) {
		/* Rows kept or written in one format cannot change. */
		fprintf(stderr, "table: format set after the first row\n");
		abort();
	}
	t->format = format;
	t->out = out;
	t->header = header;
	t->tty = format == TABLE_CSV && isatty(fileno(out));
}

/* Makes room for n more bytes (and a NUL) at the end of the arena. */
static void
table_reserve(struct table *t, size_t n)
{
	if (t->textlen + n + 1 > t->textsize) {
		while (t->textlen + n + 1 > t->textsize)
			t->textsize *= 2;
		t->text = xrealloc(t->text, t->textsize);
	}
}

static bool	table_is_plain(const char *, size_t, const char *);

/* s (len bytes) made safe for a terminal (safe-text.h): s itself when it
 * is printable ASCII, as most cells are, else its escaped form in t->esc;
 * *len becomes the length of what is returned. A job name cannot move the
 * cursor, and widths are counted on what is printed. */
static const char *
table_safe(struct table *t, const char *s, size_t *len)
{
	size_t	need;

	if (table_is_plain(s, *len, NULL))
		return (s);
	need = safe_text_len(s, *len) + 1;
	if (need > t->escsize) {
		t->escsize = need;
		t->esc = xrealloc(t->esc, need);
	}
	safe_text(s, *len, t->esc, need);
	*len = need - 1;
	return (t->esc);
}

/* An aligned cell of column i: v made safe and cut to the column's fixed
 * width. Returns its bytes, *len of them, and sets *w, its display width
 * (one column a byte for plain ASCII). */
static const char *
table_fit(struct table *t, size_t i, const char *v, size_t *len, size_t *w)
{
	size_t		 fixed = t->sel[i].fixed;
	const char	*s = table_safe(t, v, len);

	if (s == v) {
		if (fixed != 0 && *len > fixed)
			*len = fixed;
		*w = *len;
		return (s);
	}
	if (fixed != 0)
		*len = table_cut(s, *len, fixed);
	*w = table_width(s, *len);
	return (s);
}

void
table_set_span(struct table *t, table_span_fn span)
{
	t->span = span;
}

void
table_set_raw(struct table *t, table_raw_fn raw)
{
	t->raw = raw;
}

/* Cell i of row: its bytes and length, through span where it answers,
 * else get (into buf); an empty cell is "-", so every row has every
 * column and awk's $N still finds the field. */
static const char *
table_cell(struct table *t, size_t i, const void *row, const void *ctx,
    char *buf, size_t size, size_t *len)
{
	const struct table_col	*col = t->sel[i].col;
	const char		*v;

	if (t->span != NULL && (*len = t->span(row, col, &v)) != (size_t)-1) {
		if (*len == 0) {
			*len = 1;
			return ("-");
		}
		return (v);
	}
	buf[0] = '\0';
	v = col->get(row, ctx, buf, size);
	if (v == NULL || *v == '\0')
		v = "-";
	*len = strlen(v);
	return (v);
}

/* Keeps one row of an aligned table, its cells escaped. */
static void
table_add_aligned(struct table *t, const void *row, const void *ctx)
{
	struct table_cell	*cell;
	struct table_sel	*s;
	const char		*v;
	char			 buf[8192];
	size_t			 i, len, w;

	if (t->nrows == t->rowsize) {
		t->rowsize = t->rowsize == 0 ? 256 : t->rowsize * 2;
		t->cells = xreallocarray(t->cells, t->rowsize * t->nsel,
		    sizeof *t->cells);
	}
	cell = &t->cells[t->nrows * t->nsel];
	for (i = 0; i < t->nsel; i++) {
		s = &t->sel[i];
		v = table_cell(t, i, row, ctx, buf, sizeof buf, &len);
		/* The arena holds offsets in 32 bits; a cell cannot reach
		 * that, and a listing that large is cut rather than wrapped. */
		if (t->textlen + SAFE_TEXT_MAX_ESC * len >= UINT32_MAX)
			len = 0;
		v = table_fit(t, i, v, &len, &w);
		table_reserve(t, len);
		memcpy(t->text + t->textlen, v, len);
		cell[i].off = (uint32_t)t->textlen;
		cell[i].len = (uint32_t)len;
		cell[i].width = (uint32_t)w;
		t->textlen += len;
		if (s->fixed == 0 && w > s->width)
			s->width = w;
	}
	t->nrows++;
}

/* Makes room in the line for n more bytes and a NUL. */
static void
table_line_reserve(struct table_line *l, size_t n)
{
	if (l->len + n + 1 > l->size) {
		while (l->len + n + 1 > l->size)
			l->size = l->size != 0 ? l->size * 2 : 256;
		l->s = xrealloc(l->s, l->size);
	}
}

/* Appends cell i (width w), padded to its column's width, after two
 * spaces unless it is the first; the last column is not padded on the
 * right, and a column alone not at all: `gq -h -o id` gives ids a
 * script takes as they are, as squeue -h -o %i does. */
static void
table_line_cell(struct table *t, struct table_line *l, size_t i,
    const char *s, size_t len, size_t w)
{
	struct table_sel	*sel = &t->sel[i];
	size_t			 pad = sel->width > w ? sel->width - w : 0;
	char			*p;

	if (t->nsel == 1 || (!sel->col->right && i == t->nsel - 1))
		pad = 0;
	table_line_reserve(l, 2 + len + pad);
	p = l->s + l->len;
	if (i > 0) {
		*p++ = ' ';
		*p++ = ' ';
	}
	if (sel->col->right) {
		memset(p, ' ', pad);
		memcpy(p + pad, s, len);
	} else {
		memcpy(p, s, len);
		memset(p + len, ' ', pad);
	}
	p += len + pad;
	*p = '\0';
	l->len = (size_t)(p - l->s);
}

/* A kept row's line: its cells at their columns' widths. */
static void
table_render_row(struct table *t, struct table_line *l,
    const struct table_cell *cell)
{
	size_t	i;

	for (i = 0; i < t->nsel; i++)
		table_line_cell(t, l, i, t->text + cell[i].off, cell[i].len,
		    cell[i].width);
}

/* A row of a flushed table: each cell straight into the line at its
 * column's width, the lines written out once they fill TABLE_OUT. */
#define TABLE_OUT	65536

static void
table_add_flushed(struct table *t, const void *row, const void *ctx)
{
	struct table_sel	*s;
	const char		*v;
	char			 buf[8192];
	size_t			 i, len, w;

	for (i = 0; i < t->nsel; i++) {
		s = &t->sel[i];
		v = table_cell(t, i, row, ctx, buf, sizeof buf, &len);
		v = table_fit(t, i, v, &len, &w);
		if (s->fixed == 0 && w > s->width)
			s->width = w;
		table_line_cell(t, &t->line, i, v, len, w);
	}
	table_line_reserve(&t->line, 1);
	t->line.s[t->line.len++] = '\n';
	if (t->line.len >= TABLE_OUT) {
		fwrite(t->line.s, 1, t->line.len, t->out);
		t->line.len = 0;
	}
}

/* Appends len bytes of s to the line. */
static void
table_put(struct table *t, const char *s, size_t len)
{
	table_reserve(t, len);
	memcpy(t->text + t->textlen, s, len);
	t->textlen += len;
}

/* Whether len bytes of s are printable ASCII without a byte of also: what
 * needs no escaping, checked so the common cell skips safe-text's walk. */
static bool
table_is_plain(const char *s, size_t len, const char *also)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i;

	for (i = 0; i < len; i++) {
		if (u[i] < 0x20 || u[i] >= 0x7f ||
		    (also != NULL && strchr(also, u[i]) != NULL))
			return (false);
	}
	return (true);
}

/* Appends s escaped by safe-text.h to the line. */
static void
table_put_safe(struct table *t, const char *s, size_t len)
{
	s = table_safe(t, s, &len);
	table_put(t, s, len);
}

/* PLAIN: escaped, "-" when empty, cut to a fixed width. */
static void
table_put_plain(struct table *t, const struct table_sel *sel, const char *s,
    size_t len)
{
	size_t	start = t->textlen;

	if (len == 0)
		table_put(t, "-", 1);
	else
		table_put_safe(t, s, len);
	if (sel->fixed != 0) {
		t->textlen = start + table_cut(t->text + start,
		    t->textlen - start, sel->fixed);
	}
}

/* PARSABLE: escaped, with '|' as "\x7c" and '\' as "\\" (table.h). Both
 * are ASCII, so cutting s at them never splits a UTF-8 character. */
static void
table_put_parsable(struct table *t, const char *s, size_t len)
{
	const char	*end = s + len, *p;

	if (table_is_plain(s, len, "|\\")) {
		table_put(t, s, len);
		return;
	}
	for (p = s; p < end; p++) {
		if (*p != '|' && *p != '\\')
			continue;
		table_put_safe(t, s, (size_t)(p - s));
		if (*p == '|')
			table_put(t, "\\x7c", 4);
		else
			table_put(t, "\\\\", 2);
		s = p + 1;
	}
	table_put_safe(t, s, (size_t)(end - s));
}

/* CSV (RFC 4180): quoted when needed, quotes doubled; raw, unless the
 * stream is a terminal. */
static void
table_put_csv(struct table *t, const char *s, size_t len)
{
	const char	*end, *q;

	if (t->tty)
		s = table_safe(t, s, &len);
	if (len == 0) {
		/* Alone on its line, an empty field would be a blank line,
		 * which readers (python's csv) take for no row at all. */
		if (t->nsel == 1)
			table_put(t, "\"\"", 2);
		return;
	}
	if (strcspn(s, ",\"\r\n") >= len && s[0] != ' ' && s[0] != '\t' &&
	    s[len - 1] != ' ' && s[len - 1] != '\t') {
		table_put(t, s, len);
		return;
	}
	end = s + len;
	table_put(t, "\"", 1);
	while ((q = memchr(s, '"', (size_t)(end - s))) != NULL) {
		table_put(t, s, (size_t)(q - s + 1));
		table_put(t, "\"", 1);
		s = q + 1;
	}
	table_put(t, s, (size_t)(end - s));
	table_put(t, "\"", 1);
}

/* Appends one cell of a streamed line, after the separator. */
static void
table_put_cell(struct table *t, size_t i, const char *s, size_t len)
{
	if (i > 0) {
		table_put(t, t->format == TABLE_PLAIN ? "\t" :
		    t->format == TABLE_PARSABLE ? "|" : ",", 1);
	}
	switch (t->format) {
	case TABLE_PLAIN:
		table_put_plain(t, &t->sel[i], s, len);
		break;
	case TABLE_PARSABLE:
		table_put_parsable(t, s, len);
		break;
	default:
		table_put_csv(t, s, len);
		break;
	}
}

/* Writes the line and starts the next. */
static void
table_put_line(struct table *t)
{
	if (t->format == TABLE_CSV)
		table_put(t, "\r\n", 2);
	else
		table_put(t, "\n", 1);
	fwrite(t->text, 1, t->textlen, t->out);
	t->textlen = 0;
}

/* A streamed table's header line, once, before the first row. */
static void
table_start(struct table *t)
{
	const char	*h;
	size_t		 i;

	if (t->started)
		return;
	t->started = true;
	t->textlen = 0;
	if (!t->header)
		return;
	for (i = 0; i < t->nsel; i++) {
		h = t->format == TABLE_PLAIN ? t->sel[i].col->header :
		    t->sel[i].col->name;
		table_put_cell(t, i, h, strlen(h));
	}
	table_put_line(t);
}

void
table_add(struct table *t, const void *row, const void *ctx)
{
	const char	*v;
	char		 buf[8192];
	size_t		 i;

	if (t->format == TABLE_ALIGNED) {
		if (t->flushed)
			table_add_flushed(t, row, ctx);
		else
			table_add_aligned(t, row, ctx);
		return;
	}
	table_start(t);
	for (i = 0; i < t->nsel; i++) {
		buf[0] = '\0';
		if (t->format != TABLE_CSV || t->raw == NULL ||
		    (v = t->raw(row, ctx, t->sel[i].col, buf,
		    sizeof buf)) == NULL)
			v = t->sel[i].col->get(row, ctx, buf, sizeof buf);
		if (v == NULL)
			v = "";
		table_put_cell(t, i, v, strlen(v));
	}
	table_put_line(t);
}

int
table_end(struct table *t)
{
	if (!t->ended) {
		t->ended = true;
		if (t->format == TABLE_ALIGNED)
			table_flush(t, t->out, t->header);
		else
			table_start(t);
	}
	if (fflush(t->out) != 0 || ferror(t->out))
		return (-1);
	return (0);
}

void
table_render(struct table *t, bool header, table_line_fn fn, void *arg)
{
	struct table_line	 l = { NULL, 0, 0 };
	const char		*h;
	size_t			 r, i, n;

	if (t->format != TABLE_ALIGNED) {
		/* A streamed table's rows are gone: table_end() it. */
		fprintf(stderr, "table: table_render on a streamed table\n");
		abort();
	}

	/* Without a header, columns fit their cells alone: "gq -h -o id"
	 * prints bare ids, ready for a script. The header went out with a
	 * flushed table's first rows. */
	if (t->flushed)
		header = false;
	for (i = 0; header && i < t->nsel; i++) {
		if (t->sel[i].fixed == 0 && t->sel[i].hwidth > t->sel[i].width)
			t->sel[i].width = t->sel[i].hwidth;
	}
	if (header) {
		for (i = 0; i < t->nsel; i++) {
			h = t->sel[i].col->header;
			n = table_cut(h, strlen(h), t->sel[i].width);
			table_line_cell(t, &l, i, h, n, table_width(h, n));
		}
		fn(arg, -1, l.s != NULL ? l.s : "", l.len);
	}
	for (r = 0; r < t->nrows; r++) {
		l.len = 0;
		table_render_row(t, &l, &t->cells[r * t->nsel]);
		fn(arg, (long)r, l.s != NULL ? l.s : "", l.len);
	}
	free(l.s);
}

static void
table_print_line(void *arg, long row, const char *s, size_t len)
{
	(void)row;
	fwrite(s, 1, len, arg);
	fputc('\n', arg);
}

void
table_print(struct table *t, FILE *f, bool header)
{
	table_render(t, header, table_print_line, f);
}

/* A rendered line into the table's output line, written out once it
 * holds TABLE_OUT: thousands of kept rows in a few large writes. */
static void
table_flush_line(void *arg, long row, const char *s, size_t len)
{
	struct table	*t = arg;

	(void)row;
	table_line_reserve(&t->line, len + 1);
	memcpy(t->line.s + t->line.len, s, len);
	t->line.len += len;
	t->line.s[t->line.len++] = '\n';
	if (t->line.len >= TABLE_OUT) {
		fwrite(t->line.s, 1, t->line.len, t->out);
		t->line.len = 0;
	}
}

void
table_flush(struct table *t, FILE *f, bool header)
{
	if (!t->flushed) {
		t->out = f;
		table_render(t, header, table_flush_line, t);
	}
	if (t->line.len > 0)
		fwrite(t->line.s, 1, t->line.len, t->out);
	t->line.len = 0;
	if (t->flushed)
		return;
	t->flushed = true;
	t->header = header;
	t->nrows = 0;
	t->textlen = 0;
}

void
table_clear(struct table *t)
{
	size_t	i;

	if (t->format != TABLE_ALIGNED)
		return;
	t->nrows = 0;
	t->textlen = 0;
	for (i = 0; i < t->nsel; i++)
		t->sel[i].width = t->sel[i].fixed;
}

size_t
table_nrows(const struct table *t)
{
	return (t->nrows);
}

size_t
table_nselected(const struct table *t)
{
	return (t->nsel);
}

const struct table_col *
table_selected(const struct table *t, size_t i)
{
	return (i < t->nsel ? t->sel[i].col : NULL);
}
