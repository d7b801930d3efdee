/* srun-opt.h: srun's own options, those of a job step that sbatch lacks,
 * read from srun's command line before grun's job options (jobspec) see
 * the rest. Each is taken with the meaning it has in gbatch or refused
 * with why, as slurm-opt.h does sbatch's. Pure: no I/O. */
#ifndef GB_SRUN_OPT_H
#define GB_SRUN_OPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

struct srun_opt {
	unsigned	 ntasks;	/* -n/--ntasks; 0: not given */
	unsigned	 nodes;		/* -N/--nodes; 0: not given */
	unsigned	 tasks_per_node;/* a step's --ntasks-per-node; 0 */
	/* A step's -o/--output and -e/--error (patterns, borrowed from
	 * argv; NULL: srun's own) and --gpus-per-task=1 (each task its
	 * node's GPU of its local rank). */
	const char	*output;
	const char	*error;
	bool		 gpu_per_task;
	/* A step's --export list (borrowed; NULL: ALL) and -c (0: not
	 * given). */
	const char	*export;
	unsigned	 cpus_per_task;
	bool		 label;		/* -l/--label */
	bool		 unbuffered;	/* -u/--unbuffered */
	bool		 kill_on_bad_exit; /* -K/--kill-on-bad-exit[=1] */
};

/* Reads srun's own options from argv[1..*argc), those before the command
 * (the first word that is neither an option nor an option's value),
 * removing the ones jobspec does not know (--cpu-bind, --mpi=none,
 * --kill-on-bad-exit, --overlap, --exact, --whole, --unbuffered, --label;
 * the last two and --unbuffered noted in o) and noting -n and -N in o (they stay for
 * jobspec, which reads them as the job's, unless step: srun in a job,
 * where they say the step's shape, removed with --ntasks-per-node,
 * -o/--output, -e/--error, --gpus-per-task=1, --export and
 * -c/--cpus-per-task, also noted). The other
 * options are jobspec's, longopts and shortopts (getopt's) saying which
 * take a value. argv keeps its terminating NULL. Returns 0, or -1 with err
 * saying which option is refused and why, or what its value should be. */
int	srun_opt_take(int *argc, char **argv, const struct option *longopts,
	    const char *shortopts, bool step, struct srun_opt *o, char *err,
	    size_t errlen);

#endif
