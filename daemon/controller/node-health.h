/* node-health.h: nodes going silent. A node that sends nothing for
 * node_timeout seconds is marked down and its running jobs are requeued;
 * after a restart, nodes that do not come back within node_timeout get the
 * same treatment for the jobs the store says they run. */
#ifndef GB_CTL_NODE_HEALTH_H
#define GB_CTL_NODE_HEALTH_H

#include <event2/event.h>

struct node;

void	node_health_init(struct event_base *);
void	node_health_free(void);
/* Marks node down for why, closes its connection, requeues its jobs. */
void	node_health_down(struct node *, const char *why);

#endif
