/* sched-shape.c: shapes interned in a hash chained by their members. */
#include <stdlib.h>
#include <string.h>

#include "policy/sched-shape.h"

bool
sched_shape_res_equal(const struct place_res *x, const struct place_res *y)
{
	return (x->cpus_node == y->cpus_node && x->cpus_gpu == y->cpus_gpu &&
	    x->cpus_share == y->cpus_share && x->mem_node == y->mem_node &&
	    x->mem_gpu == y->mem_gpu && x->mem_share == y->mem_share);
}

static bool
sched_shape_res_none(const struct place_res *r)
{
	return (r->cpus_node == 0 && r->cpus_gpu == 0 && !r->cpus_share &&
	    r->mem_node == 0 && r->mem_gpu == 0 && !r->mem_share);
}

/* Mixes v into h, a word at a time (a multiply by the golden ratio's
 * odd 64-bit constant, then the high half folded down): a shape is hashed
 * at every submit, so a byte at a time would cost most of the submit. */
static uint64_t
sched_shape_mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return (h ^ (h >> 32));
}

/* The hash of what w's placement asks (place_key): its advance
 * reservation too, whose nodes it runs on. */
static uint64_t
sched_shape_place_key(const struct sched_shape *w, const uint32_t *nodes,
    size_t nnodes)
{
	const struct place_res	*r = &w->res;
	uint64_t		 h = 0x5bd1e995;
	size_t			 i;

	h = sched_shape_mix(h, r->mem_node);
	h = sched_shape_mix(h, r->mem_gpu);
	h = sched_shape_mix(h, (uint64_t)r->cpus_node << 32 | r->cpus_gpu);
	h = sched_shape_mix(h, (uint64_t)w->gpus << 32 | w->num_nodes);
	h = sched_shape_mix(h, w->shards);
	h = sched_shape_mix(h, (uint64_t)w->placement |
	    (uint64_t)w->own_placement << 8 | (uint64_t)w->consolidate << 16 |
	    (uint64_t)w->any_shape << 32 | (uint64_t)w->listed << 40 |
	    (uint64_t)r->cpus_share << 48 | (uint64_t)r->mem_share << 56);
	h = sched_shape_mix(h, w->nsets);
	h = sched_shape_mix(h, w->resv);
	for (i = 0; i < nnodes; i++)
		h = sched_shape_mix(h, nodes[i]);
	/* The mix folds to 32 bits' worth: a second round for the top. */
	return (h ^ sched_shape_mix(h, nnodes) << 32);
}

/* The set's hash of w: what its placement asks (its place_key), its
 * array, its limits, whether it may be requeued, its class, urgency. */
static uint32_t
sched_shape_hash(const struct sched_shape *w, uint64_t place_key)
{
	uint64_t	h = place_key;
	size_t		i;

	h = sched_shape_mix(h, (uint64_t)(uintptr_t)w->group);
	for (i = 0; i < w->nlimits; i++)
		h = sched_shape_mix(h, (uint64_t)(uintptr_t)w->limit[i]);
	h = sched_shape_mix(h, w->no_requeue);
	h = sched_shape_mix(h, w->pclass);
	h = sched_shape_mix(h, (uint32_t)w->urgency);
	h = sched_shape_mix(h, (uint64_t)w->gpus_min << 32 | w->gpus_max);
	h = sched_shape_mix(h, (uint64_t)w->gpu_mem << 1 | w->time_slice);
	return ((uint32_t)h);
}

static bool
sched_shape_equal(const struct sched_shape *s, const struct sched_shape *w,
    const uint32_t *nodes, size_t nnodes)
{
	return (sched_shape_res_equal(&s->res, &w->res) &&
	    s->group == w->group && s->nlimits == w->nlimits &&
	    (w->nlimits == 0 || memcmp(s->limit, w->limit,
	    w->nlimits * sizeof *w->limit) == 0) && s->gpus == w->gpus &&
	    s->num_nodes == w->num_nodes && s->placement == w->placement &&
	    s->own_placement == w->own_placement &&
	    s->consolidate == w->consolidate &&
	    s->no_requeue == w->no_requeue && s->pclass == w->pclass &&
	    s->resv == w->resv &&
	    s->urgency == w->urgency &&
	    s->any_shape == w->any_shape &&
	    s->gpus_min == w->gpus_min && s->gpus_max == w->gpus_max &&
	    s->time_slice == w->time_slice && s->gpu_mem == w->gpu_mem &&
	    s->shards == w->shards &&
	    s->listed == w->listed && s->nsets == w->nsets &&
	    s->nnodes == nnodes &&
	    (nnodes == 0 || memcmp(s->nodes, nodes,
	    nnodes * sizeof *nodes) == 0));
}

/* Whether nodes[0..nnodes) holds nsets sets as sched_jobspec lays them
 * out: ends that never go back, the last at the end. */
static bool
sched_shape_sets_ok(uint32_t nsets, const uint32_t *nodes, size_t nnodes)
{
	uint32_t	k;

	if (nnodes < nsets)
		return (false);
	for (k = 1; k < nsets; k++) {
		if (nodes[k] < nodes[k - 1])
			return (false);
	}
	return (nodes[nsets - 1] == nnodes - nsets);
}

static void
sched_shapes_grow(struct sched_shapes *set)
{
	struct sched_shape	**old = set->bucket, *s, *next;
	size_t			  oldsize = set->size, i, b;

	set->size = oldsize == 0 ? 16 : oldsize * 2;
	if ((set->bucket = calloc(set->size, sizeof *set->bucket)) == NULL)
		abort();
	for (i = 0; i < oldsize; i++) {
		for (s = old[i]; s != NULL; s = next) {
			next = s->next;
			b = s->hash & (set->size - 1);
			s->next = set->bucket[b];
			set->bucket[b] = s;
		}
	}
	free(old);
}

const struct sched_shape *
sched_shape_get(struct sched_shapes *set, const struct sched_shape *want,
    const uint32_t *nodes, size_t nnodes)
{
	struct sched_shape	*s, w0;
	uint64_t		 key;
	uint32_t		 h;
	size_t			 b;

	if (!want->listed)
		nnodes = 0;
	if (want->nsets <= 1 || !want->listed) {
		/* One set, or none: one way to say it. */
		w0 = *want;
		w0.nsets = 0;
		want = &w0;
	} else if (!sched_shape_sets_ok(want->nsets, nodes, nnodes))
		abort();	/* the caller's sets overrun its nodes */
	key = sched_shape_place_key(want, nodes, nnodes);
	h = sched_shape_hash(want, key);
	if (set->size > 0) {
		for (s = set->bucket[h & (set->size - 1)]; s != NULL;
		    s = s->next) {
			if (s->hash == h &&
			    sched_shape_equal(s, want, nodes, nnodes)) {
				s->refs++;
				return (s);
			}
		}
	}
	if (set->n + 1 > set->size)
		sched_shapes_grow(set);
	if ((s = malloc(sizeof *s + nnodes * sizeof *nodes)) == NULL)
		abort();
	*s = *want;
	s->has_res = !sched_shape_res_none(&want->res);
	s->hash = h;
	s->refs = 1;
	s->nnodes = (uint32_t)nnodes;
	s->place_key = key;
	s->miss_generation = 0;
	s->miss_pass = 0;
	s->miss_reason = 0;
	s->pmiss_pass = 0;
	if (nnodes > 0)
		memcpy(s->nodes, nodes, nnodes * sizeof *nodes);
	b = h & (set->size - 1);
	s->next = set->bucket[b];
	set->bucket[b] = s;
	set->n++;
	return (s);
}

void
sched_shape_put(struct sched_shapes *set, const struct sched_shape *cs)
{
	struct sched_shape	**p, *s;

	if (cs == NULL)
		return;
	/* Found in its chain, not cast: the shape is the set's. */
	for (p = &set->bucket[cs->hash & (set->size - 1)]; *p != cs;
	    p = &(*p)->next)
		;
	s = *p;
	if (--s->refs > 0)
		return;
	*p = s->next;
	free(s);
	if (--set->n == 0)
		sched_shape_clear(set);
}

void
sched_shape_clear(struct sched_shapes *set)
{
	struct sched_shape	*s, *next;
	size_t			 i;

	for (i = 0; i < set->size; i++) {
		for (s = set->bucket[i]; s != NULL; s = next) {
			next = s->next;
			free(s);
		}
	}
	free(set->bucket);
	set->bucket = NULL;
	set->size = set->n = 0;
}
