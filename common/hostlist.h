/* hostlist.h: node names as Slurm writes lists of them (sbatch's -w and
 * -x): names joined by ',', each with at most one bracketed range list,
 * "n[1-3,7]" or "gpu[01-16]" (a range keeps its first number's zero
 * padding, as Slurm's). Pure: no I/O. */
#ifndef GB_HOSTLIST_H
#define GB_HOSTLIST_H

#include <stddef.h>

/* At most this many names from one text (a typo such as n[1-999999]
 * is refused rather than expanded). */
#define HOSTLIST_MAX	4096

/* Expands s into *names (a new array of new strings, *n of them; free
 * with hostlist_free), in the order written, duplicates dropped. Returns
 * 0, or -1 with err naming the bad part and the accepted forms. */
int	hostlist_expand(const char *s, char ***names, size_t *n, char *err,
	    size_t errlen);
void	hostlist_free(char **names, size_t n);

/* The names as one list, as Slurm's scontrol show hostlist writes it:
 * sorted, the names that differ only in a trailing number folded into
 * one range list, "n[1-3,7],gpu[01-02],login" (numbers of the same width
 * with leading zeros keep them; a name alone in its group stays as it
 * is). A new string. */
char	*hostlist_compress(char *const *names, size_t n);

#endif
