/* sched-apart-test.c: jobs on several nodes placed apart from each other
 * (sched_conf's avoid_interference, policy/sched-core-place.c): a second
 * such job avoids the nodes the first holds parts of where as many GPUs
 * fit on as many other nodes, shares them where none do, and shares them
 * with the setting off. Four nodes of 4 GPUs; the figures are worked out
 * in the comments. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/tap.h"

static const struct sched_action	*t_acts;

static struct sched_core *
t_core(bool apart)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	uint32_t		 i;

	sched_conf_default(&conf);
	conf.avoid_interference = apart;
	core = sched_core_create(&conf);
	for (i = 0; i < 4; i++)
		place_node_add(sched_core_cluster(core), 4, 0);
	return (core);
}

/* A job of gpus GPUs on exactly nodes nodes (0: one node). */
static struct sched_cjob *
t_job(struct sched_core *core, uint64_t id, uint32_t gpus, uint32_t nodes)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = gpus;
	spec.num_nodes = nodes;
	spec.submit = (int64_t)id;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = spec.submit;
	return (sched_core_submit(core, &spec, spec.submit));
}

/* The nodes j holds GPUs on, a bit each. */
static unsigned
t_nodes(const struct sched_cjob *j)
{
	const struct place_alloc	*a;
	size_t				 n, i;
	unsigned			 m = 0;

	a = sched_cjob_alloc(j, &n);
	for (i = 0; i < n; i++)
		m |= 1u << a[i].node;
	return (m);
}

static void
test_apart(void)
{
	struct sched_core	*core = t_core(true);
	struct sched_cjob	*a, *b, *c;

	/* a: 2 + 2 on two nodes. b, the same shape, would take the 2 left
	 * on each (consolidate: the fullest that hold 2); it takes the two
	 * other nodes instead. */
	a = t_job(core, 1, 4, 2);
	(void)sched_core_pass(core, 1, &t_acts);
	is_int(__builtin_popcount(t_nodes(a)), 2, "apart: a on two nodes");
	b = t_job(core, 2, 4, 2);
	(void)sched_core_pass(core, 2, &t_acts);
	is_int(t_nodes(b), 0xf & ~t_nodes(a), "apart: b on the other two");
	/* c, one node's job, is no distributed job: it takes the fullest,
	 * a node a or b holds part of. */
	c = t_job(core, 3, 2, 0);
	(void)sched_core_pass(core, 3, &t_acts);
	is_int(__builtin_popcount(t_nodes(c)), 1,
	    "apart: a job on one node goes where it fits best");
	sched_core_free(core);
}

static void
test_together(void)
{
	struct sched_core	*core;
	struct sched_cjob	*a, *b, *r1, *r2;

	/* Nodes 2 and 3 full of rigid one-node jobs: b has nowhere else,
	 * and shares nodes 0 and 1 with a rather than wait. */
	core = t_core(true);
	r1 = t_job(core, 1, 4, 0);
	r2 = t_job(core, 2, 4, 0);
	(void)sched_core_pass(core, 2, &t_acts);
	is_int(__builtin_popcount(t_nodes(r1) | t_nodes(r2)), 2,
	    "together: the rigid jobs fill two nodes");
	a = t_job(core, 3, 4, 2);
	b = t_job(core, 4, 4, 2);
	(void)sched_core_pass(core, 4, &t_acts);
	is_int(t_nodes(a), 0xf & ~(t_nodes(r1) | t_nodes(r2)),
	    "together: a on the other two");
	is_int(t_nodes(b), t_nodes(a), "together: b shares them, none other "
	    "free");
	sched_core_free(core);

	/* The setting off: b takes the fullest, beside a. */
	core = t_core(false);
	a = t_job(core, 1, 4, 2);
	(void)sched_core_pass(core, 1, &t_acts);
	b = t_job(core, 2, 4, 2);
	(void)sched_core_pass(core, 2, &t_acts);
	is_int(t_nodes(b), t_nodes(a), "off: b on a's nodes");
	/* a gone, its nodes hold no part: nothing to avoid. */
	sched_core_end(core, a, 3);
	sched_core_end(core, b, 3);
	a = t_job(core, 3, 4, 2);
	(void)sched_core_pass(core, 4, &t_acts);
	is_int(__builtin_popcount(t_nodes(a)), 2, "off: again on two nodes");
	sched_core_free(core);
}

int
main(void)
{
	test_apart();
	test_together();
	return (tap_done());
}
