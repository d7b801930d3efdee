/* req-node-heartbeat.c: NODE_HEARTBEAT, a node saying it is alive, how
 * its GPUs are used, what its running jobs' cgroups have counted, and
 * what they said of how they train. */
#include <stdint.h>

#include "common/job-state.h"
#include "common/log.h"
#include "common/progress.h"
#include "common/proto.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/job-learn.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"

/* usage: each entry's figures go to the part of its job that runs on n;
 * an entry for a job not running there, or malformed, is skipped. */
static void
req_node_heartbeat_usage(struct node *n, const json_t *usage)
{
	struct job_part	*part;
	struct job	*j;
	json_t		*e, *mem, *cpu;
	size_t		 i, k;

	json_array_foreach(usage, i, e) {
		mem = json_object_get(e, "mem_peak_mb");
		cpu = json_object_get(e, "cpu_time_ms");
		if (!json_is_integer(json_object_get(e, "job")) ||
		    !json_is_integer(mem) || json_integer_value(mem) < 0 ||
		    !json_is_integer(cpu) || json_integer_value(cpu) < 0)
			continue;
		j = job_table_find((uint64_t)json_integer_value(
		    json_object_get(e, "job")));
		if (j == NULL || !job_state_on_node(job_state(j)))
			continue;
		for (k = 0; k < job_nparts(j); k++) {
			part = job_part(j, k);
			if (part->node != n)
				continue;
			part->live_mem_peak = (uint64_t)json_integer_value(mem);
			part->live_cpu_time = (int64_t)json_integer_value(cpu);
		}
	}
}

/* progress: each entry is a job's newest report (common/progress.h),
 * taken from the node its rank 0 runs on while it runs; an entry from
 * another node, for another job, or that the bounds refuse, is skipped
 * (debug: a node's jobs write what they like, and the node checked it). */
static void
req_node_heartbeat_progress(struct node *n, const json_t *progress)
{
	struct progress	 r;
	struct job	*j;
	json_t		*e, *id;
	char		 err[256];
	size_t		 i;

	json_array_foreach(progress, i, e) {
		id = json_object_get(e, "job");
		if (!json_is_integer(id) || json_integer_value(id) < 0 ||
		    (j = job_table_find((uint64_t)json_integer_value(id))) ==
		    NULL || job_state(j) != JOB_RUNNING ||
		    job_nparts(j) == 0 || job_part(j, 0)->node != n)
			continue;
		if (progress_from_json(e, &r, err, sizeof err) == -1) {
			log_debug("node %s: job %lld's progress skipped: %s",
			    node_name(n), (long long)json_integer_value(id),
			    err);
			continue;
		}
		job_learn_report(j, &r);
		core_elastic_learnt(j);
	}
}

static void
req_node_heartbeat(struct peer *p, const json_t *msg)
{
	if (peer_node(p) == NULL)
		return;
	node_touch(peer_node(p), ctx_now());
	node_gpu_use(peer_node(p), json_object_get(msg, "gpus"),
	    ctx_now());
	req_node_heartbeat_usage(peer_node(p), json_object_get(msg, "usage"));
	req_node_heartbeat_progress(peer_node(p), json_object_get(msg,
	    "progress"));
}

const struct req_entry req_node_heartbeat_entry = {
	MSG_NODE_HEARTBEAT, "NODE_HEARTBEAT", REQ_NODE, false, false,
	req_node_heartbeat, false
};
