/* sched-core.h: the Tiresias scheduling core. It holds every active job
 * (pending, running, preempting) in order of priority and the cluster's
 * GPUs, is told what happens (submit, end, stop, node up or down) and
 * answers a pass with actions: start job J on these GPUs, preempt job K.
 * gbatchd feeds it real events and gsim a trace on a virtual clock; the
 * same code decides in both.
 *
 * Pure: no I/O, no clock. `now` is an argument, in milliseconds on any
 * fixed origin; service is GPU-milliseconds. Events cost O(log n); a pass
 * walks the pending jobs once in order and costs O(1) for a job that
 * cannot start. See docs/scheduling.md for the rules. */
#ifndef GB_SCHED_CORE_H
#define GB_SCHED_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/place.h"
#include "policy/sched-conf.h"
#include "policy/sched.h"

#define SCHED_NEVER	INT64_MAX

/* Preemption classes (sched_jobspec's pclass). */
#define SCHED_CLASSES	256

struct sched_core;
struct sched_cjob;

/* What the caller tells the core of a new job. A job coming back after a
 * controller restart carries the service it had. */
struct sched_jobspec {
	uint64_t	 id;		/* unique; breaks every tie */
	uint32_t	 gpus;		/* 0: a CPU job, of res alone */
	/* An elastic job (gsub -G MIN-MAX): gpus is the fewest GPUs it
	 * runs on and gpus_max the most; 0 (or not above gpus): a rigid
	 * job. A pass orders and starts it as a job of gpus; the GPUs still
	 * free at the pass's end then go to the elastic jobs it started, in
	 * the order they started, each up to gpus_max where its shape, its
	 * limits and the nodes it may use can place them (sched-core-
	 * elastic.c). Stopped and requeued, it asks for gpus again. */
	uint32_t	 gpus_max;
	int64_t		 submit;	/* ms */
	int64_t		 duration;	/* ms; srtf only (0: unknown) */
	bool		 consolidate;	/* insists on the fewest nodes */
	bool		 own_placement;	/* placement below, not the conf's */
	enum sched_placement placement;
	/* It may not be requeued (gsub --no-requeue, grun without
	 * --preemptible): never chosen as a victim. */
	bool		 no_requeue;
	/* Jobs of one group (a job array: its id) with cap > 0 hold GPUs
	 * at most cap at a time; a pass passes over the others with
	 * SCHED_REASON_GROUP_CAP. group 0 or cap 0: no cap. */
	uint64_t	 group;
	uint32_t	 group_cap;
	/* The caller's limits on the job (its association's and its
	 * accounts'), nlimits of them: each a group of jobs by id (unique
	 * among them and the arrays' ids) with a cap on its members running
	 * at once and on the GPUs they hold (0: none), and the reason a job
	 * waits at each. A pass passes over a job that one of them would
	 * take past its cap; it preempts nothing for it. */
	struct sched_limit {
		uint64_t	 id;
		uint32_t	 jobs;
		uint32_t	 gpus;
		uint8_t		 jobs_reason;	/* enum sched_reason */
		uint8_t		 gpus_reason;
	}		 limits[SCHED_MAX_LIMITS];
	uint32_t	 nlimits;
	/* The nodes (place.h's indexes) the job may run on, nnodes of them
	 * (copied); NULL: any. Such a job takes GPUs on them alone, and
	 * preempts only jobs that hold GPUs there. With nsets > 1 they are
	 * that many sets, tried in order (a job's partitions, the first that
	 * holds it wins): nodes[0..nsets) is where each set ends, counted
	 * from nodes + nsets, and the sets follow one after another. */
	const uint32_t	*nodes;
	uint32_t	 nnodes;
	uint32_t	 nsets;		/* 0 or 1: nodes is one set */
	/* Its tier (a partition's or QOS's priority tier): a pass serves a
	 * higher tier first, and a job preempts only jobs of its tier or
	 * lower; within a tier the policy orders. 0 for all: as without. */
	uint8_t		 tier;
	/* Its preemption class (the caller's: a QOS each): across tiers a
	 * job preempts only jobs of the classes its own may preempt
	 * (sched_core_preempt_rule); 0 for all: as without. */
	uint8_t		 pclass;
	/* Among the waiting jobs of its tier and queue, a higher urgency
	 * first, the policy's order among equals (the caller's priority -
	 * nice); 0 for all: as without. Running jobs keep their order. */
	int32_t		 urgency;
	/* Its shape (place.h's place_want): num_nodes > 0 asks for exactly
	 * that many nodes with gpus / num_nodes GPUs each; otherwise one node
	 * when one holds the job, else an even split, or any split at all
	 * with any_shape. */
	uint32_t	 num_nodes;
	bool		 any_shape;
	/* The CPUs and memory it needs beside its GPUs on each node
	 * (place.h); all 0: none. */
	struct place_res res;
	/* What backfill knows of how long it runs (ms; 0: not known): a
	 * run's time limit, its end for sure (a job adopted running: what
	 * is left of it), and the run time in all predicted from history,
	 * its likely end. A job behind a promise may use its prediction to
	 * show it ends in time only if it can be requeued (!no_requeue).
	 * Advance reservations read the limit alone: a job may start on a
	 * node a window holds later only if its limit ends it by then. */
	int64_t		 limit;
	int64_t		 expect;
	/* Its fair-share leaf (the caller's number for its user and
	 * account, < SCHED_FS_LEAVES), whose standing
	 * sched_core_fairshare_set gives. */
	uint32_t	 fs_leaf;
	/* gittins with sched_conf's gittins_similar: the GPU-times (GPU-ms,
	 * any order; copied) of the finished jobs like it, its Gittins
	 * index's distribution in place of the cluster's; none: the
	 * cluster's. */
	const uint64_t	*gsamples;
	uint32_t	 ngsamples;
	/* The advance reservation it runs in (sched_core_window_set's id),
	 * 0 for none: it runs on its window's nodes alone, while the window
	 * is open (sched-window.h). */
	uint64_t	 resv;
	void		*arg;		/* the caller's, handed back */
	uint64_t	 attained;	/* GPU-ms received so far */
	int64_t		 executed;	/* ms run since the last promotion */
	int64_t		 total_executed;/* ms run in all */
	int64_t		 first_start;	/* ms, or SCHED_NEVER */
	int64_t		 last_stop;	/* ms it last stopped running */
	/* sched_core_adopt: the job is being preempted already (found so
	 * after a restart); a job needing GPUs waits for it to stop. */
	bool		 preempting;
	/* sched_core_adopt: the job is suspended (found so after a
	 * restart): it holds its GPUs, frozen (sched_core_suspend). */
	bool		 suspended;
	/* Time-slicing (sched_conf's time_slice; sched-core-slice.c): the
	 * job may share its GPUs in turns with other such jobs, and
	 * declares gpu_mem MB of each GPU's memory (0: not known). With
	 * suspended, sched_core_adopt: it waits its turn (suspended by
	 * time-slicing, not by an operator). */
	bool		 time_slice;
	uint32_t	 gpu_mem;
	bool		 sliced;
	/* Not 0: the job takes that many shards of one GPU (gpus 1), on a
	 * node that offers its GPUs in shards (place-shard.c), and runs
	 * beside the other jobs holding the rest. */
	uint32_t	 shards;
	uint32_t	 preemptions;	/* counted so far */
	uint32_t	 resizes;	/* an elastic job's, so far */
	uint32_t	 promotions;
};

enum sched_action_type {
	SCHED_ACT_START,	/* job now holds its GPUs (sched_cjob_alloc) */
	SCHED_ACT_PREEMPT,	/* checkpoint and stop it; then sched_core_stopped */
	/* An elastic job is resized: checkpoint and stop it as for
	 * SCHED_ACT_PREEMPT; once stopped, the next pass starts it first,
	 * on its new count (sched-core-elastic.c). */
	SCHED_ACT_RESIZE,
	/* Time-slicing: freeze the job on its GPUs, its turn over (it is
	 * SCHED_JOB_SUSPENDED, sched_cjob_sliced); thaw it, its turn come
	 * (SCHED_JOB_RUNNING again). A job started on GPUs another job of
	 * its ring holds comes as SCHED_ACT_START, after that job's
	 * SCHED_ACT_SUSPEND in the same pass. */
	SCHED_ACT_SUSPEND,
	SCHED_ACT_RESUME,
};

struct sched_action {
	enum sched_action_type	 type;
	struct sched_cjob	*job;
};

struct sched_core	*sched_core_create(const struct sched_conf *);
void			 sched_core_free(struct sched_core *);
/* The core's cluster: add nodes and mark them up or down through it. A
 * node going down does not free its jobs' GPUs; the caller stops or ends
 * those jobs. */
struct place_cluster	*sched_core_cluster(struct sched_core *);
/* Whether a job of class p may preempt one of class r of a lower tier
 * (the caller's rules between QOS; within a tier the policy alone
 * decides). Until a rule is set, any may; set before the jobs come. */
void			 sched_core_preempt_rule(struct sched_core *,
			     unsigned p, unsigned r, bool may);

/* Fair share (sched_conf's fairshare): leaf's standing, 0 first, equal
 * for a tie (fairshare.h's); every leaf's is 0 until set. The waiting
 * jobs of the leaf are ordered again, O(their number x log n). */
#define SCHED_FS_LEAVES	(1u << 24)
void			 sched_core_fairshare_set(struct sched_core *,
			     uint32_t leaf, uint32_t standing);
uint32_t		 sched_core_fairshare_get(const struct sched_core *,
			     uint32_t leaf);
/* Fair share's guarantee (sched_conf's fairshare_preempt). A leaf's
 * demand is the GPUs of all its jobs in the core (waiting, running or
 * being stopped); sched_core_fairshare_changes counts the changes to any
 * leaf's demand (a job came or left), so that a caller works out the
 * leaves' parts again only when it moved (fairshare_targets). A leaf's
 * part, in GPUs, is INFINITY until set: it then neither preempts for its
 * share nor is preempted for another's. */
uint64_t		 sched_core_fairshare_demand(const struct sched_core *,
			     uint32_t leaf);
uint64_t		 sched_core_fairshare_changes(const struct sched_core *);
void			 sched_core_fairshare_target(struct sched_core *,
			     uint32_t leaf, double gpus);
/* Advance reservations (sched-window.h): window id (not 0) holds
 * nodes[0..n) (the cluster's indexes) from start to end (ms), a
 * maintenance or not, in place of the one of that id; a job of it carries
 * its id (sched_jobspec's resv). Every pass judges every job against the
 * windows at its now; the next instant a window opens or ends is a
 * wake-up (sched_core_next_wakeup). Cheap to call: the nodes are sorted
 * again at the next pass only. */
void			 sched_core_window_set(struct sched_core *,
			     uint64_t id, int64_t start, int64_t end,
			     bool maint, const uint32_t *nodes, size_t n);
/* Drops window id; its jobs then run nowhere. Whether there was one. */
bool			 sched_core_window_clear(struct sched_core *,
			     uint64_t id);

/* The service ms of spec's run gives, in GPU-ms: its GPUs x ms, or a CPU
 * job's CPUs at their worth in GPUs (sched_conf's cpus_per_gpu). */
uint64_t		 sched_core_service(const struct sched_core *,
			     const struct sched_jobspec *, int64_t ms);

/* A job arrives (pending, in the queue its attained service puts it in).
 * Returns the core's handle, valid until sched_core_end. */
struct sched_cjob	*sched_core_submit(struct sched_core *,
			     const struct sched_jobspec *, int64_t now);
/* A job that is running already (found on a node after a restart) keeps
 * the GPUs in alloc (n entries, which sched_core_adopt_taken must find
 * free), and the CPUs and memory its res says a part of that size takes
 * there. */
struct sched_cjob	*sched_core_adopt(struct sched_core *,
			     const struct sched_jobspec *,
			     const struct place_alloc *, size_t n, int64_t now);
/* The first of alloc's n parts (nodes the core has) whose GPUs a job of
 * spec found on them may not be adopted on: GPUs other jobs hold, but a
 * GPU that offers shards to a job of shards, and a ring's GPUs to a job
 * that takes turns (time_slice): it joins that ring, as it did before the
 * restart (sched-core-slice.c). n where none is. */
size_t			 sched_core_adopt_taken(const struct sched_core *,
			     const struct sched_jobspec *,
			     const struct place_alloc *, size_t n);
/* The job is gone (completed, failed, cancelled, held): its GPUs, if any,
 * are free and the handle is freed. */
void			 sched_core_end(struct sched_core *, struct sched_cjob *,
			     int64_t now);
/* A running or preempting job stopped and is requeued (its checkpoint is
 * taken, or its node was lost): GPUs free, job pending again. */
void			 sched_core_stopped(struct sched_core *,
			     struct sched_cjob *, int64_t now);

/* Suspends running job j at now (gctl suspend, or a round of
 * time-slicing): it keeps its GPUs, which no other job may take, but
 * earns no service, is no victim, is not resized and has no demotion
 * timer or expected end (backfill promises nothing on its GPUs) until
 * sched_core_resume. Returns false, changing nothing, for a job not
 * running. A suspended job may end (sched_core_end) or be stopped
 * (sched_core_stopped: its node was lost) as a running one. */
bool			 sched_core_suspend(struct sched_core *,
			     struct sched_cjob *, int64_t now);
/* Resumes suspended job j at now: running again from where it was, its
 * expected end and demotion put off by the time it was suspended.
 * Returns false, changing nothing, for a job not suspended. */
bool			 sched_core_resume(struct sched_core *,
			     struct sched_cjob *, int64_t now);
/* Jobs suspended now. */
size_t			 sched_core_suspended(const struct sched_core *);
/* Whether j is suspended by time-slicing: it waits its turn on its GPUs
 * and resumes at a pass (SCHED_ACT_RESUME). A job sched_core_suspend
 * suspended is not: it waits for sched_core_resume. */
bool			 sched_cjob_sliced(const struct sched_cjob *);
/* The jobs that share j's GPUs in turns, j among them (1: j alone, or a
 * job not time-sliced). */
uint32_t		 sched_cjob_ring(const struct sched_cjob *);
/* Switches time-slicing has made (each a job suspended for another's
 * turn) since the core was created. */
uint64_t		 sched_core_switches(const struct sched_core *);

/* Gives job a new id and caller's argument, keeping everything else (a
 * job array's pending part started as one task: the task, with its own
 * id, keeps the handle; the rest of the array is submitted again). */
void			 sched_core_rekey(struct sched_core *,
			     struct sched_cjob *, uint64_t id, void *arg);

/* Runs due demotions and promotions, then one pass: starts what fits in
 * priority order (skipping what does not, unless fifo is strict) and
 * preempts lower-priority running jobs for a job that needs their GPUs.
 * Returns the number of actions; *acts points to them until the next call.
 * A job whose victims are preempting waits with SCHED_REASON_PREEMPTING
 * and starts in a later pass, once they have stopped. */
size_t			 sched_core_pass(struct sched_core *, int64_t now,
			     const struct sched_action **acts);
/* When the core next needs a pass though nothing else happens (the next
 * demotion or promotion, or the next instant after the last pass at which
 * a window opens or ends), or SCHED_NEVER. */
int64_t			 sched_core_next_wakeup(const struct sched_core *);

size_t			 sched_core_pending(const struct sched_core *);
/* Calls fn for each pending job in the order a pass considers them: the
 * first is the one that starts first when GPUs allow. */
void			 sched_core_each_pending(const struct sched_core *,
			     void (*fn)(struct sched_cjob *, void *), void *);
/* Numbers the pending jobs 1, 2, ... in that order (sched_cjob_rank). */
void			 sched_core_rank(struct sched_core *);
size_t			 sched_core_running(const struct sched_core *);
/* The queue levels jobs are put in (1 for fifo, whatever the config). */
unsigned		 sched_core_queues(const struct sched_core *);
/* Members of group id holding GPUs now (running or preempting). */
uint32_t		 sched_core_group_holding(const struct sched_core *,
			     uint64_t id);
/* Starvation promotions the core made since it was created. */
uint64_t		 sched_core_promotions(const struct sched_core *);

enum sched_cjob_state {
	SCHED_JOB_PENDING,
	SCHED_JOB_RUNNING,
	SCHED_JOB_PREEMPTING,
	/* Frozen on its GPUs (sched_core_suspend): it keeps them, earns
	 * no service, is no victim and has no timer until resumed. */
	SCHED_JOB_SUSPENDED,
};

void			*sched_cjob_arg(const struct sched_cjob *);
uint64_t		 sched_cjob_id(const struct sched_cjob *);
enum sched_cjob_state	 sched_cjob_state(const struct sched_cjob *);
unsigned		 sched_cjob_queue(const struct sched_cjob *);
/* Service up to now (running time counted to now). */
uint64_t		 sched_cjob_attained(const struct sched_cjob *,
			     int64_t now);
int64_t			 sched_cjob_total_executed(const struct sched_cjob *,
			     int64_t now);
int64_t			 sched_cjob_executed(const struct sched_cjob *,
			     int64_t now);
uint32_t		 sched_cjob_promotions(const struct sched_cjob *);
/* A pending job's place as sched_core_rank last numbered it; 0 for a job
 * that came (or came back) since, or was never numbered. */
uint32_t		 sched_cjob_rank(const struct sched_cjob *);
uint32_t		 sched_cjob_preemptions(const struct sched_cjob *);
/* An elastic job's resizes (SCHED_ACT_RESIZE) so far. */
uint32_t		 sched_cjob_resizes(const struct sched_cjob *);
enum sched_reason	 sched_cjob_reason(const struct sched_core *,
			     const struct sched_cjob *);
/* The time a pending job was promised its GPUs in the last pass
 * (backfill), or SCHED_NEVER when it was not. */
int64_t			 sched_cjob_resv_start(const struct sched_core *,
			     const struct sched_cjob *);
/* An elastic job's speedup on n GPUs over one, s[n] for n < ns (s[0]
 * unused), as the caller's model of it says (what it reported); until
 * set, linear. Copied, each capped at n (no report makes a job more than
 * linear, so none wins a job GPUs by claiming absurd speed), and taken as
 * flat past ns - 1 (no credit for counts not yet explored). Growing a
 * starting job stops where more GPUs add no speedup; a running one is
 * resized only where its speedup grows by half. */
void			 sched_core_elastic_speedup(struct sched_core *,
			     struct sched_cjob *, const double *s,
			     size_t ns);
/* The GPUs a job holds or asks for now: an elastic job's grown count
 * while it runs. */
uint32_t		 sched_cjob_gpus(const struct sched_cjob *);
/* The GPUs a running, preempting or suspended job holds; borrowed. */
const struct place_alloc *sched_cjob_alloc(const struct sched_cjob *,
			     size_t *n);

#endif
