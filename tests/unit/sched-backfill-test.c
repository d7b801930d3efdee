/* sched-backfill-test.c: backfill in the scheduling core
 * (policy/sched-core-backfill.c): the first job that can neither start
 * nor make room is promised the earliest time its GPUs are free; a job
 * behind it starts on the promised GPUs only if it ends by then (its time
 * limit, or a prediction where it can be requeued), anywhere else
 * whatever its end; it preempts nothing unless it ends in time; running
 * jobs of unknown end promise nothing; depth 0 is the old skipping.
 * Times are ms; the expected values are worked out in the comments. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"


/* dlas, two queues at thr0 GPU-ms, backfill depth, nnodes nodes of
 * gpus GPUs each. */
static struct sched_core *
t_core(uint64_t thr0, uint32_t depth, uint32_t nnodes, uint32_t gpus)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	uint32_t		 i;

	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	conf.thresholds[0] = thr0;
	conf.backfill_depth = depth;
	core = sched_core_create(&conf);
	for (i = 0; i < nnodes; i++)
		place_node_add(sched_core_cluster(core), gpus, 0);
	return (core);
}

/* A job of gpus GPUs, time limit limit and predicted run time expect
 * (ms, 0: not known); any shape unless one_node. */
static struct sched_cjob *
t_submit(struct sched_core *core, uint64_t id, uint32_t gpus, int64_t limit,
    int64_t expect, bool one_node, int64_t now)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = gpus;
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	spec.any_shape = !one_node;
	spec.limit = limit;
	spec.expect = expect;
	return (sched_core_submit(core, &spec, now));
}

/* 2 nodes of 4. A (4 GPUs, limit 100 s) and B (2, limit 1,000 s) run
 * from 0: A on node 0, B on node 1, 2 GPUs free there. C (8 GPUs) comes
 * at 1 s: 2 free, no victim in a lower queue. Given back by end, A at
 * 100 s leaves 6 free, B at 1,000 s all 8: C is promised 1,000,000 ms,
 * and node 1's 2 free GPUs are held for it. */
static void
test_promise(void)
{
	struct sched_core	*core = t_core(UINT64_C(1) << 50, 1, 2, 4);
	struct sched_cjob	*a, *b, *c, *d, *e;

	a = t_submit(core, 1, 4, 100000, 0, false, 0);
	b = t_submit(core, 2, 2, 1000000, 0, false, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, a) && t_did(SCHED_ACT_START, b),
	    "A and B start");
	c = t_submit(core, 3, 8, 0, 0, false, 1000);
	e = t_submit(core, 4, 1, 0, 0, false, 1000);
	d = t_submit(core, 5, 2, 10000, 0, false, 1000);
	t_pass(core, 1000);
	is_int(sched_cjob_resv_start(core, c), 1000000, "C is promised "
	    "B's end, 1,000 s");
	ok(!t_did(SCHED_ACT_START, e) && sched_cjob_reason(core, e) ==
	    SCHED_REASON_RESOURCES, "E (no limit) does not take C's GPUs");
	is_int(sched_cjob_resv_start(core, e), SCHED_NEVER, "and is "
	    "promised nothing (depth 1)");
	ok(t_did(SCHED_ACT_START, d), "D (limit 10 s, ends at 11 s) is "
	    "backfilled on them");
	is_int(t_nacts, 1, "one start in all");
	/* The next pass: nothing free, the promise stands. */
	t_pass(core, 2000);
	is_int(sched_cjob_resv_start(core, c), 1000000, "the promise is "
	    "made again");
	ok(!t_did(SCHED_ACT_START, e), "E waits still");
	sched_core_end(core, d, 11000);
	sched_core_end(core, a, 100000);
	sched_core_end(core, b, 1000000);
	t_pass(core, 1000000);
	ok(t_did(SCHED_ACT_START, c), "C starts when promised");
	sched_core_free(core);
}

/* The same without backfill: E takes the 2 free GPUs, C waits on. */
static void
test_depth_zero(void)
{
	struct sched_core	*core = t_core(UINT64_C(1) << 50, 0, 2, 4);
	struct sched_cjob	*c, *e;

	t_submit(core, 1, 4, 100000, 0, false, 0);
	t_submit(core, 2, 2, 1000000, 0, false, 0);
	t_pass(core, 0);
	c = t_submit(core, 3, 8, 0, 0, false, 1000);
	e = t_submit(core, 4, 2, 0, 0, false, 1000);
	t_pass(core, 1000);
	ok(t_did(SCHED_ACT_START, e), "depth 0: E skips ahead of C");
	is_int(sched_cjob_resv_start(core, c), SCHED_NEVER, "no promise");
	sched_core_free(core);
}

/* GPUs the promise does not need. 2 nodes of 4: A holds node 0 until
 * 100 s, B node 1's first 2 until 1,000 s. C wants 4 on one node: at
 * 100 s node 0 is whole, so C is promised node 0, 100,000 ms; node 1's
 * free 2 are no one's, and E (no limit) takes them. */
static void
test_other_gpus(void)
{
	struct sched_core	*core = t_core(UINT64_C(1) << 50, 1, 2, 4);
	struct sched_cjob	*c, *e;

	t_submit(core, 1, 4, 100000, 0, true, 0);
	t_submit(core, 2, 2, 1000000, 0, true, 0);
	t_pass(core, 0);
	c = t_submit(core, 3, 4, 0, 0, true, 1000);
	e = t_submit(core, 4, 2, 0, 0, true, 1000);
	t_pass(core, 1000);
	is_int(sched_cjob_resv_start(core, c), 100000, "C is promised "
	    "node 0 at A's end");
	ok(t_did(SCHED_ACT_START, e), "E, of unknown end, takes GPUs C "
	    "does not need");
	sched_core_free(core);
}

/* Predictions: a job that can be requeued may lean on its predicted end;
 * one that may not be requeued needs a limit. Same timeline as
 * test_promise (C promised 1,000 s). */
static void
test_prediction(void)
{
	struct sched_core	*core = t_core(UINT64_C(1) << 50, 1, 2, 4);
	struct sched_jobspec	 spec;
	struct sched_cjob	*f, *g, *h;

	t_submit(core, 1, 4, 100000, 0, false, 0);
	t_submit(core, 2, 2, 1000000, 0, false, 0);
	t_pass(core, 0);
	t_submit(core, 3, 8, 0, 0, false, 1000);
	memset(&spec, 0, sizeof spec);
	spec.id = 4;
	spec.gpus = 1;
	spec.submit = 1000;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = 1000;
	spec.any_shape = true;
	spec.expect = 60000;
	spec.no_requeue = true;
	g = sched_core_submit(core, &spec, 1000);
	f = t_submit(core, 5, 1, 0, 60000, false, 1000);
	/* H ran 70 s before, past its prediction of 60: leaning on it, it
	 * would be stopped as it starts, again and again. */
	memset(&spec, 0, sizeof spec);
	spec.id = 6;
	spec.gpus = 1;
	spec.submit = 1000;
	spec.first_start = 1000;
	spec.last_stop = 1000;
	spec.executed = spec.total_executed = 70000;
	spec.attained = 70000;
	spec.any_shape = true;
	spec.expect = 60000;
	h = sched_core_submit(core, &spec, 1000);
	t_pass(core, 1000);
	ok(!t_did(SCHED_ACT_START, h), "past its prediction: not "
	    "backfilled");
	ok(!t_did(SCHED_ACT_START, g), "predicted 60 s but never requeued: "
	    "not backfilled");
	ok(t_did(SCHED_ACT_START, f), "predicted 60 s and requeueable: "
	    "backfilled");
	sched_core_free(core);
}

/* A job let in on its prediction that overruns it is preempted at the
 * promise's start. Same timeline (C promised 1,000 s); F (1 GPU, predicted
 * 60 s, requeueable) is backfilled at 1 s and never ends by itself. */
static void
test_overrun(void)
{
	struct sched_core	*core = t_core(UINT64_C(1) << 50, 1, 2, 4);
	struct sched_cjob	*a, *b, *c, *f;

	a = t_submit(core, 1, 4, 100000, 0, false, 0);
	b = t_submit(core, 2, 2, 1000000, 0, false, 0);
	t_pass(core, 0);
	c = t_submit(core, 3, 8, 0, 0, false, 1000);
	f = t_submit(core, 5, 1, 0, 60000, false, 1000);
	t_pass(core, 1000);
	ok(t_did(SCHED_ACT_START, f), "F is backfilled on its prediction");
	ok(sched_core_next_wakeup(core) <= 1000000, "the core asks to be "
	    "woken by the promise's start (%lld)",
	    (long long)sched_core_next_wakeup(core));
	sched_core_end(core, a, 100000);
	t_pass(core, 100000);
	ok(!t_did(SCHED_ACT_PREEMPT, f), "at 100 s F runs on");
	sched_core_end(core, b, 1000000);
	t_pass(core, 1000000);
	ok(t_did(SCHED_ACT_PREEMPT, f), "at 1,000 s, still running, F is "
	    "preempted");
	ok(!t_did(SCHED_ACT_START, c), "C waits for F to stop");
	sched_core_stopped(core, f, 1000500);
	t_pass(core, 1000500);
	ok(t_did(SCHED_ACT_START, c), "then C starts");
	sched_core_free(core);
}

/* Unknown ends promise nothing: A and B have no limit, so C gets no
 * promise and E skips ahead as without backfill. */
static void
test_unknown_ends(void)
{
	struct sched_core	*core = t_core(UINT64_C(1) << 50, 1, 2, 4);
	struct sched_cjob	*c, *e;

	t_submit(core, 1, 4, 0, 0, false, 0);
	t_submit(core, 2, 2, 0, 0, false, 0);
	t_pass(core, 0);
	c = t_submit(core, 3, 8, 0, 0, false, 1000);
	e = t_submit(core, 4, 2, 0, 0, false, 1000);
	t_pass(core, 1000);
	is_int(sched_cjob_resv_start(core, c), SCHED_NEVER, "no end known: "
	    "no promise");
	ok(t_did(SCHED_ACT_START, e), "and E starts");
	sched_core_free(core);
}

/* Behind a promise a job preempts only if it ends in time. 2 nodes of
 * 4, queues at 1,000 GPU-ms. A (4 GPUs, limit 100 s, never requeued)
 * holds node 0; V (2 GPUs, limit 1,000 s) node 1 and is demoted to
 * queue 1 by 1 s. C (8 GPUs) at 1 s: 2 free + V's 2 < 8, so it is
 * promised V's end (A's 4 + V's 2 + 2 = 8 at 1,000 s) and node 1's free
 * 2 are held. P (2 GPUs, queue 0, no limit) could preempt V, but must
 * not: V's GPUs are C's. Q (2 GPUs, limit 5 s) takes the held 2. */
static void
test_no_preempt_behind(void)
{
	struct sched_core	*core = t_core(1000, 1, 2, 4);
	struct sched_jobspec	 spec;
	struct sched_cjob	*a, *v, *c, *p, *q;

	memset(&spec, 0, sizeof spec);
	spec.id = 1;
	spec.gpus = 4;
	spec.first_start = SCHED_NEVER;
	spec.any_shape = true;
	spec.limit = 100000;
	spec.no_requeue = true;
	a = sched_core_submit(core, &spec, 0);
	v = t_submit(core, 2, 2, 1000000, 0, false, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, a) && t_did(SCHED_ACT_START, v),
	    "A and V start");
	c = t_submit(core, 3, 8, 0, 0, false, 1000);
	p = t_submit(core, 4, 2, 0, 0, false, 1000);
	q = t_submit(core, 5, 2, 5000, 0, false, 1000);
	t_pass(core, 1000);
	is_int(sched_cjob_queue(v), 1, "V was demoted");
	is_int(sched_cjob_resv_start(core, c), 1000000, "C is promised "
	    "1,000 s");
	ok(!t_did(SCHED_ACT_PREEMPT, v), "P does not preempt V");
	ok(!t_did(SCHED_ACT_START, p), "nor starts");
	ok(t_did(SCHED_ACT_START, q), "Q (ends at 6 s) is backfilled");
	sched_core_free(core);
}

int
main(void)
{
	test_promise();
	test_depth_zero();
	test_other_gpus();
	test_prediction();
	test_unknown_ends();
	test_overrun();
	test_no_preempt_behind();
	return (tap_done());
}
