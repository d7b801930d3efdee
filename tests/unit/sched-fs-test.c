/* sched-fs-test.c: fair share in the scheduling core
 * (policy/sched-core-fairshare.c): a waiting job's key is its leaf's standing
 * plus fairshare_queue_weight x its queue; the user furthest below their
 * share starts first, a standing that moves re-orders that user's jobs,
 * the weight trades standing against queues, one user alone is ordered as
 * without fair share, and a job of a higher queue behind a lower one
 * still preempts; and fair share's guarantee (fairshare_preempt): a job
 * below its leaf's part preempts a leaf that keeps more of its part, and
 * never the other way, starts first on what it stopped, and nothing is
 * preempted for parts not given. Expected orders are worked out in the
 * comments. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"

static bool				 t_guarantee;	/* t_core's */

static struct sched_core *
t_core(bool fs, uint32_t weight, uint64_t thr0, uint32_t nnodes,
    uint32_t gpus)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	uint32_t		 i;

	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	conf.thresholds[0] = thr0;
	conf.fairshare = fs;
	conf.fairshare_queue_weight = weight;
	conf.fairshare_preempt = t_guarantee;
	core = sched_core_create(&conf);
	for (i = 0; i < nnodes; i++)
		place_node_add(sched_core_cluster(core), gpus, 0);
	return (core);
}

static struct sched_cjob *
t_submit(struct sched_core *core, uint64_t id, uint32_t gpus, uint32_t leaf,
    int64_t now)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = gpus;
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	spec.any_shape = true;
	spec.fs_leaf = leaf;
	spec.arg = (void *)(uintptr_t)leaf;
	return (sched_core_submit(core, &spec, now));
}

/* One GPU, held by r. a1, a2 (leaf 1) then b1 (leaf 2) wait. Leaf 1 is
 * above its share (standing 1), leaf 2 below (0): when r ends, b1 starts
 * though it came last; without fair share a1 would. */
static void
test_below_share_first(void)
{
	struct sched_core	*core;
	struct sched_cjob	*r, *a1, *a2, *b1;
	int			 fs;

	for (fs = 0; fs <= 1; fs++) {
		core = t_core(fs, 0, UINT64_C(1) << 50, 1, 1);
		r = t_submit(core, 1, 1, 0, 0);
		t_pass(core, 0);
		a1 = t_submit(core, 2, 1, 1, 10);
		a2 = t_submit(core, 3, 1, 1, 20);
		b1 = t_submit(core, 4, 1, 2, 30);
		sched_core_fairshare_set(core, 1, 1);
		sched_core_fairshare_set(core, 2, 0);
		is_int(sched_core_fairshare_get(core, 1), 1, "leaf 1's standing "
		    "is kept");
		sched_core_end(core, r, 100);
		t_pass(core, 100);
		if (fs)
			ok(t_did(SCHED_ACT_START, b1) && t_nacts == 1,
			    "fair share: b1, below its share, starts first");
		else
			ok(t_did(SCHED_ACT_START, a1) && t_nacts == 1,
			    "without: a1, the first come, starts");
		(void)a2;
		sched_core_free(core);
	}
}

/* The standing moves: the jobs of the leaf are ordered again. Leaf 2
 * starts below (0), then is charged past leaf 1: 1 ranks 0, 2 ranks 1. */
static void
test_standing_moves(void)
{
	struct sched_core	*core = t_core(true, 0, UINT64_C(1) << 50, 1,
	    1);
	struct sched_cjob	*r, *a1, *b1;

	r = t_submit(core, 1, 1, 0, 0);
	t_pass(core, 0);
	a1 = t_submit(core, 2, 1, 1, 10);
	b1 = t_submit(core, 3, 1, 2, 20);
	sched_core_fairshare_set(core, 1, 1);
	sched_core_fairshare_set(core, 2, 0);
	sched_core_fairshare_set(core, 1, 0);
	sched_core_fairshare_set(core, 2, 1);
	sched_core_end(core, r, 100);
	t_pass(core, 100);
	ok(t_did(SCHED_ACT_START, a1) && !t_did(SCHED_ACT_START, b1),
	    "after the standings swap, a1 starts first");
	sched_core_free(core);
}

/* The weight. Queues at 1 GPU-s. q (leaf 1, standing 0) ran 2 s before
 * and waits in Q1; n (leaf 2, standing 1) is new, in Q0. Keys with weight
 * 0: q 0, n 1: q first. With weight 2 (a queue is worth 2 places): q
 * 0 + 2 = 2, n 1 + 0 = 1: n first. */
static void
test_weight(void)
{
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct sched_cjob	*r, *q, *n;
	uint32_t		 w;

	for (w = 0; w <= 2; w += 2) {
		core = t_core(true, w, 1000, 1, 1);
		r = t_submit(core, 1, 1, 0, 0);
		t_pass(core, 0);
		memset(&spec, 0, sizeof spec);
		spec.id = 2;
		spec.gpus = 1;
		spec.submit = 0;
		spec.first_start = 0;
		spec.last_stop = 5000;
		spec.attained = 2000;
		spec.executed = 2000;
		spec.total_executed = 2000;
		spec.any_shape = true;
		spec.fs_leaf = 1;
		q = sched_core_submit(core, &spec, 5000);
		n = t_submit(core, 3, 1, 2, 6000);
		sched_core_fairshare_set(core, 2, 1);
		is_int(sched_cjob_queue(q), 1, "q waits in Q1");
		sched_core_end(core, r, 7000);
		t_pass(core, 7000);
		if (w == 0)
			ok(t_did(SCHED_ACT_START, q), "weight 0: q, below its "
			    "share, before n of a higher queue");
		else
			ok(t_did(SCHED_ACT_START, n), "weight 2: n, a queue "
			    "higher, before q one place lower");
		sched_core_free(core);
	}
}

/* One user: every standing 0, so the starts are those without fair
 * share, job for job, on the same 200 jobs of 1 to 4 GPUs. */
static void
test_one_user(void)
{
	struct sched_core	*core[2];
	struct sched_cjob	*j[2][200];
	uint32_t		 seed = 12345, g[200];
	int64_t			 now;
	size_t			 i, k, n[2];
	bool			 same = true;
	int			 c;

	for (i = 0; i < 200; i++) {
		seed = seed * 1103515245 + 12345;
		g[i] = 1 + (seed >> 16) % 4;
	}
	for (c = 0; c < 2; c++) {
		core[c] = t_core(c == 1, 0, 4000, 2, 4);
		for (i = 0; i < 200; i++)
			j[c][i] = t_submit(core[c], i + 1, g[i], 7,
			    (int64_t)i * 10);
		if (c == 1)
			sched_core_fairshare_set(core[c], 7, 0);
	}
	for (now = 0; now < 20000 && same; now += 500) {
		for (c = 0; c < 2; c++) {
			n[c] = sched_core_pass(core[c], now, &t_acts);
			for (k = 0; k < n[c]; k++) {
				if (t_acts[k].type == SCHED_ACT_START)
					continue;
				sched_core_stopped(core[c], t_acts[k].job,
				    now);
			}
		}
		for (i = 0; i < 200; i++) {
			if (j[0][i] != NULL && j[1][i] != NULL &&
			    sched_cjob_state(j[0][i]) !=
			    sched_cjob_state(j[1][i]))
				same = false;
		}
		/* End the running jobs with an even id now and then. */
		for (i = 0; i < 200 && now % 1500 == 0; i += 2) {
			for (c = 0; c < 2; c++) {
				if (j[c][i] != NULL && sched_cjob_state(
				    j[c][i]) == SCHED_JOB_RUNNING) {
					sched_core_end(core[c], j[c][i], now);
					j[c][i] = NULL;
				}
			}
		}
		for (i = 0; i < 200; i++) {
			if ((j[0][i] == NULL) != (j[1][i] == NULL))
				same = false;
		}
	}
	ok(same, "one user: the same jobs run, wait and end at each pass "
	    "(to %lld ms)", (long long)now);
	for (c = 0; c < 2; c++)
		sched_core_free(core[c]);
}

/* A job of a higher queue behind one of a lower (a user below share in
 * Q1 first) still preempts. Queues at 1 GPU-s, one node of 2 GPUs: v
 * (leaf 3) runs 2 GPUs and is demoted. q (leaf 1, standing 0, Q1 after
 * its own run) waits first and may preempt nothing (v is of its queue);
 * p (leaf 2, standing 1, Q0) behind it may preempt v, and does. */
static void
test_preempt_behind(void)
{
	struct sched_core	*core = t_core(true, 0, 1000, 1, 2);
	struct sched_jobspec	 spec;
	struct sched_cjob	*v, *q, *p;

	v = t_submit(core, 1, 2, 3, 0);
	t_pass(core, 0);
	memset(&spec, 0, sizeof spec);
	spec.id = 2;
	spec.gpus = 2;
	spec.submit = 0;
	spec.first_start = 0;
	spec.last_stop = 5000;
	spec.attained = 4000;
	spec.executed = 2000;
	spec.total_executed = 2000;
	spec.any_shape = true;
	spec.fs_leaf = 1;
	q = sched_core_submit(core, &spec, 5000);
	p = t_submit(core, 3, 2, 2, 5000);
	sched_core_fairshare_set(core, 2, 1);
	sched_core_fairshare_set(core, 3, 2);
	t_pass(core, 5000);
	is_int(sched_cjob_queue(v), 1, "v was demoted");
	ok(t_did(SCHED_ACT_PREEMPT, v), "p, behind q, preempts v");
	ok(!t_did(SCHED_ACT_START, q), "q does not start");
	sched_core_free(core);
	(void)p;
}

/* Many leaves: their records grow while jobs wait in their lists. 40
 * users of one job each wait for one GPU; standings in reverse (leaf
 * 40 first): every job is re-keyed, and they start in that order. */
static void
test_many_leaves(void)
{
	struct sched_core	*core = t_core(true, 0, UINT64_C(1) << 50, 1,
	    1);
	struct sched_cjob	*j[41], *r;
	uint32_t		 i;
	bool			 order = true;

	r = t_submit(core, 100, 1, 0, 0);
	t_pass(core, 0);
	for (i = 1; i <= 40; i++)
		j[i] = t_submit(core, i, 1, i, (int64_t)i);
	for (i = 1; i <= 40; i++)
		sched_core_fairshare_set(core, i, 40 - i);
	sched_core_end(core, r, 1000);
	for (i = 40; i >= 1; i--) {
		t_pass(core, 1000 + (int64_t)(41 - i));
		if (!t_did(SCHED_ACT_START, j[i]))
			order = false;
		sched_core_end(core, j[i], 1000 + (int64_t)(41 - i));
	}
	ok(order, "40 leaves: each job starts in its standing's order");
	sched_core_free(core);
}

/* A job of a lower queue that fair share puts first is not preempted by
 * the job of a higher queue behind it: one node of 2 GPUs, queues at 1
 * GPU-s. q (leaf 1, standing 0) ran before and waits in Q1; p (leaf 2,
 * standing 1) is new, in Q0; both want both GPUs. q starts; p, behind it
 * in the order, must not stop it (it would start again and be stopped,
 * pass after pass). */
static void
test_no_thrash(void)
{
	struct sched_core	*core = t_core(true, 0, 1000, 1, 2);
	struct sched_jobspec	 spec;
	struct sched_cjob	*q, *p;
	size_t			 i;
	bool			 calm = true;

	memset(&spec, 0, sizeof spec);
	spec.id = 1;
	spec.gpus = 2;
	spec.submit = 0;
	spec.first_start = 0;
	spec.last_stop = 5000;
	spec.attained = spec.executed = spec.total_executed = 4000;
	spec.any_shape = true;
	spec.fs_leaf = 1;
	q = sched_core_submit(core, &spec, 5000);
	p = t_submit(core, 2, 2, 2, 5000);
	sched_core_fairshare_set(core, 2, 1);
	t_pass(core, 5000);
	ok(t_did(SCHED_ACT_START, q) && !t_did(SCHED_ACT_PREEMPT, q),
	    "q, below its share, starts and is not preempted by p");
	for (i = 0; i < 5; i++) {
		t_pass(core, 5001 + (int64_t)i);
		if (t_nacts != 0)
			calm = false;
	}
	ok(calm && sched_cjob_state(p) == SCHED_JOB_PENDING, "and the next "
	    "passes change nothing");
	sched_core_free(core);
}

/* How many of this pass's actions are of type, and of them how many are
 * jobs of leaf. */
static size_t
t_count(enum sched_action_type type, uint32_t leaf, size_t *of_leaf)
{
	size_t	i, n = 0;

	*of_leaf = 0;
	for (i = 0; i < t_nacts; i++) {
		if (t_acts[i].type != type)
			continue;
		n++;
		if ((uintptr_t)sched_cjob_arg(t_acts[i].job) == leaf)
			(*of_leaf)++;
	}
	return (n);
}

/* Stops every job this pass preempted, requeued at now. */
static void
t_stop_preempted(struct sched_core *core, int64_t now)
{
	struct sched_cjob	*v[16];
	size_t			 i, n = 0;

	for (i = 0; i < t_nacts && n < 16; i++) {
		if (t_acts[i].type == SCHED_ACT_PREEMPT)
			v[n++] = t_acts[i].job;
	}
	for (i = 0; i < n; i++)
		sched_core_stopped(core, v[i], now);
}

/* One node of 4 GPUs, queues too high for Tiresias to preempt. Leaf 1
 * runs four 1-GPU jobs; b (leaf 2, 2 GPUs) comes. Parts 2 and 2: leaf 2
 * holds 0 of its 2, and leaf 1 without two of its jobs holds 2 of 2,
 * more of its part than leaf 2's 0: b preempts two of leaf 1's jobs (and
 * only they: t_count), then starts on their GPUs. Then leaf 1 holds 2 of
 * 2, at its part: its waiting jobs preempt nothing, pass after pass. */
static void
test_guarantee(void)
{
	struct sched_core	*core;
	struct sched_cjob	*b;
	size_t			 of_leaf, i;
	bool			 calm = true;

	t_guarantee = true;
	core = t_core(true, 0, UINT64_C(1) << 50, 1, 4);
	for (i = 0; i < 4; i++)
		t_submit(core, 1 + i, 1, 1, 0);
	t_pass(core, 0);
	b = t_submit(core, 10, 2, 2, 100);
	sched_core_fairshare_set(core, 1, 1);
	sched_core_fairshare_target(core, 1, 2);
	sched_core_fairshare_target(core, 2, 2);
	ok(sched_core_fairshare_demand(core, 1) == 4 &&
	    sched_core_fairshare_demand(core, 2) == 2, "demands: leaf 1 4 "
	    "GPUs, leaf 2 2");
	t_pass(core, 100);
	ok(t_count(SCHED_ACT_PREEMPT, 1, &of_leaf) == 2 && of_leaf == 2 &&
	    sched_cjob_state(b) == SCHED_JOB_PENDING, "b below its part "
	    "preempts two of leaf 1's jobs");
	t_stop_preempted(core, 110);
	t_pass(core, 110);
	ok(t_did(SCHED_ACT_START, b), "b starts on their GPUs");
	for (i = 0; i < 5; i++) {
		if (t_pass(core, 120 + (int64_t)i) != 0)
			calm = false;
	}
	ok(calm, "leaf 1, at its part, preempts nothing back");
	sched_core_free(core);
	t_guarantee = false;
}

/* The same without parts given (the caller's), or without the guarantee:
 * b waits, nothing is preempted. */
static void
test_guarantee_off(void)
{
	struct sched_core	*core;
	size_t			 i;
	int			 on;

	for (on = 0; on <= 1; on++) {
		t_guarantee = on;
		core = t_core(true, 0, UINT64_C(1) << 50, 1, 4);
		for (i = 0; i < 4; i++)
			t_submit(core, 1 + i, 1, 1, 0);
		t_pass(core, 0);
		t_submit(core, 10, 2, 2, 100);
		if (!on) {
			sched_core_fairshare_target(core, 1, 2);
			sched_core_fairshare_target(core, 2, 2);
		}
		ok(t_pass(core, 100) == 0, on ? "no parts given: no "
		    "preemption" : "no guarantee: no preemption");
		sched_core_free(core);
	}
	t_guarantee = false;
}

/* A victim's leaf must keep more of its part than the preemptor's has.
 * One node of 4; parts 2 and 2; leaf 1 runs three 1-GPU jobs, leaf 2 one
 * 1-GPU job. b2 (leaf 2, 2 GPUs): leaf 2 holds 1 of 2 (a half); leaf 1
 * without two jobs would hold 1 of 2, a half, not more: b2 waits. b1
 * (leaf 2, 1 GPU), ahead of it: leaf 1 without one job holds 2 of 2,
 * more than a half: b1 preempts one. */
static void
test_guarantee_fill(void)
{
	struct sched_core	*core;
	struct sched_cjob	*b1, *b2;
	size_t			 i, of_leaf;

	t_guarantee = true;
	core = t_core(true, 0, UINT64_C(1) << 50, 1, 4);
	for (i = 0; i < 3; i++)
		t_submit(core, 1 + i, 1, 1, 0);
	t_submit(core, 4, 1, 2, 0);
	t_pass(core, 0);
	b2 = t_submit(core, 20, 2, 2, 100);
	sched_core_fairshare_target(core, 1, 2);
	sched_core_fairshare_target(core, 2, 2);
	ok(t_pass(core, 100) == 0 && sched_cjob_state(b2) ==
	    SCHED_JOB_PENDING, "b2 would leave leaf 1 no better off: it "
	    "waits");
	b1 = t_submit(core, 21, 1, 2, 50);
	t_pass(core, 101);
	ok(t_count(SCHED_ACT_PREEMPT, 1, &of_leaf) == 1 && of_leaf == 1,
	    "b1 takes one of leaf 1's jobs");
	t_stop_preempted(core, 110);
	t_pass(core, 110);
	ok(t_did(SCHED_ACT_START, b1) && !t_did(SCHED_ACT_START, b2),
	    "b1 starts, b2 still waits");
	sched_core_free(core);
	t_guarantee = false;
}

/* What a job preempted for goes to it, not to a job ahead of it in the
 * order. One node of 4, leaf 1 running four 1-GPU jobs; c (leaf 3,
 * standing 0: first in the order; part 0) and b (leaf 2, standing 1;
 * part 2) want 2 GPUs each. b preempts two of leaf 1's jobs (c, at its
 * part, may not); once they stop, b starts, c waits. */
static void
test_guarantee_first(void)
{
	struct sched_core	*core;
	struct sched_cjob	*b, *c;
	size_t			 i, of_leaf;

	t_guarantee = true;
	core = t_core(true, 0, UINT64_C(1) << 50, 1, 4);
	for (i = 0; i < 4; i++)
		t_submit(core, 1 + i, 1, 1, 0);
	t_pass(core, 0);
	c = t_submit(core, 30, 2, 3, 100);
	b = t_submit(core, 31, 2, 2, 100);
	sched_core_fairshare_set(core, 1, 2);
	sched_core_fairshare_set(core, 2, 1);
	sched_core_fairshare_target(core, 1, 2);
	sched_core_fairshare_target(core, 2, 2);
	sched_core_fairshare_target(core, 3, 0);
	t_pass(core, 100);
	ok(t_count(SCHED_ACT_PREEMPT, 1, &of_leaf) == 2 && of_leaf == 2,
	    "b preempts two of leaf 1's jobs");
	t_stop_preempted(core, 110);
	t_pass(core, 110);
	ok(t_did(SCHED_ACT_START, b) && !t_did(SCHED_ACT_START, c),
	    "b starts on them; c, first in the order, does not");
	sched_core_free(core);
	t_guarantee = false;
}

/* A shortfall in GPUs decides, not a fraction of the part. One node of
 * 8; leaf 1 runs one 8-GPU job, with a part of 2 (four times it); leaf 2
 * wants 4 GPUs. With a part of 6, leaf 2 falls 6 short, and leaf 1
 * without its job 2: b preempts it (by fractions leaf 1 would drop to
 * none of its part, below leaf 2's none, and b would wait for ever).
 * With a part of 2 each, 2 is not less than 2: b waits. */
static void
test_guarantee_shortfall(void)
{
	struct sched_core	*core;
	struct sched_cjob	*a, *b;
	int			 big;

	t_guarantee = true;
	for (big = 0; big <= 1; big++) {
		core = t_core(true, 0, UINT64_C(1) << 50, 1, 8);
		a = t_submit(core, 1, 8, 1, 0);
		t_pass(core, 0);
		b = t_submit(core, 2, 4, 2, 100);
		sched_core_fairshare_target(core, 1, 2);
		sched_core_fairshare_target(core, 2, big ? 6 : 2);
		t_pass(core, 100);
		if (big)
			ok(t_did(SCHED_ACT_PREEMPT, a) && t_nacts == 1,
			    "shortfall: 6 short, b preempts a job four times "
			    "its leaf's part");
		else
			ok(t_nacts == 0 && sched_cjob_state(b) ==
			    SCHED_JOB_PENDING, "shortfall: 2 short against 2, "
			    "b waits");
		sched_core_free(core);
	}
	t_guarantee = false;
}

/* Tiresias within a leaf, the guarantee on: queues at 1 GPU-s, one node
 * of 4. Leaf 1's r (4 GPUs) runs from 0 and is in Q1 by 10 s; leaf 1's p
 * (1 GPU, Q0) comes. Alone, leaf 1 is scheduled as without: p preempts
 * r. With leaf 2 waiting too (parts 4 and 0, so no preemption for
 * leaf 2), p would leave leaf 1 with 1 GPU of its part of 4 and its 4
 * held: it does not preempt r. */
static void
test_guarantee_own(void)
{
	struct sched_core	*core;
	struct sched_cjob	*r, *p;
	int			 other;

	t_guarantee = true;
	for (other = 0; other <= 1; other++) {
		core = t_core(true, 0, 1000, 1, 4);
		r = t_submit(core, 1, 4, 1, 0);
		t_pass(core, 0);
		if (other)
			t_submit(core, 3, 1, 2, 5000);
		p = t_submit(core, 2, 1, 1, 10000);
		sched_core_fairshare_target(core, 1, 4);
		sched_core_fairshare_target(core, 2, 0);
		t_pass(core, 10000);
		if (other)
			ok(!t_did(SCHED_ACT_PREEMPT, r) && sched_cjob_state(p) ==
			    SCHED_JOB_PENDING, "own: beside another user, p "
			    "does not take its user below its part");
		else
			ok(t_did(SCHED_ACT_PREEMPT, r), "own: a user alone, p "
			    "preempts r as Tiresias does");
		sched_core_free(core);
	}
	t_guarantee = false;
}

int
main(void)
{
	test_below_share_first();
	test_standing_moves();
	test_weight();
	test_one_user();
	test_preempt_behind();
	test_many_leaves();
	test_no_thrash();
	test_guarantee();
	test_guarantee_off();
	test_guarantee_fill();
	test_guarantee_first();
	test_guarantee_shortfall();
	test_guarantee_own();
	return (tap_done());
}
