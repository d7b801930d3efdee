/* peer-limit.c: the limits on connections (see peer-limit.h). */
#include <sys/queue.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <dirent.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/peer-limit.h"

/* Descriptors gbatchd may open besides those counted at start and its
 * connections: SQLite's journal, a reloaded configuration file, the
 * password database, syslog. */
#define PEER_LIMIT_SLACK	16
/* Give memory back to the system once this much input was freed. */
#define PEER_LIMIT_TRIM		(4U << 20)
/* A client silent this long may be closed to make room for another: a
 * command writes its request as it connects and reads the reply at once,
 * so a connection silent for this long is held, not used. */
#define PEER_LIMIT_EVICT_MS	100

struct peer_limit {
	struct peer_limits	*ls;		/* the set it counts in */
	struct peer		*peer;		/* for the hooks alone */
	const char		*addr;		/* the peer's, for the log */
	bool			 node;		/* a node daemon's link */
	bool			 local;
	uid_t			 uid;
	int64_t			 connected;	/* ms, monotonic */
	int64_t			 last_frame;	/* ms; 0: none yet */
	size_t			 held;		/* bytes of a partial frame */
	int64_t			 held_since;	/* ms the frame began */
	bool			 waiting;	/* on the peer, not on us */
	bool			 frame_done;	/* held is a new frame's */
	double			 tokens;	/* requests it may send now */
	int64_t			 refilled;	/* ms */
	struct event		*resume;	/* when the rate allows again */
	TAILQ_ENTRY(peer_limit)	 entry;
};
TAILQ_HEAD(peer_limit_list, peer_limit);

/* The connections' limits and their bookkeeping. */
struct peer_limits {
	struct peer_limit_list	 all;
	struct event_base	*base;
	struct peer_limit_hooks	 hooks;
	struct event		*sweep_ev;
	size_t			 count;
	size_t			 held;	/* sum of held */
	size_t			 freed;	/* since the last trim */
	int			 trims;	/* sweeps left to trim */
	long			 fds;	/* RLIMIT_NOFILE */
	long			 base_fds;	/* not peers */
};

static int64_t
peer_limit_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* Descriptors open now, or -1. */
static long
peer_limit_open_fds(void)
{
	DIR		*d;
	struct dirent	*e;
	long		 n = 0;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return (-1);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.')
			n++;
	}
	closedir(d);
	return (n - 1);		/* the directory's own */
}

/* Closes what broke a time limit; gives freed input memory back. */
static void
peer_limit_sweep_cb(evutil_socket_t fd, short what, void *arg)
{
	struct peer_limits	*ls = arg;
	const struct conf	*c = ctx_conf();
	struct peer_limit	*l, *next;
	int64_t			 now = peer_limit_now();
	int64_t			 frame_ms = (int64_t)c->frame_timeout * 1000;
	int64_t			 idle_ms = (int64_t)c->idle_timeout * 1000;
	char			 why[160];

	/* glibc keeps freed heap for reuse; after a burst of large input
	 * it would keep it for good. libevent frees a closed connection's
	 * buffers later in the loop, not in peer_close, and this sweep may
	 * run in the very iteration that closed them, before the frees:
	 * trimmed on this sweep and the next. */
	if (ls->freed >= PEER_LIMIT_TRIM) {
		ls->freed = 0;
		ls->trims = 2;
	}
	if (ls->trims > 0) {
		ls->trims--;
		malloc_trim(0);
	}
	for (l = TAILQ_FIRST(&ls->all); l != NULL; l = next) {
		next = TAILQ_NEXT(l, entry);
		if (l->held != 0 && l->waiting &&
		    now - l->held_since >= frame_ms) {
			snprintf(why, sizeof why, "sent %zu bytes of a frame "
			    "but not the rest within %d s "
			    "(controller.frame_timeout)", l->held,
			    c->frame_timeout);
			ls->hooks.close(l->peer, why);
		} else if (l->last_frame == 0 && now - l->connected >= frame_ms) {
			snprintf(why, sizeof why, "no whole request within "
			    "%d s of connecting (controller.frame_timeout)",
			    c->frame_timeout);
			ls->hooks.close(l->peer, why);
		} else if (l->last_frame != 0 && l->held == 0 && !l->node &&
		    now - l->last_frame >= idle_ms) {
			snprintf(why, sizeof why, "silent for %d s between "
			    "requests (controller.idle_timeout)",
			    c->idle_timeout);
			ls->hooks.close(l->peer, why);
		}
	}
}

struct peer_limits *
peer_limit_create(struct event_base *base, const struct peer_limit_hooks *h)
{
	struct peer_limits	*ls = xcalloc(1, sizeof *ls);

	TAILQ_INIT(&ls->all);
	ls->base = base;
	ls->hooks = *h;
	ls->fds = 1024;
	ls->base_fds = 32;
	return (ls);
}

void
peer_limit_start(struct peer_limits *ls)
{
	struct timeval	tv = { 1, 0 };
	struct rlimit	rl;
	long		n;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
				log_warn("gbatchd: cannot raise the file limit "
				    "to %llu", (unsigned long long)rl.rlim_max);
				(void)getrlimit(RLIMIT_NOFILE, &rl);
			}
		}
		if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < LONG_MAX)
			ls->fds = (long)rl.rlim_cur;
		else
			ls->fds = LONG_MAX / 2;
	}
	if ((n = peer_limit_open_fds()) > 0)
		ls->base_fds = n;
	ls->base_fds += PEER_LIMIT_SLACK;
	log_info("gbatchd: file limit %ld: %ld for connections, of which "
	    "the last %d only for root, operators and node daemons",
	    ls->fds, ls->fds - ls->base_fds,
	    ctx_conf()->connection_reserve);
	ls->sweep_ev = event_new(ls->base, -1, EV_PERSIST,
	    peer_limit_sweep_cb, ls);
	evtimer_add(ls->sweep_ev, &tv);
}

void
peer_limit_free(struct peer_limits *ls)
{
	if (ls == NULL)
		return;
	/* Every peer closed first: what remains is no one's. */
	if (ls->sweep_ev != NULL)
		event_free(ls->sweep_ev);
	free(ls);
}

/* The most connections a class may have: ordinary users stop short of
 * the reserve. */
static long
peer_limit_cap(const struct peer_limits *ls, bool privileged)
{
	const struct conf	*c = ctx_conf();
	long			 cap = ls->fds - ls->base_fds;

	if (!privileged)
		cap -= c->connection_reserve;
	if (c->max_connections > 0 && (long)c->max_connections < cap)
		cap = c->max_connections;
	return (cap > 0 ? cap : 0);
}

/* Closes the client that has been silent longest (at least
 * PEER_LIMIT_EVICT_MS, with no frame half-sent), to let another in; never
 * one of the newcomer's own user (local, uid): a user who fills the
 * table would otherwise churn through their own connections while
 * everyone else found them all too young to close. Returns whether one
 * was closed. */
static bool
peer_limit_evict(struct peer_limits *ls, bool local, uid_t uid)
{
	struct peer_limit	*l, *best = NULL;
	int64_t			 now = peer_limit_now(), last, best_last = 0;
	char			 why[128];

	TAILQ_FOREACH(l, &ls->all, entry) {
		if (l->held != 0 || l->node || (local && l->local &&
		    l->uid == uid))
			continue;
		last = l->last_frame != 0 ? l->last_frame : l->connected;
		if (now - last < PEER_LIMIT_EVICT_MS)
			continue;
		if (best == NULL || last < best_last) {
			best = l;
			best_last = last;
		}
	}
	if (best == NULL)
		return (false);
	snprintf(why, sizeof why, "silent for %lld ms while connections ran "
	    "short; making room for another",
	    (long long)(now - best_last));
	ls->hooks.close(best->peer, why);
	return (true);
}

int
peer_limit_admit(struct peer_limits *ls, bool local, uid_t uid,
    bool privileged, bool *busy,
    char *why, size_t len)
{
	const struct conf	*c = ctx_conf();
	struct peer_limit	*l;
	long			 cap, mine = 0;

	*busy = false;
	if (local && !privileged && c->max_connections_per_user > 0) {
		TAILQ_FOREACH(l, &ls->all, entry) {
			if (l->local && l->uid == uid)
				mine++;
		}
		if (mine >= c->max_connections_per_user) {
			snprintf(why, len, "this user already has %ld "
			    "connections open, the most "
			    "controller.max_connections_per_user allows",
			    mine);
			return (-1);
		}
	}
	cap = peer_limit_cap(ls, privileged || !local);
	if ((long)ls->count < cap || peer_limit_evict(ls, local, uid))
		return (0);
	*busy = true;
	snprintf(why, len, "gbatchd has %zu connections open, the most it "
	    "takes from %s (controller.max_connections, "
	    "controller.connection_reserve and its file limit of %ld)",
	    ls->count, privileged || !local ? "anyone" :
	    "ordinary users", ls->fds);
	return (-1);
}

struct peer_limit *
peer_limit_new(struct peer_limits *ls, struct peer *p, const char *addr,
    bool local, uid_t uid)
{
	struct peer_limit	*l;

	l = xcalloc(1, sizeof *l);
	l->ls = ls;
	l->peer = p;
	l->addr = addr;
	l->local = local;
	l->uid = uid;
	l->connected = l->refilled = peer_limit_now();
	l->tokens = ctx_conf()->max_requests_per_second;
	TAILQ_INSERT_TAIL(&ls->all, l, entry);
	ls->count++;
	return (l);
}

void
peer_limit_set_node(struct peer_limit *l)
{
	if (l != NULL)
		l->node = true;
}

void
peer_limit_gone(struct peer_limit *l, size_t unread)
{
	struct peer_limits	*ls;

	if (l == NULL)
		return;
	ls = l->ls;
	ls->held -= l->held;
	ls->freed += unread;
	if (l->resume != NULL)
		event_free(l->resume);
	TAILQ_REMOVE(&ls->all, l, entry);
	ls->count--;
	free(l);
}

/* Closes the peers whose half-received frames are oldest until all of
 * them fit the budget: a frame that trickles in is cut before one that
 * has just begun. */
static void
peer_limit_over_budget(struct peer_limits *ls)
{
	const struct conf	*c = ctx_conf();
	size_t			 budget = (size_t)c->max_buffered_mib << 20;
	struct peer_limit	*l, *oldest;
	char			 why[256];

	while (ls->held > budget) {
		oldest = NULL;
		TAILQ_FOREACH(l, &ls->all, entry) {
			if (l->held != 0 && (oldest == NULL ||
			    l->held_since < oldest->held_since ||
			    (l->held_since == oldest->held_since &&
			    l->held > oldest->held)))
				oldest = l;
		}
		if (oldest == NULL)
			return;
		snprintf(why, sizeof why, "half-received frames of all "
		    "connections hold %zu bytes, over "
		    "controller.max_buffered_mib (%d MiB); this one held %zu "
		    "bytes of a frame for %lld ms", ls->held,
		    c->max_buffered_mib, oldest->held,
		    (long long)(peer_limit_now() - oldest->held_since));
		ls->hooks.close(oldest->peer, why);
	}
}

void
peer_limit_input(struct peer_limit *l, size_t held, bool waiting)
{
	struct peer_limits	*ls = l->ls;

	if (held != 0 && (l->held == 0 || l->frame_done))
		l->held_since = peer_limit_now();
	l->frame_done = false;
	ls->held += held;
	ls->held -= l->held;
	l->held = held;
	l->waiting = waiting;
	if (held != 0)
		peer_limit_over_budget(ls);
}

static void
peer_limit_resume_cb(evutil_socket_t fd, short what, void *arg)
{
	struct peer_limit	*l = arg;

	l->ls->hooks.resume(l->peer);
}

bool
peer_limit_request(struct peer_limit *l, int type)
{
	int		 rate = ctx_conf()->max_requests_per_second;
	int64_t		 now = peer_limit_now(), wait_ms;
	struct timeval	 tv;

	l->last_frame = now;
	l->frame_done = true;
	if (rate <= 0 || type == MSG_JOB_SUBMIT || l->node)
		return (true);
	l->tokens += (double)(now - l->refilled) * rate / 1000;
	if (l->tokens > rate)
		l->tokens = rate;
	l->refilled = now;
	l->tokens -= 1;
	if (l->tokens >= 0)
		return (true);
	/* Wait until a whole token is there again. */
	wait_ms = (int64_t)((1 - l->tokens) * 1000 / rate) + 1;
	if (l->resume == NULL)
		l->resume = evtimer_new(l->ls->base, peer_limit_resume_cb,
		    l);
	tv.tv_sec = wait_ms / 1000;
	tv.tv_usec = (wait_ms % 1000) * 1000;
	evtimer_add(l->resume, &tv);
	log_debug("peer %s: over controller.max_requests_per_second (%d); "
	    "reading again in %lld ms", l->addr, rate,
	    (long long)wait_ms);
	return (false);
}
