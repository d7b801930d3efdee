/* duration.h: job time limits as Slurm users write them. */
#ifndef GB_DURATION_H
#define GB_DURATION_H

#include <stddef.h>
#include <stdint.h>

/* Parses "M", "M:S", "H:M:S", "D-H", "D-H:M" or "D-H:M:S" into seconds:
 * minutes and seconds after a colon are 0-59, hours after days 0-23, and
 * the whole at most max seconds, whose days are the days' range (a time
 * limit's bound is common/job-req.h's). "0", "UNLIMITED" and "INFINITE"
 * mean no limit and give 0. Returns 0, or -1 with err naming the field
 * out of range and its range, the most, or the input and the accepted
 * forms. */
int	 duration_parse(const char *, uint64_t max, uint64_t *secs, char *err,
	    size_t errlen);

/* Writes secs as "M:SS", "H:MM:SS" or "D-HH:MM:SS" into buf; returns buf. */
char	*duration_format(uint64_t secs, char *buf, size_t len);

#endif
