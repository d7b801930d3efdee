/* sim.h: the event-driven replay of a trace through policy/ on a virtual
 * clock. Deterministic: the same trace, cluster, conf and seed give the same
 * result, byte for byte. */
#ifndef GB_SIM_SIM_H
#define GB_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/fairshare.h"
#include "policy/place.h"
#include "policy/predict.h"
#include "policy/sched-conf.h"
#include "sim/sim-app.h"
#include "sim/sim-cluster.h"
#include "sim/sim-trace.h"

/* What happened to trace job i (same index as in the trace). */
struct sim_job_result {
	int64_t		start_ms;	/* first start */
	int64_t		end_ms;		/* completion */
	uint32_t	preemptions;
	uint32_t	promotions;
	uint32_t	nodes;		/* nodes of its first placement */
	/* Time-slicing: the ms it spent suspended for other jobs' turns
	 * (apart from its run time and its waits in the queue), and the
	 * times it was. */
	int64_t		suspended_ms;
	uint32_t	switches;
};

/* One stretch a job held its GPUs, from a start to its end or preemption
 * (restart overhead included: the GPUs are held). */
struct sim_span {
	size_t		job;		/* trace index */
	int64_t		start_ms, end_ms;
};

/* The most passes one instant of a replay runs (sim_result's
 * unsettled). */
#define SIM_ROUNDS	1000

struct sim_result {
	struct sim_job_result	*jobs;		/* trace->njobs entries */
	size_t			 njobs;
	/* Every run of every job, in the order they ended: a job's own are
	 * in time order, which the fairness figures (fair.h) rest on. */
	struct sim_span		*spans;
	size_t			 nspans, spansize;
	int64_t			 makespan_ms;	/* last end - first submit */
	/* GPU-ms allocated to jobs, a job of shards its part of a GPU's
	 * (sim_cluster_held). */
	uint64_t		 busy_gpu_ms;
	uint64_t		 preemptions;
	uint64_t		 promotions;
	uint64_t		 switches;	/* time-slicing's suspends */
	uint64_t		 passes;	/* scheduling passes run */
	/* Instants at which SIM_ROUNDS passes still changed something
	 * (a preemption cycle in the policy: the replay goes on, but its
	 * figures are not to be trusted). */
	uint64_t		 unsettled;
	/* With sim_opts' predictions, what the predictor said of each job
	 * (trace->njobs entries) at its submit, from the jobs ended before
	 * it; NULL without. */
	struct predict_guess	*guesses;
};

struct sim_opts {
	/* Seconds a job loses on each restart after a preemption (restoring
	 * its checkpoint), in ms; 0 matches the Tiresias simulator. */
	int64_t		  overhead_ms;
	/* What a job loses each time it resumes after a suspension for
	 * another's turn (time-slicing: its processes thawed, their GPU
	 * state where it was), in ms. */
	int64_t		  switch_ms;
	/* A job without num_nodes takes an even split when larger than a
	 * node, as gbatchd places a job that asks for no shape; false: any
	 * split, as the Tiresias simulator (and sbatch --any-shape). */
	bool		  even_shapes;
	/* Called now and then with jobs finished so far; may be NULL. */
	void		(*progress)(void *, size_t done, size_t total);
	void		 *progress_arg;
	/* Called with the core before the jobs come, to set its rules
	 * between preemption classes (sim-part.c's QOS); may be NULL. */
	void		(*rules)(void *, struct sched_core *);
	void		 *rules_arg;
	/* Passes run at the multiples of this only (gsim --interval, as
	 * Pollux's simulator schedules every 60 s): arrivals, ends and
	 * wake-ups wait for the next. 0: at each of them. */
	int64_t		  interval_ms;
	/* The applications the trace's jobs train (a job's app_index):
	 * their jobs run for their epochs at their placements' speed, and
	 * pay overhead_ms at each start, the first too (gsim --apps). */
	const struct sim_app *const *apps;
	size_t		  napps;
	/* A job of the trace's own durations on several nodes runs 1 / (1
	 * + interference) as fast while a node of its holds a part of
	 * another such job (gsim --interference); 0: never slowed. */
	double		  interference;
	/* Fair share's half-life (sched_conf's fairshare; 0: no decay). */
	int64_t		  fs_half_life_ms;
	/* Learns run times as the trace is replayed even where the policy
	 * reads none, and keeps each job's guess in the result (gsim
	 * --predictions). The schedule is the same with or without. */
	bool		  predictions;
	/* Fair share's tree (gsim --shares), strings borrowed for the
	 * replay; none: every account and user of the trace one share. */
	const struct fairshare_account	*fs_accounts;
	size_t				 fs_naccounts;
	const struct fairshare_user	*fs_users;
	size_t				 fs_nusers;
};

/* What job tj needs beside its GPUs: its CPUs and memory spread over its
 * GPUs, or where the trace gives none the node's share per GPU. */
void	sim_job_res(const struct sim_job *tj, struct place_res *r);
/* What tj asks of the placement (its GPUs, shape, shards, and r, which
 * this fills, beside them), as the core asks it; even: a job larger
 * than a node takes an even split (gsim --shape even). */
void	sim_job_want(const struct sim_job *tj, bool even, struct place_res *r,
	    struct place_want *w);

/* Replays trace on cluster under conf. Every job must fit the cluster (the
 * caller checks, naming the line). Returns 0 and fills result (freed with
 * sim_result_free), or -1 with the reason in err. */
int	sim_run(const struct sim_trace *, const struct sim_cluster *,
	    const struct sched_conf *, const struct sim_opts *,
	    struct sim_result *, char *err, size_t errlen);
void	sim_result_free(struct sim_result *);
/* Keeps job idx's run over [from, to) in res; an empty one (started and
 * preempted at one instant) held nothing. */
void	sim_result_span(struct sim_result *, size_t idx, int64_t from,
	    int64_t to);

#endif
