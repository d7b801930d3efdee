/* node-cgroup-v2.c: a job's cgroup on cgroup v2 (the unified hierarchy,
 * Documentation/admin-guide/cgroup-v2.rst): one directory, limits in its
 * memory.max, cpuset.cpus, cpuset.mems and pids.max, devices through a BPF
 * program (node-cgroup-dev.c). The jobs' parent goes below gnoded's own
 * cgroup, the subtree systemd hands over with Delegate=yes: v2 wants each
 * program to stay inside what it was delegated. */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/node/node-cgroup-int.h"

/* The controllers v2 may enable for the jobs. */
static const enum node_cgroup_ctl node_cgroup_v2_ctls[] = {
	NODE_CGROUP_MEMORY, NODE_CGROUP_CPUSET, NODE_CGROUP_PIDS,
	NODE_CGROUP_CPU
};
#define NODE_CGROUP_V2_NCTLS \
	(sizeof node_cgroup_v2_ctls / sizeof node_cgroup_v2_ctls[0])

/* How often the processes of gnoded's cgroup are moved out before giving
 * up: each round only misses processes forked meanwhile. */
#define NODE_CGROUP_V2_EVACUATE	8

/* The controllers named in a cgroup.controllers or cgroup.subtree_control
 * file, among those gbatch uses. */
static unsigned
node_cgroup_v2_list(const char *dir, const char *file)
{
	char		 buf[1024], *w, *last;
	unsigned	 mask = 0;
	size_t		 k;

	if (node_cgroup_read(dir, file, buf, sizeof buf) == -1)
		return (0);
	for (w = strtok_r(buf, " \n", &last); w != NULL;
	    w = strtok_r(NULL, " \n", &last)) {
		for (k = 0; k < NODE_CGROUP_V2_NCTLS; k++) {
			if (strcmp(w, node_cgroup_ctl_name[
			    node_cgroup_v2_ctls[k]]) == 0)
				mask |= NODE_CGROUP_BIT(node_cgroup_v2_ctls[k]);
		}
	}
	return (mask);
}

unsigned
node_cgroup_v2_offered(const char *dir)
{
	return (node_cgroup_v2_list(dir, "cgroup.controllers"));
}

/* Moves every process of dir into its leaf NODE_CGROUP_DAEMON, so that
 * controllers can be enabled in dir (only the root may both hold
 * processes and hand controllers down). Returns 0, or -1 with why. */
static int
node_cgroup_v2_evacuate(const char *dir, char *why, size_t whylen)
{
	char	*leaf, path[4096], pid[32];
	FILE	*f;
	long	 p;
	int	 round, moved, rc = -1;

	leaf = xasprintf("%s/%s", dir, NODE_CGROUP_DAEMON);
	if (mkdir(leaf, 0755) == -1 && errno != EEXIST) {
		snprintf(why, whylen, "%s: cannot create: %s", leaf,
		    strerror(errno));
		goto out;
	}
	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	for (round = 0; round < NODE_CGROUP_V2_EVACUATE; round++) {
		if ((f = fopen(path, "re")) == NULL) {
			snprintf(why, whylen, "%s: cannot open: %s", path,
			    strerror(errno));
			goto out;
		}
		moved = 0;
		while (fscanf(f, "%ld", &p) == 1) {
			snprintf(pid, sizeof pid, "%ld", p);
			/* One that ended meanwhile is no longer in the
			 * way. */
			if (node_cgroup_write(leaf, "cgroup.procs", pid, why,
			    whylen) == -1 && errno != ESRCH) {
				fclose(f);
				goto out;
			}
			moved++;
		}
		fclose(f);
		if (moved == 0) {
			rc = 0;
			goto out;
		}
	}
	snprintf(why, whylen, "%s: processes keep appearing in it while they "
	    "are moved to %s", dir, leaf);
out:
	free(leaf);
	return (rc);
}

/* Enables in dir's cgroup.subtree_control the controllers of want that dir
 * offers; those of need must all be enabled, the rest only where the
 * kernel lets them (cpu is refused while a real-time process runs outside
 * the root). evacuate: dir is gnoded's own cgroup, whose processes may be
 * moved out of the way. Returns 0, or -1 with why. */
static int
node_cgroup_v2_enable(const char *dir, unsigned want, unsigned need,
    bool evacuate, char *why, size_t whylen)
{
	unsigned	offered = node_cgroup_v2_offered(dir);
	unsigned	have = node_cgroup_v2_list(dir, "cgroup.subtree_control");
	char		op[32];
	size_t		k;
	int		c;

	for (k = 0; k < NODE_CGROUP_V2_NCTLS; k++) {
		c = node_cgroup_v2_ctls[k];
		if ((want & NODE_CGROUP_BIT(c)) == 0 ||
		    (have & NODE_CGROUP_BIT(c)) != 0)
			continue;
		if ((offered & NODE_CGROUP_BIT(c)) == 0) {
			if ((need & NODE_CGROUP_BIT(c)) == 0)
				continue;
			snprintf(why, whylen, "%s: the %s controller is not "
			    "offered here (cgroup.controllers): enable it "
			    "in the cgroups above, or give gnoded a "
			    "delegated cgroup (systemd: Delegate=yes)", dir,
			    node_cgroup_ctl_name[c]);
			return (-1);
		}
		snprintf(op, sizeof op, "+%s", node_cgroup_ctl_name[c]);
		if (node_cgroup_write(dir, "cgroup.subtree_control", op, why,
		    whylen) == 0)
			continue;
		if (errno == EBUSY && evacuate) {
			if (node_cgroup_v2_evacuate(dir, why, whylen) == -1)
				return (-1);
			evacuate = false;
			if (node_cgroup_write(dir, "cgroup.subtree_control",
			    op, why, whylen) == 0)
				continue;
		}
		if (need & NODE_CGROUP_BIT(c))
			return (-1);
	}
	return (0);
}

int
node_cgroup_v2_open(struct node_cgroup_sys *sys, const char *mount,
    const char *mountroot, const char *name, unsigned need, char *why,
    size_t whylen)
{
	char		*own, *base, *parent = NULL, *slash, end;
	unsigned	 want = 0;
	size_t		 k, len;
	int		 rc = -1;

	for (k = 0; k < NODE_CGROUP_V2_NCTLS; k++)
		want |= NODE_CGROUP_BIT(node_cgroup_v2_ctls[k]);
	/* The jobs' parent goes at the top of the mount, outside the
	 * service manager's tree, as Docker's cgroupfs driver puts its
	 * containers: below gnoded's own cgroup, enabling controllers there
	 * would move gnoded into a leaf, and systemd could not start it
	 * again in its unit's cgroup, which then hands controllers down
	 * (Debian 12's systemd has no DelegateSubgroup=). The real root may
	 * hold processes and hand controllers down at once; the top of a
	 * cgroup namespace may have its processes moved to a leaf. */
	(void)mountroot;
	own = xstrdup("");
	base = xasprintf("%s%s", mount, own);

	/* From the top of the mount down to gnoded's cgroup: each one hands
	 * the controllers to the next. Cgroups that systemd manages have
	 * them already (Delegate=yes) and are not written. Only gnoded's
	 * own cgroup may have its processes moved out of the way; the real
	 * root never needs it, but the top of a cgroup namespace does. */
	len = strlen(mount);
	for (;;) {
		end = base[len];
		base[len] = '\0';
		rc = node_cgroup_v2_enable(base, want, need, end == '\0', why,
		    whylen);
		base[len] = end;
		if (rc == -1 || end == '\0')
			break;
		slash = strchr(base + len + 1, '/');
		len = slash != NULL ? (size_t)(slash - base) : strlen(base);
	}
	if (rc == -1)
		goto out;
	rc = -1;

	parent = xasprintf("%s/%s", base, name);
	if (mkdir(parent, 0755) == -1 && errno != EEXIST) {
		snprintf(why, whylen, "%s: cannot create: %s", parent,
		    strerror(errno));
		goto out;
	}
	if (node_cgroup_v2_enable(parent, want, need, false, why,
	    whylen) == -1)
		goto out;
	sys->parent[0] = parent;
	sys->ctls[0] = node_cgroup_v2_list(parent, "cgroup.subtree_control");
	sys->ndir = 1;
	parent = NULL;
	sys->has_kill = node_cgroup_has(sys->parent[0], "cgroup.kill");
	sys->has_freeze = node_cgroup_has(sys->parent[0], "cgroup.freeze");
	sys->mode = NODE_CGROUP_V2;
	sys->ops = &node_cgroup_v2_ops;
	rc = 0;
out:
	free(parent);
	free(base);
	free(own);
	return (rc);
}

/* Says which controller a limit needs when the jobs' parent lacks it. */
static int
node_cgroup_v2_need(const struct node_cgroup *cg, enum node_cgroup_ctl c,
    const char *what, char *err, size_t errlen)
{
	if (cg->sys->ctls[0] & NODE_CGROUP_BIT(c))
		return (0);
	snprintf(err, errlen, "%s: %s needs the %s controller, which "
	    "%s/cgroup.subtree_control does not enable", cg->dir[0], what,
	    node_cgroup_ctl_name[c], cg->sys->parent[0]);
	return (-1);
}

/* Writes cpuset.cpus or cpuset.mems. v2 grants only what the parent has,
 * without a word: asked for CPUs the parent lacks, a cgroup silently runs
 * on the parent's. So the effective set the kernel settled on must be the
 * one asked for; both files print a set the same way, so comparing the
 * text compares the sets. */
static int
node_cgroup_v2_cpuset(struct node_cgroup *cg, const char *file,
    const char *list, char *err, size_t errlen)
{
	char	asked[256], got[256], have[256], eff[64];
	size_t	len;

	if (list == NULL)
		return (0);
	if (node_cgroup_v2_need(cg, NODE_CGROUP_CPUSET, file, err,
	    errlen) == -1)
		return (-1);
	snprintf(eff, sizeof eff, "%s.effective", file);
	if (node_cgroup_read(cg->sys->parent[0], eff, have, sizeof have) == -1)
		have[0] = '\0';
	have[strcspn(have, "\n")] = '\0';
	if (node_cgroup_write(cg->dir[0], file, list, err, errlen) == -1) {
		/* EINVAL for a CPU that is not there, ERANGE past the
		 * highest the kernel could have. */
		if ((errno == EINVAL || errno == ERANGE) && have[0] != '\0') {
			len = strlen(err);
			snprintf(err + len, errlen - len, " (expected some "
			    "of %s)", have);
		}
		return (-1);
	}
	if (node_cgroup_read(cg->dir[0], file, asked, sizeof asked) == -1 ||
	    node_cgroup_read(cg->dir[0], eff, got, sizeof got) == -1) {
		snprintf(err, errlen, "%s/%s: cannot read: %s", cg->dir[0],
		    eff, strerror(errno));
		return (-1);
	}
	asked[strcspn(asked, "\n")] = '\0';
	got[strcspn(got, "\n")] = '\0';
	if (strcmp(asked, got) != 0) {
		snprintf(err, errlen, "%s/%s: the kernel grants %s, not the "
		    "%s asked for (expected some of %s)", cg->dir[0], eff, got,
		    asked, have);
		return (-1);
	}
	return (0);
}

static int
node_cgroup_v2_limit(struct node_cgroup *cg, const struct node_cgroup_limits *l,
    char *err, size_t errlen)
{
	const char	*dir = cg->dir[0];
	char		 value[64];

	if (l->mem_bytes != 0) {
		if (node_cgroup_v2_need(cg, NODE_CGROUP_MEMORY, "a memory "
		    "limit", err, errlen) == -1)
			return (-1);
		snprintf(value, sizeof value, "%llu",
		    (unsigned long long)l->mem_bytes);
		if (node_cgroup_write(dir, "memory.max", value, err,
		    errlen) == -1)
			return (-1);
		/* No swap: a job at its limit is stopped, rather than
		 * slowing the node for everyone by swapping (v1 does the
		 * same with memsw). Absent without swap accounting. */
		if (node_cgroup_has(dir, "memory.swap.max") &&
		    node_cgroup_write(dir, "memory.swap.max", "0", err,
		    errlen) == -1)
			return (-1);
	}
	if (node_cgroup_v2_cpuset(cg, "cpuset.cpus", l->cpus, err,
	    errlen) == -1 ||
	    node_cgroup_v2_cpuset(cg, "cpuset.mems", l->mems, err,
	    errlen) == -1)
		return (-1);
	if (l->pids_max != 0) {
		if (node_cgroup_v2_need(cg, NODE_CGROUP_PIDS, "a limit on "
		    "processes", err, errlen) == -1)
			return (-1);
		snprintf(value, sizeof value, "%llu",
		    (unsigned long long)l->pids_max);
		if (node_cgroup_write(dir, "pids.max", value, err,
		    errlen) == -1)
			return (-1);
	}
	if (l->ndeny > 0 &&
	    node_cgroup_dev_attach(dir, l->deny, l->ndeny, err, errlen) == -1)
		return (-1);
	return (0);
}

/* Waits until cgroup.events says frozen (want 1) or not (0). Returns
 * whether it did. */
static bool
node_cgroup_v2_settled(const char *dir, uint64_t want)
{
	uint64_t	deadline = node_cgroup_now_ms() + NODE_CGROUP_FREEZE_MS;
	uint64_t	frozen;
	unsigned	round = 0;

	for (;;) {
		if (node_cgroup_read_key(dir, "cgroup.events", "frozen",
		    &frozen) == -1)
			return (false);
		if (frozen == want)
			return (true);
		if (node_cgroup_now_ms() >= deadline)
			return (false);
		node_cgroup_nap(round++);
	}
}

/* cgroup.kill (Linux 5.14) kills the whole subtree at once, forks in
 * flight included. Before it: freeze (Linux 5.2), so that the list read is
 * the whole job, kill, thaw; frozen processes still die of SIGKILL. On
 * older kernels still, kill what is listed until nothing is, which a fast
 * fork loop can outrun for a while. */
static int
node_cgroup_v2_kill(struct node_cgroup *cg, char *err, size_t errlen)
{
	const char	*dir = cg->dir[0];
	uint64_t	 deadline;
	unsigned	 round = 0;

	if (cg->sys->has_kill)
		return (node_cgroup_write(dir, "cgroup.kill", "1", err,
		    errlen));
	if (cg->sys->has_freeze) {
		if (node_cgroup_write(dir, "cgroup.freeze", "1", err,
		    errlen) == -1)
			return (-1);
		(void)node_cgroup_v2_settled(dir, 1);
		node_cgroup_signal_all(dir, SIGKILL);
		return (node_cgroup_write(dir, "cgroup.freeze", "0", err,
		    errlen));
	}
	deadline = node_cgroup_now_ms() + NODE_CGROUP_FREEZE_MS;
	while (node_cgroup_signal_all(dir, SIGKILL) > 0) {
		if (node_cgroup_now_ms() >= deadline)
			break;
		node_cgroup_nap(round++);
	}
	return (0);
}

/* cgroup.freeze (Linux 5.2) stops the subtree's processes where they are
 * and thaws them; as on v1, a freeze that does not settle completes when
 * a process stuck in the kernel comes out. */
static int
node_cgroup_v2_freeze(struct node_cgroup *cg, bool frozen, char *err,
    size_t errlen)
{
	if (!cg->sys->has_freeze) {
		snprintf(err, errlen, "%s: no cgroup.freeze (Linux 5.2 or "
		    "later has one)", cg->dir[0]);
		return (-1);
	}
	if (node_cgroup_write(cg->dir[0], "cgroup.freeze", frozen ? "1" :
	    "0", err, errlen) == -1)
		return (-1);
	(void)node_cgroup_v2_settled(cg->dir[0], frozen ? 1 : 0);
	return (0);
}

/* populated counts the subtree, and goes to 0 as the last process exits
 * (not when it is reaped). */
static bool
node_cgroup_v2_empty(const struct node_cgroup *cg)
{
	uint64_t	populated;

	if (node_cgroup_read_key(cg->dir[0], "cgroup.events", "populated",
	    &populated) == -1)
		return (true);
	return (populated == 0);
}

/* memory.events counts the cgroup and those below; oom_kill is a process
 * killed by the OOM killer, where oom alone is the limit reached, which
 * reclaim may still have resolved. */
static bool
node_cgroup_v2_oom(const struct node_cgroup *cg)
{
	uint64_t	n;

	if ((cg->sys->ctls[0] & NODE_CGROUP_BIT(NODE_CGROUP_MEMORY)) == 0)
		return (false);
	return (node_cgroup_read_key(cg->dir[0], "memory.events", "oom_kill",
	    &n) == 0 && n > 0);
}

/* cpu.stat's usage_usec is there without the cpu controller. */
static int
node_cgroup_v2_usage(const struct node_cgroup *cg, uint64_t *mem_peak,
    uint64_t *cpu_usec)
{
	const char	*dir = cg->dir[0];

	if ((cg->sys->ctls[0] & NODE_CGROUP_BIT(NODE_CGROUP_MEMORY)) &&
	    node_cgroup_has(dir, "memory.peak") &&
	    node_cgroup_read_u64(dir, "memory.peak", mem_peak) == -1)
		return (-1);
	return (node_cgroup_read_key(dir, "cpu.stat", "usage_usec", cpu_usec));
}

const struct node_cgroup_ops node_cgroup_v2_ops = {
	.limit = node_cgroup_v2_limit,
	.kill = node_cgroup_v2_kill,
	.freeze = node_cgroup_v2_freeze,
	.empty = node_cgroup_v2_empty,
	.oom = node_cgroup_v2_oom,
	.usage = node_cgroup_v2_usage,
};
