/* sched-shard-test.c: jobs of shards of a GPU in the scheduling core
 * (policy/sched-core.c, place-shard.c): two jobs of 2 of 4 shards share
 * one GPU and a third packs beside them once one leaves; a job of a whole
 * GPU never lands on a GPU with shards held, and has it once the last is
 * back; a shard job earns its share of the GPU's service; a node that
 * offers no shards runs none. Times are ms. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/sched-tap.h"
#include "tests/unit/tap.h"

/* fifo; one node of gpus GPUs offering shards shards a GPU. */
static struct sched_core *
t_core(uint32_t gpus, uint32_t shards)
{
	struct sched_conf	 conf;
	struct sched_core	*core;

	sched_conf_default(&conf);
	conf.policy = SCHED_FIFO;
	core = sched_core_create(&conf);
	place_node_add(sched_core_cluster(core), gpus, 0);
	place_shard_set(sched_core_cluster(core), 0, shards);
	return (core);
}

/* A job of one GPU, of shards of it (0: the GPU whole). */
static struct sched_cjob *
t_job(struct sched_core *core, uint64_t id, uint32_t shards, int64_t now)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = 1;
	spec.shards = shards;
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	return (sched_core_submit(core, &spec, now));
}

/* The GPU job j holds (its one part's lowest), or -1. */
static int
t_gpu(const struct sched_cjob *j)
{
	const struct place_alloc	*a;
	size_t				 n;

	if ((a = sched_cjob_alloc(j, &n)) == NULL || n != 1 || a->mask == 0)
		return (-1);
	return (__builtin_ctzll(a->mask));
}

/* Node of 2 GPUs, 4 shards each:
 *   0   A (2) and B (2) start on GPU 0, W (whole) on GPU 1; C (1) and
 *       X (whole) wait: GPU 0 has no shard left, GPU 1 is W's
 *   10  A ends: C starts on GPU 0 beside B (X still waits: shards held)
 *   20  B ends, C holds 1 shard still
 *   30  C ends: GPU 0 is free, X starts on it.
 * A ran 0-10 s on 2 of 4 shards: 5,000 GPU-ms. */
static void
t_share(void)
{
	struct sched_core	*core = t_core(2, 4);
	struct place_cluster	*cl = sched_core_cluster(core);
	struct sched_cjob	*a, *b, *c, *w, *x;
	size_t			 n;

	a = t_job(core, 1, 2, 0);
	b = t_job(core, 2, 2, 0);
	w = t_job(core, 3, 0, 0);
	c = t_job(core, 4, 1, 0);
	x = t_job(core, 5, 0, 0);
	is_int(t_pass(core, 0), 3, "0: three start");
	ok(t_did(SCHED_ACT_START, a) && t_did(SCHED_ACT_START, b) &&
	    t_did(SCHED_ACT_START, w), "0: A, B and W");
	is_int(t_gpu(a), 0, "A on GPU 0");
	is_int(t_gpu(b), 0, "B beside it, on GPU 0");
	is_int((int)sched_cjob_alloc(b, &n)->shards, 2, "B holds 2 shards");
	is_int(t_gpu(w), 1, "W has GPU 1 whole");
	is_int(sched_cjob_state(x), SCHED_JOB_PENDING, "X waits");
	is_int(sched_cjob_state(c), SCHED_JOB_PENDING, "C waits: GPU 0 full");
	is_int(place_shard_used(cl, 0, 0), 4, "GPU 0: 4 shards held");
	is_int(sched_cjob_attained(a, 10000), 5000,
	    "A earned half of 10 s on a GPU");
	sched_core_end(core, a, 10000);
	is_int(t_pass(core, 10000), 1, "10 s: one starts");
	ok(t_did(SCHED_ACT_START, c), "10 s: C");
	is_int(t_gpu(c), 0, "C packs onto GPU 0");
	sched_core_end(core, b, 20000);
	is_int(t_pass(core, 20000), 0, "20 s: C's shard keeps X off GPU 0");
	sched_core_end(core, c, 30000);
	is_int(t_pass(core, 30000), 1, "30 s: GPU 0 free");
	ok(t_did(SCHED_ACT_START, x), "30 s: X starts");
	is_int(t_gpu(x), 0, "on GPU 0");
	sched_core_end(core, x, 31000);
	sched_core_end(core, w, 31000);
	is_int(place_free_total(cl), 2, "all gone: both free");
	sched_core_free(core);
}

/* A node that offers no shards runs no shard job, and one that offers 2
 * none of 3. */
static void
t_no_shards(void)
{
	struct sched_core	*core = t_core(1, 1);
	struct sched_cjob	*a;

	a = t_job(core, 1, 1, 0);
	is_int(t_pass(core, 0), 0, "no shards: nothing starts");
	is_int(sched_cjob_state(a), SCHED_JOB_PENDING, "no shards: A waits");
	place_shard_set(sched_core_cluster(core), 0, 2);
	is_int(t_pass(core, 1000), 1, "2 shards: A starts");
	sched_core_end(core, a, 2000);
	a = t_job(core, 2, 3, 2000);
	is_int(t_pass(core, 2000), 0, "3 of 2 shards: nothing starts");
	sched_core_free(core);
}

int
main(void)
{
	t_share();
	t_no_shards();
	return (tap_done());
}
