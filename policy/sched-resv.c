/* sched-resv.c: backfill's reservation (sched-resv.h). The running jobs
 * give their GPUs back in the order they are expected to end; after each
 * time at which some end, the job is placed as it would be for real, so
 * the promise is a placement it accepts (its shape, partitions, CPUs and
 * memory), not merely a count of GPUs. */
#include <stdint.h>

#include "policy/sched-resv.h"

void
sched_resv_find(struct place_cluster *cl, enum sched_placement how,
    const struct place_want *w, const struct sched_resv_run *runs,
    size_t nruns, size_t max, int64_t now, struct sched_resv *r)
{
	size_t	i, k;

	r->start = SCHED_RESV_NEVER;
	r->nplan = 0;
	r->walked = 0;
	if (max == 0 || max > nruns)
		max = nruns;
	if (place_free_total(cl) >= w->gpus &&
	    (r->nplan = place_find_want(cl, how, w, r->plan)) > 0) {
		r->start = now;
		return;
	}
	for (i = 0; i < max && runs[i].end != SCHED_RESV_NEVER; i = k) {
		/* Every run that ends at the same time gives its GPUs back
		 * before the job is placed: placing it after each would find
		 * a worse placement, or none, at the same time. */
		for (k = i; k < max && runs[k].end == runs[i].end; k++)
			place_release(cl, runs[k].alloc, runs[k].n);
		r->walked = k;
		/* A placement cannot hold more GPUs than are free. */
		if (place_free_total(cl) < w->gpus)
			continue;
		if ((r->nplan = place_find_want(cl, how, w, r->plan)) > 0) {
			/* One already overdue is expected to end any moment:
			 * the promise is for now, not the past. */
			r->start = runs[i].end > now ? runs[i].end : now;
			break;
		}
	}
	for (i = 0; i < r->walked; i++)
		place_take(cl, runs[i].alloc, runs[i].n);
}
