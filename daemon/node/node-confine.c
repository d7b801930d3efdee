/* node-confine.c: a job's cgroup and limits on this node (node-confine.h). */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "daemon/node/node-confine.h"


/* Each GPU's device file, from the pattern and its minor number: a
 * character device, or none (a GPU without one cannot be denied). */
static void
node_confine_devices(struct node_conf *conf, const struct node_gpus *gpus)
{
	const struct node_gpu	*g;
	struct stat		 sb;
	char			 path[4096];
	size_t			 i, found = 0;

	conf->gpu_dev_known = 0;
	if (*conf->gpu_device == '\0')
		return;
	for (i = 0; i < node_gpu_count(gpus); i++) {
		g = node_gpu_at(gpus, i);
		if (g->index >= 64)
			continue;
		/* The pattern is the admin's: a %u and nothing else. */
		snprintf(path, sizeof path, conf->gpu_device, g->minor);
		if (stat(path, &sb) == -1 || !S_ISCHR(sb.st_mode))
			continue;
		conf->gpu_dev[g->index] = sb.st_rdev;
		conf->gpu_dev_known |= UINT64_C(1) << g->index;
		found++;
	}
	if (found > 0)
		log_info("node %s: %zu GPU device file%s (%s): a job may open "
		    "its own GPUs' alone", conf->name, found, found == 1 ? "" :
		    "s", conf->gpu_device);
}

void
node_confine_setup(struct node_conf *conf, const struct node_gpus *gpus)
{
	enum node_cgroup_mode	 mode;
	char			 why[512], name[160];

	conf->cgroup_sys = NULL;
	if (!conf->cgroups) {
		log_info("node %s: node.cgroups is false: jobs run unconfined "
		    "(no memory, CPU or device limits; a cancel kills their "
		    "process groups alone)", conf->name);
		return;
	}
	if (geteuid() != 0) {
		log_warn("node %s: not root, so no cgroups: jobs run "
		    "unconfined", conf->name);
		return;
	}
	/* One parent per node: two gnoded on one host (a test cluster) run
	 * parts of the same job, each in a cgroup of its own. */
	snprintf(name, sizeof name, "%s-%s", conf->cgroup, conf->name);
	mode = node_cgroup_open(&conf->cgroup_sys, name, why, sizeof why);
	if (mode == NODE_CGROUP_NONE) {
		log_warn("node %s: no usable cgroups (%s): jobs run unconfined "
		    "(no memory, CPU or device limits; a cancel kills their "
		    "process groups alone)", conf->name, why);
		return;
	}
	node_confine_devices(conf, gpus);
	log_info("node %s: jobs in cgroups (%s, under %s): memory and pids "
	    "limits, other jobs' GPUs denied, and the whole job killed at its "
	    "end", conf->name, mode == NODE_CGROUP_V2 ? "v2" : "v1", name);
}

struct node_cgroup *
node_confine_job(const struct node_conf *conf, const struct node_launch *l,
    char *err, size_t errlen)
{
	struct node_cgroup_limits	 lim;
	dev_t				 deny[64];
	uint64_t			 mine = 0;
	size_t				 i, n = 0;

	err[0] = '\0';
	if (conf->cgroup_sys == NULL)
		return (NULL);
	for (i = 0; i < l->ngpus; i++) {
		if (l->gpus[i] < 64)
			mine |= UINT64_C(1) << l->gpus[i];
	}
	for (i = 0; i < 64; i++) {
		if ((conf->gpu_dev_known & (UINT64_C(1) << i)) &&
		    !(mine & (UINT64_C(1) << i)))
			deny[n++] = conf->gpu_dev[i];
	}
	memset(&lim, 0, sizeof lim);
	lim.mem_bytes = l->mem_mb * 1024 * 1024;
	lim.cpus = l->cpuset;
	lim.pids_max = conf->job_pids_max;
	lim.deny = deny;
	lim.ndeny = n;
	return (node_cgroup_create(conf->cgroup_sys, l->id, &lim, err,
	    errlen));
}
