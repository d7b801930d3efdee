/* array-test.c: job-array task sets (common/array.c): the texts taken and
 * refused, the one normal form, walking and taking tasks off, job ids
 * with tasks, and random sets checked against a plain bitmap. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "tests/unit/tap.h"

/* Parses in; its normal form (with %N) must be want. */
static void
t_accept(const char *in, const char *want)
{
	struct array_set	a;
	char			err[512] = "", out[512] = "";
	int			r;

	r = array_parse(in, &a, err, sizeof err);
	if (r == 0)
		array_format(&a, true, out, sizeof out);
	if (!ok(r == 0 && strcmp(out, want) == 0, "\"%s\" reads as \"%s\"",
	    in, want))
		printf("#   returned %d, \"%s\", err \"%s\"\n", r, out, err);
	array_free(&a);
}

/* in is refused and the message holds errpart (the bad text, quoted). */
static void
t_reject(const char *in, const char *errpart)
{
	struct array_set	a;
	char			err[512] = "";
	int			r;

	r = array_parse(in, &a, err, sizeof err);
	if (!ok(r == -1 && strstr(err, errpart) != NULL && a.n == 0 &&
	    a.r == NULL && a.throttle == 0, "\"%s\" is refused (%s)", in,
	    errpart))
		printf("#   returned %d, err \"%s\"\n", r, err);
	array_free(&a);
}

static void
t_parse(void)
{
	t_accept("7", "7");
	t_accept("007", "7");
	t_accept("0-99", "0-99");
	t_accept("3-4", "3-4");
	t_accept("5-5", "5");
	t_accept("5-5:2", "5");
	t_accept("0-20:2", "0-20:2");
	t_accept("0-9:4", "0-8:4");
	t_accept("0-0:5", "0");
	t_accept("0-2:2", "0,2");
	t_accept("0-4:2", "0-4:2");
	t_accept("1,3,5-7", "1-5:2,6-7");
	t_accept("3,1,2", "1-3");
	t_accept("5,5,5", "5");
	t_accept("1,2,4,8", "1-2,4,8");
	t_accept("0,3,6,7", "0-6:3,7");
	t_accept("0,2,4,5,6", "0-4:2,5-6");
	t_accept("1-5,3-8", "1-8");
	t_accept("1-5,6-8", "1-8");
	t_accept("0-10:2,1-11:2", "0-11");
	t_accept("0-30:3,0-30:6", "0-30:3");
	t_accept("0-99999,0-99999", "0-99999");
	t_accept("0-19998:2,1000-1010", "0-1000:2,1001-1010,1012-19998:2");
	t_accept("9999999", "9999999");
	t_accept("9999990-9999999:3", "9999990-9999999:3");
	t_accept("0-99%10", "0-99%10");
	t_accept("4,1%1", "1,4%1");
	t_accept("1%100000", "1%100000");

	t_reject("", "empty; give TASK or FIRST-LAST[:STEP]");
	t_reject("1,,2", "'1,,2': an empty item; give");
	t_reject(",1", "',1': an empty item");
	t_reject("1,", "'1,': an empty item");
	t_reject("%4", "'%4': an empty item");
	t_reject("x", "'x': expected whole numbers");
	t_reject("1-x", "'1-x': expected whole numbers");
	t_reject("-1", "'-1': expected whole numbers");
	t_reject("1-5:", "'1-5:': expected whole numbers");
	t_reject("10000000", "'10000000': a number above 9999999");
	t_reject("99999999999999999999999", "a number above 9999999");
	t_reject("0-5:10000000", "'0-5:10000000': a number above");
	t_reject("0-9:0", "'0-9:0': a step of 0");
	t_reject("5-3", "'5-3': the last task is below the first; "
	    "give TASK or FIRST-LAST[:STEP], e.g. 7, 0-99 or 0-20:2, joined "
	    "by ',' and optionally %N");
	t_reject("0-100000", "'0-100000': 100001 tasks, more than 100000");
	t_reject("0-9999999:2", "'0-9999999:2': 5000000 tasks");
	t_reject("0-99999,100000", "'0-99999,100000': more than 100000 "
	    "tasks");
	t_reject("0-199998:2,1-199999:2", "more than 100000 tasks");
	t_reject("1-5%0", "'%0': expected %N, at most N tasks running");
	t_reject("1-5%", "'%': expected %N");
	t_reject("1-5%x", "'%x': expected %N");
	t_reject("1-5%2%3", "'%2%3': expected %N");
	t_reject("1-5%2x", "'%2x': expected %N");
	t_reject("1-5%100001", "'%100001': expected %N");
	t_reject("1-5x", "'1-5x': unexpected text after the tasks");
	t_reject("1-5 ", "'1-5 ': unexpected text");
	t_reject(" 1", "' 1': expected whole numbers");
	t_reject("1-2-3", "'1-2-3': unexpected text");
	t_reject("5:2", "'5:2': a step needs a range");
	t_reject("1\x1b[2J", "'1\\e[2J': unexpected text");
}

static void
t_format(void)
{
	struct array_set	a;
	char			err[256], buf[8];

	array_parse("0-20:2,30%5", &a, err, sizeof err);
	is_int(array_format(&a, true, buf, sizeof buf), 11,
	    "format: the length needed, as snprintf");
	is_str(buf, "0-20:2,", "format: cut to the buffer");
	is_int(array_format(&a, false, buf, sizeof buf), 9,
	    "format: without %%N");
	buf[0] = 'x';
	is_int(array_format(&a, true, buf, 0), 11, "format: len 0");
	ok(buf[0] == 'x', "format: len 0 writes nothing");
	array_free(&a);
	memset(&a, 0, sizeof a);
	is_int(array_format(&a, true, buf, sizeof buf), 0,
	    "format: an empty set");
	is_str(buf, "", "format: an empty set is \"\"");
}

static void
t_query(void)
{
	struct array_set	a;
	char			err[256], got[256];
	uint32_t		t;
	size_t			at = 0;
	bool			more;

	array_parse("1,3,5-7", &a, err, sizeof err);
	is_int(array_count(&a), 5, "count of 1,3,5-7");
	is_int(array_min(&a), 1, "min of 1,3,5-7");
	is_int(array_max(&a), 7, "max of 1,3,5-7");
	ok(array_has(&a, 1) && array_has(&a, 3) && array_has(&a, 5) &&
	    array_has(&a, 6) && array_has(&a, 7), "has each task");
	ok(!array_has(&a, 0) && !array_has(&a, 2) && !array_has(&a, 4) &&
	    !array_has(&a, 8) && !array_has(&a, UINT32_MAX),
	    "has no other task");
	array_free(&a);

	array_parse("0-20:5,30,40-42", &a, err, sizeof err);
	got[0] = '\0';
	for (more = array_next(&a, 0, true, &t); more;
	    more = array_next(&a, t, false, &t))
		at += (size_t)snprintf(got + at, sizeof got - at, "%u ", t);
	is_str(got, "0 5 10 15 20 30 40 41 42 ", "walk 0-20:5,30,40-42");
	ok(array_next(&a, 3, false, &t) && t == 5, "next after 3 is 5");
	ok(array_next(&a, 20, false, &t) && t == 30, "next after 20 is 30");
	ok(!array_next(&a, 42, false, &t), "none after 42");
	ok(!array_next(&a, UINT32_MAX, false, &t), "none after the top");
	array_free(&a);

	memset(&a, 0, sizeof a);
	ok(array_count(&a) == 0 && array_min(&a) == 0 &&
	    array_max(&a) == 0, "an empty set: count, min and max 0");
	ok(!array_next(&a, 0, true, &t) && !array_has(&a, 0),
	    "an empty set has no task");
}

/* Removes task from the set in; the normal form must then be want. */
static void
t_remove_one(const char *in, uint32_t task, bool was, const char *want)
{
	struct array_set	a;
	char			err[256], out[256] = "";
	bool			r;

	array_parse(in, &a, err, sizeof err);
	r = array_remove(&a, task);
	array_format(&a, true, out, sizeof out);
	if (!ok(r == was && strcmp(out, want) == 0,
	    "\"%s\" less %u is \"%s\"", in, task, want))
		printf("#   returned %d, \"%s\"\n", r, out);
	array_free(&a);
}

static void
t_remove(void)
{
	struct array_set	a;
	char			err[256], out[64], want[64];
	uint32_t		t;
	bool			good = true;

	t_remove_one("0-9", 0, true, "1-9");
	t_remove_one("0-9", 5, true, "0-4,6-9");
	t_remove_one("0-9", 9, true, "0-8");
	t_remove_one("0-3", 2, true, "0-1,3");
	t_remove_one("0-1", 0, true, "1");
	t_remove_one("0-20:2", 10, true, "0-8:2,12-20:2");
	t_remove_one("0-20:2", 0, true, "2-20:2");
	t_remove_one("0-20:2", 20, true, "0-18:2");
	t_remove_one("0-20:2", 2, true, "0,4-20:2");
	t_remove_one("0-4:2", 2, true, "0,4");
	t_remove_one("0-4:2", 0, true, "2,4");
	t_remove_one("7", 7, true, "");
	t_remove_one("0-9%3", 3, true, "0-2,4-9%3");
	t_remove_one("0-9", 10, false, "0-9");
	t_remove_one("0-20:2", 3, false, "0-20:2");
	/* Ranges before and after the task's own can change. */
	t_remove_one("0,3-4,6", 4, true, "0-6:3");
	t_remove_one("0,3-4,6-10:4", 4, true, "0-6:3,10");
	t_remove_one("0-4:2,5-6", 5, true, "0-6:2");
	t_remove_one("0,3,5-6", 5, true, "0-6:3");
	t_remove_one("1-5:2,6-7", 6, true, "1-7:2");

	/* gbatchd takes the lowest task as each starts. */
	array_parse("0-9999", &a, err, sizeof err);
	for (t = 0; t < 10000 && good; t++) {
		good = array_remove(&a, t) && a.n == (t < 9999 ? 1u : 0u);
		if (good && t < 9998) {
			array_format(&a, false, out, sizeof out);
			snprintf(want, sizeof want, "%u-9999", t + 1);
			good = strcmp(out, want) == 0;
		}
	}
	ok(good && a.r == NULL && a.n == 0, "0-9999 drained from the bottom");
	array_free(&a);
}

/* The rule of array.h, task by task, over a sorted list. */
static size_t
ref_format(const uint32_t *l, size_t n, char *buf, size_t len)
{
	size_t		i, j, at = 0;
	uint32_t	d;

	buf[0] = '\0';
	for (i = 0; i < n; i = j + 1) {
		j = i;
		d = 0;
		if (i + 1 < n && l[i + 1] == l[i] + 1)
			d = 1;
		else if (i + 2 < n && l[i + 2] - l[i + 1] == l[i + 1] - l[i])
			d = l[i + 1] - l[i];
		while (d > 0 && j + 1 < n && l[j + 1] - l[j] == d)
			j++;
		at += (size_t)snprintf(buf + at, len - at, i > 0 ? "," : "");
		if (d == 0)
			at += (size_t)snprintf(buf + at, len - at, "%u", l[i]);
		else if (d == 1)
			at += (size_t)snprintf(buf + at, len - at, "%u-%u",
			    l[i], l[j]);
		else
			at += (size_t)snprintf(buf + at, len - at, "%u-%u:%u",
			    l[i], l[j], d);
	}
	return (at);
}

#define PROP_SPAN	200
#define PROP_SETS	300

/* Failures of each property over all the sets. */
static int	 p_fmt, p_count, p_has, p_walk, p_round, p_rm;

/* A random item over [base, base + PROP_SPAN) into text; marks its tasks
 * in bits. */
static void
prop_item(uint32_t base, char *text, size_t len, bool *bits)
{
	uint32_t	first = tap_rand() % PROP_SPAN, last, step, t;
	size_t		at = strlen(text);

	last = first + tap_rand() % (PROP_SPAN - first);
	step = 1 + tap_rand() % 7;
	switch (tap_rand() % 3) {
	case 0:
		snprintf(text + at, len - at, "%u,", base + first);
		bits[first] = true;
		return;
	case 1:
		snprintf(text + at, len - at, "%u-%u,", base + first,
		    base + last);
		step = 1;
		break;
	default:
		snprintf(text + at, len - at, "%u-%u:%u,", base + first,
		    base + last, step);
		break;
	}
	for (t = first; t <= last; t += step)
		bits[t] = true;
}

/* The set's tasks, by array_next, must be the bitmap's. */
static bool
prop_walk(const struct array_set *a, uint32_t base, const bool *bits)
{
	uint32_t	t, want;
	bool		more;

	more = array_next(a, 0, true, &t);
	for (want = 0; want < PROP_SPAN; want++) {
		if (!bits[want])
			continue;
		if (!more || t != base + want)
			return (false);
		more = array_next(a, t, false, &t);
	}
	return (!more);
}

/* Checks a against bits: normal form, count, has, walk. */
static void
prop_check(const struct array_set *a, uint32_t base, const bool *bits,
    const char *text)
{
	uint32_t	l[PROP_SPAN], t;
	size_t		n = 0;
	char		got[2048], want[2048];
	bool		has = true;

	for (t = 0; t < PROP_SPAN; t++) {
		if (bits[t])
			l[n++] = base + t;
		has = has && array_has(a, base + t) == bits[t];
	}
	ref_format(l, n, want, sizeof want);
	array_format(a, false, got, sizeof got);
	if (strcmp(got, want) != 0 && p_fmt++ == 0)
		printf("# \"%s\": got \"%s\", want \"%s\"\n", text, got, want);
	p_count += array_count(a) != n || array_min(a) != (n ? l[0] : 0) ||
	    array_max(a) != (n ? l[n - 1] : 0);
	p_has += !has || (base > 0 && array_has(a, base - 1)) ||
	    array_has(a, base + PROP_SPAN);
	p_walk += !prop_walk(a, base, bits);
}

static void
prop_one(void)
{
	struct array_set	a, b;
	bool			bits[PROP_SPAN] = { false };
	char			text[1024] = "", f1[2048], f2[2048], err[512];
	uint32_t		base, t;
	int			i, items = 1 + (int)(tap_rand() % 6);

	base = tap_rand() % 2 ? 0 : ARRAY_TASK_MAX + 1 - PROP_SPAN;
	for (i = 0; i < items; i++)
		prop_item(base, text, sizeof text, bits);
	text[strlen(text) - 1] = '\0';
	if (array_parse(text, &a, err, sizeof err) == -1) {
		printf("# \"%s\": %s\n", text, err);
		p_fmt++;
		return;
	}
	prop_check(&a, base, bits, text);
	array_format(&a, true, f1, sizeof f1);
	p_round += array_parse(f1, &b, err, sizeof err) == -1 ||
	    array_format(&b, true, f2, sizeof f2) != strlen(f1) ||
	    strcmp(f1, f2) != 0;
	array_free(&b);
	while (array_count(&a) > 0) {
		t = tap_rand() % PROP_SPAN;
		p_rm += array_remove(&a, base + t) != bits[t];
		bits[t] = false;
		prop_check(&a, base, bits, text);
	}
	p_rm += a.r != NULL;
	array_free(&a);
}

static void
t_prop(void)
{
	int	i;

	for (i = 0; i < PROP_SETS; i++)
		prop_one();
	is_int(p_fmt, 0, "random sets: the normal form is the rule's");
	is_int(p_count, 0, "random sets: count, min and max");
	is_int(p_has, 0, "random sets: has");
	is_int(p_walk, 0, "random sets: walk");
	is_int(p_round, 0, "random sets: format then parse gives them back");
	is_int(p_rm, 0, "random sets: remove, down to empty");
}

static void
t_jobid_ok(const char *in, uint64_t id, const char *tasks)
{
	struct array_set	a;
	uint64_t		got;
	char			err[512] = "", out[256] = "";
	int			r;

	r = array_jobid_parse(in, &got, &a, err, sizeof err);
	array_format(&a, true, out, sizeof out);
	if (!ok(r == 0 && got == id && strcmp(out, tasks) == 0 &&
	    (a.n == 0) == (a.r == NULL), "job id \"%s\"", in))
		printf("#   returned %d, %llu, \"%s\", err \"%s\"\n", r,
		    (unsigned long long)got, out, err);
	array_free(&a);
}

static void
t_jobid_bad(const char *in, const char *errpart)
{
	struct array_set	a;
	uint64_t		got;
	char			err[512] = "";
	int			r;

	r = array_jobid_parse(in, &got, &a, err, sizeof err);
	if (!ok(r == -1 && got == 0 && a.n == 0 && a.r == NULL &&
	    strstr(err, errpart) != NULL, "job id \"%s\" is refused", in))
		printf("#   returned %d, err \"%s\"\n", r, err);
	array_free(&a);
}

static void
t_jobid(void)
{
	t_jobid_ok("42", 42, "");
	t_jobid_ok("42_7", 42, "7");
	t_jobid_ok("42_[3-5]", 42, "3-5");
	t_jobid_ok("42_[1,3]", 42, "1,3");
	t_jobid_ok("42_[0-20:2,7]", 42, "0-6:2,7-8,10-20:2");
	t_jobid_ok("9223372036854775807", 9223372036854775807ULL, "");

	t_jobid_bad("42_", "job id '42_': expected ID, ID_TASK or "
	    "ID_[TASKS]");
	t_jobid_bad("42_[", "job id '42_[': expected ID, ID_TASK");
	t_jobid_bad("42_[]", "job id '42_[]': expected ID, ID_TASK");
	t_jobid_bad("42_[3-5", "job id '42_[3-5': expected ID, ID_TASK");
	t_jobid_bad("42_[3-5]x", "job id '42_[3-5]x': expected");
	t_jobid_bad("42_7x", "job id '42_7x': expected");
	t_jobid_bad("42_10000000", "job id '42_10000000': "
	    "'10000000': a number above 9999999");
	t_jobid_bad("x", "job id 'x': expected ID, ID_TASK or ID_[TASKS]");
	t_jobid_bad("42x", "job id '42x': expected");
	t_jobid_bad("42_[1%2]", "job id '42_[1%2]': no %N here");
	t_jobid_bad("42_[5-3]", "job id '42_[5-3]': '5-3': the last "
	    "task is below the first");
	t_jobid_bad("0", "job id '0': expected ID, ID_TASK or ID_[TASKS], "
	    "ID a whole number from 1");
	t_jobid_bad("", "job id '': expected");
	t_jobid_bad("9223372036854775808", "job id '9223372036854775808'");
}

int
main(void)
{
	t_parse();
	t_format();
	t_query();
	t_remove();
	t_prop();
	t_jobid();
	return (tap_done());
}
