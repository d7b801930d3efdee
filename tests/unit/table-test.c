/* table-test.c: field selection, widths, alignment, empty cells and the
 * control characters a job name could carry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/table.h"
#include "tests/unit/tap.h"

struct row {
	const char	*a, *b;
};

static const char *
get_a(const void *r, const void *ctx, char *buf, size_t len)
{
	return (((const struct row *)r)->a);
}

static const char *
get_b(const void *r, const void *ctx, char *buf, size_t len)
{
	return (((const struct row *)r)->b);
}

static const struct table_col cols[] = {
	{ "name", "NAME", false, get_a },
	{ "num", "NUM", true, get_b },
};

static char *
render(struct table *t, bool header)
{
	char	*out = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&out, &len);

	table_print(t, f, header);
	fclose(f);
	return (out);
}

int
main(void)
{
	struct table	*t;
	struct row	 r1 = { "alpha", "7" }, r2 = { "b", "1234" };
	struct row	 r3 = { "x\ty\x1b", "" };
	struct row	 r4 = { "\x1b]0;t\x07\xc2\x9b" "2J\xff\n\xc3\xa9", "7" };
	char		*out, err[256];

	t = table_create(cols, 2, "name,num");
	table_add(t, &r1, NULL);
	table_add(t, &r2, NULL);
	out = render(t, true);
	is_str(out, "NAME    NUM\nalpha     7\nb      1234\n",
	    "widths fit the widest cell, numbers right, no trailing blanks");
	free(out);
	table_free(t);
	t = table_create(cols, 2, "name,num");
	table_add(t, &r1, NULL);
	table_add(t, &r2, NULL);
	out = render(t, false);
	is_str(out, "alpha     7\nb      1234\n", "no header");
	free(out);
	table_free(t);

	t = table_create(cols, 2, "num,name");
	table_add(t, &r3, NULL);
	out = render(t, false);
	is_str(out, "-  x\\ty\\e\n", "empty cell prints -, control chars "
	    "escaped, widths without a header fit the cells");
	free(out);
	is_int(table_select(t, "name:3", err, sizeof err), 0, "width");
	table_free(t);

	t = table_create(cols, 2, "name,num");
	table_add(t, &r4, NULL);
	table_add(t, &r2, NULL);
	out = render(t, true);
	is_str(out, "NAME                        NUM\n"
	    "\\e]0;t\\x07\\u009b2J\\xff\\n\xc3\xa9     7\n"
	    "b                          1234\n",
	    "columns are as wide as the escaped cells, UTF-8 kept");
	free(out);
	table_free(t);

	t = table_create(cols, 2, "name:3");
	table_add(t, &r1, NULL);
	out = render(t, true);
	is_str(out, "NAM\nalp\n", "a fixed width cuts");
	free(out);
	is_int(table_select(t, "bogus", err, sizeof err), -1, "unknown field");
	is_str(err, "unknown field \"bogus\"; accepted: name, num",
	    "lists the accepted fields");
	is_int(table_select(t, "name:0", err, sizeof err), -1, "width 0");
	is_int(table_select(t, "name:x", err, sizeof err), -1, "width x");
	is_int(table_select(t, "", err, sizeof err), -1, "empty format");
	is_int(table_select(t, "NAME", err, sizeof err), 0,
	    "field names in any case");
	table_free(t);
	return (tap_done());
}
