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

#include <jansson.h>

#include "client/jobspec-shape.h"
#include "client/jobspec.h"
#include "client/slurm-opt.h"

/* Words on one #GSUB line; a line holds a few options. */
#define JOBSPEC_MAX_WORDS	64

/* Where a value came from: the command line wins over a #GSUB line, which
 * wins over an #SBATCH line. */
enum jobspec_src {
	JOBSPEC_SRC_NONE = 0,
	JOBSPEC_SRC_SBATCH,
	JOBSPEC_SRC_DIRECTIVE,
	JOBSPEC_SRC_CMDLINE,
};

/* The values options set, one each (two options may set the same:
 * --consolidate and --spread). */
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
	JOBSPEC_F_PARTITION,
	JOBSPEC_F_QOS,
	JOBSPEC_F_RESERVATION,
	JOBSPEC_F_NICE,
	JOBSPEC_F_PRIORITY,
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
	JOBSPEC_F_TIME_SLICE,
	JOBSPEC_F_GPU_MEM,
	JOBSPEC_F_GPU_SHARE,
	JOBSPEC_F_WRAP,
	JOBSPEC_F_PTY,
	JOBSPEC_F_JOBID,
	JOBSPEC_F_PREEMPTIBLE,
	JOBSPEC_F_COUNT,
};

/* One option's value, as its reader took it: a number (a count, seconds,
 * MB, a flag's 1, a signal, a word's index) in n, a text in s (a new
 * string; a GPU count's TYPE, or NULL). */
struct jobspec_value {
	enum jobspec_src	 src;	/* NONE: not given */
	int64_t			 n;
	/* A range's end: -G MIN-MAX's MAX (n is MIN), 0 for none. */
	int64_t			 n2;
	char			*s;
};

/* --signal=[B:]SIG[@SECONDS], sbatch's, resolved by jobspec_check. */
struct jobspec_warn {
	int		 sig;		/* 0: none */
	unsigned	 secs;		/* before the time limit */
	bool		 batch;		/* B: the batch shell alone */
};

struct jobspec {
	struct jobspec_value	 v[JOBSPEC_F_COUNT];
	char			*gpu_type;	/* -G TYPE:N: the GPUs' model */
	bool			 quiet;		/* -Q: nothing said on success */
	const char		*default_output;
	/* sbatch's (jobspec_sbatch): no GPU option, no GPU; the script
	 * once, on the first node, its tasks started by srun. */
	bool			 no_gpu_default;
	bool			 batch_once;
	/* Resolved by jobspec_check once every option is in. */
	struct jobspec_shape_out shaped;
	struct jobspec_warn	 warn;

	unsigned		 timeout;	/* --timeout, seconds */
	bool			 timeout_set;

	char			*script_path;	/* as given */
	char			*script;	/* its text */
	char			**argv;		/* the script's arguments */
	int			 argc;

	/* grun: the command line is a command and its arguments, not a
	 * script (argv holds them all). */
	bool			 command;
};

/* Whether option f was given, and its number and text. */
#define JOBSPEC_SET(js, f)	((js)->v[f].src != JOBSPEC_SRC_NONE)
#define JOBSPEC_N(js, f)	((js)->v[f].n)
#define JOBSPEC_S(js, f)	((js)->v[f].s)

struct jobspec_opt;
/* Reads arg, the value of option o, into v. Returns 0, or -1 with err
 * saying what is accepted (jobspec_opt_set puts "--NAME: " before). */
typedef int jobspec_read_fn(const struct jobspec_opt *o, const char *arg,
    struct jobspec_value *v, char *err, size_t errlen);

/* One of gsub's options (jobspec-opt.c has them all). */
struct jobspec_opt {
	const char		*name;		/* long name, without "--" */
	int			 letter;	/* short option, or 0 */
	int			 has_arg;	/* getopt's */
	enum jobspec_field	 field;		/* the value it sets */
	int			 req;		/* enum job_req: its bounds, or
						 * JRQ_COUNT for none */
	int64_t			 max;		/* without req, its most */
	jobspec_read_fn		*read;		/* NULL: a flag, 1 */
	const char		*word;		/* a flag's word of req */
	unsigned		 flags;
};

/* Only the command line gives it; grun alone; gsub alone; its value is
 * its member's as it is (jobspec_opt_build). */
#define JOBSPEC_OPT_CMDLINE	0x1
#define JOBSPEC_OPT_GRUN	0x2
#define JOBSPEC_OPT_GSUB	0x4
#define JOBSPEC_OPT_AS_IS	0x8

/* The readers of option values (jobspec-read.c), named in the rows of
 * jobspec-opt.c: a count, [TYPE:]N GPUs, -N's nodes, tasks per node,
 * --gpu-bind, a size, a line, an output pattern, a directory, a time, a
 * time to begin, a text its own parser checks, one of a member's words,
 * yes or no, --signal, a signal, an account, --wrap's command, a job id. */
jobspec_read_fn	 jobspec_read_count, jobspec_read_gpus, jobspec_read_nodes,
		 jobspec_read_tasks, jobspec_read_bind, jobspec_read_mem,
		 jobspec_read_line, jobspec_read_pattern, jobspec_read_dir,
		 jobspec_read_duration, jobspec_read_begin, jobspec_read_parsed,
		 jobspec_read_word, jobspec_read_yesno, jobspec_read_warn,
		 jobspec_read_signum, jobspec_read_account, jobspec_read_wrap,
		 jobspec_read_jobid, jobspec_read_partition,
		 jobspec_read_signed;

/* Whether s is valid UTF-8 (JSON carries nothing else). */
bool		 jobspec_is_text(const char *s);
/* Whether s is valid UTF-8 without control characters (C0, DEL, C1). */
bool		 jobspec_printable(const char *s);
/* Options that each make sense alone but not together, checked once all
 * are in (the command line's and the directives' alike), and the shape
 * they make. Returns 0, or -1 with err naming them. */
int		 jobspec_check(struct jobspec *, char *err, size_t errlen);

/* getopt_long's tables of every option gsub takes, its own and sbatch's
 * (made once): the long options, and the short ones in *shortopts. An
 * option of gsub's table answers its letter, or JOBSPEC_OPT_BASE plus
 * its row; sbatch's, JOBSPEC_OPT_SLURM plus slurm-opt.h's row. */
#define JOBSPEC_OPT_BASE	0x100
#define JOBSPEC_OPT_SLURM	0x2000	/* above CMD_OPT_TIMEOUT */
const struct option *jobspec_opt_getopt(const char **shortopts);
/* getopt's answer for gsub's option of that long name (one there is). */
int		 jobspec_opt_code(const char *name);
/* Whether getopt's answer c is an option the command line alone may
 * give (--wrap; -h, -V and --timeout are the parser's own). */
bool		 jobspec_opt_cmdline(int c);
/* The Slurm row of getopt's answer c (a long option's code or a short
 * letter of sbatch's), or NULL for one of gsub's own. */
const struct slurm_opt *jobspec_opt_slurm_row(int c);
/* Takes the value arg of the option getopt answered opt for: read and
 * checked by its row's reader against its bounds (common/job-req.h), and
 * stored unless a place that wins over src set it already. Returns 0,
 * or -1 with err "--OPTION: what was wrong, and what is accepted". */
int		 jobspec_opt_set(struct jobspec *, int opt, const char *arg,
		     enum jobspec_src src, char *err, size_t errlen);
/* Puts into job (JOB_SUBMIT's "job") the value of each option given
 * whose value is its member's as it is (a count, a text, a flag). */
void		 jobspec_opt_build(const struct jobspec *, json_t *job);
/* Reads --signal's [B:]SIG[@SECONDS] into w. Returns 0, or -1 with err
 * saying what is accepted. */
int		 jobspec_read_signal(const char *arg,
		     struct jobspec_warn *w, char *err, size_t errlen);

#endif
