/* node-jobs-int.h: what node-jobs.c shares with node-jobs-recover.c (a
 * gnoded started again re-attaches to its jobs' shepherds) and no one
 * else: the table's layout and the few steps of a job's life both take. */
#ifndef GB_NODE_JOBS_INT_H
#define GB_NODE_JOBS_INT_H

#include <sys/queue.h>
#include <sys/types.h>

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <event2/event.h>
#include <jansson.h>

#include "daemon/node/node-jobs.h"
#include "daemon/node/node-mps.h"

/* How often shepherds without a pidfd are looked at (old kernels only). */
#define NODE_JOB_CHECK_S	1

enum node_job_state {
	NODE_JOB_STARTING,	/* shepherd forked, job not yet exec'd */
	NODE_JOB_RUNNING,
	NODE_JOB_ENDED,		/* waiting for JOB_ENDED_ACK */
};

struct node_job {
	TAILQ_ENTRY(node_job)	 entry;
	struct node_jobs	*jobs;
	uint64_t		 id;
	enum node_job_state	 state;
	json_t			*gpus;		/* array of indices */
	uint64_t		 gpu_mask;
	/* The shards of its one GPU it holds beside other such jobs (gsub
	 * --gpu-share; 0: its GPUs whole). */
	unsigned		 gpu_share;
	/* MPS serves it (node-mps.h): its GPU's daemon counts it. */
	bool			 mps;

	pid_t			 shep_pid;
	uint64_t		 shep_ticks;
	int			 pidfd;		/* -1 if none */
	struct event		*pid_ev;
	int			 sock;		/* -1 when re-attached */
	struct event		*sock_ev;
	char			 line[128];
	size_t			 linelen;

	pid_t			 pid;		/* the job; 0 until started */
	time_t			 start_time;
	/* Which run of which shape: the controller tells a run it may take
	 * back from one that is stale (an older run, a part of a gang). */
	unsigned		 restarts;
	unsigned		 num_nodes;
	bool			 preempted;	/* JOB_PREEMPT passed on */
	bool			 suspended;	/* frozen: JOB_SUSPEND */
	json_t			*end;		/* the end report */
	char			*cpuset;	/* pinned to; NULL: not */
	bool			 interactive;	/* its streams are relayed */
	/* Whose it is: -1 for a job recovered from a record of before the
	 * uid was kept (node_jobs_shm). */
	long long		 uid;
	struct node_progress	*progress;	/* NULL: none */
};
TAILQ_HEAD(node_job_list, node_job);

struct node_jobs {
	struct event_base		*base;
	const struct node_conf		*conf;
	size_t				 ngpus;
	const struct node_jobs_cb	*cb;
	void				*arg;
	struct node_job_list		 list;
	struct event			*check;		/* pidfd fallback */
	struct event			*sigchld;	/* reaps shepherds */
	struct node_ios			*ios;		/* interactive jobs' */
	struct node_mps			*mps;		/* NULL: no MPS */
	/* The host CPUs jobs are pinned to (gnoded's own), when they are:
	 * in cgroups, with node.cpus no more than the host has. */
	bool				 pin;
	cpu_set_t			 host;
	/* The CPUs near each GPU (empty: not known). */
	cpu_set_t			*near;
	size_t				 nnear;
};

/* A new job id in the table, STARTING, nothing watched yet. */
struct node_job	*node_jobs_new_job(struct node_jobs *, uint64_t id);
/* Takes the job out of the table and frees it. */
void		 node_jobs_free_job(struct node_job *);
/* Its GPUs (an array of indices; copied) and their mask. */
void		 node_jobs_set_gpus(struct node_job *, const json_t *gpus);
/* Watches its shepherd (pidfd, or the once-a-second check). */
void		 node_jobs_watch(struct node_job *);
/* Its shepherd is gone: reads the end it recorded (FAILED when none) and
 * reports it. */
void		 node_jobs_reap(struct node_job *);

#endif
