/* sched-conf.h: what a scheduling policy is told to do: which policy, its
 * queues and thresholds, starvation promotion, placement. Parsed from
 * gbatch.conf by the controller and from flags by gsim; the names and the
 * defaults live here so both agree. Times are milliseconds, service is
 * GPU-milliseconds; callers convert from seconds at their edge. */
#ifndef GB_SCHED_CONF_H
#define GB_SCHED_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCHED_MAX_QUEUES	16
/* What a CPU counts for in service, in CPUs per GPU, while no node's CPUs
 * are known: a common server's (8 GPUs, 64 CPUs). */
#define SCHED_CPUS_PER_GPU	8

enum sched_policy {
	SCHED_FIFO = 0,		/* first come first served, no preemption */
	SCHED_SRTF,		/* shortest remaining time first (known durations) */
	SCHED_DLAS,		/* discretized 2D-LAS */
	SCHED_GITTINS,		/* discretized 2D-Gittins */
};

enum sched_placement {
	SCHED_PLACE_CONSOLIDATE = 0,	/* fewest nodes, best fit */
	SCHED_PLACE_YARN,		/* first fit; whole idle nodes for big jobs */
	SCHED_PLACE_SPREAD,		/* the emptiest nodes first */
	SCHED_PLACE_RANDOM,		/* random nodes (seeded) */
};

struct sched_conf {
	enum sched_policy	 policy;
	/* fifo only: the first job that does not fit blocks those behind it
	 * (as YARN's capacity scheduler does). Every other policy, and fifo
	 * with strict false, skips a job that does not fit. */
	bool			 strict;
	unsigned		 nqueues;		/* K, 1..SCHED_MAX_QUEUES */
	/* Upper threshold of queue i in GPU-ms, i < nqueues - 1, rising. */
	uint64_t		 thresholds[SCHED_MAX_QUEUES - 1];
	/* A pending job that has run is promoted to Q0 once it has waited
	 * promote_knob x its executed time since it last stopped; 0: never. */
	double			 promote_knob;
	enum sched_placement	 placement;
	uint64_t		 seed;			/* for random placement */
	/* A CPU job's service: its CPUs count as CPUs / cpus_per_gpu GPUs
	 * while it runs. 0: the cluster's own CPUs per GPU (of the nodes
	 * whose CPUs are known when it comes; SCHED_CPUS_PER_GPU while none
	 * is). */
	uint32_t		 cpus_per_gpu;
	/* Backfill: the first backfill_depth jobs in a pass that can
	 * neither start nor make room by preemption are each promised the
	 * earliest time their GPUs will be free, from the running jobs'
	 * expected ends (sched-resv.h), and jobs behind them start only
	 * where they keep the promises. backfill_window bounds the running
	 * jobs a promise walks (0: all). 0 depth: no promise, a job that
	 * does not fit is skipped as before. */
	uint32_t		 backfill_depth;
	uint32_t		 backfill_window;
	/* Fair share (sched_core_fairshare_set): with fairshare on, the
	 * waiting jobs of a tier are ordered by fskey = their user's
	 * standing + fairshare_queue_weight x their queue, then as the
	 * policy says. Weight 0 serves the user furthest below their share
	 * first, by queue and the policy's order among theirs (least
	 * attained service one level up); a weight W counts a queue level
	 * as W places of standing (a multifactor blend of the two); a large
	 * one keeps Tiresias' queues first, fair share deciding among jobs
	 * of a queue. Not for srtf, whose order is its own. Where every job
	 * has one user, every standing is 0 and the order is as without. */
	bool			 fairshare;
	uint32_t		 fairshare_queue_weight;
	/* Fair share's guarantee: with fairshare on, a waiting job whose
	 * leaf holds less than its part of the cluster (what the caller
	 * gives, sched_core_fairshare_target) may preempt the running jobs,
	 * whatever their queues, of leaves that without them fall short of
	 * their parts by less than its leaf does, as YARN's fair scheduler
	 * preempts for a queue below its fair share. Each such preemption
	 * lowers the largest shortfall, so no two leaves take turns. */
	bool			 fairshare_preempt;
	/* dlas: a waiting job also outranks the running jobs of its own
	 * queue that were submitted after it, and preempts them, and a
	 * queue's waiting jobs are in the order they came, as the Tiresias
	 * and Pollux simulators run their queues at each pass (gsim's
	 * --preempt-in-queue, to compare with their published figures).
	 * Off, the order decides only who gets free GPUs: preempting
	 * within a queue costs restarts for no gain in attained
	 * service. */
	bool			 preempt_in_queue;
	/* Elastic jobs (sched-core-elastic.c): a running one is resized no
	 * sooner than elastic_interval seconds after its start (0: never
	 * once started), and only where the time its larger count saves
	 * pays elastic_overhead seconds, what a restart costs it. */
	uint32_t		 elastic_interval;
	uint32_t		 elastic_overhead;
	/* Time-slicing (sched-core-slice.c): jobs that opt in share their
	 * GPUs in turns of time_slice seconds (0: off), at most slice_jobs
	 * of them on the same GPUs. */
	uint32_t		 time_slice;
	uint32_t		 slice_jobs;
	/* A job placed on several nodes avoids the nodes that hold a part
	 * of another such job where a placement of as many GPUs on as many
	 * nodes exists without them: two distributed jobs sharing a node
	 * slow each other (their all-reduces share its network). */
	bool			 avoid_interference;
	/* gittins: a job whose jobspec brings the GPU-times of the jobs
	 * like it (gsamples) is ordered by those rather than by the
	 * cluster's (gbatch.conf's gittins_history = similar). */
	bool			 gittins_similar;
	/* gittins: GPU-times (GPU-ms) of finished jobs, any order; borrowed
	 * by sched_core_create, which keeps a sorted copy. */
	const uint64_t		*samples;
	size_t			 nsamples;
};

/* Fills conf with the defaults: dlas, 2 queues at 3,600 GPU-s (what
 * Tiresias found works), promotion off, consolidate, strict fifo. */
void		 sched_conf_default(struct sched_conf *);

/* Parsers for a name from a user: return 0, or -1 with "expected ..., got
 * ..." in err. */
int		 sched_conf_policy_parse(const char *, enum sched_policy *,
		     char *, size_t);
int		 sched_conf_placement_parse(const char *, enum sched_placement *,
		     char *, size_t);
/* Parses "3250,7200,18000" (GPU-seconds, strictly rising, positive) into
 * conf's thresholds and sets nqueues to their count plus one. */
int		 sched_conf_thresholds_parse(const char *, struct sched_conf *,
		     char *, size_t);

/* Sets K queues with thresholds from 3,600 GPU-s up, ten times higher
 * each queue (3600, 36000, ...): what K alone means in gsim -K and in
 * gbatch.conf's scheduler.queues. k is 1..SCHED_MAX_QUEUES. */
void		 sched_conf_set_queues(struct sched_conf *, unsigned k);

const char	*sched_conf_policy_name(enum sched_policy);
const char	*sched_conf_placement_name(enum sched_placement);

/* Checks a conf for contradictions (K out of range, thresholds not
 * rising, gittins without samples, a negative knob). */
int		 sched_conf_check(const struct sched_conf *, char *, size_t);

#endif
