/* log-limit.h: logging an event that can repeat without bound (a refused
 * connection, a controller whose certificate fails) once per cause and
 * interval, with a count of what was held back, so that whoever can make
 * the event happen cannot fill the disk through the log. Pure: the caller
 * gives the time, and keeps one struct log_limit for each place that
 * logs. */
#ifndef GB_LOG_LIMIT_H
#define GB_LOG_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

/* Zeroed: nothing logged yet. */
struct log_limit {
	int64_t		last;		/* when one was last logged (s) */
	unsigned	held;		/* held back since */
	bool		logged;		/* one was ever logged */
	char		cause[160];	/* the cause of the last logged */
};

/* The most a note takes, its NUL included. */
#define LOG_LIMIT_NOTE	64

/* Whether the event of cause (NULL: any) at now (seconds) is logged: the
 * first, one whose cause differs from the last logged one's, or the first
 * once every seconds have passed since the last logged. Held back
 * otherwise (and counted). When it is logged, note (LOG_LIMIT_NOTE bytes)
 * is what the line ends with: "" or, when some were held back since the
 * last one logged, " (and N more since it was last logged)". */
bool	log_limit_pass(struct log_limit *, const char *cause, int64_t now,
	    int64_t every, char *note);

#endif
