/* acct-report.h: the figures of gacct --report (users, cluster, nodes),
 * aggregated from rows a caller reads (store-acct.c) and feeds in. No I/O
 * and no clock: the range and "now" are arguments, so a unit test feeds
 * hand-made rows and checks hand-computed figures. The definitions are
 * man/gacct.1's, in short:
 *
 * - Job figures (jobs by state, JCT, queueing delay, preemptions) come from
 *   the jobs fed with acct_report_job: the caller feeds those that ended in
 *   the range. JCT is end - submit; percentiles are nearest-rank (the
 *   value at rank ceil(p/100 x n) of the sorted values; the median is p50).
 * - Usage figures come from runs (acct_report_run), each clipped to
 *   [since, until); a run not ended counts up to until. A run's GPUs on
 *   each node are the popcount of that node's mask in its alloc text. A
 *   row's charged figure is its runs' GPU-seconds, each x its weight
 *   (its QOS's usage factor, as the caller gives it).
 * - Capacity is each node's GPUs x the seconds of the range it was not
 *   down. Drained time is capacity (the GPUs are there and may still run
 *   jobs that started before the drain); it is reported on its own, and
 *   only while the node was up. Before a node's first event of a kind the
 *   node is taken to be in the state opposite to that event, except that a
 *   node first seen coming UP was not in the cluster before: that time is
 *   neither down nor capacity. A node with no event of a kind was up, or
 *   not drained, the whole range.
 *
 * Feeding costs a hash lookup per row; acct_report_finish sorts the rows
 * and selects the percentiles (linear on average). */
#ifndef GB_CTL_ACCT_REPORT_H
#define GB_CTL_ACCT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "common/job-state.h"

/* The finished states, in the order of by_state[] below. */
#define ACCT_NSTATES	6
enum job_state	acct_report_state(int i);

/* GPU-count buckets of the cluster report: 1, 2-4, 5-8, more than 8. */
#define ACCT_NBUCKETS	5
const char	*acct_report_bucket_name(int i);
/* JCT ranges of the cluster report (its histogram): under a minute, 1 to
 * 10 minutes, 10 minutes to an hour, 1-4 h, 4-12 h, 12 h to a day, 1-3
 * days, more; each range includes its lower end. */
#define ACCT_NJCT	8
const char	*acct_report_jct_name(int i);

struct acct_report_job {
	const char	*user;
	enum job_state	 state;		/* a finished one; others are ignored */
	uint32_t	 gpus;
	int64_t		 submit_time;	/* seconds */
	int64_t		 end_time;
	int64_t		 queue_delay;	/* ms */
	uint32_t	 preemptions;
	int		 last_queue;
};

struct acct_report_run {
	const char	*user;
	int64_t		 start_time;	/* seconds */
	int64_t		 end_time;	/* 0: not ended */
	uint32_t	 gpus;		/* counted when alloc is unreadable */
	const char	*alloc;		/* "n1:0x3,n2:0xc" */
	/* What a GPU-second of it is charged, in thousandths (budget.h's
	 * BUDGET_MILLI is a factor of 1; qos_weight). */
	uint32_t	 weight;
};

enum acct_node_event {
	ACCT_NODE_UP,
	ACCT_NODE_DOWN,
	ACCT_NODE_DRAINED,
	ACCT_NODE_RESUMED,
};

/* Average, median and 95th percentile of n values (0 when n is 0). */
struct acct_stat {
	uint64_t	 n;
	double		 avg;
	int64_t		 median;
	int64_t		 p95;
};

struct acct_report_user {
	const char	*user;
	uint64_t	 jobs;
	uint64_t	 by_state[ACCT_NSTATES];
	uint64_t	 gpu_s;		/* GPU-seconds of its runs */
	uint64_t	 charged;	/* the same x their weights, 1/1000 */
	struct acct_stat jct;		/* seconds */
	struct acct_stat wait;		/* queueing delay, ms */
	uint64_t	 preemptions;
};

/* A group of jobs in the cluster report: all, a queue level, a bucket. */
struct acct_report_group {
	uint64_t	 jobs;
	uint64_t	 by_state[ACCT_NSTATES];
	struct acct_stat jct;
	struct acct_stat wait;
	uint64_t	 preemptions;
};

struct acct_report_cluster {
	uint64_t	 gpu_s;		/* used */
	uint64_t	 capacity_s;	/* GPU-seconds of up nodes */
	uint64_t	 down_gpu_s;	/* GPU-seconds of down nodes */
	uint64_t	 drained_gpu_s;	/* GPU-seconds of up, drained nodes */
	struct acct_report_group all;
	struct acct_report_group bucket[ACCT_NBUCKETS];
	struct acct_report_group jct[ACCT_NJCT];
	int		 nqueues;	/* queue[0..nqueues-1] */
	const struct acct_report_group *queue;
};

struct acct_report_node {
	const char	*name;
	uint32_t	 gpus;		/* 0: not in the nodes table */
	uint64_t	 gpu_s;		/* allocated to runs */
	uint64_t	 capacity_s;
	int64_t		 down_s;
	int64_t		 drained_s;
};

struct acct_report;

/* A report over [since, until): until is already min(END, now). */
struct acct_report *acct_report_create(int64_t since, int64_t until);
/* Keeps only what the users report shows (its rows and the cluster's
 * GPU-seconds), before anything is fed: the groups of the cluster report
 * and each node's usage are left out, and read as zero. */
void		 acct_report_users_only(struct acct_report *);
/* Keeps the cluster over time too (acct-series.h), in bins: before
 * anything is fed. Its jobs alive are those fed with acct_report_job
 * (every finished state wanted) and with acct_report_alive. */
void		 acct_report_series(struct acct_report *, int bins);
void		 acct_report_free(struct acct_report *);

void		 acct_report_job(struct acct_report *,
		     const struct acct_report_job *);
void		 acct_report_run(struct acct_report *,
		     const struct acct_report_run *);
/* A job not ended by until, for the series: submitted at submit_time. */
void		 acct_report_alive(struct acct_report *, int64_t submit_time);
/* A node of the nodes table. up and drained: the state its last event of
 * each kind before since left (1 or 0), -1 when it has none. */
void		 acct_report_node(struct acct_report *, const char *name,
		     uint32_t gpus, int up, int drained);
/* An event of node, fed in time order after acct_report_node. */
void		 acct_report_node_event(struct acct_report *, const char *name,
		     int64_t time, enum acct_node_event);

/* Ends the feeding and computes the figures; call it once, before the
 * readers below. */
/* Adds what was fed to from into into, before either is finished: two
 * reports over the same range fed different rows (the jobs in one, the
 * runs in the other, say, read side by side) then give the figures one
 * report fed them all would. Node rows and events are not merged: feed
 * them to into alone. */
void		 acct_report_merge(struct acct_report *into,
		     const struct acct_report *from);
void		 acct_report_finish(struct acct_report *);

/* The rows, sorted by name, borrowed until acct_report_free. */
size_t		 acct_report_users(const struct acct_report *,
		     const struct acct_report_user **);
size_t		 acct_report_nodes(const struct acct_report *,
		     const struct acct_report_node **);
const struct acct_report_cluster *acct_report_cluster(
		     const struct acct_report *);
/* The series' bins (none without acct_report_series), borrowed. */
struct acct_series_bin;
size_t		 acct_report_series_bins(const struct acct_report *,
		     const struct acct_series_bin **);

#endif
