/* restart-window.h: the window after a controller restart (DESIGN.md,
 * "Persistence and recovery"). Running jobs' nodes need a moment to say
 * HELLO again; until they have, they look down and their jobs' GPUs
 * unusable, so a scheduling pass would preempt or place around them for
 * nothing: passes wait until every node of a running job is back, or
 * node_timeout has passed since the start. At that end, the jobs of the
 * nodes that did not come back are lost (a restart never kills a job, but
 * it does not wait for ever either).
 *
 * The one owner of the window: node-health.c keeps one and answers for it
 * (node_health_restart_wait); schedule.c asks it. Pure: the caller passes
 * the time and node_timeout (a reload may change it), and says whether the
 * nodes are back. tests/unit/restart-window-test.c covers it. */
#ifndef GB_CTL_RESTART_WINDOW_H
#define GB_CTL_RESTART_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A value its owner embeds; read and changed only through the functions
 * below. */
struct restart_window {
	int64_t	 started;	/* when the controller started (seconds) */
	bool	 settled;	/* passes no longer wait */
	bool	 ended;		/* node_timeout passed; its end was told */
};

/* Opens w for a controller started at started (seconds). */
void	restart_window_open(struct restart_window *w, int64_t started);
/* Whether passes no longer wait (cheap: callers ask before they work
 * out whether the nodes are back). */
bool	restart_window_is_settled(const struct restart_window *w);
/* How long a scheduling pass at now_ms waits: the ms left until
 * node_timeout (seconds) has passed since the start, while some node of a
 * running job has not said HELLO (nodes_back false). 0 once every such
 * node is back or the time is up; from then on always 0. */
int64_t	restart_window_wait(struct restart_window *w, int64_t now_ms,
	    int node_timeout, bool nodes_back);
/* Whether the window ends at now (seconds): true once, at the first call
 * at or after the start plus node_timeout; the jobs of nodes not heard
 * from since the start are then lost. Passes no longer wait after it. */
bool	restart_window_end(struct restart_window *w, int64_t now,
	    int node_timeout);
/* Why a node that did not come back is taken down at the window's end,
 * into why (len bytes). */
void	restart_window_why(const char *node, char *why, size_t len);

#endif
