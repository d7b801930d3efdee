/* core-resv.c: advance reservations in the controller's core. Each
 * reservation not ended is a window of the scheduling core on the nodes
 * it names (policy/sched-window.h, which decides who may use a node
 * when); a job of one carries its window's id. A job whose reservation
 * has not started waits outside the core, as one with a begin time does
 * (reason Reservation, woken at the start); one whose reservation is gone
 * (ended, deleted) waits outside it for good (ReservationDeleted), as
 * Slurm's do, until it is cancelled. A reservation that has ended is
 * deleted before the next pass, and its running jobs were held to its
 * end by their time limit on their nodes (core_resv_limit). Any change of
 * the reservations rebuilds the core: they change a few times a day. */
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/core-int.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/resv.h"
#include "policy/sched-core.h"

/* The wall clock's second, from the clock the passes read: time() may
 * lag it by a tick, and a reservation ending at a second a pass sees
 * begun is over. */
static int64_t
core_resv_now(void)
{
	return (ctx_now_ms() / 1000);
}

struct resv_tab *
core_resv(void)
{
	return (&core.resv);
}

void
core_resv_changed(void)
{
	core.stale = true;
	core_mark_dirty();
}

void
core_resv_windows(void)
{
	const struct resv	*r;
	uint32_t		*idx;
	size_t			 i, n;
	uint32_t		 k;
	int64_t			 now = core_resv_now();

	if (core.resv.n == 0)
		return;
	idx = xcalloc(core.nnodes + 1, sizeof *idx);
	for (i = 0; i < core.resv.n; i++) {
		r = &core.resv.v[i];
		if (r->end <= now)
			continue;
		for (k = 0, n = 0; k < core.nnodes; k++) {
			if (resv_tab_has_node(r, node_name(core.nodes[k])))
				idx[n++] = k;
		}
		sched_core_window_set(core.sc, r->id, r->start * 1000,
		    r->end * 1000, (r->flags & RESV_F_MAINT) != 0, idx, n);
	}
	free(idx);
}

void
core_resv_spec(const struct job *j, struct sched_jobspec *spec)
{
	const struct resv	*r;

	if (*job_reservation(j) != '\0' && (r = resv_tab_find(&core.resv,
	    job_reservation(j))) != NULL)
		spec->resv = r->id;
}

bool
core_resv_before(struct job *j, int64_t now)
{
	const struct resv	*r;

	if (*job_reservation(j) == '\0')
		return (false);
	if ((r = resv_tab_find(&core.resv, job_reservation(j))) == NULL ||
	    r->end * 1000 <= now) {
		job_set_reason(j, "ReservationDeleted");
		return (true);
	}
	if (r->start * 1000 <= now)
		return (false);
	job_set_reason(j, "Reservation");
	if (r->start * 1000 < core.next_begin)
		core.next_begin = r->start * 1000;
	return (true);
}

bool
core_resv_expire(void)
{
	return (resv_expire(&core.resv, core_resv_now()) > 0);
}

int64_t
core_resv_next_end(void)
{
	int64_t	at = SCHED_NEVER;
	size_t	i;

	for (i = 0; i < core.resv.n; i++) {
		if (core.resv.v[i].end * 1000 < at)
			at = core.resv.v[i].end * 1000;
	}
	return (at);
}

uint64_t
core_resv_limit(const struct job *j, int64_t start)
{
	const struct resv	*r;
	uint64_t		 limit = job_time_limit(j), left;

	if (*job_reservation(j) == '\0' || (r = resv_tab_find(&core.resv,
	    job_reservation(j))) == NULL)
		return (limit);
	/* A run is over by its reservation's end: a second at least, so
	 * that 0 (no limit) is never sent for it. */
	left = r->end > start ? (uint64_t)(r->end - start) : 1;
	return (limit == 0 || left < limit ? left : limit);
}
