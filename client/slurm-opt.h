/* slurm-opt.h: sbatch's options as gsub takes them, on its command line and
 * in #SBATCH (and #GSUB) lines. Each is described once here: what gsub does
 * with it (the same as its own option, mapped to one, or refused with the
 * gbatch way or a plain "gbatch has no such thing"), so that no Slurm
 * option is ever silently ignored, and gsub --help and gsub(1) print the
 * Slurm-to-gbatch table from the same rows. Pure: no I/O. */
#ifndef GB_SLURM_OPT_H
#define GB_SLURM_OPT_H

#include <stddef.h>

#include "common/job-req.h"

/* What an option does. */
enum slurm_opt_do {
	SLURM_DO_SAME,		/* gsub's own option of that name */
	SLURM_DO_GPUS,		/* a GPU count: --gres */
	SLURM_DO_ACCEPT,	/* what gbatch does anyway: --requeue */
	SLURM_DO_QUIET,		/* -Q: print nothing when all goes well */
	SLURM_DO_SPREAD,	/* --spread-job: --spread */
	SLURM_DO_HELP,		/* --usage: as --help */
	SLURM_DO_REFUSE,	/* refused with why */
};

struct slurm_opt {
	const char	*name;		/* long name, without "--" */
	int		 short_opt;	/* its letter, or 0 */
	int		 has_arg;	/* getopt's no/required/optional */
	enum slurm_opt_do what;
	const char	*arg;		/* its value, as --help writes it */
	/* The gbatch way (for SAME and the mappings: "-G N"), or why it
	 * is refused: the message after "--NAME: ". */
	const char	*says;
};

/* The options, in the order gsub --help lists them; n is set to their
 * count. */
const struct slurm_opt *slurm_opt_table(size_t *n);

/* The row of a long name, or NULL. */
const struct slurm_opt *slurm_opt_find(const char *name);

/* Parses a GPU request as --gres and --gpus write it: "gpu", "gpu:N",
 * "gpu:TYPE:N" (--gres, several comma-separated) or "N", "TYPE:N"
 * (--gpus, gsub -G), N within common/job-req.h's bound. Returns the
 * count, with TYPE (or "") in type, or -1 with err saying what was wrong
 * and what is accepted (the caller names the option). */
#define SLURM_OPT_TYPE_MAX	JOB_REQ_MAX_GPU_TYPE
long		 slurm_opt_gpus(const char *arg, int gres, char *type,
		     size_t typelen, char *err, size_t errlen);
/* Parses --gres's "shard" or "shard:N" (N from 1 to common/job-req.h's
 * JOB_REQ_MAX_SHARES): the shards of one GPU a job takes. Returns N, 0
 * where arg asks no shard (a GPU request for slurm_opt_gpus), or -1 with
 * err saying what was wrong and what is accepted. */
long		 slurm_opt_shards(const char *arg, char *err, size_t errlen);

#endif
