/* sim-share.h: fair share as gsim replays it (sched_conf's fairshare).
 * Each (user, account) of the trace is a leaf of policy/fairshare.c's
 * tree, under the accounts and with the shares of gsim --shares, else
 * every account and user with one share (the trace says nothing of
 * shares); a job's GPU-time is charged to its leaf as it runs (a job of
 * shards its part of a GPU, sim_cluster_held), decayed with the
 * half-life, and the leaves' standings are handed to the core before the
 * first pass at least SIM_SHARE_TICK_MS of simulated time after the last
 * (a job's GPU-time is charged up to its stop at once). */
#ifndef GB_SIM_SHARE_H
#define GB_SIM_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "policy/fairshare.h"
#include "sim/sim-cluster.h"
#include "sim/sim-trace.h"

/* How often running jobs are charged and standings handed over. */
#define SIM_SHARE_TICK_MS	(60 * 1000)

struct sim_share;
struct sched_core;

/* For trace's jobs on cluster (both borrowed for its life), decaying
 * with half_life_ms (0: never), in the tree of acc[0..nacc) and
 * usr[0..nusr) (none: every account and user one share; a tree
 * fairshare_set_tree refuses is the caller's error: gsim checks --shares
 * first). */
struct sim_share	*sim_share_create(const struct sim_trace *,
			    const struct sim_cluster *, int64_t half_life_ms,
			    const struct fairshare_account *acc, size_t nacc,
			    const struct fairshare_user *usr, size_t nusr);
void			 sim_share_free(struct sim_share *);
/* Job idx's leaf (sched_jobspec's fs_leaf). */
uint32_t		 sim_share_leaf(const struct sim_share *, size_t idx);
/* Job idx started, or stopped (ended or preempted): what it ran since its
 * last charge is charged. */
void			 sim_share_start(struct sim_share *, size_t idx,
			    int64_t now);
void			 sim_share_stop(struct sim_share *, size_t idx,
			    int64_t now);
/* Before a pass at now: once a tick has passed, charges the running jobs,
 * ranks the leaves and hands the core the standings that moved. */
void			 sim_share_tick(struct sim_share *, struct sched_core *,
			    int64_t now);
/* Before a pass, with fair share's guarantee (sched_conf's
 * fairshare_preempt): once the leaves' demands have moved, works out
 * each leaf's part of the core's GPUs (fairshare_targets) and hands the
 * core those that changed. */
void			 sim_share_parts(struct sim_share *, struct sched_core *);

#endif
