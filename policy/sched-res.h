/* sched-res.h: what jobs need beside their GPUs (place.h's place_res), one
 * copy shared by the jobs that need the same. A queue holds few distinct
 * needs, most of its jobs the defaults, and a copy a job is 32 bytes and
 * an allocation each of 100,000 pending jobs. The first SCHED_RES_SHARED
 * distinct needs are shared; a need past them is its job's own copy, so a
 * lookup stays a short scan whatever is asked. Pure: no I/O, no clock. */
#ifndef GB_SCHED_RES_H
#define GB_SCHED_RES_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/place.h"

#define SCHED_RES_SHARED	64

struct sched_res;

struct sched_res_set {
	struct sched_res	*shared[SCHED_RES_SHARED];
	size_t			 n;
};

/* The set's copy of r, with one reference more; NULL when r asks for
 * nothing. */
const struct place_res	*sched_res_get(struct sched_res_set *,
			     const struct place_res *r);
/* Gives back a reference sched_res_get took (NULL: none); the copy is
 * freed with its last. */
void			 sched_res_put(struct sched_res_set *,
			     const struct place_res *);
bool			 sched_res_equal(const struct place_res *,
			     const struct place_res *);

#endif
