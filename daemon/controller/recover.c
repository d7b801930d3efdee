/* recover.c: start-up from the store. Nothing is killed or requeued here:
 * node-health.c and job-report.c decide once nodes re-register or the
 * timeout passes. */
#include <inttypes.h>

#include "common/log.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/recover.h"
#include "daemon/controller/store.h"

static void
recover_node_cb(const struct store_node *r, void *arg)
{
	node_set_known(node_get(r->name), r->gpus, r->drained, r->reason,
	    r->last_seen);
}

static void
recover_job_cb(const struct store_job *r, void *arg)
{
	struct job	*j;
	struct node	*n;
	size_t		*count = arg;

	j = job_create(r);
	count[0]++;
	if ((r->state == JOB_RUNNING || r->state == JOB_PREEMPTING) &&
	    r->node != NULL) {
		n = node_get(r->node);
		job_set_run(j, n, r->gpu_mask, 0);
		node_alloc(n, r->gpu_mask, r->id);
		count[1]++;
	}
}

int
recover_load(void)
{
	size_t	count[2] = { 0, 0 };

	if (store_node_each(recover_node_cb, NULL) != 0 ||
	    store_job_each_active(recover_job_cb, count) != 0)
		return (-1);
	log_info("store: %zu nodes known, %zu jobs not finished (%zu running, "
	    "waiting for their nodes)", node_count(), count[0], count[1]);
	return (0);
}
