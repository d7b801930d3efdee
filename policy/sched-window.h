/* sched-window.h: advance reservations as the scheduling core sees them:
 * windows of time on sets of nodes. A window (an id, from start to end,
 * its nodes) keeps its nodes for its own jobs from its start to its end:
 *
 * - A job of the window runs only on the window's nodes, starts only
 *   while the window is open (start <= now < end), and its run is over by
 *   the window's end (the caller stops it there, as Slurm's ResvOverRun
 *   of 0 does).
 * - Any other job may start on one of the window's nodes only if it will
 *   have ended by the window's start, as its time limit says; a job
 *   without a time limit runs for ever, and so never starts on a node of a
 *   window still to come or open. A maintenance window thus drains its
 *   nodes by its start. A prediction of a run time is not enough: a job
 *   still running at a window's start would keep the window's own jobs
 *   (a maintenance's) off its node.
 * - Where windows overlap on a node, a maintenance window wins: a job of
 *   a user window must end by the maintenance's start there, as any other
 *   job, while the maintenance's own jobs pass over user windows. Two
 *   maintenance windows each hold for themselves.
 * - A window that has ended holds nothing.
 *
 * Why one number a node is enough: whether a job that is not a window's
 * may use node i depends on D(i), the earliest start of the windows on i
 * that have not ended: it may iff its run's end, now + its limit, is at
 * most D(i). D moves only when a window is set or cleared or one ends,
 * not as time passes. Sorted by D, the highest first (the nodes of no
 * window first of all), the nodes a job may use are a prefix of one
 * array, the longer the sooner the job ends. So a job's nodes are found by
 * a binary search, placement is handed the prefix as it is (no copy), and
 * the prefix's length keys the memo of placements that found no room:
 * jobs that ask alike share a verdict while their ends fall between the
 * same two deadlines, whatever their limits. A window's own jobs are
 * placed likewise on its nodes, sorted by the deadline of the other
 * windows. A pass of 100,000 jobs on 1,000 nodes thus costs a binary
 * search a job, and a sort of the nodes when a window changes or ends.
 *
 * Nothing is polled: each pass judges each job at the pass's now, so a
 * job that could use a node reserved from 12:00 at 10:00 with a two-hour
 * limit cannot at 11:30. A decision can only turn from no to yes when a
 * window opens (its jobs) or ends (its nodes are everyone's again): the
 * core reports the next such instant as a wake-up (sched_window_next).
 *
 * Pure: no I/O, no clock. Times are ms on the caller's origin, as the
 * core's; nodes are place.h's indexes. */
#ifndef GB_SCHED_WINDOW_H
#define GB_SCHED_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Not a time: no end, no window. */
#define SCHED_WINDOW_NEVER	INT64_MAX

struct sched_window {
	uint64_t	 id;		/* the caller's; never 0 */
	int64_t		 start;		/* ms; open from start to end */
	int64_t		 end;
	bool		 maint;		/* a maintenance window */
	uint32_t	*nodes;		/* sorted, each once */
	uint32_t	 nnodes;
	/* The view's: the nodes below the cluster's count by their
	 * deadline of the other windows, the highest first (order), those
	 * deadlines (dl), their count; the earliest start of another
	 * maintenance window on one of them. */
	uint32_t	*order;
	int64_t		*dl;
	uint32_t	 norder;
	int64_t		 maint_dl;
	/* Where each of nodes[] is in order (UINT32_MAX: not there). */
	uint32_t	*opos;
};

struct sched_windows {
	struct sched_window	*v;
	size_t			 n;
	/* The view (sched_window_view), built for nnodes nodes at a time
	 * before stale_at (the first end after it); built false after a
	 * window is set or cleared. */
	bool			 built;
	int64_t			 stale_at;
	size_t			 nnodes;
	/* Every node by its deadline D, the highest first, and D; where
	 * each node is in that order; the earliest start of a maintenance
	 * window not ended. */
	uint32_t		*order;
	int64_t			*dl;
	uint32_t		*pos;
	size_t			 size;
	int64_t			 maint_dl;
};

/* What a job may use now (sched_window_view). */
struct sched_window_view {
	/* 0: any node, as without windows; else a key the same for every
	 * job given the same nodes in this view (until a window changes). */
	uint64_t	 key;
	/* key != 0: the nodes it may use, n of them (borrowed until the
	 * windows change). */
	const uint32_t	*nodes;
	size_t		 n;
	/* A job of a window that is not open now (or that the set does not
	 * know): it may use no node. */
	bool		 never;
	/* A maintenance window keeps it off some node it could otherwise
	 * use (why it waits, when no node will do). */
	bool		 maint;
};

/* Sets window id (not 0) from start to end (ms; start < end) on nodes
 * nodes[0..n) (copied; duplicates dropped), a maintenance window or not,
 * in place of the one of that id if any. */
void	sched_window_set(struct sched_windows *, uint64_t id, int64_t start,
	    int64_t end, bool maint, const uint32_t *nodes, size_t n);
/* Drops window id; returns whether there was one. */
bool	sched_window_clear(struct sched_windows *, uint64_t id);
/* Frees every window: the set is empty, and may be used again. */
void	sched_window_free(struct sched_windows *);

/* The rule: whether a job of window resv (0: of none) that would run for
 * limit ms from now (0: no limit, for ever) may start now on node. Costs
 * the windows in the set; the core asks sched_window_view, which answers
 * the same (tests/unit/sched-window-test.c holds them together). */
bool	sched_window_allows(const struct sched_windows *, uint32_t node,
	    uint64_t resv, int64_t limit, int64_t now);

/* The nodes below nnodes that such a job may use now, into v: key 0 for
 * any (no window could keep it off a node); the view is rebuilt first
 * when a window changed or ended since the last (a sort of the nodes).
 * Costs a binary search otherwise. */
void	sched_window_view(struct sched_windows *, size_t nnodes,
	    uint64_t resv, int64_t limit, int64_t now,
	    struct sched_window_view *v);
/* Whether node is one of v's nodes (v from sched_window_view, the
 * windows unchanged since): O(1) for a job of no window, O(log n) for a
 * window's of n nodes. */
bool	sched_window_in_view(const struct sched_windows *,
	    const struct sched_window_view *v, uint32_t node);

/* Whether window id is open at now (start <= now < end). */
bool	sched_window_open(const struct sched_windows *, uint64_t id,
	    int64_t now);

/* The first instant after now at which a window opens or ends (a job may
 * start then that could not before), or SCHED_WINDOW_NEVER. */
int64_t	sched_window_next(const struct sched_windows *, int64_t now);

#endif
