/* sched-core-fairshare.c: fair share in the core's order (sched_conf's
 * fairshare). The caller ranks users and accounts (policy/fairshare.c)
 * and hands each leaf's standing in; the core keys a waiting job with its
 * leaf's standing plus fairshare_queue_weight times its queue, and the
 * pending orders put a lower key first after the tier. A leaf's waiting
 * jobs are listed with it, so that a standing that moves re-keys those
 * jobs alone.
 *
 * The running jobs keep their order (by queue), and preemption is as
 * Tiresias': fair share decides who starts first, not who is stopped. */
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
			core->fs[i]->standing = 0;
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
