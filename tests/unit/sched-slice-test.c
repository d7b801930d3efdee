/* sched-slice-test.c: time-slicing (policy/sched-core-slice.c). Jobs that
 * opted in take turns of 10 s on GPUs others of them hold: a newcomer
 * joins a ring whose running job had its turn, the turns go round in the
 * order the jobs were suspended, a ring preempted is stopped whole. Times
 * are ms; the expected timelines are worked out in the comments. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"

#define T_SLICE	10000

/* dlas, two queues at thr0 GPU-ms, turns of 10 s, at most most jobs a
 * ring; one node of gpus GPUs. */
static struct sched_core *
t_core(uint64_t thr0, uint32_t most, uint32_t gpus)
{
	struct sched_conf	 conf;
	struct sched_core	*core;

	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	conf.nqueues = 2;
	conf.thresholds[0] = thr0;
	conf.time_slice = T_SLICE / 1000;
	conf.slice_jobs = most;
	core = sched_core_create(&conf);
	place_node_add(sched_core_cluster(core), gpus, 0);
	return (core);
}

/* A job of gpus GPUs that opted in (slice) declaring mem MB a GPU. */
static struct sched_cjob *
t_job(struct sched_core *core, uint64_t id, uint32_t gpus, bool slice,
    uint32_t mem, int64_t now)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = gpus;
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	spec.time_slice = slice;
	spec.gpu_mem = mem;
	return (sched_core_submit(core, &spec, now));
}

/* Whether the last pass took exactly these two actions, in this order. */
static bool
t_two(enum sched_action_type t1, const struct sched_cjob *j1,
    enum sched_action_type t2, const struct sched_cjob *j2)
{
	return (t_nacts == 2 && t_acts[0].type == t1 && t_acts[0].job == j1 &&
	    t_acts[1].type == t2 && t_acts[1].job == j2);
}

/* A, B and C, of one GPU each, come at 0 to a node of one GPU:
 *   0   A starts; B and C wait, no turn is over: wake at 10 s
 *   10  A's turn is over: A suspended, B (first in the queue) starts
 *   20  B's: B suspended, C starts; the ring is A, B, C, turns A then B
 *   30  C's: C suspended, A resumes (the first suspended)
 *   40  A's: A suspended, B resumes; turns C then A
 *   45  B ends: the next pass gives C the turn at once
 *   55  C's turn is over: A resumes.
 * A ran 0-10 and 30-40: 20,000 GPU-ms by 50 s. */
static void
t_rotate(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 4, 4, 1);
	struct place_cluster	*cl = sched_core_cluster(core);
	struct sched_cjob	*a, *b, *c;

	a = t_job(core, 1, 1, true, 0, 0);
	b = t_job(core, 2, 1, true, 0, 0);
	c = t_job(core, 3, 1, true, 0, 0);
	ok(t_pass(core, 0) == 1 && t_did(SCHED_ACT_START, a), "0: A starts");
	is_int(sched_cjob_state(b), SCHED_JOB_PENDING, "B waits");
	is_int(sched_core_next_wakeup(core), 10000,
	    "the core wakes when A's turn is over");
	is_int(t_pass(core, 5000), 0, "5 s: nothing, A's turn goes on");
	ok(t_pass(core, 10000) == 2 && t_two(SCHED_ACT_SUSPEND, a,
	    SCHED_ACT_START, b), "10 s: A suspended, then B starts");
	ok(sched_cjob_sliced(a), "A waits its turn (suspended by slicing)");
	is_int(sched_cjob_ring(b), 2, "A and B share the GPU");
	is_int(place_free_total(cl), 0, "the GPU is held once, not freed");
	is_int(sched_core_next_wakeup(core), 20000, "wakes at B's turn's end");
	ok(t_pass(core, 20000) == 2 && t_two(SCHED_ACT_SUSPEND, b,
	    SCHED_ACT_START, c), "20 s: B suspended, C starts");
	is_int(sched_cjob_ring(c), 3, "three share it");
	is_int(sched_core_pending(core), 0, "none waits in the queue");
	is_int(sched_core_suspended(core), 2, "two suspended");
	ok(t_pass(core, 30000) == 2 && t_two(SCHED_ACT_SUSPEND, c,
	    SCHED_ACT_RESUME, a), "30 s: C suspended, A resumes");
	ok(t_pass(core, 40000) == 2 && t_two(SCHED_ACT_SUSPEND, a,
	    SCHED_ACT_RESUME, b), "40 s: A suspended, B resumes");
	sched_core_end(core, b, 45000);
	is_int(sched_cjob_ring(c), 2, "B gone: A and C share it");
	is_int(place_free_total(cl), 0, "the GPU is held still");
	ok(t_pass(core, 45000) == 1 && t_did(SCHED_ACT_RESUME, c),
	    "45 s: C resumes at once");
	is_int(t_pass(core, 50000), 0, "50 s: C's turn goes on");
	is_int(sched_cjob_attained(a, 50000), 20000,
	    "A earned 20,000 GPU-ms, in its turns alone");
	ok(t_pass(core, 55000) == 2 && t_two(SCHED_ACT_SUSPEND, c,
	    SCHED_ACT_RESUME, a), "55 s: A resumes");
	is_int(sched_core_switches(core), 5, "five switches");
	sched_core_end(core, c, 56000);
	sched_core_end(core, a, 57000);
	is_int(place_free_total(cl), 1, "all gone: the GPU is free");
	sched_core_free(core);
}

/* A newcomer goes before the turns: A and B share the GPU (B since 10 s,
 * A suspended); D comes at 12 s and takes B's turn at 20 s, before A. */
static void
t_newcomer_first(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 4, 4, 1);
	struct sched_cjob	*a, *b, *d;

	a = t_job(core, 1, 1, true, 0, 0);
	b = t_job(core, 2, 1, true, 0, 0);
	(void)t_pass(core, 0);
	(void)t_pass(core, 10000);
	d = t_job(core, 4, 1, true, 0, 12000);
	is_int(t_pass(core, 12000), 0, "12 s: D waits for B's turn's end");
	ok(t_pass(core, 20000) == 2 && t_two(SCHED_ACT_SUSPEND, b,
	    SCHED_ACT_START, d), "20 s: D starts before A's turn");
	ok(t_pass(core, 30000) == 2 && t_two(SCHED_ACT_SUSPEND, d,
	    SCHED_ACT_RESUME, a), "30 s: then A's");
	sched_core_free(core);
}

/* Who does not join: a job that did not opt in waits (and a ring is not
 * made of one that runs); a ring at slice_jobs (2) takes no third; a job of
 * 2 GPUs does not join a ring of one; a GPU whose free memory is short of
 * what a job declares takes no more. */
static void
t_who_joins(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 4, 2, 2);
	struct place_cluster	*cl = sched_core_cluster(core);
	struct sched_cjob	*a, *x, *b, *c, *w, *m, *k;

	a = t_job(core, 1, 1, true, 0, 0);
	x = t_job(core, 2, 1, false, 0, 0);
	(void)t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, a) && t_did(SCHED_ACT_START, x),
	    "A (opted in) and X (not) start on the two GPUs");
	b = t_job(core, 3, 1, false, 0, 1000);
	is_int(t_pass(core, 10000), 0, "B, not opted in, joins no ring");
	is_int(sched_cjob_state(b), SCHED_JOB_PENDING, "B waits");
	sched_core_end(core, b, 10000);
	c = t_job(core, 4, 1, true, 0, 10000);
	w = t_job(core, 5, 1, true, 0, 10000);
	ok(t_pass(core, 10000) == 2 && t_two(SCHED_ACT_SUSPEND, a,
	    SCHED_ACT_START, c), "C joins A's ring, not X's GPU");
	is_int(t_pass(core, 20000), 2, "20 s: the ring's turn goes round");
	ok(t_did(SCHED_ACT_RESUME, a) && !t_did(SCHED_ACT_START, w),
	    "W does not join a ring of two (slice_jobs)");
	is_int(sched_cjob_reason(core, w), SCHED_REASON_RESOURCES,
	    "W waits for resources");
	sched_core_end(core, w, 20000);
	sched_core_end(core, c, 20000);
	/* A runs alone again, on GPU 0 (the lowest free at 0). */
	k = t_job(core, 6, 2, true, 0, 20000);
	is_int(t_pass(core, 40000), 0, "K of 2 GPUs joins no ring of one");
	sched_core_end(core, k, 40000);
	ok(place_gpumem_set(cl, 0, 0, 10000) == 0, "GPU 0 has 10 GB free");
	m = t_job(core, 7, 1, true, 12000, 40000);
	is_int(t_pass(core, 40000), 0, "M, declaring 12 GB, does not fit");
	sched_core_end(core, m, 40000);
	m = t_job(core, 8, 1, true, 8000, 40000);
	ok(t_pass(core, 40000) == 2 && t_did(SCHED_ACT_START, m),
	    "one declaring 8 GB joins");
	ok(place_gpumem_set(cl, 0, 9, 1) == -1, "no GPU 9 on the node");
	is_int(place_gpumem_free(cl, 0, 1), PLACE_GPUMEM_UNKNOWN,
	    "GPU 1's memory is not known");
	sched_core_free(core);
}

/* A job of higher priority preempts a ring whole: A (running) and B
 * (suspended) share the GPU; H, of a higher tier and not opted in, comes
 * at 25 s. Both are preempted (B thawed to stop), and H starts once both
 * have stopped, not when A alone has. */
static void
t_preempt_ring(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 4, 4, 1);
	struct sched_jobspec	 spec;
	struct sched_cjob	*a, *b, *h;

	a = t_job(core, 1, 1, true, 0, 0);
	b = t_job(core, 2, 1, true, 0, 0);
	(void)t_pass(core, 0);
	(void)t_pass(core, 10000);
	(void)t_pass(core, 20000);
	ok(sched_cjob_state(a) == SCHED_JOB_RUNNING &&
	    sched_cjob_sliced(b), "20 s: A runs, B waits its turn");
	memset(&spec, 0, sizeof spec);
	spec.id = 3;
	spec.gpus = 1;
	spec.submit = spec.last_stop = 25000;
	spec.first_start = SCHED_NEVER;
	spec.tier = 1;
	h = sched_core_submit(core, &spec, 25000);
	(void)t_pass(core, 25000);
	ok(t_did(SCHED_ACT_PREEMPT, a) && t_did(SCHED_ACT_PREEMPT, b),
	    "H preempts A and B, the whole ring");
	is_int(sched_cjob_state(b), SCHED_JOB_PREEMPTING, "B is stopping");
	is_int(sched_core_suspended(core), 0, "none suspended");
	sched_core_stopped(core, a, 26000);
	is_int(t_pass(core, 26000), 0, "A stopped: H waits for B");
	is_int(sched_cjob_reason(core, h), SCHED_REASON_PREEMPTING,
	    "H waits for its victims");
	sched_core_stopped(core, b, 27000);
	ok(t_pass(core, 27000) >= 1 && t_did(SCHED_ACT_START, h),
	    "both stopped: H starts");
	is_int(sched_cjob_ring(a), 1, "A, requeued, is in no ring");
	sched_core_free(core);
}

/* An operator's suspend and resume: A suspended by hand while its turn
 * runs gives the turn to B at the next pass, and is not resumed by the
 * turns; resumed by hand while B runs, B gives way at the next pass. */
static void
t_operator(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 4, 4, 1);
	struct sched_cjob	*a, *b;

	a = t_job(core, 1, 1, true, 0, 0);
	b = t_job(core, 2, 1, true, 0, 0);
	(void)t_pass(core, 0);
	(void)t_pass(core, 10000);
	(void)t_pass(core, 20000);
	ok(sched_core_suspend(core, a, 22000), "A suspended by hand at 22 s");
	ok(!sched_cjob_sliced(a), "A waits for an operator, not a turn");
	ok(t_pass(core, 22000) == 1 && t_did(SCHED_ACT_RESUME, b),
	    "B resumes at once");
	is_int(t_pass(core, 40000), 0, "40 s: B alone has turns, A waits");
	ok(sched_core_resume(core, a, 41000), "A resumed by hand");
	ok(t_pass(core, 41000) == 1 && t_did(SCHED_ACT_SUSPEND, b),
	    "B gives way");
	ok(sched_cjob_sliced(b), "B waits its turn");
	ok(t_pass(core, 51000) == 2 && t_two(SCHED_ACT_SUSPEND, a,
	    SCHED_ACT_RESUME, b), "51 s: the turns go on");
	sched_core_end(core, b, 52000);
	sched_core_end(core, a, 52000);
	is_int(place_free_total(sched_core_cluster(core)), 1, "GPU free");
	sched_core_free(core);
}

/* Adopts, as a restart finds them on GPU 0 at 100 s, A (id 1) running
 * and B (id 2) suspended for its turn, both of one GPU and opted in. */
static void
t_adopt_pair(struct sched_core *core, struct sched_cjob **a,
    struct sched_cjob **b)
{
	struct sched_jobspec	spec;
	struct place_alloc	at;

	memset(&at, 0, sizeof at);
	at.mask = 1;
	memset(&spec, 0, sizeof spec);
	spec.id = 1;
	spec.gpus = 1;
	spec.first_start = 0;
	spec.time_slice = true;
	*a = sched_core_adopt(core, &spec, &at, 1, 100000);
	spec.id = 2;
	spec.suspended = spec.sliced = true;
	*b = sched_core_adopt(core, &spec, &at, 1, 100000);
}

/* After a restart, jobs found on the same GPU, one running and one
 * suspended for its turn, are one ring again. */
static void
t_adopt(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 4, 4, 1);
	struct sched_cjob	*a, *b;

	t_adopt_pair(core, &a, &b);
	ok(sched_cjob_sliced(b), "B is back waiting its turn");
	is_int(sched_cjob_ring(a), 2, "A and B share the GPU");
	is_int(place_free_total(sched_core_cluster(core)), 0, "held once");
	ok(t_pass(core, 110000) == 2 && t_two(SCHED_ACT_SUSPEND, a,
	    SCHED_ACT_RESUME, b), "110 s: B's turn");
	sched_core_free(core);
}

/* The same with time-slicing now off: the ring is found again and no
 * job joins it, B resumes when A ends, and a waiting job that opted in
 * waits for the GPU as any other. */
static void
t_adopt_off(void)
{
	struct sched_core	*core;
	struct sched_conf	 conf;
	struct sched_cjob	*a, *b, *c;

	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	conf.time_slice = 0;
	core = sched_core_create(&conf);
	place_node_add(sched_core_cluster(core), 1, 0);
	t_adopt_pair(core, &a, &b);
	ok(a != NULL && b != NULL, "both found again");
	is_int(sched_cjob_ring(a), 2, "one ring");
	c = t_job(core, 3, 1, true, 0, 100000);
	ok(t_pass(core, 101000) == 0, "C joins no ring");
	is_int(sched_cjob_ring(a), 2, "still two");
	sched_core_end(core, a, 102000);
	ok(t_pass(core, 102000) == 1 && t_acts[0].type == SCHED_ACT_RESUME &&
	    t_acts[0].job == b, "A ends: B resumes");
	ok(sched_cjob_state(c) == SCHED_JOB_PENDING, "C waits");
	sched_core_end(core, b, 103000);
	ok(t_pass(core, 103000) == 1 && t_acts[0].type == SCHED_ACT_START &&
	    t_acts[0].job == c, "B ends: C starts");
	is_int(sched_cjob_ring(c), 1, "alone");
	sched_core_free(core);
}

/* What gbatchd asks before it adopts a job found on GPUs after a restart
 * (sched_core_adopt_taken): on a node of 2 GPUs, A takes turns on GPU 0.
 * B, found there and taking turns too, joins A's ring (the GPU is A's
 * already: B was refused it once, and the ring's turns stopped); a job
 * that takes no turns, or one on GPU 0 and 1, is refused; GPU 1 is free
 * to any. */
static void
t_adopt_taken(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 4, 4, 2);
	struct sched_jobspec	 spec;
	struct place_alloc	 at;
	struct sched_cjob	*a, *b;

	memset(&at, 0, sizeof at);
	at.mask = 1;
	memset(&spec, 0, sizeof spec);
	spec.id = 1;
	spec.gpus = 1;
	spec.time_slice = true;
	is_int(sched_core_adopt_taken(core, &spec, &at, 1), 1,
	    "A: GPU 0 is free");
	a = sched_core_adopt(core, &spec, &at, 1, 100000);
	spec.id = 2;
	spec.suspended = spec.sliced = true;
	is_int(sched_core_adopt_taken(core, &spec, &at, 1), 1,
	    "B, taking turns on A's GPU, may join A");
	b = sched_core_adopt(core, &spec, &at, 1, 100000);
	is_int(sched_cjob_ring(b), 2, "A and B are one ring");
	ok(t_pass(core, 110000) == 2 && t_two(SCHED_ACT_SUSPEND, a,
	    SCHED_ACT_RESUME, b), "110 s: B's turn");
	spec.id = 3;
	spec.suspended = spec.sliced = spec.time_slice = false;
	is_int(sched_core_adopt_taken(core, &spec, &at, 1), 0,
	    "one that takes no turns may not have the ring's GPU");
	at.mask = 3;
	spec.gpus = 2;
	spec.time_slice = true;
	is_int(sched_core_adopt_taken(core, &spec, &at, 1), 0,
	    "nor one on the ring's GPU and another");
	at.mask = 2;
	spec.gpus = 1;
	spec.time_slice = false;
	is_int(sched_core_adopt_taken(core, &spec, &at, 1), 1,
	    "GPU 1 is free to any");
	sched_core_free(core);
}

/* On a node of 1 GPU, 4 CPUs and 8 GB, A and B each ask the node's CPUs
 * (its share for a GPU) and 3 GB: B joins A's ring and shares A's CPUs
 * (a frozen job uses none), each holding its own memory; a third of 3 GB
 * does not fit beside them. When A ends, the CPUs stay for B. */
static void
t_cpus_shared(void)
{
	struct sched_core	*core = t_core(UINT64_MAX / 4, 4, 1);
	struct place_cluster	*cl = sched_core_cluster(core);
	struct sched_jobspec	 spec;
	struct sched_cjob	*a, *b, *c;
	uint64_t		 id;

	place_node_set_res(cl, 0, 4, 8192);
	memset(&spec, 0, sizeof spec);
	spec.gpus = 1;
	spec.first_start = SCHED_NEVER;
	spec.time_slice = true;
	spec.res.cpus_share = true;
	spec.res.mem_node = 3072;
	for (id = 1; id <= 3; id++) {
		spec.id = id;
		c = sched_core_submit(core, &spec, 0);
		if (id == 1)
			a = c;
		else if (id == 2)
			b = c;
	}
	ok(t_pass(core, 0) == 1 && t_acts[0].job == a, "0: A starts");
	is_int(place_node_cpus_free(cl, 0), 0, "A holds the 4 CPUs");
	ok(t_pass(core, T_SLICE) == 2 && t_two(SCHED_ACT_SUSPEND, a,
	    SCHED_ACT_START, b), "10 s: B joins A's GPU");
	is_int(place_node_cpus_free(cl, 0), 0, "B shares A's CPUs");
	is_int((int64_t)place_node_mem_free(cl, 0), 8192 - 2 * 3072,
	    "each holds its memory");
	ok(t_pass(core, 2 * T_SLICE) == 2 && t_two(SCHED_ACT_SUSPEND, b,
	    SCHED_ACT_RESUME, a), "20 s: C's memory does not fit; A's turn");
	ok(sched_cjob_state(c) == SCHED_JOB_PENDING, "C waits");
	sched_core_end(core, a, 25000);
	is_int(place_node_cpus_free(cl, 0), 0, "A ended: the CPUs stay for B");
	is_int((int64_t)place_node_mem_free(cl, 0), 8192 - 3072,
	    "A's memory is free");
	ok(t_pass(core, 25000) == 1 && t_acts[0].type == SCHED_ACT_RESUME &&
	    t_acts[0].job == b, "B resumes");
	sched_core_end(core, b, 26000);
	sched_core_end(core, c, 26000);
	is_int(place_node_cpus_free(cl, 0), 4, "all CPUs free at the end");
	is_int((int64_t)place_node_mem_free(cl, 0), 8192, "all memory free");
	sched_core_free(core);
}

int
main(void)
{
	t_rotate();
	t_newcomer_first();
	t_who_joins();
	t_preempt_ring();
	t_operator();
	t_adopt();
	t_adopt_off();
	t_adopt_taken();
	t_cpus_shared();
	return (tap_done());
}
