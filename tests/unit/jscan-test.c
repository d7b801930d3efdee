/* jscan-test.c: the in-place JSON scanner: values, walks, strings with
 * escapes, and malformed input refused rather than misread. */
#include <limits.h>
#include <string.h>

#include "client/jscan.h"
#include "tests/unit/tap.h"

static int
scan(const char *s, struct jscan_val *v)
{
	size_t	pos = 0;

	return (jscan_value(s, strlen(s), &pos, v));
}

static void
test_values(void)
{
	struct jscan_val	v;
	long long		i;
	char			buf[64];

	is_int(scan(" 42 ", &v), 0, "number");
	is_int(v.type, JSCAN_NUMBER, "number type");
	ok(jscan_int(&v, &i) == 0 && i == 42, "number value");
	is_int(scan("-7", &v), 0, "negative");
	ok(jscan_int(&v, &i) == 0 && i == -7, "negative value");
	is_int(scan("1.5", &v), 0, "fraction parses");
	is_int(jscan_int(&v, &i), -1, "but is not an integer");
	is_int(scan("true", &v), 0, "true");
	ok(jscan_true(&v), "true is true");
	is_int(scan("false", &v), 0, "false");
	ok(!jscan_true(&v), "false is not true");
	is_int(scan("null", &v), 0, "null");
	is_int(v.type, JSCAN_NULL, "null type");
	is_int(scan("\"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\"", &v), 0,
	    "string with escapes");
	jscan_string(&v, buf, sizeof buf);
	is_str(buf, "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80", "escapes decoded");
	is_int(jscan_string(&v, buf, 3), 12, "truncation reports full length");
	is_str(buf, "a\"", "and truncates with a NUL");
}

static void
test_walks(void)
{
	const char		*s = "{\"a\": 1, \"b\": [1, {\"x\": \"]\"}, 3], "
				    "\"c\": {}, \"d\": []}";
	struct jscan_val	 obj, key, val, el;
	size_t			 pos = 0;
	int			 n = 0;

	is_int(scan(s, &obj), 0, "object");
	is_int(obj.type, JSCAN_OBJECT, "object type");
	while (jscan_member(&obj, &pos, &key, &val) == 1)
		n++;
	is_int(n, 4, "four members");
	is_int(jscan_get(&obj, "b", &val), 0, "get b");
	pos = 0;
	n = 0;
	while (jscan_element(&val, &pos, &el) == 1)
		n++;
	is_int(n, 3, "three elements, a ] inside a string is not an end");
	is_int(jscan_get(&obj, "zz", &val), -1, "absent key");
	is_int(val.type, JSCAN_NONE, "absent key has no type");
	is_int(jscan_get(&obj, "c", &val), 0, "empty object member");
	pos = 0;
	is_int(jscan_member(&val, &pos, &key, &el), 0, "empty object walk");
	is_int(jscan_open(" {\"ok\": true} \n", 15, &obj), 0, "open");
	is_int(jscan_get(&obj, "ok", &val), 0, "open: get");
	ok(jscan_true(&val), "open: value");
}

static void
test_bad(void)
{
	static const char *bad[] = {
		"", "{", "[1, 2", "\"abc", "{\"a\" 1}", "{\"a\": }",
		"[1 2]", "[1,]", "{\"a\":1,}", "{1: 2}", "tru", "-", "[}",
		"{\"a\": [1, }", "nul", "[\"\\",
	};
	struct jscan_val	v, key, val;
	size_t			i, pos;
	int			r, guard;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = scan(bad[i], &v);
		if (r == 0 && (v.type == JSCAN_OBJECT ||
		    v.type == JSCAN_ARRAY)) {
			pos = 0;
			guard = 0;
			while ((r = v.type == JSCAN_OBJECT ?
			    jscan_member(&v, &pos, &key, &val) :
			    jscan_element(&v, &pos, &val)) == 1 && guard++ < 10)
				;
		}
		is_int(r, -1, "malformed \"%s\" refused", bad[i]);
	}
	is_int(jscan_open("[1]", 3, &v), -1, "open refuses an array");
	is_int(jscan_open("{\"a\":1} x", 9, &v), -1,
	    "open refuses trailing text");
}

/* Counts the scalars under c, walking lazily; a child is walked when walk
 * says so, else skipped by jscan_resume, which must measure it. Returns
 * -1 on bad syntax. */
static int
lazy_count(struct jscan_val *c, int walk)
{
	struct jscan_val	key, v;
	size_t			pos = 0;
	int			r, n = 0, sub;

	while ((r = c->type == JSCAN_OBJECT ?
	    jscan_member_lazy(c, &pos, &key, &v) :
	    jscan_element_lazy(c, &pos, &v)) == 1) {
		if (v.type == JSCAN_OBJECT || v.type == JSCAN_ARRAY) {
			if (!v.lazy)
				return (-1);
			if (walk) {
				if ((sub = lazy_count(&v, walk)) == -1)
					return (-1);
				n += sub;
			}
			if (jscan_resume(c, &pos, &v) == -1)
				return (-1);
		} else
			n++;
	}
	if (r == -1)
		return (-1);
	jscan_close(c, pos);
	return (n);
}

/* The same count by the measuring walks. */
static int
eager_count(const struct jscan_val *c)
{
	struct jscan_val	key, v;
	size_t			pos = 0;
	int			r, n = 0, sub;

	while ((r = c->type == JSCAN_OBJECT ?
	    jscan_member(c, &pos, &key, &v) :
	    jscan_element(c, &pos, &v)) == 1) {
		if (v.type == JSCAN_OBJECT || v.type == JSCAN_ARRAY) {
			if ((sub = eager_count(&v)) == -1)
				return (-1);
			n += sub;
		} else
			n++;
	}
	return (r == -1 ? -1 : n);
}

static void
test_lazy(void)
{
	static const char *good[] = {
		"{\"a\": 1, \"b\": [1, {\"x\": \"]}\"}, [], {}], \"c\": {}}",
		"{\"jobs\":[{\"id\":1,\"alloc\":[{\"node\":\"n1\",\"gpus\":[0,1]}]},"
		    "{\"id\":2}],\"more\":true}",
		"{ \"j\" : [ [ ] , [ 1 , [ 2 ] ] ] , \"k\" : null }",
		"{}",
	};
	/* Refused when walked; skipped, only what measuring checks
	 * (brackets, strings, scalars) is refused, as with jscan_value. */
	static const char *bad[] = {
		"{\"a\": [1, 2}", "{\"a\": [}", "{\"a\": [\"x]}",
		"{\"a\": [tru]}", "{\"a\": [1 2]}", "{\"a\": {\"b\" 1}}",
		"{\"a\": [1,]}",
	};
	const size_t		 measured = 4;
	struct jscan_val	top, key, v;
	size_t			i, pos;
	int			want;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		is_int(jscan_open(good[i], strlen(good[i]), &top), 0,
		    "lazy: open %zu", i);
		want = eager_count(&top);
		is_int(lazy_count(&top, 1), want, "lazy walk of %zu counts as "
		    "the measuring one (%d)", i, want);
		/* Skipped children are measured by jscan_resume. */
		ok(lazy_count(&top, 0) >= 0, "lazy skip of %zu", i);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		is_int(jscan_open(bad[i], strlen(bad[i]), &top), 0,
		    "lazy bad: open %zu", i);
		is_int(lazy_count(&top, 1), -1, "lazy walk refuses \"%s\"",
		    bad[i]);
		if (i < measured)
			is_int(lazy_count(&top, 0), -1, "lazy skip refuses "
			    "\"%s\"", bad[i]);
	}

	/* A closed lazy value has its own extent, as jscan_value gives. */
	is_int(jscan_open(good[1], strlen(good[1]), &top), 0, "open jobs");
	pos = 0;
	is_int(jscan_member_lazy(&top, &pos, &key, &v), 1, "jobs member");
	ok(v.lazy && v.type == JSCAN_ARRAY, "jobs is lazy");
	ok(lazy_count(&v, 1) == 5 && !v.lazy, "walked and closed");
	ok(v.n == strlen("[{\"id\":1,\"alloc\":[{\"node\":\"n1\",\"gpus\":[0,1]}]},"
	    "{\"id\":2}]"), "closed extent");
	is_int(jscan_resume(&top, &pos, &v), 0, "resume after jobs");
	is_int(jscan_member_lazy(&top, &pos, &key, &v), 1, "more member");
	ok(jscan_key_is(&key, "more") && jscan_true(&v), "more is true");
	is_int(jscan_member_lazy(&top, &pos, &key, &v), 0, "then the end");
}

static void
test_int(void)
{
	struct jscan_val	v;
	long long		i;

	is_int(scan("9223372036854775807", &v), 0, "max");
	ok(jscan_int(&v, &i) == 0 && i == LLONG_MAX, "LLONG_MAX read");
	is_int(scan("-9223372036854775808", &v), 0, "min");
	ok(jscan_int(&v, &i) == 0 && i == LLONG_MIN, "LLONG_MIN read");
	is_int(scan("9223372036854775808", &v), 0, "max + 1");
	is_int(jscan_int(&v, &i), -1, "overflow refused");
	is_int(scan("-9223372036854775809", &v), 0, "min - 1");
	is_int(jscan_int(&v, &i), -1, "underflow refused");
	is_int(scan("1e3", &v), 0, "exponent");
	is_int(jscan_int(&v, &i), -1, "is not an integer");
	is_int(scan("-0", &v), 0, "-0");
	ok(jscan_int(&v, &i) == 0 && i == 0, "-0 is 0");
}

static void
test_deep(void)
{
	char			buf[300];
	struct jscan_val	v;

	memset(buf, '[', 200);
	memset(buf + 200, ']', 99);
	buf[299] = '\0';
	is_int(scan(buf, &v), -1, "nesting beyond the limit refused");
}

/* jscan_elements reads a row of values at once, from a lazy row inside a
 * listing too, and the listing's walk goes on after it. */
static void
test_elements(void)
{
	const char		*s = "{\"jobs\":[[1, \"a,]\" ,null,[2,3],{\"k\":1},"
				    "true],[],[7]]}";
	static const struct {
		const char	*text, *what;
	} bad[] = {
		{ "[1,2,]", "a trailing comma" },
		{ "[1 2]", "no comma" },
		{ "[1,2", "no closing bracket" },
		{ "[1]x", "text after the array" },
	};
	struct jscan_val	 top, key, jobs, row, v[8];
	size_t			 pos = 0, jpos = 0, n = 99, i;
	int			 rows = 0;

	is_int(scan(s, &top), 0, "elements: a listing");
	is_int(jscan_member_lazy(&top, &pos, &key, &jobs), 1, "its jobs");
	while (jscan_element_lazy(&jobs, &jpos, &row) == 1) {
		if (jscan_elements(&row, v, 8, &n) == -1 ||
		    jscan_resume(&jobs, &jpos, &row) == -1)
			break;
		if (rows++ == 0) {
			is_int((int)n, 6, "elements: six values");
			ok(v[1].type == JSCAN_STRING && v[1].n == 3 &&
			    memcmp(v[1].p, "a,]", 3) == 0, "a string holding "
			    "a comma and a bracket");
			ok(v[2].type == JSCAN_NULL && v[3].type ==
			    JSCAN_ARRAY && v[3].n == 5 && v[4].type ==
			    JSCAN_OBJECT && v[5].type == JSCAN_BOOL,
			    "null, array, object and bool, measured");
		} else if (rows == 2)
			is_int((int)n, 0, "elements: an empty row");
		else
			ok(n == 1 && v[0].type == JSCAN_NUMBER, "elements: the "
			    "row after them");
	}
	is_int(rows, 3, "elements: the walk goes on after each row");

	is_int(scan("[1,2,3]", &row), 0, "a whole array");
	row.type = JSCAN_ARRAY;
	is_int(jscan_elements(&row, v, 2, &n), -1, "more values than room");
	is_int(jscan_elements(&row, v, 3, &n), 0, "just room");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		row.p = bad[i].text;
		row.n = (uint32_t)strlen(bad[i].text);
		is_int(jscan_elements(&row, v, 8, &n), -1, "%s", bad[i].what);
	}
}

/* jscan_string reads a malformed escape leniently (common/jlex.c lexes
 * it): U+FFFD for a bad \\u or half a pair, the letter of an unknown one,
 * and the bytes after it as they are. */
static void
test_escape(void)
{
	static const struct {
		const char	*text;
		const char	*want;
	} cases[] = {
		{ "a\\u00e9\\/b", "a\xc3\xa9/b" },
		{ "\\ud83d\\ude00", "\xf0\x9f\x98\x80" },
		{ "\\ud83dx", "\xef\xbf\xbdx" },
		{ "\\ude00y", "\xef\xbf\xbdy" },
		{ "\\u12z", "\xef\xbf\xbd" "12z" },
		{ "\\qz", "qz" },
		/* The byte after the backslash as it is: é stays é. */
		{ "\\\xc3\xa9", "\xc3\xa9" },
		{ "ab\\", "ab" },
	};
	struct jscan_val	v;
	char			buf[64];
	size_t			i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v.type = JSCAN_STRING;
		v.p = cases[i].text;
		v.n = (uint32_t)strlen(cases[i].text);
		v.lazy = false;
		jscan_string(&v, buf, sizeof buf);
		is_str(buf, cases[i].want, "string %s decodes leniently",
		    cases[i].text);
	}
}

int
main(void)
{
	test_values();
	test_walks();
	test_bad();
	test_lazy();
	test_int();
	test_deep();
	test_elements();
	test_escape();
	return (tap_done());
}
