/* sched-part-test.c: partitions and tiers in the scheduling core
 * (policy/sched-core*.c, sched-shape.c): a job given several node sets
 * (its partitions) runs in the first that holds it, never across two;
 * an empty set holds nothing; a higher tier starts first and may preempt
 * a lower one whatever their queues, never the other way, and never under
 * fifo, nor across tiers where the caller's rules between classes say
 * not, which say nothing within a tier; urgency orders the waiting jobs
 * of a tier and queue and preempts no one; jobs bound to the same nodes that find no room are answered by
 * their shape's memo without hiding a job bound elsewhere. Expected
 * values are worked out in the comments. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"


/* policy, two queues at thr0 GPU-ms, nnodes nodes of gpus GPUs each. */
static struct sched_core *
t_core(enum sched_policy policy, uint64_t thr0, uint32_t nnodes,
    uint32_t gpus)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	uint32_t		 i;

	sched_conf_default(&conf);
	conf.policy = policy;
	conf.thresholds[0] = thr0;
	core = sched_core_create(&conf);
	for (i = 0; i < nnodes; i++)
		place_node_add(sched_core_cluster(core), gpus, 0);
	return (core);
}

static void
t_spec(struct sched_jobspec *spec, uint64_t id, uint32_t gpus, int64_t now)
{
	memset(spec, 0, sizeof *spec);
	spec->id = id;
	spec->gpus = gpus;
	spec->submit = now;
	spec->first_start = SCHED_NEVER;
	spec->last_stop = now;
	spec->any_shape = true;
}

/* A job of gpus GPUs in tier, on the sets laid out in nodes (nsets of
 * them; nodes NULL: anywhere). */
static struct sched_cjob *
t_submit(struct sched_core *core, uint64_t id, uint32_t gpus, uint8_t tier,
    const uint32_t *nodes, uint32_t nnodes, uint32_t nsets, int64_t now)
{
	struct sched_jobspec	spec;

	t_spec(&spec, id, gpus, now);
	spec.tier = tier;
	spec.nodes = nodes;
	spec.nnodes = nnodes;
	spec.nsets = nsets;
	return (sched_core_submit(core, &spec, now));
}

/* The one node a running job holds GPUs on, or -1 for none or several. */
static long
t_node(const struct sched_cjob *j)
{
	const struct place_alloc	*a;
	size_t				 n;

	a = sched_cjob_alloc(j, &n);
	return (n == 1 ? (long)a[0].node : -1);
}

/* Two sets, node 0 then node 1 (2 GPUs each): the first that holds the
 * job wins, the second when the first is full. */
static void
test_first_set(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 1000000, 2, 2);
	/* Set 0 ends at 1, set 1 at 2: {0}, {1}. */
	static const uint32_t	 sets[] = { 1, 2, 0, 1 };
	static const uint32_t	 only0[] = { 0 };
	struct sched_cjob	*a, *b, *c;

	a = t_submit(core, 1, 2, 0, sets, 4, 2, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, a) && t_node(a) == 0,
	    "both sets free: the job runs in the first (node %ld)", t_node(a));
	b = t_submit(core, 2, 2, 0, sets, 4, 2, 1);
	t_pass(core, 1);
	ok(t_did(SCHED_ACT_START, b) && t_node(b) == 1,
	    "the first full: the second (node %ld)", t_node(b));
	c = t_submit(core, 3, 1, 0, only0, 1, 1, 2);
	t_pass(core, 2);
	ok(!t_did(SCHED_ACT_START, c) &&
	    sched_cjob_reason(core, c) == SCHED_REASON_RESOURCES,
	    "a job of one set waits while its set is full");
	sched_core_free(core);
}

/* A gang never spans two sets: 2 + 2 GPUs free, one in each set, do not
 * hold a job of 4; one set of both nodes does. */
static void
test_no_span(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 1000000, 2, 2);
	static const uint32_t	 sets[] = { 1, 2, 0, 1 };
	static const uint32_t	 both[] = { 0, 1 };
	struct sched_cjob	*a, *b;

	a = t_submit(core, 1, 4, 0, sets, 4, 2, 0);
	t_pass(core, 0);
	ok(!t_did(SCHED_ACT_START, a) &&
	    sched_cjob_reason(core, a) == SCHED_REASON_RESOURCES,
	    "4 GPUs over two sets of 2: it waits");
	b = t_submit(core, 2, 4, 0, both, 2, 1, 1);
	t_pass(core, 1);
	ok(t_did(SCHED_ACT_START, b), "one set of both nodes: it runs");
	sched_core_free(core);
}

/* An empty set (a partition with no node up) holds nothing; the next set
 * still serves. */
static void
test_empty_set(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 1000000, 2, 2);
	/* Set 0 empty (ends at 0), set 1 {1}. */
	static const uint32_t	 sets[] = { 0, 1, 1 };
	static const uint32_t	 none[] = { 0 };
	struct sched_cjob	*a, *b;

	a = t_submit(core, 1, 1, 0, sets, 3, 2, 0);
	b = t_submit(core, 2, 1, 0, none, 0, 1, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, a) && t_node(a) == 1,
	    "an empty first set is passed over (node %ld)", t_node(a));
	ok(!t_did(SCHED_ACT_START, b) &&
	    sched_cjob_reason(core, b) == SCHED_REASON_RESOURCES,
	    "a job whose one set is empty waits");
	sched_core_free(core);
}

/* A higher tier starts first, whatever it submitted later; within a tier
 * the policy orders. */
static void
test_tier_order(enum sched_policy policy, const char *name)
{
	struct sched_core	*core = t_core(policy, 1000000, 1, 1);
	struct sched_cjob	*lo, *hi, *lo2;

	lo = t_submit(core, 1, 1, 0, NULL, 0, 0, 0);
	lo2 = t_submit(core, 2, 1, 0, NULL, 0, 0, 1);
	hi = t_submit(core, 3, 1, 2, NULL, 0, 0, 5);
	t_pass(core, 10);
	ok(t_did(SCHED_ACT_START, hi) && !t_did(SCHED_ACT_START, lo),
	    "%s: the tier 2 job submitted last starts first", name);
	sched_core_end(core, hi, 20);
	t_pass(core, 20);
	ok(t_did(SCHED_ACT_START, lo) && !t_did(SCHED_ACT_START, lo2),
	    "%s: then tier 0 in the policy's order", name);
	sched_core_free(core);
}

/* dlas: a higher tier preempts a lower one even in the same queue (both
 * fresh, Q0); a lower tier never preempts a higher one, even from a
 * higher queue (the tier 1 job demoted to Q1, the tier 0 one in Q0). */
static void
test_tier_preempt(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 1000, 1, 2);
	struct sched_cjob	*lo, *hi, *lo2;

	lo = t_submit(core, 1, 2, 0, NULL, 0, 0, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, lo), "tier 0 runs on both GPUs");
	/* At 100 ms lo has 200 GPU-ms, below Q0's 1000: same queue. */
	hi = t_submit(core, 2, 2, 1, NULL, 0, 0, 100);
	t_pass(core, 100);
	ok(sched_cjob_queue(lo) == 0 && t_did(SCHED_ACT_PREEMPT, lo),
	    "tier 1 preempts tier 0 in the same queue");
	sched_core_stopped(core, lo, 200);
	t_pass(core, 200);
	ok(t_did(SCHED_ACT_START, hi), "and starts once it stopped");
	/* hi runs past Q0's 1000 GPU-ms: 2 GPUs x 1000 ms. */
	lo2 = t_submit(core, 3, 2, 0, NULL, 0, 0, 1200);
	t_pass(core, 1300);
	ok(sched_cjob_queue(hi) == 1 && sched_cjob_queue(lo2) == 0 &&
	    !t_did(SCHED_ACT_PREEMPT, hi),
	    "tier 0 in Q0 does not preempt tier 1 demoted to Q1 (queue %u)",
	    sched_cjob_queue(hi));
	sched_core_free(core);
}

/* A job of class cls in tier, anywhere. */
static struct sched_cjob *
t_classed(struct sched_core *core, uint64_t id, uint32_t gpus, uint8_t tier,
    uint8_t cls, int64_t now)
{
	struct sched_jobspec	spec;

	t_spec(&spec, id, gpus, now);
	spec.tier = tier;
	spec.pclass = cls;
	return (sched_core_submit(core, &spec, now));
}

/* The caller's rules between classes (QOS): class 1 (tier 1) may preempt
 * class 2 but not class 0, both of tier 0. On one node of 2 GPUs, a
 * class 0 job (id 1, older: the lowest running) and a class 2 job (id 2)
 * of a GPU each; the class 1 job of a GPU preempts the class 2 job,
 * passing over the class 0 one below it. With none of class 2 left it
 * waits: class 0 is not its to preempt. Within a tier the rules say
 * nothing: a class 0 job preempts a class 2 job of its tier from a
 * higher queue. */
static void
test_class_rules(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 1000, 1, 2);
	struct sched_cjob	*c0, *c2, *c1, *c1b;

	sched_core_preempt_rule(core, 1, 0, false);
	c0 = t_classed(core, 1, 1, 0, 0, 0);
	c2 = t_classed(core, 2, 1, 0, 2, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, c0) && t_did(SCHED_ACT_START, c2),
	    "classes 0 and 2 run");
	c1 = t_classed(core, 3, 1, 1, 1, 100);
	t_pass(core, 100);
	ok(t_did(SCHED_ACT_PREEMPT, c2) && !t_did(SCHED_ACT_PREEMPT, c0),
	    "class 1 preempts class 2, not class 0");
	sched_core_stopped(core, c2, 200);
	t_pass(core, 200);
	ok(t_did(SCHED_ACT_START, c1), "and starts in its place");
	c1b = t_classed(core, 4, 1, 1, 1, 300);
	t_pass(core, 300);
	ok(!t_did(SCHED_ACT_PREEMPT, c0) && sched_cjob_reason(core, c1b) ==
	    SCHED_REASON_RESOURCES, "a second class 1 job waits: class 0 is "
	    "not its to preempt (reason %s)", sched_reason_name(
	    sched_cjob_reason(core, c1b)));
	sched_core_free(core);

	/* Within tier 0: c0 runs 2 GPUs past Q0 (2,000 GPU-ms at 1,000
	 * ms), a fresh class 2 job in Q0 preempts it. */
	core = t_core(SCHED_DLAS, 1000, 1, 2);
	sched_core_preempt_rule(core, 2, 0, false);
	c0 = t_classed(core, 1, 2, 0, 0, 0);
	t_pass(core, 0);
	c2 = t_classed(core, 2, 2, 0, 2, 1500);
	t_pass(core, 1500);
	ok(sched_cjob_queue(c0) == 1 && t_did(SCHED_ACT_PREEMPT, c0),
	    "within a tier the queues decide, whatever the rules");
	sched_core_free(core);
}

/* Urgency (the caller's priority - nice) orders the waiting jobs of a
 * tier and queue, under every policy: on one node of 1 GPU held by job 1,
 * job 2 (urgency -5, niced), job 3 (0) and job 4 (+7) wait; as job 1 ends
 * job 4 starts, then 3, then 2, whatever their submit times. A higher
 * tier still comes first: job 5 of tier 1 and urgency -100 goes before
 * any of them. Running jobs keep their order: no preemption for it. */
static void
test_urgency(enum sched_policy policy, const char *name)
{
	struct sched_core	*core = t_core(policy, 1000000, 1, 1);
	struct sched_jobspec	 spec;
	struct sched_cjob	*j[6];
	static const int32_t	 urg[6] = { 0, 0, -5, 0, 7, -100 };
	uint64_t		 id;

	for (id = 1; id <= 5; id++) {
		t_spec(&spec, id, 1, (int64_t)id);
		spec.urgency = urg[id];
		spec.tier = id == 5 ? 1 : 0;
		spec.duration = 100;
		if (id == 5)
			continue;
		j[id] = sched_core_submit(core, &spec, (int64_t)id);
		if (id == 1)
			t_pass(core, 1);
	}
	t_pass(core, 10);
	ok(!t_did(SCHED_ACT_PREEMPT, j[1]), "%s: urgency preempts no one",
	    name);
	sched_core_end(core, j[1], 20);
	t_pass(core, 20);
	ok(t_did(SCHED_ACT_START, j[4]), "%s: the most urgent starts first "
	    "(job 4, +7)", name);
	t_spec(&spec, 5, 1, 21);
	spec.urgency = urg[5];
	spec.tier = 1;
	spec.duration = 100;
	j[5] = sched_core_submit(core, &spec, 21);
	sched_core_end(core, j[4], 30);
	t_pass(core, 30);
	ok(t_did(SCHED_ACT_START, j[5]), "%s: a higher tier before any "
	    "urgency", name);
	sched_core_end(core, j[5], 40);
	t_pass(core, 40);
	ok(t_did(SCHED_ACT_START, j[3]), "%s: then urgency 0 (job 3)", name);
	sched_core_end(core, j[3], 50);
	t_pass(core, 50);
	ok(t_did(SCHED_ACT_START, j[2]), "%s: the niced job last", name);
	sched_core_free(core);
}

/* fifo never preempts, tiers or not. */
static void
test_tier_fifo(void)
{
	struct sched_core	*core = t_core(SCHED_FIFO, 1000, 1, 1);
	struct sched_cjob	*lo, *hi;

	lo = t_submit(core, 1, 1, 0, NULL, 0, 0, 0);
	t_pass(core, 0);
	hi = t_submit(core, 2, 1, 3, NULL, 0, 0, 10);
	t_pass(core, 10);
	ok(t_did(SCHED_ACT_START, lo) == false && !t_did(SCHED_ACT_PREEMPT,
	    lo) && sched_cjob_reason(core, hi) == SCHED_REASON_RESOURCES,
	    "fifo: tier 3 waits, tier 0 keeps its GPU");
	sched_core_free(core);
}

/* Many jobs bound to a full node, then one bound to a free one: the
 * shape's memo answers the first kind, never the other. */
static void
test_memo(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 1000000, 2, 1);
	static const uint32_t	 only0[] = { 0 }, only1[] = { 1 };
	struct sched_cjob	*a, *w[50], *b;
	size_t			 i, waiting = 0;

	a = t_submit(core, 1, 1, 0, only0, 1, 1, 0);
	t_pass(core, 0);
	ok(t_did(SCHED_ACT_START, a), "node 0 taken");
	for (i = 0; i < 50; i++)
		w[i] = t_submit(core, 10 + i, 1, 0, only0, 1, 1, 1);
	b = t_submit(core, 100, 1, 0, only1, 1, 1, 2);
	t_pass(core, 3);
	for (i = 0; i < 50; i++)
		waiting += !t_did(SCHED_ACT_START, w[i]) &&
		    sched_cjob_reason(core, w[i]) == SCHED_REASON_RESOURCES;
	ok(waiting == 50, "50 jobs of node 0 wait for GPUs (%zu)", waiting);
	ok(t_did(SCHED_ACT_START, b) && t_node(b) == 1,
	    "the job of node 1 behind them starts there");
	sched_core_end(core, a, 4);
	t_pass(core, 4);
	ok(t_did(SCHED_ACT_START, w[0]) && !t_did(SCHED_ACT_START, w[1]),
	    "node 0 freed: the first of them starts, the next waits");
	sched_core_free(core);
}

/* A job of gpus GPUs under the limits l[0..n). */
static struct sched_cjob *
t_limited(struct sched_core *core, uint64_t id, uint32_t gpus,
    const struct sched_limit *l, uint32_t n, int64_t now)
{
	struct sched_jobspec	spec;

	t_spec(&spec, id, gpus, now);
	if (n > 0)
		memcpy(spec.limits, l, n * sizeof *l);
	spec.nlimits = n;
	return (sched_core_submit(core, &spec, now));
}

/* Limits: a user's association capping GPUs held at 4 and an account
 * capping jobs running at 3, over a cluster of 16 GPUs. Each holds back
 * what would pass it, with its reason, lets others by, and lets the job
 * go once room is made; a job of no limit is never held. */
static void
test_limits(void)
{
	struct sched_core	*core = t_core(SCHED_DLAS, 1000000, 2, 8);
	const struct sched_limit alice[2] = {
		{ 101, 0, 4, SCHED_REASON_ASSOC_JOBS, SCHED_REASON_ASSOC_GPUS },
		{ 900, 3, 0, SCHED_REASON_ASSOC_GRP_JOBS,
		  SCHED_REASON_ASSOC_GRP_GPUS },
	};
	const struct sched_limit bob[1] = {
		{ 900, 3, 0, SCHED_REASON_ASSOC_GRP_JOBS,
		  SCHED_REASON_ASSOC_GRP_GPUS },
	};
	struct sched_cjob	*a1, *a2, *a3, *b1, *b2, *free1;

	a1 = t_limited(core, 1, 2, alice, 2, 0);
	a2 = t_limited(core, 2, 2, alice, 2, 1);
	a3 = t_limited(core, 3, 1, alice, 2, 2);
	b1 = t_limited(core, 4, 1, bob, 1, 3);
	b2 = t_limited(core, 5, 1, bob, 1, 4);
	free1 = t_limited(core, 6, 1, NULL, 0, 5);
	t_pass(core, 10);
	ok(t_did(SCHED_ACT_START, a1) && t_did(SCHED_ACT_START, a2),
	    "alice's first two, 4 GPUs, start");
	ok(!t_did(SCHED_ACT_START, a3) && sched_cjob_reason(core, a3) ==
	    SCHED_REASON_ASSOC_GPUS && strcmp(sched_reason_name(
	    sched_cjob_reason(core, a3)), "AssocMaxGPUs") == 0,
	    "her third would hold 5 GPUs: AssocMaxGPUs");
	ok(t_did(SCHED_ACT_START, b1) && !t_did(SCHED_ACT_START, b2) &&
	    sched_cjob_reason(core, b2) == SCHED_REASON_ASSOC_GRP_JOBS,
	    "the account's third job runs, bob's next waits: AssocGrpJobs");
	ok(t_did(SCHED_ACT_START, free1), "a job of no limit starts beside "
	    "them");
	/* a3 comes before b2 (submitted earlier): a1's end frees both
	 * alice's GPUs and the account's slot, which a3 takes. */
	sched_core_end(core, a1, 20);
	t_pass(core, 20);
	ok(t_did(SCHED_ACT_START, a3) && !t_did(SCHED_ACT_START, b2) &&
	    sched_cjob_reason(core, b2) == SCHED_REASON_ASSOC_GRP_JOBS,
	    "a1 ends: a3 takes the account's slot, b2 still waits on it");
	sched_core_end(core, b1, 30);
	t_pass(core, 30);
	ok(t_did(SCHED_ACT_START, b2), "b1 ends: b2 starts");
	sched_core_free(core);
}

int
main(void)
{
	test_first_set();
	test_no_span();
	test_empty_set();
	test_tier_order(SCHED_DLAS, "dlas");
	test_tier_order(SCHED_GITTINS, "gittins");
	test_tier_order(SCHED_SRTF, "srtf");
	test_tier_order(SCHED_FIFO, "fifo");
	test_tier_preempt();
	test_tier_fifo();
	test_class_rules();
	test_urgency(SCHED_DLAS, "dlas");
	test_urgency(SCHED_GITTINS, "gittins");
	test_urgency(SCHED_SRTF, "srtf");
	test_urgency(SCHED_FIFO, "fifo");
	test_memo();
	test_limits();
	return (tap_done());
}
