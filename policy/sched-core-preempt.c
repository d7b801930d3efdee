/* sched-core-preempt.c: preemption. Who may preempt whom (a job of a
 * lower tier, of a class the caller's rules let it; within a tier across
 * queues only; under srtf, a job with less time left), the fewest lowest victims
 * that make room for a pending job and where it will run once they have
 * stopped, and the bookkeeping while they stop: each victim knows the job
 * it makes room for (its waiter), each waiter how many victims it waits
 * on. A preempting job no one waits for (its waiter started or left, or it
 * was adopted preempting) is an orphan: the next job that needs GPUs
 * takes its GPUs first rather than preempt more. A job bound to some nodes
 * (-w, -x, or by the advance reservations' windows) counts only the GPUs
 * on them: a victim elsewhere cannot make it room. With fair share's
 * guarantee (sched_conf's fairshare_preempt), a job below its leaf's part
 * may also take victims of any queue whose leaves then fall short of
 * their parts by less than its own (sched_core_preempt_share), and no
 * Tiresias search takes a leaf below its part. */
#include <sys/queue.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched-core-int.h"

/* May running job r be preempted for pending job p? Never under fifo; for
 * a job of a higher tier; within a tier, across queues only (within a
 * queue the order decides who gets free GPUs, and preempting there would
 * thrash), and with fair share only a job whose fair-share key is not
 * below p's; under srtf, for a job with less time left. */
bool
sched_core_preempt_outranks(const struct sched_core *core,
    const struct sched_cjob *p, const struct sched_cjob *r, int64_t now)
{
	if (core->conf.policy == SCHED_FIFO)
		return (false);
	if (p->tier != r->tier)
		return (p->tier > r->tier);
	switch (core->conf.policy) {
	case SCHED_SRTF:
		return (r->hold->end_key - now > sched_cjob_remaining(p));
	case SCHED_DLAS:
	case SCHED_GITTINS:
		/* With fair share, not a job whose user is as far below
		 * their share or further: it may have started before p in
		 * this very pass, and p would stop it, and it p, for ever. */
		if (core->conf.fairshare &&
		    sched_core_fairshare_key(core, r) < p->fskey)
			return (false);
		if (r->queue == p->queue && core->conf.preempt_in_queue &&
		    core->conf.policy == SCHED_DLAS)
			return (p->submit < r->submit || (p->submit ==
			    r->submit && p->id < r->id));
		return (r->queue > p->queue);
	case SCHED_FIFO:
	default:
		return (false);
	}
}

/* Whether the caller's rules let p, of a higher tier than r or the same,
 * preempt r (sched_core_preempt_rule): within a tier they say nothing. */
static bool
sched_core_preempt_ruled(const struct sched_core *core,
    const struct sched_cjob *p, const struct sched_cjob *r)
{
	unsigned	rc = r->shape->pclass;

	return (!core->prules || r->tier == p->tier ||
	    !(core->pdeny[p->shape->pclass][rc / 64] >> (rc % 64) & 1));
}

/* Marks the nodes p may use (core->usable), for the searches of its
 * victims; nothing for a job that may use any. */
static void
sched_core_preempt_mark(struct sched_core *core, const struct sched_cjob *p)
{
	const uint32_t	*v;
	uint32_t	 k = 0, n, i;
	size_t		 nodes = place_nodes(core->cluster);

	if (!sched_core_window_listed(core, p))
		return;
	if (core->usablesize < nodes) {
		core->usable = sched_core_xalloc(core->usable, nodes,
		    sizeof *core->usable);
		memset(core->usable + core->usablesize, 0,
		    (nodes - core->usablesize) * sizeof *core->usable);
		core->usablesize = nodes;
	}
	if (++core->ustamp == 0) {
		memset(core->usable, 0, core->usablesize *
		    sizeof *core->usable);
		core->ustamp = 1;
	}
	do {
		v = sched_core_window_nodes(core, p, k, &n);
		for (i = 0; i < n; i++) {
			if (v[i] < core->usablesize)
				core->usable[v[i]] = core->ustamp;
		}
	} while (++k < sched_core_window_nsets(p));
}

/* How many of r's GPUs p could run on once r stops (p's nodes marked). */
static uint64_t
sched_core_preempt_gives(struct sched_core *core,
    const struct sched_cjob *p, const struct sched_cjob *r)
{
	uint64_t	n = 0;
	uint32_t	i, node;

	if (!sched_core_window_listed(core, p))
		return (r->shape->gpus);
	for (i = 0; i < r->hold->nalloc; i++) {
		node = r->hold->alloc[i].node;
		if (node < core->usablesize &&
		    core->usable[node] == core->ustamp)
			n += (uint64_t)__builtin_popcountll(
			    r->hold->alloc[i].mask);
	}
	return (n);
}

/* The free GPUs p could run on now. */
static uint64_t
sched_core_preempt_free(struct sched_core *core, const struct sched_cjob *p)
{
	const uint32_t	*v;
	uint64_t	 n = 0, most = 0;
	uint32_t	 i, k = 0, nv;

	if (!sched_core_window_listed(core, p))
		return (place_free_total(core->cluster));
	/* Of several sets, the one with the most: p runs in one. */
	do {
		v = sched_core_window_nodes(core, p, k, &nv);
		for (i = 0, n = 0; i < nv; i++) {
			if (v[i] < place_nodes(core->cluster))
				n += (uint64_t)__builtin_popcountll(
				    place_node_free_mask(core->cluster, v[i]));
		}
		if (n > most)
			most = n;
	} while (++k < sched_core_window_nsets(p));
	return (most);
}

/* Would p fit if victims[0..n) (skipping skip) gave their GPUs back? On
 * success the placement is in core->scratch. */
static size_t
sched_core_preempt_fits(struct sched_core *core, struct sched_cjob *p,
    struct sched_cjob **victims, size_t n, size_t skip)
{
	size_t	i, got;

	for (i = 0; i < n; i++) {
		if (i != skip)
			place_release(core->cluster, victims[i]->hold->alloc,
			    victims[i]->hold->nalloc);
	}
	got = sched_core_place_find(core, p);
	for (i = 0; i < n; i++) {
		if (i != skip)
			place_take(core->cluster, victims[i]->hold->alloc,
			    victims[i]->hold->nalloc);
	}
	return (got);
}

/* Appends r to core->victims (k entries so far); returns the new count. */
static size_t
sched_core_preempt_add(struct sched_core *core, size_t k, struct sched_cjob *r)
{
	if (k == core->victimsize) {
		core->victimsize = k != 0 ? k * 2 : 16;
		core->victims = sched_core_xalloc(core->victims,
		    core->victimsize, sizeof *core->victims);
	}
	core->victims[k] = r;
	return (k + 1);
}

/* Gives back the victims p can do without, the last taken first; the k
 * victims must make room for p. Returns how many are left. */
static size_t
sched_core_preempt_prune(struct sched_core *core, struct sched_cjob *p,
    size_t k)
{
	size_t	i;

	for (i = k; i-- > 0;) {
		if (sched_core_preempt_fits(core, p, core->victims, k, i) == 0)
			continue;
		core->victims[i] = core->victims[--k];
	}
	return (k);
}

/* Records where p will run once the k victims have stopped. */
void
sched_core_preempt_plan(struct sched_core *core, struct sched_cjob *p,
    size_t k)
{
	struct sched_chold	*h;
	size_t			 got;

	got = sched_core_preempt_fits(core, p, core->victims, k, SIZE_MAX);
	h = sched_cjob_hold(p);
	h->plan = sched_core_xalloc(h->plan, got, sizeof *h->plan);
	memcpy(h->plan, core->scratch, got * sizeof *h->plan);
	h->nplan = (uint32_t)got;
}

/* Picks the fewest lowest-priority victims that make room for p: take
 * them from the bottom until p fits, then give back any p can do without,
 * the highest first. The running tree is in priority order, so the jobs p
 * outranks are a suffix of it. Returns the number of victims in
 * core->victims (0: preemption cannot help). */
size_t
sched_core_preempt_choose(struct sched_core *core, struct sched_cjob *p,
    int64_t now)
{
	struct otree_node	*n;
	struct sched_cjob	*r;
	uint64_t		 have = sched_core_preempt_free(core, p), gives;
	size_t			 k = 0, fit = 0;

	sched_core_preempt_mark(core, p);
	for (n = otree_last(&core->running); n != NULL; n = otree_prev(n)) {
		r = SCHED_CJOB_OF(n, qnode);
		/* Within p's queue the running order is by start, not the
		 * queue's: a job p outranks may come before one it does
		 * not. */
		if (!sched_core_preempt_outranks(core, p, r, now)) {
			if (core->conf.preempt_in_queue && r->tier == p->tier &&
			    r->queue == p->queue)
				continue;
			break;
		}
		if (!r->shape->no_requeue && sched_core_preempt_ruled(core,
		    p, r) && (gives = sched_core_preempt_gives(core, p, r)) > 0 &&
		    sched_core_fairshare_spares(core, p, r, false)) {
			k = sched_core_preempt_add(core, k, r);
			have += gives;
			if (have >= p->shape->gpus &&
			    (fit = sched_core_preempt_fits(core, p,
			    core->victims, k, SIZE_MAX)) > 0)
				break;
		}
	}
	if (fit == 0)
		return (0);
	k = sched_core_preempt_prune(core, p, k);
	return (sched_core_fairshare_keeps(core, p, core->victims, k, false) ?
	    k : 0);
}

size_t
sched_core_preempt_share(struct sched_core *core, struct sched_cjob *p)
{
	struct otree_node	*n;
	struct sched_cjob	*r;
	uint64_t		 have = sched_core_preempt_free(core, p), gives;
	size_t			 k = 0, fit = 0;

	if (!sched_core_fairshare_under(core, p))
		return (0);
	sched_core_preempt_mark(core, p);
	/* The running tree's order is by tier, then queue: from its end,
	 * the lowest first, none of a tier above p's. */
	for (n = otree_last(&core->running); n != NULL; n = otree_prev(n)) {
		r = SCHED_CJOB_OF(n, qnode);
		if (r->tier > p->tier)
			break;
		if (r->fs_leaf == p->fs_leaf || r->shape->no_requeue ||
		    !sched_core_preempt_ruled(core, p, r) ||
		    (gives = sched_core_preempt_gives(core, p, r)) == 0 ||
		    !sched_core_fairshare_spares(core, p, r, true))
			continue;
		k = sched_core_preempt_add(core, k, r);
		have += gives;
		if (have >= p->shape->gpus && (fit = sched_core_preempt_fits(core,
		    p, core->victims, k, SIZE_MAX)) > 0)
			break;
	}
	if (fit == 0 || !sched_core_fairshare_keeps(core, p, core->victims,
	    (k = sched_core_preempt_prune(core, p, k)), true)) {
		sched_core_fairshare_missed(core, p);
		return (0);
	}
	return (k);
}

/* Makes p wait for preempting jobs no one waits for when their GPUs (with
 * the free ones) can hold it: the fewest of them. Returns how many. */
size_t
sched_core_preempt_orphans(struct sched_core *core, struct sched_cjob *p)
{
	struct sched_cjob	*r;
	uint64_t		 have = sched_core_preempt_free(core, p), gives;
	size_t			 k = 0, i;

	sched_core_preempt_mark(core, p);
	TAILQ_FOREACH(r, &core->preempting, hold->pentry) {
		if (r->hold->waiter != NULL ||
		    (gives = sched_core_preempt_gives(core, p, r)) == 0)
			continue;
		k = sched_core_preempt_add(core, k, r);
		have += gives;
	}
	if (have < p->shape->gpus ||
	    sched_core_preempt_fits(core, p, core->victims, k, SIZE_MAX) == 0)
		return (0);
	k = sched_core_preempt_prune(core, p, k);
	sched_core_preempt_plan(core, p, k);
	for (i = 0; i < k; i++) {
		core->victims[i]->hold->waiter = p;
		sched_cjob_hold(p)->waiting++;
		core->norphans--;
	}
	return (k);
}

/* r, running, becomes p's victim: no longer a candidate victim, it
 * preempts (a preemption more), and p waits for it to stop. */
void
sched_core_preempt_victim(struct sched_core *core, struct sched_cjob *r,
    struct sched_cjob *p)
{
	sched_core_unrun(core, r);
	r->state = SCHED_JOB_PREEMPTING;
	r->hold->preemptions++;
	r->hold->waiter = p;
	p->hold->waiting++;
	TAILQ_INSERT_TAIL(&core->preempting, r, hold->pentry);
}

/* j no longer waits for victims (it started, or left): those still
 * stopping make room for whoever comes next. */
void
sched_core_preempt_forget(struct sched_core *core, struct sched_cjob *j)
{
	struct sched_cjob	*v;

	if (sched_cjob_held(j)->waiting == 0)
		return;
	TAILQ_FOREACH(v, &core->preempting, hold->pentry) {
		if (v->hold->waiter == j) {
			v->hold->waiter = NULL;
			core->norphans++;
		}
	}
	j->hold->waiting = 0;
}
