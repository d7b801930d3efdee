/* metrics.h: what gbatchd tells a monitoring system, in Prometheus's text
 * exposition format (0.0.4). Two kinds of figures: counters and
 * histograms kept here since the start, which the places where things
 * happen bump with one call each (a submission, a start, a pass's
 * duration); and gauges read from their owners at each scrape (jobs,
 * nodes, connections), which the caller gathers into a struct
 * metrics_gauges. Only aggregates: no user names, no job ids, nothing a
 * scrape could leak (accounts are projects', listed to anyone).
 *
 * Pure: no libevent, no sockets. metrics-http.c serves the text. */
#ifndef GB_CTL_METRICS_H
#define GB_CTL_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/job-state.h"
#include "policy/sched-conf.h"

/* Something happened: one call where it happens. */
void	metrics_count_submit(void);
void	metrics_count_start(void);
void	metrics_count_preempt(void);
void	metrics_count_resize(void);
void	metrics_count_switch(void);	/* a job frozen for another's turn */
void	metrics_count_promotions(uint64_t n);
/* A job reached the terminal state. */
void	metrics_count_finished(enum job_state);
/* The groups of jobs a scrape counts jobs, GPUs and GPU-seconds by: the
 * partition a job runs in (or may run in, pending), the account it is
 * charged to ("" for none), its QOS (the default's name for '', a job
 * from before QOS). */
enum metrics_by {
	METRICS_BY_PARTITION,
	METRICS_BY_ACCOUNT,
	METRICS_BY_QOS,
};
#define METRICS_BY_COUNT	(METRICS_BY_QOS + 1)

/* A run ended, having held GPUs for gpu_seconds in all (GPUs x seconds
 * run): counted for each of its groups, names[METRICS_BY_*]. */
void	metrics_count_gpu_seconds(const char *const names[METRICS_BY_COUNT],
	    uint64_t gpu_seconds);
/* A scheduling pass, a store commit took us microseconds. */
void	metrics_observe_pass_us(int64_t us);
void	metrics_observe_commit_us(int64_t us);
/* Microseconds of a monotonic clock, to time those with. */
int64_t	metrics_clock_us(void);
/* Zeroes every counter and histogram (gbatchd's start). */
void	metrics_reset(void);

/* Connections by kind (the kind label). */
enum metrics_client {
	METRICS_CLIENT_LOCAL,		/* commands on the Unix socket */
	METRICS_CLIENT_RELAYED,		/* commands relayed by a node */
	METRICS_CLIENT_NODE,		/* node daemons */
};
#define METRICS_CLIENT_COUNT	(METRICS_CLIENT_NODE + 1)

/* One node as a scrape sees it; strings are borrowed. */
struct metrics_node {
	const char	*name;
	const char	*state;		/* node_state_name */
	uint32_t	 gpus_total;
	uint32_t	 gpus_allocated;
	uint32_t	 gpus_down;
};

/* One group as a scrape sees it (the name borrowed): its jobs pending
 * and running, and the GPUs the running ones hold. A partition's pending
 * jobs are those that may run in it (a job listing two counts in each),
 * its running ones those that run in it; an account's are those charged
 * to it, not to the accounts below it. */
struct metrics_group {
	const char	*name;
	size_t		 pending;
	size_t		 running;
	uint64_t	 gpus;
};

/* The requests of one type handled since the start (as Slurm's sdiag
 * counts RPCs): how many, and the microseconds their handlers took. */
struct metrics_request {
	const char	*name;		/* the request table's: "JOB_LIST" */
	uint64_t	 count;
	uint64_t	 us;
};

/* What is so at the moment of a scrape. */
struct metrics_gauges {
	/* Active jobs: jobs[state][q] in queue level q, for q below
	 * nqueues; jobs[state][SCHED_MAX_QUEUES] those outside the
	 * scheduler's queues (held, or waiting out a stale copy). */
	size_t				 jobs[JOB_STATE_COUNT]
					     [SCHED_MAX_QUEUES + 1];
	unsigned			 nqueues;
	const struct metrics_node	*nodes;
	size_t				 nnodes;
	/* By partition, account and QOS: every one of the settings or
	 * the table, and any other an active job is of. */
	const struct metrics_group	*groups[METRICS_BY_COUNT];
	size_t				 ngroups[METRICS_BY_COUNT];
	size_t				 clients[METRICS_CLIENT_COUNT];
	const struct metrics_request	*requests;
	size_t				 nrequests;
	int64_t				 start_time;	/* seconds */
};

/* Writes every family, counters and histograms as they stand with g's
 * gauges, to f. Returns 0, or -1 when f reported an error. */
int	metrics_write(FILE *f, const struct metrics_gauges *g);

/* Writes s to f as a label value: backslash, double quote and newline
 * escaped as the exposition format asks. */
void	metrics_write_label(FILE *f, const char *s);

#endif
