/* node-judge.c: when a node is judged silent (node-judge.h). */
#include <inttypes.h>
#include <stdio.h>

#include "daemon/controller/node-judge.h"

void
node_judge_clock_start(struct node_judge_clock *c, int64_t now_ms)
{
	c->tick_ms = now_ms;
	c->grace_until = 0;
}

bool
node_judge_tick(struct node_judge_clock *c, int64_t now, int64_t now_ms,
    int interval, int64_t *stalled_ms)
{
	*stalled_ms = 0;
	if (now_ms - c->tick_ms > NODE_JUDGE_STALL_MS) {
		*stalled_ms = now_ms - c->tick_ms;
		c->grace_until = now + interval;
	}
	c->tick_ms = now_ms;
	return (now >= c->grace_until);
}

bool
node_judge_silent(bool up, int64_t now, int64_t last_seen, int node_timeout,
    char *why, size_t len)
{
	if (!up || now - last_seen <= node_timeout)
		return (false);
	snprintf(why, len, "silent for %" PRId64 " s (node_timeout %d s)",
	    now - last_seen, node_timeout);
	return (true);
}
