/* sched-group.c: groups by id in an open-addressed table of pointers
 * (linear probing; removal shifts the run back, so no tombstones). */
#include <stdlib.h>

#include "policy/sched-group.h"

static size_t
sched_group_hash(uint64_t id, size_t size)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return ((size_t)id & (size - 1));
}

static void
sched_group_place(struct sched_group **slot, size_t size,
    struct sched_group *g)
{
	size_t	i;

	for (i = sched_group_hash(g->id, size); slot[i] != NULL;
	    i = (i + 1) & (size - 1))
		;
	slot[i] = g;
}

static void
sched_group_grow(struct sched_groups *t)
{
	struct sched_group	**slot;
	size_t			  size = t->size != 0 ? t->size * 2 : 16, i;

	if ((slot = calloc(size, sizeof *slot)) == NULL)
		abort();
	for (i = 0; i < t->size; i++) {
		if (t->slot[i] != NULL)
			sched_group_place(slot, size, t->slot[i]);
	}
	free(t->slot);
	t->slot = slot;
	t->size = size;
}

static size_t
sched_group_index(const struct sched_groups *t, uint64_t id)
{
	size_t	i;

	if (t->size == 0)
		return (SIZE_MAX);
	for (i = sched_group_hash(id, t->size); t->slot[i] != NULL;
	    i = (i + 1) & (t->size - 1)) {
		if (t->slot[i]->id == id)
			return (i);
	}
	return (SIZE_MAX);
}

struct sched_group *
sched_group_find(const struct sched_groups *t, uint64_t id)
{
	size_t	i = sched_group_index(t, id);

	return (i != SIZE_MAX ? t->slot[i] : NULL);
}

struct sched_group *
sched_group_join(struct sched_groups *t, uint64_t id, uint32_t cap,
    uint32_t gpu_cap)
{
	struct sched_group	*g;

	if ((g = sched_group_find(t, id)) == NULL) {
		if ((t->n + 1) * 2 > t->size)
			sched_group_grow(t);
		if ((g = calloc(1, sizeof *g)) == NULL)
			abort();
		g->id = id;
		sched_group_place(t->slot, t->size, g);
		t->n++;
	}
	g->cap = cap;
	g->gpu_cap = gpu_cap;
	g->members++;
	return (g);
}

void
sched_group_leave(struct sched_groups *t, struct sched_group *g)
{
	size_t	i, j, k;

	if (--g->members > 0)
		return;
	i = sched_group_index(t, g->id);
	free(g);
	t->slot[i] = NULL;
	t->n--;
	/* Moves back each entry of the run after i that i's emptiness
	 * would hide from its probe. */
	for (j = (i + 1) & (t->size - 1); t->slot[j] != NULL;
	    j = (j + 1) & (t->size - 1)) {
		k = sched_group_hash(t->slot[j]->id, t->size);
		if ((j > i && (k <= i || k > j)) ||
		    (j < i && (k <= i && k > j))) {
			t->slot[i] = t->slot[j];
			t->slot[j] = NULL;
			i = j;
		}
	}
}

void
sched_group_clear(struct sched_groups *t)
{
	size_t	i;

	for (i = 0; i < t->size; i++)
		free(t->slot[i]);
	free(t->slot);
	t->slot = NULL;
	t->size = t->n = 0;
}
