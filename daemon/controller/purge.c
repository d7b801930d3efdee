/* purge.c: retention, when and how much (purge.h); the SQL is the store's
 * (store-purge.c).
 *
 * The batch size is what keeps a purge off the hot path. A batch of 500
 * jobs deletes about 2,000 rows (the job, its runs, its events, perhaps
 * its texts), a few milliseconds of SQLite work, and it runs only in a
 * loop pass that had nothing else ready, or after PURGE_MAX_WAIT_MS when
 * the loop never runs dry; its rows then go out with the next group
 * commit like any other write. A year of a busy cluster (a million jobs)
 * goes in 2,000 batches while requests are served between them. */
#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/purge.h"
#include "daemon/controller/store.h"

/* Jobs (and node events) deleted per batch; jobs looked at per batch of a
 * dry run, which only reads. */
#define PURGE_BATCH		500
#define PURGE_SCAN		5000
/* Longest a batch waits for an idle loop pass. */
#define PURGE_MAX_WAIT_MS	100
/* The first automatic purge: once the nodes have had a moment to
 * re-register and the first scheduling pass has run. */
#define PURGE_START_DELAY	2
/* Between the end of an automatic purge and the next. */
#define PURGE_INTERVAL		3600

struct purge_run {
	struct purge_result	 res;
	struct store_purge_pos	 pos;
	bool			 jobs_done;
	char			*who;		/* NULL: the automatic one */
	purge_done_cb		 cb;
	void			*arg;
	struct timespec		 started;
	unsigned		 batches;
	TAILQ_ENTRY(purge_run)	 entry;
};
TAILQ_HEAD(purge_runs, purge_run);

/* Retention's runs waiting their turn, its events and what it last saw of
 * the settings. Global: one retention over the one store, started by
 * gctl purge and by its own timer alike. */
static struct {
	struct purge_runs runs;
	struct event	*ev;	/* a batch, when idle */
	struct event	*wait;	/* a batch, idle or not */
	struct event	*timer;	/* the next automatic purge */
	bool		 auto_queued;
	int		 days;	/* keep_finished_days last seen */
} purge = {
	.runs = TAILQ_HEAD_INITIALIZER(purge.runs),
};

static void	purge_step_cb(evutil_socket_t, short, void *);
static void	purge_timer_cb(evutil_socket_t, short, void *);

static void
purge_arm(int seconds)
{
	struct timeval	tv = { seconds, 0 };

	if (purge.timer != NULL)
		evtimer_add(purge.timer, &tv);
}

void
purge_init(struct event_base *base)
{
	purge.ev = evtimer_new(base, purge_step_cb, NULL);
	commit_priority_idle(purge.ev);
	purge.wait = evtimer_new(base, purge_step_cb, NULL);
	purge.timer = evtimer_new(base, purge_timer_cb, NULL);
	purge.auto_queued = false;
	purge.days = ctx_conf()->keep_finished_days;
	if (purge.days > 0)
		purge_arm(PURGE_START_DELAY);
}

/* Asks for the next batch. Through a timer due at once, not
 * event_active: libevent runs the events activated during a pass in that
 * same pass, so a batch that activated the next would run the whole purge
 * before the loop looked at a socket again (a gctl ping waited 6 s for
 * 200,000 jobs). A timer fires in the next pass, after the poll, and at
 * the idle priority only if nothing else was ready. */
static void
purge_want(void)
{
	struct timeval	now = { 0, 0 };
	struct timeval	tv = { 0, PURGE_MAX_WAIT_MS * 1000 };

	if (!evtimer_pending(purge.ev, NULL))
		evtimer_add(purge.ev, &now);
	if (!evtimer_pending(purge.wait, NULL))
		evtimer_add(purge.wait, &tv);
}

const struct purge_result *
purge_queue(int64_t cutoff, bool dry_run, const char *who, purge_done_cb cb,
    void *arg)
{
	struct purge_run	*r = xcalloc(1, sizeof *r);

	r->res.cutoff = cutoff;
	r->res.dry_run = dry_run;
	r->who = who != NULL ? xstrdup(who) : NULL;
	r->cb = cb;
	r->arg = arg;
	TAILQ_INSERT_TAIL(&purge.runs, r, entry);
	purge_want();
	return (&r->res);
}

/* Logs the purge r, once. */
static void
purge_log(const struct purge_run *r)
{
	struct timespec	now;
	struct tm	tm;
	time_t		t = (time_t)r->res.cutoff;
	char		when[32], how[160];
	double		took;

	clock_gettime(CLOCK_MONOTONIC, &now);
	took = (double)(now.tv_sec - r->started.tv_sec) +
	    (double)(now.tv_nsec - r->started.tv_nsec) / 1e9;
	if (localtime_r(&t, &tm) == NULL ||
	    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		snprintf(when, sizeof when, "@%" PRId64, r->res.cutoff);
	if (r->who != NULL)
		snprintf(how, sizeof how, "%s", r->who);
	else
		snprintf(how, sizeof how, "controller.keep_finished_days = %d",
		    purge.days);
	if (r->res.dry_run) {
		log_info("purge: %zu finished jobs ended before %s and would "
		    "go (dry run, %s; %.2f s)", r->res.jobs, when, how, took);
		return;
	}
	/* The automatic purge finds nothing most hours. */
	if (r->who == NULL && r->res.jobs == 0 && r->res.node_events == 0 &&
	    !r->res.failed && !r->res.stopped) {
		log_debug("purge: nothing ended before %s (%s)", when, how);
		return;
	}
	log_info("purge: %zu finished jobs that ended before %s deleted, and "
	    "%zu node events (%s; %u batches, %.2f s)%s", r->res.jobs, when,
	    r->res.node_events, how, r->batches, took, r->res.failed ?
	    "; stopped by a store failure, see above" : r->res.stopped ?
	    "; stopped with gbatchd" : "");
}

/* Ends the purge at the head of the queue. */
static void
purge_finish(struct purge_run *r)
{
	TAILQ_REMOVE(&purge.runs, r, entry);
	purge_log(r);
	if (r->cb != NULL)
		r->cb(&r->res, r->arg);
	if (r->who == NULL) {
		purge.auto_queued = false;
		if (!r->res.stopped)
			purge_arm(PURGE_INTERVAL);
	}
	free(r->who);
	free(r);
}

/* Runs one batch of the purge at the head of the queue. Returns whether
 * that purge has ended. */
static bool
purge_batch(struct purge_run *r)
{
	size_t	n = 0;
	bool	more;

	if (r->batches++ == 0)
		clock_gettime(CLOCK_MONOTONIC, &r->started);
	if (!r->jobs_done && r->res.dry_run) {
		if (store_purge_count(r->res.cutoff, PURGE_SCAN, &r->pos, &n,
		    &more) != 0)
			goto failed;
		r->res.jobs += n;
		return (!more);
	}
	if (!r->jobs_done) {
		if (store_purge_jobs(r->res.cutoff, PURGE_BATCH, &r->pos,
		    &n) != 0)
			goto failed;
		r->res.jobs += n;
		r->jobs_done = n < PURGE_BATCH;
		return (false);
	}
	if (store_purge_node_events(r->res.cutoff, PURGE_BATCH, &n) != 0)
		goto failed;
	r->res.node_events += n;
	return (n < PURGE_BATCH);
failed:
	r->res.failed = true;
	return (true);
}

static void
purge_step_cb(evutil_socket_t fd, short what, void *arg)
{
	struct purge_run	*r;

	(void)fd;
	(void)what;
	(void)arg;
	event_del(purge.ev);
	evtimer_del(purge.wait);
	if ((r = TAILQ_FIRST(&purge.runs)) == NULL)
		return;
	if (purge_batch(r))
		purge_finish(r);
	if (!TAILQ_EMPTY(&purge.runs))
		purge_want();
}

static void
purge_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	int	days = ctx_conf()->keep_finished_days;

	(void)fd;
	(void)what;
	(void)arg;
	if (days <= 0 || purge.auto_queued)
		return;
	purge.auto_queued = true;
	purge_queue(ctx_now() - (int64_t)days * 86400, false, NULL, NULL,
	    NULL);
}

void
purge_reconfigure(void)
{
	int	days = ctx_conf()->keep_finished_days;

	if (days == purge.days)
		return;
	purge.days = days;
	if (purge.timer == NULL)
		return;
	evtimer_del(purge.timer);
	/* An automatic purge under way re-arms the timer when it ends. */
	if (days > 0 && !purge.auto_queued)
		purge_arm(PURGE_START_DELAY);
}

void
purge_free(void)
{
	struct purge_run	*r;

	while ((r = TAILQ_FIRST(&purge.runs)) != NULL) {
		r->res.stopped = true;
		if (r->batches == 0)
			clock_gettime(CLOCK_MONOTONIC, &r->started);
		purge_finish(r);
	}
	if (purge.ev != NULL)
		event_free(purge.ev);
	if (purge.wait != NULL)
		event_free(purge.wait);
	if (purge.timer != NULL)
		event_free(purge.timer);
	purge.ev = purge.wait = purge.timer = NULL;
}
