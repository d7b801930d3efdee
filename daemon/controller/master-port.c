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

/* Whether a job of ids[0..n) (those running on master, as the core says:
 * its GPUs, their shards, its CPUs), other than id, runs with its first
 * part on master and holds port. */
static bool
master_port_taken(const struct node *master, const uint64_t *ids, size_t n,
    uint64_t id, uint32_t port)
{
	const struct job	*o;
	size_t			 i;

	for (i = 0; i < n; i++) {
		if (ids[i] == id || (o = job_table_find(ids[i])) == NULL)
			continue;
		if (job_master_port(o) == port && job_node(o) == master)
			return (true);
	}
	return (false);
}

uint32_t
master_port_pick(const struct node *master, uint64_t id)
{
	const struct conf	*c = ctx_conf();
	uint32_t		 first = (uint32_t)c->master_port_first;
	uint32_t		 count = (uint32_t)c->master_port_count;
	uint32_t		 off = (uint32_t)(id % count), k, port;
	uint64_t		*ids = NULL;
	size_t			 n = 0;

	/* The jobs there, listed once for every port tried. */
	if (master != NULL)
		n = core_node_jobs(master, &ids);
	for (k = 0; k < count; k++) {
		port = first + (off + k) % count;
		if (!master_port_taken(master, ids, n, id, port)) {
			free(ids);
			return (port);
		}
	}
	free(ids);
	log_warn("job %" PRIu64 ": every port of controller.master_ports is "
	    "held by a job running on %s; MASTER_PORT %u is shared", id,
	    node_name(master), first + off);
	return (first + off);
}
