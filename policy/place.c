/* place.c: placement of a job's GPUs on the cluster's nodes.
 *
 * Three indexes, all updated when a node's free count changes (O(1) or
 * O(log n)), so that a placement costs about the nodes it takes:
 * - bucket lists: the up nodes with exactly c free GPUs, for best fit
 *   (smallest c that holds the job) and worst fit (largest c first);
 * - a max tree over the nodes in index order, for first fit from any index;
 * - free GPUs per switch, to keep a gang under one switch. */
#include <stdlib.h>
#include <string.h>

#include "policy/place.h"
#include "policy/place-int.h"
#include "policy/sched.h"

static void *
place_xalloc(void *p, size_t n, size_t size)
{
	if (n != 0 && size > SIZE_MAX / n)
		abort();
	if ((p = realloc(p, n * size == 0 ? 1 : n * size)) == NULL)
		abort();
	return (p);
}

struct place_cluster *
place_cluster_create(uint64_t seed)
{
	struct place_cluster	*cl;
	int			 c;

	if ((cl = calloc(1, sizeof *cl)) == NULL)
		abort();
	for (c = 0; c <= SCHED_MAX_GPUS_PER_NODE; c++)
		cl->head[c] = PLACE_NONE;
	cl->rng = seed != 0 ? seed : 0x9e3779b97f4a7c15ULL;
	return (cl);
}

void
place_cluster_free(struct place_cluster *cl)
{
	uint32_t	i;

	if (cl == NULL)
		return;
	for (i = 0; i < cl->n; i++) {
		free(cl->nodes[i].gpu_mem);
		free(cl->nodes[i].shard_used);
	}
	free(cl->shard_nodes);
	free(cl->nodes);
	free(cl->tree);
	free(cl->sw_free);
	free(cl->sw_count);
	free(cl->scratch);
	free(cl);
}

/* xorshift64: the same seed, the same random placements. */
uint64_t
place_rand(struct place_cluster *cl)
{
	cl->rng ^= cl->rng << 13;
	cl->rng ^= cl->rng >> 7;
	cl->rng ^= cl->rng << 17;
	return (cl->rng);
}

static void
place_tree_set(struct place_cluster *cl, uint32_t i, uint32_t v)
{
	uint32_t	k = cl->tcap + i, a, b;

	cl->tree[k] = v;
	for (k /= 2; k >= 1; k /= 2) {
		a = cl->tree[2 * k];
		b = cl->tree[2 * k + 1];
		cl->tree[k] = a > b ? a : b;
	}
}

/* Returns the first node at or after from with at least want free GPUs,
 * or PLACE_NONE. */
uint32_t
place_tree_first(const struct place_cluster *cl, uint32_t from,
    uint32_t want)
{
	uint32_t	k;

	if (from >= cl->n || cl->tree == NULL || cl->tree[1] < want)
		return (PLACE_NONE);
	k = cl->tcap + from;
	if (cl->tree[k] >= want)
		return (from);
	/* Climb until a right sibling holds a match, then descend. */
	for (;;) {
		if (k == 1)
			return (PLACE_NONE);
		if ((k & 1) == 0 && cl->tree[k + 1] >= want) {
			k++;
			break;
		}
		k /= 2;
	}
	while (k < cl->tcap)
		k = cl->tree[2 * k] >= want ? 2 * k : 2 * k + 1;
	return (k - cl->tcap < cl->n ? k - cl->tcap : PLACE_NONE);
}

static void
place_bucket_unlink(struct place_cluster *cl, uint32_t i)
{
	struct place_node	*nd = &cl->nodes[i];

	if (nd->prev != PLACE_NONE)
		cl->nodes[nd->prev].next = nd->next;
	else
		cl->head[nd->nfree] = nd->next;
	if (nd->next != PLACE_NONE)
		cl->nodes[nd->next].prev = nd->prev;
}

static void
place_bucket_link(struct place_cluster *cl, uint32_t i)
{
	struct place_node	*nd = &cl->nodes[i];

	nd->prev = PLACE_NONE;
	nd->next = cl->head[nd->nfree];
	if (nd->next != PLACE_NONE)
		cl->nodes[nd->next].prev = i;
	cl->head[nd->nfree] = i;
}

/* Brings node i's indexes in line with its mask and up flag. */
static void
place_node_update(struct place_cluster *cl, uint32_t i)
{
	struct place_node	*nd = &cl->nodes[i];
	uint32_t		 now;

	now = nd->up ? sched_mask_count(nd->free_mask) : 0;
	if (now == nd->nfree)
		return;
	place_bucket_unlink(cl, i);
	cl->free_total = cl->free_total - nd->nfree + now;
	cl->sw_free[nd->sw] = cl->sw_free[nd->sw] - nd->nfree + now;
	nd->nfree = now;
	place_bucket_link(cl, i);
	place_tree_set(cl, i, now);
}

static void
place_tree_grow(struct place_cluster *cl)
{
	uint32_t	i, cap = cl->tcap != 0 ? cl->tcap : 64;

	while (cap < cl->cap)
		cap *= 2;
	if (cap == cl->tcap)
		return;
	cl->tcap = cap;
	cl->tree = place_xalloc(cl->tree, 2 * (size_t)cap, sizeof *cl->tree);
	memset(cl->tree, 0, 2 * (size_t)cap * sizeof *cl->tree);
	for (i = 0; i < cl->n; i++)
		cl->tree[cap + i] = cl->nodes[i].nfree;
	for (i = cap - 1; i >= 1; i--)
		cl->tree[i] = cl->tree[2 * i] > cl->tree[2 * i + 1] ?
		    cl->tree[2 * i] : cl->tree[2 * i + 1];
}

uint32_t
place_node_add(struct place_cluster *cl, uint32_t gpus, uint32_t sw)
{
	struct place_node	*nd;
	uint32_t		 i = cl->n;

	if (gpus > SCHED_MAX_GPUS_PER_NODE)
		gpus = SCHED_MAX_GPUS_PER_NODE;
	if (cl->n == cl->cap) {
		cl->cap = cl->cap != 0 ? cl->cap * 2 : 64;
		cl->nodes = place_xalloc(cl->nodes, cl->cap, sizeof *cl->nodes);
		cl->scratch = place_xalloc(cl->scratch, cl->cap,
		    sizeof *cl->scratch);
	}
	if (sw >= cl->nsw) {
		cl->sw_free = place_xalloc(cl->sw_free, sw + 1,
		    sizeof *cl->sw_free);
		memset(cl->sw_free + cl->nsw, 0,
		    (sw + 1 - cl->nsw) * sizeof *cl->sw_free);
		cl->sw_count = place_xalloc(cl->sw_count, sw + 1,
		    sizeof *cl->sw_count);
		cl->nsw = sw + 1;
	}
	nd = &cl->nodes[cl->n++];
	memset(nd, 0, sizeof *nd);
	nd->gpus = gpus;
	nd->sw = sw;
	nd->free_mask = gpus == 64 ? UINT64_MAX : (UINT64_C(1) << gpus) - 1;
	nd->up = false;
	nd->nfree = 0;
	cl->generation++;
	place_tree_grow(cl);
	place_bucket_link(cl, i);
	if (gpus > cl->max_gpus)
		cl->max_gpus = gpus;
	place_node_set_up(cl, i, true);
	return (i);
}

void
place_node_set_up(struct place_cluster *cl, uint32_t i, bool up)
{
	struct place_node	*nd = &cl->nodes[i];

	if (nd->up == up)
		return;
	nd->up = up;
	cl->generation++;
	if (up)
		cl->gpus_total += nd->gpus;
	else
		cl->gpus_total -= nd->gpus;
	place_node_update(cl, i);
}

size_t
place_nodes(const struct place_cluster *cl)
{
	return (cl->n);
}

uint32_t
place_node_gpus(const struct place_cluster *cl, uint32_t i)
{
	return (cl->nodes[i].gpus);
}

uint64_t
place_node_free_mask(const struct place_cluster *cl, uint32_t i)
{
	return (cl->nodes[i].free_mask);
}

uint64_t
place_free_total(const struct place_cluster *cl)
{
	return (cl->free_total);
}

uint64_t
place_gpus_total(const struct place_cluster *cl)
{
	return (cl->gpus_total);
}

/* Takes a[0..n)'s CPUs and memory, and its GPUs with gpus; or gives them
 * back (!take). */
static void
place_move(struct place_cluster *cl, const struct place_alloc *a, size_t n,
    bool take, bool gpus)
{
	struct place_node	*nd;
	size_t			 i;

	cl->generation++;
	for (i = 0; i < n; i++) {
		nd = &cl->nodes[a[i].node];
		if (gpus && a[i].shards > 0)
			place_shard_move(cl, nd, &a[i], take);
		if (take) {
			if (gpus && a[i].shards == 0)
				nd->free_mask &= ~a[i].mask;
			nd->cpus_free = nd->cpus_free > a[i].cpus ?
			    nd->cpus_free - a[i].cpus : 0;
			nd->mem_free = nd->mem_free > a[i].mem ?
			    nd->mem_free - a[i].mem : 0;
		} else {
			if (gpus && a[i].shards == 0)
				nd->free_mask |= a[i].mask;
			nd->cpus_free = nd->cpus - nd->cpus_free > a[i].cpus ?
			    nd->cpus_free + a[i].cpus : nd->cpus;
			nd->mem_free = nd->mem - nd->mem_free > a[i].mem ?
			    nd->mem_free + a[i].mem : nd->mem;
		}
		place_node_update(cl, a[i].node);
	}
}

void
place_take(struct place_cluster *cl, const struct place_alloc *a, size_t n)
{
	place_move(cl, a, n, true, true);
}

void
place_release(struct place_cluster *cl, const struct place_alloc *a,
    size_t n)
{
	place_move(cl, a, n, false, true);
}

void
place_take_res(struct place_cluster *cl, const struct place_alloc *a,
    size_t n)
{
	place_move(cl, a, n, true, false);
}

void
place_release_res(struct place_cluster *cl, const struct place_alloc *a,
    size_t n)
{
	place_move(cl, a, n, false, false);
}

bool
place_fits(const struct place_cluster *cl, const struct place_alloc *a,
    size_t n)
{
	const struct place_node	*nd;
	size_t			 i;
	uint32_t		 g;

	for (i = 0; i < n; i++) {
		nd = &cl->nodes[a[i].node];
		if (a[i].cpus > nd->cpus_free || a[i].mem > nd->mem_free)
			return (false);
		if ((a[i].mask & ~nd->free_mask) == 0)
			continue;
		/* Shards of a GPU already shared: those left. */
		if (a[i].shards == 0 || (a[i].mask & ~nd->shared_mask) != 0 ||
		    !nd->up)
			return (false);
		g = (uint32_t)__builtin_ctzll(a[i].mask);
		if (place_shard_used(cl, a[i].node, g) + a[i].shards >
		    nd->shards)
			return (false);
	}
	return (true);
}

/* Writes node i's share (want GPUs, its lowest free ones, and what the
 * job being placed needs beside them) to out. */
uint32_t
place_put(struct place_cluster *cl, uint32_t i, uint32_t want,
    struct place_alloc *out)
{
	struct place_node	*nd = &cl->nodes[i];

	if (want > nd->nfree)
		want = nd->nfree;
	out->node = i;
	out->shards = 0;
	out->mask = sched_mask_lowest(nd->free_mask, want);
	place_res_need(cl, i, cl->res, want, &out->cpus, &out->mem);
	nd->mark = cl->stamp;
	return (want);
}

void
place_node_set_res(struct place_cluster *cl, uint32_t i, uint32_t cpus,
    uint64_t mem)
{
	struct place_node	*nd = &cl->nodes[i];
	uint32_t		 held_c = nd->cpus - nd->cpus_free;
	uint64_t		 held_m = nd->mem - nd->mem_free;

	cl->generation++;
	if (nd->cpus != 0) {
		cl->cpus_known -= nd->cpus;
		cl->cpus_known_gpus -= nd->gpus;
	}
	if (cpus != 0) {
		cl->cpus_known += cpus;
		cl->cpus_known_gpus += nd->gpus;
	}
	nd->cpus = cpus;
	nd->cpus_free = cpus > held_c ? cpus - held_c : 0;
	nd->mem = mem;
	nd->mem_free = mem > held_m ? mem - held_m : 0;
}

uint64_t
place_cpus_known(const struct place_cluster *cl, uint64_t *gpus)
{
	*gpus = cl->cpus_known_gpus;
	return (cl->cpus_known);
}

uint64_t
place_generation(const struct place_cluster *cl)
{
	return (cl->generation);
}

uint32_t
place_node_cpus(const struct place_cluster *cl, uint32_t i)
{
	return (cl->nodes[i].cpus);
}

uint32_t
place_node_cpus_free(const struct place_cluster *cl, uint32_t i)
{
	return (cl->nodes[i].cpus_free);
}

uint64_t
place_node_mem(const struct place_cluster *cl, uint32_t i)
{
	return (cl->nodes[i].mem);
}

uint64_t
place_node_mem_free(const struct place_cluster *cl, uint32_t i)
{
	return (cl->nodes[i].mem_free);
}

void
place_res_need(const struct place_cluster *cl, uint32_t i,
    const struct place_res *r, uint32_t g, uint32_t *cpus, uint64_t *mem)
{
	const struct place_node	*nd = &cl->nodes[i];
	uint64_t		 c;

	*cpus = 0;
	*mem = 0;
	if (r == NULL)
		return;
	if (g == 0) {
		/* A CPU job's part: its CPUs, and its memory or the node's
		 * for as many CPUs. */
		*cpus = r->cpus_node;
		if (r->mem_share)
			*mem = nd->cpus > 0 ? nd->mem * r->cpus_node /
			    nd->cpus : 0;
		else
			*mem = r->mem_node;
		return;
	}
	if (r->cpus_share)
		c = nd->gpus > 0 ? (uint64_t)nd->cpus * g / nd->gpus : 0;
	else
		c = (uint64_t)r->cpus_gpu * g;
	/* A share rounds down, to 0 where a node has fewer CPUs than GPUs
	 * (the job then holds none and runs on the node's CPUs unpinned):
	 * the shares of a node's GPUs never add up to more than its CPUs,
	 * so jobs on the default share never leave a GPU idle for want of
	 * CPUs. */
	c += r->cpus_node;
	*cpus = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
	if (r->mem_share)
		*mem = nd->gpus > 0 ? nd->mem * g / nd->gpus : 0;
	else
		*mem = r->mem_gpu * g;
	*mem += r->mem_node;
}

bool
place_res_fits(const struct place_cluster *cl, uint32_t i,
    const struct place_res *r, uint32_t g)
{
	const struct place_node	*nd = &cl->nodes[i];
	uint32_t		 cpus;
	uint64_t		 mem;

	if (r == NULL)
		return (true);
	place_res_need(cl, i, r, g, &cpus, &mem);
	return ((nd->cpus == 0 || cpus <= nd->cpus_free) &&
	    (nd->mem == 0 || mem <= nd->mem_free));
}

/* The node with the fewest free GPUs that still has want, not yet used by
 * this placement and under switch sw (PLACE_NONE: any). */
static uint32_t
place_best_fit(struct place_cluster *cl, uint32_t want, uint32_t sw)
{
	uint32_t	c, i;

	for (c = want; c <= SCHED_MAX_GPUS_PER_NODE; c++) {
		for (i = cl->head[c]; i != PLACE_NONE; i = cl->nodes[i].next) {
			if (cl->nodes[i].mark != cl->stamp &&
			    (sw == PLACE_NONE || cl->nodes[i].sw == sw))
				return (i);
		}
	}
	return (PLACE_NONE);
}

int
place_by_free_asc(const void *a, const void *b, void *arg)
{
	const struct place_cluster	*cl = arg;
	uint32_t			 x = *(const uint32_t *)a;
	uint32_t			 y = *(const uint32_t *)b;

	if (cl->nodes[x].nfree != cl->nodes[y].nfree)
		return (cl->nodes[x].nfree < cl->nodes[y].nfree ? -1 : 1);
	return (x < y ? -1 : x > y);
}

int
place_by_free_desc(const void *a, const void *b, void *arg)
{
	const struct place_cluster	*cl = arg;
	uint32_t			 x = *(const uint32_t *)a;
	uint32_t			 y = *(const uint32_t *)b;

	if (cl->nodes[x].nfree != cl->nodes[y].nfree)
		return (cl->nodes[x].nfree > cl->nodes[y].nfree ? -1 : 1);
	return (x < y ? -1 : x > y);
}

/* Fills cl->scratch with the up nodes that have free GPUs, the most free
 * first (index order among equals), limited to switch sw unless it is
 * PLACE_NONE, stopping once they hold want. Returns how many. */
static uint32_t
place_collect_desc(struct place_cluster *cl, uint32_t want, uint32_t sw)
{
	uint32_t	c, i, n = 0;
	uint64_t	sum = 0;

	for (c = SCHED_MAX_GPUS_PER_NODE; c >= 1 && sum < want; c--) {
		uint32_t	first = n;

		for (i = cl->head[c]; i != PLACE_NONE; i = cl->nodes[i].next) {
			if (sw != PLACE_NONE && cl->nodes[i].sw != sw)
				continue;
			cl->scratch[n++] = i;
			sum += c;
		}
		/* Index order within a count, so the choice does not depend
		 * on the order nodes changed in. */
		qsort_r(cl->scratch + first, n - first, sizeof *cl->scratch,
		    place_by_free_desc, cl);
	}
	return (n);
}

/* Fewest nodes: the emptiest nodes whole, then the best fit for what is
 * left. Under one switch when a switch can hold the job (the one that
 * holds it most tightly), else across switches. */
static size_t
place_consolidate(struct place_cluster *cl, uint32_t gpus,
    struct place_alloc *out)
{
	uint32_t	sw = PLACE_NONE, s, i, k, last, left = gpus;
	size_t		n = 0;

	if ((i = place_best_fit(cl, gpus, PLACE_NONE)) != PLACE_NONE) {
		place_put(cl, i, gpus, &out[0]);
		return (1);
	}
	if (cl->nsw > 1) {
		for (s = 0; s < cl->nsw; s++) {
			if (cl->sw_free[s] >= gpus && (sw == PLACE_NONE ||
			    cl->sw_free[s] < cl->sw_free[sw]))
				sw = s;
		}
	}
	k = place_collect_desc(cl, gpus, sw);
	/* Whole nodes while more than the next one is left. */
	for (i = 0; i < k && left > 0; i++) {
		if (left <= cl->nodes[cl->scratch[i]].nfree)
			break;
		left -= place_put(cl, cl->scratch[i], left, &out[n++]);
	}
	if (left == 0)
		return (n);
	if ((last = place_best_fit(cl, left, sw)) == PLACE_NONE)
		return (0);
	place_put(cl, last, left, &out[n++]);
	return (n);
}

/* YARN's placement as the Tiresias simulator has it: a job that fits one
 * node goes on the first node with room; a bigger one takes the first
 * whole idle nodes it needs and the first other node with room for the
 * rest. */
static size_t
place_yarn(struct place_cluster *cl, uint32_t gpus, struct place_alloc *out)
{
	uint32_t	per = cl->max_gpus, full, rest, i, from = 0;
	size_t		n = 0;

	if (gpus <= per) {
		if ((i = place_tree_first(cl, 0, gpus)) == PLACE_NONE)
			return (0);
		place_put(cl, i, gpus, &out[0]);
		return (1);
	}
	full = gpus / per;
	rest = gpus % per;
	while (full-- > 0) {
		if ((i = place_tree_first(cl, from, per)) == PLACE_NONE)
			return (0);
		place_put(cl, i, per, &out[n++]);
		from = i + 1;
	}
	if (rest == 0)
		return (n);
	for (from = 0;; from = i + 1) {
		if ((i = place_tree_first(cl, from, rest)) == PLACE_NONE)
			return (0);
		if (cl->nodes[i].mark != cl->stamp)
			break;
	}
	place_put(cl, i, rest, &out[n++]);
	return (n);
}

/* Worst fit: the node with the most free GPUs, so jobs spread out; a job
 * no node holds takes the emptiest nodes. */
static size_t
place_spread(struct place_cluster *cl, uint32_t gpus, struct place_alloc *out)
{
	uint32_t	k, i, left = gpus;
	size_t		n = 0;

	k = place_collect_desc(cl, gpus, PLACE_NONE);
	for (i = 0; i < k && left > 0; i++)
		left -= place_put(cl, cl->scratch[i], left, &out[n++]);
	return (left == 0 ? n : 0);
}

/* A random node with room, else nodes taken in order from a random one. */
static size_t
place_random(struct place_cluster *cl, uint32_t gpus, struct place_alloc *out)
{
	uint32_t	start, i, j, left = gpus;
	size_t		n = 0;

	start = (uint32_t)(place_rand(cl) % cl->n);
	if ((i = place_tree_first(cl, start, gpus)) != PLACE_NONE ||
	    (i = place_tree_first(cl, 0, gpus)) != PLACE_NONE) {
		place_put(cl, i, gpus, &out[0]);
		return (1);
	}
	for (j = 0; j < cl->n && left > 0; j++) {
		i = (start + j) % cl->n;
		if (cl->nodes[i].nfree > 0)
			left -= place_put(cl, i, left, &out[n++]);
	}
	return (left == 0 ? n : 0);
}

void
place_new_stamp(struct place_cluster *cl)
{
	uint32_t	i;

	if (++cl->stamp == 0) {
		for (i = 0; i < cl->n; i++)
			cl->nodes[i].mark = 0;
		cl->stamp = 1;
	}
}

int
place_by_index(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y ? -1 : x > y);
}

/* The node of cl->scratch[0..k) not yet used with the fewest free GPUs
 * that still holds want, or PLACE_NONE. */
static uint32_t
place_best_of(const struct place_cluster *cl, uint32_t k, uint32_t want)
{
	uint32_t	j, i, best = PLACE_NONE;

	for (j = 0; j < k; j++) {
		i = cl->scratch[j];
		if (cl->nodes[i].mark != cl->stamp &&
		    cl->nodes[i].nfree >= want && (best == PLACE_NONE ||
		    cl->nodes[i].nfree < cl->nodes[best].nfree))
			best = i;
	}
	return (best);
}

size_t
place_find_in(struct place_cluster *cl, enum sched_placement how,
    uint32_t gpus, bool sensitive, const uint32_t *nodes, size_t nnodes,
    struct place_alloc *out)
{
	uint32_t	k = 0, i, left = gpus;
	uint64_t	sum = 0;
	size_t		n = 0, j;

	if (gpus == 0 || cl->free_total < gpus)
		return (0);
	place_new_stamp(cl);
	for (j = 0; j < nnodes && k < cl->n; j++) {
		i = nodes[j];
		if (i >= cl->n || cl->nodes[i].nfree == 0 ||
		    cl->nodes[i].mark == cl->stamp)
			continue;
		cl->nodes[i].mark = cl->stamp;	/* listed twice: once */
		cl->scratch[k++] = i;
		sum += cl->nodes[i].nfree;
	}
	place_new_stamp(cl);
	if (sum < gpus)
		return (0);
	if (sensitive)
		how = SCHED_PLACE_CONSOLIDATE;
	if (how == SCHED_PLACE_YARN || how == SCHED_PLACE_RANDOM)
		qsort(cl->scratch, k, sizeof *cl->scratch, place_by_index);
	else
		qsort_r(cl->scratch, k, sizeof *cl->scratch,
		    place_by_free_desc, cl);
	if (how == SCHED_PLACE_CONSOLIDATE) {
		if ((i = place_best_of(cl, k, gpus)) != PLACE_NONE) {
			place_put(cl, i, gpus, &out[0]);
			return (1);
		}
		for (j = 0; j < k && left > 0; j++) {
			if (left <= cl->nodes[cl->scratch[j]].nfree)
				break;
			left -= place_put(cl, cl->scratch[j], left, &out[n++]);
		}
		if (left > 0) {
			if ((i = place_best_of(cl, k, left)) == PLACE_NONE)
				return (0);
			place_put(cl, i, left, &out[n++]);
		}
	} else {
		for (j = 0; j < k && left > 0; j++)
			left -= place_put(cl, cl->scratch[j], left, &out[n++]);
	}
	if (sensitive && n > (gpus + cl->max_gpus - 1) / cl->max_gpus)
		return (0);
	return (n);
}

size_t
place_find(struct place_cluster *cl, enum sched_placement how, uint32_t gpus,
    bool sensitive, struct place_alloc *out)
{
	size_t	n;

	if (gpus == 0 || cl->free_total < gpus)
		return (0);
	place_new_stamp(cl);
	if (sensitive)
		how = SCHED_PLACE_CONSOLIDATE;
	switch (how) {
	case SCHED_PLACE_YARN:
		n = place_yarn(cl, gpus, out);
		break;
	case SCHED_PLACE_SPREAD:
		n = place_spread(cl, gpus, out);
		break;
	case SCHED_PLACE_RANDOM:
		n = place_random(cl, gpus, out);
		break;
	case SCHED_PLACE_CONSOLIDATE:
	default:
		n = place_consolidate(cl, gpus, out);
		break;
	}
	/* A sensitive job waits for as few nodes as its size allows. */
	if (sensitive && n > (gpus + cl->max_gpus - 1) / cl->max_gpus)
		return (0);
	return (n);
}
