/* core-hold-test.c: who holds each GPU of each node (core-hold.c). A
 * running job's parts take GPUs from stale copies and hold them beside
 * running jobs, and give back only their own, a GPU freed when its last
 * holder leaves; a stale copy takes only free GPUs and gives back only its
 * own; a node nothing ever held holds nothing; and random takes and gives
 * agree with a plain model of a set of holders per GPU. */
#include <stdbool.h>
#include <stdio.h>

#include "daemon/controller/core-hold.h"
#include "tests/unit/tap.h"

/* The model: GPU i of node k is held by the jobs of bit set
 * model_held[k][i] (bit j for job j, 1 to 6; 0: free), as a stale copy
 * when stale[k][i] (then by one job alone). */
#define MODEL_NODES	5
static uint32_t	model_held[MODEL_NODES][64];
static bool	model_stale[MODEL_NODES][64];

static uint64_t
model_mask(uint32_t k, bool stale_only, uint64_t job)
{
	uint64_t	m = 0;
	unsigned	i;

	for (i = 0; i < 64; i++) {
		if (model_held[k][i] == 0 || (stale_only && !model_stale[k][i]))
			continue;
		if (job == 0 || (model_held[k][i] & (1U << job)))
			m |= UINT64_C(1) << i;
	}
	return (m);
}

/* Whether h says what the model says of every node and GPU: the first
 * holder and the co-holders make up each GPU's set, each job once. */
static bool
model_agrees(const struct core_hold *h)
{
	const struct core_hold_co	*co;
	const uint64_t			*jobs;
	uint32_t			 k, i, set[64];
	size_t				 n, c;

	for (k = 0; k < MODEL_NODES; k++) {
		if (core_hold_busy(h, k) != model_mask(k, false, 0) ||
		    core_hold_stale(h, k) != model_mask(k, true, 0))
			return (false);
		jobs = core_hold_jobs(h, k);
		for (i = 0; i < 64; i++) {
			set[i] = core_hold_job(h, k, i) != 0 ?
			    1U << core_hold_job(h, k, i) : 0;
			if ((jobs != NULL ? jobs[i] : 0) !=
			    core_hold_job(h, k, i))
				return (false);
		}
		co = core_hold_co_jobs(h, k, &n);
		for (c = 0; c < n; c++) {
			if (co[c].gpu >= 64 || co[c].job == 0 || co[c].job > 6 ||
			    (set[co[c].gpu] & (1U << co[c].job)))
				return (false);
			set[co[c].gpu] |= 1U << co[c].job;
		}
		for (i = 0; i < 64; i++) {
			if (set[i] != model_held[k][i])
				return (false);
		}
	}
	return (true);
}

static void
random_ops(void)
{
	struct core_hold	*h = core_hold_create();
	uint64_t		 mask, job, got, want, bit;
	uint32_t		 k;
	unsigned		 round, i;
	bool			 agree = true, returns = true;

	for (round = 0; round < 20000 && agree && returns; round++) {
		k = tap_rand() % MODEL_NODES;
		mask = ((uint64_t)tap_rand() << 32 | tap_rand()) &
		    ((uint64_t)tap_rand() << 32 | tap_rand());
		job = 1 + tap_rand() % 6;
		switch (tap_rand() % 4) {
		case 0:
			/* Beside running holders; a stale one loses. */
			core_hold_take(h, k, mask, job);
			for (i = 0; i < 64; i++) {
				if ((mask & (UINT64_C(1) << i)) == 0)
					continue;
				if (model_stale[k][i])
					model_held[k][i] = 0;
				model_held[k][i] |= 1U << job;
				model_stale[k][i] = false;
			}
			break;
		case 1:
			/* Asking for GPUs it does not hold (or holds as a
			 * stale copy) gives back only those it holds. */
			bit = model_mask(k, false, job) &
			    ~model_mask(k, true, 0);
			got = core_hold_give(h, k, mask, job);
			mask &= bit;
			want = 0;
			for (i = 0; i < 64; i++) {
				bit = UINT64_C(1) << i;
				if ((mask & bit) == 0)
					continue;
				model_held[k][i] &= ~(1U << job);
				if (model_held[k][i] == 0)
					want |= bit;
			}
			returns = got == want;
			break;
		case 2:
			want = mask & ~model_mask(k, false, 0);
			got = core_hold_stale_take(h, k, mask, job);
			returns = got == want;
			for (i = 0; i < 64; i++) {
				if (want & (UINT64_C(1) << i)) {
					model_held[k][i] = 1U << job;
					model_stale[k][i] = true;
				}
			}
			break;
		default:
			want = model_mask(k, true, job);
			got = core_hold_stale_give(h, k, job);
			returns = got == want;
			for (i = 0; i < 64; i++) {
				if (want & (UINT64_C(1) << i)) {
					model_held[k][i] = 0;
					model_stale[k][i] = false;
				}
			}
			break;
		}
		agree = model_agrees(h);
	}
	ok(returns, "random takes and gives return what the model frees and "
	    "takes (round %u)", round);
	ok(agree, "random takes and gives leave what the model holds (round "
	    "%u)", round);
	core_hold_free(h);
}

int
main(void)
{
	struct core_hold	*h = core_hold_create();
	size_t			 nco;

	is_int(core_hold_busy(h, 0), 0, "a node nothing held holds nothing");
	is_int(core_hold_job(h, 7, 3), 0, "nor names a job");
	is_int(core_hold_stale_first(h, 7), 0, "nor a stale copy");
	ok(core_hold_jobs(h, 7) == NULL, "it has no holders to list");
	is_int(core_hold_give(h, 7, 0xf, 1), 0, "giving back there frees "
	    "nothing");
	is_int(core_hold_stale_give(h, 7, 1), 0, "nor does a stale copy's");

	/* A gang of two parts, on nodes 1 and 1000. */
	core_hold_take(h, 1, 0xf, 5);
	core_hold_take(h, 1000, 0xf0, 5);
	is_int(core_hold_busy(h, 1), 0xf, "a part holds its GPUs");
	is_int(core_hold_busy(h, 1000), 0xf0, "on a node numbered far on");
	is_int(core_hold_busy(h, 500), 0, "nodes between hold nothing");
	is_int(core_hold_job(h, 1000, 4), 5, "and names its job");
	is_int(core_hold_job(h, 1000, 3), 0, "not on the GPUs it lacks");
	is_int(core_hold_job(h, 1000, 64), 0, "nor past a mask's bits");
	ok(core_hold_jobs(h, 1000) != NULL && core_hold_jobs(h, 1000)[7] == 5 &&
	    core_hold_jobs(h, 1000)[0] == 0, "its holders list says the same");
	is_int(core_hold_stale(h, 1), 0, "a running job's GPUs are not stale");
	core_hold_take(h, 2, 0x3, 0);
	is_int(core_hold_busy(h, 2), 0, "job 0 is nobody and takes nothing");

	/* Two jobs on GPU 1 of node 1 (shards of it): the first stays named
	 * and the second beside it; the first's leaving frees its others,
	 * and the second is then named. */
	core_hold_take(h, 1, 0x30, 6);
	core_hold_take(h, 1, 0x2, 6);
	is_int(core_hold_job(h, 1, 1), 5, "a second holder leaves the first "
	    "named");
	ok(core_hold_co_jobs(h, 1, &nco) != NULL && nco == 1 &&
	    core_hold_co_jobs(h, 1, &nco)[0].job == 6 &&
	    core_hold_co_jobs(h, 1, &nco)[0].gpu == 1, "and holds it beside "
	    "the first");
	is_int(core_hold_give(h, 1, 0xf, 5), 0xd, "the first job frees the "
	    "GPUs it alone held");
	is_int(core_hold_busy(h, 1), 0x32, "the other job's stay held");
	is_int(core_hold_job(h, 1, 1), 6, "the second is named once the "
	    "first left");
	ok(core_hold_co_jobs(h, 1, &nco) == NULL && nco == 0, "and no longer "
	    "listed beside");
	is_int(core_hold_give(h, 1, 0xf, 7), 0, "a job holding none gives "
	    "back nothing");
	is_int(core_hold_give(h, 1000, 0xff, 5), 0xf0, "the gang's other part "
	    "gives back its node's");
	is_int(core_hold_give(h, 1, 0x32, 6), 0x32, "and the other job its "
	    "own");
	is_int(core_hold_busy(h, 1), 0, "the node is free");

	/* Stale copies: free GPUs only; their own given back. */
	core_hold_take(h, 3, 0x3, 8);
	is_int(core_hold_stale_take(h, 3, 0xe, 9), 0xc, "a stale copy takes "
	    "the free GPUs it runs on");
	is_int(core_hold_stale(h, 3), 0xc, "and they are a stale copy's");
	is_int(core_hold_busy(h, 3), 0xf, "held beside the running job's");
	is_int(core_hold_job(h, 3, 2), 9, "named for its job");
	is_int(core_hold_stale_take(h, 3, 0x3, 10), 0, "a stale copy on held "
	    "GPUs takes none");
	is_int(core_hold_job(h, 3, 0), 8, "they stay the running job's");
	is_int(core_hold_stale_take(h, 3, 0x10, 10), 0x10, "a second stale "
	    "copy takes its own");
	is_int(core_hold_stale_first(h, 3), 9, "the first stale copy is the "
	    "lowest GPU's");
	is_int(core_hold_give(h, 3, 0xc, 9), 0, "a running job does not give "
	    "back its stale copy's GPUs");
	is_int(core_hold_stale_give(h, 3, 8), 0, "nor a stale copy the "
	    "running job's");
	is_int(core_hold_stale_give(h, 3, 9), 0xc, "a stale copy gives back "
	    "its GPUs");
	is_int(core_hold_stale_first(h, 3), 10, "the next stale copy is first");
	core_hold_take(h, 3, 0x10, 11);
	is_int(core_hold_stale(h, 3), 0, "a running job taking a stale copy's "
	    "GPU makes it its own");
	is_int(core_hold_stale_give(h, 3, 10), 0, "and the stale copy has "
	    "none to give back");
	is_int(core_hold_job(h, 3, 4), 11, "it names the running job");
	is_int(core_hold_busy(h, 3), 0x13, "what is held is the two jobs'");

	/* CPU jobs: listed by node, apart from the GPUs. */
	{
		const uint64_t	*c;
		size_t		 n;

		ok(core_hold_cpu_jobs(h, 2000, &n) == NULL && n == 0,
		    "no CPU job on a node never seen");
		core_hold_cpu_take(h, 3, 20);
		core_hold_cpu_take(h, 3, 21);
		core_hold_cpu_take(h, 3, 20);
		core_hold_cpu_take(h, 4, 0);
		c = core_hold_cpu_jobs(h, 3, &n);
		ok(n == 2 && ((c[0] == 20 && c[1] == 21) || (c[0] == 21 &&
		    c[1] == 20)), "a node lists its CPU jobs once each");
		is_int(core_hold_busy(h, 3), 0x13, "they hold no GPU");
		ok(core_hold_cpu_jobs(h, 4, &n) == NULL, "job 0 is nobody");
		ok(!core_hold_cpu_give(h, 3, 22), "a job not there gives back "
		    "nothing");
		ok(core_hold_cpu_give(h, 3, 20), "one that is leaves");
		c = core_hold_cpu_jobs(h, 3, &n);
		ok(n == 1 && c[0] == 21, "the other stays");
		ok(!core_hold_cpu_give(h, 5000, 21), "a node never seen has none");
	}
	core_hold_free(h);
	core_hold_free(NULL);
	ok(1, "core_hold_free(NULL) does nothing");

	random_ops();
	return (tap_done());
}
