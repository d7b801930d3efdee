/* sched-fs-test.c: fair share in the scheduling core
 * (policy/sched-core-fairshare.c): a waiting job's key is its leaf's standing
 * plus fairshare_queue_weight x its queue; the user furthest below their
 * share starts first, a standing that moves re-orders that user's jobs,
 * the weight trades standing against queues, one user alone is ordered as
 * without fair share, and a job of a higher queue behind a lower one
 * still preempts. Expected orders are worked out in the comments. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/tap.h"

static const struct sched_action	*t_acts;
static size_t				 t_nacts;

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
	return (sched_core_submit(core, &spec, now));
}

static size_t
t_pass(struct sched_core *core, int64_t now)
{
	t_nacts = sched_core_pass(core, now, &t_acts);
	return (t_nacts);
}

static bool
t_did(enum sched_action_type type, const struct sched_cjob *j)
{
	size_t	i;

	for (i = 0; i < t_nacts; i++) {
		if (t_acts[i].type == type && t_acts[i].job == j)
			return (true);
	}
	return (false);
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
	return (tap_done());
}
