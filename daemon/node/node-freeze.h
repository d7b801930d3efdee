/* node-freeze.h: a job's processes frozen in their cgroup and thawed. */
#ifndef GB_NODE_FREEZE_H
#define GB_NODE_FREEZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct node_cgroup_sys;

/* Freezes job id's cgroup (frozen true) or thaws it, through sys (NULL:
 * jobs here are not in cgroups). Blocks up to about a second while the
 * change settles. Returns 0, or -1 with err saying why it cannot: no
 * cgroups here, none that freeze, the job has none, or the kernel
 * refused. Thawing a job not frozen changes nothing. */
int	node_freeze_job(struct node_cgroup_sys *sys, uint64_t id, bool frozen,
	    char *err, size_t errlen);

#endif
