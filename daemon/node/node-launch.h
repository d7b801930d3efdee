/* node-launch.h: the job of a JOB_LAUNCH message (docs/protocol.md), checked
 * and decoded once in gnoded so the shepherd works on plain C values. */
#ifndef GB_NODE_LAUNCH_H
#define GB_NODE_LAUNCH_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/node/node-conf.h"

/* How a part runs its batch script ("batch"): once a task (gsub's), once
 * on the first node (sbatch's, "once": one process, with the part's
 * tasks, GPUs and variables for srun to start its steps from), or not at
 * all ("hold": the other nodes of such a job, held by a process of no
 * output that only SIGTERM ends). */
enum node_batch {
	NODE_BATCH_TASKS = 0,
	NODE_BATCH_ONCE,
	NODE_BATCH_HOLD,
};

struct node_launch {
	uint64_t	  id;
	char		 *name;
	/* The partition it runs in (SLURM_JOB_PARTITION); "" from a
	 * controller from before partitions. */
	char		 *partition;
	char		 *user;
	uid_t		  uid;
	gid_t		  gid;
	char		 *workdir;	/* absolute */
	char		 *out;		/* patterns, relative to workdir */
	char		 *err;
	char		 *script;	/* the script's text; "": run argv */
	char		**argv;		/* NULL-terminated, without argv[0]
					 * (with a script), or the command */
	char		**env;		/* NULL-terminated "KEY=VALUE" */
	unsigned	 *gpus;		/* GPU indices on this node */
	size_t		  ngpus;
	uint64_t	  time_limit;	/* seconds, 0 = none */
	char		 *nodelist;
	unsigned	  num_nodes;
	unsigned	  node_rank;
	/* The processes this node starts (sbatch's --ntasks-per-node): the
	 * global rank of the first, how many, and the job's in all. One
	 * per node (node_rank, 1, num_nodes) unless the launch says. */
	unsigned	  task_base;
	unsigned	  tasks;
	unsigned	  world_size;
	/* One task per GPU, each seeing its own (CUDA_VISIBLE_DEVICES)
	 * unless gpu_bind_none. */
	bool		  task_per_gpu;
	bool		  gpu_bind_none;
	enum node_batch	  batch;
	/* A step's (STEP_LAUNCH): its number, the number of its step's
	 * first task (tasks.first, the step's name: SLURM_STEP_ID; 0: its
	 * own), and its one process's rank on the node (tasks.local; RANK
	 * is task_base + it). 0 for a job. */
	unsigned	  step;
	unsigned	  step_first;
	unsigned	  task_local;
	/* The CPUs and memory (MB) of this node the job may use; 0: not
	 * said (no limit). */
	unsigned	  cpus;
	uint64_t	  mem_mb;
	/* The shards of its one GPU the job takes beside other such jobs
	 * (gsub --gpu-share; 0: its GPUs whole). */
	unsigned	  gpu_share;
	/* Not from the launch: where MPS serves it (node-mps.h), its GPU's
	 * pipe directory and UUID (the GPU's daemon sees that GPU alone, so
	 * a client names it by UUID, not by index), its share of the GPU's
	 * threads (percent) and memory (MB; 0: not known). mps_pipe NULL:
	 * MPS does not serve it. */
	char		 *mps_pipe;
	char		 *mps_device;
	unsigned	  mps_threads;
	uint64_t	  mps_mem_mb;
	/* Not from the launch: the host CPUs gnoded pinned the job to
	 * (node-jobs.c), "0-3,8"; NULL: not pinned. */
	char		 *cpuset;
	unsigned	  restarts;	/* runs before this one */
	char		 *ckpt_dir;	/* absolute, "" = none */
	/* Not from the launch: the job's progress file (node-progress.h),
	 * GBATCH_PROGRESS, borrowed; NULL: none. */
	const char	 *progress;
	int		  ckpt_signal;	/* sent first on preemption */
	unsigned	  ckpt_grace;	/* seconds before SIGTERM */
	char		 *master_addr;	/* "" = none */
	unsigned	  master_port;	/* 0 = none */
	mode_t		  umask;	/* the submitter's */
	bool		  append;	/* open_mode "append": never truncate */
	int		  warn_signal;	/* 0 none: sent warn_time s before */
	unsigned	  warn_time;	/* the time limit */
	bool		  warn_batch;	/* to the batch shell alone */
	/* A job array's task: its array's id (0: none), the task and the
	 * array's tasks in all, lowest, highest and step (0: not one). */
	uint64_t	  array_job;
	long		  array_task;
	unsigned	  array_count;
	unsigned	  array_min;
	unsigned	  array_max;
	unsigned	  array_step;
	/* An interactive job's or a step's streams (grun): relayed through
	 * gnoded rather than written to files. io_stdin: its first task
	 * reads the session's input; io_pty: on a pseudo-terminal of
	 * io_rows x io_cols (the first task's alone). */
	bool		  io;
	bool		  io_pty;
	bool		  io_stdin;
	unsigned	  io_rows;
	unsigned	  io_cols;
	/* Not from the launch: the descriptors the tasks get as stdin,
	 * stdout and stderr (-1: /dev/null), in the shepherd or the step's
	 * child. */
	int		  io_fd[3];
};

/* The umask of a job whose launch does not say (a job submitted before
 * gsub sent one, or by a client that does not): only its user may read
 * what it writes. A file too private costs a chmod; one too public is
 * read before anyone notices. */
#define NODE_LAUNCH_UMASK	077

/* Reads only the job id of msg's "job" (so even a launch that cannot be
 * decoded can be answered). Returns 0, or -1 when there is none. */
int	node_launch_id(const json_t *msg, uint64_t *id);

/* Decodes msg's "job". Returns a new launch the caller frees, or NULL with
 * err naming the field and what it accepts. */
struct node_launch	*node_launch_parse(const json_t *msg, char *err,
			     size_t errlen);
void			 node_launch_free(struct node_launch *);
/* The processes l starts: its tasks, or one for a batch script run once
 * and for a holder. */
unsigned		 node_launch_procs(const struct node_launch *);
/* Whether l's user may run a what ("job", "command") here: root only
 * where node.allow_root_jobs says, any other user only when gnoded runs as
 * root. Returns 0, or -1 with err saying why not. */
int			 node_launch_check_user(const struct node_conf *,
			     const struct node_launch *l, const char *what,
			     char *err, size_t errlen);

#endif
