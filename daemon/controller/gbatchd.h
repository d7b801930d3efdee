/* gbatchd.h: the controller as a whole (gbatchd.c): starting and stopping
 * it, and what its modules share: the settings, the clock and the way to
 * stop. gbatchd-main.c runs it as a daemon; no other file includes this
 * one: the modules read the settings, the clock and the loop through
 * ctx.h, which gbatchd.c fills in. */
#ifndef GB_CTL_GBATCHD_H
#define GB_CTL_GBATCHD_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/controller/conf.h"

struct event_base;

/* Where the settings come from: the file, and the command line's flags
 * over it (NULL or false: the file's). Kept for reloads. */
struct gbatchd_flags {
	const char	*conf_path;
	bool		 conf_must_exist;	/* else defaults stand */
	const char	*socket;		/* -s */
	const char	*listen;		/* -l */
	const char	*state_dir;		/* -d */
	bool		 debug;			/* -v */
};

/* Reads the settings (the strings in flags must outlive the controller)
 * and makes the TLS context when tls.enabled. Returns 0, 1 when there was
 * no file (defaults stand), or -1 with err (nothing is kept). */
int			 gbatchd_configure(const struct gbatchd_flags *,
			     char *err, size_t errlen);
/* Frees what gbatchd_configure made. */
void			 gbatchd_unconfigure(void);
/* Starts the controller on base under the settings read: makes the state
 * and socket directories, opens the store and recovers its jobs, listens,
 * and asks for a scheduling pass. Returns 0, or -1 with err; the process
 * should then exit. */
int			 gbatchd_open(struct event_base *, char *err,
			     size_t errlen);
/* Writes what is pending, closes every peer and listener and the store and
 * frees the controller's memory; gbatchd_open may then run again. */
void			 gbatchd_close(void);

/* Reads the file again and applies what can change without a restart
 * (conf_reload_apply), then reschedules under the new settings, with
 * notes on the jobs it leaves without a partition (core_part_notes).
 * Returns 0, or -1 with err (the file's fault; nothing changed).
 * ctx_reconfigure asks for it. */
int			 gbatchd_reconfigure(json_t *changed, json_t *restart,
			     json_t *notes, char *err, size_t errlen);
/* Replicas: stops the loop at once so that the process starts again
 * (gbatchd-main.c), rebuilding its store from the log: it lost the lead,
 * or could not apply the log. */
void			 gbatchd_restart(const char *why);
bool			 gbatchd_restarting(void);
/* Asks the loop to stop once replies are written (SHUTDOWN, SIGTERM). */
void			 gbatchd_stop(const char *why);
/* Leaves the loop if stopping and everything is written. */
void			 gbatchd_check_stop(void);

#endif
