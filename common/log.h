/* log.h: daemon logging. Subject first: "job 4711: requeued, ...". CLIs do
 * not log; they print data to stdout and errors to stderr. Each line is
 * written through safe-text.h, so text from peers may go in as it came: a
 * newline or an escape sequence in it shows escaped (\n, \e). */
#ifndef GB_LOG_H
#define GB_LOG_H

enum log_level {
	LOG_LEVEL_ERROR = 0,
	LOG_LEVEL_WARN,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG,
};

/* ident names the daemon; to_syslog selects syslog over stderr. */
void	log_open(const char *ident, int to_syslog, enum log_level);
void	log_set_level(enum log_level);
/* Parses "error", "warn", "info" or "debug"; returns -1 on anything else. */
int	log_level_parse(const char *, enum log_level *);
const char *log_level_name(enum log_level);
void	log_close(void);

void	log_error(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));

#endif
