/* outpat.h: output file patterns (gsub -o/-e), the one place that knows
 * their % sequences. gsub and gbatchd check a pattern with outpat_check();
 * gnoded, and whoever shows a job's files, expands it with outpat_expand().
 * Pure functions: no I/O, no allocation. */
#ifndef GB_OUTPAT_H
#define GB_OUTPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The default output file, like sbatch's slurm-%j.out. */
#define OUTPAT_DEFAULT	"gbatch-%j.out"
/* A job array's: a file per task, as sbatch's slurm-%A_%a.out. */
#define OUTPAT_ARRAY_DEFAULT	"gbatch-%A_%a.out"

/* What a pattern may name. A NULL string or a negative rank is not known
 * (a client showing a job before it runs); its sequence is then kept as
 * written. */
struct outpat_vars {
	uint64_t	 id;		/* %j */
	const char	*name;		/* %x */
	const char	*user;		/* %u */
	unsigned	 restarts;	/* %r: runs before this one */
	const char	*node;		/* %N: this part's node */
	long		 rank;		/* %t: the task's rank, 0 first */
	long		 node_rank;	/* %n: its node's, 0 first */
	/* %A: the array's id (0: no array, %A is the job's id); %a: the
	 * task (-1: not yet known; 0 for a job of no array). */
	uint64_t	 array_job;
	long		 array_task;
};

/* Checks that every % in pattern starts a known sequence and that the
 * pattern is not empty. Returns 0, or -1 with err naming the sequence and
 * those accepted (callers prefix the option or field). */
int	outpat_check(const char *pattern, char *err, size_t errlen);

/* Expands pattern into out. An unknown or trailing % is copied as written
 * (outpat_check keeps such patterns out; this keeps an old one usable).
 * Returns 0, or -1 with err set when the result does not fit in outlen. */
int	outpat_expand(const char *pattern, const struct outpat_vars *,
	    char *out, size_t outlen, char *err, size_t errlen);

/* Whether pattern names a part (%N, %n or %t), so that each part of a
 * multi-node job writes a file of its own. */
bool	outpat_per_part(const char *pattern);
/* Whether it names the task (%t), so that each of the tasks a node starts
 * (--ntasks-per-node) writes a file of its own. */
bool	outpat_per_task(const char *pattern);

/* Whether a part may truncate the file of pattern when it opens it, rather
 * than append: only on the job's first run (a requeued run adds to what
 * the earlier runs wrote), and only when no other part writes to the same
 * file, i.e. the job has one part or the pattern names the part. The
 * parts of a multi-node job start independently, so a part that truncated
 * a shared file could wipe lines another part had already written.
 * docs/job-files.md has the whole rule. */
bool	outpat_truncates(const char *pattern, unsigned restarts,
	    unsigned nparts);

#endif
