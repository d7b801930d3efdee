/* node-health.h: nodes going silent. A node that sends nothing for
 * node_timeout seconds is marked down and its running jobs are requeued;
 * after a restart, nodes that do not come back within node_timeout get the
 * same treatment for the jobs the store says they run. Silence is judged
 * by what arrived: when the controller itself did not run for a while
 * (stopped, a disk stall), the nodes get one heartbeat interval for what
 * they sent meanwhile to be read before any is judged. */
#ifndef GB_CTL_NODE_HEALTH_H
#define GB_CTL_NODE_HEALTH_H

#include <stdint.h>

#include <event2/event.h>

struct node;

void	node_health_init(struct event_base *);
/* The heartbeat interval nodes are told to keep (seconds), fixed at start
 * (conf_heartbeat_interval): nodes learn it as they register. */
int	node_health_interval(void);
void	node_health_free(void);
/* Marks node down for why, closes its connection, requeues its jobs. */
void	node_health_down(struct node *, const char *why);
/* The restart window (restart-window.h), which this module owns: how long
 * a scheduling pass at now_ms waits for the nodes of running jobs to say
 * HELLO again after a controller restart; 0 once they all have, or once
 * node_timeout has passed since the start (and from then on). */
int64_t	node_health_restart_wait(int64_t now_ms);

#endif
