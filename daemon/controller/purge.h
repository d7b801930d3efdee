/* purge.h: retention. Finished jobs older than controller.keep_finished_days
 * leave the store, with their runs, events and unshared texts, and so do
 * node events as old: about an hour after the previous purge, shortly after
 * start, and when an operator asks (gctl purge, req-purge.c).
 *
 * A purge deletes a small batch of jobs per loop pass, and only in a pass
 * that had nothing else to do (commit.h), so submissions, listings and the
 * scheduler are served between batches however many jobs go. Purges asked
 * for while one runs wait their turn. Nothing here blocks but the store's
 * statements of one batch. */
#ifndef GB_CTL_PURGE_H
#define GB_CTL_PURGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event_base;

struct purge_result {
	int64_t		 cutoff;	/* jobs that ended before this went */
	bool		 dry_run;	/* counted, nothing deleted */
	size_t		 jobs;		/* deleted, or would be (dry run) */
	size_t		 node_events;	/* deleted */
	/* The store failed (logged); the counts say what went before. */
	bool		 failed;
	/* gbatchd stopped before the purge ended. */
	bool		 stopped;
};

/* Called once when a purge queued by purge_queue has ended. */
typedef void	(*purge_done_cb)(const struct purge_result *, void *arg);

/* Arms the first automatic purge, shortly after start. */
void	purge_init(struct event_base *);
/* Ends the purges under way (their callbacks get stopped set). */
void	purge_free(void);
/* Takes a new controller.keep_finished_days: a purge soon when it
 * changed to a number of days, none while it is 0. */
void	purge_reconfigure(void);
/* Queues a purge of the finished jobs that ended before cutoff (seconds
 * since the epoch); dry_run only counts them. who names the asker in the
 * log ("gctl purge by alice"). cb(arg) is called when it has ended, from
 * the event loop, never from here. Returns the purge's counts so far,
 * borrowed until cb has returned. */
const struct purge_result *purge_queue(int64_t cutoff, bool dry_run,
	    const char *who, purge_done_cb cb, void *arg);

#endif
