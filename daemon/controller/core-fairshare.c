/* core-fairshare.c: fair share for the controller's core (gbatch.conf's
 * scheduler.fairshare). The accounts and users (core.assoc) make the tree
 * of policy/fairshare.c, which ranks the (user, account) leaves; each leaf
 * has a number here, the core orders waiting jobs by their leaf's
 * standing, and the standings that move are handed to it before a pass.
 * Usage is the runs' GPU-time times their QOS's usage_factor: read again
 * from the store's runs at the first need (those of the last ten
 * half-lives, charged at their ends), then the running jobs' charged
 * every CORE_FS_TICK_MS and at their stop, after which the next pass
 * ranks the leaves again (the GPUs that came free go to the user who is
 * owed them). With scheduler.fairshare_preempt, each leaf's part of the
 * cluster now is handed to the core too, whenever a job came or left
 * (core_fs_parts). The tree and its usage outlive the core's rebuilds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core-int.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/qos.h"
#include "daemon/controller/store-assoc.h"
#include "policy/fairshare.h"
#include "policy/place.h"
#include "policy/sched-core.h"

/* How often the running jobs are charged and the leaves ranked again. */
#define CORE_FS_TICK_MS		(30 * 1000)
/* The runs read again at start: older ones count less than 2^-10. */
#define CORE_FS_HISTORY		10

/* FNV-1a of user, a separator and account. */
static uint64_t
core_fs_hash(const char *user, const char *account)
{
	uint64_t	h = 14695981039346656037ULL;
	const char	*s;

	for (s = user; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ 0x1f) * 1099511628211ULL;
	for (s = account; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h);
}

/* Puts leaf i in the index (a power of two of slots, half full at most). */
static void
core_fs_index(uint32_t i)
{
	struct core_fs_leaf	*l = &core.fs_leaves[i];
	size_t			 k;

	for (k = core_fs_hash(l->user, l->account) & (core.fs_slots - 1);
	    core.fs_index[k] != UINT32_MAX; k = (k + 1) & (core.fs_slots - 1))
		;
	core.fs_index[k] = i;
}

uint32_t
core_fairshare_leaf_of(const char *user, const char *account)
{
	struct core_fs_leaf	*l;
	size_t			 k, i;

	if (core.fs_slots > 0) {
		for (k = core_fs_hash(user, account) & (core.fs_slots - 1);
		    core.fs_index[k] != UINT32_MAX;
		    k = (k + 1) & (core.fs_slots - 1)) {
			l = &core.fs_leaves[core.fs_index[k]];
			if (strcmp(l->user, user) == 0 &&
			    strcmp(l->account, account) == 0)
				return (core.fs_index[k]);
		}
	}
	if (core.nfs_leaves >= SCHED_FS_LEAVES - 1)
		return (SCHED_FS_LEAVES - 1);	/* shared, past the cap */
	core.fs_leaves = xreallocarray(core.fs_leaves, core.nfs_leaves + 1,
	    sizeof *core.fs_leaves);
	l = &core.fs_leaves[core.nfs_leaves];
	l->user = xstrdup(user);
	l->account = xstrdup(account);
	l->standing = 0;
	core.nfs_leaves++;
	if (core.nfs_leaves * 2 > core.fs_slots) {
		core.fs_slots = core.fs_slots != 0 ? core.fs_slots * 2 : 256;
		core.fs_index = xreallocarray(core.fs_index, core.fs_slots,
		    sizeof *core.fs_index);
		memset(core.fs_index, 0xff, core.fs_slots *
		    sizeof *core.fs_index);
		for (i = 0; i < core.nfs_leaves; i++)
			core_fs_index((uint32_t)i);
	} else
		core_fs_index((uint32_t)(core.nfs_leaves - 1));
	/* Ranked from the next tick on (a charge of 0 makes its leaf). */
	if (core.fs != NULL)
		fairshare_charge(core.fs, user, account, 0, ctx_now_ms());
	return ((uint32_t)(core.nfs_leaves - 1));
}

uint32_t
core_fairshare_leaf(const struct job *j)
{
	if (!core.conf.fairshare)
		return (0);
	return (core_fairshare_leaf_of(job_user(j), job_account(j)));
}

/* The usage factor of QOS name (1 for one gone, or none). */
static double
core_fs_factor_named(const char *name)
{
	const struct qos	*q = qos_find(&ctx_conf()->qos, name);

	return (q != NULL ? q->usage_factor : 1.0);
}

static void
core_fs_load_run(const char *user, const char *account, const char *qos,
    uint64_t milli_s, int64_t end, void *arg)
{
	(void)arg;
	/* Thousandths of GPU-seconds are GPU-ms. */
	fairshare_charge(core.fs, user, account, (double)milli_s *
	    core_fs_factor_named(qos), end * 1000);
}

/* The tree of the accounts and users in force (a bad one is logged and
 * the old kept: sacctmgr checked it). */
static void
core_fs_tree(void)
{
	struct fairshare_account	*acc;
	struct fairshare_user		*usr;
	size_t				 i;
	char				 err[256];

	acc = xcalloc(core.assoc.nacc + 1, sizeof *acc);
	usr = xcalloc(core.assoc.nusr + 1, sizeof *usr);
	for (i = 0; i < core.assoc.nacc; i++) {
		acc[i].name = core.assoc.acc[i].name;
		acc[i].parent = core.assoc.acc[i].parent;
		acc[i].shares = core.assoc.acc[i].shares;
	}
	for (i = 0; i < core.assoc.nusr; i++) {
		usr[i].user = core.assoc.usr[i].user;
		usr[i].account = core.assoc.usr[i].account;
	}
	if (fairshare_set_tree(core.fs, acc, core.assoc.nacc, usr,
	    core.assoc.nusr, err, sizeof err) != 0)
		log_error("schedule: fair share keeps its tree: %s", err);
	free(acc);
	free(usr);
}

void
core_fairshare_build(void)
{
	const struct conf	*c = ctx_conf();
	uint64_t		 hl = (uint64_t)c->fairshare_half_life * 1000;
	int64_t			 now = ctx_now_ms();
	size_t			 i;

	if (!core.conf.fairshare)
		return;
	if (core.fs == NULL) {
		core.fs = fairshare_create(hl);
		core.fs_half_life = hl;
		core_fs_tree();
		if (store_assoc_runs(hl == 0 ? 0 : (now - (int64_t)hl *
		    CORE_FS_HISTORY) / 1000, core_fs_load_run, NULL) != 0)
			log_warn("schedule: fair share counts the runs that "
			    "end from now on");
		core.fs_charged = now;
	} else {
		if (hl != core.fs_half_life) {
			fairshare_set_half_life(core.fs, hl, now);
			core.fs_half_life = hl;
		}
		core_fs_tree();
	}
	for (i = 0; i < core.nfs_leaves; i++)
		fairshare_charge(core.fs, core.fs_leaves[i].user,
		    core.fs_leaves[i].account, 0, now);
	fairshare_rank(core.fs, now);
	core.fs_gen = fairshare_generation(core.fs);
	/* A new core knows no standing: every leaf's, the 0s too. */
	for (i = 0; i < core.nfs_leaves; i++) {
		core.fs_leaves[i].standing = fairshare_standing(core.fs,
		    core.fs_leaves[i].user, core.fs_leaves[i].account);
		sched_core_fairshare_set(core.sc, (uint32_t)i,
		    core.fs_leaves[i].standing);
	}
	core.fs_next = now + CORE_FS_TICK_MS;
	core.fs_changes = UINT64_MAX;
}

/* Fair share's guarantee: once a job came or left, each leaf's part of
 * the cluster's GPUs now (fairshare_targets, by what the core counts each
 * leaf's jobs ask) goes to the core. O(leaves log nodes), only when the
 * demands moved. */
static void
core_fs_parts(void)
{
	uint64_t	changes = sched_core_fairshare_changes(core.sc);
	size_t		i, n = core.nfs_leaves;

	if (!core.conf.fairshare_preempt || changes == core.fs_changes)
		return;
	core.fs_changes = changes;
	if (core.fs_wantsize < n) {
		core.fs_wantsize = n * 2;
		core.fs_want = xreallocarray(core.fs_want, core.fs_wantsize,
		    sizeof *core.fs_want);
		core.fs_part = xreallocarray(core.fs_part, core.fs_wantsize,
		    sizeof *core.fs_part);
	}
	for (i = 0; i < n; i++) {
		core.fs_want[i].user = core.fs_leaves[i].user;
		core.fs_want[i].account = core.fs_leaves[i].account;
		core.fs_want[i].gpus = (double)sched_core_fairshare_demand(
		    core.sc, (uint32_t)i);
	}
	fairshare_targets(core.fs, core.fs_want, n,
	    (double)place_gpus_total(sched_core_cluster(core.sc)),
	    core.fs_part);
	for (i = 0; i < n; i++)
		sched_core_fairshare_target(core.sc, (uint32_t)i,
		    core.fs_part[i]);
}

/* Charges j's run from the last charge (or its start) to now. */
static void
core_fs_charge(const struct job *j, int64_t now)
{
	const struct qos	*q = core_qos_of(j);
	int64_t			 from = job_start_time(j) * 1000;

	if (from < core.fs_charged)
		from = core.fs_charged;
	/* Suspended, it was charged to then; it is again from its resume. */
	if (from < job_service(j)->resumed)
		from = job_service(j)->resumed;
	if (now <= from || job_run_milli(j) == 0)
		return;
	fairshare_charge(core.fs, job_user(j), job_account(j),
	    (double)(now - from) * job_run_milli(j) / 1000 * (q != NULL ?
	    q->usage_factor : 1.0), now);
}

void
core_fairshare_stopped(const struct job *j, int64_t now)
{
	if (core.fs == NULL || !core.conf.fairshare)
		return;
	core_fs_charge(j, now);
	/* GPUs came free: the pass they bring ranks the users first. */
	core.fs_next = now;
}

void
core_fairshare_tick(int64_t now)
{
	struct core_fs_leaf	*l;
	struct job		*j;
	uint32_t		 st;
	size_t			 i;

	if (core.fs == NULL || !core.conf.fairshare)
		return;
	core_fs_parts();
	if (now < core.fs_next)
		return;
	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (core_running(job_state(j)) &&
		    job_state(j) != JOB_SUSPENDED)
			core_fs_charge(j, now);
	}
	core.fs_charged = now;
	core.fs_next = now + CORE_FS_TICK_MS;
	fairshare_rank(core.fs, now);
	if (fairshare_generation(core.fs) == core.fs_gen)
		return;
	core.fs_gen = fairshare_generation(core.fs);
	for (i = 0; i < core.nfs_leaves; i++) {
		l = &core.fs_leaves[i];
		st = fairshare_standing(core.fs, l->user, l->account);
		if (st == l->standing)
			continue;
		l->standing = st;
		sched_core_fairshare_set(core.sc, (uint32_t)i, st);
	}
}

struct fairshare_row *
core_fairshare_report(int64_t now, size_t *n)
{
	*n = 0;
	if (core.fs == NULL || !core.conf.fairshare)
		return (NULL);
	return (fairshare_report(core.fs, now, n));
}

void
core_fairshare_free(void)
{
	size_t	i;

	fairshare_free(core.fs);
	core.fs = NULL;
	for (i = 0; i < core.nfs_leaves; i++) {
		free(core.fs_leaves[i].user);
		free(core.fs_leaves[i].account);
	}
	free(core.fs_leaves);
	core.fs_leaves = NULL;
	core.nfs_leaves = 0;
	free(core.fs_index);
	core.fs_index = NULL;
	core.fs_slots = 0;
	free(core.fs_want);
	free(core.fs_part);
	core.fs_want = NULL;
	core.fs_part = NULL;
	core.fs_wantsize = 0;
}
