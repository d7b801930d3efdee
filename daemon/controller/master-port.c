/* master-port.c: the rendezvous port a starting job gets (master-port.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "common/log.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/master-port.h"
#include "daemon/controller/node.h"

/* Whether a job running with its first part on master, other than id,
 * holds port. The jobs there hold its GPUs, their shards or its CPUs (as
 * the core says): a few to look at. */
static bool
master_port_taken(const struct node *master, uint64_t id, uint32_t port)
{
	const struct job	*o;
	uint64_t		*ids;
	size_t			 n, i;
	bool			 taken = false;

	n = core_node_jobs(master, &ids);
	for (i = 0; i < n && !taken; i++) {
		if (ids[i] == id || (o = job_table_find(ids[i])) == NULL)
			continue;
		taken = job_master_port(o) == port && job_node(o) == master;
	}
	free(ids);
	return (taken);
}

uint32_t
master_port_pick(const struct node *master, uint64_t id)
{
	const struct conf	*c = ctx_conf();
	uint32_t		 first = (uint32_t)c->master_port_first;
	uint32_t		 count = (uint32_t)c->master_port_count;
	uint32_t		 off = (uint32_t)(id % count), k, port;

	for (k = 0; k < count; k++) {
		port = first + (off + k) % count;
		if (master == NULL || !master_port_taken(master, id, port))
			return (port);
	}
	log_warn("job %" PRIu64 ": every port of controller.master_ports is "
	    "held by a job running on %s; MASTER_PORT %u is shared", id,
	    node_name(master), first + off);
	return (first + off);
}
