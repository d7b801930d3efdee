/* req-node-list.c: NODE_LIST (gnodes, gtop). Written as text (jtext.h):
 * gtop asks every few seconds, and a cluster of 1,000 nodes is 8,000 GPU
 * entries; "brief" leaves out the GPUs' descriptions, which only change
 * when a node registers. */
#include "common/proto.h"
#include "policy/sched.h"
#include "daemon/controller/core.h"
#include "daemon/controller/job.h"
#include "daemon/controller/jtext.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req-int.h"
#include "daemon/controller/req.h"

/* Which of the jobs on n's GPUs are arrays' tasks, shown as users name
 * them ("42_7") rather than by the task's own job id. */
static void
req_node_list_tasks(const struct node *n, struct node_use *use,
    uint64_t *array, int64_t *task)
{
	const struct job	*j;
	uint32_t		 i, total = node_gpus_total(n);
	bool			 any = false;

	for (i = 0; i < total && i < SCHED_MAX_GPUS_PER_NODE; i++) {
		task[i] = -1;
		array[i] = 0;
		if (use->job == NULL || use->job[i] == 0 ||
		    (j = job_table_find(use->job[i])) == NULL ||
		    job_array_job_id(j) == 0 || job_array_task_id(j) < 0)
			continue;
		array[i] = job_array_job_id(j);
		task[i] = job_array_task_id(j);
		any = true;
	}
	use->array = any ? array : NULL;
	use->task = any ? task : NULL;
}

static void
req_node_list(struct peer *p, const json_t *msg)
{
	struct req_state	*rs = req_state();
	struct jtext		 b;
	struct node		*n;
	struct node_use		 use;
	uint64_t		 array[SCHED_MAX_GPUS_PER_NODE];
	int64_t			 task[SCHED_MAX_GPUS_PER_NODE];
	bool			 brief;

	brief = json_is_true(json_object_get(msg, "brief"));
	jtext_init(&b, rs->node_list_last + rs->node_list_last / 8);
	req_text_begin(&b, msg);
	jtext_add(&b, ",\"nodes\":[", 10);
	for (n = node_first(); n != NULL; n = node_next(n)) {
		if (n != node_first())
			jtext_add(&b, ",", 1);
		/* What jobs hold of it is the core's. */
		core_node_use(n, &use);
		req_node_list_tasks(n, &use, array, task);
		node_describe(n, &b, brief, &use);
	}
	jtext_add(&b, "]}", 2);
	rs->node_list_last = b.len;
	req_text_send(p, &b);
}

const struct req_entry req_node_list_entry = {
	MSG_NODE_LIST, "NODE_LIST", REQ_CLIENT, false, true, req_node_list, false
};
