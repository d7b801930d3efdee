/* log.c: stderr (foreground) or syslog logging for the daemons. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "common/log.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"

static const char	*log_ident = "gbatch";
static int		 log_syslog;
static enum log_level	 log_level = LOG_LEVEL_INFO;

void
log_open(const char *ident, int to_syslog, enum log_level level)
{
	log_ident = ident;
	log_syslog = to_syslog;
	log_level = level;
	if (log_syslog)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void
log_set_level(enum log_level level)
{
	log_level = level;
}

static const char *const log_level_names[] = { "error", "warn", "info",
    "debug" };

const char *
log_level_name(enum log_level l)
{
	if ((unsigned)l >= sizeof log_level_names / sizeof log_level_names[0])
		return ("info");
	return (log_level_names[l]);
}

int
log_level_parse(const char *s, enum log_level *out)
{
	size_t	i;

	for (i = 0; i < sizeof log_level_names / sizeof log_level_names[0];
	    i++) {
		if (strcmp(s, log_level_names[i]) == 0) {
			*out = (enum log_level)i;
			return (0);
		}
	}
	return (-1);
}

void
log_close(void)
{
	if (log_syslog)
		closelog();
}

/* Every line is made safe here, whole, rather than at each call: job names,
 * node names, reasons and paths reach the log from peers and users, and a
 * newline or an escape sequence in one must not forge a line or steer the
 * terminal of whoever reads the log. Our own text is plain ASCII, which
 * passes unchanged. */
static void
log_vwrite(enum log_level level, const char *fmt, va_list ap)
{
	static const int	 prio[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };
	static const char	*tag[] = { "error", "warn", "info", "debug" };
	struct timespec		 ts;
	struct tm		 tm;
	char			 when[32], stack[1024], *line = stack, *safe;
	va_list			 aq;
	int			 n;

	if (level > log_level)
		return;
	va_copy(aq, ap);
	n = vsnprintf(stack, sizeof stack, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof stack) {
		line = xmalloc((size_t)n + 1);
		vsnprintf(line, (size_t)n + 1, fmt, ap);
	}
	if (log_syslog) {
		safe = safe_text_dup(line, (size_t)n);
		syslog(prio[level], "%s", safe);
		free(safe);
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
		fprintf(stderr, "%s.%03ld %s %s: ", when, ts.tv_nsec / 1000000,
		    log_ident, tag[level]);
		safe_text_fwrite(line, (size_t)n, stderr);
		fputc('\n', stderr);
	}
	if (line != stack)
		free(line);
}

#define LOG_FN(name, level)					\
void								\
name(const char *fmt, ...)					\
{								\
	va_list	ap;						\
								\
	va_start(ap, fmt);					\
	log_vwrite(level, fmt, ap);				\
	va_end(ap);						\
}
LOG_FN(log_error, LOG_LEVEL_ERROR)
LOG_FN(log_warn, LOG_LEVEL_WARN)
LOG_FN(log_info, LOG_LEVEL_INFO)
LOG_FN(log_debug, LOG_LEVEL_DEBUG)
