/* node-judge.h: when a node is judged silent (DESIGN.md, "The node
 * daemon": a node silent past node_timeout is marked down and its jobs
 * requeued). Silence is judged by what arrived: when the controller itself
 * did not run for a while (SIGSTOP, a disk stall in a commit), what the
 * nodes sent meanwhile is still unread, so they get one heartbeat interval
 * to be heard from before any is judged (the stall grace).
 *
 * Pure: the caller (node-health.c, a once-a-second timer) passes the time
 * and the settings and carries out the verdict (marks the node down,
 * requeues its jobs, logs). tests/unit/node-judge-test.c covers it. */
#ifndef GB_CTL_NODE_JUDGE_H
#define GB_CTL_NODE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The check runs every second; a gap of more than this between two checks
 * means the controller itself was not running, not that the nodes were
 * silent. */
#define NODE_JUDGE_STALL_MS	2000

/* The checks' own clock: a value its owner embeds, changed only through
 * the functions below. */
struct node_judge_clock {
	int64_t	 tick_ms;	/* the last check (ms) */
	int64_t	 grace_until;	/* no node is judged before (seconds) */
};

/* Starts the clock at now_ms: the first check is judged from there. */
void	node_judge_clock_start(struct node_judge_clock *, int64_t now_ms);
/* A check at now (seconds) and now_ms (the same moment in ms), nodes told
 * to beat every interval seconds. Returns whether nodes may be judged
 * silent at this check. *stalled_ms is the gap since the last check when
 * it was a stall (the grace starts, or starts again), else 0. */
bool	node_judge_tick(struct node_judge_clock *, int64_t now,
	    int64_t now_ms, int interval, int64_t *stalled_ms);
/* Whether a node that is up and was last heard from at last_seen
 * (seconds) is silent at now past node_timeout seconds: silent for longer
 * than node_timeout, not as long. If so, why (len bytes) says for how
 * long ("silent for 6 s (node_timeout 5 s)"). */
bool	node_judge_silent(bool up, int64_t now, int64_t last_seen,
	    int node_timeout, char *why, size_t len);

#endif
