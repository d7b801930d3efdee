/* sim-apps.h: the applications a trace's jobs train (gsim --apps), read
 * once for all runs: each name the trace gives is read from DIR/NAME
 * (sim-app.h), and each job that trains one is told which (its app_index) and
 * how long it would take on its GPUs packed on the fewest nodes of the
 * cluster (its duration, which srtf and the predictor read: the policies
 * never see its placements' speed). */
#ifndef GB_SIM_SIM_APPS_H
#define GB_SIM_SIM_APPS_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim-app.h"
#include "sim/sim-cluster.h"
#include "sim/sim-trace.h"

struct sim_apps {
	struct sim_app	**v;
	size_t		  n;
};

/* Reads from dir the applications t's jobs name, caps their local batch
 * sizes by caps ("NAME=N,NAME=N": --app-max-local; NULL: none), and sets
 * the jobs' app_index and duration on cl. Returns 0, or -1 with err naming
 * the job's file and line, or the application's file. A trace with no
 * application and no dir is 0 with nothing read; jobs that train one
 * with no dir are an error. */
int	sim_apps_load(struct sim_apps *, const char *dir, const char *caps,
	    const char *path, struct sim_trace *t, const struct sim_cluster *cl,
	    char *err, size_t errlen);
void	sim_apps_free(struct sim_apps *);

#endif
