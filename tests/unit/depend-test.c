/* depend-test.c: sbatch-style dependencies (common/depend.c): the texts
 * taken and refused, their normal form, and how conditions and their
 * joins are judged, state by state. */
#include <stdint.h>
#include <string.h>

#include "common/depend.h"
#include "tests/unit/tap.h"

/* Parses in; its normal form must be want. */
static void
t_accept(const char *in, const char *want, size_t n, int any)
{
	struct depend	d;
	char		err[512] = "", out[512];
	int		r;

	r = depend_parse(in, &d, err, sizeof err);
	if (r == 0)
		depend_format(&d, out, sizeof out);
	if (!ok(r == 0 && strcmp(out, want) == 0 && d.n == n &&
	    (int)d.any == any, "\"%s\" reads as \"%s\"", in, want))
		printf("#   returned %d, \"%s\", %zu items, err \"%s\"\n", r,
		    r == 0 ? out : "", d.n, err);
	depend_free(&d);
}

static void
t_reject(const char *in, const char *errpart)
{
	struct depend	d;
	char		err[512] = "";
	int		r;

	r = depend_parse(in, &d, err, sizeof err);
	if (!ok(r == -1 && strstr(err, errpart) != NULL && d.n == 0,
	    "\"%s\" is refused (%s)", in, errpart))
		printf("#   returned %d, err \"%s\"\n", r, err);
	depend_free(&d);
}

static void
t_parse(void)
{
	struct depend	d;
	char		err[256];

	t_accept("afterok:12", "afterok:12", 1, 0);
	t_accept("afterok:12:13", "afterok:12:13", 2, 0);
	t_accept("afterok:12,afterok:13", "afterok:12:13", 2, 0);
	t_accept("after:1,afterany:2:3,afternotok:4,singleton",
	    "after:1,afterany:2:3,afternotok:4,singleton", 5, 0);
	t_accept("afterok:5?afternotok:5", "afterok:5?afternotok:5", 2, 1);
	t_accept("afterok:1:2?afterany:3", "afterok:1?afterok:2?afterany:3",
	    3, 1);
	t_accept("singleton", "singleton", 1, 0);
	ok(depend_parse("afterany:7:8", &d, err, sizeof err) == 0 &&
	    d.items[0].type == DEPEND_AFTERANY && d.items[0].job == 7 &&
	    d.items[1].job == 8, "items in order");
	depend_free(&d);

	t_reject("", "empty; expected TYPE:ID");
	t_reject("afterok", "afterok: expected afterok:ID[:ID...]");
	t_reject("afterok:", "afterok: expected afterok:ID");
	t_reject("afterok:x", "expected job ids (whole numbers from 1)");
	t_reject("afterok:0", "expected job ids");
	t_reject("afterok:1:", "expected job ids");
	t_reject("afterok:1::2", "expected job ids");
	t_reject("afterok:-1", "expected job ids");
	t_reject("afterok:99999999999999999999999", "expected job ids");
	t_reject("afterbad:1", "\"afterbad:1\": unknown type; expected "
	    "TYPE:ID[:ID...] joined by ',' (all) or '?' (any)");
	t_reject("afterok:1,", "an empty condition");
	t_reject(",afterok:1", "an empty condition");
	t_reject("afterok:1,afterany:2?after:3", "',' (all) and '?' (any) "
	    "in one dependency");
	t_reject("singleton:3", "singleton takes no job ids");
	/* A job array's task, ID_TASK, beside whole jobs and arrays. */
	t_accept("afterok:4_2", "afterok:4_2", 1, 0);
	t_accept("afterok:4_2:4_3,afterany:5", "afterok:4_2:4_3,afterany:5",
	    3, 0);
	t_accept("after:4_0?afternotok:9_9999999",
	    "after:4_0?afternotok:9_9999999", 2, 1);
	ok(depend_parse("afterok:4_2:7", &d, err, sizeof err) == 0 &&
	    d.items[0].job == 4 && d.items[0].task == 2 &&
	    d.items[1].job == 7 && d.items[1].task == -1,
	    "a task is kept apart from its array's id");
	depend_free(&d);
	t_reject("afterok:4_", "expected ID or ID_TASK");
	t_reject("afterok:4_x", "expected ID or ID_TASK");
	t_reject("afterok:4_10000000", "expected ID or ID_TASK");
	t_reject("afterok:4_2_3", "expected ID or ID_TASK");
	t_reject("afterok:4_2:", "expected job ids");
	t_reject("after:4+10", "submit with --begin instead");
	t_reject("afterok:\x1b[2J", "\\e[2J");
}

static void
t_judge(void)
{
	struct depend		d = { 0 };
	enum depend_state	e[3];
	struct depend_item	items[3];

	is_int(depend_judge(DEPEND_AFTER, JOB_PENDING, false), DEPEND_WAIT,
	    "after: waits while pending");
	is_int(depend_judge(DEPEND_AFTER, JOB_RUNNING, true), DEPEND_MET,
	    "after: met once started");
	is_int(depend_judge(DEPEND_AFTER, JOB_CANCELLED, false), DEPEND_MET,
	    "after: met by a cancel before the start");
	is_int(depend_judge(DEPEND_AFTER, JOB_HELD, false), DEPEND_WAIT,
	    "after: a held job has not started");
	is_int(depend_judge(DEPEND_AFTERANY, JOB_RUNNING, true), DEPEND_WAIT,
	    "afterany: waits while it runs");
	is_int(depend_judge(DEPEND_AFTERANY, JOB_FAILED, true), DEPEND_MET,
	    "afterany: met by a failure");
	is_int(depend_judge(DEPEND_AFTEROK, JOB_COMPLETED, true), DEPEND_MET,
	    "afterok: met by a completion");
	is_int(depend_judge(DEPEND_AFTEROK, JOB_TIMEOUT, true), DEPEND_NEVER,
	    "afterok: never after a timeout");
	is_int(depend_judge(DEPEND_AFTEROK, JOB_PREEMPTING, true),
	    DEPEND_WAIT, "afterok: waits out a preemption");
	is_int(depend_judge(DEPEND_AFTERNOTOK, JOB_NODE_FAIL, true),
	    DEPEND_MET, "afternotok: met by a lost node");
	is_int(depend_judge(DEPEND_AFTERNOTOK, JOB_COMPLETED, true),
	    DEPEND_NEVER, "afternotok: never after a completion");

	d.items = items;
	d.n = 3;
	e[0] = DEPEND_MET; e[1] = DEPEND_WAIT; e[2] = DEPEND_MET;
	is_int(depend_combine(&d, e), DEPEND_WAIT, "all: one waits");
	e[1] = DEPEND_NEVER;
	is_int(depend_combine(&d, e), DEPEND_NEVER, "all: one never");
	e[1] = DEPEND_MET;
	is_int(depend_combine(&d, e), DEPEND_MET, "all: all met");
	d.any = true;
	e[0] = DEPEND_NEVER; e[1] = DEPEND_WAIT; e[2] = DEPEND_NEVER;
	is_int(depend_combine(&d, e), DEPEND_WAIT, "any: one may still");
	e[1] = DEPEND_MET;
	is_int(depend_combine(&d, e), DEPEND_MET, "any: one met");
	e[1] = DEPEND_NEVER;
	is_int(depend_combine(&d, e), DEPEND_NEVER, "any: all never");
}

/* Which jobs a text waits for: a job named, a whole array or one of its
 * tasks; not a singleton's. */
static void
t_waits_for(void)
{
	struct depend	d;
	char		err[256];

	ok(depend_parse("afterok:7,afterany:9_2,singleton", &d, err,
	    sizeof err) == 0, "parse");
	ok(depend_waits_for(&d, 7, -1) && depend_waits_for(&d, 7, 3),
	    "job 7, and any task of it as an array");
	ok(depend_waits_for(&d, 9, -1) && depend_waits_for(&d, 9, 2),
	    "task 2 of array 9");
	ok(!depend_waits_for(&d, 9, 4), "not task 4 of array 9");
	ok(!depend_waits_for(&d, 0, -1) && !depend_waits_for(&d, 8, -1),
	    "not a singleton's job 0, nor a job not named");
	depend_free(&d);
}

int
main(void)
{
	t_waits_for();
	t_parse();
	t_judge();
	return (tap_done());
}
