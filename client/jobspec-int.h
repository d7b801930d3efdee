/* jobspec-int.h: what the files of gsub's job spec share (jobspec.h is
 * its interface): the spec itself, where each value came from, and the
 * option table's codes. jobspec.c makes and frees a spec and answers
 * about it; jobspec-opt.c holds the options and takes one's value;
 * jobspec-parse.c reads the command line and #GSUB/#SBATCH lines;
 * jobspec-load.c reads the script; jobspec-build.c writes JOB_SUBMIT's
 * "job"; jobspec-shape.c resolves the shape options together. */
#ifndef GB_JOBSPEC_INT_H
#define GB_JOBSPEC_INT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/jobspec-shape.h"
#include "client/jobspec.h"
#include "client/slurm-opt.h"

/* Far beyond any node today; above it the number is a typo. The
 * controller still refuses what no node can hold. */
#define JOBSPEC_MAX_GPUS	65536
#define JOBSPEC_MAX_GPUS_PER_NODE 64
#define JOBSPEC_MAX_NAME	200
/* gbatchd's bound (req-job-submit.c). */
#define JOBSPEC_MAX_COMMENT	1024
#define JOBSPEC_MAX_PATTERN	4096
/* --signal's seconds before the time limit: Slurm's default and most. */
#define JOBSPEC_WARN_DEFAULT	60
#define JOBSPEC_WARN_MAX	65535

/* Words on one #GSUB line; a line holds a few options. */
#define JOBSPEC_MAX_WORDS	64

enum jobspec_opt {
	JOBSPEC_OPT_EXPORT = 256,
	JOBSPEC_OPT_PTY,
	JOBSPEC_OPT_JOBID,
	JOBSPEC_OPT_PREEMPTIBLE,
	JOBSPEC_OPT_PARSABLE,
	JOBSPEC_OPT_WRAP,
	JOBSPEC_OPT_CKPT_SIGNAL,
	JOBSPEC_OPT_CKPT_GRACE,
	JOBSPEC_OPT_NO_REQUEUE,
	JOBSPEC_OPT_CONSOLIDATE,
	JOBSPEC_OPT_SPREAD,
	JOBSPEC_OPT_COMMENT,
	JOBSPEC_OPT_WAIT,
	JOBSPEC_OPT_KILL_DEP,
	JOBSPEC_OPT_OPEN_MODE,
	JOBSPEC_OPT_SIGNAL,
	JOBSPEC_OPT_TEST_ONLY,
	JOBSPEC_OPT_GPUS_PER_NODE,
	JOBSPEC_OPT_GPUS_PER_TASK,
	JOBSPEC_OPT_TASKS_PER_NODE,
	JOBSPEC_OPT_ANY_SHAPE,
	JOBSPEC_OPT_GPU_BIND,
	JOBSPEC_OPT_CPUS_PER_GPU,
	JOBSPEC_OPT_MEM,
	JOBSPEC_OPT_MEM_PER_GPU,
	/* Row i of slurm-opt.h's table, by its long name. */
	JOBSPEC_OPT_SLURM = 0x2000,	/* above CMD_OPT_TIMEOUT */
};

/* Where a value came from: the command line wins over a #GSUB line, which
 * wins over an #SBATCH line. */
enum jobspec_src {
	JOBSPEC_SRC_NONE = 0,
	JOBSPEC_SRC_SBATCH,
	JOBSPEC_SRC_DIRECTIVE,
	JOBSPEC_SRC_CMDLINE,
};

enum jobspec_field {
	JOBSPEC_F_GPUS = 0,
	JOBSPEC_F_NAME,
	JOBSPEC_F_OUTPUT,
	JOBSPEC_F_ERROR,
	JOBSPEC_F_CHDIR,
	JOBSPEC_F_TIME,
	JOBSPEC_F_EXPORT,
	JOBSPEC_F_HOLD,
	JOBSPEC_F_PARSABLE,
	JOBSPEC_F_CKPT_SIGNAL,
	JOBSPEC_F_CKPT_GRACE,
	JOBSPEC_F_NO_REQUEUE,
	JOBSPEC_F_PLACEMENT,
	JOBSPEC_F_ACCOUNT,
	JOBSPEC_F_COMMENT,
	JOBSPEC_F_WAIT,
	JOBSPEC_F_BEGIN,
	JOBSPEC_F_DEPENDENCY,
	JOBSPEC_F_KILL_DEP,
	JOBSPEC_F_OPEN_MODE,
	JOBSPEC_F_SIGNAL,
	JOBSPEC_F_ARRAY,
	JOBSPEC_F_NODELIST,
	JOBSPEC_F_EXCLUDE,
	JOBSPEC_F_TEST_ONLY,
	JOBSPEC_F_NODES,
	JOBSPEC_F_GPUS_PER_NODE,
	JOBSPEC_F_GPUS_PER_TASK,
	JOBSPEC_F_NTASKS,
	JOBSPEC_F_TASKS_PER_NODE,
	JOBSPEC_F_ANY_SHAPE,
	JOBSPEC_F_GPU_BIND,
	JOBSPEC_F_CPUS_PER_TASK,
	JOBSPEC_F_CPUS_PER_GPU,
	JOBSPEC_F_MEM,
	JOBSPEC_F_MEM_PER_GPU,
	JOBSPEC_F_COUNT,
};

struct jobspec {
	enum jobspec_src	 src[JOBSPEC_F_COUNT];
	long			 gpus;
	char			*name;
	char			*output;
	char			*error;
	char			*chdir;
	uint64_t		 time_limit;
	char			*export;
	bool			 hold;
	bool			 parsable;
	int			 ckpt_signal;	/* 0: the default, SIGUSR1 */
	uint64_t		 ckpt_grace;	/* seconds */
	bool			 ckpt_grace_set;
	bool			 no_requeue;
	const char		*placement;	/* NULL, "consolidate", "spread" */
	bool			 quiet;		/* -Q: nothing printed on success */
	bool			 wait;		/* -W: until the job ends */
	bool			 test_only;	/* where and when; submit nothing */
	char			*account;	/* -A: charged to, for gacct */
	char			*comment;
	int64_t			 begin;		/* -b: seconds, 0: at once */
	char			*dependency;	/* -d, in depend.h's form */
	int			 kill_dep;	/* 0: the cluster's, 1 yes, 2 no */
	bool			 append;	/* --open-mode=append */
	const char		*default_output;
	int			 warn_signal;	/* --signal: 0 none */
	unsigned		 warn_time;	/* seconds before the limit */
	bool			 warn_batch;	/* B: the batch shell alone */
	char			*array;		/* -a: sbatch's --array text */
	char			*gpu_type;	/* -G TYPE:N: the GPUs' model */
	char			*nodelist;	/* -w: the nodes it may run on */
	char			*exclude;	/* -x: those it may not */
	struct jobspec_shape		 shape;		/* -N, --ntasks-per-node, ... */
	struct jobspec_shape_out	 shaped;	/* resolved by jobspec_check */

	unsigned		 timeout;	/* --timeout, seconds */
	bool			 timeout_set;

	char			*wrap;		/* --wrap command */
	char			*script_path;	/* as given */
	char			*script;	/* its text */
	char			**argv;		/* the script's arguments */
	int			 argc;

	/* grun: the command line is a command and its arguments, not a
	 * script (argv holds them all). */
	bool			 command;
	bool			 pty;		/* --pty */
	bool			 preemptible;	/* --preemptible */
	uint64_t		 jobid;		/* --jobid: attach; 0 none */
};

/* Whether s is valid UTF-8 (JSON carries nothing else). */
bool		 jobspec_is_text(const char *s);
/* Whether s is valid UTF-8 without control characters. */
bool		 jobspec_printable(const char *s);
/* Options that each make sense alone but not together, checked once all
 * are in (the command line's and the directives' alike), and the shape
 * they make. Returns 0, or -1 with err naming them. */
int		 jobspec_check(struct jobspec *, char *err, size_t errlen);

/* getopt_long's tables of every option gsub takes, its own and sbatch's
 * (made once): the long options, and the short ones in *shortopts. */
const struct option *jobspec_opt_getopt(const char **shortopts);
/* The Slurm row of getopt's answer c (a long option's code or a short
 * letter of sbatch's), or NULL for one of gsub's own. */
const struct slurm_opt *jobspec_opt_slurm_row(int c);
/* Validates option opt's value arg and stores it unless a place that
 * wins (src) set it already. err gets "--OPTION: what was wrong". */
int		 jobspec_opt_set(struct jobspec *, int opt, const char *arg,
		     enum jobspec_src src, char *err, size_t errlen);

#endif
