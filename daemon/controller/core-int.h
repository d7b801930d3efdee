/* core-int.h: what the files of the core (core.c, core-build.c,
 * core-part.c) share and no one else: the core's state, and the steps
 * building uses. */
#ifndef GB_CTL_CORE_INT_H
#define GB_CTL_CORE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-state.h"
#include "daemon/controller/assoc-tab.h"
#include "daemon/controller/job-preempt.h"
#include "daemon/controller/qos.h"
#include "daemon/controller/resv-tab.h"
#include "policy/predict.h"
#include "policy/sched-core.h"

struct assoc_usage;
struct core_hold;
struct fairshare;
struct predict;
struct predict_guess;
struct store_job;
struct job;
struct node;

/* Finished jobs whose GPU-times make the Gittins distribution. */
#define CORE_GITTINS_HISTORY	10000

/* The controller's one core and what it is made of (core.c defines it). */
struct core_state {
	/* Who holds each GPU of each node (core_holds): the record the
	 * rest asks, kept through every rebuild of sc. */
	struct core_hold	*hold;
	struct sched_core	*sc;
	struct node		**nodes;	/* by core index */
	uint32_t		*node_sw;	/* its switch */
	/* The GPUs held that no job in sc holds (stale copies', and a
	 * running job's that sc could not adopt), taken out of sc's
	 * cluster so that it places nothing there. */
	uint64_t		*node_outside;
	size_t			 nnodes, nodes_size;
	/* Topology labels seen, numbered in order of appearance. */
	char			**switches;
	size_t			 nswitches;
	/* Something changed that a pass should see. */
	bool			 dirty;
	/* The timer that marks it dirty when it next wants a pass
	 * (core_wake_in); made at the first use. */
	struct event		*wake;
	/* What the nodes could hold were they idle: those that take jobs,
	 * and those with the drained ones too; the largest node known.
	 * Found again after anything changed (core_mark_dirty). */
	struct sched_capacity	 cap_up, cap_drained;
	uint32_t		 cap_largest;
	bool			 cap_valid;
	/* The core must be rebuilt before it is used. */
	bool			 stale;
	/* The earliest begin time (ms) of a pending job kept out of the
	 * core until then (core_submit), or SCHED_NEVER. */
	int64_t			 next_begin;
	/* Every waiting job is judged again (after a rebuild), not only
	 * those a change concerns (depend_wait_take). */
	bool			 deps_all;
	/* gittins: the samples the core has, and the jobs completed since.
	 * The distribution is taken again once the new ones are a tenth of
	 * it (or the first one completes): a rebuild costs a pass over the
	 * jobs. */
	uint64_t		*samples;
	size_t			 nsamples, completed;
	/* The settings the core was made with; core_build_begin's time, for
	 * every job of the load. */
	struct sched_conf	 conf;
	int64_t			 load_now;
	/* The accounts and users (assoc.h): what a submit is charged to,
	 * and the limits the core holds each job's group to. The ASSOC
	 * requests change them (core_assoc), and the core is rebuilt. */
	struct assoc_tab	 assoc;
	/* The tiers of QOS priorities and partitions' tiers (qos.h), as
	 * the core was built with (core_qos_rules). */
	struct qos_tiers	 tiers;
	/* What each account used of its budget this month, and which have
	 * spent theirs (core_usage): judged before each pass; a pending
	 * job of such an account waits outside the core. */
	struct assoc_usage	*usage;
	/* Run times learned from the jobs that completed (core-predict.c):
	 * read from the store at first use, then told each completion. */
	struct predict		*predict;
	/* core_spec's room for a job's similar GPU-times (gittins). */
	uint64_t		 gsamples[PREDICT_WINDOW];
	/* Fair share (core-fairshare.c): the tree and its usage; each
	 * (user, account) leaf by its number, with the standing the core
	 * has, and an index of them by name (fs_slots, UINT32_MAX free);
	 * when the running jobs were last charged, and next will be; the
	 * ranking's generation the core has; the half-life in force. */
	struct fairshare	*fs;
	struct core_fs_leaf {
		char		*user;
		char		*account;
		uint32_t	 standing;
	}			*fs_leaves;
	size_t			 nfs_leaves;
	uint32_t		*fs_index;
	size_t			 fs_slots;
	int64_t			 fs_charged, fs_next;
	uint64_t		 fs_gen;
	uint64_t		 fs_half_life;
	/* Fair share's guarantee (scheduler.fairshare_preempt): the
	 * core's demand changes the leaves' parts were worked out at
	 * (UINT64_MAX: never, for this core), and their scratch. */
	uint64_t		 fs_changes;
	struct fairshare_want	*fs_want;
	double			*fs_part;
	size_t			 fs_wantsize;
	/* The advance reservations (resv.h, core_resv): the RESV requests
	 * change them and the core is rebuilt; each not ended is a window
	 * of sc's (core-resv.c). */
	struct resv_tab		 resv;
};
extern struct core_state core;

/* Whether a job in state s holds GPUs (a suspended one too). */
static inline bool
core_running(enum job_state s)
{
	return (job_state_on_node(s));
}

/* core-part.c: the nodes j may run on (NULL: any), as sched_jobspec lays
 * out its sets, one for each partition of its list that takes it, in
 * order (*nsets of them), and its tier, the first such partition's (a new
 * array the caller frees); whether pending job j must stay out of the
 * core as no partition of its list takes it now (its reason says why). */
uint32_t *core_part_job_nodes(const struct job *j, uint32_t *n, uint32_t *nsets,
	    uint8_t *tier);
bool	 core_part_before(struct job *j);
/* core-part.c: the limits j's association and accounts hold it to,
 * appended to spec's limits (sched_jobspec's); whether pending job j
 * must stay out of the core as its account, or one above it, has spent
 * its month's budget (its reason then says so). */
void	 core_part_limits(const struct job *j, struct sched_jobspec *spec);
bool	 core_part_budget(struct job *j);

/* core-resv.c: the reservations not ended as windows of the core being
 * built (its nodes added); j's reservation's window into spec; whether
 * pending j must stay out of the core for its reservation (not started:
 * reason Reservation, and a wake-up at its start; gone:
 * ReservationDeleted); deleting the reservations that ended, before a
 * pass (whether any went: the core is rebuilt then). */
void	 core_resv_windows(void);
void	 core_resv_spec(const struct job *j, struct sched_jobspec *spec);
bool	 core_resv_before(struct job *j, int64_t now);
bool	 core_resv_expire(void);
/* core-resv.c: the earliest end (ms) of a reservation, to delete it then
 * (a wake-up, as a window's end is the core's), or SCHED_NEVER. */
int64_t	 core_resv_next_end(void);

/* core-qos.c: j's QOS (qos.h; the default for a job from before QOS),
 * or NULL when its QOS is gone (a reload); the tiers and preemption rules
 * of the settings in force, into the core being built; j's tier beside
 * its partition's (spec's tier on entry), its preemption class and its
 * QOS's limit per user, into spec; whether it may be preempted, and how;
 * whether pending j must stay out of the core for its QOS (its reason
 * says why). */
const struct qos *core_qos_of(const struct job *j);
void	 core_qos_rules(void);
void	 core_qos_spec(const struct job *j, struct sched_jobspec *spec);
enum job_preempt core_qos_preempt(const struct job *j);
bool	 core_qos_before(struct job *j);

/* core-predict.c: j's run time in all as the jobs like it that completed
 * ran (ms; 0: none alike yet), and how it was found (false: it was not);
 * learning j's run, which completed. */
int64_t	 core_predict_run_ms(const struct job *j);
bool	 core_predict_guess(const struct job *j, struct predict_guess *g);
void	 core_predict_learn(const struct job *j, const struct store_job *row);
/* The GPU-times (GPU-ms) of the completed jobs like j, the rule's that
 * predicts it, the newest max at most (out has room): their count. */
size_t	 core_predict_similar(const struct job *j, uint64_t *out, size_t max);

/* core-fairshare.c: the tree (again) from the accounts in force, every
 * leaf's standing handed to a new core, with the usage read from the
 * store at the first; j's leaf (sched_jobspec's fs_leaf), and user's
 * under account's; before a pass, the running jobs charged and the
 * standings that moved handed over, once a tick has passed; a job that
 * stops running charged to now; all of it freed. */
void	 core_fairshare_build(void);
uint32_t core_fairshare_leaf(const struct job *j);
uint32_t core_fairshare_leaf_of(const char *user, const char *account);
void	 core_fairshare_tick(int64_t now);
void	 core_fairshare_stopped(const struct job *j, int64_t now);
void	 core_fairshare_free(void);

/* The record of who holds each GPU, made at first use. */
struct core_hold *core_holds(void);
/* Running job j holds the GPUs of its parts (its start, or start-up). */
void	core_job_hold(struct job *j);
/* Hands a running job to the core with the GPUs it holds; leaves it out
 * (logged) when its node is unknown to the core or the GPUs are taken:
 * it runs unscheduled, its GPUs held outside (node_outside). */
void	core_adopt(struct job *j, int64_t now);
/* core-build.c: a new core from the nodes and every job (after a change
 * of settings or of a node's GPUs), and the nodes synced before a pass
 * (up, down, drained, CPUs and memory, the GPUs held outside the core's
 * jobs; a new node or a changed GPU count makes the core stale). */
void	core_build_again(void);
void	core_build_sync(void);

#endif
