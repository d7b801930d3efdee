/* progress-test.c: a training job's progress lines (common/progress.c):
 * what is taken, what makes a line bad and what the error says, and the
 * same bounds on what a peer sends as JSON. */
#include <math.h>
#include <string.h>

#include "common/progress.h"
#include "tests/unit/tap.h"

static int
t_parse(const char *line, struct progress *p, char *err, size_t errlen)
{
	err[0] = '\0';
	return (progress_parse(line, strlen(line), p, err, errlen));
}

static void
test_good(void)
{
	struct progress	p;
	char		err[256];

	ok(t_parse("step_time=0.31 sync_time=0.08 local_bsz=64", &p, err,
	    sizeof err) == 0, "the three needed keys: %s", err);
	ok(p.step_time == 0.31 && p.sync_time == 0.08 && p.local_bsz == 64,
	    "their values");
	ok(!p.has_samples && !p.has_grad, "nothing else");
	ok(t_parse("\tlocal_bsz=8  grad_var=4.7e-2 samples=128000 "
	    "grad_sqr=0.0021 sync_time=0 step_time=1e-3 epoch=3\r", &p, err,
	    sizeof err) == 0, "any order, tabs, a CR, an unknown key: %s",
	    err);
	ok(p.has_samples && p.samples == 128000, "samples");
	ok(p.has_grad && p.grad_sqr == 0.0021 && p.grad_var == 0.047,
	    "the gradient statistics");
	ok(p.step_time == 0.001 && p.sync_time == 0, "1e-3 and 0");
	ok(t_parse("step_time=86400 sync_time=86400 local_bsz=10000000",
	    &p, err, sizeof err) == 0, "the bounds themselves: %s", err);
}

static void
test_bad(void)
{
	static const struct {
		const char	*line;
		const char	*err;
	} cases[] = {
		{ "", "no step_time; expected step_time, sync_time and "
		  "local_bsz in every line" },
		{ "step_time=1 sync_time=0", "no local_bsz; expected "
		  "step_time, sync_time and local_bsz in every line" },
		{ "step_time=1 sync_time=0 local_bsz=8 hello", "word 4 is not "
		  "key=value; expected words such as step_time=0.31" },
		{ "Step_time=1", "word 1 is not key=value; expected words "
		  "such as step_time=0.31" },
		{ "step_time=0 sync_time=0 local_bsz=8", "step_time: expected "
		  "seconds, more than 0 and at most 86400" },
		{ "step_time=86401 sync_time=0 local_bsz=8", "step_time: "
		  "expected seconds, more than 0 and at most 86400" },
		{ "step_time=inf sync_time=0 local_bsz=8", "step_time: "
		  "expected seconds, more than 0 and at most 86400" },
		{ "step_time=nan sync_time=0 local_bsz=8", "step_time: "
		  "expected seconds, more than 0 and at most 86400" },
		{ "step_time=0x1p3 sync_time=0 local_bsz=8", "step_time: "
		  "expected seconds, more than 0 and at most 86400" },
		{ "step_time=1 sync_time=-0.1 local_bsz=8", "sync_time: "
		  "expected seconds, 0 to step_time" },
		{ "step_time=1 sync_time=2 local_bsz=8", "sync_time is more "
		  "than step_time; expected the part of a step spent "
		  "synchronising" },
		{ "step_time=1 sync_time=0 local_bsz=0", "local_bsz: expected "
		  "a whole number of samples, 1 to 10000000" },
		{ "step_time=1 sync_time=0 local_bsz=8.5", "local_bsz: "
		  "expected a whole number of samples, 1 to 10000000" },
		{ "step_time=1 sync_time=0 local_bsz=-8", "local_bsz: "
		  "expected a whole number of samples, 1 to 10000000" },
		{ "step_time=1 sync_time=0 local_bsz=8 samples=", "samples: "
		  "expected a whole number, 0 to 10^18" },
		{ "step_time=1 sync_time=0 local_bsz=8 grad_sqr=1", "grad_sqr "
		  "and grad_var come together; expected both or neither" },
		{ "step_time=1 sync_time=0 local_bsz=8 grad_sqr=1 "
		  "grad_var=1e31", "grad_var: expected a number, 0 to 10^30" },
		{ "step_time=1 step_time=2 sync_time=0 local_bsz=8",
		  "step_time twice; expected each key once a line" },
	};
	struct progress	p;
	char		err[256], big[PROGRESS_MAX_LINE + 2];
	size_t		i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ok(t_parse(cases[i].line, &p, err, sizeof err) == -1,
		    "bad: \"%s\"", cases[i].line);
		is_str(err, cases[i].err, "and says: %s", cases[i].err);
	}
	memset(big, ' ', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "step_time=1 sync_time=0 local_bsz=8", 35);
	ok(t_parse(big, &p, err, sizeof err) == -1, "a line of 513 bytes");
	is_str(err, "a line of 513 bytes; expected at most 512",
	    "says its length");
}

static void
test_json(void)
{
	struct progress	 p, back;
	json_t		*o;
	char		 err[256];

	ok(t_parse("step_time=0.5 sync_time=0.25 local_bsz=32 samples=7 "
	    "grad_sqr=2 grad_var=3", &p, err, sizeof err) == 0, "parsed");
	o = progress_to_json(&p);
	ok(progress_from_json(o, &back, err, sizeof err) == 0,
	    "read back: %s", err);
	ok(memcmp(&p, &back, sizeof p) == 0, "the same report");
	json_decref(o);
	o = json_pack("{s:f, s:f, s:f}", "step_time", 1.0, "sync_time", 0.0,
	    "local_bsz", 8.0);
	ok(progress_from_json(o, &back, err, sizeof err) == -1,
	    "a peer's local_bsz that is not whole");
	is_str(err, "local_bsz: expected a whole number of samples, 1 to "
	    "10000000", "names it");
	json_decref(o);
	o = json_pack("{s:f, s:f, s:i}", "step_time", -1.0, "sync_time",
	    0.0, "local_bsz", 8);
	ok(progress_from_json(o, &back, err, sizeof err) == -1,
	    "a peer's negative step_time");
	json_decref(o);
	ok(progress_from_json(json_null(), &back, err, sizeof err) == -1,
	    "not an object");
}

int
main(void)
{
	test_good();
	test_bad();
	test_json();
	return (tap_done());
}
