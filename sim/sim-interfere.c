/* sim-interfere.c: which running jobs slow each other (sim-interfere.h). */
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "sim/sim-interfere.h"

void
sim_interfere_judge(struct sim_interfere *f, size_t nnodes,
    const struct place_alloc *const *allocs, const size_t *nallocs, size_t n,
    bool *slowed)
{
	size_t	i, k;

	if (f->size < nnodes) {
		f->count = xreallocarray(f->count, nnodes, sizeof *f->count);
		f->size = nnodes;
	}
	memset(f->count, 0, nnodes * sizeof *f->count);
	for (i = 0; i < n; i++) {
		if (nallocs[i] < 2)
			continue;
		for (k = 0; k < nallocs[i]; k++) {
			if (allocs[i][k].node < nnodes)
				f->count[allocs[i][k].node]++;
		}
	}
	for (i = 0; i < n; i++) {
		slowed[i] = false;
		for (k = 0; nallocs[i] >= 2 && k < nallocs[i]; k++) {
			if (allocs[i][k].node < nnodes &&
			    f->count[allocs[i][k].node] >= 2)
				slowed[i] = true;
		}
	}
}

void
sim_interfere_free(struct sim_interfere *f)
{
	free(f->count);
	f->count = NULL;
	f->size = 0;
}
