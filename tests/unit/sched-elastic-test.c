/* sched-elastic-test.c: elastic jobs in the scheduling core
 * (policy/sched-core-elastic.c): ordered and started at their fewest
 * GPUs, grown at the pass's end onto what is still free, up to their most,
 * in the shape they ask for and under their limits' GPU caps; back to
 * their fewest when stopped; adopted at what they hold. Each case's
 * figures are worked out in its comments from the rule in
 * docs/scheduling.md. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"


/* Resizes: after 10 s, where they save 5 s (the cases below). */
static uint32_t	t_interval = 10, t_overhead = 5;

static struct sched_core *
t_core(enum sched_policy policy, uint32_t nodes, uint32_t gpus,
    bool fairshare)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	uint32_t		 i;

	sched_conf_default(&conf);
	conf.elastic_interval = t_interval;
	conf.elastic_overhead = t_overhead;
	conf.policy = policy;
	conf.fairshare = fairshare;
	/* Q0 up to 10,000 GPU-ms: 1.25 s of 8 GPUs. */
	conf.thresholds[0] = 10000;
	core = sched_core_create(&conf);
	for (i = 0; i < nodes; i++)
		place_node_add(sched_core_cluster(core), gpus, 0);
	return (core);
}

/* A job of gpus GPUs, or gpus to max where max is not 0, in the shape the
 * configuration's rule gives (one node when one holds it, else an even
 * split). */
static void
t_spec(struct sched_jobspec *spec, uint64_t id, uint32_t gpus, uint32_t max,
    int64_t submit)
{
	memset(spec, 0, sizeof *spec);
	spec->id = id;
	spec->gpus = gpus;
	spec->gpus_max = max;
	spec->submit = submit;
	spec->first_start = SCHED_NEVER;
	spec->last_stop = submit;
}

static struct sched_cjob *
t_submit(struct sched_core *core, uint64_t id, uint32_t gpus, uint32_t max,
    int64_t now)
{
	struct sched_jobspec	spec;

	t_spec(&spec, id, gpus, max, now);
	return (sched_core_submit(core, &spec, now));
}

/* The GPUs j's allocation holds, and on how many nodes. */
static unsigned
t_held(const struct sched_cjob *j, unsigned *nodes)
{
	const struct place_alloc	*a;
	size_t				 n, i;
	unsigned			 c = 0;

	a = sched_cjob_alloc(j, &n);
	for (i = 0; i < n; i++)
		c += sched_mask_count(a[i].mask);
	if (nodes != NULL)
		*nodes = (unsigned)n;
	return (c);
}

static void
test_alone(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 2, 4, false);
	struct sched_cjob	*e;
	unsigned		 nodes;

	/* 2 to 8 on two nodes of 4, nothing else: all 8, 4 on each (8 is
	 * more than a node holds: an even split). */
	e = t_submit(core, 1, 2, 8, 0);
	is_int(sched_cjob_gpus(e), 2, "alone: it waits for its fewest, 2");
	is_int(t_pass(core, 0), 1, "alone: one action");
	ok(t_did(SCHED_ACT_START, e), "alone: it starts");
	is_int(t_held(e, &nodes), 8, "alone: on all 8 GPUs");
	is_int(nodes, 2, "alone: on both nodes");
	is_int(sched_cjob_gpus(e), 8, "alone: it runs on 8");
	is_int(place_free_total(sched_core_cluster(core)), 0,
	    "alone: none left free");
	/* Service runs at 8 GPUs: 8,000 GPU-ms in a second. */
	is_int(sched_cjob_attained(e, 1000), 8000, "alone: 8 GPU-ms a ms");
	sched_core_end(core, e, 1000);
	is_int(place_free_total(sched_core_cluster(core)), 8,
	    "alone: all 8 free when it ends");
	sched_core_free(core);
}

static void
test_beside_rigid(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 2, 4, false);
	struct sched_cjob	*r, *e, *w;
	unsigned		 nodes;

	/* A rigid 4 runs on one node; 1 to 8 gets the other node's 4 (4
	 * fit on one node: one node). */
	r = t_submit(core, 1, 4, 0, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, r), "rigid: the rigid job starts");
	e = t_submit(core, 2, 1, 8, 10);
	t_pass(core, 10);
	ok(t_did(SCHED_ACT_START, e), "rigid: the elastic job starts");
	is_int(t_held(e, &nodes), 4, "rigid: on the 4 left");
	is_int(nodes, 1, "rigid: on one node");
	/* A rigid 2 that came with it, ahead of it in the order (dlas: the
	 * same service, the older first), starts first and leaves it 2. */
	sched_core_end(core, e, 20);
	w = t_submit(core, 3, 2, 0, 20);
	e = t_submit(core, 4, 1, 8, 21);
	t_pass(core, 21);
	ok(t_did(SCHED_ACT_START, w) && t_did(SCHED_ACT_START, e),
	    "rigid: both start");
	is_int(t_held(w, NULL), 2, "rigid: the rigid 2 holds 2");
	is_int(t_held(e, NULL), 2, "rigid: the elastic job the other 2");
	sched_core_free(core);
}

static void
test_two_elastic(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 1, 4, false);
	struct sched_cjob	*a, *b;

	/* Two of 1 to 4 at once on 4 GPUs: each starts on 1, then the 2
	 * left go to the first in the order, a (older): 3 and 1. */
	a = t_submit(core, 1, 1, 4, 0);
	b = t_submit(core, 2, 1, 4, 1);
	is_int(t_pass(core, 1), 2, "two: two starts");
	is_int(t_held(a, NULL), 3, "two: the first grows to 3");
	is_int(t_held(b, NULL), 1, "two: the second keeps 1");
	is_int(sched_cjob_gpus(a) + sched_cjob_gpus(b), 4, "two: 4 in all");
	sched_core_free(core);
}

static void
test_shapes(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 2, 4, false);
	struct sched_jobspec	 spec;
	struct sched_cjob	*r, *e;
	unsigned		 nodes;

	/* -N 2 and 2 to 8 beside a rigid 1 on a node: 3 + 4 free, and the
	 * count must split evenly over 2 nodes with at most 3 on one: 6. */
	r = t_submit(core, 1, 1, 0, 0);
	t_pass(core, 0);
	t_spec(&spec, 2, 2, 8, 10);
	spec.num_nodes = 2;
	e = sched_core_submit(core, &spec, 10);
	t_pass(core, 10);
	ok(t_did(SCHED_ACT_START, e), "shape: it starts");
	is_int(t_held(e, &nodes), 6, "shape: on 6 GPUs");
	is_int(nodes, 2, "shape: on 2 nodes, 3 each");
	sched_core_end(core, r, 20);
	sched_core_end(core, e, 20);

	/* A limit of 3 GPUs for its group: 1 to 8 gets 3. */
	t_spec(&spec, 3, 1, 8, 30);
	spec.limits[0].id = 77;
	spec.limits[0].gpus = 3;
	spec.limits[0].gpus_reason = SCHED_REASON_ASSOC_GPUS;
	spec.nlimits = 1;
	e = sched_core_submit(core, &spec, 30);
	t_pass(core, 30);
	is_int(t_held(e, NULL), 3, "limit: 3 under a cap of 3");
	/* Another job of the group, rigid 1: the cap is reached, it waits. */
	t_spec(&spec, 4, 1, 0, 40);
	spec.limits[0].id = 77;
	spec.limits[0].gpus = 3;
	spec.limits[0].gpus_reason = SCHED_REASON_ASSOC_GPUS;
	spec.nlimits = 1;
	r = sched_core_submit(core, &spec, 40);
	t_pass(core, 40);
	is_int(sched_cjob_state(r), SCHED_JOB_PENDING,
	    "limit: the group's next job waits at the cap");
	is_int(sched_cjob_reason(core, r), SCHED_REASON_ASSOC_GPUS,
	    "limit: for its GPUs");
	sched_core_free(core);
}

static void
test_preempted(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 2, 4, false);
	struct sched_cjob	*e, *r;

	/* 2 to 8 alone takes 8; past Q0 (at 1.25 s) when a rigid 4 comes
	 * at 5 s, in Q0, which preempts it: the whole of it, as any job is
	 * preempted. Stopped, it asks for 2 again, and
	 * restarts beside the rigid job on the 4 it leaves. */
	e = t_submit(core, 1, 2, 8, 0);
	t_pass(core, 0);
	is_int(t_held(e, NULL), 8, "preempted: 8 at first");
	r = t_submit(core, 2, 4, 0, 5000);
	t_pass(core, 5000);
	ok(t_did(SCHED_ACT_PREEMPT, e), "preempted: the rigid 4 preempts it");
	sched_core_stopped(core, e, 5100);
	is_int(sched_cjob_state(e), SCHED_JOB_PENDING, "preempted: pending");
	is_int(sched_cjob_gpus(e), 2, "preempted: it asks for 2 again");
	is_int(sched_cjob_attained(e, 5100), 8 * 5100,
	    "preempted: its service at 8 GPUs for 5.1 s");
	t_pass(core, 5100);
	ok(t_did(SCHED_ACT_START, r) && t_did(SCHED_ACT_START, e),
	    "preempted: both start");
	is_int(t_held(r, NULL), 4, "preempted: the rigid job on 4");
	is_int(t_held(e, NULL), 4, "preempted: the elastic one on the 4 left");
	sched_core_free(core);
}

static void
test_fairshare_adopt(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 2, 4, true);
	struct sched_jobspec	 spec;
	struct place_alloc	 a[2];
	struct sched_cjob	*e;

	/* Its leaf's demand follows what it runs on: 2 waiting, 8 grown,
	 * none once it ends. */
	t_spec(&spec, 1, 2, 8, 0);
	spec.fs_leaf = 5;
	e = sched_core_submit(core, &spec, 0);
	is_int(sched_core_fairshare_demand(core, 5), 2, "demand: 2 waiting");
	t_pass(core, 0);
	is_int(sched_core_fairshare_demand(core, 5), 8, "demand: 8 running");
	sched_core_end(core, e, 10);
	is_int(sched_core_fairshare_demand(core, 5), 0, "demand: none ended");

	/* Found running on 6 after a restart (4 + 2): adopted at 6. */
	memset(a, 0, sizeof a);
	a[0].node = 0;
	a[0].mask = 0xf;
	a[1].node = 1;
	a[1].mask = 0x3;
	t_spec(&spec, 2, 2, 8, 20);
	spec.fs_leaf = 5;
	e = sched_core_adopt(core, &spec, a, 2, 20);
	is_int(sched_cjob_gpus(e), 6, "adopt: at the 6 it holds");
	is_int(sched_core_fairshare_demand(core, 5), 6, "adopt: demand 6");
	is_int(place_free_total(sched_core_cluster(core)), 2, "adopt: 2 free");
	sched_core_end(core, e, 30);
	is_int(place_free_total(sched_core_cluster(core)), 8, "adopt: all free");
	is_int(sched_core_fairshare_demand(core, 5), 0, "adopt: no demand");
	sched_core_free(core);
}

static void
test_resize(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 2, 4, false);
	struct sched_cjob	*r, *e, *w;

	/* A rigid 4 on one node, 2 to 8 on the other's 4. The rigid job
	 * ends at 5 s: 4 GPUs free, but e started at 0 and may grow only
	 * from 10 s, which the core asks to be woken at. */
	r = t_submit(core, 1, 4, 0, 0);
	e = t_submit(core, 2, 2, 8, 0);
	t_pass(core, 0);
	is_int(t_held(e, NULL), 4, "resize: e starts on the 4 left");
	sched_core_end(core, r, 5000);
	is_int(t_pass(core, 5000), 0, "resize: not before its interval");
	is_int(sched_core_next_wakeup(core), 10000,
	    "resize: a wake-up when its interval is over");
	/* At 10 s: it ran 10 s, so 10 s more are expected; on 8 it runs
	 * them in 5, saving 5 s, which pays the 5 s a restart costs. */
	is_int(t_pass(core, 10000), 1, "resize: one action at 10 s");
	ok(t_did(SCHED_ACT_RESIZE, e), "resize: e is resized");
	is_int(sched_cjob_state(e), SCHED_JOB_PREEMPTING,
	    "resize: stopping at its checkpoint");
	is_int(sched_cjob_resizes(e), 1, "resize: one resize");
	is_int(sched_cjob_preemptions(e), 0, "resize: not a preemption");
	/* A job that comes meanwhile does not take the 4 held for it. */
	w = t_submit(core, 3, 1, 0, 10500);
	is_int(t_pass(core, 10500), 0, "resize: nothing starts meanwhile");
	is_int(sched_cjob_state(w), SCHED_JOB_PENDING, "resize: w waits");
	/* Stopped at 11 s, it restarts first on all 8, w still waiting. */
	sched_core_stopped(core, e, 11000);
	is_int(sched_cjob_gpus(e), 2, "resize: stopped, it asks for 2");
	t_pass(core, 11000);
	ok(t_did(SCHED_ACT_START, e), "resize: it restarts");
	is_int(t_held(e, NULL), 8, "resize: on 8 GPUs");
	is_int(sched_cjob_gpus(e), 8, "resize: at 8");
	is_int(sched_cjob_state(w), SCHED_JOB_PENDING, "resize: w waits on");
	/* Service: 4 GPUs for 11 s, then 8 a ms. */
	is_int(sched_cjob_attained(e, 12000), 4 * 11000 + 8 * 1000,
	    "resize: its service at each count");
	/* At its most, it asks for no wake-up (past Q0, the last queue's
	 * job, it has no timer either). */
	ok(sched_core_next_wakeup(core) == SCHED_NEVER,
	    "resize: no wake-up at its most");
	sched_core_free(core);
}

static void
test_resize_not(void)
{
	struct sched_core	*core;
	struct sched_cjob	*a, *b, *e;

	/* One node of 8: a rigid 1 and 2, then 1 to 8 on the 5 left. */
	core = t_core(SCHED_DLAS, 1, 8, false);
	a = t_submit(core, 1, 1, 0, 0);
	b = t_submit(core, 2, 2, 0, 0);
	e = t_submit(core, 3, 1, 8, 0);
	t_pass(core, 0);
	is_int(t_held(e, NULL), 5, "not: e on 5");
	/* b's 2 GPUs free: 7 is 40% more than 5, not half (8 would be). */
	sched_core_end(core, b, 20000);
	is_int(t_pass(core, 20000), 0, "not: 5 to 7 is too small a step");
	/* a's GPU frees too: 8 is, and saves 20 x 3 / 8 = 7.5 s. */
	sched_core_end(core, a, 21000);
	t_pass(core, 21000);
	ok(t_did(SCHED_ACT_RESIZE, e), "not: 5 to 8 is worth it");
	/* Ended while it resizes: it leaves cleanly, all 8 free. */
	sched_core_end(core, e, 21500);
	is_int(t_pass(core, 22000), 0, "not: nothing left to act on");
	is_int(place_free_total(sched_core_cluster(core)), 8,
	    "not: all 8 free");
	sched_core_free(core);

	/* A restart that costs more than it saves is not made: 100 s. */
	t_overhead = 100;
	core = t_core(SCHED_DLAS, 1, 8, false);
	a = t_submit(core, 1, 4, 0, 0);
	e = t_submit(core, 2, 1, 8, 0);
	t_pass(core, 0);
	sched_core_end(core, a, 30000);
	is_int(t_pass(core, 30000), 0,
	    "not: 30 s x 4 / 8 saves 15 s, less than 100");
	/* Its time limit says 400 s are left: 200 s saved, worth it. */
	sched_core_end(core, e, 30000);
	{
		struct sched_jobspec	spec;

		a = t_submit(core, 3, 4, 0, 30000);
		t_spec(&spec, 4, 1, 8, 30000);
		spec.limit = 440000;
		e = sched_core_submit(core, &spec, 30000);
		t_pass(core, 30000);
		sched_core_end(core, a, 40000);
		t_pass(core, 40000);
		ok(t_did(SCHED_ACT_RESIZE, e),
		    "not: a limit 430 s ahead makes it worth it");
	}
	sched_core_free(core);
	t_overhead = 5;

	/* elastic_interval 0: a running job keeps its count. */
	t_interval = 0;
	core = t_core(SCHED_DLAS, 1, 8, false);
	a = t_submit(core, 1, 4, 0, 0);
	e = t_submit(core, 2, 1, 8, 0);
	t_pass(core, 0);
	sched_core_end(core, a, 100000);
	is_int(t_pass(core, 100000), 0, "not: interval 0 never resizes");
	ok(sched_core_next_wakeup(core) == SCHED_NEVER,
	    "not: nor wakes for it");
	sched_core_free(core);
	t_interval = 10;
}

static void
test_speedup(void)
{
	static const double	 knee[] = { 0, 1, 1.9, 2.7, 3.4, 3.4, 3.4,
				    3.4, 3.4 };
	static const double	 liar[] = { 0, 1, 100, 1000, 1e6, 1e6, 1e6,
				    1e6, 1e6 };
	static const double	 two[] = { 0, 1, 2 };
	static const double	 flat[] = { 0, 1, 1.9, 2.0, 2.1, 2.2, 2.3,
				    2.4, 2.5 };
	struct sched_core	*core;
	struct sched_cjob	*a, *b, *e;

	/* Its speedup stops growing at 4: it takes 4 of the 8, the fewest
	 * of the best. */
	core = t_core(SCHED_DLAS, 1, 8, false);
	e = t_submit(core, 1, 1, 8, 0);
	sched_core_elastic_speedup(core, e, knee, 9);
	t_pass(core, 0);
	is_int(t_held(e, NULL), 4, "speedup: 4, where it stops growing");
	is_int(place_free_total(sched_core_cluster(core)), 4,
	    "speedup: 4 left free");
	sched_core_free(core);

	/* A table of 3: flat past 2 (no credit for what it has not
	 * explored): 2. */
	core = t_core(SCHED_DLAS, 1, 8, false);
	e = t_submit(core, 1, 1, 8, 0);
	sched_core_elastic_speedup(core, e, two, 3);
	t_pass(core, 0);
	is_int(t_held(e, NULL), 2, "speedup: flat past its table");
	sched_core_free(core);

	/* A job claiming a hundredfold speedup on 2 is taken as linear:
	 * behind an honest one in the order, it gets no more than it would
	 * have. */
	core = t_core(SCHED_DLAS, 1, 8, false);
	a = t_submit(core, 1, 1, 8, 0);
	b = t_submit(core, 2, 1, 8, 1);
	sched_core_elastic_speedup(core, b, liar, 9);
	t_pass(core, 1);
	is_int(t_held(a, NULL), 7, "liar: the honest job, first, grows to 7");
	is_int(t_held(b, NULL), 1, "liar: the liar keeps 1");
	sched_core_free(core);

	/* Two starting at once on 8: a (first in the order) gains little
	 * past 2, b scales linearly. Each starts on 1; the 6 left go a GPU
	 * at a time where the speedup grows the most: all to b (1 a GPU,
	 * against a's 0.9 and less), b on 7, a on 1: a speedup of 8 in
	 * all, where Tiresias' order alone (a first, to its best: 7, at
	 * 2.4) would give 3.4. */
	core = t_core(SCHED_DLAS, 1, 8, false);
	a = t_submit(core, 1, 1, 8, 0);
	b = t_submit(core, 2, 1, 8, 1);
	sched_core_elastic_speedup(core, a, flat, 9);
	t_pass(core, 1);
	is_int(t_held(a, NULL), 1, "share: a, who gains little, keeps 1");
	is_int(t_held(b, NULL), 7, "share: b, linear, grows to 7");
	sched_core_free(core);

	/* Running on 2 beside a rigid 6, which ends: 8 would speed it up by
	 * 2.5 / 1.9, less than half: no resize; linear, it would. */
	core = t_core(SCHED_DLAS, 1, 8, false);
	a = t_submit(core, 1, 6, 0, 0);
	e = t_submit(core, 2, 1, 8, 0);
	sched_core_elastic_speedup(core, e, flat, 9);
	t_pass(core, 0);
	is_int(t_held(e, NULL), 2, "flat: 2 beside the rigid 6");
	sched_core_end(core, a, 20000);
	is_int(t_pass(core, 20000), 0, "flat: 1.9 to 2.5 is no resize");
	sched_core_elastic_speedup(core, e, NULL, 0);
	t_pass(core, 20001);
	ok(t_did(SCHED_ACT_RESIZE, e), "flat: linear again, it is resized");
	sched_core_free(core);
}

int
main(void)
{
	test_alone();
	test_beside_rigid();
	test_two_elastic();
	test_shapes();
	test_preempted();
	test_fairshare_adopt();
	test_resize();
	test_resize_not();
	test_speedup();
	return (tap_done());
}
