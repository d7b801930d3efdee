/* sched-resv.h: backfill's reservation. The first waiting job that can
 * neither start nor make room by preemption is promised the earliest time
 * at which the GPUs of a placement it accepts will be free, judged from
 * the running jobs' expected ends (a time limit, or a duration predicted
 * from history); jobs behind it start now only if that promise holds:
 * they end by then, or they take none of the GPUs promised (the core's
 * pass keeps that rule: sched-core-backfill.c).
 *
 * Pure: no I/O, no clock. Times are ms on the caller's origin, as the
 * core's. The cluster is borrowed and left as it was found. */
#ifndef GB_SCHED_RESV_H
#define GB_SCHED_RESV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/place.h"
#include "policy/sched-conf.h"

/* A running job as a reservation sees it: the GPUs it holds and when it
 * is expected to give them back (SCHED_RESV_NEVER: not known). */
struct sched_resv_run {
	const struct place_alloc	*alloc;
	size_t				 n;
	int64_t				 end;
};

#define SCHED_RESV_NEVER	INT64_MAX

/* A job's reservation: its start, and the GPUs promised it then. */
struct sched_resv {
	int64_t			 start;	/* ms; SCHED_RESV_NEVER: none */
	struct place_alloc	*plan;	/* the caller's, room for gpus */
	size_t			 nplan;
	size_t			 walked;/* runs released to find it */
};

/* Finds the earliest time at which w (placed as how says) fits: now when
 * it fits in the free GPUs already, else the end of a run of runs[0..
 * nruns), which must be sorted by end, such that with every run ending
 * by then given back a placement holds w. At most max runs are given
 * back (0: all); runs of an unknown end never are. Fills r (r->plan must
 * have room for w->gpus entries, at least one): r->start is
 * SCHED_RESV_NEVER when no time was found. The cluster's GPUs are taken
 * back before it returns; only its generation moved. */
void	sched_resv_find(struct place_cluster *, enum sched_placement how,
	    const struct place_want *w, const struct sched_resv_run *runs,
	    size_t nruns, size_t max, int64_t now, struct sched_resv *r);

#endif
