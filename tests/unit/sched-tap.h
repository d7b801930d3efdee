/* sched-tap.h: what the scheduling core's tests share: one pass at now,
 * its actions kept, and whether it took one of a type on a job. Static, as
 * tap.h is: each test program includes it once. */
#ifndef GB_SCHED_TAP_H
#define GB_SCHED_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/sched-core.h"

static const struct sched_action	*t_acts;
static size_t				 t_nacts;

/* Runs a pass at now; returns how many actions it took (t_acts). */
static size_t __attribute__((unused))
t_pass(struct sched_core *core, int64_t now)
{
	t_nacts = sched_core_pass(core, now, &t_acts);
	return (t_nacts);
}

/* Whether the last pass took an action of type on j. */
static bool __attribute__((unused))
t_did(enum sched_action_type type, const struct sched_cjob *j)
{
	size_t	i;

	for (i = 0; i < t_nacts; i++) {
		if (t_acts[i].type == type && t_acts[i].job == j)
			return (true);
	}
	return (false);
}

#endif
