/* sacct-step.h: sacct's lines for a job's steps (JOBID.STEP, after the
 * job's own line unless -X), each field as Slurm prints it for a step:
 * the step's tasks, nodes, state, exit and times; what a step lacks of a
 * job's (its partition, its limit, ...) blank. */
#ifndef GB_SACCT_STEP_H
#define GB_SACCT_STEP_H

#include <stddef.h>
#include <time.h>

#include "client/step-rows.h"

/* A field of a step's line: buf gets its text ("" for none). */
typedef void	(*sacct_step_fn)(const struct step_row *, time_t now,
		    char *buf, size_t len);

/* The step's getter of Slurm's field name (case aside), or NULL when a
 * step's line leaves the field blank. */
sacct_step_fn	sacct_step_field(const char *name);

#endif
