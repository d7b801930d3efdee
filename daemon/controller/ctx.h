/* ctx.h: what every module of the controller may read of the whole: the
 * settings in force, the clock, the event loop and when the controller
 * started; and the two things a request may ask of the whole controller:
 * to stop, and to read its settings again.
 *
 * gbatchd.c, the composition root, fills it in (ctx_configure at start,
 * ctx_open once the loop exists) and is the only file that includes
 * gbatchd.h; the modules below it include this header instead, so that
 * none of them depends on the controller as a whole (STYLE.md, section
 * 13). Rules do not read the clock: they take `now` from their caller. */
#ifndef GB_CTL_CTX_H
#define GB_CTL_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct conf;
struct event_base;

/* The server's name and version, as HELLO and PING replies give it. */
#define CTX_SERVER	"gbatchd " PACKAGE_VERSION

/* What the composition root does when a request asks it to. */
struct ctx_root {
	/* Stops once replies are written (SHUTDOWN, SIGTERM). */
	void	(*stop)(const char *why);
	/* Reads the settings file again and applies what can change
	 * without a restart, with notes (strings) on what that does to
	 * jobs; 0, or -1 with err (nothing changed). */
	int	(*reconfigure)(json_t *changed, json_t *restart, json_t *notes,
		    char *err, size_t errlen);
};

/* Start-up: the settings (borrowed: they must outlive the controller;
 * conf_reload_apply changes them in place on a reload), the file they came
 * from and what the root does on request. */
void			 ctx_configure(const struct conf *, const char *file,
			     const struct ctx_root *);
/* The loop and the start time, once gbatchd_open has them; NULL at the
 * close. */
void			 ctx_open(struct event_base *, int64_t started);

/* The settings in force (read-only for everyone but the root). */
const struct conf	*ctx_conf(void);
/* The configuration file read at start and by reloads. */
const char		*ctx_conf_file(void);
/* The controller's one event loop, for modules that arm events. */
struct event_base	*ctx_base(void);
/* When gbatchd started (seconds). */
int64_t			 ctx_started(void);
/* Wall-clock seconds, as every time in the store and the protocol. */
int64_t			 ctx_now(void);
/* The same clock in milliseconds: the scheduling core's. */
int64_t			 ctx_now_ms(void);

/* Whether the controller is stopping: requests then get shutting_down.
 * The root sets it (gbatchd_stop), and clears it at each start. */
/* The replica this controller is (replica.h), or NULL: one controller
 * of its own. Set by the root once raft is started. */
struct replica		*ctx_replica(void);
void			 ctx_set_replica(struct replica *);
bool			 ctx_stopping(void);
void			 ctx_set_stopping(bool);
/* Asks the root to stop (struct ctx_root's stop). */
void			 ctx_stop(const char *why);
/* Asks the root to reload its settings (struct ctx_root's
 * reconfigure). */
int			 ctx_reconfigure(json_t *changed, json_t *restart,
			     json_t *notes, char *err, size_t errlen);

#endif
