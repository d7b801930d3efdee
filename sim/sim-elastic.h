/* sim-elastic.h: gsim's elastic replay (gsim --elastic, issue 36): every
 * job of an application trace may run on any number of GPUs from one to
 * the most its application can use, at the batch size that trains it
 * fastest there (retuned at each epoch's start, as Pollux's agent does,
 * without a restart), and policy/elastic.c shares the GPUs by speedup
 * over work left at each pass (every --interval, 60 s unless given). A
 * job's speedup comes from what it reported (policy/goodput.h): after
 * each interval it trained, the step and sync times of its configuration
 * and its gradient statistics, from its application's tables; a new job
 * starts from the model of the newest job of its name (with the
 * gradient statistics of that job's first report), else knows nothing
 * (linear, on one GPU). Its work left: its epochs still to train over
 * its goodput on one GPU. With oracle, from the tables themselves
 * at its current epoch. GPUs are packed on the fewest nodes; a changed
 * allocation costs the job --overhead, as its first start does.
 * Deterministic. */
#ifndef GB_SIM_SIM_ELASTIC_H
#define GB_SIM_SIM_ELASTIC_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/sim.h"

/* Replays trace's jobs (each must train an application of o's) on cl, as
 * sim_run does, into res. Returns 0, or -1 with err. */
int	sim_elastic_run(const struct sim_trace *trace,
	    const struct sim_cluster *cl, const struct sim_opts *o, bool oracle,
	    struct sim_result *res, char *err, size_t errlen);

#endif
