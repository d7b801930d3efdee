/* table-test.c: field selection, widths, alignment, empty cells and the
 * control characters a job name could carry, in each output format: exact
 * bytes for awkward cells, the header exactly once, CSV on a terminal,
 * random cells that must come back from PARSABLE (decoded here) and CSV
 * (read by python's csv module), and the time a million CSV rows take. */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

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

/* Awkward cells: a comma, quotes and a newline; a '|' and a backslash; ESC
 * and a TAB; an empty cell; spaces at the ends; UTF-8 and a byte that is
 * not UTF-8. */
static const struct row awkward[] = {
	{ "alpha", "7" },
	{ "a,b \"q\"\nc", "1|2\\3" },
	{ "x\x1b[2J\ty", "" },
	{ " lead", "trail " },
	{ "\xc3\xa9t\xc3\xa9", "\xff" },
};
#define NAWKWARD	(sizeof awkward / sizeof awkward[0])

/* Writes the first n awkward rows in format, as a command would, and
 * returns the bytes (the caller frees). */
static char *
stream(enum table_format format, const char *fields, bool header, size_t n,
    size_t *lenp)
{
	struct table	*t;
	char		*out = NULL;
	size_t		 len = 0, i;
	FILE		*f = open_memstream(&out, &len);

	t = table_create(cols, 2, fields);
	table_set_format(t, format, f, header);
	for (i = 0; i < n; i++)
		table_add(t, &awkward[i], NULL);
	if (table_end(t) != 0)
		ok(0, "table_end on a memory stream");
	table_free(t);
	fclose(f);
	if (lenp != NULL)
		*lenp = len;
	return (out);
}

/* Collects table_render's lines: "row:text|" each. */
static void
t_line(void *arg, long row, const char *s, size_t len)
{
	char	**acc = arg, *next;

	if (asprintf(&next, "%s%ld:%.*s|", *acc, row, (int)len, s) == -1)
		abort();
	free(*acc);
	*acc = next;
}

/* table_render gives the lines table_print writes, the header as row -1;
 * table_clear starts the next refresh with widths from its own rows. */
static void
t_render(void)
{
	struct table	*t = table_create(cols, 2, "name,num");
	struct row	 wide = { "a-long-name", "123456" }, narrow = { "b", "7" };
	char		*acc = strdup("");

	table_add(t, &wide, NULL);
	table_add(t, &narrow, NULL);
	table_render(t, true, t_line, &acc);
	is_str(acc, "-1:NAME            NUM|0:a-long-name  123456|"
	    "1:b                 7|", "render: the header and each row, as "
	    "printed");
	is_int((int)table_nrows(t), 2, "two rows");
	table_clear(t);
	is_int((int)table_nrows(t), 0, "cleared");
	table_add(t, &narrow, NULL);
	free(acc);
	acc = strdup("");
	table_render(t, false, t_line, &acc);
	is_str(acc, "0:b  7|", "after a clear, widths fit the new rows");
	free(acc);
	table_free(t);
}

/* table_flush prints the rows kept so far and then each row as it comes,
 * at the widths reached: a wider cell widens its column from its row on;
 * escaped and cut cells take the same way as kept ones. */
static void
t_flush(void)
{
	struct table	*t = table_create(cols, 2, "name,num");
	struct row	 first = { "ab", "1" }, same = { "cd", "22" };
	struct row	 wider = { "wider", "333" }, evil = { "e\x1b", "4" };
	struct row	 utf = { "\xc3\xa9t\xc3\xa9", "5" };
	char		*out = NULL, err[256];
	size_t		 len = 0;
	FILE		*f = open_memstream(&out, &len);

	table_add(t, &first, NULL);
	table_flush(t, f, true);
	is_int((int)table_nrows(t), 0, "flush: kept rows printed and dropped");
	table_add(t, &same, NULL);
	table_add(t, &wider, NULL);
	table_add(t, &evil, NULL);
	table_add(t, &utf, NULL);
	is_int(table_end(t), 0, "flush: table_end writes what is left");
	fclose(f);
	is_str(out, "NAME  NUM\nab      1\ncd     22\nwider  333\n"
	    "e\\e      4\n\xc3\xa9t\xc3\xa9      5\n",
	    "flush: header and first row sized together, later rows at the "
	    "widths reached, a wider cell widening its column from its row on");
	free(out);
	table_free(t);

	/* Fixed widths cut a flushed table's cells too; no header. */
	t = table_create(cols, 2, "name,num");
	is_int(table_select(t, "name:2,num", err, sizeof err), 0, "width 2");
	out = NULL;
	f = open_memstream(&out, &len);
	table_flush(t, f, false);
	table_add(t, &wider, NULL);
	table_add(t, &evil, NULL);
	table_flush(t, f, false);
	fclose(f);
	is_str(out, "wi  333\ne\\    4\n", "flush: a fixed width cuts "
	    "plain and escaped cells");
	free(out);
	table_free(t);
}

static void
t_stream(enum table_format format, const char *fields, bool header,
    size_t n, const char *want, const char *what)
{
	char	*out;
	size_t	 len;

	out = stream(format, fields, header, n, &len);
	if (!ok(len == strlen(want) && memcmp(out, want, len) == 0, "%s", what))
		printf("#   got %zu bytes, want %zu\n", len, strlen(want));
	free(out);
}

static void
t_formats(void)
{
	struct table	*t;
	char		*out = NULL;
	size_t		 len = 0;
	FILE		*f;

	t_stream(TABLE_PLAIN, "name,num", true, NAWKWARD,
	    "NAME\tNUM\n"
	    "alpha\t7\n"
	    "a,b \"q\"\\nc\t1|2\\3\n"
	    "x\\e[2J\\ty\t-\n"
	    " lead\ttrail \n"
	    "\xc3\xa9t\xc3\xa9\t\\xff\n",
	    "plain: one TAB between cells, no padding, escaped, - for empty");
	t_stream(TABLE_PLAIN, "name:3,num", false, 3,
	    "alp\t7\n"
	    "a,b\t1|2\\3\n"
	    "x\\e\t-\n",
	    "plain: no header, a fixed width cuts the escaped cell");
	t_stream(TABLE_PLAIN, "name:3", true, 1, "NAM\nalp\n",
	    "plain: a fixed width cuts the header too");

	t_stream(TABLE_PARSABLE, "name,num", true, NAWKWARD,
	    "name|num\n"
	    "alpha|7\n"
	    "a,b \"q\"\\nc|1\\x7c2\\\\3\n"
	    "x\\e[2J\\ty|\n"
	    " lead|trail \n"
	    "\xc3\xa9t\xc3\xa9|\\xff\n",
	    "parsable: field names, '|' as \\x7c, backslash doubled, no "
	    "trailing '|'");
	t_stream(TABLE_PARSABLE, "num:1,name", false, 2,
	    "7|alpha\n"
	    "1\\x7c2\\\\3|a,b \"q\"\\nc\n",
	    "parsable: no header, widths do not cut");

	t_stream(TABLE_CSV, "name,num", true, NAWKWARD,
	    "name,num\r\n"
	    "alpha,7\r\n"
	    "\"a,b \"\"q\"\"\nc\",1|2\\3\r\n"
	    "x\x1b[2J\ty,\r\n"
	    "\" lead\",\"trail \"\r\n"
	    "\xc3\xa9t\xc3\xa9,\xff\r\n",
	    "csv: CRLF, quoted when needed, quotes doubled, cells raw");
	t_stream(TABLE_CSV, "num:1,name:2", false, 1, "7,alpha\r\n",
	    "csv: no header, widths do not cut");
	t_stream(TABLE_CSV, "num", true, 3, "num\r\n7\r\n1|2\\3\r\n\"\"\r\n",
	    "csv: an empty cell alone on its line is \"\"");

	/* Nothing matched: the header alone, once; or nothing at all. */
	t_stream(TABLE_PLAIN, "name,num", true, 0, "NAME\tNUM\n",
	    "plain: no rows, header only");
	t_stream(TABLE_PARSABLE, "name,num", true, 0, "name|num\n",
	    "parsable: no rows, header only");
	t_stream(TABLE_CSV, "name,num", true, 0, "name,num\r\n",
	    "csv: no rows, header only");
	t_stream(TABLE_CSV, "name,num", false, 0, "",
	    "csv: no rows and no header, no bytes");
	t_stream(TABLE_ALIGNED, "name,num", true, 0, "NAME  NUM\n",
	    "aligned: no rows, header only");
	t_stream(TABLE_ALIGNED, "name,num", true, 2,
	    "NAME          NUM\n"
	    "alpha           7\n"
	    "a,b \"q\"\\nc  1|2\\3\n",
	    "aligned through table_end is table_print's output");

	/* The header comes exactly once whatever the order of calls. */
	f = open_memstream(&out, &len);
	t = table_create(cols, 2, "name");
	table_set_format(t, TABLE_CSV, f, true);
	is_int(table_end(t), 0, "table_end");
	is_int(table_end(t), 0, "table_end again");
	table_free(t);
	t = table_create(cols, 2, "name");
	table_set_format(t, TABLE_PARSABLE, f, true);
	table_add(t, &awkward[0], NULL);
	table_add(t, &awkward[0], NULL);
	table_end(t);
	table_end(t);
	table_free(t);
	fclose(f);
	is_str(out, "name\r\nname\nalpha\nalpha\n",
	    "a header once per table, with or without rows, ended twice");
	free(out);

	/* A write that fails is told, for a cron job's exit status. */
	if ((f = fopen("/dev/full", "w")) == NULL)
		ok(1, "# skip no /dev/full");
	else {
		t = table_create(cols, 2, "name,num");
		table_set_format(t, TABLE_CSV, f, true);
		table_add(t, &awkward[0], NULL);
		ok(table_end(t) == -1, "table_end: -1 when the disk is full");
		table_free(t);
		fclose(f);
	}
}

/* CSV to a terminal: control characters escaped, then quoted as CSV. */
static void
t_csv_tty(void)
{
	struct termios	 tio;
	struct pollfd	 pfd;
	struct table	*t;
	const char	*want;
	char		 got[512];
	size_t		 len = 0;
	ssize_t		 n;
	FILE		*f;
	int		 m, s;

	want = "name,num\r\n"
	    "\"a,b \"\"q\"\"\\nc\",1|2\\3\r\n"
	    "x\\e[2J\\ty,\r\n";
	if ((m = posix_openpt(O_RDWR | O_NOCTTY)) == -1 || grantpt(m) == -1 ||
	    unlockpt(m) == -1 || (s = open(ptsname(m), O_RDWR | O_NOCTTY)) ==
	    -1) {
		ok(1, "# skip no pseudo-terminal");
		return;
	}
	/* Raw, so the terminal does not turn "\n" into "\r\n" itself. */
	tcgetattr(s, &tio);
	cfmakeraw(&tio);
	tcsetattr(s, TCSANOW, &tio);
	f = fdopen(s, "w");
	t = table_create(cols, 2, "name,num");
	table_set_format(t, TABLE_CSV, f, true);
	table_add(t, &awkward[1], NULL);
	table_add(t, &awkward[2], NULL);
	is_int(table_end(t), 0, "csv to a terminal: table_end");
	table_free(t);
	pfd.fd = m;
	pfd.events = POLLIN;
	while (len < strlen(want) && poll(&pfd, 1, 5000) == 1) {
		if ((n = read(m, got + len, sizeof got - 1 - len)) <= 0)
			break;
		len += (size_t)n;
	}
	got[len] = '\0';
	is_str(got, want, "csv to a terminal: control characters escaped");
	fclose(f);
	close(m);
}

/* A test-side decoder of PARSABLE's escaping (table.h): "\\\\", "\\n",
 * "\\r", "\\t", "\\e", "\\xHH", "\\u00HH". Returns the decoded length, or
 * -1 on an escape that is not one of those. */
static long
parsable_decode(const char *s, size_t len, char *out)
{
	size_t	i, o = 0;
	unsigned int v;

	for (i = 0; i < len; i++) {
		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		if (++i == len)
			return (-1);
		switch (s[i]) {
		case '\\': out[o++] = '\\'; break;
		case 'n': out[o++] = '\n'; break;
		case 'r': out[o++] = '\r'; break;
		case 't': out[o++] = '\t'; break;
		case 'e': out[o++] = '\x1b'; break;
		case 'x':
			if (i + 2 >= len || sscanf(s + i + 1, "%2x", &v) != 1)
				return (-1);
			out[o++] = (char)v;
			i += 2;
			break;
		case 'u':
			if (i + 4 >= len || strncmp(s + i + 1, "00", 2) != 0 ||
			    sscanf(s + i + 3, "%2x", &v) != 1)
				return (-1);
			out[o++] = (char)0xc2;
			out[o++] = (char)v;
			i += 4;
			break;
		default:
			return (-1);
		}
	}
	return ((long)o);
}

/* A random cell from the characters that make trouble. */
static void
random_cell(char *buf, size_t size)
{
	static const char *const piece[] = {
		"a", "Z", "0", " ", ",", "\"", "|", "\\", "\n", "\r", "\t",
		"\x1b", "\x7f", "\x01", "\xc3\xa9", "\xc2\x9b", "\xff",
		"\xe2\x82\xac", "-", "x7c", "\\x7c",
	};
	size_t	 n = tap_rand() % 12, len = 0, k, i;

	for (i = 0; i < n; i++) {
		const char *p = piece[tap_rand() % (sizeof piece /
		    sizeof piece[0])];

		k = strlen(p);
		if (len + k >= size)
			break;
		memcpy(buf + len, p, k);
		len += k;
	}
	buf[len] = '\0';
}

#define NRANDOM	500

static char	cells[NRANDOM][2][64];

/* Writes NRANDOM rows of random cells to f in format, and closes f. */
static void
random_rows(enum table_format format, FILE *f, bool header)
{
	static struct row	 rows[NRANDOM];
	struct table		*t;
	size_t			 i;

	t = table_create(cols, 2, "name,num");
	table_set_format(t, format, f, header);
	for (i = 0; i < NRANDOM; i++) {
		random_cell(cells[i][0], sizeof cells[i][0]);
		random_cell(cells[i][1], sizeof cells[i][1]);
		rows[i].a = cells[i][0];
		rows[i].b = cells[i][1];
		table_add(t, &rows[i], NULL);
	}
	table_end(t);
	table_free(t);
	fclose(f);
}

/* Random cells through PARSABLE: every line has exactly two fields and
 * decodes back to the cells. */
static void
t_parsable_random(void)
{
	char			*out = NULL, *line, *bar, *next, dec[512];
	size_t			 len = 0, i;
	long			 da, db;
	FILE			*f = open_memstream(&out, &len);
	int			 bad = 0;

	random_rows(TABLE_PARSABLE, f, false);
	line = out;
	for (i = 0; i < NRANDOM && !bad; i++) {
		if ((next = strchr(line, '\n')) == NULL ||
		    (bar = memchr(line, '|', (size_t)(next - line))) == NULL ||
		    memchr(bar + 1, '|', (size_t)(next - bar - 1)) != NULL) {
			bad = 1;
			break;
		}
		da = parsable_decode(line, (size_t)(bar - line), dec);
		if (da != (long)strlen(cells[i][0]) ||
		    memcmp(dec, cells[i][0], (size_t)da) != 0)
			bad = 2;
		db = parsable_decode(bar + 1, (size_t)(next - bar - 1), dec);
		if (db != (long)strlen(cells[i][1]) ||
		    memcmp(dec, cells[i][1], (size_t)db) != 0)
			bad = 3;
		line = next + 1;
	}
	if (!ok(bad == 0 && i == NRANDOM && *line == '\0',
	    "parsable: %d random rows split into 2 fields and decode back",
	    NRANDOM))
		printf("#   row %zu, failure %d\n", i, bad);
	free(out);
}

/* Random cells through CSV and back through python's csv module, which
 * prints each field as hex so the comparison is of bytes. */
static void
t_csv_random(void)
{
	char			 path[] = "/tmp/table-test.XXXXXX", cmd[512];
	char			 want[512], got[512];
	size_t			 i, k;
	FILE			*f, *p;
	int			 fd, bad = 0;

	if (system("python3 -c '' 2>/dev/null") != 0) {
		ok(1, "# skip no python3");
		return;
	}
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		ok(0, "mkstemp");
		return;
	}
	random_rows(TABLE_CSV, f, true);
	snprintf(cmd, sizeof cmd, "python3 -c 'import csv, sys\n"
	    "f = open(sys.argv[1], newline=\"\", encoding=\"latin-1\")\n"
	    "for r in csv.reader(f):\n"
	    "    print(len(r), \" \".join(c.encode(\"latin-1\").hex() "
	    "for c in r))' %s", path);
	if ((p = popen(cmd, "r")) == NULL) {
		ok(0, "popen python3");
		unlink(path);
		return;
	}
	i = 0;
	while (fgets(got, sizeof got, p) != NULL) {
		got[strcspn(got, "\n")] = '\0';
		if (i == 0) {
			bad |= strcmp(got, "2 6e616d65 6e756d") != 0;
			i++;
			continue;
		}
		if (i > NRANDOM) {
			bad |= 1;
			break;
		}
		k = (size_t)snprintf(want, sizeof want, "2 ");
		for (const char *c = cells[i - 1][0]; *c != '\0'; c++)
			k += (size_t)snprintf(want + k, sizeof want - k, "%02x",
			    (unsigned char)*c);
		k += (size_t)snprintf(want + k, sizeof want - k, " ");
		for (const char *c = cells[i - 1][1]; *c != '\0'; c++)
			k += (size_t)snprintf(want + k, sizeof want - k, "%02x",
			    (unsigned char)*c);
		if (strcmp(got, want) != 0) {
			printf("#   row %zu: got %s, want %s\n", i, got, want);
			bad |= 1;
		}
		i++;
	}
	bad |= pclose(p) != 0;
	ok(!bad && i == NRANDOM + 1,
	    "csv: a header and %d random rows read back by python's csv",
	    NRANDOM);
	unlink(path);
}

/* The speed gacct needs: a million rows of eight fields, numbers formatted
 * as a real command formats them, as CSV to /dev/null. Printed, not
 * asserted: the machine's speed is not the code's. */
static const char *
get_id(const void *r, const void *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%u", *(const unsigned *)r);
	return (buf);
}

static const char *
get_name(const void *r, const void *ctx, char *buf, size_t len)
{
	return ("train-resnet50, run \"b\"");
}

static const char *
get_user(const void *r, const void *ctx, char *buf, size_t len)
{
	return ("alice");
}

static void
t_speed(void)
{
	static const struct table_col bcols[] = {
		{ "id", "ID", true, get_id },
		{ "name", "NAME", false, get_name },
		{ "user", "USER", false, get_user },
		{ "gpus", "GPUS", true, get_id },
		{ "submit", "SUBMIT", true, get_id },
		{ "start", "START", true, get_id },
		{ "end", "END", true, get_id },
		{ "state", "STATE", false, get_user },
	};
	struct timespec	 a, b;
	struct table	*t;
	unsigned	 i;
	FILE		*f;

	if ((f = fopen("/dev/null", "w")) == NULL) {
		ok(1, "# skip no /dev/null");
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	t = table_create(bcols, 8, "id,name,user,gpus,submit,start,end,state");
	table_set_format(t, TABLE_CSV, f, true);
	for (i = 0; i < 1000000; i++)
		table_add(t, &i, NULL);
	ok(table_end(t) == 0, "a million CSV rows written");
	table_free(t);
	fclose(f);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("# 1000000 CSV rows of 8 fields in %.2f s\n",
	    (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
}

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

	t_render();
	t_flush();
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

	t_formats();
	t_csv_tty();
	t_parsable_random();
	t_csv_random();
	t_speed();
	return (tap_done());
}
