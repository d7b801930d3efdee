/* node-cgroup-int.h: what node-cgroup.c shares with its v1 and v2 halves
 * (node-cgroup-v1.c, node-cgroup-v2.c) and the v2 device program
 * (node-cgroup-dev.c). Nothing outside these files includes it. */
#ifndef GB_NODE_CGROUP_INT_H
#define GB_NODE_CGROUP_INT_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/node/node-cgroup.h"

/* The controllers gbatch uses. cpu is v2's (cpuacct counts CPU time on
 * v1); devices and freezer are v1's (v2 has a program and cgroup.freeze). */
enum node_cgroup_ctl {
	NODE_CGROUP_MEMORY,
	NODE_CGROUP_CPUSET,
	NODE_CGROUP_PIDS,
	NODE_CGROUP_CPU,
	NODE_CGROUP_DEVICES,
	NODE_CGROUP_FREEZER,
	NODE_CGROUP_CPUACCT,
	NODE_CGROUP_NCTL
};
#define NODE_CGROUP_BIT(c)	(1U << (c))

/* The name of each controller as the kernel spells it. */
extern const char *const node_cgroup_ctl_name[NODE_CGROUP_NCTL];

/* One directory per v1 hierarchy gbatch uses; v2 has one. */
#define NODE_CGROUP_MAXDIR	NODE_CGROUP_NCTL

/* gnoded's leaf beside the jobs' parent on v2 (node-cgroup.h says why). */
#define NODE_CGROUP_DAEMON	"gnoded"

/* How long a freeze or an old cgroup's emptying may take. */
#define NODE_CGROUP_FREEZE_MS	1000
#define NODE_CGROUP_EMPTY_MS	5000

struct node_cgroup_ops;

struct node_cgroup_sys {
	enum node_cgroup_mode		 mode;
	const struct node_cgroup_ops	*ops;
	/* The jobs' parent in each hierarchy, and the controllers each
	 * one has (v2: those enabled in its cgroup.subtree_control). */
	char				*parent[NODE_CGROUP_MAXDIR];
	unsigned			 ctls[NODE_CGROUP_MAXDIR];
	size_t				 ndir;
	bool				 has_kill;	/* v2 cgroup.kill */
	bool				 has_freeze;	/* v2 cgroup.freeze */
};

struct node_cgroup {
	const struct node_cgroup_sys	*sys;
	uint64_t			 id;
	char				*dir[NODE_CGROUP_MAXDIR];
	/* dir/cgroup.procs, made ahead so that node_cgroup_enter needs
	 * no allocation after fork. */
	char				*procs[NODE_CGROUP_MAXDIR];
	size_t				 ndir;
};

/* What differs between v1 and v2, one table each. */
struct node_cgroup_ops {
	/* Writes the limits into a new, empty cgroup. */
	int	(*limit)(struct node_cgroup *,
		    const struct node_cgroup_limits *, char *, size_t);
	int	(*kill)(struct node_cgroup *, char *, size_t);
	int	(*freeze)(struct node_cgroup *, bool, char *, size_t);
	bool	(*empty)(const struct node_cgroup *);
	bool	(*oom)(const struct node_cgroup *);
	int	(*usage)(const struct node_cgroup *, uint64_t *, uint64_t *);
};

extern const struct node_cgroup_ops	node_cgroup_v1_ops;
extern const struct node_cgroup_ops	node_cgroup_v2_ops;

/* The v1 and v2 halves of node_cgroup_open, on a sys already zeroed:
 * fill it, or return -1 with why set. mountinfo's cgroup mounts are
 * passed down as found. */
struct node_cgroup_mounts {
	/* v1: each controller's mount point, NULL when not mounted. */
	char	*v1[NODE_CGROUP_NCTL];
	/* v2: the first cgroup2 mount, and the cgroup it shows as its
	 * root ("/" but for a bind mount of a subtree). */
	char	*v2;
	char	*v2root;
};
int	node_cgroup_v1_open(struct node_cgroup_sys *,
	    const struct node_cgroup_mounts *, const char *name, char *why,
	    size_t whylen);
int	node_cgroup_v2_open(struct node_cgroup_sys *, const char *mount,
	    const char *mountroot, const char *name, unsigned need,
	    char *why, size_t whylen);

/* The controllers a cgroup2 directory offers (its cgroup.controllers), or
 * 0 when it cannot be read. */
unsigned	node_cgroup_v2_offered(const char *dir);

/* Writes value to dir/file in one write(2). Returns 0, or -1 with err
 * saying "dir/file: cannot write "value": why" (errno kept). */
int	node_cgroup_write(const char *dir, const char *file, const char *value,
	    char *err, size_t errlen);
/* Reads dir/file (at most len - 1 bytes) into buf, NUL-terminated.
 * Returns the length, or -1 with errno. */
ssize_t	node_cgroup_read(const char *dir, const char *file, char *buf,
	    size_t len);
/* Reads dir/file as one decimal number ("max" reads as UINT64_MAX).
 * Returns 0, or -1 with errno. */
int	node_cgroup_read_u64(const char *dir, const char *file, uint64_t *);
/* Finds the line "key N" in dir/file (memory.events, cpu.stat,
 * cgroup.events, memory.oom_control). Returns 0, or -1 with errno
 * (ENOENT also when the key is not there). */
int	node_cgroup_read_key(const char *dir, const char *file,
	    const char *key, uint64_t *);
/* True when dir/file exists. */
bool	node_cgroup_has(const char *dir, const char *file);

/* Sends sig to each process listed in dir/cgroup.procs. Returns how many
 * were listed, or -1 with errno when the list cannot be read. A process
 * that ends between the read and the kill frees its pid for another:
 * callers freeze the cgroup first where they can, so that none ends. */
int	node_cgroup_signal_all(const char *dir, int sig);
/* True when dir/cgroup.procs lists no process (or cannot be read). */
bool	node_cgroup_procs_empty(const char *dir);

/* Milliseconds on the monotonic clock, and a short nap for polling the
 * kernel's state (a freeze settling, processes dying). */
uint64_t	node_cgroup_now_ms(void);
void		node_cgroup_nap(unsigned round);

/* Attaches to the cgroup2 directory dir a device program that denies the
 * n character devices deny (node-cgroup-dev.c). Returns 0, or -1 with
 * err set. */
int	node_cgroup_dev_attach(const char *dir, const dev_t *deny, size_t n,
	    char *err, size_t errlen);

#endif
