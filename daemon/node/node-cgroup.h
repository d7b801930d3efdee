/* node-cgroup.h: one cgroup per job, so that the kernel holds the job to its
 * memory, CPUs and devices, counts what it used, and can kill every process
 * it started, however they forked. Plain file I/O on the cgroup file systems
 * (and bpf(2) for devices on cgroup v2), for both cgroup v2 and the v1
 * hierarchies of older or hybrid hosts. Everything here needs root.
 * docs/cgroups.md says how the tree is laid out and why. */
#ifndef GB_NODE_CGROUP_H
#define GB_NODE_CGROUP_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum node_cgroup_mode {
	NODE_CGROUP_NONE,
	NODE_CGROUP_V1,
	NODE_CGROUP_V2
};

/* The host's hierarchies and the parent cgroup of the jobs, found once. */
struct node_cgroup_sys;
/* One job's cgroup (one directory per hierarchy on v1). */
struct node_cgroup;

struct node_cgroup_limits {
	uint64_t	 mem_bytes;	/* 0: no limit */
	const char	*cpus;		/* cpuset list "0-3,8", NULL: all */
	const char	*mems;		/* NUMA nodes, NULL: all */
	uint64_t	 pids_max;	/* 0: no limit */
	/* Character devices the job may not open, read, write or mknod
	 * (other jobs' GPUs), by number: makedev(major, minor). */
	const dev_t	*deny;
	size_t		 ndeny;
};

/* The most devices a job can be denied (the v2 program grows with them). */
#define NODE_CGROUP_MAXDENY	1024

/* Finds the cgroup file systems in /proc/self/mountinfo and makes the
 * parent cgroup of the jobs, name (one path component), where it is not
 * there yet:
 *  - v2, when a cgroup2 mount offers the memory, cpuset and pids
 *    controllers: at the top of the mount (outside systemd's tree, as
 *    docs/cgroups.md says why), enabling memory, cpuset, pids and, where it can,
 *    cpu in each cgroup.subtree_control from the root down. A cgroup with
 *    controllers enabled may hold no process, so when the top of the
 *    mount is not the real root (a cgroup namespace) and holds
 *    processes, they are moved into a leaf beside the parent, "gnoded".
 *  - v1, else, when memory, cpuset, pids, devices, freezer and cpuacct are
 *    each mounted: <mount point>/name in each of those hierarchies, the
 *    cpuset one given the CPUs and memory nodes of its root.
 * Blocks (file system). Returns the mode and *out, which the caller frees
 * with node_cgroup_sys_free; NODE_CGROUP_NONE with *out NULL and why
 * saying what is missing (not root, nothing mounted, which controller,
 * which write failed). */
enum node_cgroup_mode	 node_cgroup_open(struct node_cgroup_sys **out,
			     const char *name, char *why, size_t whylen);

/* As node_cgroup_open, but v2 only, on the cgroup2 file system mounted at
 * mount (NULL: the first one in /proc/self/mountinfo), needing none of
 * its controllers: those it offers are enabled, and a limit that asks for
 * one it does not have fails in node_cgroup_create. For a hybrid host's
 * /sys/fs/cgroup/unified, which has no controllers but where device
 * programs, cgroup.kill, cgroup.events and cpu.stat work; the tests run
 * the v2 code there. */
enum node_cgroup_mode	 node_cgroup_open_v2(struct node_cgroup_sys **out,
			     const char *mount, const char *name, char *why,
			     size_t whylen);

/* Leaves the parent cgroups in place: jobs that outlive gnoded are in
 * them. */
void			 node_cgroup_sys_free(struct node_cgroup_sys *);
/* At gnoded's stop: removes the jobs' parent cgroups that no job is in any
 * more (a job still running keeps its own, and so the parent: jobs outlive
 * gnoded), then frees sys. NULL: nothing. */
void			 node_cgroup_sys_close(struct node_cgroup_sys *);

/* Makes job id's cgroup, "job_<id>" under the parent, with the limits. An
 * old one of that name (left by a crash) has its processes killed and is
 * removed first, so the new job starts with fresh counters (OOM kills,
 * peak memory, CPU time) and, on v2, no device program of the old one's.
 * Blocks (file system; up to a few seconds when an old one must be
 * emptied). Returns a new cgroup the caller frees with node_cgroup_free,
 * which must come before node_cgroup_sys_free; or NULL with err naming the
 * file, what was written and why it failed. */
struct node_cgroup	*node_cgroup_create(struct node_cgroup_sys *,
			     uint64_t id, const struct node_cgroup_limits *,
			     char *err, size_t errlen);

/* Moves the calling process into the cgroup. Meant for a freshly forked
 * child, while it is still root, before it forks anything, drops its
 * privileges or execs: then nothing the job starts is outside. Only open,
 * write and close: async-signal-safe, so safe after fork in a threaded
 * program. Returns 0, or -1 with errno set (the cgroup may then be partly
 * entered on v1: the child should die). */
int			 node_cgroup_enter(const struct node_cgroup *);
/* fork(2), but the child is born inside cg where the kernel can put it
 * there (cgroup v2, clone3 with CLONE_INTO_CGROUP, Linux 5.7): no
 * migration, which takes the cgroup threadgroup lock for writing and costs
 * an RCU grace period, 6-15 ms, on every launch. *inside says whether it
 * was (in both processes); if not, the child calls node_cgroup_enter. cg
 * may be NULL. Only for a caller with one thread (the shepherd): the child
 * of a raw clone3 runs none of glibc's fork handlers. */
pid_t			 node_cgroup_fork(const struct node_cgroup *cg,
			     bool *inside);
/* Job id's cgroup as it is (a command run inside a running job), or NULL
 * when it has none. Touches nothing. */
struct node_cgroup	*node_cgroup_find(struct node_cgroup_sys *,
			     uint64_t id);

/* Sends SIGKILL to every process in the cgroup so that none can fork its
 * way out of it: v2 writes cgroup.kill (Linux 5.14), else freezes the
 * cgroup, kills each process and thaws it; v1 does the latter with the
 * freezer. Returns once the signals are sent, not when the processes are
 * gone: poll node_cgroup_empty. Blocks up to about a second while a
 * freeze settles. Returns 0, or -1 with err set. */
int			 node_cgroup_kill(struct node_cgroup *, char *err,
			     size_t errlen);

/* Freezes the cgroup's processes (frozen true: none runs or forks, each
 * stopped where it is, its memory kept; gctl suspend) or thaws them: v2
 * cgroup.freeze, v1 the freezer. Waits up to about a second for the
 * change to settle; a process stuck in the kernel then follows when it
 * comes out. Returns 0, or -1 with err naming the file and why. */
int			 node_cgroup_freeze(struct node_cgroup *, bool frozen,
			     char *err, size_t errlen);
/* Whether jobs' cgroups can be frozen here (v1's freezer, which
 * node_cgroup_open requires, or v2's cgroup.freeze). */
bool			 node_cgroup_sys_can_freeze(const struct node_cgroup_sys *);

/* True when no process is left in the cgroup (or it cannot be read). */
bool			 node_cgroup_empty(const struct node_cgroup *);

/* True when the kernel's OOM killer killed a process of the cgroup: v2
 * memory.events oom_kill, v1 memory.oom_control oom_kill (Linux 4.13).
 * Both count kills, not mere hits of the limit, so a job that stayed at
 * its limit while the kernel reclaimed its page cache is not reported. */
bool			 node_cgroup_oom(const struct node_cgroup *);

/* The cgroup's peak memory in bytes (v1 memory.max_usage_in_bytes, v2
 * memory.peak, Linux 5.19: 0 where the kernel lacks it or the memory
 * controller is off) and CPU time in microseconds (v1 cpuacct.usage, v2
 * cpu.stat usage_usec), processes that ended included. Returns 0, or -1
 * with errno when a file cannot be read. */
int			 node_cgroup_usage(const struct node_cgroup *,
			     uint64_t *mem_peak, uint64_t *cpu_usec);

/* The cgroup's directories: i from 0, NULL past the last. Borrowed. */
const char		*node_cgroup_dir(const struct node_cgroup *, size_t i);

/* Removes the cgroup's directories; it must be empty (node_cgroup_empty).
 * A directory already gone is not an error. Returns 0, or -1 with err. */
int			 node_cgroup_destroy(struct node_cgroup *, char *err,
			     size_t errlen);

/* Frees the handle only: the cgroup stays unless destroyed. */
void			 node_cgroup_free(struct node_cgroup *);

#endif
