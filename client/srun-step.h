/* srun-step.h: srun inside a batch script that runs once (sbatch's jobs,
 * GBATCH_STEP=batch): a step of the job's allocation. Its tasks are laid
 * out over the job's nodes (srun_step_layout, pure), each started inside
 * the job through gbatchd (JOB_ATTACH naming its task: gnoded gives it
 * its ranks, as to a batch task), its output relayed to srun's (with
 * --label, each line after its task's rank), srun's signals passed on to
 * every task, and srun exits with the highest status of its tasks. */
#ifndef GB_SRUN_STEP_H
#define GB_SRUN_STEP_H

#include <stddef.h>

#include "client/srun-opt.h"

/* A step's tasks over its nodes: the first `nodes` of the job's, count[i]
 * on node i, `tasks` in all (rank r on the node whose counts reach past
 * it: block, as Slurm's default distribution). */
struct srun_layout {
	unsigned	 nodes;
	unsigned	 tasks;
	unsigned	*count;		/* nodes entries */
};

/* Lays the step o asks for (-n, -N, --ntasks-per-node; none: the job's
 * own tasks) over a job of alloc_nodes nodes with alloc_per_node tasks on
 * each: -N nodes (else as many as -n needs, up to the job's), the tasks
 * spread as evenly as they go, the first nodes taking one more. Returns 0
 * (free out with srun_step_layout_free), or -1 with err saying what does not
 * fit and what would. */
int	 srun_step_layout(unsigned alloc_nodes, unsigned alloc_per_node,
	     const struct srun_opt *o, struct srun_layout *out, char *err,
	     size_t errlen);
void	 srun_step_layout_free(struct srun_layout *);

/* A count from the job's environment: the first of a and b that is set
 * and a whole number from 1 to the most tasks a job has, or def (grun
 * and srun read the job's shape so). */
unsigned srun_step_env_count(const char *a, const char *b, unsigned def);

/* Runs argv (a command and its arguments, NULL-terminated) as the step o
 * asks for in the job whose batch script calls srun (its GBATCH_JOB_ID,
 * GBATCH_NODELIST and tasks per node). Returns srun's exit status: the
 * highest of its tasks', or with err set 2 for a step that does not fit
 * the job, 3 when gbatchd cannot be reached. */
int	 srun_step_run(char **argv, const struct srun_opt *o,
	     unsigned timeout_s, char *err, size_t errlen);

#endif
