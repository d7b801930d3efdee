/* worker.h: a function run on a thread of its own, the loop told when it
 * returns. The function must touch nothing the loop touches (its own
 * SQLite connection, its own memory) until then; the loop learns of the
 * end through a pipe, so nothing else is shared. gbatchd's one use: an
 * accounting report's jobs, read while the loop reads its runs
 * (req-job-acct-report.c). */
#ifndef GB_CTL_WORKER_H
#define GB_CTL_WORKER_H

struct event_base;
struct worker;

/* Runs fn(arg) on a new thread; once it has returned, base's loop calls
 * done(arg). Returns NULL (and logs why) when no thread can be had: the
 * caller then does the work itself. */
struct worker	*worker_start(struct event_base *base, void (*fn)(void *),
		     void (*done)(void *), void *arg);
/* Waits for fn to return and frees w; done is not called. NULL is
 * ignored. */
void		 worker_join(struct worker *w);

#endif
