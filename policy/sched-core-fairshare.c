/* sched-core-fairshare.c: fair share in the core's order (sched_conf's
 * fairshare). The caller ranks users and accounts (policy/fairshare.c)
 * and hands each leaf's standing in; the core keys a waiting job with its
 * leaf's standing plus fairshare_queue_weight times its queue, and the
 * pending orders put a lower key first after the tier. A leaf's waiting
 * jobs are listed with it, so that a standing that moves re-keys those
 * jobs alone.
 *
 * The running jobs keep their order (by queue), and preemption is as
 * Tiresias': fair share decides who starts first, not who is stopped;
 * unless fairshare_preempt asks for its guarantee: then the caller gives
 * each leaf its part of the cluster now (fairshare_targets: weighted
 * max-min fairness down the tree, by the demands the core counts here), a
 * job whose leaf is below its part may preempt where the victim's leaf
 * then falls short of its part by less than the job's leaf does now
 * (sched_core_preempt_share), no Tiresias preemption takes a leaf below
 * its part, and a job that preempted starts first on what it stopped
 * (sched-core-pass.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched-core-int.h"

/* The leaf's record, made (with every one below it) at first need. */
static struct sched_fs_leaf *
sched_core_fairshare_leaf(struct sched_core *core, uint32_t leaf)
{
	uint32_t	i, n;

	if (leaf >= SCHED_FS_LEAVES)
		leaf = SCHED_FS_LEAVES - 1;
	if (leaf >= core->nfs) {
		n = core->nfs != 0 ? core->nfs : 16;
		while (n <= leaf)
			n *= 2;
		core->fs = sched_core_xalloc(core->fs, n, sizeof *core->fs);
		for (i = core->nfs; i < n; i++) {
			core->fs[i] = sched_core_xalloc(NULL, 1,
			    sizeof *core->fs[i]);
			memset(core->fs[i], 0, sizeof *core->fs[i]);
			core->fs[i]->target = INFINITY;
			TAILQ_INIT(&core->fs[i]->jobs);
		}
		core->nfs = n;
	}
	return (core->fs[leaf]);
}

uint32_t
sched_core_fairshare_key(const struct sched_core *core, const struct sched_cjob *j)
{
	uint64_t	key;

	if (!core->conf.fairshare)
		return (0);
	key = j->fs_leaf < core->nfs ? core->fs[j->fs_leaf]->standing : 0;
	key += (uint64_t)core->conf.fairshare_queue_weight * j->queue;
	return (key > UINT32_MAX ? UINT32_MAX : (uint32_t)key);
}

void
sched_core_fairshare_enqueue(struct sched_core *core, struct sched_cjob *j)
{
	j->fskey = sched_core_fairshare_key(core, j);
	if (core->conf.fairshare)
		TAILQ_INSERT_TAIL(&sched_core_fairshare_leaf(core, j->fs_leaf)->jobs,
		    j, fsentry);
}

void
sched_core_fairshare_dequeue(struct sched_core *core, struct sched_cjob *j)
{
	if (core->conf.fairshare)
		TAILQ_REMOVE(&sched_core_fairshare_leaf(core, j->fs_leaf)->jobs, j,
		    fsentry);
}

void
sched_core_fairshare_set(struct sched_core *core, uint32_t leaf,
    uint32_t standing)
{
	struct sched_fs_leaf	*l = sched_core_fairshare_leaf(core, leaf);
	struct sched_cjob	*j;

	if (l->standing == standing)
		return;
	/* Out of the order under the old key, in under the new. */
	TAILQ_FOREACH(j, &l->jobs, fsentry)
		otree_remove(&core->pending, &j->qnode);
	l->standing = standing;
	TAILQ_FOREACH(j, &l->jobs, fsentry) {
		j->fskey = sched_core_fairshare_key(core, j);
		otree_insert(&core->pending, &j->qnode);
	}
}

uint32_t
sched_core_fairshare_get(const struct sched_core *core, uint32_t leaf)
{
	return (leaf < core->nfs ? core->fs[leaf]->standing : 0);
}

uint64_t
sched_core_fairshare_demand(const struct sched_core *core, uint32_t leaf)
{
	return (leaf < core->nfs ? core->fs[leaf]->demand : 0);
}

uint64_t
sched_core_fairshare_changes(const struct sched_core *core)
{
	return (core->fs_changes);
}

void
sched_core_fairshare_target(struct sched_core *core, uint32_t leaf,
    double gpus)
{
	sched_core_fairshare_leaf(core, leaf)->target = isnan(gpus) ? 0 : gpus;
}

void
sched_core_fairshare_join(struct sched_core *core, const struct sched_cjob *j,
    int sign)
{
	struct sched_fs_leaf	*l;

	if (!core->conf.fairshare || j->shape->gpus == 0)
		return;
	l = sched_core_fairshare_leaf(core, j->fs_leaf);
	if (sign > 0) {
		if (l->demand == 0)
			core->fs_active++;
		l->demand += j->shape->gpus;
	} else {
		l->demand -= j->shape->gpus;
		if (l->demand == 0)
			core->fs_active--;
	}
	core->fs_changes++;
}

void
sched_core_fairshare_hold(struct sched_core *core, const struct sched_cjob *j,
    int sign)
{
	struct sched_fs_leaf	*l;

	if (!core->conf.fairshare)
		return;
	l = sched_core_fairshare_leaf(core, j->fs_leaf);
	if (sign > 0)
		l->held += j->shape->gpus;
	else
		l->held -= j->shape->gpus;
}

void
sched_core_fairshare_begin(struct sched_core *core)
{
	const struct sched_fs_leaf	*l;
	bool				 under = false, over = false;
	uint32_t			 i;

	core->fs_chance = false;
	if (!core->conf.fairshare || !core->conf.fairshare_preempt)
		return;
	for (i = 0; i < core->nfs && !(under && over); i++) {
		l = core->fs[i];
		if ((double)l->held > l->target)
			over = true;
		else if ((double)l->held < l->target &&
		    !TAILQ_EMPTY(&l->jobs))
			under = true;
	}
	core->fs_chance = under && over;
}

/* The leaf's pass scratch, cleared when a new pass first touches it. */
static struct sched_fs_leaf *
sched_core_fairshare_scratch(struct sched_core *core, uint32_t leaf)
{
	struct sched_fs_leaf	*l = sched_core_fairshare_leaf(core, leaf);

	if (l->pass != core->npass) {
		l->pass = core->npass;
		l->claimed = 0;
		l->missed = UINT32_MAX;
	}
	return (l);
}

bool
sched_core_fairshare_under(struct sched_core *core, const struct sched_cjob *p)
{
	struct sched_fs_leaf	*l;

	if (!core->fs_chance || p->shape->gpus == 0)
		return (false);
	l = sched_core_fairshare_scratch(core, p->fs_leaf);
	return (p->shape->gpus < l->missed && isfinite(l->target) &&
	    (double)(l->held + l->claimed) < l->target);
}

/* Whether leaf m keeps what rule asks (see sched_core_fairshare_spares)
 * holding have GPUs: its part; or a shortfall below its part smaller than
 * the one p's leaf has now, with its claims (m's part - have < l's part -
 * l's GPUs; never where a part is not known). */
static bool
sched_core_fairshare_keeps_one(const struct sched_core *core,
    const struct sched_cjob *p, const struct sched_fs_leaf *m, uint64_t have,
    bool share)
{
	const struct sched_fs_leaf	*l;
	uint64_t			 lhas;

	if (!share)
		return ((double)have >= m->target);
	if (p->fs_leaf >= core->nfs)
		return (false);
	l = core->fs[p->fs_leaf];
	lhas = l->held + (l->pass == core->npass ? l->claimed : 0);
	return (isfinite(m->target) && isfinite(l->target) &&
	    m->target - (double)have < l->target - (double)lhas);
}

bool
sched_core_fairshare_spares(const struct sched_core *core,
    const struct sched_cjob *p, const struct sched_cjob *r, bool share)
{
	const struct sched_fs_leaf	*m;

	if (!core->conf.fairshare || !core->conf.fairshare_preempt ||
	    r->fs_leaf == p->fs_leaf)
		return (!share);
	m = r->fs_leaf < core->nfs ? core->fs[r->fs_leaf] : NULL;
	return (m != NULL && m->held >= r->shape->gpus &&
	    sched_core_fairshare_keeps_one(core, p, m,
	    m->held - r->shape->gpus, share));
}

bool
sched_core_fairshare_keeps(struct sched_core *core,
    const struct sched_cjob *p, struct sched_cjob *const *v, size_t k,
    bool share)
{
	struct sched_fs_leaf	*m;
	uint64_t		 back;
	size_t			 i;

	if (!core->conf.fairshare || !core->conf.fairshare_preempt)
		return (true);
	if (++core->fs_stamp == 0) {
		for (i = 0; i < core->nfs; i++)
			core->fs[i]->stamp = 0;
		core->fs_stamp = 1;
	}
	for (i = 0; i < k; i++) {
		m = sched_core_fairshare_leaf(core, v[i]->fs_leaf);
		if (m->stamp != core->fs_stamp) {
			m->stamp = core->fs_stamp;
			m->taken = 0;
		}
		m->taken += v[i]->shape->gpus;
	}
	for (i = 0; i < k; i++) {
		m = core->fs[v[i]->fs_leaf];
		if (v[i]->fs_leaf == p->fs_leaf && core->fs_active < 2)
			continue;
		if (v[i]->fs_leaf == p->fs_leaf) {
			/* Tiresias within a leaf, beside others: what p
			 * brings back counts, and the leaf keeps its part,
			 * or what it holds if less (it would preempt others
			 * for what it gave up, who would take it back, again
			 * and again). A leaf alone is as without. */
			back = m->held + p->shape->gpus;
			if (back < m->taken || (double)(back - m->taken) <
			    fmin(m->target, (double)m->held))
				return (false);
		} else if (m->held < m->taken ||
		    !sched_core_fairshare_keeps_one(core, p, m,
		    m->held - m->taken, share))
			return (false);
	}
	return (true);
}

void
sched_core_fairshare_first(struct sched_core *core, struct sched_cjob *p)
{
	struct sched_chold	*h;

	if (!core->conf.fairshare || !core->conf.fairshare_preempt)
		return;
	h = sched_cjob_hold(p);
	if (!h->fs_first) {
		h->fs_first = true;
		TAILQ_INSERT_TAIL(&core->fs_first, p, hold->fentry);
	}
}

void
sched_core_fairshare_unfirst(struct sched_core *core, struct sched_cjob *j)
{
	if (j->hold != NULL && j->hold->fs_first) {
		j->hold->fs_first = false;
		TAILQ_REMOVE(&core->fs_first, j, hold->fentry);
	}
}

void
sched_core_fairshare_claim(struct sched_core *core, const struct sched_cjob *p)
{
	if (core->conf.fairshare && core->conf.fairshare_preempt)
		sched_core_fairshare_scratch(core, p->fs_leaf)->claimed +=
		    p->shape->gpus;
}

void
sched_core_fairshare_missed(struct sched_core *core,
    const struct sched_cjob *p)
{
	struct sched_fs_leaf	*l = sched_core_fairshare_scratch(core,
	    p->fs_leaf);

	if (p->shape->gpus < l->missed)
		l->missed = p->shape->gpus;
}
