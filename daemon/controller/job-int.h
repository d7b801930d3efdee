/* job-int.h: what the files of the job module (job.c, job-table.c) share
 * and no one else: a job's layout, and how the table learns of a job's
 * coming, going and change of state. */
#ifndef GB_CTL_JOB_INT_H
#define GB_CTL_JOB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-state.h"
#include "daemon/controller/job.h"

struct job_dep;
struct job_shared;

/* The strings a job keeps from its row that are its own (common/
 * job-field.h's JFF_OWN) are in a block after the struct (job_str); the
 * others, where it runs and as whom (JFF_SHARED), are shared with the
 * jobs that have the same (job-strs.h). None changes once the job is made,
 * but for a message that job_set_end replaces, and what scontrol update
 * changes in a waiting job's request (job_set_asked): its own strings are
 * then a block apart (job_rare's own), the job's other block unused, as
 * the job cannot move (its pointer is held all over). */

/* What a job's runs leave: none of it is set before its first start (or
 * end), and most of a large queue has never started, so a job holds it
 * apart, from the first time one member is set (job_run_set). */
struct job_run {
	char			*message;	/* NULL: str's JF_MESSAGE */
	struct job_part		*parts;		/* nparts; NULL for none */
	uint64_t		 mem_peak;	/* MB, over every run */
	uint32_t		 alloc_cpus;	/* the last run's, in all */
	int64_t			 cpu_time;	/* ms, every run's */
	int64_t			 start_time;
	int64_t			 end_time;
	uint32_t		 master_port;	/* running: MASTER_PORT */
	uint32_t		 restarts;
	uint32_t		 stale_copies;
	uint32_t		 nparts;
	int			 exit_code;
	int			 signal;
	bool			 has_exit;
	bool			 gang_stopping;
	/* A job of shards: its GPU's shards as the run started (what the
	 * run is charged its fraction of; job_run_milli). */
	uint8_t			 shards;
	struct job_service	 service;
};

/* What few jobs have: a place in an array, a dependency, a begin time,
 * memory or CPUs by the GPU, strings changed since it was made. Made when
 * the job is, for a job with any of them, or when a dependency is first
 * set or its strings change. */
struct job_rare {
	/* An array's own row: the tasks it still stands for, parsed and
	 * as text (NULL for a task). */
	struct array_set	*left;
	char			*tasks;
	struct job_dep		*dep;		/* its dependency, parsed */
	struct job_learn	*learn;		/* job-learn.c's; NULL: none */
	char			*own;		/* NULL: its str */
	uint64_t		 array_job_id;	/* 0: not of an array */
	uint64_t		 mem_per_gpu;
	int64_t			 begin_time;
	uint32_t		 throttle;	/* its array's %N, 0: none */
	uint32_t		 cpus_per_gpu;	/* 0: not asked */
	int			 task_id;	/* -1: not a task */
	uint8_t			 own_width;	/* of own's offsets */
};

/* Laid out for size: 100,000 pending jobs are 100,000 of these (issue 15's
 * memory target). Pointers first, then 64-bit, then 32-bit members; what
 * runs leave and what few jobs have (arrays, dependencies, ...) are apart,
 * the strings others have too are shared, and its own are in str after a
 * table of where each starts, in 8, 16 or 32 bits. */
struct job {
	uint64_t		 id;
	struct job_run		*run;		/* NULL: all members 0 */
	struct job_rare		*rare;		/* NULL: all members 0 */
	/* What it asks that others ask alike: its user, command, files,
	 * constraints, GPUs, nodes, CPUs, memory, time limit and flags. */
	const struct job_shared	*shared;
	int64_t			 submit_time;
	struct job_sched	 sched;
	uint32_t		 slot;		/* in jobs.tab */
	uint8_t			 state;		/* enum job_state */
	uint8_t			 reason;	/* in job_reasons */
	bool			 cancel_requested;
	uint8_t			 width;		/* of an offset: 1, 2 or 4 */
	/* The block of its own strings (job-strs.h): argv is JSON text
	 * (listings show it), dependency depend.h's text, array_spec as
	 * submitted with %N; '' for none. Of the shared ones, req_nodes
	 * and exclude_nodes are -w and -x (names, ',' between), gpu_type
	 * --gres=gpu:TYPE:N's, tasks_per_node "", "K" or "gpu". */
	char			 str[];
};

/* job-table.c, for job.c: a job made enters the table (in id order, or at
 * the end while loading), a job freed leaves it, and one changing state
 * (before j->state changes) is counted again. */
/* The table's blocks of shared strings, for making and freeing jobs. */
struct job_shared_tab *job_table_shared(void);
/* Frees a job's parsed dependency the way job_table_set_dep_free said. */
void	job_table_dep_free(struct job_dep *);
void	job_table_add(struct job *);
void	job_table_remove(struct job *);
void	job_table_state(struct job *, enum job_state to);
/* j's rare members, made (all 0, no task) where it had none. */
struct job_rare *job_rare_set(struct job *);

#endif
