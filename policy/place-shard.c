/* place-shard.c: shards of a GPU (place.h). A node may offer each of its
 * GPUs in shards; a job of one GPU may then take some of a GPU's shards
 * and run beside the other jobs holding the rest (Slurm's GPU shards,
 * Gandiva's packing). A GPU with shards held leaves its node's free mask
 * for as long as one is held, so that no job of whole GPUs lands on it,
 * and packing fills the GPUs already shared before it opens a free one. */
#include <stdlib.h>
#include <string.h>

#include "policy/place-int.h"
#include "policy/place.h"
#include "policy/sched.h"

/* How many of node i's GPUs are shared with a shard left. */
static uint32_t
place_shard_node_open(const struct place_cluster *cl, uint32_t i)
{
	const struct place_node	*nd = &cl->nodes[i];
	uint32_t		 g, n = 0;

	for (g = 0; g < nd->gpus; g++) {
		if (place_shard_used(cl, i, g) > 0 &&
		    place_shard_used(cl, i, g) < nd->shards)
			n++;
	}
	return (n);
}

void
place_shard_set(struct place_cluster *cl, uint32_t i, uint32_t shards)
{
	struct place_node	*nd = &cl->nodes[i];

	if (shards > PLACE_MAX_SHARDS)
		shards = PLACE_MAX_SHARDS;
	if (nd->shards == shards)
		return;
	cl->generation++;
	cl->shard_open -= place_shard_node_open(cl, i);
	/* Listed once: a node whose count falls to 1 and rises again is
	 * listed already (the search passes over it while it offers none). */
	if (shards > 1 && !nd->shard_listed) {
		if (cl->nshard_nodes == cl->shard_cap) {
			cl->shard_cap = cl->shard_cap != 0 ? cl->shard_cap * 2 :
			    16;
			if ((cl->shard_nodes = realloc(cl->shard_nodes,
			    cl->shard_cap * sizeof *cl->shard_nodes)) == NULL)
				abort();
		}
		cl->shard_nodes[cl->nshard_nodes++] = i;
		nd->shard_listed = true;
	}
	nd->shards = shards;
	cl->shard_open += place_shard_node_open(cl, i);
}

uint64_t
place_shard_open(const struct place_cluster *cl)
{
	return (cl->shard_open);
}

uint32_t
place_shard_count(const struct place_cluster *cl, uint32_t i)
{
	return (cl->nodes[i].shards > 1 ? cl->nodes[i].shards : 1);
}

uint32_t
place_shard_used(const struct place_cluster *cl, uint32_t i, uint32_t g)
{
	const struct place_node	*nd = &cl->nodes[i];

	return (nd->shard_used != NULL && g < nd->gpus ? nd->shard_used[g] :
	    0);
}

uint64_t
place_shard_mask(const struct place_cluster *cl, uint32_t i)
{
	return (cl->nodes[i].shared_mask);
}

void
place_shard_move(struct place_cluster *cl, struct place_node *nd,
    const struct place_alloc *a, bool take)
{
	uint64_t	bit;
	uint32_t	g, used;

	if (nd->shard_used == NULL && (nd->shard_used = calloc(nd->gpus != 0 ?
	    nd->gpus : 1, sizeof *nd->shard_used)) == NULL)
		abort();
	for (g = 0; g < nd->gpus; g++) {
		bit = UINT64_C(1) << g;
		if ((a->mask & bit) == 0)
			continue;
		used = nd->shard_used[g];
		if (used > 0 && used < nd->shards)
			cl->shard_open--;
		if (take) {
			used += a->shards;
			nd->free_mask &= ~bit;
			nd->shared_mask |= bit;
		} else {
			used = used > a->shards ? used - a->shards : 0;
			if (used == 0 && (nd->shared_mask & bit) != 0) {
				nd->free_mask |= bit;
				nd->shared_mask &= ~bit;
			}
		}
		nd->shard_used[g] = (uint8_t)(used > UINT8_MAX ? UINT8_MAX :
		    used);
		if (nd->shard_used[g] > 0 && nd->shard_used[g] < nd->shards)
			cl->shard_open++;
	}
}

void
place_shard_need(const struct place_cluster *cl, uint32_t i,
    const struct place_res *r, uint32_t shards, uint32_t *cpus,
    uint64_t *mem)
{
	const struct place_node	*nd = &cl->nodes[i];
	uint64_t		 per = (uint64_t)nd->gpus * place_shard_count(cl,
				    i);
	struct place_res	 own;

	*cpus = 0;
	*mem = 0;
	if (r == NULL)
		return;
	/* Its one GPU's worth of what it asks per GPU, where the node's
	 * shares are taken by the shard. */
	own = *r;
	own.cpus_share = own.mem_share = false;
	if (r->cpus_share)
		own.cpus_gpu = per > 0 ? (uint32_t)((uint64_t)nd->cpus *
		    shards / per) : 0;
	if (r->mem_share)
		own.mem_gpu = per > 0 ? nd->mem * shards / per : 0;
	place_res_need(cl, i, &own, 1, cpus, mem);
}

/* Whether node i may hold a part of w's now (up, offering shards and
 * enough of them, its CPUs and memory free): what the part needs goes
 * to *cpus and *mem. */
static bool
place_shard_node_ok(const struct place_cluster *cl, uint32_t i,
    const struct place_want *w, uint32_t *cpus, uint64_t *mem)
{
	const struct place_node	*nd = &cl->nodes[i];

	if (!nd->up || nd->shards <= 1 || nd->shards < w->shards)
		return (false);
	place_shard_need(cl, i, w->res, w->shards, cpus, mem);
	return ((nd->cpus == 0 || *cpus <= nd->cpus_free) &&
	    (nd->mem == 0 || *mem <= nd->mem_free));
}

/* The candidates: w's nodes, or those that offer shards. */
static const uint32_t *
place_shard_candidates(const struct place_cluster *cl,
    const struct place_want *w, size_t *n)
{
	if (w->nodes != NULL) {
		*n = w->nlisted;
		return (w->nodes);
	}
	*n = cl->nshard_nodes;
	return (cl->shard_nodes);
}

/* Whether node b's free GPUs come before a's for how (a PLACE_NONE: b
 * comes first). */
static bool
place_shard_better(const struct place_cluster *cl, enum sched_placement how,
    uint32_t a, uint32_t b)
{
	if (a == PLACE_NONE)
		return (true);
	switch (how) {
	case SCHED_PLACE_CONSOLIDATE:
		return (cl->nodes[b].nfree < cl->nodes[a].nfree);
	case SCHED_PLACE_SPREAD:
		return (cl->nodes[b].nfree > cl->nodes[a].nfree);
	default:
		return (false);
	}
}

size_t
place_shard_find(struct place_cluster *cl, enum sched_placement how,
    const struct place_want *w, struct place_alloc *out)
{
	const struct place_node	*nd;
	const uint32_t		*v;
	uint64_t		 m, mem, best_mem = 0, open_mem = 0;
	uint32_t		 i, g, of, used, cpus, best = PLACE_NONE;
	uint32_t		 best_g = 0, best_left = UINT32_MAX, best_cpus = 0;
	uint32_t		 open = PLACE_NONE, open_cpus = 0;
	size_t			 k, n;

	if (w->shards == 0 || w->shards > PLACE_MAX_SHARDS)
		return (0);
	v = place_shard_candidates(cl, w, &n);
	for (k = 0; k < n; k++) {
		if ((i = v[k]) >= cl->n ||
		    !place_shard_node_ok(cl, i, w, &cpus, &mem))
			continue;
		nd = &cl->nodes[i];
		of = place_shard_count(cl, i);
		/* A GPU shared already, with the fewest shards left. */
		for (m = nd->shared_mask; m != 0; m &= m - 1) {
			g = (uint32_t)__builtin_ctzll(m);
			used = place_shard_used(cl, i, g);
			if (used + w->shards > of ||
			    of - used - w->shards >= best_left)
				continue;
			best_left = of - used - w->shards;
			best = i;
			best_g = g;
			best_cpus = cpus;
			best_mem = mem;
		}
		if (nd->nfree > 0 && place_shard_better(cl, how, open, i)) {
			open = i;
			open_cpus = cpus;
			open_mem = mem;
		}
	}
	if (best == PLACE_NONE && open != PLACE_NONE) {
		best = open;
		best_g = (uint32_t)__builtin_ctzll(cl->nodes[open].free_mask);
		best_cpus = open_cpus;
		best_mem = open_mem;
	}
	if (best == PLACE_NONE)
		return (0);
	memset(out, 0, sizeof *out);
	out->node = best;
	out->mask = UINT64_C(1) << best_g;
	out->shards = w->shards;
	out->cpus = best_cpus;
	out->mem = best_mem;
	return (1);
}
