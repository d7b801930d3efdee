/* node.h: the GPU servers the controller knows: registered ones and those
 * remembered from the store (down until they say HELLO again), with what
 * their HELLO and heartbeats say. Which job holds each of their GPUs is
 * the scheduling core's (core.h: core_gpu_job, core_node_use): a listing
 * asks it and hands node_describe the answer. */
#ifndef GB_CTL_NODE_H
#define GB_CTL_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/controller/core-hold.h"

struct jtext;
struct node;
struct peer;

/* Returns the node called name, creating it (down, no GPUs) if needed. The
 * node list owns it. */
struct node	*node_get(const char *name);
struct node	*node_find(const char *name);
/* Nodes in name order. */
struct node	*node_first(void);
struct node	*node_next(const struct node *);
void		 node_free_all(void);

const char	*node_name(const struct node *);
/* The node's number: 0 for the first node known, 1 for the next, and so
 * on; it keeps it while gbatchd runs (the core's record of who holds each
 * GPU is by number). */
uint32_t	 node_number(const struct node *);
/* The address the node connected from ("" until it has). */
const char	*node_addr(const struct node *);
uint32_t	 node_gpus_total(const struct node *);
/* A mask of its GPUs: bits 0 to node_gpus_total - 1. */
uint64_t	 node_gpus_mask(const struct node *);
bool		 node_is_up(const struct node *);
bool		 node_is_drained(const struct node *);
/* Up, connected and not drained: the scheduler may start jobs there. */
bool		 node_is_schedulable(const struct node *);
/* "down" or "drained", else as jobs hold its GPUs (held, a mask, as the
 * core says: core_node_held) and CPUs (cpus held: CPU jobs'):
 * "idle", "mixed" (some held, or CPUs with no GPU) or "allocated" (every
 * GPU). */
const char	*node_state_name(const struct node *, uint64_t held,
		    uint32_t cpus);
struct peer	*node_peer(const struct node *);
int64_t		 node_last_seen(const struct node *);
/* Whether the node said HELLO since gbatchd started. */
bool		 node_seen_since_start(const struct node *);
/* The most GPUs any known node has (0 when none is known). */
uint32_t	 node_largest(void);
/* The GPUs of every known node, up or down. */
uint64_t	 node_gpus_all(void);
size_t		 node_count_up(void);
size_t		 node_count(void);

/* Sets the GPU count remembered from the store (the node stays down). */
void		 node_set_known(struct node *, uint32_t gpus, bool drained,
		     const char *reason, int64_t last_seen);
/* Registers node as up on peer with the GPUs of its HELLO (gpus is the
 * HELLO's array; the node keeps a reference). */
void		 node_set_up(struct node *, struct peer *, const char *addr,
		     const char *gpu_source, json_t *gpus, int64_t now);
/* Marks node down; its jobs are the caller's business (node-health.c). */
void		 node_set_down(struct node *);
/* Forgets peer when it is the node's connection (the peer is closing). */
void		 node_peer_gone(struct node *, struct peer *);
void		 node_touch(struct node *, int64_t now);
void		 node_set_drain(struct node *, bool drained, const char *reason);
const char	*node_drain_reason(const struct node *);

/* The CPUs and memory (MB) its HELLO said it has (0: not said; the
 * scheduler then does not count them). */
void		 node_set_res(struct node *, uint32_t cpus, uint64_t memory_mb);
uint32_t	 node_cpus(const struct node *);
uint64_t	 node_memory_mb(const struct node *);

/* The shards each of its GPUs is offered in to jobs of gsub --gpu-share
 * (its HELLO's gpu_shards; 1: none). */
void		 node_set_gpu_shards(struct node *, uint32_t);
uint32_t	 node_gpu_shards(const struct node *);

/* Whether the node can suspend its jobs (its HELLO's "freezer": jobs in
 * cgroups that freeze); false until it says so. */
bool		 node_freezer(const struct node *);
void		 node_set_freezer(struct node *, bool);
/* The node's topology label (gnoded's node.switch), "" for none:
 * consolidation keeps a multi-node job under one label when it can. */
const char	*node_switch(const struct node *);
void		 node_set_switch(struct node *, const char *);

/* The node's index in the scheduling core (schedule.c), or NODE_NO_INDEX. */
#define NODE_NO_INDEX	UINT32_MAX
uint32_t	 node_sched_index(const struct node *);
void		 node_set_sched_index(struct node *, uint32_t);

/* What jobs hold of a node, as the scheduling core, their owner, says
 * (core_node_use): a listing asks it and hands it to node_describe. */
struct node_use {
	uint64_t	 held;		/* its GPUs held, stale copies' too */
	/* The job holding each of its GPUs (a stale copy's), 0: free;
	 * borrowed from the core. NULL: none ever held. */
	const uint64_t	*job;
	/* The jobs beside those on GPUs that several hold (shards, a
	 * time-slicing ring), nco; borrowed from the core. */
	const struct core_hold_co *co;
	size_t		 nco;
	uint32_t	 cpus;		/* CPUs and memory (MB) held */
	uint64_t	 mem_mb;
	/* The CPU jobs (of no GPU) on it, ncpu_jobs; borrowed from the
	 * core. */
	const uint64_t	*cpu_job;
	size_t		 ncpu_jobs;
	/* For each GPU whose job is an array's task, the array's id and
	 * the task (users name it "42_7"); task -1 for any other. NULL:
	 * none is. */
	const uint64_t	*array;
	const int64_t	*task;
	/* The partitions it is in, names joined by ',' in gbatch.conf's
	 * order ('' without partitions). */
	char		 partitions[256];
	/* The advance reservation open on it now ('' none; a maintenance
	 * first), and whether it is a maintenance. */
	char		 reservation[72];
	bool		 resv_maint;
};

/* Appends the node's NODE_LIST entry, as JSON text (its state, as
 * node_state_name, but "maint" throughout an open maintenance on it and
 * "reserved" while idle in another open reservation); brief gives each GPU
 * as an array of what changes, [index, job, util, mem_used_mb,
 * low_since], with [..., array_job_id, array_task_id] after them for an
 * array's task, leaving out what only HELLO changes (name, uuid,
 * memory_mb). use is what jobs hold of it. */
void		 node_describe(const struct node *, struct jtext *, bool brief,
		     const struct node_use *use);
/* Saves the node's row (GPUs, drain state) in the open transaction. */
int		 node_save(const struct node *);
/* Records that node went DOWN or came UP, was DRAINED or RESUMED (state),
 * in the open transaction, beside the node_save of the same change. */
int		 node_event(const struct node *, int64_t when, const char *state,
		     const char *detail);

/* Below this % busy, an allocated GPU counts as idle (gtop flags one idle
 * for minutes: a job holding GPUs it does not use). */
#define NODE_GPU_LOW_UTIL	5
/* Takes a heartbeat's "gpus" (docs/protocol.md): each GPU's use. */
void		 node_gpu_use(struct node *, const json_t *gpus, int64_t now);
/* The GPUs of mask changed hands (core.c, as a job or a stale copy takes
 * or gives them back): how long each has been idle counts again from its
 * next heartbeat. */
void		 node_gpu_handed(struct node *, uint64_t mask);

/* GPU i's memory free (MB) as the node last measured it: its HELLO's
 * memory_mb less its heartbeat's mem_used_mb (the jobs frozen on it
 * included); UINT32_MAX where either is not known. */
uint32_t	 node_gpu_mem_free(const struct node *, uint32_t i);

/* Whether every GPU node described in its HELLO names type in its model
 * ("a100" in "NVIDIA A100-SXM4-80GB"; case aside). False for a node not
 * seen since gbatchd started, or without GPUs. */
bool		 node_gpus_match(const struct node *, const char *type);

#endif
