/* sched-gset-test.c: 2D-Gittins by the history of similar jobs
 * (sched_conf's gittins_similar): a job that brings the GPU-times of the
 * jobs like it is indexed by those, not by the cluster's. Worked out in
 * the comments. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/tap.h"

/* One GPU, held by r; a (like jobs of 100 s) then b (like jobs of 10 s)
 * wait. The cluster's history is one job of 50 s: by it both have the
 * same index and a, the first come, starts when r ends. By their own,
 * b's index (1 / 10,000 GPU-ms) is above a's (1 / 100,000): b starts. */
static bool
t_b_first(bool similar)
{
	static const uint64_t	 cluster[] = { 50000 };
	static const uint64_t	 like_a[] = { 100000 }, like_b[] = { 10000 };
	const struct sched_action *acts;
	struct sched_conf	 conf;
	struct sched_core	*core;
	struct sched_jobspec	 spec;
	struct sched_cjob	*r, *b;
	size_t			 n, i;
	bool			 b_started = false;

	sched_conf_default(&conf);
	conf.policy = SCHED_GITTINS;
	conf.thresholds[0] = 1000000;
	conf.samples = cluster;
	conf.nsamples = 1;
	conf.gittins_similar = similar;
	core = sched_core_create(&conf);
	place_node_add(sched_core_cluster(core), 1, 0);
	memset(&spec, 0, sizeof spec);
	spec.gpus = 1;
	spec.first_start = SCHED_NEVER;
	spec.any_shape = true;
	spec.id = 1;
	r = sched_core_submit(core, &spec, 0);
	(void)sched_core_pass(core, 0, &acts);
	spec.id = 2;
	spec.submit = spec.last_stop = 10;
	spec.gsamples = like_a;
	spec.ngsamples = 1;
	(void)sched_core_submit(core, &spec, 10);
	spec.id = 3;
	spec.submit = spec.last_stop = 20;
	spec.gsamples = like_b;
	b = sched_core_submit(core, &spec, 20);
	sched_core_end(core, r, 100);
	n = sched_core_pass(core, 100, &acts);
	for (i = 0; i < n; i++) {
		if (acts[i].type == SCHED_ACT_START && acts[i].job == b)
			b_started = true;
	}
	sched_core_free(core);
	return (b_started);
}

int
main(void)
{
	ok(!t_b_first(false), "by the cluster's history: a, the first come, "
	    "starts");
	ok(t_b_first(true), "by the jobs like each: b, likely to end first, "
	    "starts");
	return (tap_done());
}
