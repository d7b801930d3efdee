/* acct-series.h: the cluster over time, for gacct --report timeline and
 * gtop's sparklines. The range [since, until) is cut into bins of equal
 * length (to the second: bin i starts at since + ceil(i x L / n) for a
 * range of L seconds in n bins), and each bin sums what overlapped it:
 *
 * - the GPU-seconds of runs and the job-seconds running (one per run);
 * - the capacity: GPU-seconds of nodes that were up (acct-report.h says
 *   when a node counts as up);
 * - the job-seconds alive: from a job's submit to its end, or to until for
 *   a job not ended by then. Waiting is alive less running: held jobs are
 *   waiting too, as squeue shows them pending;
 * - the jobs that ended in the bin.
 *
 * Averages over a bin are its sums over its length. No I/O and no clock:
 * intervals are arguments, clipped to the range here, each added in
 * constant time (partial bins at its ends, a difference array between).
 * The sums of every bin equal the totals acct-report.c computes for the
 * whole range. */
#ifndef GB_CTL_ACCT_SERIES_H
#define GB_CTL_ACCT_SERIES_H

#include <stddef.h>
#include <stdint.h>

/* Bins a series may have; a range shorter than its bins in seconds gets
 * a bin per second. */
#define ACCT_SERIES_MAX_BINS	1000

struct acct_series_bin {
	int64_t		 start;		/* seconds, inclusive */
	int64_t		 end;		/* exclusive */
	uint64_t	 jobs;		/* ended in [start, end) */
	uint64_t	 gpu_s;		/* GPU-seconds used */
	uint64_t	 capacity_s;	/* GPU-seconds of up nodes */
	uint64_t	 run_s;		/* job-seconds running */
	uint64_t	 wait_s;	/* job-seconds alive, not running */
};

struct acct_series;

/* bins is clamped to [1, ACCT_SERIES_MAX_BINS] and to the range's
 * seconds; an empty range has no bins. */
struct acct_series *acct_series_create(int64_t since, int64_t until,
		     int bins);
void		 acct_series_free(struct acct_series *);

/* A job submitted at submit that ended at end (0: not ended by until). */
void		 acct_series_job(struct acct_series *, int64_t submit,
		     int64_t end);
/* A run holding milli thousandths of GPUs (a job of shards its
 * fraction of one) from start to end (0: not ended). */
void		 acct_series_run(struct acct_series *, int64_t start,
		     int64_t end, uint32_t milli);
/* A node of gpus GPUs up from start to end. */
void		 acct_series_capacity(struct acct_series *, int64_t start,
		     int64_t end, uint32_t gpus);
/* Adds what was fed to from (over the same range and bins) into into. */
void		 acct_series_merge(struct acct_series *into,
		     const struct acct_series *from);

/* The bins, oldest first, valid until acct_series_free; the first call
 * ends the feeding. */
size_t		 acct_series_bins(struct acct_series *,
		     const struct acct_series_bin **);

#endif
