/* sched-core-int.h: the scheduling core's insides, shared by the files that
 * make it up. Not for use outside them; callers have sched-core.h.
 *   sched-core.c          the job table and a job's life through it
 *   sched-cjob.c          a job's record, and what callers read of it
 *   sched-core-order.c    the orders of the pending, running and timer trees
 *   sched-core-mlfq.c     queue levels, demotion and promotion timers
 *   sched-core-place.c    finding a job's GPUs, and why it waits
 *   sched-core-preempt.c  victims, plans, orphans, the waiter bookkeeping
 *   sched-core-pass.c     a pass: what starts, what is preempted
 *   sched-core-backfill.c expected ends, and a pass's promises
 *   sched-core-fairshare.c fair share: the leaves' standings, the keys
 *   sched-core-window.c   advance reservations' windows, what they leave a
 *                         job
 * sched-gittins.c (the Gittins index) and sched-shape.c, sched-group.c,
 * sched-window.c (what jobs ask, array caps, advance reservations'
 * windows) are modules of their own. */
#ifndef GB_SCHED_CORE_INT_H
#define GB_SCHED_CORE_INT_H

#include <sys/queue.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/otree.h"
#include "policy/pool.h"
#include "policy/sched-core.h"
#include "policy/sched-gittins.h"
#include "policy/sched-resv.h"
#include "policy/sched-group.h"
#include "policy/sched-shape.h"
#include "policy/sched-window.h"

/* Tiers a job may be of (its uint8_t). */
#define SCHED_TIERS	256

/* What a job has once it has run: its service, its GPUs while it holds
 * them, its part in a preemption, its timer (a demotion while it runs, a
 * promotion once it waits again with service). Apart from the job, as a
 * large queue is mostly jobs that never ran. Made the first time one member
 * is set (sched_cjob_hold), or with the job when it comes with service,
 * and kept until the job ends. */
struct sched_chold {
	struct sched_cjob		*job;
	uint64_t			 attained;	/* to acct_since */
	int64_t				 executed;	/* to acct_since */
	int64_t				 total_executed;/* to acct_since */
	int64_t				 first_start;	/* or SCHED_NEVER */
	int64_t				 last_stop;
	uint32_t			 promotions;
	uint32_t			 preemptions;
	/* An elastic job's: resizes so far, and its speedups (NULL:
	 * linear) by GPU count, nspeedup of them (sched-core-elastic.c). */
	uint32_t			 resizes;
	uint32_t			 nspeedup;
	double				*speedup;
	struct place_alloc		*alloc;		/* nalloc */
	/* When its current run started (ms): an elastic job is resized no
	 * sooner than sched_conf's elastic_interval after it. */
	int64_t				 started;
	/* Its total_executed when its current run started: what the run
	 * has run since, suspended time apart, is total_executed less it. */
	int64_t				 run_base;
	int64_t				 acct_since;	/* running: last accounted */
	int64_t				 end_key;	/* srtf: projected end */
	/* Backfill: when the running job is expected to end (SCHED_NEVER:
	 * not known, not in the core's ends); when it must be gone, let in
	 * behind a promise on its prediction alone (SCHED_NEVER: not so). */
	int64_t				 expect_end;
	int64_t				 bf_deadline;
	int64_t				 timer;		/* or SCHED_NEVER */
	/* Preemption bookkeeping: the job a victim makes room for, how many
	 * victims a job still waits on, and the GPUs it was promised. */
	struct sched_cjob		*waiter;
	struct place_alloc		*plan;		/* nplan */
	uint32_t			 nalloc;
	uint32_t			 nplan;
	uint32_t			 waiting;
	/* In the core's fs_first: it preempted, fair share's guarantee
	 * on, and starts first on what its victims gave back; or it is an
	 * elastic job being resized, its own victim (waiter itself), and
	 * restarts first on its plan once stopped. */
	bool				 fs_first;
	/* Time-slicing (sched-core-slice.c): suspended for another's turn,
	 * not by sched_core_suspend; the ring of jobs that share its GPUs
	 * (NULL: none), and when its turn (or its run) began. */
	bool				 sliced;
	struct sched_ring		*ring;
	int64_t				 slice_since;
	TAILQ_ENTRY(sched_cjob)		 rentry;	/* its ring's turns */
	TAILQ_ENTRY(sched_cjob)		 mentry;	/* its ring's members */
	TAILQ_ENTRY(sched_cjob)		 pentry;	/* preempting, suspended */
	TAILQ_ENTRY(sched_cjob)		 fentry;	/* fs_first */
	struct otree_node		 tnode;		/* timers */
	struct otree_node		 enode;		/* ends */
	struct otree_node		 dnode;		/* deadlines */
};

/* Laid out for size, as a queue of 100,000 pending jobs holds 100,000 of
 * these: 64-bit members first, what never changes and jobs mostly share
 * apart (shape), and what only a job that ran has apart (hold). */
struct sched_cjob {
	uint64_t			 id;
	int64_t				 submit;
	/* What orders it within its queue beside its age, by the core's
	 * policy: srtf's duration (ms), gittins' index while pending. */
	union {
		int64_t			 duration;
		double			 gindex;
	}				 key;
	void				*arg;
	const struct sched_shape	*shape;
	struct sched_chold		*hold;		/* NULL: none yet */
	struct otree_node		 qnode;		/* pending or running */
	uint32_t			 reason_pass;	/* the pass that set it */
	uint32_t			 rank;		/* sched_core_rank; 0: none */
	uint8_t				 state;		/* sched_cjob_state */
	uint8_t				 queue;		/* < SCHED_MAX_QUEUES */
	uint8_t				 reason;	/* sched_reason */
	uint8_t				 tier;		/* higher first */
	/* The service a ms of its run gives, in GPU-ms / SCHED_RATE_GPU
	 * (sched_core_rate): its GPUs, or a CPU job's CPUs in GPUs. In
	 * the padding after reason: no larger a record. */
	uint32_t			 rate;
	/* Backfill's: the jobspec's limit and expect, in seconds (0: not
	 * known), so that a queue of jobs that never ran grows by little. */
	uint32_t			 limit_s;
	uint32_t			 expect_s;
	/* Fair share's: its leaf, and its key among the waiting jobs of its
	 * tier (sched_conf's fairshare; 0 for all without). */
	uint32_t			 fs_leaf;
	uint32_t			 fskey;
	/* gittins_similar: the distribution of the jobs like it, or NULL
	 * for the cluster's. */
	struct sched_gittins		*gset;
	TAILQ_ENTRY(sched_cjob)		 fsentry;	/* its leaf's, pending */
};
TAILQ_HEAD(sched_cjobs, sched_cjob);

/* A placement that found no room in a pass, and why
 * (sched_core_place_short): while the cluster's generation stands
 * (nothing was taken or freed), a job asking the same finds none either,
 * for the same reason. A queue of like jobs behind GPUs that are free but
 * short of CPUs or memory thus costs one placement a pass, not one a job. */
#define SCHED_MISSES	8
/* The same by what a placement asks (sched_shape's place_key), for
 * shapes that differ in what a placement does not read (their limits,
 * their array): a table a pass fills as it goes. */
#define SCHED_PLACE_MISSES	1024
struct sched_place_miss {
	uint64_t			key;
	uint64_t			wkey;	/* the windows' view's */
	uint64_t			generation;
	uint32_t			pass;
	uint32_t			gpus;	/* a check beside the key */
	uint8_t				reason;
};
struct sched_miss {
	uint64_t			 generation;
	const struct sched_cjob		*job;	/* pending all the pass */
	enum sched_reason		 reason;
};

/* What the advance reservations' windows leave the job a pass looks at
 * (sched_core_window_of): the view, found once a job a pass, and for a
 * job bound to nodes its sets narrowed to the view's nodes, laid out as
 * sched_jobspec's (made when first asked). */
struct sched_core_wjob {
	uint64_t			 id;
	uint32_t			 pass;
	bool				 valid;
	bool				 ready;		/* sets made */
	struct sched_window_view	 v;
	uint32_t			*ends;		/* nsets */
	uint32_t			*nodes;
	size_t				 endsize, nodesize;
};

struct sched_core {
	struct sched_conf	 conf;
	unsigned		 nqueues;	/* 1 for fifo and srtf */
	struct place_cluster	*cluster;
	struct otree		 pending;
	struct otree		 running;
	struct otree		 timers;
	/* Running jobs whose end is expected (sched_chold's expect_end),
	 * the earliest first: what backfill's promises are made of. */
	struct otree		 ends;
	/* Running jobs let in behind a promise on their predictions, by
	 * the promise's start (sched_chold's bf_deadline). */
	struct otree		 deadlines;
	/* Fair share: each leaf's standing and waiting jobs, by leaf
	 * (sched-core-fairshare.c), nfs of them made; each on its own, as
	 * a list's head must not move while the list is in use. */
	struct sched_fs_leaf {
		uint32_t		 standing;
		struct sched_cjobs	 jobs;
		/* The guarantee's (fairshare_preempt): the GPUs of all
		 * its jobs and of its running ones (not those being
		 * stopped), its part (the caller's), and the scratch of
		 * a victim check (taken: the GPUs of this leaf's jobs the
		 * victims hold, valid while stamp is the core's fs_stamp) and of
		 * a pass (claimed: the GPUs of its jobs waiting on
		 * victims; missed: the fewest GPUs a search for the
		 * leaf's jobs found no victims for; both while pass is
		 * the core's npass). */
		uint64_t		 demand;
		uint64_t		 held;
		double			 target;
		uint64_t		 taken;
		uint64_t		 claimed;
		uint32_t		 missed;
		uint32_t		 stamp;
		uint32_t		 pass;
	}			**fs;
	uint32_t		 nfs;
	/* The guarantee's: changes to the leaves' demands, the stamp of
	 * the latest victim check, and whether this pass may preempt for
	 * it (a leaf with waiting jobs below its part, one above). */
	uint64_t		 fs_changes;
	uint32_t		 fs_stamp;
	bool			 fs_chance;
	uint32_t		 fs_active;	/* leaves with a demand */
	/* With the guarantee, the waiting jobs that preempted (for it or
	 * as Tiresias does): each pass starts them first on their plans
	 * where their victims are gone, and holds their plans where not,
	 * as a job ahead of them in the order would take what was stopped
	 * for them, be preempted for the guarantee, and they would preempt
	 * again, and again. */
	struct sched_cjobs	 fs_first;
	/* This pass's promises (sched-core-backfill.c): to whom (by id,
	 * which outlives a job's record) and when, how many, the earliest
	 * start among them, the GPUs they hold free now. */
	struct sched_promise {
		uint64_t	 id;
		int64_t		 start;
	}			*promises;
	uint32_t		 nresv;
	int64_t			 resv_start;
	uint64_t		 resv_gpus;
	struct sched_resv_run	*runs;		/* a promise's scratch */
	size_t			 runsize;
	struct place_alloc	*rplan;		/* room for the largest job */
	struct place_alloc	*rheld;		/* the free GPUs promised */
	size_t			 nrheld, rheldsize;
	/* Placements on the promised GPUs that found none, by what they
	 * ask (place_key, gpus) and the nodes the windows left them (the
	 * view's key), while the cluster stands as bf_gen says: a queue of
	 * like jobs in time for a promise costs one placement, not one a
	 * job. */
	struct {
		uint64_t	 key;
		uint64_t	 wkey;
		uint32_t	 gpus;
	}			 bf_miss[SCHED_MISSES];
	size_t			 nbf_miss;
	uint64_t		 bf_gen;
	struct sched_cjobs	 preempting;
	/* The suspended jobs, on their hold's pentry as the preempting
	 * are (a job is never both), in the order they were suspended. */
	struct sched_cjobs	 suspended;
	struct sched_groups	 groups;
	/* Preempting jobs no pending job waits for (adopted so after a
	 * restart, or whose waiter started or left): a job that needs GPUs
	 * takes their GPUs first rather than preempt more. */
	size_t			 norphans;
	size_t			 nsuspended;	/* SCHED_JOB_SUSPENDED */
	/* Time-slicing (sched-core-slice.c): the rings, the waiting jobs
	 * that opted in, when a turn next ends that a pass must hand on,
	 * and the switches made. */
	TAILQ_HEAD(, sched_ring) rings;
	size_t			 nrings;
	size_t			 nslice_pending;
	int64_t			 slice_wake;
	uint64_t		 switches;
	struct sched_gittins	 gittins;	/* gittins' samples */
	uint64_t		 victim_gpus;	/* running, preemptable */
	/* Jobs of a tier above 0: while there are any, a pass counts the
	 * possible victims of a job by tier (tvictim, tqvictim) rather than
	 * by queue alone. */
	size_t			 tiered;
	/* Preemptable GPUs held by tier and queue, and by tier as a Fenwick
	 * tree (tier t at t + 1): the GPUs of every tier below one in
	 * O(log tiers). */
	uint64_t		 tqvictim[SCHED_TIERS][SCHED_MAX_QUEUES];
	uint64_t		 tvictim[SCHED_TIERS + 1];
	/* Counts each change to what groups and limits hold (a start, a
	 * stop) and each job that joins them: a shape's caps' verdict
	 * stands while it stands (sched-core-pass.c). */
	uint64_t		 cap_gen;
	/* Counts each change to the preemptable running jobs (a start, a
	 * stop, a demotion): a victim search that found none stands while
	 * it and the cluster's generation stand. */
	uint64_t		 victim_gen;
	uint64_t		 qvictim[SCHED_MAX_QUEUES];	/* by queue */
	/* Pending jobs by size (the last bucket: that size or more), so a
	 * pass knows when no job left could use the GPUs still free. */
	size_t			 psize[SCHED_MAX_GPUS_PER_NODE + 1];
	/* Passes so far, modulo 2^32: a job's reason_pass only tells
	 * whether the last pass reached it. */
	uint32_t		 npass;
	uint64_t		 npromoted;	/* promotions, in all */
	enum sched_reason	 tail_reason;	/* of jobs a pass did not reach */
	struct sched_action	*acts;
	size_t			 nacts, actsize;
	struct place_alloc	*scratch;	/* room for the largest job */
	size_t			 scratchsize;
	/* The elastic jobs a pass started, in order: its end grows them
	 * onto the GPUs still free (sched-core-elastic.c). */
	struct sched_cjob	**grow;
	size_t			 ngrow, growsize;
	/* Elastic jobs in the core, and the next instant one of them
	 * running may be resized (SCHED_NEVER: none), for the wake-up. */
	size_t			 nelastic;
	int64_t			 elastic_wake;
	/* The parts of jobs on several nodes each node holds (ndist of
	 * the nodes hold one), and room for a placement that avoids them
	 * (avoid_interference, sched-core-place.c). */
	uint32_t		*dist;
	size_t			 distsize, ndist;
	uint32_t		*anodes;
	size_t			 anodesize;
	struct place_alloc	*ascratch;
	struct place_alloc	*held;		/* reservations of a pass */
	size_t			 nheld, heldsize;
	struct sched_cjob	**victims;
	size_t			 victimsize;
	/* A victim search's mark on the nodes its job may use (a job
	 * bound to nodes): node i is one while usable[i] == ustamp, so that
	 * what a victim gives is counted without a scan of the sets. */
	uint32_t		*usable;
	size_t			 usablesize;
	uint32_t		 ustamp;
	struct sched_miss	 miss[SCHED_MISSES];	/* this pass's */
	struct sched_place_miss	 place_miss[SCHED_PLACE_MISSES];
	size_t			 nmiss, miss_next;
	struct sched_shapes	 shapes;
	struct pool		 cjobs;		/* where each cjob is */
	/* Where a cjob of a tier above 0 is, a pool each (made at the
	 * tier's first job): a pass walks a tier's jobs together, in the
	 * order they came, and so through its pool's memory in order,
	 * not across every tier's jobs mixed. */
	struct pool		*tpool[SCHED_TIERS];
	/* sched_core_preempt_rule's: a bit per class r in row p, set where
	 * p may not preempt r; none set while prules is false. */
	uint64_t		 pdeny[SCHED_CLASSES][SCHED_CLASSES / 64];
	bool			 prules;
	/* With rules: the preemptable GPUs of each class by tier, a
	 * Fenwick tree as tvictim (made at the class's first running job,
	 * cactive listing those made), so that the victims a job's class
	 * may take below its tier are counted, not every class's. */
	uint64_t		*ctvictim[SCHED_CLASSES];
	uint8_t			 cactive[SCHED_CLASSES];
	unsigned		 ncactive;
	/* Advance reservations' windows, the now of the last pass (what
	 * they are judged at, and what the next wake-up is after), the
	 * job looked at; while bypass is set, placement passes over the
	 * windows (why a job waits: sched_core_place_short's kind). */
	struct sched_windows	 windows;
	int64_t			 wnow;
	struct sched_core_wjob	 wjob;
	bool			 wbypass;
};

#define SCHED_CJOB_OF(n, member) otree_entry(n, struct sched_cjob, member)
#define SCHED_CHOLD_OF(n) otree_entry(n, struct sched_chold, tnode)
#define SCHED_CHOLD_OF_END(n) otree_entry(n, struct sched_chold, enode)
#define SCHED_CHOLD_OF_DL(n) otree_entry(n, struct sched_chold, dnode)

/* The run record of a job that never ran: no service, never started, no
 * GPUs, no timer. A copy in each file, so that the compiler folds what is
 * read of it (the orders read first_start of every job they compare). */
static const struct sched_chold	sched_cjob_no_hold = {
	.first_start = SCHED_NEVER,
	.timer = SCHED_NEVER,
	.expect_end = SCHED_NEVER,
	.bf_deadline = SCHED_NEVER
};

/* A GPU's service rate (sched_cjob's rate): a ms of a GPU is a GPU-ms. */
#define SCHED_RATE_GPU	1000u

/* sched-core.c: realloc that aborts when memory is out, as the core
 * does, and on an overflowing n x size. */
void		*sched_core_xalloc(void *, size_t n, size_t size);

/* sched-core.c: counts running j's GPUs among the possible victims
 * (sign 1) or no longer (-1), unless it may not be requeued; the GPUs of
 * preemptable jobs of tiers below p's that p's class may preempt. */
void		 sched_core_victims(struct sched_core *, const struct sched_cjob *,
		     int sign);
uint64_t	 sched_core_victims_below(const struct sched_core *,
		     const struct sched_cjob *p);

/* sched-core.c: moves j onto the pending tree (its state already left
 * running, or new), and off it. */
void		 sched_core_enqueue(struct sched_core *, struct sched_cjob *);
void		 sched_core_dequeue(struct sched_core *, struct sched_cjob *);

/* sched-core.c: moves j onto the GPUs in a (n parts), pending (or new)
 * to running; takes running j off the running tree (it stops being a
 * candidate victim, its timer goes). */
void		 sched_core_run(struct sched_core *, struct sched_cjob *,
		     const struct place_alloc *a, size_t n, int64_t now);
void		 sched_core_unrun(struct sched_core *, struct sched_cjob *);
/* Puts j, RUNNING with its GPUs taken, among the running jobs: the
 * running tree, its expected end, the victims' and fair share's counts,
 * its demotion timer (sched_core_run's end, and a resume's). */
void		 sched_core_onrun(struct sched_core *, struct sched_cjob *,
		     int64_t now);
void		 sched_core_unhold(struct sched_core *, struct sched_cjob *);
/* A job's parts a[0..n) come onto their nodes (sign 1) or leave (-1):
 * the nodes' counts of distributed parts (sched-core-place.c). */
void		 sched_core_place_dist(struct sched_core *,
		     const struct place_alloc *, size_t n, int sign);
/* sched-core-elastic.c: an elastic job the pass started, to grow at its
 * end (sched_core_elastic_grow); j's shape at gpus GPUs (its rate and
 * its leaf's demand with it), for a job neither pending nor holding. */
void		 sched_core_elastic_note(struct sched_core *,
		     struct sched_cjob *);
void		 sched_core_elastic_grow(struct sched_core *, int64_t now);
/* Appends an action to this pass's (sched-core-pass.c). */
void		 sched_core_pass_act(struct sched_core *,
		     enum sched_action_type, struct sched_cjob *);
void		 sched_core_elastic_reshape(struct sched_core *,
		     struct sched_cjob *, uint32_t gpus);
/* An elastic job about to run on a[0..n): its shape at their count. */
void		 sched_core_elastic_fit(struct sched_core *,
		     struct sched_cjob *, const struct place_alloc *,
		     size_t n);

/* sched-cjob.c: j's run record, made when first needed (see sched_chold);
 * counting the service of a job that holds GPUs up to now. */
struct sched_chold *sched_cjob_hold(struct sched_cjob *);
void		 sched_cjob_account(struct sched_cjob *, int64_t now);

/* sched-core-order.c: the comparisons of the pending tree and of the
 * running tree under policy, and of the timer tree. */
otree_cmp	 sched_core_order_pending(const struct sched_conf *);
otree_cmp	 sched_core_order_running(enum sched_policy);
int		 sched_core_order_timers(const struct otree_node *,
		     const struct otree_node *);
int		 sched_core_order_ends(const struct otree_node *,
		     const struct otree_node *);
int		 sched_core_order_deadlines(const struct otree_node *,
		     const struct otree_node *);
/* Sets what orders pending j beside its age and queue, for the service it
 * has now: gittins' index (nothing under the other policies, whose keys
 * do not move). */
void		 sched_core_order_key(struct sched_core *, struct sched_cjob *);

/* sched-core-mlfq.c: the queue a service level (sched_cjob_qservice) puts
 * a job in; j's timer (SCHED_NEVER: none); arming a running j's demotion
 * and a pending j's promotion, each replacing its timer; running the
 * demotions and promotions due by now. */
unsigned	 sched_core_mlfq_queue(const struct sched_core *, uint64_t);
void		 sched_core_mlfq_timer(struct sched_core *, struct sched_cjob *,
		     int64_t when);
void		 sched_core_mlfq_demotion(struct sched_core *,
		     struct sched_cjob *);
void		 sched_core_mlfq_promotion(struct sched_core *,
		     struct sched_cjob *);
void		 sched_core_mlfq_due(struct sched_core *, int64_t now);

/* sched-core-place.c: finds p's GPUs among the free ones (their count;
 * the placement goes to core->scratch); why p, which did not fit though
 * enough GPUs are free, waits (up to two more placements, or three when a
 * maintenance window holds nodes it could use). */
size_t		 sched_core_place_find(struct sched_core *,
		     const struct sched_cjob *p);
/* What p asks of a placement on its set k of nodes (the first when it is
 * not bound to nodes), on the nodes the windows leave it. */
void		 sched_core_place_want(struct sched_core *,
		     const struct sched_cjob *p, uint32_t k,
		     struct place_want *w);
enum sched_reason sched_core_place_short(struct sched_core *,
		     const struct sched_cjob *p);
/* sched-core-window.c: what the windows leave p at the pass's now (found
 * once a job a pass); whether p may run on some nodes alone (its own
 * sets, or the windows'); how many sets of nodes it has (1 when it is not
 * bound); its set k as it may use it now: its listed set narrowed to the
 * view's nodes, or the view's nodes, or NULL for any (*n their count; a
 * set may be empty, never NULL then). */
const struct sched_window_view *sched_core_window_of(struct sched_core *,
		     const struct sched_cjob *p);
bool		 sched_core_window_listed(struct sched_core *,
		     const struct sched_cjob *p);
uint32_t	 sched_core_window_nsets(const struct sched_cjob *p);
const uint32_t	*sched_core_window_nodes(struct sched_core *,
		     const struct sched_cjob *p, uint32_t k, uint32_t *n);

/* sched-core-preempt.c: whether running r may be preempted for pending
 * p; the fewest lowest victims that make room for p, in core->victims
 * (their count; 0: preemption cannot help); recording where p will run
 * once the first k of core->victims have stopped (p's plan); making p wait
 * for orphans when their GPUs and the free ones hold it (their count, its
 * plan made); r becoming p's victim; p no longer waiting for its victims
 * (it started or left), which become orphans. */
bool		 sched_core_preempt_outranks(const struct sched_core *,
		     const struct sched_cjob *p, const struct sched_cjob *r,
		     int64_t now);
size_t		 sched_core_preempt_choose(struct sched_core *,
		     struct sched_cjob *p, int64_t now);
/* The same for fair share's guarantee: victims of any queue and of
 * tiers up to p's, of leaves that keep their part without them
 * (sched_core_fairshare_spares), for a p whose leaf is below its part. */
size_t		 sched_core_preempt_share(struct sched_core *,
		     struct sched_cjob *p);
void		 sched_core_preempt_plan(struct sched_core *,
		     struct sched_cjob *p, size_t k);
size_t		 sched_core_preempt_orphans(struct sched_core *,
		     struct sched_cjob *p);
void		 sched_core_preempt_victim(struct sched_core *,
		     struct sched_cjob *r, struct sched_cjob *p);
void		 sched_core_preempt_forget(struct sched_core *,
		     struct sched_cjob *p);

/* A turn where time-slicing is off and rings found after a restart
 * drain (sched_core_slice_adopt): 5 minutes, Gandiva's order of size. */
#define SCHED_SLICE_DRAIN_MS	INT64_C(300000)

/* sched-core-slice.c: time-slicing's rings. sched_core_run takes j's
 * place in its ring (hold: its own, or the one a pass joined it to),
 * true where the ring holds its GPUs already; each run or resume of j
 * starts its turn (onrun). j suspended, by an operator or for another's
 * turn (sliced); resumed; gone from its GPUs (leave: true where others
 * of its ring keep them). A pass's joins and turns, after its starts;
 * the members a ring's preempted running job takes along. */
uint32_t	 sched_core_slice_members(const struct sched_ring *);
bool		 sched_core_slice_hold(struct sched_core *,
		     struct sched_cjob *j);
void		 sched_core_slice_onrun(struct sched_cjob *j, int64_t now);
/* The ring that holds exactly the GPUs of a[0..n) (the same nodes, in
 * the same order, and the same GPUs on each), or NULL. */
struct sched_ring *sched_core_slice_at(const struct sched_core *,
		     const struct place_alloc *a, size_t n);
/* sched_core_adopt: j, found on a[0..n) after a restart, joins the ring
 * that holds exactly those GPUs, if one does. */
void		 sched_core_slice_adopt(struct sched_core *,
		     struct sched_cjob *j, struct place_alloc *a,
		     size_t n);
void		 sched_core_slice_suspended(struct sched_cjob *j, bool sliced);
void		 sched_core_slice_resumed(struct sched_cjob *j);
bool		 sched_core_slice_leave(struct sched_core *,
		     struct sched_cjob *j);
void		 sched_core_slice_pass(struct sched_core *, int64_t now);
void		 sched_core_slice_victim(struct sched_core *,
		     struct sched_cjob *r);
void		 sched_core_slice_free(struct sched_core *);

/* sched-core-pass.c: takes for the rest of the pass the GPUs of a[0..n)
 * that are free now, appending them to *held (*nheld of them, room for
 * *size); returns how many. */
uint64_t	 sched_core_pass_hold(struct sched_core *,
		     const struct place_alloc *a, size_t n,
		     struct place_alloc **held, size_t *nheld, size_t *size);

/* sched-core-backfill.c: a running j's expected end, and its place in
 * the ends (in at a start, out at a stop); the start of a pass's
 * promises, and their end; a promise for p, which can neither start nor
 * make room (true when one was made); whether p, behind the promises, may
 * take their GPUs and so whether it may preempt (it ends by their start);
 * placing p so (its count, in core->scratch; 0: none). */
void		 sched_core_backfill_ends_add(struct sched_core *,
		     struct sched_cjob *, int64_t now);
void		 sched_core_backfill_ends_remove(struct sched_core *,
		     struct sched_cjob *);
void		 sched_core_backfill_begin(struct sched_core *);
void		 sched_core_backfill_end(struct sched_core *);
bool		 sched_core_backfill_promise(struct sched_core *,
		     struct sched_cjob *p, int64_t now);
bool		 sched_core_backfill_in_time(const struct sched_core *,
		     const struct sched_cjob *p, int64_t now);
size_t		 sched_core_backfill_place(struct sched_core *,
		     const struct sched_cjob *p);
/* A job p, started behind the promises on its prediction alone, must be
 * gone by their start; a job that stops no longer must; the next job past
 * its deadline at now (out of the deadlines), or NULL; the earliest
 * deadline (SCHED_NEVER: none). */
void		 sched_core_backfill_lean(struct sched_core *,
		     struct sched_cjob *p);
void		 sched_core_backfill_unlean(struct sched_core *,
		     struct sched_cjob *j);
struct sched_cjob *sched_core_backfill_overdue(struct sched_core *,
		     int64_t now);
int64_t		 sched_core_backfill_next(const struct sched_core *);

/* sched-core-fairshare.c: the key j waits with (its leaf's standing and its
 * queue); j joining its leaf's waiting jobs as it is queued, and leaving
 * them. */
uint32_t	 sched_core_fairshare_key(const struct sched_core *,
		     const struct sched_cjob *j);
void		 sched_core_fairshare_enqueue(struct sched_core *,
		     struct sched_cjob *j);
void		 sched_core_fairshare_dequeue(struct sched_core *,
		     struct sched_cjob *j);
/* sched-core-fairshare.c, the guarantee's bookkeeping: j came into the
 * core (sign 1) or left it (-1); started running (1) or stopped running
 * or began to be stopped (-1). */
void		 sched_core_fairshare_join(struct sched_core *,
		     const struct sched_cjob *j, int sign);
void		 sched_core_fairshare_hold(struct sched_core *,
		     const struct sched_cjob *j, int sign);
/* The guarantee's rules. At a pass's start: whether it may preempt at
 * all (core->fs_chance). Whether p's leaf, with what it holds and has
 * claimed this pass, is below its part, and no search for as many GPUs
 * of its jobs found none this pass. Whether r, of another leaf than
 * p's, may be p's victim: for a Tiresias preemption (share false) if its
 * leaf keeps its part without r, and for the guarantee's (true) if its
 * leaf, without r, falls short of its part by less than p's leaf does now
 * (so that each such preemption lowers the largest shortfall, and no two
 * leaves take turns); and whether each leaf so keeps what it must without
 * all of v[0..k) of it (p's own leaf, for Tiresias: with p's GPUs back,
 * its part or what it holds, if less). p waits on victims: its GPUs are
 * claimed for this pass; a search for p found none. */
void		 sched_core_fairshare_begin(struct sched_core *);
bool		 sched_core_fairshare_under(struct sched_core *,
		     const struct sched_cjob *p);
bool		 sched_core_fairshare_spares(const struct sched_core *,
		     const struct sched_cjob *p, const struct sched_cjob *r,
		     bool share);
bool		 sched_core_fairshare_keeps(struct sched_core *,
		     const struct sched_cjob *p, struct sched_cjob *const *v,
		     size_t k, bool share);
/* p preempted, the guarantee on: it joins fs_first; j started or left:
 * it leaves it, if in it. */
void		 sched_core_fairshare_first(struct sched_core *,
		     struct sched_cjob *p);
void		 sched_core_fairshare_unfirst(struct sched_core *,
		     struct sched_cjob *j);
void		 sched_core_fairshare_claim(struct sched_core *,
		     const struct sched_cjob *p);
void		 sched_core_fairshare_missed(struct sched_core *,
		     const struct sched_cjob *p);

/* What j has of a run, to read: sched_cjob_no_hold for a job that never
 * ran. The readers below are inline: a pass calls them for each pending
 * job it looks at, and the orders for each comparison. */
static inline const struct sched_chold *
sched_cjob_held(const struct sched_cjob *j)
{
	return (j->hold != NULL ? j->hold : &sched_cjob_no_hold);
}

/* Whether j may run on its listed nodes only. */
static inline bool
sched_cjob_listed(const struct sched_cjob *j)
{
	return (j->shape->listed);
}

/* j's array's cap, NULL for none. */
static inline struct sched_group *
sched_cjob_group(const struct sched_cjob *j)
{
	return (j->shape->group);
}

/* Why j may not start for a cap: its array holds all its throttle
 * allows, or a limit's group would go past its cap on jobs or GPUs (the
 * first such, in the caller's order); SCHED_REASON_NONE when none. */
static inline enum sched_reason
sched_cjob_capped(const struct sched_cjob *j)
{
	const struct sched_group	*g = sched_cjob_group(j);
	uint8_t				 i;

	if (g != NULL && g->holding >= g->cap)
		return (SCHED_REASON_GROUP_CAP);
	for (i = 0; i < j->shape->nlimits; i++) {
		g = j->shape->limit[i];
		if (g->cap != 0 && g->holding >= g->cap)
			return ((enum sched_reason)g->jobs_reason);
		if (g->gpu_cap != 0 && g->gpus + j->shape->gpus > g->gpu_cap)
			return ((enum sched_reason)g->gpus_reason);
	}
	return (SCHED_REASON_NONE);
}

/* The placement of j: its own, else the core's. */
static inline enum sched_placement
sched_cjob_placement(const struct sched_core *core, const struct sched_cjob *j)
{
	return (j->shape->own_placement ?
	    (enum sched_placement)j->shape->placement : core->conf.placement);
}

/* What j needs beside its GPUs, or NULL for nothing. */
static inline const struct place_res *
sched_cjob_res(const struct sched_cjob *j)
{
	return (j->shape->has_res ? &j->shape->res : NULL);
}

/* srtf: the time j has left to run, by its duration. */
static inline int64_t
sched_cjob_remaining(const struct sched_cjob *j)
{
	return (j->key.duration - sched_cjob_held(j)->total_executed);
}

/* The service that places a job in a queue: GPUs x time run since its
 * last promotion (all its service until it is promoted). A promotion
 * thus gives the job a fresh quantum in Q0, as in the Tiresias simulator;
 * were its whole service kept, a promoted job would be demoted at once,
 * preempt and be preempted back in a storm. */
static inline uint64_t
sched_cjob_qservice(const struct sched_cjob *j)
{
	return ((uint64_t)sched_cjob_held(j)->executed * j->rate /
	    SCHED_RATE_GPU);
}

/* j's bucket in the core's count of pending jobs by size (psize). */
static inline unsigned
sched_cjob_size_bucket(const struct sched_cjob *j)
{
	return (j->shape->gpus < SCHED_MAX_GPUS_PER_NODE ? j->shape->gpus :
	    SCHED_MAX_GPUS_PER_NODE);
}

#endif
