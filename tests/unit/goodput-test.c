/* goodput-test.c: policy/goodput.c, what an elastic job's reports teach
 * the scheduler; every figure worked out by hand in the comment above
 * it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "policy/goodput.h"
#include "tests/unit/tap.h"

#define is_near(got, want, ...) do {					\
	double t_g = (got), t_w = (want);				\
	if (!ok(fabs(t_g - t_w) <= 1e-9 * fmax(1, fabs(t_w)), __VA_ARGS__)) \
		printf("#   got %.17g, want %.17g\n", t_g, t_w);	\
} while (0)

static void
t_report(struct goodput_model *m, uint32_t nodes, uint32_t replicas,
    uint32_t local, double step, double sync)
{
	struct goodput_report	r = { nodes, replicas, local, step, sync };

	goodput_report(m, &r);
}

/* Nothing known: no step, no rate, one GPU to explore. */
static void
test_empty(void)
{
	struct goodput_model	m;

	goodput_init(&m);
	ok(!goodput_known(&m), "nothing reported: nothing known");
	is_int(goodput_explore(&m), 1, "explores 1 GPU");
	is_near(goodput_step(&m, 1, 1, 8, 0), 0, "no step");
	is_near(goodput_rate(&m, 1, 1, 8, 0, 8), 0, "no rate");
	t_report(&m, 1, 0, 8, 1.0, 0);
	t_report(&m, 1, 1, 8, 0, 0);
	ok(!goodput_known(&m), "reports of no GPU or no time are dropped");
}

/* The model's fit, report by report. */
static void
test_fit(void)
{
	struct goodput_model	m;

	goodput_init(&m);
	/* One GPU at 8: a 1 s step, no sync. One size: proportional, 1/8
	 * s a sample: 2 s at 16; 2 GPUs of a node: 1 s (sync not seen:
	 * none). Explores 2. */
	t_report(&m, 1, 1, 8, 1.0, 0);
	ok(goodput_known(&m), "one report: known");
	is_int(goodput_explore(&m), 2, "explores twice the 1 GPU it ran");
	is_near(goodput_step(&m, 1, 1, 16, 0), 2.0, "1/8 s a sample: 2 s at 16");
	is_near(goodput_step(&m, 1, 2, 8, 0), 1.0, "sync never seen: none");
	/* At 16: 1.5 s. Through (8, 1) and (16, 1.5): 0.5 + 0.0625 b:
	 * 0.75 s at 4; accumulating once at 8: 1 s twice. */
	t_report(&m, 1, 1, 16, 1.5, 0);
	is_near(goodput_step(&m, 1, 1, 4, 0), 0.75, "two sizes: a line");
	is_near(goodput_step(&m, 1, 1, 8, 1), 2.0, "an accumulation step "
	    "computes again without syncing");
	/* 2 GPUs of a node at 8: 1.2 s, 0.2 of it syncing. Compute at 8
	 * is 1 s, on the line. Sync on a node: 0.2 (one R: flat): 4 GPUs
	 * of a node 1.2 s; across nodes, not seen, borrows it: 1.2. */
	t_report(&m, 1, 2, 8, 1.2, 0.2);
	is_near(goodput_step(&m, 1, 4, 8, 0), 1.2, "sync on a node: 0.2");
	is_near(goodput_step(&m, 2, 4, 8, 0), 1.2, "across nodes: the "
	    "node's, not seen");
	is_int(goodput_explore(&m), 4, "explores twice the 2 GPUs it ran");
	/* Across 2 nodes, 4 GPUs: 0.6 of sync; 4 nodes, 8 GPUs: 1.0. By
	 * R - 2: 2 -> 0.6, 6 -> 1.0: 0.4 + 0.1 (R - 2): 6 GPUs on 3 nodes
	 * at 8: 1 + 0.8 = 1.8 s; on a node, still 1.2. */
	t_report(&m, 2, 4, 8, 1.6, 0.6);
	t_report(&m, 4, 8, 8, 2.0, 1.0);
	is_near(goodput_step(&m, 3, 6, 8, 0), 1.8, "across nodes: a line");
	is_near(goodput_step(&m, 1, 4, 8, 0), 1.2, "on a node: its own");
	/* The same configuration again replaces its report: at 8 on one
	 * GPU, 1.1 s now: through (8, 1.1), (16, 1.5) and the others'
	 * computes at 8 (1.0 each, three of them): no longer exactly the
	 * old line, but still a line, whatever it is: reports stay 5. */
	t_report(&m, 1, 1, 8, 1.1, 0);
	is_int(m.n, 5, "a configuration reported again is replaced");
}

/* Progress a second: efficiency over the step. Gradients sqr 1, var 3,
 * first validated batch size 8. One GPU at 8 (scale 1): gain 1, a 1 s
 * step: 1. Two GPUs of a node at 8 (scale 2): gain 4 / 2.5 = 1.6 over
 * a 1.2 s step: 4/3. With no gradients reported, the gain is the scale:
 * 2 / 1.2. */
static void
test_rate(void)
{
	struct goodput_model	m;

	goodput_init(&m);
	t_report(&m, 1, 1, 8, 1.0, 0);
	t_report(&m, 1, 2, 8, 1.2, 0.2);
	is_near(goodput_rate(&m, 1, 2, 8, 0, 8), 2 / 1.2, "no gradients: "
	    "perfectly efficient");
	goodput_grads(&m, 1, 3);
	is_near(goodput_rate(&m, 1, 1, 8, 0, 8), 1, "1 GPU at 8: 1 a second");
	is_near(goodput_rate(&m, 1, 2, 8, 0, 8), 1.6 / 1.2, "2 GPUs: 4/3");
	goodput_grads(&m, -1, 3);
	is_near(goodput_rate(&m, 1, 2, 8, 0, 8), 1.6 / 1.2, "bad gradient "
	    "statistics are dropped");
	is_near(goodput_rate(&m, 1, 2, 8, 0, 0), 0, "no first batch size: "
	    "no rate");
}

/* Speedups from one report (1 node, 2 GPUs at 32 each, 0.5 s steps of
 * which 0.1 s sync), a global batch of 64 split over n on 4-GPU nodes:
 * compute 0.4 s at 32, so 0.0125 s a sample; sync 0.1 s past one GPU.
 * n = 1: 64 each, a 0.8 s step, 1.25 batches of 64 a second; 2: 0.5 s, 2;
 * 3: 22 each (66 a step, 66/64 of a batch), 0.375 s, 2.75; 4: 0.3 s,
 * 10/3. Over 1.25: 1, 1.6, 2.2, 8/3; none past 4, twice the 2 reported. */
static void
test_speedups(void)
{
	struct goodput_model	m;
	double			s[16];

	goodput_init(&m);
	is_int(goodput_speedups(&m, 64, 4, 8, 64, s, 16), 0,
	    "speedups: none before a report");
	t_report(&m, 1, 2, 32, 0.5, 0.1);
	is_int(goodput_speedups(&m, 64, 4, 8, 64, s, 16), 5,
	    "speedups: up to 4, twice what it ran on");
	is_near(s[1], 1, "speedups: 1 on one GPU");
	is_near(s[2], 1.6, "speedups: 1.6 on 2");
	is_near(s[3], 2.2, "speedups: 2.2 on 3");
	is_near(s[4], 8.0 / 3, "speedups: 8/3 on 4");
	is_int(goodput_speedups(&m, 64, 4, 3, 64, s, 16), 4,
	    "speedups: no more than its most, 3");
	is_int(goodput_speedups(&m, 64, 4, 8, 64, s, 3), 3,
	    "speedups: no more than the table holds");
}

int
main(void)
{
	test_empty();
	test_fit();
	test_rate();
	test_speedups();
	return (tap_done());
}
