/* node-health.c: the once-a-second check of node heartbeats, and the
 * window after a restart. What is judged is node-judge.c's and
 * restart-window.c's; this file acts on it. */
#include <inttypes.h>
#include <stdio.h>

#include "common/log.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job-report.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node-health.h"
#include "daemon/controller/node-judge.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/restart-window.h"

/* What the checks keep between two runs. Global: one timer over the one
 * node table, and the restart window the passes ask
 * (node_health_restart_wait). */
static struct {
	struct event		*ev;
	/* The checks' clock: a stall of the controller gives the nodes a
	 * grace (node-judge.h). */
	struct node_judge_clock	 clock;
	/* The window after a restart (restart-window.h): this module is
	 * its one owner; schedule.c asks node_health_restart_wait. */
	struct restart_window	 window;
	/* The heartbeat interval nodes were told (conf_heartbeat_interval
	 * at start): a reload cannot change what registered nodes keep. */
	int			 beat;
} node_health;

int
node_health_interval(void)
{
	return (node_health.beat);
}

static void
node_health_requeue(struct node *n, const char *detail)
{
	struct job_change	 how = { 0 };
	struct job		*j, *next;

	how.reason = "NodeLost";
	how.detail = detail;
	for (j = job_table_first(); j != NULL; j = next) {
		next = job_table_next(j);
		if (job_rank_on(j, n) >= 0 && job_state_on_node(job_state(j)))
			job_report_lost(j, n, &how);
	}
}

void
node_health_down(struct node *n, const char *why)
{
	char	detail[256];

	log_warn("node %s: down: %s", node_name(n), why);
	if (node_peer(n) != NULL)
		peer_close(node_peer(n), "its node was marked down");
	node_set_down(n);
	(void)node_save(n);
	(void)node_event(n, ctx_now(), "DOWN", why);
	/* Its GPUs are out of reach anyway; a stale copy there is stopped
	 * again if the node comes back with it. */
	job_report_stale_forget(n);
	core_mark_dirty();
	snprintf(detail, sizeof detail, "node %s %s", node_name(n), why);
	node_health_requeue(n, detail);
}

/* Whether every node of a running job has said HELLO since the start. */
static bool
node_health_nodes_back(void)
{
	struct job	*j;
	size_t		 i;

	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (!job_state_on_node(job_state(j)))
			continue;
		for (i = 0; i < job_nparts(j); i++) {
			if (!node_seen_since_start(job_part_const(j, i)->node))
				return (false);
		}
	}
	return (true);
}

int64_t
node_health_restart_wait(int64_t now_ms)
{
	if (restart_window_is_settled(&node_health.window))
		return (0);
	return (restart_window_wait(&node_health.window, now_ms,
	    ctx_conf()->node_timeout, node_health_nodes_back()));
}

static void
node_health_cb(evutil_socket_t fd, short what, void *arg)
{
	const struct conf	*c = ctx_conf();
	struct node		*n;
	int64_t			 now = ctx_now(), now_ms = ctx_now_ms();
	int64_t			 stalled;
	char			 why[128];
	bool			 judge;

	judge = node_judge_tick(&node_health.clock, now, now_ms,
	    node_health_interval(), &stalled);
	if (stalled > 0)
		log_warn("gbatchd: the controller did not run for %" PRId64
		    " s (stopped, or stalled); nodes get %d s to be heard "
		    "from before any is judged silent", stalled / 1000,
		    node_health_interval());
	if (!judge)
		return;
	for (n = node_first(); n != NULL; n = node_next(n)) {
		if (node_judge_silent(node_is_up(n), now, node_last_seen(n),
		    c->node_timeout, why, sizeof why))
			node_health_down(n, why);
	}
	/* After a restart, give every node node_timeout to come back before
	 * its jobs are declared lost: a restart never kills a job. */
	if (restart_window_end(&node_health.window, now, c->node_timeout)) {
		for (n = node_first(); n != NULL; n = node_next(n)) {
			if (node_seen_since_start(n))
				continue;
			restart_window_why(node_name(n), why, sizeof why);
			/* It was up when the controller stopped, as far as
			 * node_events know; from now it is down. */
			(void)node_event(n, now, "DOWN", why);
			node_health_requeue(n, why);
		}
	}
}

void
node_health_init(struct event_base *base)
{
	struct timeval	tv = { 1, 0 };

	node_judge_clock_start(&node_health.clock, ctx_now_ms());
	/* The nodes' time to come back runs from when this controller
	 * serves: its start, or a replica's election (a follower may have
	 * run for days before it). */
	restart_window_open(&node_health.window, ctx_now());
	node_health.beat = conf_heartbeat_interval(ctx_conf());
	node_health.ev = event_new(base, -1, EV_PERSIST, node_health_cb, NULL);
	event_add(node_health.ev, &tv);
}

void
node_health_free(void)
{
	if (node_health.ev != NULL)
		event_free(node_health.ev);
	node_health.ev = NULL;
}
