/* when.h: the times gacct's -S and -E and gsub's --begin take, written as
 * sacct and sbatch users write them. All of them are local time:
 *
 *	YYYY-MM-DD		that day's 00:00:00
 *	YYYY-MM-DDTHH:MM[:SS]	that minute (or second)
 *	HH:MM[:SS]		that time of day: the last one (when_parse)
 *				or the next one (when_parse_next)
 *	noon, elevenses, fika, teatime
 *				12:00, 11:00, 15:00, 16:00, likewise
 *	now			now
 *	now-N[unit], now+N[unit]
 *				N seconds (the default), minutes, hours, days
 *				or weeks before or after now (units singular
 *				or plural, or s, min, h, d, w; any case)
 *	midnight, today		today's 00:00
 *	yesterday, tomorrow	that day's 00:00
 *	@EPOCH			seconds since 1970-01-01T00:00:00Z, for
 *				scripts that already hold a time
 *
 * Days and weeks are calendar days: now-1day is the same wall-clock time
 * yesterday, 23 or 25 hours ago across a change to or from summer time,
 * and "yesterday" is yesterday's midnight, not now minus 86400 seconds.
 * A wall-clock time that a change to summer time skips (02:30 on the day
 * clocks jump from 02:00 to 03:00) is taken as mktime() takes it. */
#ifndef GB_WHEN_H
#define GB_WHEN_H

#include <stddef.h>
#include <time.h>

/* Parses s against now (the caller's clock: nothing here reads one) and
 * sets *out. Returns 0, or -1 with err naming s and saying what is
 * accepted; *out is left alone on error. Never blocks. */
int	when_parse(const char *s, time_t now, time_t *out, char *err,
	    size_t errlen);
/* The same, but a time of day is its next one, as sbatch --begin takes
 * it: today's when it is still to come, else tomorrow's. */
int	when_parse_next(const char *s, time_t now, time_t *out, char *err,
	    size_t errlen);

#endif
