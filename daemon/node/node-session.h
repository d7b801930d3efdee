/* node-session.h: gnoded's conversation with gbatchd (docs/protocol.md,
 * role "node"): HELLO with the GPUs and every job still known, heartbeats,
 * and the controller's JOB_LAUNCH, JOB_SIGNAL and JOB_ENDED_ACK. */
#ifndef GB_NODE_SESSION_H
#define GB_NODE_SESSION_H

#include <stddef.h>

#include <event2/event.h>

#include "daemon/node/node-conf.h"
#include "daemon/node/node-gpu.h"

struct node_session;

/* Recovers the jobs in the state directory and starts connecting. Returns
 * a new session or NULL with err set. Never blocks on the network. */
struct node_session	*node_session_create(struct event_base *,
			     const struct node_conf *, struct node_gpus *,
			     char *err, size_t errlen);
/* Judges the controller's connection again (dial_recheck): after
 * SIGHUP read the CRL again. */
void			 node_session_recheck(struct node_session *);
/* Closes the connection. Jobs keep running under their shepherds. */
void			 node_session_free(struct node_session *);

#endif
