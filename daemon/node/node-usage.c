/* node-usage.c: the running jobs' cgroup counters for the heartbeat. */
#include <stdint.h>

#include "daemon/node/node-cgroup.h"
#include "daemon/node/node-usage.h"

json_t *
node_usage_json(struct node_cgroup_sys *sys, const json_t *running)
{
	struct node_cgroup	*cg;
	json_t			*out, *v;
	uint64_t		 peak, usec;
	size_t			 i;

	if (sys == NULL)
		return (NULL);
	out = json_array();
	json_array_foreach(running, i, v) {
		if (!json_is_integer(v) || (cg = node_cgroup_find(sys,
		    (uint64_t)json_integer_value(v))) == NULL)
			continue;
		if (node_cgroup_usage(cg, &peak, &usec) == 0)
			json_array_append_new(out, json_pack("{s:O,s:I,s:I}",
			    "job", v, "mem_peak_mb", (json_int_t)((peak +
			    (1 << 20) - 1) >> 20), "cpu_time_ms",
			    (json_int_t)(usec / 1000)));
		node_cgroup_free(cg);
	}
	return (out);
}
