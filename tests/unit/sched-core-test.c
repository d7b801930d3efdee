/* sched-core-test.c: the rules of the scheduling core (policy/sched-core*.c)
 * one at a time, on clusters of one or two nodes with explicit `now`
 * values: new jobs in Q0 and demotion at the threshold, the dlas order,
 * skipping versus strict fifo, gangs across nodes, cross-queue preemption
 * of the fewest lowest victims, starvation promotion, the Gittins index
 * and order, srtf, and the configuration parsers and checks. Expected
 * values are worked out from docs/scheduling.md in the comments. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "policy/sched-gittins.h"
#include "policy/sched-group.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"


static void
t_conf(struct sched_conf *conf, enum sched_policy policy, uint64_t thr0)
{
	sched_conf_default(conf);
	conf->policy = policy;
	conf->thresholds[0] = thr0;
}

/* A core with nodes nodes of gpus GPUs each. */
static struct sched_core *
t_core(const struct sched_conf *conf, uint32_t nodes, uint32_t gpus)
{
	struct sched_core	*core = sched_core_create(conf);
	uint32_t		 i;

	for (i = 0; i < nodes; i++)
		place_node_add(sched_core_cluster(core), gpus, 0);
	return (core);
}

static void
t_spec(struct sched_jobspec *spec, uint64_t id, uint32_t gpus,
    int64_t submit)
{
	memset(spec, 0, sizeof *spec);
	spec->id = id;
	spec->gpus = gpus;
	spec->submit = submit;
	spec->first_start = SCHED_NEVER;
	spec->last_stop = submit;
	/* The hand-worked cases below split GPUs any way; test_shape's
	 * ask for shapes. */
	spec->any_shape = true;
}

static struct sched_cjob *
t_submit(struct sched_core *core, uint64_t id, uint32_t gpus, int64_t now)
{
	struct sched_jobspec	spec;

	t_spec(&spec, id, gpus, now);
	return (sched_core_submit(core, &spec, now));
}

/* Did the last pass act on j this way? */
static unsigned
t_held(const struct sched_cjob *j)
{
	const struct place_alloc	*a;
	size_t				 n, i;
	unsigned			 c = 0;

	a = sched_cjob_alloc(j, &n);
	for (i = 0; i < n; i++)
		c += sched_mask_count(a[i].mask);
	return (c);
}

static void
test_demotion(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_cjob	*a, *b;
	struct sched_jobspec	 spec;

	/* Thresholds 10,000 and 30,000 GPU-ms. A 2-GPU job gains 2 GPU-ms a
	 * ms: Q1 at 5,000 ms, Q2 at 15,000 ms. */
	t_conf(&conf, SCHED_DLAS, 10000);
	conf.thresholds[1] = 30000;
	conf.nqueues = 3;
	core = t_core(&conf, 1, 4);
	is_int(sched_core_queues(core), 3, "demotion: three queue levels");
	a = t_submit(core, 1, 2, 0);
	is_int(sched_cjob_queue(a), 0, "demotion: a new job enters Q0");
	is_int(sched_cjob_state(a), SCHED_JOB_PENDING, "demotion: pending");
	is_int(t_pass(core, 0), 1, "demotion: it starts");
	ok(t_did(SCHED_ACT_START, a), "demotion: a start action for it");
	is_int(sched_core_next_wakeup(core), 5000,
	    "demotion: wake-up when 2 GPUs reach 10,000 GPU-ms");
	t_pass(core, 4999);
	is_int(sched_cjob_queue(a), 0, "demotion: still Q0 one ms before");
	is_int(sched_cjob_attained(a, 4999), 9998, "demotion: 9,998 GPU-ms");
	t_pass(core, 5000);
	is_int(sched_cjob_queue(a), 1, "demotion: Q1 at the threshold");
	is_int(sched_cjob_attained(a, 5000), 10000, "demotion: 10,000 GPU-ms");
	is_int(sched_core_next_wakeup(core), 15000,
	    "demotion: next at 30,000 GPU-ms");
	t_pass(core, 15000);
	is_int(sched_cjob_queue(a), 2, "demotion: Q2 at the second threshold");
	ok(sched_core_next_wakeup(core) == SCHED_NEVER,
	    "demotion: none after the last queue");

	/* 3 GPUs: 10,000 / 3 rounds up to 3,334 ms (10,002 GPU-ms), not
	 * down to 3,333 (9,999, short of the threshold). */
	sched_core_end(core, a, 20000);
	b = t_submit(core, 2, 3, 20000);
	t_pass(core, 20000);
	is_int(sched_core_next_wakeup(core), 23334, "demotion: rounded up");
	t_pass(core, 23333);
	is_int(sched_cjob_queue(b), 0, "demotion: 9,999 GPU-ms stays in Q0");
	t_pass(core, 23334);
	is_int(sched_cjob_queue(b), 1, "demotion: 10,002 GPU-ms is Q1");

	/* A job coming back with its service sits where its service since
	 * its last promotion puts it: 1 GPU for 30 s. */
	t_spec(&spec, 3, 1, 30000);
	spec.attained = 30000;
	spec.executed = 30000;
	spec.total_executed = 30000;
	a = sched_core_submit(core, &spec, 30000);
	is_int(sched_cjob_queue(a), 2, "restart: 30,000 GPU-ms is Q2");
	sched_core_free(core);
}

static void
test_dlas_order(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_cjob	*r, *p[5];
	struct sched_jobspec	 spec;
	static const int64_t	 submit[5] = { 0, 10, 20, 200, 50 };
	static const int64_t	 start[5] = { 0, 300, 100, SCHED_NEVER,
				    SCHED_NEVER };
	static const uint64_t	 want[4] = { 4, 2, 3, 1 };
	uint64_t		 got[4];
	int			 i, k;

	/* One GPU. Keys: a job that ran by its first start, one that never
	 * ran by its submit time: p1 300, p2 100, p3 200, p4 50. They run
	 * in the order p4, p2, p3, p1. */
	t_conf(&conf, SCHED_DLAS, UINT64_C(1) << 40);
	core = t_core(&conf, 1, 1);
	r = t_submit(core, 10, 1, 0);
	t_pass(core, 0);
	for (i = 1; i < 5; i++) {
		t_spec(&spec, (uint64_t)i, 1, submit[i]);
		spec.first_start = start[i];
		p[i] = sched_core_submit(core, &spec, 400);
	}
	is_int(t_pass(core, 400), 0, "dlas order: no room, no action");
	is_int(sched_cjob_reason(core, p[1]), SCHED_REASON_RESOURCES,
	    "dlas order: waiting for Resources");
	sched_core_end(core, r, 500);
	for (k = 0; k < 4; k++) {
		got[k] = 0;
		if (t_pass(core, 500 + k * 100) == 1) {
			got[k] = sched_cjob_id(t_acts[0].job);
			sched_core_end(core, t_acts[0].job, 600 + k * 100);
		}
	}
	for (k = 0; k < 4; k++)
		is_int(got[k], want[k], "dlas order: start %d is job %d", k + 1,
		    (int)want[k]);
	sched_core_free(core);
}

/* One 4-GPU node, 2 GPUs busy; a 4-GPU job then a 1-GPU job wait. */
static void
t_skip(enum sched_policy policy, bool strict, const char *name)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_cjob	*big, *small;

	t_conf(&conf, policy, UINT64_C(1) << 40);
	conf.strict = strict;
	core = t_core(&conf, 1, 4);
	t_submit(core, 1, 2, 0);
	t_pass(core, 0);
	big = t_submit(core, 2, 4, 10);
	small = t_submit(core, 3, 1, 20);
	t_pass(core, 30);
	is_int(sched_cjob_reason(core, big), SCHED_REASON_RESOURCES,
	    "%s: the big job waits for Resources", name);
	if (policy == SCHED_FIFO && strict) {
		is_int(t_nacts, 0, "%s: nothing starts", name);
		is_int(sched_cjob_reason(core, small), SCHED_REASON_PRIORITY,
		    "%s: the small job waits behind it (Priority)", name);
	} else {
		is_int(t_nacts, 1, "%s: one start", name);
		ok(t_did(SCHED_ACT_START, small),
		    "%s: the small job behind it starts", name);
	}
	sched_core_free(core);
}

static void
test_gang(void)
{
	struct sched_conf		 conf;
	struct sched_core		*core;
	struct sched_cjob		*g, *s;
	const struct place_alloc	*a;
	size_t				 n;

	t_conf(&conf, SCHED_DLAS, UINT64_C(1) << 40);
	core = t_core(&conf, 2, 4);
	g = t_submit(core, 1, 8, 0);
	is_int(t_pass(core, 0), 1, "gang: 8 GPUs on 2 x 4 start");
	a = sched_cjob_alloc(g, &n);
	is_int(n, 2, "gang: allocs on two nodes");
	ok(n == 2 && a[0].node != a[1].node && a[0].mask == 0xf &&
	    a[1].mask == 0xf, "gang: all four GPUs of each node");
	is_int(place_free_total(sched_core_cluster(core)), 0,
	    "gang: nothing left free");
	sched_core_end(core, g, 100);
	is_int(place_free_total(sched_core_cluster(core)), 8,
	    "gang: all 8 free after it ends");
	s = t_submit(core, 2, 1, 100);
	t_pass(core, 100);
	g = t_submit(core, 3, 8, 200);
	is_int(t_pass(core, 200), 0, "gang: 8 GPUs with 7 free: nothing");
	is_int(sched_cjob_reason(core, g), SCHED_REASON_RESOURCES,
	    "gang: it waits for Resources");
	is_int(place_free_total(sched_core_cluster(core)), 7,
	    "gang: no partial allocation");
	sched_core_end(core, s, 300);
	is_int(t_pass(core, 300), 1, "gang: starts once 8 are free");
	sched_core_free(core);
}

/* Two 4-GPU nodes, threshold 1,000 GPU-ms. Four 2-GPU jobs start at 0,
 * 10, 20 and 30 and are all in Q1 by 600; l[3] is the lowest. */
static struct sched_core *
t_four(enum sched_policy policy, uint64_t thr, bool norequeue3,
    struct sched_cjob **l)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	int			 i;

	t_conf(&conf, policy, thr);
	core = t_core(&conf, 2, 4);
	for (i = 0; i < 4; i++) {
		t_spec(&spec, (uint64_t)i + 1, 2, i * 10);
		spec.no_requeue = norequeue3 && i == 3;
		l[i] = sched_core_submit(core, &spec, i * 10);
		t_pass(core, i * 10);
	}
	t_pass(core, 600);
	return (core);
}

/* A pass that preempts for a job reserves for the rest of the pass what of
 * its plan is free now: its GPUs alone. Before the fix the reservation's
 * CPUs and memory were never filled in: what realloc left was taken from
 * the node's free CPUs and given back capped at its total, so the node's
 * count drifted up (the ASan build, whose new memory is 0xbe, shows it
 * every time). */
static void
test_reserve_res(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct place_cluster	*cl;
	struct sched_cjob	*low, *p;

	t_conf(&conf, SCHED_DLAS, 1000);
	core = t_core(&conf, 1, 4);
	cl = sched_core_cluster(core);
	place_node_set_res(cl, 0, 8, 1000);
	t_spec(&spec, 1, 2, 0);
	spec.res.cpus_gpu = 1;
	low = sched_core_submit(core, &spec, 0);
	is_int(t_pass(core, 0), 1, "reserve: the low job starts");
	is_int(place_node_cpus_free(cl, 0), 6, "reserve: it holds 2 CPUs");
	t_spec(&spec, 2, 4, 600);
	spec.res.cpus_gpu = 1;
	p = sched_core_submit(core, &spec, 600);
	is_int(t_pass(core, 600), 1, "reserve: a Q0 job of 4 preempts it");
	ok(t_did(SCHED_ACT_PREEMPT, low), "reserve: the low job is the victim");
	/* The reservation lasts for the pass: its GPUs are free again
	 * after it, and the CPUs were never part of it. */
	is_int(place_node_free_mask(cl, 0), 0xc,
	    "reserve: the 2 GPUs reserved in the pass are free after it");
	is_int(place_node_cpus_free(cl, 0), 6,
	    "reserve: the node's free CPUs are untouched");
	is_int(place_node_mem_free(cl, 0), 1000,
	    "reserve: and its memory");
	sched_core_stopped(core, low, 600);
	is_int(t_pass(core, 600), 1, "reserve: once it stopped, one start");
	ok(t_did(SCHED_ACT_START, p), "reserve: the job it waited for");
	is_int(place_node_cpus_free(cl, 0), 4, "reserve: which holds 4 CPUs");
	sched_core_end(core, p, 700);
	is_int(place_node_cpus_free(cl, 0), 8,
	    "reserve: every CPU is free once it ended");
	sched_core_free(core);
}

static void
test_preempt(void)
{
	struct sched_core	*core;
	struct sched_cjob	*l[4], *p, *d, *e, *f;
	struct sched_conf	 conf;

	core = t_four(SCHED_DLAS, 1000, false, l);
	is_int(sched_cjob_queue(l[0]), 1, "preempt: the running are in Q1");
	p = t_submit(core, 5, 3, 600);
	is_int(t_pass(core, 600), 2, "preempt: a Q0 job needing 3 stops two");
	ok(t_did(SCHED_ACT_PREEMPT, l[3]) && t_did(SCHED_ACT_PREEMPT, l[2]),
	    "preempt: the two that started last");
	is_int(sched_cjob_state(l[2]), SCHED_JOB_PREEMPTING,
	    "preempt: victim is preempting");
	is_int(sched_cjob_state(l[0]), SCHED_JOB_RUNNING,
	    "preempt: the others run on");
	is_int(sched_cjob_reason(core, p), SCHED_REASON_PREEMPTING,
	    "preempt: the job waits with Preempting");
	is_int(t_pass(core, 600), 0, "preempt: it asks for nothing more");
	is_int(sched_cjob_reason(core, p), SCHED_REASON_PREEMPTING,
	    "preempt: still Preempting");
	/* l[3] stops first. Its 2 GPUs are promised to p, so l[3], pending
	 * in Q1, must not take them back. */
	sched_core_stopped(core, l[3], 600);
	is_int(sched_cjob_queue(l[3]), 1, "preempt: the victim requeues in Q1");
	is_int(t_pass(core, 600), 0, "preempt: one victim stopped: no start");
	is_int(sched_cjob_reason(core, p), SCHED_REASON_PREEMPTING,
	    "preempt: waits for the other");
	sched_core_stopped(core, l[2], 600);
	is_int(t_pass(core, 600), 1, "preempt: both stopped: one action");
	ok(t_did(SCHED_ACT_START, p), "preempt: the job starts");
	is_int(t_held(p), 3, "preempt: on 3 GPUs");
	is_int(sched_cjob_preemptions(l[2]), 1, "preempt: counted");
	is_int(sched_cjob_reason(core, l[3]), SCHED_REASON_RESOURCES,
	    "preempt: the victim waits for Resources");
	sched_core_free(core);

	/* No preemption within a queue: all in Q0. */
	core = t_four(SCHED_DLAS, UINT64_C(1) << 40, false, l);
	p = t_submit(core, 5, 3, 600);
	is_int(t_pass(core, 600), 0, "same queue: no preemption");
	is_int(sched_cjob_reason(core, p), SCHED_REASON_RESOURCES,
	    "same queue: waits for Resources");
	sched_core_free(core);

	/* l[3] is not requeueable: the victims are l[2] and l[1]. */
	core = t_four(SCHED_DLAS, 1000, true, l);
	p = t_submit(core, 5, 3, 600);
	is_int(t_pass(core, 600), 2, "no_requeue: two victims");
	ok(t_did(SCHED_ACT_PREEMPT, l[2]) && t_did(SCHED_ACT_PREEMPT, l[1]),
	    "no_requeue: the lowest two that may be stopped");
	ok(!t_did(SCHED_ACT_PREEMPT, l[3]), "no_requeue: never a victim");
	sched_core_free(core);

	/* fifo never preempts, strict or not. */
	core = t_four(SCHED_FIFO, 1000, false, l);
	is_int(sched_core_queues(core), 1, "fifo: one queue level");
	p = t_submit(core, 5, 3, 600);
	is_int(t_pass(core, 600), 0, "fifo: no preemption");
	is_int(sched_cjob_reason(core, p), SCHED_REASON_RESOURCES,
	    "fifo: waits for Resources");
	sched_core_free(core);

	/* Fewest victims: f (3 GPUs) starts at 0 on one node, e (4) at 10
	 * on the other, d (1) at 20 beside f. A 4-GPU job takes d, then e,
	 * and fits; without d it still fits, so d is given back. */
	t_conf(&conf, SCHED_DLAS, 1000);
	core = t_core(&conf, 2, 4);
	f = t_submit(core, 1, 3, 0);
	t_pass(core, 0);
	e = t_submit(core, 2, 4, 10);
	t_pass(core, 10);
	d = t_submit(core, 3, 1, 20);
	t_pass(core, 20);
	t_pass(core, 1100);
	is_int(sched_cjob_queue(d), 1, "fewest: all demoted by 1,100");
	p = t_submit(core, 4, 4, 1100);
	is_int(t_pass(core, 1100), 1, "fewest: one victim");
	ok(t_did(SCHED_ACT_PREEMPT, e), "fewest: the 4-GPU job");
	is_int(sched_cjob_state(d), SCHED_JOB_RUNNING, "fewest: d runs on");
	is_int(sched_cjob_state(f), SCHED_JOB_RUNNING, "fewest: f runs on");
	sched_core_free(core);
}

/* One 4-GPU node, threshold 4,000 GPU-ms (1,000 ms of a 4-GPU job). a
 * starts at 0 and is in Q1 from 1,000; b arrives at 1,500 and preempts it.
 * a has run 1,500 ms; with knob 2 it is promoted at 1,500 + 3,000. */
static void
test_promotion(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_cjob	*a, *b;
	int			 knob;

	for (knob = 2; knob >= 0; knob -= 2) {
		t_conf(&conf, SCHED_DLAS, 4000);
		conf.promote_knob = knob;
		core = t_core(&conf, 1, 4);
		a = t_submit(core, 1, 4, 0);
		t_pass(core, 0);
		t_pass(core, 1000);
		is_int(sched_cjob_queue(a), 1, "knob %d: a in Q1", knob);
		b = t_submit(core, 2, 4, 1500);
		t_pass(core, 1500);
		ok(t_did(SCHED_ACT_PREEMPT, a), "knob %d: b preempts a", knob);
		sched_core_stopped(core, a, 1500);
		t_pass(core, 1500);
		ok(t_did(SCHED_ACT_START, b), "knob %d: b starts", knob);
		is_int(sched_cjob_executed(a, 1500), 1500,
		    "knob %d: a ran 1,500 ms", knob);
		is_int(sched_core_next_wakeup(core), 2500,
		    "knob %d: b's demotion first", knob);
		t_pass(core, 2500);
		if (knob == 0) {
			ok(sched_core_next_wakeup(core) == SCHED_NEVER,
			    "knob 0: no promotion timer");
			t_pass(core, 1000000);
			is_int(sched_cjob_queue(a), 1, "knob 0: a stays in Q1");
			is_int(sched_cjob_promotions(a), 0,
			    "knob 0: never promoted");
			is_int(sched_core_promotions(core), 0,
			    "knob 0: the core counts none");
			sched_core_free(core);
			continue;
		}
		is_int(sched_core_next_wakeup(core), 4500,
		    "knob 2: promotion due at 4,500");
		t_pass(core, 4499);
		is_int(sched_cjob_queue(a), 1, "knob 2: not yet at 4,499");
		is_int(t_pass(core, 4500), 1, "knob 2: one action at 4,500");
		is_int(sched_cjob_queue(a), 0, "knob 2: a back in Q0");
		is_int(sched_cjob_promotions(a), 1, "knob 2: counted");
		is_int(sched_core_promotions(core), 1,
		    "knob 2: the core counts it");
		is_int(sched_cjob_executed(a, 4500), 0,
		    "knob 2: executed reset");
		is_int(sched_cjob_total_executed(a, 4500), 1500,
		    "knob 2: total kept");
		ok(t_did(SCHED_ACT_PREEMPT, b),
		    "knob 2: a (Q0) preempts b (Q1)");
		sched_core_stopped(core, b, 4500);
		t_pass(core, 4500);
		ok(t_did(SCHED_ACT_START, a), "knob 2: a runs again");
		/* a's queue follows its service since the promotion: a
		 * fresh Q0 quantum, 4,000 GPU-ms on 4 GPUs, ends at 5,500
		 * (not at once, for its 6,000 GPU-ms in all). */
		is_int(sched_core_next_wakeup(core), 5500,
		    "knob 2: a's fresh quantum ends at 5,500");
		t_pass(core, 5499);
		is_int(sched_cjob_queue(a), 0, "knob 2: a in Q0 at 5,499");
		t_pass(core, 5500);
		is_int(sched_cjob_queue(a), 1, "knob 2: a demoted at 5,500");
		is_int(sched_cjob_attained(a, 5500), 10000,
		    "knob 2: attained counts every run");
		is_int(sched_core_next_wakeup(core), 10500,
		    "knob 2: b's promotion at 4,500 + 2 x 3,000");
		t_pass(core, 10500);
		is_int(sched_core_promotions(core), 2,
		    "knob 2: the core counts b's too");
		sched_core_free(core);
	}
}

static void
test_gittins(void)
{
	static const uint64_t	 s[4] = { 1000, 2000, 3000, 4000 };
	static const double	 pre[5] = { 0, 1000, 3000, 6000, 10000 };
	static const uint64_t	 unsorted[4] = { 3000, 1000, 4000, 2000 };
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_cjob	*x, *y;
	struct sched_jobspec	 spec;
	int			 i;

	/* a = 0, no bound: P = 1, E[S] = 2,500. */
	ok(fabs(sched_gittins_index(s, pre, 4, 0, 0) - 1.0 / 2500) < 1e-12,
	    "gittins: a 0, unbounded: 1/2500");
	/* a = 0, delta 2,500: P(S <= 2,500) = 1/2; E[min(S, 2,500)] =
	 * (1,000 + 2,000 + 2,500 + 2,500) / 4 = 2,000: 1/4000. */
	ok(fabs(sched_gittins_index(s, pre, 4, 0, 2500) - 1.0 / 4000) < 1e-12,
	    "gittins: a 0, delta 2,500: 1/4000");
	/* a = 1,500, delta 1,000: left {500, 1,500, 2,500}, P = 1/3,
	 * E = (500 + 1,000 + 1,000) / 3: 1/2500. */
	ok(fabs(sched_gittins_index(s, pre, 4, 1500, 1000) - 1.0 / 2500) <
	    1e-12, "gittins: a 1,500, delta 1,000: 1/2500");
	/* a = 1,000 (S > a strictly), delta 1,000: left {1,000, 2,000,
	 * 3,000}, P = 1/3, E = 1,000: 1/3000. */
	ok(fabs(sched_gittins_index(s, pre, 4, 1000, 1000) - 1.0 / 3000) <
	    1e-12, "gittins: a on a sample, delta 1,000: 1/3000");
	/* a = 2,000, no bound: left {1,000, 2,000}: 1/1500. */
	ok(fabs(sched_gittins_index(s, pre, 4, 2000, 0) - 1.0 / 1500) < 1e-12,
	    "gittins: a 2,000, unbounded: 1/1500");
	ok(sched_gittins_index(s, pre, 4, 4000, 0) == 0,
	    "gittins: older than every sample: 0");

	/* x is new (index 1/2500); y has 2,000 GPU-ms (1/1500): y first
	 * under gittins though x came first, x first under dlas. */
	for (i = 0; i < 2; i++) {
		t_conf(&conf, i == 0 ? SCHED_GITTINS : SCHED_DLAS, 100000);
		conf.samples = unsorted;
		conf.nsamples = 4;
		core = t_core(&conf, 1, 1);
		x = t_submit(core, 1, 1, 0);
		t_spec(&spec, 2, 1, 10);
		spec.attained = 2000;
		spec.total_executed = 2000;
		spec.first_start = 5;
		y = sched_core_submit(core, &spec, 10);
		is_int(t_pass(core, 20), 1, "%s: one GPU, one start",
		    i == 0 ? "gittins" : "dlas");
		if (i == 0)
			ok(t_did(SCHED_ACT_START, y), "gittins: y first");
		else
			ok(t_did(SCHED_ACT_START, x), "dlas: x first");
		sched_core_free(core);
	}
}

static void
test_srtf(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_cjob	*lng, *sht, *med;
	struct sched_jobspec	 spec;

	t_conf(&conf, SCHED_SRTF, 1000);
	core = t_core(&conf, 1, 4);
	t_spec(&spec, 1, 4, 0);
	spec.duration = 10000;
	lng = sched_core_submit(core, &spec, 0);
	t_pass(core, 0);
	/* At 1,000 lng has 9,000 left; a 2,000 ms job preempts it. */
	t_spec(&spec, 2, 4, 1000);
	spec.duration = 2000;
	sht = sched_core_submit(core, &spec, 1000);
	is_int(t_pass(core, 1000), 1, "srtf: one action");
	ok(t_did(SCHED_ACT_PREEMPT, lng), "srtf: the longer job is preempted");
	sched_core_stopped(core, lng, 1000);
	t_pass(core, 1000);
	ok(t_did(SCHED_ACT_START, sht), "srtf: the shorter starts");
	/* 9,500 ms is more than sht's 1,500 left: no preemption. */
	t_spec(&spec, 3, 4, 1500);
	spec.duration = 9500;
	med = sched_core_submit(core, &spec, 1500);
	is_int(t_pass(core, 1500), 0, "srtf: a longer job waits");
	sched_core_end(core, sht, 3000);
	/* lng (9,000 left) before med (9,500), though med never ran. */
	is_int(t_pass(core, 3000), 1, "srtf: one start at 3,000");
	ok(t_did(SCHED_ACT_START, lng), "srtf: the least time left first");
	is_int(sched_cjob_total_executed(lng, 3000), 1000,
	    "srtf: its 1,000 ms kept");
	is_int(t_pass(core, 3100), 0, "srtf: med does not outrank it");
	is_int(sched_cjob_state(med), SCHED_JOB_PENDING, "srtf: med waits");
	sched_core_free(core);
}

static void
test_conf(void)
{
	struct sched_conf	 conf;
	enum sched_policy	 pol;
	enum sched_placement	 pl;
	char			 err[256];

	ok(sched_conf_policy_parse("gittins", &pol, err, sizeof err) == 0 &&
	    pol == SCHED_GITTINS, "parse: gittins");
	ok(sched_conf_policy_parse("fifo", &pol, err, sizeof err) == 0 &&
	    pol == SCHED_FIFO, "parse: fifo");
	is_int(sched_conf_policy_parse("lifo", &pol, err, sizeof err), -1,
	    "parse: lifo is no policy");
	ok(strstr(err, "\"lifo\"") != NULL, "parse: the error names it");
	ok(sched_conf_placement_parse("yarn", &pl, err, sizeof err) == 0 &&
	    pl == SCHED_PLACE_YARN, "parse: yarn");
	is_int(sched_conf_placement_parse("packed", &pl, err, sizeof err), -1,
	    "parse: packed is no placement");
	ok(strstr(err, "\"packed\"") != NULL, "parse: the error names it");
	is_str(sched_conf_policy_name(SCHED_SRTF), "srtf", "name: srtf");
	is_str(sched_conf_placement_name(SCHED_PLACE_SPREAD), "spread",
	    "name: spread");

	sched_conf_default(&conf);
	is_int(sched_conf_thresholds_parse("3250,7200,18000", &conf, err,
	    sizeof err), 0, "thresholds: three");
	is_int(conf.nqueues, 4, "thresholds: four queues");
	ok(conf.thresholds[0] == 3250000 && conf.thresholds[1] == 7200000 &&
	    conf.thresholds[2] == 18000000, "thresholds: in GPU-ms");
	is_int(sched_conf_thresholds_parse("1.5", &conf, err, sizeof err), 0,
	    "thresholds: a fraction");
	ok(conf.nqueues == 2 && conf.thresholds[0] == 1500,
	    "thresholds: 1.5 GPU-s is 1,500 GPU-ms");
	is_int(sched_conf_thresholds_parse("7200,3250", &conf, err, sizeof err),
	    -1, "thresholds: falling is refused");
	ok(strstr(err, "7200,3250") != NULL, "thresholds: error names input");
	ok(conf.nqueues == 2 && conf.thresholds[0] == 1500,
	    "thresholds: conf untouched by a refusal");
	is_int(sched_conf_thresholds_parse("abc", &conf, err, sizeof err), -1,
	    "thresholds: abc is refused");
	ok(strstr(err, "abc") != NULL, "thresholds: error names abc");
	is_int(sched_conf_thresholds_parse("0", &conf, err, sizeof err), -1,
	    "thresholds: 0 is refused");
	is_int(sched_conf_thresholds_parse("10,", &conf, err, sizeof err), -1,
	    "thresholds: a trailing comma is refused");
	is_int(sched_conf_thresholds_parse("", &conf, err, sizeof err), -1,
	    "thresholds: empty is refused");

	sched_conf_default(&conf);
	is_int(sched_conf_check(&conf, err, sizeof err), 0,
	    "check: the defaults pass");
	conf.policy = SCHED_GITTINS;
	is_int(sched_conf_check(&conf, err, sizeof err), -1,
	    "check: gittins without samples");
	ok(strstr(err, "samples") != NULL, "check: says samples");
	sched_conf_default(&conf);
	conf.nqueues = 3;
	conf.thresholds[1] = conf.thresholds[0];
	is_int(sched_conf_check(&conf, err, sizeof err), -1,
	    "check: equal thresholds do not rise");
	conf.thresholds[1] = conf.thresholds[0] - 1;
	is_int(sched_conf_check(&conf, err, sizeof err), -1,
	    "check: falling thresholds");
	sched_conf_default(&conf);
	conf.nqueues = SCHED_MAX_QUEUES + 1;
	is_int(sched_conf_check(&conf, err, sizeof err), -1,
	    "check: too many queues");
	sched_conf_default(&conf);
	conf.promote_knob = -1;
	is_int(sched_conf_check(&conf, err, sizeof err), -1,
	    "check: a negative knob");
}

/* A job adopted while being preempted (a controller restart): a job
 * that needs GPUs waits for it rather than preempt another. */
static void
test_adopt_preempting(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct place_alloc	 a = { 0 };
	struct sched_cjob	*x, *y, *c;

	t_conf(&conf, SCHED_DLAS, 4000);
	core = t_core(&conf, 2, 4);
	/* x and y ran 10 s on 4 GPUs: both in Q1. x is being stopped. */
	t_spec(&spec, 1, 4, 0);
	spec.attained = 40000;
	spec.executed = 10000;
	spec.first_start = 0;
	spec.preempting = true;
	a.node = 0;
	a.mask = 0xf;
	x = sched_core_adopt(core, &spec, &a, 1, 10000);
	t_spec(&spec, 2, 4, 0);
	spec.attained = 40000;
	spec.executed = 10000;
	spec.first_start = 1;
	a.node = 1;
	y = sched_core_adopt(core, &spec, &a, 1, 10000);
	is_int(sched_cjob_state(x), SCHED_JOB_PREEMPTING, "x adopted preempting");
	is_int(sched_core_running(core), 1, "only y counts as running");
	c = t_submit(core, 3, 4, 10000);
	is_int(t_pass(core, 10000), 0, "c preempts nothing more");
	ok(!t_did(SCHED_ACT_PREEMPT, y), "y is not preempted");
	is_int(sched_cjob_reason(core, c), SCHED_REASON_PREEMPTING,
	    "c waits for x to stop");
	sched_core_stopped(core, x, 10500);
	t_pass(core, 10500);
	ok(t_did(SCHED_ACT_START, c), "c starts once x stopped");
	is_int(sched_cjob_state(y), SCHED_JOB_RUNNING, "y still runs");
	sched_core_free(core);
}

/* Which nodes could ever hold a job: the up ones, else the drained. */
static void
test_capacity(void)
{
	struct sched_capacity	none = { 0, 0 }, up4 = { 4, 4 };
	struct sched_capacity	up8 = { 8, 4 }, up12 = { 12, 8 };

	is_int(sched_capacity_reason(4, false, 8, &up8, &up8),
	    SCHED_REASON_NONE, "4 GPUs fit 2 x 4 up");
	is_int(sched_capacity_reason(8, false, 8, &up8, &up8),
	    SCHED_REASON_NONE, "a gang of 8 fits 2 x 4 up");
	is_int(sched_capacity_reason(4, false, 8, &none, &none),
	    SCHED_REASON_NODES_DOWN, "no node up");
	is_int(sched_capacity_reason(4, false, 8, &none, &up4),
	    SCHED_REASON_NODES_DRAINED, "the only node is drained");
	is_int(sched_capacity_reason(8, false, 8, &up4, &up8),
	    SCHED_REASON_NODES_DRAINED, "the drained node would complete it");
	is_int(sched_capacity_reason(12, false, 8, &up4, &up8),
	    SCHED_REASON_NODES_DOWN, "drained nodes would not do either");
	is_int(sched_capacity_reason(8, true, 8, &up8, &up8),
	    SCHED_REASON_NODES_DOWN, "consolidate: the 8-GPU node is down");
	is_int(sched_capacity_reason(8, true, 8, &up8, &up12),
	    SCHED_REASON_NODES_DRAINED, "consolidate: the 8-GPU node is "
	    "drained");
	is_int(sched_capacity_reason(8, true, 4, &up8, &up8),
	    SCHED_REASON_NONE, "consolidate: no node of 8 exists, 2 x 4");
	is_str(sched_reason_name(SCHED_REASON_NODES_DOWN), "NodesDown",
	    "name");
	is_str(sched_reason_name(SCHED_REASON_NODES_DRAINED), "NodesDrained",
	    "name");
}

static void
t_collect(struct sched_cjob *j, void *arg)
{
	char	*out = arg;
	size_t	 n = strlen(out);

	snprintf(out + n, 64 - n, "%s%llu", n > 0 ? "," : "",
	    (unsigned long long)sched_cjob_id(j));
}

/* sched_core_each_pending walks the pending jobs in the order a pass
 * takes them: the first it names is the one that starts. */
static void
test_each_pending(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_cjob	*first, *j2, *j3, *j4, *j5;
	char			 order[64] = "";

	t_conf(&conf, SCHED_DLAS, 3600000);
	core = t_core(&conf, 1, 4);
	first = t_submit(core, 1, 4, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, first), "each_pending: job 1 runs");
	j2 = t_submit(core, 2, 2, 100);
	j3 = t_submit(core, 3, 1, 200);
	j4 = t_submit(core, 4, 4, 50);
	sched_core_each_pending(core, t_collect, order);
	is_str(order, "4,2,3", "each_pending: Q0's jobs by submit time");
	ok(sched_cjob_rank(j4) == 0, "rank: 0 before any numbering");
	sched_core_rank(core);
	ok(sched_cjob_rank(j4) == 1 && sched_cjob_rank(j2) == 2 &&
	    sched_cjob_rank(j3) == 3, "rank: the pending jobs in that order");
	j5 = t_submit(core, 5, 1, 300);
	ok(sched_cjob_rank(j5) == 0, "rank: 0 for a job come since");
	sched_core_end(core, first, 1000);
	t_pass(core, 1000);
	ok(t_nacts == 1 && t_acts[0].type == SCHED_ACT_START &&
	    sched_cjob_id(t_acts[0].job) == 4, "the first of them starts");
	order[0] = '\0';
	sched_core_each_pending(core, t_collect, order);
	is_str(order, "2,3,5", "each_pending: the rest, in order");
	ok(sched_cjob_rank(j2) == 2, "rank: as last numbered until numbered "
	    "again");
	sched_core_rank(core);
	ok(sched_cjob_rank(j2) == 1 && sched_cjob_rank(j3) == 2 &&
	    sched_cjob_rank(j5) == 3, "rank: numbered again, from 1");
	sched_core_stopped(core, j4, 2000);
	ok(sched_cjob_rank(j4) == 0, "rank: 0 for a job come back since");
	sched_core_free(core);
}

/* A job array's throttle: jobs 10..15 of group 7, capped at 2, on 8 free
 * GPUs: two start, the rest wait as JobArrayTaskLimit while a job of no
 * group behind them starts; one ending lets exactly one more start. A
 * rekeyed job keeps its place and GPUs under its new id. */
static void
test_group_cap(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct sched_cjob	*j[6], *other;
	int			 i, started = 0, capped = 0;

	t_conf(&conf, SCHED_DLAS, 3600000);
	core = t_core(&conf, 1, 8);
	for (i = 0; i < 6; i++) {
		t_spec(&spec, 10 + (uint64_t)i, 1, i);
		spec.group = 7;
		spec.group_cap = 2;
		j[i] = sched_core_submit(core, &spec, i);
	}
	other = t_submit(core, 20, 1, 100);
	t_pass(core, 200);
	for (i = 0; i < 6; i++) {
		started += t_did(SCHED_ACT_START, j[i]);
		capped += sched_cjob_reason(core, j[i]) == SCHED_REASON_GROUP_CAP;
	}
	ok(started == 2 && t_did(SCHED_ACT_START, j[0]) &&
	    t_did(SCHED_ACT_START, j[1]), "group cap: the first 2 start");
	ok(capped == 4, "group cap: 4 wait as %s",
	    sched_reason_name(SCHED_REASON_GROUP_CAP));
	ok(t_did(SCHED_ACT_START, other), "group cap: a job of no group "
	    "behind them starts");
	ok(sched_core_group_holding(core, 7) == 2, "group cap: 2 holding");
	sched_core_rekey(core, j[0], 99, NULL);
	ok(sched_cjob_id(j[0]) == 99 && sched_cjob_state(j[0]) ==
	    SCHED_JOB_RUNNING, "rekey: new id, still running");
	sched_core_end(core, j[0], 300);
	t_pass(core, 300);
	ok(t_nacts == 1 && t_did(SCHED_ACT_START, j[2]),
	    "group cap: one ends, the next one starts");
	ok(sched_core_group_holding(core, 7) == 2, "group cap: 2 holding "
	    "again");
	sched_core_stopped(core, j[1], 400);
	ok(sched_core_group_holding(core, 7) == 1, "group cap: a stopped "
	    "job holds nothing");
	sched_core_free(core);
}

/* A job bound to some nodes (sbatch's -w/-x): on two 4-GPU nodes with
 * node 1 full, a 2-GPU job bound to node 1 waits though node 0 is idle,
 * and a job behind it starts there; once node 1 frees it starts on node 1,
 * spread over nothing else. A bound job of a higher queue preempts a job
 * of a lower one on its nodes, and never one elsewhere. */
static void
test_bound_nodes(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct sched_cjob	*full, *bound, *free_one, *low0, *bound0;
	const struct place_alloc *a;
	uint32_t		 only1[] = { 1, 7 }, only0[] = { 0 };
	size_t			 n;

	t_conf(&conf, SCHED_DLAS, 1000);
	core = t_core(&conf, 2, 4);
	t_spec(&spec, 1, 4, 0);
	spec.nodes = only1;
	spec.nnodes = 2;
	full = sched_core_submit(core, &spec, 0);
	t_pass(core, 0);
	a = sched_cjob_alloc(full, &n);
	ok(t_did(SCHED_ACT_START, full) && n == 1 && a[0].node == 1,
	    "bound: a job bound to node 1 (and an unknown 7) runs there");
	/* Node 1 full, with a job of Q0 on it: a bound job of Q0 waits. */
	t_spec(&spec, 2, 2, 10);
	spec.nodes = only1;
	spec.nnodes = 1;
	bound = sched_core_submit(core, &spec, 10);
	free_one = t_submit(core, 3, 2, 20);
	t_pass(core, 100);
	ok(!t_did(SCHED_ACT_START, bound) && t_did(SCHED_ACT_START, free_one),
	    "bound: it waits with node 0 idle; the job behind it starts");
	ok(!t_did(SCHED_ACT_PREEMPT, full), "bound: it preempts nothing "
	    "of its own queue");
	/* full has had its GPU-time and is in Q1: the bound job preempts
	 * it, and not free_one on node 0, though free_one is in Q1 too. */
	t_pass(core, 5000);
	ok(sched_cjob_queue(full) == 1 && sched_cjob_queue(free_one) == 1,
	    "bound: both running jobs demoted");
	ok(t_did(SCHED_ACT_PREEMPT, full) &&
	    !t_did(SCHED_ACT_PREEMPT, free_one) &&
	    !t_did(SCHED_ACT_START, bound), "bound: it preempts the job on "
	    "its node of a lower queue, and no other");
	sched_core_stopped(core, full, 6000);
	t_pass(core, 6000);
	a = sched_cjob_alloc(bound, &n);
	ok(t_did(SCHED_ACT_START, bound) && n == 1 && a[0].node == 1 &&
	    a[0].mask == 0x3, "bound: node 1 free, it starts there");
	sched_core_free(core);

	/* Only a job elsewhere to preempt (the one on its node may not be
	 * requeued): a bound job waits. */
	core = t_core(&conf, 2, 4);
	t_spec(&spec, 1, 4, 0);
	spec.nodes = only0;
	spec.nnodes = 1;
	low0 = sched_core_submit(core, &spec, 0);
	t_spec(&spec, 2, 4, 0);
	spec.nodes = only1;
	spec.nnodes = 1;
	spec.no_requeue = true;
	(void)sched_core_submit(core, &spec, 0);
	t_pass(core, 0);
	t_spec(&spec, 3, 4, 5000);
	spec.nodes = only1;
	spec.nnodes = 1;
	bound0 = sched_core_submit(core, &spec, 5000);
	t_pass(core, 5000);
	ok(sched_cjob_queue(low0) == 1 && !t_did(SCHED_ACT_PREEMPT, low0) &&
	    !t_did(SCHED_ACT_START, bound0),
	    "bound: a lower job on a node it may not use is left alone");
	sched_core_free(core);
}

/* Many groups joined and left in a scrambled order: each is found while
 * it has members and gone after (the table's removal keeps probes). */
static void
test_group_table(void)
{
	struct sched_groups	 t;
	struct sched_group	*g[2000];
	uint64_t		 i, k;
	int			 bad = 0;

	memset(&t, 0, sizeof t);
	for (i = 0; i < 2000; i++)
		g[i] = sched_group_join(&t, i * 64 + 1, 3, 0);
	for (i = 0; i < 2000; i++) {
		k = (i * 7919) % 2000;
		sched_group_leave(&t, g[k]);
		g[k] = NULL;
		if (sched_group_find(&t, k * 64 + 1) != NULL)
			bad++;
		if (i % 97 == 0) {
			for (k = 0; k < 2000; k++)
				bad += (g[k] != NULL) != (sched_group_find(&t,
				    k * 64 + 1) != NULL);
		}
	}
	ok(bad == 0 && t.n == 0, "group table: found exactly while joined");
	sched_group_clear(&t);
}

/* CPUs and memory beside GPUs: a job waits for them with a reason that
 * names them, starts once they are free, and a job found running holds
 * what its request says. */
static void
test_res(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct sched_cjob	*a, *b, *c, *d;
	struct place_cluster	*cl;
	struct place_alloc	 pa = { 0 };

	t_conf(&conf, SCHED_FIFO, 0);
	conf.strict = false;
	core = t_core(&conf, 1, 4);
	cl = sched_core_cluster(core);
	place_node_set_res(cl, 0, 8, 1000);
	t_spec(&spec, 1, 1, 0);
	spec.res.cpus_gpu = 8;
	a = sched_core_submit(core, &spec, 0);
	t_spec(&spec, 2, 1, 0);
	spec.res.cpus_gpu = 1;
	b = sched_core_submit(core, &spec, 0);
	t_spec(&spec, 3, 1, 0);
	spec.res.mem_node = 2000;
	c = sched_core_submit(core, &spec, 0);
	is_int(t_pass(core, 0), 1, "res: one start");
	ok(t_did(SCHED_ACT_START, a), "res: the job of 8 CPUs starts");
	is_int(place_node_cpus_free(cl, 0), 0, "res: it holds the CPUs");
	is_int(sched_cjob_reason(core, b), SCHED_REASON_CPUS,
	    "res: GPUs free, CPUs not: reason CPUs");
	is_int(sched_cjob_reason(core, c), SCHED_REASON_MEMORY,
	    "res: more memory than there is: reason Memory");
	is_str(sched_reason_name(SCHED_REASON_CPUS), "CPUs",
	    "res: the reason's name");
	sched_core_end(core, a, 10);
	is_int(t_pass(core, 10), 1, "res: its CPUs free: one start");
	ok(t_did(SCHED_ACT_START, b), "res: the job that waited for CPUs");
	is_int(place_node_cpus_free(cl, 0), 7, "res: it holds 1 CPU");
	/* Found running with 2 GPUs and the node's share (4 CPUs, 500
	 * MB): it holds them again. */
	t_spec(&spec, 4, 2, 0);
	spec.res.cpus_share = true;
	spec.res.mem_share = true;
	pa.node = 0;
	pa.mask = 0xc;
	d = sched_core_adopt(core, &spec, &pa, 1, 10);
	is_int(place_node_cpus_free(cl, 0), 3, "res: adopt holds its share");
	is_int(place_node_mem_free(cl, 0), 500, "res: of memory too");
	sched_core_end(core, d, 20);
	is_int(place_node_mem_free(cl, 0), 1000, "res: end gives it back");
	sched_core_free(core);
}

/* Jobs' needs beside their GPUs are shared copies in the core, the first
 * 64 distinct ones: many more distinct needs than that are each still
 * honoured (a need past them is a job's own copy), and their jobs ending
 * in any order gives every CPU and megabyte back. */
static void
test_res_many(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct sched_cjob	*j[71];
	struct place_cluster	*cl;
	size_t			 i, started = 0;

	t_conf(&conf, SCHED_FIFO, 0);
	conf.strict = false;
	core = t_core(&conf, 1, 64);
	cl = sched_core_cluster(core);
	place_node_set_res(cl, 0, 64, 100000);
	/* Job i asks for 1,000 + i MB: 64 start, the 6 past the shared
	 * needs wait for GPUs. */
	for (i = 0; i < 70; i++) {
		t_spec(&spec, 1 + i, 1, (int64_t)i);
		spec.res.mem_node = 1000 + i;
		j[i] = sched_core_submit(core, &spec, (int64_t)i);
	}
	is_int(t_pass(core, 100), 64, "res many: 64 start");
	is_int(place_node_mem_free(cl, 0), 100000 - 64000 - 63 * 64 / 2,
	    "res many: each holds what it asked");
	/* Ten end: the six start, each with its own need. */
	for (i = 0; i < 10; i++)
		sched_core_end(core, j[i], 200);
	is_int(t_pass(core, 200), 6, "res many: the six start");
	for (i = 10; i < 70; i++)
		started += sched_cjob_state(j[i]) == SCHED_JOB_RUNNING;
	is_int(started, 60, "res many: all but the ended run");
	is_int(place_node_mem_free(cl, 0), 100000 - 60000 -
	    (69 * 70 / 2 - 9 * 10 / 2), "res many: the six hold theirs");
	/* One more, asking more than is left: it waits for memory. */
	t_spec(&spec, 71, 1, 200);
	spec.res.mem_node = 50000;
	j[70] = sched_core_submit(core, &spec, 200);
	is_int(t_pass(core, 201), 0, "res many: no room for the last");
	is_int(sched_cjob_reason(core, j[70]), SCHED_REASON_MEMORY,
	    "res many: it waits for memory");
	for (i = 71; i > 10; i--)
		sched_core_end(core, j[i - 1], 300);
	is_int(place_node_mem_free(cl, 0), 100000,
	    "res many: all ended, all memory free");
	sched_core_free(core);
}

/* A queue of like jobs behind GPUs free but short of CPUs: each waits
 * with the reason its first one found (one placement a pass answers them
 * all), a job of another kind behind them still starts, and once CPUs
 * come free the next one starts. */
static void
test_res_queue(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct sched_cjob	*j[200], *small, *big;
	struct place_cluster	*cl;
	size_t			 i, waiting = 0;

	t_conf(&conf, SCHED_DLAS, 0);
	core = t_core(&conf, 2, 4);
	cl = sched_core_cluster(core);
	place_node_set_res(cl, 0, 4, 1000);
	place_node_set_res(cl, 1, 4, 1000);
	/* Two jobs of 4 CPUs hold every CPU, 4 of the 8 GPUs. */
	for (i = 0; i < 2; i++) {
		t_spec(&spec, 1 + i, 2, 0);
		spec.any_shape = false;
		spec.res.cpus_node = 4;
		(void)sched_core_submit(core, &spec, 0);
	}
	for (i = 0; i < 200; i++) {
		t_spec(&spec, 10 + i, 1, 1);
		spec.any_shape = false;
		spec.res.cpus_gpu = 1;
		j[i] = sched_core_submit(core, &spec, 1);
	}
	t_spec(&spec, 300, 1, 2);
	spec.any_shape = false;
	spec.res.mem_node = 5000;
	big = sched_core_submit(core, &spec, 2);
	t_spec(&spec, 301, 1, 3);
	spec.any_shape = false;
	small = sched_core_submit(core, &spec, 3);
	is_int(t_pass(core, 5), 3, "res queue: the two 4-CPU jobs and the "
	    "job asking no CPUs start");
	ok(t_did(SCHED_ACT_START, small), "res queue: the job asking no CPUs "
	    "starts behind 200 that wait");
	for (i = 0; i < 200; i++)
		waiting += sched_cjob_reason(core, j[i]) == SCHED_REASON_CPUS;
	is_int(waiting, 200, "res queue: all 200 wait for CPUs, so named");
	is_int(sched_cjob_reason(core, big), SCHED_REASON_MEMORY, "res queue: the "
	    "job asking too much memory behind them says Memory");
	is_int(t_pass(core, 6), 0, "res queue: a pass again starts none");
	is_int(sched_cjob_reason(core, j[199]), SCHED_REASON_CPUS, "res queue: "
	    "and the last still says CPUs");
	place_node_set_res(cl, 1, 6, 1000);
	is_int(t_pass(core, 7), 2, "res queue: 2 CPUs more: two start");
	ok(t_did(SCHED_ACT_START, j[0]) && t_did(SCHED_ACT_START, j[1]),
	    "res queue: the first two of the queue");
	is_int(sched_cjob_reason(core, j[2]), SCHED_REASON_CPUS, "res queue: the "
	    "third waits for CPUs again");
	sched_core_free(core);
}

int
main(void)
{
	test_res();
	test_res_many();
	test_res_queue();
	test_group_cap();
	test_group_table();
	test_bound_nodes();
	test_each_pending();
	test_capacity();
	test_demotion();
	test_dlas_order();
	t_skip(SCHED_DLAS, true, "dlas");
	t_skip(SCHED_FIFO, false, "fifo, not strict");
	t_skip(SCHED_FIFO, true, "fifo, strict");
	test_gang();
	test_preempt();
	test_reserve_res();
	test_adopt_preempting();
	test_promotion();
	test_gittins();
	test_srtf();
	test_conf();
	return (tap_done());
}
