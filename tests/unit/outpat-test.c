/* outpat-test.c: output file patterns (common/outpat.c). */
#include <stdio.h>
#include <string.h>

#include "common/outpat.h"
#include "tests/unit/tap.h"

static const struct outpat_vars vars = {
	.id = 12, .name = "tr", .user = "al", .restarts = 0,
	.node = "n2", .rank = 1, .node_rank = 1,
};

static void
t_expand(const struct outpat_vars *v, const char *pattern, const char *want,
    const char *what)
{
	char	out[256], err[256] = "";

	if (outpat_expand(pattern, v, out, sizeof out, err, sizeof err) != 0) {
		ok(0, "%s", what);
		printf("#   \"%s\" failed: %s\n", pattern, err);
		return;
	}
	is_str(out, want, "%s", what);
}

static void
t_check_ok(const char *pattern)
{
	char	err[256] = "";

	if (!ok(outpat_check(pattern, err, sizeof err) == 0,
	    "\"%s\" is a valid pattern", pattern))
		printf("#   err \"%s\"\n", err);
}

static void
t_check_bad(const char *pattern, const char *want)
{
	char	err[512] = "";
	int	r;

	r = outpat_check(pattern, err, sizeof err);
	if (!ok(r == -1 && strstr(err, want) != NULL,
	    "\"%s\" is refused", pattern))
		printf("#   returned %d, err \"%s\", want \"%s\"\n", r, err,
		    want);
}

static void
test_expand(void)
{
	struct outpat_vars	v = vars;

	t_expand(&v, "out-%j-%x-%u-%%-%q.txt", "out-12-tr-al-%-%q.txt",
	    "%j %x %u %% expand, an unknown %q stays");
	t_expand(&v, "run-%r.txt", "run-0.txt", "%r is 0 on the first run");
	v.restarts = 42;
	t_expand(&v, "%j-%r-%%r", "12-42-%r",
	    "%r is the restart count, %%r a literal");
	t_expand(&v, "%", "%", "a trailing % stays");
	t_expand(&v, "a%%%%b", "a%%b", "%%%% is two percent signs");
	t_expand(&v, "plain.txt", "plain.txt", "no % is copied as it is");
	t_expand(&v, OUTPAT_DEFAULT, "gbatch-12.out", "the default pattern");
	v.id = UINT64_MAX;
	t_expand(&v, "%j", "18446744073709551615", "the largest job id");
}

static void
test_parts(void)
{
	struct outpat_vars	v = vars;

	t_expand(&v, "out-%N-%t.txt", "out-n2-1.txt",
	    "%N is the part's node, %t its rank");
	v.rank = 0;
	t_expand(&v, "%t%%t%N", "0%tn2", "rank 0, and %%t is a literal");
	v.rank = 7;
	t_expand(&v, "o-%n-%t", "o-1-7", "%n is the node's rank, %t the task's");
	v.node_rank = -1;
	t_expand(&v, "o-%n", "o-%n", "a node rank not known keeps %n");
}

static void
test_unknown_values(void)
{
	struct outpat_vars	v = { .id = 7, .name = NULL, .user = NULL,
				    .node = NULL, .rank = -1 };

	t_expand(&v, "%x-%u-%N-%t-%j", "%x-%u-%N-%t-7",
	    "a value not known keeps its sequence");
}

/* A job array's task: %A the array, %a the task; a job of no array has
 * its own id as %A and task 0; an array's row before its tasks are known
 * keeps %a as written. */
static void
test_array(void)
{
	struct outpat_vars	v = vars;

	v.array_job = 9;
	v.array_task = 4;
	t_expand(&v, OUTPAT_ARRAY_DEFAULT, "gbatch-9_4.out",
	    "an array's default: %A_%a");
	v.array_job = 0;
	t_expand(&v, "o-%A-%a", "o-12-0", "no array: %A is the job, %a 0");
	v.array_job = 9;
	v.array_task = -1;
	t_expand(&v, "o-%A-%a", "o-9-%a", "a task not known keeps %a");
}

static void
test_per_part(void)
{
	ok(outpat_per_part("o-%N.txt"), "%%N names the part");
	ok(outpat_per_part("o-%j-%t"), "%%t names the part");
	ok(outpat_per_part("%%%t"), "%%%%%%t: a literal, then %%t");
	ok(!outpat_per_part("o-%j-%r.txt"), "%%j and %%r name the job");
	ok(!outpat_per_part("o-%%N-%%t"), "%%%%N and %%%%t are literals");
	ok(!outpat_per_part("o%"), "a trailing %% names nothing");
	ok(outpat_per_part("o-%n"), "%%n names the part");
	ok(outpat_per_task("o-%t"), "%%t names the task");
	ok(!outpat_per_task("o-%N-%n"), "%%N and %%n name the node alone");
	ok(!outpat_per_task("o-%%t"), "%%%%t is a literal");
}

static void
test_truncates(void)
{
	ok(outpat_truncates("o-%j", 0, 1),
	    "a one-node job truncates on its first run");
	ok(!outpat_truncates("o-%j", 1, 1), "and appends once requeued");
	ok(!outpat_truncates("o-%j", 0, 2),
	    "the parts of a multi-node job append to a shared file");
	ok(outpat_truncates("o-%j-%t", 0, 2),
	    "but truncate a file of their own (%%t) on the first run");
	ok(outpat_truncates("o-%N", 0, 3), "or (%%N)");
	ok(!outpat_truncates("o-%N", 2, 3), "and append to it when requeued");
}

static void
test_bounds(void)
{
	char	out[8], err[256] = "";
	int	r;

	r = outpat_expand("%j%j", &vars, out, sizeof out, err, sizeof err);
	is_int(r, 0, "a result of 7 bytes fits in 8");
	is_str(out, "1212", "and is complete");
	memset(out, 'z', sizeof out);
	r = outpat_expand("abcd%x%x", &vars, out, sizeof out, err, sizeof err);
	ok(r == -1 && strstr(err, "longer than 7 bytes") != NULL,
	    "a result of 8 bytes does not fit in 8: \"%s\"", err);
	r = outpat_expand("%x", &vars, out, 0, err, sizeof err);
	is_int(r, -1, "no buffer at all is an error");
}

static void
test_check(void)
{
	t_check_ok("gbatch-%j.out");
	t_check_ok("logs/%x-%u-%r-%%.txt");
	t_check_ok("100%%");
	t_check_ok("o-%N-%t.txt");
	t_check_bad("", "expected a file name pattern, got an empty string");
	t_check_bad("a%q", "unknown \"%q\" in \"a%q\"; accepted: %j (job id), "
	    "%x (job name), %u (user), %r (restart count), %N (node name), "
	    "%n (node rank), %t (task rank), %A (array job id), %a (array task id), %% (a percent "
	    "sign)");
	t_check_bad("a%", "unknown \"%\" in \"a%\"");
	t_check_bad("%%%", "unknown \"%\" in \"%%%\"");
}

static void
test_check_short_err(void)
{
	char	err[16];

	memset(err, 'z', sizeof err);
	is_int(outpat_check("%q", err, sizeof err), -1,
	    "a short err buffer still refuses");
	ok(memchr(err, '\0', sizeof err) != NULL, "and is terminated");
}

int
main(void)
{
	test_expand();
	test_parts();
	test_unknown_values();
	test_per_part();
	test_array();
	test_truncates();
	test_bounds();
	test_check();
	test_check_short_err();
	return (tap_done());
}
