/* log-limit.c: once per cause and interval (log-limit.h). */
#include <stdio.h>
#include <string.h>

#include "common/log-limit.h"

bool
log_limit_pass(struct log_limit *l, const char *cause, int64_t now,
    int64_t every, char *note)
{
	const char	*c = cause != NULL ? cause : "";

	if (l->logged && strncmp(l->cause, c, sizeof l->cause - 1) == 0 &&
	    now - l->last < every && now >= l->last) {
		l->held++;
		return (false);
	}
	if (l->held > 0)
		snprintf(note, LOG_LIMIT_NOTE, " (and %u more since it was "
		    "last logged)", l->held);
	else
		note[0] = '\0';
	l->held = 0;
	l->last = now;
	l->logged = true;
	snprintf(l->cause, sizeof l->cause, "%s", c);
	return (true);
}
