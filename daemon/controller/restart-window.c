/* restart-window.c: the window after a controller restart
 * (restart-window.h). */
#include <stdio.h>

#include "daemon/controller/restart-window.h"

void
restart_window_open(struct restart_window *w, int64_t started)
{
	w->started = started;
	w->settled = false;
	w->ended = false;
}

bool
restart_window_is_settled(const struct restart_window *w)
{
	return (w->settled);
}

int64_t
restart_window_wait(struct restart_window *w, int64_t now_ms,
    int node_timeout, bool nodes_back)
{
	int64_t	left;

	if (w->settled)
		return (0);
	left = (w->started + node_timeout) * 1000 - now_ms;
	if (left > 0 && !nodes_back)
		return (left);
	w->settled = true;
	return (0);
}

bool
restart_window_end(struct restart_window *w, int64_t now, int node_timeout)
{
	if (w->ended || now - w->started < node_timeout)
		return (false);
	w->ended = true;
	w->settled = true;
	return (true);
}

void
restart_window_why(const char *node, char *why, size_t len)
{
	snprintf(why, len, "node %s did not re-register after the controller "
	    "restarted", node);
}
