/* sim-interfere.h: gsim --interference F: a job on several nodes that
 * shares a node with another such job runs 1 / (1 + F) as fast while it
 * does (their all-reduces share the node's network), as Pollux's study
 * injects 25-50% slowdowns for co-located distributed jobs. Pure. */
#ifndef GB_SIM_INTERFERE_H
#define GB_SIM_INTERFERE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/place.h"

struct sim_interfere {
	uint32_t	*count;		/* distributed parts a node holds */
	size_t		 size;
};

/* Counts the parts of allocs[i][0..nallocs[i]) on nodes < nnodes, for
 * the n running jobs given, and sets slowed[i]: whether job i runs on
 * several nodes, one of which holds a part of another such job. */
void	sim_interfere_judge(struct sim_interfere *, size_t nnodes,
	    const struct place_alloc *const *allocs, const size_t *nallocs,
	    size_t n, bool *slowed);
void	sim_interfere_free(struct sim_interfere *);

#endif
