/* sim-share.c: fair share as gsim replays it (sim-share.h). */
#include <sys/types.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "policy/fairshare.h"
#include "policy/place.h"
#include "policy/sched-core.h"
#include "sim/sim-share.h"

struct sim_share_leaf {
	const char	*user;		/* the trace's, "" for none */
	const char	*account;
	uint32_t	 standing;	/* as last handed over */
};

struct sim_share {
	const struct sim_trace	*trace;
	const struct sim_cluster *cluster;
	struct fairshare	*fs;
	struct sim_share_leaf	*leaves;
	size_t			 nleaves;
	uint32_t		*leaf_of;	/* by job */
	int64_t			*charged;	/* by job: charged up to */
	/* The running jobs, and each one's place among them (or -1). */
	size_t			*running;
	ssize_t			*at;
	size_t			 nrunning;
	int64_t			 next_tick;
	uint64_t		 generation;
	/* The guarantee's: the core's demand changes last seen, and what
	 * the leaves want and their parts (scratch, by leaf). */
	uint64_t		 changes;
	struct fairshare_want	*want;
	double			*part;
};

static const char *
sim_share_str(const char *s)
{
	return (s != NULL ? s : "");
}

/* The leaf of user and account, made at first sight. A linear search: a
 * trace has a few hundred users at most, looked up once a job. */
static uint32_t
sim_share_find(struct sim_share *s, const char *user, const char *account)
{
	size_t	i;

	for (i = 0; i < s->nleaves; i++) {
		if (strcmp(s->leaves[i].user, user) == 0 &&
		    strcmp(s->leaves[i].account, account) == 0)
			return ((uint32_t)i);
	}
	s->leaves = xreallocarray(s->leaves, s->nleaves + 1,
	    sizeof *s->leaves);
	s->leaves[s->nleaves].user = user;
	s->leaves[s->nleaves].account = account;
	s->leaves[s->nleaves].standing = 0;
	return ((uint32_t)s->nleaves++);
}

struct sim_share *
sim_share_create(const struct sim_trace *trace,
    const struct sim_cluster *cluster, int64_t half_life_ms,
    const struct fairshare_account *acc, size_t nacc,
    const struct fairshare_user *usr, size_t nusr)
{
	struct sim_share	*s = xcalloc(1, sizeof *s);
	const struct sim_job	*tj;
	size_t			 i, n = trace->njobs != 0 ? trace->njobs : 1;
	char			 err[256];

	s->trace = trace;
	s->cluster = cluster;
	s->fs = fairshare_create(half_life_ms > 0 ? (uint64_t)half_life_ms :
	    0);
	if (fairshare_set_tree(s->fs, acc, nacc, usr, nusr, err,
	    sizeof err) != 0) {
		fprintf(stderr, "sim_share_create: %s\n", err);
		abort();
	}
	s->leaf_of = xcalloc(n, sizeof *s->leaf_of);
	s->charged = xcalloc(n, sizeof *s->charged);
	s->running = xcalloc(n, sizeof *s->running);
	s->at = xcalloc(n, sizeof *s->at);
	for (i = 0; i < trace->njobs; i++) {
		tj = &trace->jobs[i];
		s->leaf_of[i] = sim_share_find(s, sim_share_str(tj->user),
		    sim_share_str(tj->account));
		s->at[i] = -1;
	}
	/* Every leaf known from the start, ranked alike (no usage). */
	for (i = 0; i < s->nleaves; i++)
		fairshare_charge(s->fs, s->leaves[i].user,
		    s->leaves[i].account, 0, 0);
	s->next_tick = trace->njobs > 0 ? trace->jobs[0].submit_ms : 0;
	s->generation = fairshare_generation(s->fs);
	return (s);
}

void
sim_share_free(struct sim_share *s)
{
	if (s == NULL)
		return;
	fairshare_free(s->fs);
	free(s->want);
	free(s->part);
	free(s->leaves);
	free(s->leaf_of);
	free(s->charged);
	free(s->running);
	free(s->at);
	free(s);
}

uint32_t
sim_share_leaf(const struct sim_share *s, size_t idx)
{
	return (s->leaf_of[idx]);
}

/* Charges job idx's GPU-time from its last charge to now. */
static void
sim_share_charge(struct sim_share *s, size_t idx, int64_t now)
{
	const struct sim_share_leaf	*l = &s->leaves[s->leaf_of[idx]];
	const struct sim_job		*tj = &s->trace->jobs[idx];
	int64_t				 dt = now - s->charged[idx];

	if (dt > 0)
		fairshare_charge(s->fs, l->user, l->account, (double)dt *
		    sim_cluster_held(s->cluster, tj->gpus, tj->shards), now);
	s->charged[idx] = now;
}

void
sim_share_start(struct sim_share *s, size_t idx, int64_t now)
{
	s->charged[idx] = now;
	s->at[idx] = (ssize_t)s->nrunning;
	s->running[s->nrunning++] = idx;
}

void
sim_share_stop(struct sim_share *s, size_t idx, int64_t now)
{
	size_t	last;

	if (s->at[idx] < 0)
		return;
	sim_share_charge(s, idx, now);
	last = s->running[--s->nrunning];
	s->running[s->at[idx]] = last;
	s->at[last] = s->at[idx];
	s->at[idx] = -1;
}

void
sim_share_tick(struct sim_share *s, struct sched_core *core, int64_t now)
{
	struct sim_share_leaf	*l;
	uint32_t		 st;
	size_t			 i;

	if (now < s->next_tick)
		return;
	s->next_tick = now + SIM_SHARE_TICK_MS;
	for (i = 0; i < s->nrunning; i++)
		sim_share_charge(s, s->running[i], now);
	fairshare_rank(s->fs, now);
	if (fairshare_generation(s->fs) == s->generation)
		return;
	s->generation = fairshare_generation(s->fs);
	for (i = 0; i < s->nleaves; i++) {
		l = &s->leaves[i];
		st = fairshare_standing(s->fs, l->user, l->account);
		if (st == l->standing)
			continue;
		l->standing = st;
		sched_core_fairshare_set(core, (uint32_t)i, st);
	}
}

void
sim_share_parts(struct sim_share *s, struct sched_core *core)
{
	uint64_t	changes = sched_core_fairshare_changes(core);
	size_t		i;

	if (changes == s->changes && s->want != NULL)
		return;
	s->changes = changes;
	if (s->want == NULL) {
		s->want = xcalloc(s->nleaves != 0 ? s->nleaves : 1,
		    sizeof *s->want);
		s->part = xcalloc(s->nleaves != 0 ? s->nleaves : 1,
		    sizeof *s->part);
		for (i = 0; i < s->nleaves; i++) {
			s->want[i].user = s->leaves[i].user;
			s->want[i].account = s->leaves[i].account;
		}
	}
	for (i = 0; i < s->nleaves; i++)
		s->want[i].gpus = (double)sched_core_fairshare_demand(core,
		    (uint32_t)i);
	fairshare_targets(s->fs, s->want, s->nleaves,
	    (double)place_gpus_total(sched_core_cluster(core)), s->part);
	for (i = 0; i < s->nleaves; i++)
		sched_core_fairshare_target(core, (uint32_t)i, s->part[i]);
}
