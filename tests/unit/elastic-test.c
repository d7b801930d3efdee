/* elastic-test.c: policy/elastic.c, sharing GPUs among elastic jobs by
 * speedup; every share worked out by hand in the comment above it. */
#include <stdint.h>
#include <string.h>

#include "policy/elastic.h"
#include "tests/unit/tap.h"

#define T_NELEM(a)	(sizeof (a) / sizeof (a)[0])

static struct elastic_job
t_job(const double *s, uint32_t max, uint32_t now, uint64_t attained)
{
	struct elastic_job	j;

	memset(&j, 0, sizeof j);
	j.speedup = s;
	j.max = max;
	j.now = now;
	j.attained = attained;
	return (j);
}

/* Four GPUs, three new jobs. Rule 2, least service first: b (0), c (5),
 * a (10) one GPU each, one left. Rule 3: a's next GPU adds 1, b's 0.5,
 * c's 0.2: a gets it. */
static void
test_first_then_gain(void)
{
	static const double	sa[] = { 0, 1, 2, 3, 4 };
	static const double	sb[] = { 0, 1, 1.5, 1.8, 2.0 };
	static const double	sc[] = { 0, 1, 1.2, 1.3, 1.35 };
	struct elastic_job	j[3];

	j[0] = t_job(sa, 4, 0, 10);
	j[1] = t_job(sb, 4, 0, 0);
	j[2] = t_job(sc, 4, 0, 5);
	is_int(elastic_share(j, 3, 4, 30), 0, "all 4 GPUs shared");
	ok(j[0].want == 2 && j[1].want == 1 && j[2].want == 1,
	    "one each, the fourth to the best gain (a): %u %u %u", j[0].want,
	    j[1].want, j[2].want);
}

/* More jobs than GPUs: two GPUs, services 5, 1, 3: the two least (1 and
 * 3) run, the third waits, whatever it ran on before. */
static void
test_least_service(void)
{
	static const double	s[] = { 0, 1, 2 };
	struct elastic_job	j[3];

	j[0] = t_job(s, 2, 1, 5);
	j[1] = t_job(s, 2, 0, 1);
	j[2] = t_job(s, 2, 0, 3);
	elastic_share(j, 3, 2, 30);
	ok(j[0].want == 0 && j[1].want == 1 && j[2].want == 1,
	    "least service first: %u %u %u", j[0].want, j[1].want, j[2].want);
}

/* A speedup that dips where the job crosses onto a second node: 1, 0.9
 * on 2, 2.5 on 3, 2.5 on 4. From 1 GPU: one more gains -0.1, two 0.75 a
 * GPU, three 0.5: it takes two (3 GPUs); a fourth gains nothing and is
 * left. */
static void
test_past_a_dip(void)
{
	static const double	s[] = { 0, 1, 0.9, 2.5, 2.5 };
	struct elastic_job	j = t_job(s, 4, 0, 0);

	is_int(elastic_share(&j, 1, 4, 30), 1, "one GPU left");
	is_int(j.want, 3, "past the dip to 3 GPUs");
}

/* A running job grows only where the growth pays for its restart: on 2
 * GPUs (speedup 1.9) with 10,000 s of work left, 4 GPUs (1.97) save it
 * 10,000 / 1.9 - 10,000 / 1.97 = 5,263.2 - 5,076.1 = 187.0 s. At 30 s a
 * restart, 4 x 30 = 120: it pays, the job grows to 4. At 60 s, 240: it
 * does not, the job keeps 2 and 2 GPUs are left. With 1,000 s left, the
 * saving is 18.7 s: under 120, it keeps 2. With no restart cost, any
 * gain pays. */
static void
test_worth_a_restart(void)
{
	static const double	s[] = { 0, 1, 1.9, 1.95, 1.97 };
	struct elastic_job	j = t_job(s, 4, 2, 100);

	j.left = 10000;
	is_int(elastic_share(&j, 1, 4, 30), 0, "no GPU left");
	is_int(j.want, 4, "187 s saved pays 120: grows to 4");
	is_int(elastic_share(&j, 1, 4, 60), 2, "two GPUs left");
	is_int(j.want, 2, "187 s saved does not pay 240: keeps 2");
	j.left = 1000;
	elastic_share(&j, 1, 4, 30);
	is_int(j.want, 2, "18.7 s saved does not pay 120: keeps 2");
	elastic_share(&j, 1, 4, 0);
	is_int(j.want, 4, "free restarts: grows to 4");
}

/* A shrink stands where its GPUs are wanted: two GPUs, c on both (linear,
 * 1,000 s left), n new with 100 s left. Rule 2: n first, then c, one
 * each, none left: c's shrink cannot be undone. */
static void
test_shrink_wanted(void)
{
	static const double	s[] = { 0, 1, 2 };
	struct elastic_job	j[2];

	j[0] = t_job(s, 2, 2, 0);
	j[0].left = 1000;
	j[1] = t_job(s, 2, 0, 0);
	j[1].left = 100;
	is_int(elastic_share(j, 2, 2, 30), 0, "both GPUs shared");
	ok(j[0].want == 1 && j[1].want == 1, "c shrinks to 1 for n: %u %u",
	    j[0].want, j[1].want);
}

/* A job that may not change keeps what it has: four GPUs, a on 3, fixed,
 * though its service is the larger; b, new, gets the one left. A growth
 * that does not pay and a shrink are undone while GPUs are left to undo
 * them: four GPUs, c on 3 (speedups 1, 2.8, 2.9, 2.95; 100 ms attained,
 * so 60.1 s left) and e on 1 (1, 1.2; nothing attained, 60 s). Rule 2:
 * e, then c, one each, 2 left. Rule 3: c's second GPU gains 1.8 / 60.1 =
 * 0.030, then e's second 0.2 / 60 = 0.0033 over c's third 0.1 / 60.1:
 * c 2, e 2. Rule 4: e's growth saves 60 / 1 - 60 / 1.2 = 10 s, under 2 x
 * 30: undone, a GPU left; c's shrink is undone with it: c 3, e 1, as
 * they were. */
static void
test_fixed_and_kept(void)
{
	static const double	s[] = { 0, 1, 2, 2.9, 3.5 };
	static const double	flat[] = { 0, 1, 2.8, 2.9, 2.95 };
	static const double	small[] = { 0, 1, 1.2 };
	struct elastic_job	j[2];

	j[0] = t_job(s, 4, 3, 100);
	j[0].fixed = true;
	j[1] = t_job(s, 4, 0, 0);
	is_int(elastic_share(j, 2, 4, 30), 0, "all shared");
	ok(j[0].want == 3 && j[1].want == 1, "fixed keeps 3, the new one 1: "
	    "%u %u", j[0].want, j[1].want);
	j[0] = t_job(flat, 4, 3, 100);
	j[1] = t_job(small, 2, 1, 0);
	is_int(elastic_share(j, 2, 4, 30), 0, "all shared again");
	ok(j[0].want == 3 && j[1].want == 1, "a growth and a shrink not "
	    "worth a restart are undone: %u %u", j[0].want, j[1].want);
}

/* Work left decides (Smith's rule). Seven GPUs, two jobs of the same
 * linear speedup: s (100 s left on one GPU) and l (10,000 s). Rule 2: s
 * first, one each. Rule 3: s's gain a GPU is 1 / 100, l's 1 / 10,000:
 * s takes all it can use (4), l the rest (3); with their work swapped,
 * the other way round. A job of unknown work (left 0) that attained 30
 * GPU-s is taken as 30 + 60 = 90 s left: it goes before a job of 100 s,
 * and grows first. */
static void
test_work_left(void)
{
	static const double	s[] = { 0, 1, 2, 3, 4 };
	struct elastic_job	j[2];

	j[0] = t_job(s, 4, 0, 0);
	j[0].left = 10000;
	j[1] = t_job(s, 4, 0, 0);
	j[1].left = 100;
	is_int(elastic_share(j, 2, 7, 30), 0, "all 7 shared");
	ok(j[0].want == 3 && j[1].want == 4, "the shorter grows first: %u %u",
	    j[0].want, j[1].want);
	j[0].left = 100;
	j[0].now = j[1].now = 0;
	j[1].left = 10000;
	elastic_share(j, 2, 7, 30);
	ok(j[0].want == 4 && j[1].want == 3, "swapped: %u %u", j[0].want,
	    j[1].want);
	/* Two GPUs: one each, least work first among three. */
	j[0] = t_job(s, 4, 0, 30000);
	j[1] = t_job(s, 4, 0, 0);
	j[1].left = 100;
	is_int(elastic_share(j, 2, 1, 30), 0, "one GPU shared");
	ok(j[0].want == 1 && j[1].want == 0, "unknown work, 30 GPU-s "
	    "attained: 90 s left, before 100: %u %u", j[0].want, j[1].want);
	j[0] = t_job(s, 4, 0, 50000);
	elastic_share(j, 2, 1, 30);
	ok(j[0].want == 0 && j[1].want == 1, "50 GPU-s attained: 110 s left, "
	    "after 100: %u %u", j[0].want, j[1].want);
}

/* No jobs, no GPUs, a cap below the GPUs. */
static void
test_edges(void)
{
	static const double	s[] = { 0, 1, 2 };
	struct elastic_job	j = t_job(s, 2, 0, 0);

	is_int(elastic_share(NULL, 0, 8, 30), 8, "no jobs: all left");
	is_int(elastic_share(&j, 1, 0, 30), 0, "no GPUs: none left");
	is_int(j.want, 0, "no GPUs: it waits");
	is_int(elastic_share(&j, 1, 8, 30), 6, "at its most, 2 of 8");
	is_int(j.want, 2, "never past its most");
}

int
main(void)
{
	test_first_then_gain();
	test_least_service();
	test_past_a_dip();
	test_worth_a_restart();
	test_shrink_wanted();
	test_fixed_and_kept();
	test_work_left();
	test_edges();
	return (tap_done());
}
