/* node-health.c: the once-a-second check of node heartbeats. */
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
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"

/* The loop runs the check every second; a gap of more than this between
 * two checks means the controller itself was not running (SIGSTOP, a disk
 * stall in a commit), not that the nodes were silent. */
#define NODE_HEALTH_STALL_MS	2000

static struct event	*node_health_ev;
static bool		 node_health_recovered;
static int64_t		 node_health_tick_ms;
/* Until then (seconds) no node is judged silent: after a stall, what the
 * nodes sent meanwhile is still being read. */
static int64_t		 node_health_grace_until;
/* The heartbeat interval nodes were told (conf_heartbeat_interval at
 * start): a reload cannot change what registered nodes keep. */
static int		 node_health_beat;

int
node_health_interval(void)
{
	return (node_health_beat);
}

static void
node_health_requeue(struct node *n, const char *detail)
{
	struct job_change	 how = { 0 };
	struct job		*j, *next;

	how.reason = "NodeLost";
	how.detail = detail;
	for (j = job_first(); j != NULL; j = next) {
		next = job_next(j);
		if (job_rank_on(j, n) >= 0 && (job_state(j) == JOB_RUNNING ||
		    job_state(j) == JOB_PREEMPTING))
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

static void
node_health_cb(evutil_socket_t fd, short what, void *arg)
{
	const struct conf	*c = ctx_conf();
	struct node		*n;
	int64_t			 now = ctx_now(), now_ms = ctx_now_ms();
	char			 why[128];

	if (now_ms - node_health_tick_ms > NODE_HEALTH_STALL_MS) {
		node_health_grace_until = now + node_health_interval();
		log_warn("gbatchd: the controller did not run for %" PRId64
		    " s (stopped, or stalled); nodes get %d s to be heard "
		    "from before any is judged silent",
		    (now_ms - node_health_tick_ms) / 1000,
		    node_health_interval());
	}
	node_health_tick_ms = now_ms;
	if (now < node_health_grace_until)
		return;
	for (n = node_first(); n != NULL; n = node_next(n)) {
		if (node_is_up(n) && now - node_last_seen(n) > c->node_timeout) {
			snprintf(why, sizeof why, "silent for %" PRId64 " s "
			    "(node_timeout %d s)", now - node_last_seen(n),
			    c->node_timeout);
			node_health_down(n, why);
		}
	}
	/* After a restart, give every node node_timeout to come back before
	 * its jobs are declared lost: a restart never kills a job. */
	if (!node_health_recovered &&
	    now - ctx_started() >= c->node_timeout) {
		node_health_recovered = true;
		for (n = node_first(); n != NULL; n = node_next(n)) {
			if (node_seen_since_start(n))
				continue;
			snprintf(why, sizeof why, "node %s did not "
			    "re-register after the controller restarted",
			    node_name(n));
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

	node_health_tick_ms = ctx_now_ms();
	node_health_beat = conf_heartbeat_interval(ctx_conf());
	node_health_ev = event_new(base, -1, EV_PERSIST, node_health_cb, NULL);
	event_add(node_health_ev, &tv);
}

void
node_health_free(void)
{
	if (node_health_ev != NULL)
		event_free(node_health_ev);
	node_health_ev = NULL;
}
