/* node-usage.h: what each running job's cgroup has counted so far, sent
 * with every heartbeat (docs/protocol.md, NODE_HEARTBEAT "usage"): its
 * peak memory and CPU time, which the controller shows for a running job
 * (sstat, gq -o mem_peak,cpu_time) until the job's end record gives the
 * final figures. */
#ifndef GB_NODE_USAGE_H
#define GB_NODE_USAGE_H

#include <jansson.h>

struct node_cgroup_sys;

/* [{"job":ID,"mem_peak_mb":N,"cpu_time_ms":M}, ...] for the jobs in
 * running (a JSON array of ids) that have a cgroup here; NULL where jobs
 * run without cgroups (sys NULL). A job whose cgroup cannot be read is
 * left out. */
json_t	*node_usage_json(struct node_cgroup_sys *sys, const json_t *running);

#endif
