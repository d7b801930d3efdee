/* sim-fit.h: whether every job of a trace fits the idle simulated
 * cluster, in its shape and with its CPUs, memory and shards, before a
 * replay: a job that never fits would keep the replay from ending, so
 * gsim refuses the trace at once, naming the job's line and what would
 * make it fit. */
#ifndef GB_SIM_FIT_H
#define GB_SIM_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/sim-cluster.h"
#include "sim/sim-trace.h"

/* Checks the jobs of t (read from path) against c; even: a job larger
 * than a node takes an even split (gsim --shape even). Returns 0, or -1
 * with "path:LINE: job ID ..." and the remedy in err. */
int	sim_fit_check(const char *path, const struct sim_trace *t,
	    const struct sim_cluster *c, bool even, char *err, size_t errlen);

#endif
