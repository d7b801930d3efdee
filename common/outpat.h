/* outpat.h: output file patterns (gsub -o/-e), the one place that knows
 * their % sequences. gsub and gbatchd check a pattern with outpat_check();
 * gnoded, and whoever shows a job's files, expands it with outpat_expand().
 * Pure functions: no I/O, no allocation. */
#ifndef GB_OUTPAT_H
#define GB_OUTPAT_H

#include <stddef.h>
#include <stdint.h>

/* The default output file, like sbatch's slurm-%j.out. */
#define OUTPAT_DEFAULT	"gbatch-%j.out"

/* What a pattern may name. A NULL string or a negative rank is not known
 * (a client showing a job before it runs); its sequence is then kept as
 * written. */
struct outpat_vars {
	uint64_t	 id;		/* %j */
	const char	*name;		/* %x */
	const char	*user;		/* %u */
	unsigned	 restarts;	/* %r: runs before this one */
	const char	*node;		/* this part's node */
	long		 rank;		/* this part's rank, 0 first */
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

#endif
