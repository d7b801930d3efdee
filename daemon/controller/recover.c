/* recover.c: start-up from the store. Nothing is killed or requeued here:
 * node-health.c and job-report.c decide once nodes re-register or the
 * timeout passes. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
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

/* Reads a multi-node allocation, "n1:0xf,n2:0xf", into parts. Returns
 * the number of parts, or 0 when the text is malformed. */
static size_t
recover_alloc(const char *text, struct job_part *parts, size_t max)
{
	char		*copy, *item, *next, *colon, *end;
	size_t		 n = 0;
	uint64_t	 mask;

	copy = xstrdup(text);
	for (item = copy; item != NULL && *item != '\0'; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if (n == max || (colon = strrchr(item, ':')) == NULL ||
		    colon == item) {
			n = 0;
			break;
		}
		*colon = '\0';
		mask = strtoull(colon + 1, &end, 16);
		if (*end != '\0' || mask == 0) {
			n = 0;
			break;
		}
		memset(&parts[n], 0, sizeof parts[n]);
		parts[n].node = node_get(item);
		parts[n].mask = mask;
		n++;
	}
	free(copy);
	return (n);
}

static void
recover_job_cb(const struct store_job *r, void *arg)
{
	struct job_part	 one, *parts = &one;
	struct job	*j;
	size_t		*count = arg, n = 0, i;

	j = job_create(r);
	count[0]++;
	if ((r->state != JOB_RUNNING && r->state != JOB_PREEMPTING) ||
	    r->node == NULL)
		return;
	if (r->alloc != NULL && *r->alloc != '\0') {
		parts = xcalloc(JOB_MAX_PARTS, sizeof *parts);
		if ((n = recover_alloc(r->alloc, parts, JOB_MAX_PARTS)) == 0)
			log_error("job %" PRIu64 ": unreadable allocation "
			    "\"%s\"; taking its first node only", r->id,
			    r->alloc);
	}
	if (n == 0) {
		if (parts != &one)
			free(parts);
		parts = &one;
		memset(&one, 0, sizeof one);
		one.node = node_get(r->node);
		one.mask = r->gpu_mask;
		n = 1;
	}
	job_set_run(j, parts, n, 0);
	for (i = 0; i < n; i++)
		node_alloc(parts[i].node, parts[i].mask, r->id);
	if (parts != &one)
		free(parts);
	count[1]++;
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
