/* sched-suspend-test.c: a job suspended on its GPUs and resumed
 * (policy/sched-core-suspend.c): it keeps its GPUs and is no victim while
 * suspended, earns no service, and its demotion and expected end are put
 * off by the time it was suspended. Times are ms; the expected values are
 * worked out in the comments. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"


/* dlas, two queues at thr0 GPU-ms, backfill depth, one node of 4 GPUs. */
static struct sched_core *
t_core(uint64_t thr0, uint32_t depth)
{
	struct sched_conf	 conf;
	struct sched_core	*core;

	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	conf.nqueues = 2;
	conf.thresholds[0] = thr0;
	conf.backfill_depth = depth;
	core = sched_core_create(&conf);
	place_node_add(sched_core_cluster(core), 4, 0);
	return (core);
}

static void
t_spec(struct sched_jobspec *spec, uint64_t id, int64_t limit, int64_t now)
{
	memset(spec, 0, sizeof *spec);
	spec->id = id;
	spec->gpus = 4;
	spec->submit = now;
	spec->first_start = SCHED_NEVER;
	spec->last_stop = now;
	spec->limit = limit;
}

/* A job of 4 GPUs with time limit limit (ms, 0: none). */
static struct sched_cjob *
t_submit(struct sched_core *core, uint64_t id, int64_t limit, int64_t now)
{
	struct sched_jobspec	spec;

	t_spec(&spec, id, limit, now);
	return (sched_core_submit(core, &spec, now));
}

/* A runs from 0 and is demoted to Q1 at once (threshold 1,000 GPU-ms:
 * 250 ms on 4 GPUs); suspended at 10 s, it has 40,000 GPU-ms. B (Q0)
 * comes at 11 s: A, suspended, is no victim and keeps its GPUs, so B
 * waits and nothing is preempted. A earns nothing while suspended: still
 * 40,000 at 20 s. Resumed at 30 s, it earns again: 4 x 5 s more by 35 s,
 * 60,000; and a victim again, it is preempted for B at 35 s. */
static void
t_victim_and_service(void)
{
	struct sched_core	*core = t_core(1000, 0);
	struct sched_cjob	*a, *b;

	a = t_submit(core, 1, 0, 0);
	ok(t_pass(core, 0) == 1 && t_did(SCHED_ACT_START, a), "A starts");
	(void)t_pass(core, 250);
	ok(sched_cjob_queue(a) == 1, "A is demoted to Q1 at 250 ms");
	ok(sched_core_suspend(core, a, 10000), "A is suspended at 10 s");
	is_int(sched_cjob_state(a), SCHED_JOB_SUSPENDED, "A is SUSPENDED");
	is_int(sched_core_suspended(core), 1, "one job suspended");
	is_int(sched_core_running(core), 0, "none counted running");
	ok(!sched_core_suspend(core, a, 10000),
	    "a suspended job is not suspended twice");
	b = t_submit(core, 2, 0, 11000);
	is_int(t_pass(core, 11000), 0,
	    "B waits and A, suspended, is not preempted for it");
	is_int(sched_cjob_state(b), SCHED_JOB_PENDING, "B pends");
	is_int(sched_cjob_attained(a, 20000), 40000,
	    "A's service stops at its suspension (4 x 10 s)");
	is_int(sched_cjob_total_executed(a, 20000), 10000,
	    "so does its run time");
	ok(!sched_core_resume(core, b, 30000), "a pending job is not resumed");
	ok(sched_core_resume(core, a, 30000), "A resumes at 30 s");
	is_int(sched_cjob_state(a), SCHED_JOB_RUNNING, "A is RUNNING");
	is_int(sched_core_suspended(core), 0, "none suspended");
	is_int(sched_cjob_attained(a, 35000), 60000,
	    "A earns from its resume on (40,000 + 4 x 5 s)");
	ok(t_pass(core, 35000) == 1 && t_did(SCHED_ACT_PREEMPT, a),
	    "resumed, A is a victim again: preempted for B");
	sched_core_free(core);
}

/* Threshold 200,000 GPU-ms: 50 s of A's 4 GPUs. Suspended from 10 s to
 * 30 s, A has no timer meanwhile, and is due for demotion at 70 s. */
static void
t_demotion(void)
{
	struct sched_core	*core = t_core(200000, 0);
	struct sched_cjob	*a;

	a = t_submit(core, 1, 0, 0);
	(void)t_pass(core, 0);
	is_int(sched_core_next_wakeup(core), 50000, "A due at 50 s");
	(void)sched_core_suspend(core, a, 10000);
	ok(sched_core_next_wakeup(core) == SCHED_NEVER,
	    "no demotion is due while A is suspended");
	(void)sched_core_resume(core, a, 30000);
	is_int(sched_core_next_wakeup(core), 70000,
	    "resumed at 30 s, A is due at 70 s (50 s of run)");
	(void)t_pass(core, 69999);
	is_int(sched_cjob_queue(a), 0, "still in Q0 at 69.999 s");
	(void)t_pass(core, 70000);
	is_int(sched_cjob_queue(a), 1, "in Q1 at 70 s");
	sched_core_free(core);
}

/* Backfill: A (limit 100 s) runs from 0; C (4 GPUs) waits behind it and
 * is promised A's end, 100 s. A suspended at 10 s: its end is not known
 * (it may stay suspended), so C is promised nothing. Resumed at 30 s
 * with 90 s of its limit left, A is expected to end at 120 s. */
static void
t_expected_end(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 8, 4);
	struct sched_cjob	*a, *c;

	a = t_submit(core, 1, 100000, 0);
	(void)t_pass(core, 0);
	c = t_submit(core, 2, 0, 1000);
	(void)t_pass(core, 1000);
	is_int(sched_cjob_resv_start(core, c), 100000,
	    "C is promised A's end, 100 s");
	(void)sched_core_suspend(core, a, 10000);
	(void)t_pass(core, 10000);
	ok(sched_cjob_resv_start(core, c) == SCHED_NEVER,
	    "A suspended: C is promised nothing");
	(void)sched_core_resume(core, a, 30000);
	(void)t_pass(core, 30000);
	is_int(sched_cjob_resv_start(core, c), 120000,
	    "A resumed at 30 s: C is promised 120 s");
	sched_core_free(core);
}

/* A suspended job that ends frees its GPUs; one whose node is lost
 * waits again with the service it had; one adopted suspended after a
 * restart holds its GPUs, suspended. */
static void
t_end_stop_adopt(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 8, 0);
	struct sched_jobspec	 spec;
	struct place_alloc	 al;
	struct sched_cjob	*a, *b, *d;

	a = t_submit(core, 1, 0, 0);
	(void)t_pass(core, 0);
	(void)sched_core_suspend(core, a, 5000);
	b = t_submit(core, 2, 0, 6000);
	is_int(t_pass(core, 6000), 0, "B waits for A's GPUs");
	sched_core_end(core, a, 7000);
	is_int(sched_core_suspended(core), 0, "A ended: none suspended");
	ok(t_pass(core, 7000) == 1 && t_did(SCHED_ACT_START, b),
	    "B starts on the GPUs A held");
	(void)sched_core_suspend(core, b, 9000);
	sched_core_stopped(core, b, 12000);
	is_int(sched_cjob_state(b), SCHED_JOB_PENDING,
	    "B, suspended, is pending again once stopped");
	is_int(sched_cjob_attained(b, 20000), 8000,
	    "with the service of its 2 s of run (4 x 2 s)");
	sched_core_end(core, b, 12000);

	t_spec(&spec, 3, 0, 0);
	spec.suspended = true;
	spec.attained = 4000;
	memset(&al, 0, sizeof al);
	al.node = 0;
	al.mask = 0xf;
	d = sched_core_adopt(core, &spec, &al, 1, 20000);
	is_int(sched_cjob_state(d), SCHED_JOB_SUSPENDED,
	    "a job adopted suspended is SUSPENDED");
	is_int(sched_cjob_attained(d, 30000), 4000,
	    "and earns nothing while it is");
	b = t_submit(core, 4, 0, 21000);
	is_int(t_pass(core, 21000), 0, "its GPUs stay held");
	sched_core_free(core);
}

int
main(void)
{
	t_victim_and_service();
	t_demotion();
	t_expected_end();
	t_end_stop_adopt();
	return (tap_done());
}
