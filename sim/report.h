/* report.h: what gsim prints of a replay: per policy the JCT figures
 * (average, median, p95, p99), queueing delay, makespan, GPU utilization,
 * preemptions and promotions, the wait of each GPU-size class and how
 * fairly users were served (report-fair.h), as a table with the policies
 * side by side or as JSON, and with --predictions how well run times were
 * predicted (report-predict.h); per job a CSV row (the JCT CDFs as a
 * gnuplot PNG are plot.h's). Times are seconds. */
#ifndef GB_SIM_REPORT_H
#define GB_SIM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/report-fair.h"
#include "sim/sim.h"

/* The GPU-size classes whose waits are reported: 1, 2-8, 9-31 and 32+
 * GPUs (a CPU job is in none). */
#define REPORT_SIZES	4

/* The wait (first start less submit) of a size class's jobs. */
struct report_wait {
	size_t		jobs;		/* 0: avg and max mean nothing */
	double		avg, max;
};

/* One replay: its label (as given with -p), conf and result. */
struct report_run {
	char			*label;		/* owned by the caller */
	/* gsim --elastic's run (sim-elastic.h): conf is only the
	 * others'. */
	bool			 elastic;
	bool			 oracle;	/* its speedups the tables' */
	struct sched_conf	 conf;
	struct sim_result	 result;
};

struct report_figures {
	double		avg_jct, median_jct, p95_jct, p99_jct;
	double		avg_wait;	/* JCT less the time spent running */
	double		makespan;
	/* Busy GPU-time / (GPUs x makespan), a job of shards busy for its
	 * part of a GPU (sim_cluster_held). */
	double		utilization;
	uint64_t	preemptions, promotions;
	struct report_wait waits[REPORT_SIZES];
	/* The jobs that opt in to time-slicing (in every run, so that a
	 * run without compares): their count, their waits to first start
	 * (median and average), and the run's switches and time jobs spent
	 * suspended for others' turns. */
	size_t		sliced;
	double		sliced_first_median, sliced_first_avg;
	uint64_t	switches;
	double		suspended;
};

struct report {
	const char		*trace_path;
	const struct sim_trace	*trace;
	struct sim_cluster	 cluster;
	int64_t			 overhead_ms;
	bool			 even_shapes;	/* gsim --shape even */
	uint64_t		 seed;
	struct report_run	*runs;
	size_t			 nruns;
	struct report_fair	 fair;		/* the shares and users */
};

void	report_figures(const struct report *, const struct report_run *,
	    struct report_figures *);
/* The JCTs (ms) of a run's jobs, sorted; a new array of njobs entries. */
int64_t	*report_sorted_jcts(const struct report *, const struct report_run *);
/* The policies side by side, one figure per line. */
void	report_text(const struct report *, FILE *);
/* One JSON object with the settings and each run's figures. */
int	report_json(const struct report *, FILE *);
/* One CSV line per job and run. Returns 0 or -1 (errno set). */
int	report_jobs(const struct report *, FILE *);

#endif
