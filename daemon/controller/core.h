/* core.h: the controller's scheduling core (core.c): every pending and
 * running job in its queue, and what each running job holds of the
 * cluster's GPUs, CPUs and memory, stale copies' GPUs too. job-change.c
 * tells it of each transition, job-report.c of stale copies, recover.c of
 * what ran before a restart; schedule.c runs its passes and carries them
 * out; the rest asks it about jobs and nodes. Nothing here blocks or acts
 * on a job. */
#ifndef GB_CTL_CORE_H
#define GB_CTL_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/job-state.h"
#include "daemon/controller/store.h"
#include "policy/sched.h"

struct assoc_tab;
struct assoc_usage;
struct fairshare_row;
struct resv_tab;
struct part;
struct job;
struct job_part;
struct node;
struct node_use;
struct sched_action;
struct sched_core;

/* Start-up (recover.c): the core is made once the nodes are known, each
 * job is handed to it as it loads (a running one holds the GPUs of its
 * parts from then on, whether or not its nodes are back), and the load's
 * end completes it, so the first pass finds it built. A pending job with a
 * dependency waits for that pass, which judges it once every job is in. */
void	core_build_begin(void);
void	core_build_job(struct job *);
void	core_build_end(void);
/* Something changed that a pass should see: asks for one at the end of
 * this loop pass (commit_want). */
void	core_mark_dirty(void);
bool	core_is_dirty(void);

/* A job was just created pending (submitted). */
void	core_job_new(struct job *);
/* Fills row's scheduling counters (attained service, run times, first
 * start, last stop) for j's move to state to, before it is written. */
void	core_job_row(struct job *, enum job_state to, struct store_job *);
/* j moved from one state to another: a job_listener_fn (job.h) that
 * gbatchd.c registers first; row is unused. A job that starts (or is
 * re-adopted) holds the GPUs of its parts from now on. */
void	core_job_changed(struct job *, enum job_state from,
	    enum job_state to, const struct store_job *row);
/* j, RUNNING or PREEMPTING, leaves for a state that holds no GPUs: the
 * GPUs of its parts are free again. job-change.c calls it once the change
 * is written and before the job's parts are cleared (a requeue clears them
 * before the listeners hear of it). */
void	core_job_release(struct job *);

/* What running jobs and stale copies hold of each node's GPUs: the
 * controller's one record (core-hold.h), written by the functions above
 * and below alone, up to date even while the scheduler's view waits to be
 * rebuilt, and kept for a node the scheduler does not know (one not back
 * since a restart, or with no GPUs yet). Each answer is of the GPUs the
 * node has now (node_gpus_total): held, those held; busy, how many (gnodes'
 * GPUS); the free ones; the job holding GPU i (a stale copy's), or 0. */
uint64_t core_node_held(const struct node *);
uint32_t core_node_busy(const struct node *);
uint64_t core_node_free_mask(const struct node *);
uint64_t core_gpu_job(const struct node *, uint32_t i);
/* Every job running on node n, each once (GPUs, their shards, or CPUs
 * alone), into *ids (a new array the caller frees); returns how many. */
size_t	core_node_jobs(const struct node *, uint64_t **ids);
/* What jobs hold of node n, for its listing (node_describe): its GPUs as
 * above (the holders borrowed until the next change), and its CPUs and
 * memory as the scheduler counts them (0 for a node it does not know). */
void	core_node_use(const struct node *, struct node_use *);

/* Stale copies (job-report.c): a run of a job that the controller
 * requeued (or finished) while the node was away, found running when the
 * node came back, and being stopped. Its GPUs are neither free nor a
 * running job's until its end is reported: nothing else runs there
 * meanwhile. core_stale_add takes the free GPUs of mask for job's copy and
 * says whether there were any; core_stale_release frees the copy's and
 * says whether it held any; core_stale_first names a job with a stale
 * copy on the node (0: none). */
bool	core_stale_add(struct node *, uint64_t mask, uint64_t job);
bool	core_stale_release(struct node *, uint64_t job);
uint64_t core_stale_first(const struct node *);
/* A node's stale copies changed (job-report.c): their GPUs go out of or
 * back into the scheduler's view at the next pass, and j (NULL: none in
 * memory), whose stale copies were counted, leaves the core or enters it
 * again. */
void	core_job_stale_changed(struct job *);
/* Fills row's live scheduling view for a listing: queue, attained
 * service and run time to now (ms, ctx_now_ms(): read once per listing),
 * a pending job's reason and the start backfill promised it, and with
 * predict its predicted run time (a lookup a job: only for a listing
 * that shows it). */
void	core_job_view(const struct job *, struct store_job *row, int64_t now,
	    bool predict);
/* Numbers the pending jobs in the order the scheduler takes them, for the
 * listings that follow (core_job_view sets row->rank): O(pending). */
void	core_rank(void);
/* The queue level the scheduler holds j in, or -1 when it holds it not
 * (held, or waiting out a stale copy). */
int	core_job_queue(const struct job *);
/* How many queue levels jobs are put in (1 for fifo). */
unsigned core_queues(void);

/* Whether a job of gpus GPUs could run on the nodes that take jobs now,
 * were they idle: SCHED_REASON_NONE, or SCHED_REASON_NODES_DOWN /
 * SCHED_REASON_NODES_DRAINED (sched_capacity_reason). */
enum sched_reason core_unrunnable(uint32_t gpus, bool consolidate);

/* For schedule-estimate.c: the core, up to date; the node at core index
 * i and its switch (NULL past the last); the core's indexes of the nodes a
 * job of these -w, -x and GPU type may run on (a new array of *n), or NULL
 * when it may run on any. */
struct sched_core *core_sched(void);
struct node *core_node_at(uint32_t i, uint32_t *sw);
uint32_t *core_part_nodes_for(const char *req, const char *exc,
	    const char *type, uint32_t *n);
/* The same within partition p's nodes (NULL, or one of every node: as
 * core_part_nodes_for). */
uint32_t *core_part_nodes_in(const char *req, const char *exc,
	    const char *type, const struct part *p, uint32_t *n);
/* What part i of running job j holds of its node's CPUs and memory (MB),
 * as its request says (0 where the node did not say what it has). */
void	core_part_res(const struct job *j, size_t i, uint32_t *cpus,
	    uint64_t *mem);
/* The CPUs the parts (a run about to start) hold in all, as above. */
uint32_t core_parts_cpus(const struct job *j, const struct job_part *parts,
	    size_t nparts);

/* For schedule.c's passes. */
/* Clears the dirty mark, syncs the nodes and rebuilds the core if it is
 * stale: the core is then ready for a pass. */
void	core_prepare(void);
/* Hands the core the pending jobs whose begin time has come (now, ms). */
void	core_begin_due(int64_t now);
/* Hands j (pending) to the core unless it must wait outside it: for its
 * stale copies, its begin time or its dependencies (its reason then says
 * which way they stand). */
void	core_submit(struct job *, int64_t now);
/* Elastic job j reported how it trains: the core takes the speedups its
 * model now gives (job-learn.h), as it does when j comes back into it. */
void	core_elastic_learnt(struct job *);
/* Whether every waiting job is to be judged again (after a rebuild), not
 * only those depend_wait_take gives; clears it. */
bool	core_take_deps_all(void);
/* Runs a pass of the core at now: its actions, valid until the next
 * call (sched_core_pass). Counts the promotions it made. */
size_t	core_pass(int64_t now, const struct sched_action **);
/* Marks the core dirty ms from now, in place of the wake-up asked
 * before: a pass that had to wait (node_health_restart_wait). */
void	core_wake_in(int64_t ms);
/* After a pass at now: marks the core dirty when it next wants a pass
 * (its next demotion or promotion, or the next begin time), or never. */
void	core_wake_arm(int64_t now);
/* The parts a job the pass starts is given (nodes and GPUs, rank 0
 * first; a new array of *n). */
struct job_part *core_alloc(struct job *, size_t *n);
/* The start of j the pass decided did not happen (the store failed): it
 * goes back in its queue. */
void	core_not_started(struct job *, int64_t now);
/* An array's row j hands its place in the core to its task t, split off
 * it to start; j queues again for the tasks left. */
void	core_hand_over(struct job *j, struct job *t, int64_t now);

/* The scheduler settings changed (gctl reconfigure): rebuild the core
 * under them before the next pass; the budgets charge the runs at the
 * QOS's usage factors in force from now on (assoc_usage_weigh). */
void	core_reconfigure(void);
void	core_free(void);

/* After a reload: notes (strings appended to notes, and logged) on the
 * jobs whose partitions or QOS are gone or no longer take them: running
 * ones keep running where they are; pending ones wait, their reason
 * naming why. */
void		 core_part_notes(json_t *notes);

/* The partition running job j runs in, into buf: the first of its list
 * that takes it and holds each of its nodes (JOB_REQ_PARTITION without
 * partitions; its list's first, should none do so after a reload).
 * Returns buf. */
const char	*core_part_run(const struct job *j, char *buf, size_t len);
/* The same for a run on parts (NULL: j's own), before j holds them. */
const char	*core_part_run_on(const struct job *j,
		    const struct job_part *parts, size_t nparts, char *buf,
		    size_t len);

/* The accounts and users (assoc.h), which the ASSOC requests change and
 * submits read; gbatchd.c loads them at start and empties them at exit.
 * After a change, core_reconfigure makes the core take their limits. */
struct assoc_tab *core_assoc(void);
/* The advance reservations (resv.h), which the RESV requests change and
 * submits read; gbatchd.c loads them at start and empties them at exit.
 * After a change, core_resv_changed rebuilds the core under them before
 * the next pass (their windows, and every job judged again). */
struct resv_tab *core_resv(void);
void	core_resv_changed(void);
/* The time limit (s; 0: none) j's run started at start (s) is held to on
 * its nodes: its own, cut at its reservation's end, where the run is
 * over (Slurm's ResvOverRun of 0). */
uint64_t core_resv_limit(const struct job *j, int64_t start);

/* What each account used of its budget this month (assoc-usage.h):
 * job-change.c tells it of each run, gbatchd.c loads the month's ended
 * runs at start (assoc_load_usage), listings read it. Made at the first
 * call. */
struct assoc_usage *core_usage(void);
/* How long job j's next (or current) run is expected to take, in ms: its
 * time limit, else its run time predicted from the completed jobs like it
 * less what it ran before; CORE_PREDICT_NEVER when neither is known.
 * When running j is expected to end (ms since the epoch), likewise. What
 * backfill's promises and gsub --test-only judge by. */
#define CORE_PREDICT_NEVER	INT64_MAX
int64_t	core_predict_run_for(const struct job *j);
int64_t	core_predict_end(const struct job *j);
/* Fair share's figures at now (policy/fairshare.h's rows, in tree order,
 * *n of them; the caller frees the array), ranked as the core has them;
 * NULL with *n 0 while scheduler.fairshare is off. */
struct fairshare_row *core_fairshare_report(int64_t now, size_t *n);

#endif
