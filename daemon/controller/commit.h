/* commit.h: group commit. Handlers write inside one lazily begun
 * transaction and their replies wait in a queue; once per loop pass, after
 * the read callbacks that were ready, one event runs the scheduling pass,
 * commits (one fsync for the lot), writes the queued frames and frees dead
 * peers. The pass, the peers and the stop are higher floors than this
 * one: the composition root hands them in as hooks (commit_init), so that
 * commit.c calls nothing above the store. */
#ifndef GB_CTL_COMMIT_H
#define GB_CTL_COMMIT_H

#include <stdbool.h>

#include <event2/event.h>
#include <event2/buffer.h>

struct peer;

/* What the end of a loop pass does besides the commit, in this order. */
struct commit_hooks {
	/* Whether work that must join the commit is waiting (a scheduling
	 * pass), and that work; run again while wanted, a few rounds at
	 * most, and the commit is wanted again if it still is. */
	bool	(*dirty)(void);
	void	(*pass)(void);
	/* Writes a queued frame once its commit is on disk, or closes its
	 * peer when the commit failed (a reply saying "accepted" would
	 * lie). */
	void	(*write)(struct peer *, struct evbuffer *frame);
	void	(*drop)(struct peer *, const char *why);
	/* After the frames: frees what waited for them to be written
	 * (closing and dead peers). */
	void	(*flushed)(void);
	/* Last: the loop may stop if a stop waited for this commit. */
	void	(*done)(void);
	/* Replicas (replica.h; NULL without): whether commits are shipped,
	 * and shipping one's changeset; shipped calls back with 0 once a
	 * majority holds it. ship returns -1 when it was refused at once
	 * (shipped is not called). */
	bool	(*shipping)(void);
	int	(*ship)(const void *changeset, size_t len,
		    void (*shipped)(void *arg, int status), void *arg);
};

/* Sets up the end-of-pass event on base (before any other event is made:
 * it sets the loop's priorities). hooks is copied. */
void	commit_init(struct event_base *, const struct commit_hooks *);
void	commit_free(void);
/* Makes the end-of-pass event run this pass (cheap; idempotent). */
void	commit_want(void);
/* Whether frames must wait for a commit: a transaction is open or frames
 * already wait (so later ones keep their order). */
bool	commit_pending(void);
/* Queues frame (drained into the queue) for peer until the commit. */
void	commit_queue(struct peer *, struct evbuffer *frame);
/* Same for len bytes of packed frames at data (copied). */
void	commit_queue_bytes(struct peer *, const void *data, size_t len);
/* Gives ev the commit's priority, below every other event's: it runs only
 * in a loop pass that had nothing else to do (work kept off the hot path,
 * such as the purge's batches). */
void	commit_priority_idle(struct event *ev);
/* Runs the end-of-pass work now (shutdown). */
void	commit_run(void);

#endif
