/* node-cgroup-v1.c: a job's cgroup on cgroup v1, one directory in each of
 * the memory, cpuset, pids, devices, freezer and cpuacct hierarchies
 * (fewer where some are mounted together, as cpu,cpuacct often is). The
 * jobs' parent sits at the top of each hierarchy, as Slurm's does: v1 has
 * no delegation, and below gnoded's own cgroups systemd could move or
 * remove things it believes it owns. */
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/node/node-cgroup-int.h"

/* The v1 controllers gbatch uses, in the order their directories go. */
static const enum node_cgroup_ctl node_cgroup_v1_ctls[] = {
	NODE_CGROUP_MEMORY, NODE_CGROUP_CPUSET, NODE_CGROUP_PIDS,
	NODE_CGROUP_DEVICES, NODE_CGROUP_FREEZER, NODE_CGROUP_CPUACCT
};
#define NODE_CGROUP_V1_NCTLS \
	(sizeof node_cgroup_v1_ctls / sizeof node_cgroup_v1_ctls[0])

/* The directory of cg (or of sys's parents when cg is NULL) in the
 * hierarchy that has controller c, or NULL. */
static const char *
node_cgroup_v1_dir(const struct node_cgroup_sys *sys,
    const struct node_cgroup *cg, enum node_cgroup_ctl c)
{
	size_t	i;

	for (i = 0; i < sys->ndir; i++) {
		if (sys->ctls[i] & NODE_CGROUP_BIT(c))
			return (cg != NULL ? cg->dir[i] : sys->parent[i]);
	}
	return (NULL);
}

/* The directory above dir (a copy the caller frees). */
static char *
node_cgroup_v1_up(const char *dir)
{
	const char	*slash = strrchr(dir, '/');

	return (xstrndup(dir, slash != NULL ? (size_t)(slash - dir) :
	    strlen(dir)));
}

/* Copies a cpuset file (cpuset.cpus, cpuset.mems) from the cgroup above
 * dir: a v1 cpuset starts empty, and no process can join it while it is.
 * Returns 0, or -1 with err set. */
static int
node_cgroup_v1_inherit(const char *dir, const char *file, bool keep,
    char *err, size_t errlen)
{
	char	value[4096], *up;
	int	rc;

	up = node_cgroup_v1_up(dir);
	if (node_cgroup_read(up, file, value, sizeof value) == -1) {
		snprintf(err, errlen, "%s/%s: cannot read: %s", up, file,
		    strerror(errno));
		free(up);
		return (-1);
	}
	free(up);
	value[strcspn(value, "\n")] = '\0';
	rc = node_cgroup_write(dir, file, value, err, errlen);
	/* Refreshing the jobs' parent from the root fails when CPUs went
	 * offline that jobs still hold (a v1 parent must hold its
	 * children's CPUs): keep what it has then, if it has any. */
	if (rc == -1 && keep && node_cgroup_read(dir, file, value,
	    sizeof value) > 1)
		rc = 0;
	return (rc);
}

int
node_cgroup_v1_open(struct node_cgroup_sys *sys,
    const struct node_cgroup_mounts *m, const char *name, char *why,
    size_t whylen)
{
	char		*parent;
	size_t		 k, i;
	enum node_cgroup_ctl c;

	for (k = 0; k < NODE_CGROUP_V1_NCTLS; k++) {
		c = node_cgroup_v1_ctls[k];
		parent = xasprintf("%s/%s", m->v1[c], name);
		for (i = 0; i < sys->ndir; i++) {
			if (strcmp(sys->parent[i], parent) == 0)
				break;
		}
		if (i < sys->ndir)
			free(parent);
		else
			sys->parent[sys->ndir++] = parent;
		sys->ctls[i] |= NODE_CGROUP_BIT(c);
	}
	for (i = 0; i < sys->ndir; i++) {
		if (mkdir(sys->parent[i], 0755) == -1 && errno != EEXIST) {
			snprintf(why, whylen, "%s: cannot create: %s",
			    sys->parent[i], strerror(errno));
			return (-1);
		}
		if ((sys->ctls[i] & NODE_CGROUP_BIT(NODE_CGROUP_CPUSET)) &&
		    (node_cgroup_v1_inherit(sys->parent[i], "cpuset.cpus",
		    true, why, whylen) == -1 ||
		    node_cgroup_v1_inherit(sys->parent[i], "cpuset.mems",
		    true, why, whylen) == -1))
			return (-1);
	}
	sys->mode = NODE_CGROUP_V1;
	sys->ops = &node_cgroup_v1_ops;
	return (0);
}

/* Writes a cpuset list the job asked for; when the kernel refuses it,
 * says which CPUs or nodes there are. */
static int
node_cgroup_v1_cpuset(const char *dir, const char *file, const char *list,
    char *err, size_t errlen)
{
	char	have[256], *up;
	size_t	len;

	if (list == NULL)
		return (node_cgroup_v1_inherit(dir, file, false, err, errlen));
	if (node_cgroup_write(dir, file, list, err, errlen) == 0)
		return (0);
	/* EINVAL for a CPU that is not there, ERANGE past the
	 * highest the kernel could have. */
	if (errno != EINVAL && errno != ERANGE)
		return (-1);
	up = node_cgroup_v1_up(dir);
	if (node_cgroup_read(up, file, have, sizeof have) > 0) {
		have[strcspn(have, "\n")] = '\0';
		len = strlen(err);
		snprintf(err + len, errlen - len, " (expected some of %s)",
		    have);
	}
	free(up);
	return (-1);
}

static int
node_cgroup_v1_limit(struct node_cgroup *cg, const struct node_cgroup_limits *l,
    char *err, size_t errlen)
{
	const struct node_cgroup_sys	*sys = cg->sys;
	const char			*dir;
	char				 value[64];
	size_t				 i;

	if (l->mem_bytes != 0) {
		dir = node_cgroup_v1_dir(sys, cg, NODE_CGROUP_MEMORY);
		snprintf(value, sizeof value, "%llu",
		    (unsigned long long)l->mem_bytes);
		if (node_cgroup_write(dir, "memory.limit_in_bytes", value, err,
		    errlen) == -1)
			return (-1);
		/* Memory plus swap, where the kernel accounts swap: else a
		 * job at its limit swaps instead of being stopped, and
		 * slows the node for everyone. After the limit above, which
		 * it may not be below. */
		if (node_cgroup_has(dir, "memory.memsw.limit_in_bytes") &&
		    node_cgroup_write(dir, "memory.memsw.limit_in_bytes",
		    value, err, errlen) == -1)
			return (-1);
	}
	dir = node_cgroup_v1_dir(sys, cg, NODE_CGROUP_CPUSET);
	if (node_cgroup_v1_cpuset(dir, "cpuset.cpus", l->cpus, err,
	    errlen) == -1 ||
	    node_cgroup_v1_cpuset(dir, "cpuset.mems", l->mems, err,
	    errlen) == -1)
		return (-1);
	if (l->pids_max != 0) {
		dir = node_cgroup_v1_dir(sys, cg, NODE_CGROUP_PIDS);
		snprintf(value, sizeof value, "%llu",
		    (unsigned long long)l->pids_max);
		if (node_cgroup_write(dir, "pids.max", value, err,
		    errlen) == -1)
			return (-1);
	}
	dir = node_cgroup_v1_dir(sys, cg, NODE_CGROUP_DEVICES);
	for (i = 0; i < l->ndeny; i++) {
		snprintf(value, sizeof value, "c %u:%u rwm",
		    major(l->deny[i]), minor(l->deny[i]));
		if (node_cgroup_write(dir, "devices.deny", value, err,
		    errlen) == -1)
			return (-1);
	}
	return (0);
}

/* Waits until freezer.state reads FROZEN (want: "FROZEN") or THAWED.
 * Returns whether it did. */
static bool
node_cgroup_v1_settled(const char *dir, const char *want)
{
	uint64_t	deadline = node_cgroup_now_ms() + NODE_CGROUP_FREEZE_MS;
	unsigned	round = 0;
	char		state[32];

	for (;;) {
		if (node_cgroup_read(dir, "freezer.state", state,
		    sizeof state) == -1)
			return (false);
		if (strncmp(state, want, strlen(want)) == 0)
			return (true);
		if (node_cgroup_now_ms() >= deadline)
			return (false);
		node_cgroup_nap(round++);
	}
}

/* Frozen, no process can fork, so the list read is the whole job; the
 * SIGKILLs are acted on once it is thawed. A freeze that does not settle
 * (a process stuck in the kernel, in D state) still gets the kill: it
 * dies when it comes out. */
static int
node_cgroup_v1_kill(struct node_cgroup *cg, char *err, size_t errlen)
{
	const char	*fz = node_cgroup_v1_dir(cg->sys, cg,
			    NODE_CGROUP_FREEZER);
	size_t		 i;
	int		 rc = 0;

	if (node_cgroup_write(fz, "freezer.state", "FROZEN", err,
	    errlen) == -1) {
		/* Gone from this hierarchy alone (see node_cgroup_clear):
		 * the others still get their signals. */
		if (errno != ENOENT)
			rc = -1;
	} else
		(void)node_cgroup_v1_settled(fz, "FROZEN");
	for (i = 0; i < cg->ndir; i++)
		node_cgroup_signal_all(cg->dir[i], SIGKILL);
	if (rc == 0 && node_cgroup_has(fz, "freezer.state") &&
	    node_cgroup_write(fz, "freezer.state", "THAWED", err,
	    errlen) == -1)
		rc = -1;
	return (rc);
}

/* The freezer: FROZEN stops every process of the job where it is (none
 * runs, none can fork), THAWED lets them go on. A freeze that does not
 * settle within NODE_CGROUP_FREEZE_MS (a process in D state) completes
 * when that process comes out of the kernel. */
static int
node_cgroup_v1_freeze(struct node_cgroup *cg, bool frozen, char *err,
    size_t errlen)
{
	const char	*fz = node_cgroup_v1_dir(cg->sys, cg,
			    NODE_CGROUP_FREEZER);
	const char	*to = frozen ? "FROZEN" : "THAWED";

	if (node_cgroup_write(fz, "freezer.state", to, err, errlen) == -1)
		return (-1);
	(void)node_cgroup_v1_settled(fz, to);
	return (0);
}

static bool
node_cgroup_v1_empty(const struct node_cgroup *cg)
{
	size_t	i;

	for (i = 0; i < cg->ndir; i++) {
		if (!node_cgroup_procs_empty(cg->dir[i]))
			return (false);
	}
	return (true);
}

/* oom_kill (Linux 4.13) counts the processes the OOM killer chose in this
 * cgroup; v1 counts it where the victim was, and a job's processes are
 * all in its own cgroup. Before 4.13 only under_oom is there, which is
 * set while the cgroup is at its limit and the killer has not yet freed
 * enough: a hint, no more. */
static bool
node_cgroup_v1_oom(const struct node_cgroup *cg)
{
	const char	*dir = node_cgroup_v1_dir(cg->sys, cg,
			    NODE_CGROUP_MEMORY);
	uint64_t	 n;

	if (node_cgroup_read_key(dir, "memory.oom_control", "oom_kill",
	    &n) == 0)
		return (n > 0);
	return (node_cgroup_read_key(dir, "memory.oom_control", "under_oom",
	    &n) == 0 && n > 0);
}

static int
node_cgroup_v1_usage(const struct node_cgroup *cg, uint64_t *mem_peak,
    uint64_t *cpu_usec)
{
	uint64_t	ns;

	if (node_cgroup_read_u64(node_cgroup_v1_dir(cg->sys, cg,
	    NODE_CGROUP_MEMORY), "memory.max_usage_in_bytes", mem_peak) == -1 ||
	    node_cgroup_read_u64(node_cgroup_v1_dir(cg->sys, cg,
	    NODE_CGROUP_CPUACCT), "cpuacct.usage", &ns) == -1)
		return (-1);
	*cpu_usec = ns / 1000;
	return (0);
}

const struct node_cgroup_ops node_cgroup_v1_ops = {
	.limit = node_cgroup_v1_limit,
	.kill = node_cgroup_v1_kill,
	.freeze = node_cgroup_v1_freeze,
	.empty = node_cgroup_v1_empty,
	.oom = node_cgroup_v1_oom,
	.usage = node_cgroup_v1_usage,
};
