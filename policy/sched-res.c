/* sched-res.c: shared copies of jobs' needs beside their GPUs, found by a
 * scan of the few distinct ones. */
#include <stdint.h>
#include <stdlib.h>

#include "policy/sched-res.h"

struct sched_res {
	struct place_res	 r;	/* first: what jobs point at */
	uint32_t		 refs;
	bool			 shared;	/* in the set's shared[] */
};

bool
sched_res_equal(const struct place_res *x, const struct place_res *y)
{
	return (x->cpus_node == y->cpus_node && x->cpus_gpu == y->cpus_gpu &&
	    x->cpus_share == y->cpus_share && x->mem_node == y->mem_node &&
	    x->mem_gpu == y->mem_gpu && x->mem_share == y->mem_share);
}

const struct place_res *
sched_res_get(struct sched_res_set *set, const struct place_res *r)
{
	struct sched_res	*e;
	size_t			 i;

	if (r->cpus_node == 0 && r->cpus_gpu == 0 && !r->cpus_share &&
	    r->mem_node == 0 && r->mem_gpu == 0 && !r->mem_share)
		return (NULL);
	for (i = 0; i < set->n; i++) {
		if (sched_res_equal(&set->shared[i]->r, r)) {
			set->shared[i]->refs++;
			return (&set->shared[i]->r);
		}
	}
	if ((e = calloc(1, sizeof *e)) == NULL)
		abort();
	e->r = *r;
	e->refs = 1;
	if (set->n < SCHED_RES_SHARED) {
		e->shared = true;
		set->shared[set->n++] = e;
	}
	return (&e->r);
}

void
sched_res_put(struct sched_res_set *set, const struct place_res *r)
{
	struct sched_res	*e = (struct sched_res *)(uintptr_t)r;
	size_t			 i;

	if (e == NULL || --e->refs > 0)
		return;
	for (i = 0; e->shared && i < set->n; i++) {
		if (set->shared[i] == e) {
			set->shared[i] = set->shared[--set->n];
			break;
		}
	}
	free(e);
}
