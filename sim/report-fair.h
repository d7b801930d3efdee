/* report-fair.h: the fairness part of gsim's report: the figures of
 * fair.h for each run, from the trace's users and accounts and the runs'
 * spans, as rows of the text table and as JSON. */
#ifndef GB_SIM_REPORT_FAIR_H
#define GB_SIM_REPORT_FAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "sim/fair.h"
#include "sim/report-table.h"
#include "sim/sim.h"

struct report_fair {
	struct fair_tree	*tree;		/* owned */
	/* Per trace job, its user's node in tree; SIZE_MAX for a CPU job,
	 * which takes no GPU-time and so no part in fairness. */
	size_t			*job_user;
	size_t			 njobs;
	bool			*listed;	/* per node: a GPU job below */
	size_t			 users;		/* the trace's, distinct */
	int64_t			 origin_ms;	/* the first submit */
};

/* Fills rf for trace, taking tree (shares read from --shares, or none),
 * to which each user of the trace is added in its account as
 * fair_tree_leaf adds it. Freed with report_fair_free. */
void	report_fair_init(struct report_fair *, struct fair_tree *,
	    const struct sim_trace *);
void	report_fair_free(struct report_fair *);

/* The figures of one run (result) on cluster, whose shards say what a
 * job of shards holds of its GPU; freed with fair_figures_free. */
void	report_fair_figures(const struct report_fair *,
	    const struct sim_trace *, const struct sim_cluster *,
	    const struct sim_result *, struct fair_figures *);
/* Appends to t, when the trace has more than one user, a blank line and
 * the fairness rows of nruns runs' figures: Jain's index, the lowest
 * window share, then each user's received / entitled, and each account's
 * where the root has more than one account or user below it. */
void	report_fair_rows(const struct report_fair *,
	    const struct fair_figures *, size_t nruns, struct report_table *);
/* One run's "fairness" object, a new reference. */
json_t	*report_fair_json(const struct report_fair *,
	    const struct fair_figures *);

#endif
