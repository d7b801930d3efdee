/* schedule.h: the controller's side of the scheduling core. Requests and
 * node reports change jobs through job-change.c, which tells this module;
 * the end-of-pass event (commit.c) runs one pass of the core when
 * something changed, and a timer runs one when the core asked to be woken
 * (a demotion or promotion is due). A pass starts jobs and preempts jobs in
 * the same transaction as the requests of that loop pass. */
#ifndef GB_CTL_SCHEDULE_H
#define GB_CTL_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include <event2/event.h>

#include "common/job-state.h"
#include "daemon/controller/store.h"
#include "policy/sched.h"

struct job;
struct node;
struct sched_core;

void	schedule_init(struct event_base *);
/* Start-up (recover.c): the core is made once the nodes are known, each
 * job is handed to it as it loads, and the load's end completes it, so
 * the first pass finds it built. A pending job with a dependency waits
 * for that pass, which judges it once every job is in. */
void	schedule_load_begin(void);
void	schedule_load_job(struct job *);
void	schedule_load_end(void);
void	schedule_mark_dirty(void);
bool	schedule_is_dirty(void);
/* Runs one pass: starts and launches, preemptions, the next wake-up. */
void	schedule_run(void);

/* A job was just created pending (submitted). */
void	schedule_job_new(struct job *);
/* Fills row's scheduling counters (attained service, run times, first
 * start, last stop) for j's move to state to, before it is written. */
void	schedule_job_row(struct job *, enum job_state to, struct store_job *);
/* j moved from one state to another (job-change.c, after the move). */
void	schedule_job_changed(struct job *, enum job_state from,
	    enum job_state to);
/* A node's stale copies changed (job-report.c): their GPUs go out of or
 * back into the core at the next pass, and j (NULL: none in memory), whose
 * stale copies were counted, leaves the core or enters it again. */
void	schedule_job_stale_changed(struct job *);
/* Fills row's live scheduling view for a listing: queue, attained
 * service and run time to now (ms, gbatchd_now_ms(): read once per
 * listing), and a pending job's reason. */
void	schedule_job_view(const struct job *, struct store_job *row,
	    int64_t now);
/* Numbers the pending jobs in the order the scheduler takes them, for the
 * listings that follow (schedule_job_view sets row->rank): O(pending). */
void	schedule_rank(void);
/* The queue level the scheduler holds j in, or -1 when it holds it not
 * (held, or waiting out a stale copy). */
int	schedule_job_queue(const struct job *);
/* How many queue levels jobs are put in (1 for fifo). */
unsigned schedule_queues(void);

/* Whether a job of gpus GPUs could run on the nodes that take jobs now,
 * were they idle: SCHED_REASON_NONE, or SCHED_REASON_NODES_DOWN /
 * SCHED_REASON_NODES_DRAINED (sched_capacity_reason). */
enum sched_reason schedule_unrunnable(uint32_t gpus, bool consolidate);

/* For schedule-estimate.c: the core, up to date; the node at core index
 * i and its switch (NULL past the last); the core's indexes of the nodes a
 * job of these -w, -x and GPU type may run on (a new array of *n), or NULL
 * when it may run on any. */
struct sched_core *schedule_core_now(void);
struct node *schedule_node_at(uint32_t i, uint32_t *sw);
/* What part i of running job j holds of its node's CPUs and memory (MB),
 * as its request says (0 where the node did not say what it has). */
void	schedule_part_res(const struct job *j, size_t i, uint32_t *cpus,
	    uint64_t *mem);
/* What running jobs hold of node n's CPUs and memory (MB), as the
 * scheduler counts them (0 for a node it does not know). */
void	schedule_node_res(const struct node *n, uint32_t *cpus,
	    uint64_t *mem);
uint32_t *schedule_nodes_for(const char *req, const char *exc,
	    const char *type, uint32_t *n);

/* The scheduler settings changed (gctl reconfigure): rebuild the core
 * under them before the next pass. */
void	schedule_reconfigure(void);
void	schedule_free(void);

#endif
