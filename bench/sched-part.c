/* sched-part.c (bench): a scheduling pass on a cluster governed by
 * partitions and tiers (issue 34's figure): 1,000 nodes x 8 GPUs in 20
 * partitions of 50 nodes, 100,000 pending jobs of 1,000 users, each in one
 * partition or two (a list), at one of the tiers 50 QOS-account
 * combinations give (5 QOS, each its tier and preemption class, a QOS
 * preempting only the one below it, each capping a user's jobs); beside it, in the same run, the same cluster and
 * queue without partitions (today's pass). Each in two states: full
 * (nothing starts, the pass every event runs) and fragmented (a GPU free
 * on every node, no job fits: the walk looks at every job). Prints
 * figures; never fails on time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "policy/sched-core.h"

#define BP_PENDING	100000
#define BP_NODES	1000
#define BP_GPUS		8
#define BP_PARTS	20
#define BP_PER_PART	(BP_NODES / BP_PARTS)
#define BP_COMBOS	50	/* QOS x account */
#define BP_USERS	1000
#define BP_RUNS		5

static uint32_t bp_seed = 2463534242U;

static uint32_t
bp_rand(void)
{
	bp_seed ^= bp_seed << 13;
	bp_seed ^= bp_seed >> 17;
	bp_seed ^= bp_seed << 5;
	return (bp_seed);
}

static double
bp_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* The node sets of one partition, and of each pair (p, p + 1), laid out
 * as sched_jobspec's nodes: one list, or the ends then the sets. */
static uint32_t	bp_one[BP_PARTS][BP_PER_PART];
/* Sweeps: each user's jobs alike (one account, one partition list, one
 * size), as a queue of sweeps and arrays is; else every job drawn alone,
 * each of its own shape and limits (the worst case for the walk). And
 * whether the cluster is the fragmented one (jobs of 2 to 8 GPUs). */
static bool	bp_sweeps;
static bool	bp_frag;
static uint32_t	bp_two[BP_PARTS][2 + 2 * BP_PER_PART];

static void
bp_sets(void)
{
	uint32_t	p, q, i;

	for (p = 0; p < BP_PARTS; p++) {
		q = (p + 1) % BP_PARTS;
		bp_two[p][0] = BP_PER_PART;
		bp_two[p][1] = 2 * BP_PER_PART;
		for (i = 0; i < BP_PER_PART; i++) {
			bp_one[p][i] = p * BP_PER_PART + i;
			bp_two[p][2 + i] = p * BP_PER_PART + i;
			bp_two[p][2 + BP_PER_PART + i] = q * BP_PER_PART + i;
		}
	}
}

static struct sched_core *
bp_core(void)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	char			 err[128];
	uint32_t		 i;

	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	(void)sched_conf_thresholds_parse("3600,36000", &conf, err, sizeof err);
	conf.promote_knob = 8;
	core = sched_core_create(&conf);
	/* QOS q may preempt q - 1 alone across tiers (gbatchd's rules from
	 * preempt lists); without partitions no job has a class above 0. */
	for (i = 0; i < BP_COMBOS / 10; i++) {
		uint32_t	r;

		for (r = 0; r + 1 < i; r++)
			sched_core_preempt_rule(core, i, r, false);
	}
	for (i = 0; i < BP_NODES; i++)
		place_node_add(sched_core_cluster(core), BP_GPUS, i / 32);
	return (core);
}

/* A job of gpus GPUs on one node (so that the fragmented cluster stays
 * fragmented), of one of the users; with parts, under its user's and
 * its account's limits on GPUs held, in one partition (four in five) or two, at
 * its QOS-account combination's tier (0 to 4), of one of the users. */
static void
bp_submit(struct sched_core *core, uint64_t id, uint32_t gpus, bool parts,
    bool hold, int64_t now)
{
	struct sched_jobspec	spec;
	struct place_alloc	a = { 0 };
	static const uint32_t	sizes[] = { 1, 1, 1, 1, 2, 2, 4, 8 };
	uint32_t		p = bp_rand() % BP_PARTS, user, combo;
	bool			two = bp_rand() % 5 == 0;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = gpus;
	spec.num_nodes = 1;
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	user = bp_rand() % BP_USERS;
	combo = bp_rand() % BP_COMBOS;
	if (bp_sweeps && !hold) {
		p = user % BP_PARTS;
		two = user % 5 == 0;
		combo = user % BP_COMBOS;
		spec.gpus = bp_frag ? 2 + user % 7 : sizes[user % 8];
	}
	if (parts) {
		/* Its user's association (at most 32 GPUs at once) and its
		 * account (at most 400), as gbatchd gives them. */
		spec.limits[0].id = (UINT64_C(1) << 63) | user;
		spec.limits[0].gpus = 32;
		spec.limits[0].gpus_reason = SCHED_REASON_ASSOC_GPUS;
		spec.limits[1].id = (UINT64_C(1) << 62) | combo;
		spec.limits[1].gpus = 400;
		spec.limits[1].gpus_reason = SCHED_REASON_ASSOC_GRP_GPUS;
		/* Its QOS's cap on a user's jobs running at once. */
		spec.limits[2].id = (UINT64_C(1) << 61) | (user * 8 +
		    combo / 10);
		spec.limits[2].jobs = 64;
		spec.limits[2].jobs_reason = SCHED_REASON_QOS_JOBS;
		spec.nlimits = 3;
		spec.tier = (uint8_t)(combo / 10);
		spec.pclass = (uint8_t)(combo / 10);
		if (!two) {
			spec.nodes = bp_one[p];
			spec.nnodes = BP_PER_PART;
			spec.nsets = 1;
		} else {
			spec.nodes = bp_two[p];
			spec.nnodes = 2 + 2 * BP_PER_PART;
			spec.nsets = 2;
		}
	}
	if (!hold) {
		(void)sched_core_submit(core, &spec, now);
		return;
	}
	/* Holding 7 GPUs of node id - 1, never to be preempted. */
	spec.no_requeue = true;
	spec.first_start = now;
	a.node = (uint32_t)(id - 1);
	a.mask = 0xfe;
	(void)sched_core_adopt(core, &spec, &a, 1, now);
}

/* Jobs of 1 to 8 GPUs, mostly small. */
static uint32_t
bp_size(void)
{
	static const uint32_t	sizes[] = { 1, 1, 1, 1, 2, 2, 4, 8 };

	return (sizes[bp_rand() % 8]);
}

static double
bp_best(struct sched_core *core, int64_t *now, size_t *n)
{
	const struct sched_action	*acts;
	double				 t0, t = 0;
	size_t				 i;

	for (i = 0; i < BP_RUNS; i++) {
		t0 = bp_now();
		*n = sched_core_pass(core, ++*now, &acts);
		if (i == 0 || bp_now() - t0 < t)
			t = bp_now() - t0;
	}
	return (t);
}

/* Full: the cluster filled by a pass, then 100,000 pending behind it;
 * the first pass over them (with tiers, the higher ones preempting the
 * lower: *first, its actions in *nfirst), then the pass every event runs
 * (returned). */
static double
bp_full(bool parts, size_t *n, double *first, size_t *nfirst)
{
	const struct sched_action	*acts;
	struct sched_core		*core = bp_core();
	uint64_t			 id = 1;
	int64_t				 now = 1000;
	double				 t;

	while (sched_core_pending(core) * 2 <
	    place_free_total(sched_core_cluster(core)))
		bp_submit(core, id++, bp_size(), parts, false, now);
	(void)sched_core_pass(core, ++now, &acts);
	while (sched_core_pending(core) < BP_PENDING)
		bp_submit(core, id++, bp_size(), parts, false, now);
	t = bp_now();
	*nfirst = sched_core_pass(core, ++now, &acts);
	*first = bp_now() - t;
	t = bp_best(core, &now, n);
	sched_core_free(core);
	return (t);
}

/* Fragmented: 7 of 8 GPUs of every node held, jobs of 2 to 8 GPUs; a
 * GPU free everywhere, so the walk cannot stop early. */
static double
bp_fragmented(bool parts, size_t *n)
{
	struct sched_core	*core = bp_core();
	uint64_t		 id;
	int64_t			 now = 1000;
	double			 t;

	bp_frag = true;
	for (id = 1; id <= BP_NODES; id++)
		bp_submit(core, id, 7, false, true, now);
	while (sched_core_pending(core) < BP_PENDING)
		bp_submit(core, id++, 2 + bp_rand() % 7, parts, false, now);
	t = bp_best(core, &now, n);
	sched_core_free(core);
	bp_frag = false;
	return (t);
}

static void
bp_line(const char *what, double s, size_t n)
{
	printf("  %-56s %8.2f ms  (%zu actions)\n", what, s * 1000, n);
}

/* One cluster, with partitions and tiers or without. */
static void
bp_case(bool parts)
{
	double	t, first;
	size_t	n, nfirst;

	t = bp_full(parts, &n, &first, &nfirst);
	bp_line("full, the first pass over the queue", first, nfirst);
	bp_line("full, then each pass", t, n);
	t = bp_fragmented(parts, &n);
	bp_line("fragmented, every job examined", t, n);
}

int
main(void)
{
	bp_sets();
	printf("Tiresias core (dlas), %d nodes x %d GPUs, %d pending jobs of "
	    "%d users; best of %d passes\n", BP_NODES, BP_GPUS, BP_PENDING,
	    BP_USERS, BP_RUNS);
	printf("without partitions (today's pass):\n");
	bp_case(false);
	printf("%d partitions of %d nodes, a fifth of jobs listing two, "
	    "%d QOS-account combinations in 5 tiers (5 QOS, each preempting "
	    "the one below), each user and account capped (32 and 400 GPUs), "
	    "each user's jobs of a QOS (64);\n", BP_PARTS, BP_PER_PART, BP_COMBOS);
	printf("each user's jobs alike (one account, partition list and "
	    "size: sweeps):\n");
	bp_sweeps = true;
	bp_case(true);
	printf("every job drawn alone (its own shape and limits: the worst "
	    "case):\n");
	bp_sweeps = false;
	bp_case(true);
	return (0);
}
