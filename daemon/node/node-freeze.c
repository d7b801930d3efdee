/* node-freeze.c: a job's processes frozen in their cgroup and thawed
 * (gctl suspend and resume, time-slicing): each is stopped where it is,
 * its memory and its GPUs' contexts kept, none can fork. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "daemon/node/node-cgroup.h"
#include "daemon/node/node-freeze.h"

int
node_freeze_job(struct node_cgroup_sys *sys, uint64_t id, bool frozen,
    char *err, size_t errlen)
{
	struct node_cgroup	*cg;
	int			 rc;

	if (!node_cgroup_sys_can_freeze(sys)) {
		snprintf(err, errlen, "jobs here are not in cgroups that can "
		    "be frozen (node.cgroups, with cgroup v2's cgroup.freeze "
		    "or v1's freezer)");
		return (-1);
	}
	if ((cg = node_cgroup_find(sys, id)) == NULL) {
		snprintf(err, errlen, "job %llu has no cgroup here",
		    (unsigned long long)id);
		return (-1);
	}
	rc = node_cgroup_freeze(cg, frozen, err, errlen);
	node_cgroup_free(cg);
	return (rc);
}
