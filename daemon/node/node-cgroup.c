/* node-cgroup.c: finding the cgroup file systems, a job's cgroup from
 * creation to removal, and the file I/O both cgroup versions share. What
 * differs between v1 and v2 is in node-cgroup-v1.c and node-cgroup-v2.c,
 * behind struct node_cgroup_ops. */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <linux/sched.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/node/node-cgroup-int.h"

const char *const node_cgroup_ctl_name[NODE_CGROUP_NCTL] = {
	[NODE_CGROUP_MEMORY] = "memory",
	[NODE_CGROUP_CPUSET] = "cpuset",
	[NODE_CGROUP_PIDS] = "pids",
	[NODE_CGROUP_CPU] = "cpu",
	[NODE_CGROUP_DEVICES] = "devices",
	[NODE_CGROUP_FREEZER] = "freezer",
	[NODE_CGROUP_CPUACCT] = "cpuacct",
};

/* What v1 must have mounted: the v1 half of node_cgroup_open. */
#define NODE_CGROUP_V1_NEED						\
	(NODE_CGROUP_BIT(NODE_CGROUP_MEMORY) |				\
	NODE_CGROUP_BIT(NODE_CGROUP_CPUSET) |				\
	NODE_CGROUP_BIT(NODE_CGROUP_PIDS) |				\
	NODE_CGROUP_BIT(NODE_CGROUP_DEVICES) |				\
	NODE_CGROUP_BIT(NODE_CGROUP_FREEZER) |				\
	NODE_CGROUP_BIT(NODE_CGROUP_CPUACCT))
/* And v2: it counts CPU time and freezes without controllers. */
#define NODE_CGROUP_V2_NEED						\
	(NODE_CGROUP_BIT(NODE_CGROUP_MEMORY) |				\
	NODE_CGROUP_BIT(NODE_CGROUP_CPUSET) |				\
	NODE_CGROUP_BIT(NODE_CGROUP_PIDS))

#define NODE_CGROUP_NAME_MAX	64

/* The controllers in mask, as "memory, pids" into buf. */
static const char *
node_cgroup_ctl_list(unsigned mask, char *buf, size_t len)
{
	size_t	off = 0;
	int	c;

	buf[0] = '\0';
	for (c = 0; c < NODE_CGROUP_NCTL; c++) {
		if ((mask & NODE_CGROUP_BIT(c)) == 0)
			continue;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
		    "%s%s", off == 0 ? "" : ", ", node_cgroup_ctl_name[c]);
	}
	if (off == 0)
		snprintf(buf, len, "none");
	return (buf);
}

static int
node_cgroup_check_name(const char *name, char *why, size_t whylen)
{
	const char	*p;

	for (p = name; *p != '\0'; p++) {
		if (!isalnum((unsigned char)*p) && strchr("._-", *p) == NULL)
			break;
	}
	if (*p != '\0' || p == name || p - name > NODE_CGROUP_NAME_MAX ||
	    *name == '.') {
		snprintf(why, whylen, "cgroup name \"%s\": expected 1-%d "
		    "letters, digits, '.', '_' or '-', not starting with '.'",
		    name, NODE_CGROUP_NAME_MAX);
		return (-1);
	}
	return (0);
}

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void
node_cgroup_unescape(char *s)
{
	char	*d = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0'));
			s += 3;
		} else
			*d++ = *s;
	}
	*d = '\0';
}

/* One line of /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT
 * OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS". Notes a cgroup or
 * cgroup2 mount in m; v2at, when not NULL, picks which cgroup2 mount. */
static void
node_cgroup_mount_line(struct node_cgroup_mounts *m, char *line,
    const char *v2at)
{
	char	*f[5], *sep, *fstype, *opts, *o, *last;
	int	 i, c;

	for (i = 0; i < 5; i++) {
		if ((f[i] = strtok_r(i == 0 ? line : NULL, " ", &last)) == NULL)
			return;
	}
	while ((sep = strtok_r(NULL, " ", &last)) != NULL &&
	    strcmp(sep, "-") != 0)
		;
	if (sep == NULL || (fstype = strtok_r(NULL, " ", &last)) == NULL ||
	    strtok_r(NULL, " ", &last) == NULL ||
	    (opts = strtok_r(NULL, " \n", &last)) == NULL)
		return;
	node_cgroup_unescape(f[3]);
	node_cgroup_unescape(f[4]);
	if (strcmp(fstype, "cgroup2") == 0) {
		if (m->v2 != NULL || (v2at != NULL && strcmp(v2at, f[4]) != 0))
			return;
		m->v2 = xstrdup(f[4]);
		m->v2root = xstrdup(f[3]);
		return;
	}
	if (strcmp(fstype, "cgroup") != 0)
		return;
	for (o = strtok_r(opts, ",", &last); o != NULL;
	    o = strtok_r(NULL, ",", &last)) {
		for (c = 0; c < NODE_CGROUP_NCTL; c++) {
			/* The first mount of a hierarchy is as good as any
			 * other: all show the same cgroups. */
			if (strcmp(o, node_cgroup_ctl_name[c]) == 0 &&
			    c != NODE_CGROUP_CPU && m->v1[c] == NULL)
				m->v1[c] = xstrdup(f[4]);
		}
	}
}

static int
node_cgroup_mounts(struct node_cgroup_mounts *m, const char *v2at,
    char *why, size_t whylen)
{
	const char	*path = "/proc/self/mountinfo";
	FILE		*f;
	char		*line = NULL;
	size_t		 size = 0;

	memset(m, 0, sizeof *m);
	if ((f = fopen(path, "re")) == NULL) {
		snprintf(why, whylen, "%s: cannot open: %s", path,
		    strerror(errno));
		return (-1);
	}
	while (getline(&line, &size, f) != -1)
		node_cgroup_mount_line(m, line, v2at);
	free(line);
	fclose(f);
	return (0);
}

static void
node_cgroup_mounts_free(struct node_cgroup_mounts *m)
{
	int	c;

	for (c = 0; c < NODE_CGROUP_NCTL; c++)
		free(m->v1[c]);
	free(m->v2);
	free(m->v2root);
}

/* The checks both node_cgroup_open and node_cgroup_open_v2 start with. */
static int
node_cgroup_open_check(const char *name, char *why, size_t whylen)
{
	if (node_cgroup_check_name(name, why, whylen) == -1)
		return (-1);
	if (geteuid() != 0) {
		snprintf(why, whylen, "not root (euid %lu): making cgroups "
		    "and moving jobs into them needs root",
		    (unsigned long)geteuid());
		return (-1);
	}
	return (0);
}

enum node_cgroup_mode
node_cgroup_open(struct node_cgroup_sys **out, const char *name, char *why,
    size_t whylen)
{
	struct node_cgroup_mounts	 m;
	struct node_cgroup_sys		*sys;
	char				 v2why[512], list[128];
	unsigned			 offered = 0, missing = 0;
	int				 c, rc;

	*out = NULL;
	if (node_cgroup_open_check(name, why, whylen) == -1 ||
	    node_cgroup_mounts(&m, NULL, why, whylen) == -1)
		return (NODE_CGROUP_NONE);
	sys = xcalloc(1, sizeof *sys);
	if (m.v2 != NULL &&
	    ((offered = node_cgroup_v2_offered(m.v2)) & NODE_CGROUP_V2_NEED) ==
	    NODE_CGROUP_V2_NEED) {
		/* A v2 that has the controllers is the one to use; one
		 * that fails is an error to report, not a reason to fall
		 * back to v1 hierarchies the host does not mean to use. */
		rc = node_cgroup_v2_open(sys, m.v2, m.v2root, name,
		    NODE_CGROUP_V2_NEED, why, whylen);
		goto done;
	}
	if (m.v2 != NULL)
		snprintf(v2why, sizeof v2why, "the cgroup2 file system at %s "
		    "offers %s, not all of memory, cpuset and pids", m.v2,
		    node_cgroup_ctl_list(offered, list, sizeof list));
	else
		snprintf(v2why, sizeof v2why, "no cgroup2 file system is "
		    "mounted");
	for (c = 0; c < NODE_CGROUP_NCTL; c++) {
		if ((NODE_CGROUP_V1_NEED & NODE_CGROUP_BIT(c)) != 0 &&
		    m.v1[c] == NULL)
			missing |= NODE_CGROUP_BIT(c);
	}
	if (missing != 0) {
		snprintf(why, whylen, "no usable cgroups: %s, and no cgroup "
		    "v1 hierarchy is mounted for %s (/proc/self/mountinfo)",
		    v2why, node_cgroup_ctl_list(missing, list, sizeof list));
		rc = -1;
		goto done;
	}
	rc = node_cgroup_v1_open(sys, &m, name, why, whylen);
done:
	node_cgroup_mounts_free(&m);
	if (rc == -1) {
		node_cgroup_sys_free(sys);
		return (NODE_CGROUP_NONE);
	}
	*out = sys;
	return (sys->mode);
}

enum node_cgroup_mode
node_cgroup_open_v2(struct node_cgroup_sys **out, const char *mount,
    const char *name, char *why, size_t whylen)
{
	struct node_cgroup_mounts	 m;
	struct node_cgroup_sys		*sys;
	int				 rc;

	*out = NULL;
	if (node_cgroup_open_check(name, why, whylen) == -1 ||
	    node_cgroup_mounts(&m, mount, why, whylen) == -1)
		return (NODE_CGROUP_NONE);
	if (m.v2 == NULL) {
		if (mount != NULL)
			snprintf(why, whylen, "%s: not a cgroup2 mount point "
			    "(/proc/self/mountinfo)", mount);
		else
			snprintf(why, whylen, "no cgroup2 file system is "
			    "mounted (/proc/self/mountinfo)");
		node_cgroup_mounts_free(&m);
		return (NODE_CGROUP_NONE);
	}
	sys = xcalloc(1, sizeof *sys);
	rc = node_cgroup_v2_open(sys, m.v2, m.v2root, name, 0, why, whylen);
	node_cgroup_mounts_free(&m);
	if (rc == -1) {
		node_cgroup_sys_free(sys);
		return (NODE_CGROUP_NONE);
	}
	*out = sys;
	return (sys->mode);
}

/* Whether dir holds a cgroup of its own (a job's, still there). */
static bool
node_cgroup_has_child(const char *dir)
{
	struct dirent	*de;
	DIR		*d;
	bool		 found = false;

	if ((d = opendir(dir)) == NULL)
		return (false);
	while (!found && (de = readdir(d)) != NULL) {
		if (de->d_type == DT_DIR && strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			found = true;
	}
	closedir(d);
	return (found);
}

/* Removes the jobs' parent dir unless a job's cgroup is still in it. The
 * kernel may answer EBUSY for a moment after the last child went (its
 * state goes away asynchronously, and a loaded host can take a while):
 * with no child left, that is tried again for a second at most, once,
 * as gnoded stops. */
static void
node_cgroup_remove_parent(const char *dir)
{
	struct timespec	 ts = { 0, 10 * 1000 * 1000 };
	int		 tries;

	for (tries = 0; rmdir(dir) == -1; tries++) {
		if (errno == ENOENT)
			return;
		if ((errno != EBUSY && errno != ENOTEMPTY) || tries == 100) {
			log_warn("%s: cannot remove: %s", dir,
			    strerror(errno));
			return;
		}
		/* A running job keeps its cgroup, and so its parent. */
		if (node_cgroup_has_child(dir))
			return;
		nanosleep(&ts, NULL);
	}
}

void
node_cgroup_sys_close(struct node_cgroup_sys *sys)
{
	size_t	i;

	for (i = 0; sys != NULL && i < sys->ndir; i++)
		node_cgroup_remove_parent(sys->parent[i]);
	node_cgroup_sys_free(sys);
}

void
node_cgroup_sys_free(struct node_cgroup_sys *sys)
{
	size_t	i;

	if (sys == NULL)
		return;
	for (i = 0; i < sys->ndir; i++)
		free(sys->parent[i]);
	free(sys);
}

/* A cpuset list as the kernel reads it: "0-3,8". The kernel checks the
 * numbers; this keeps a newline or a second value out of the write. */
static int
node_cgroup_check_list(const char *what, const char *list, char *err,
    size_t errlen)
{
	if (list == NULL)
		return (0);
	if (*list == '\0' || strspn(list, "0123456789,-") != strlen(list)) {
		snprintf(err, errlen, "%s \"%s\": expected a list of numbers "
		    "and ranges such as 0-3,8", what, list);
		return (-1);
	}
	return (0);
}

static int
node_cgroup_check_limits(const struct node_cgroup_limits *l, char *err,
    size_t errlen)
{
	size_t	i;

	if (node_cgroup_check_list("cpus", l->cpus, err, errlen) == -1 ||
	    node_cgroup_check_list("mems", l->mems, err, errlen) == -1)
		return (-1);
	if (l->ndeny > NODE_CGROUP_MAXDENY) {
		snprintf(err, errlen, "%zu devices to deny: expected at most "
		    "%d", l->ndeny, NODE_CGROUP_MAXDENY);
		return (-1);
	}
	for (i = 0; i < l->ndeny; i++) {
		/* Linux's own limits (12-bit major, 20-bit minor). */
		if (major(l->deny[i]) > 0xfff || minor(l->deny[i]) > 0xfffff) {
			snprintf(err, errlen, "device %u:%u to deny: expected "
			    "a major of 0-4095 and a minor of 0-1048575",
			    major(l->deny[i]), minor(l->deny[i]));
			return (-1);
		}
	}
	return (0);
}

/* Makes the cgroup's directories. Sets *stale when one was already there.
 * On failure removes those it made. Returns 0, or -1 with err set. */
static int
node_cgroup_mkdirs(struct node_cgroup *cg, bool *stale, char *err,
    size_t errlen)
{
	unsigned	made = 0;
	size_t		i;

	*stale = false;
	for (i = 0; i < cg->ndir; i++) {
		if (mkdir(cg->dir[i], 0755) == 0) {
			made |= 1U << i;
			continue;
		}
		if (errno == EEXIST) {
			*stale = true;
			continue;
		}
		snprintf(err, errlen, "%s: cannot create: %s", cg->dir[i],
		    strerror(errno));
		while (i-- > 0) {
			if (made & (1U << i))
				rmdir(cg->dir[i]);
		}
		return (-1);
	}
	return (0);
}

static int
node_cgroup_rmdirs(struct node_cgroup *cg, char *err, size_t errlen)
{
	size_t	i;
	int	rc = 0;

	for (i = 0; i < cg->ndir; i++) {
		if (rmdir(cg->dir[i]) == 0 || errno == ENOENT)
			continue;
		if (rc == 0)
			snprintf(err, errlen, "%s: cannot remove: %s%s",
			    cg->dir[i], strerror(errno), errno == EBUSY ?
			    " (processes are left in it)" : "");
		rc = -1;
	}
	return (rc);
}

/* Empties and removes a cgroup of the job's name left from before. A
 * directory may be missing from some hierarchies (a crash between two
 * mkdirs), so this does not rely on the freezer alone: it signals every
 * directory until they are all empty. */
static int
node_cgroup_clear(struct node_cgroup *cg, char *err, size_t errlen)
{
	uint64_t	deadline;
	unsigned	round = 0;
	size_t		i;
	char		why[256];

	(void)cg->sys->ops->kill(cg, why, sizeof why);
	deadline = node_cgroup_now_ms() + NODE_CGROUP_EMPTY_MS;
	while (!cg->sys->ops->empty(cg)) {
		if (node_cgroup_now_ms() >= deadline) {
			snprintf(err, errlen, "%s: left from before, and "
			    "processes are still in it %d ms after SIGKILL",
			    cg->dir[0], NODE_CGROUP_EMPTY_MS);
			return (-1);
		}
		for (i = 0; i < cg->ndir; i++)
			node_cgroup_signal_all(cg->dir[i], SIGKILL);
		node_cgroup_nap(round++);
	}
	return (node_cgroup_rmdirs(cg, err, errlen));
}

/* Job id's cgroup's names, one directory per hierarchy. */
static struct node_cgroup *
node_cgroup_alloc(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup	*cg;
	size_t			 i;

	cg = xcalloc(1, sizeof *cg);
	cg->sys = sys;
	cg->id = id;
	cg->ndir = sys->ndir;
	for (i = 0; i < cg->ndir; i++) {
		cg->dir[i] = xasprintf("%s/job_%llu", sys->parent[i],
		    (unsigned long long)id);
		cg->procs[i] = xasprintf("%s/cgroup.procs", cg->dir[i]);
	}
	return (cg);
}

struct node_cgroup *
node_cgroup_create(struct node_cgroup_sys *sys, uint64_t id,
    const struct node_cgroup_limits *l, char *err, size_t errlen)
{
	struct node_cgroup	*cg;
	bool			 stale;

	cg = node_cgroup_alloc(sys, id);
	if (node_cgroup_check_limits(l, err, errlen) == -1 ||
	    node_cgroup_mkdirs(cg, &stale, err, errlen) == -1)
		goto fail;
	if (stale) {
		if (node_cgroup_clear(cg, err, errlen) == -1 ||
		    node_cgroup_mkdirs(cg, &stale, err, errlen) == -1)
			goto fail;
		if (stale) {
			snprintf(err, errlen, "%s: made again by someone "
			    "else while it was being removed", cg->dir[0]);
			goto fail;
		}
	}
	if (sys->ops->limit(cg, l, err, errlen) == -1) {
		node_cgroup_rmdirs(cg, NULL, 0);
		goto fail;
	}
	return (cg);
fail:
	node_cgroup_free(cg);
	return (NULL);
}

struct node_cgroup *
node_cgroup_find(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup	*cg;
	size_t			 i;

	cg = node_cgroup_alloc(sys, id);
	for (i = 0; i < cg->ndir; i++) {
		if (access(cg->procs[i], W_OK) == -1) {
			node_cgroup_free(cg);
			return (NULL);
		}
	}
	return (cg);
}

int
node_cgroup_enter(const struct node_cgroup *cg)
{
	size_t	i;
	int	fd, saved;

	for (i = 0; i < cg->ndir; i++) {
		if ((fd = open(cg->procs[i], O_WRONLY | O_CLOEXEC)) == -1)
			return (-1);
		/* "0" is the writer itself, on v1 as on v2. */
		if (write(fd, "0", 1) != 1) {
			saved = errno;
			close(fd);
			errno = saved;
			return (-1);
		}
		close(fd);
	}
	return (0);
}

pid_t
node_cgroup_fork(const struct node_cgroup *cg, bool *inside)
{
	struct clone_args	args;
	long			pid;
	int			fd;

	*inside = false;
	if (cg == NULL || cg->sys->mode != NODE_CGROUP_V2 || cg->ndir != 1 ||
	    (fd = open(cg->dir[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return (fork());
	memset(&args, 0, sizeof args);
	args.flags = CLONE_INTO_CGROUP;
	args.exit_signal = SIGCHLD;
	args.cgroup = (uint64_t)fd;
	pid = syscall(SYS_clone3, &args, sizeof args);
	close(fd);
	if (pid != -1) {
		*inside = true;
		return ((pid_t)pid);
	}
	/* A kernel without clone3 (ENOSYS) or CLONE_INTO_CGROUP (E2BIG,
	 * EINVAL), or a cgroup that refuses it: the child enters as before,
	 * and says why if it cannot. */
	return (fork());
}

int
node_cgroup_kill(struct node_cgroup *cg, char *err, size_t errlen)
{
	return (cg->sys->ops->kill(cg, err, errlen));
}

int
node_cgroup_freeze(struct node_cgroup *cg, bool frozen, char *err,
    size_t errlen)
{
	return (cg->sys->ops->freeze(cg, frozen, err, errlen));
}

bool
node_cgroup_sys_can_freeze(const struct node_cgroup_sys *sys)
{
	return (sys != NULL && (sys->mode == NODE_CGROUP_V1 ||
	    sys->has_freeze));
}

bool
node_cgroup_empty(const struct node_cgroup *cg)
{
	return (cg->sys->ops->empty(cg));
}

bool
node_cgroup_oom(const struct node_cgroup *cg)
{
	return (cg->sys->ops->oom(cg));
}

int
node_cgroup_usage(const struct node_cgroup *cg, uint64_t *mem_peak,
    uint64_t *cpu_usec)
{
	*mem_peak = *cpu_usec = 0;
	return (cg->sys->ops->usage(cg, mem_peak, cpu_usec));
}

const char *
node_cgroup_dir(const struct node_cgroup *cg, size_t i)
{
	return (i < cg->ndir ? cg->dir[i] : NULL);
}

int
node_cgroup_destroy(struct node_cgroup *cg, char *err, size_t errlen)
{
	return (node_cgroup_rmdirs(cg, err, errlen));
}

void
node_cgroup_free(struct node_cgroup *cg)
{
	size_t	i;

	if (cg == NULL)
		return;
	for (i = 0; i < cg->ndir; i++) {
		free(cg->dir[i]);
		free(cg->procs[i]);
	}
	free(cg);
}

/* The file I/O the halves share. */

int
node_cgroup_write(const char *dir, const char *file, const char *value,
    char *err, size_t errlen)
{
	char	path[PATH_MAX];
	size_t	len = strlen(value);
	ssize_t	n;
	int	fd, saved;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		goto fail;
	/* A cgroup file takes its value in one write: no partial retry. */
	n = write(fd, value, len);
	saved = errno;
	close(fd);
	errno = saved;
	if (n == (ssize_t)len)
		return (0);
	if (n != -1)
		errno = EIO;
fail:
	saved = errno;
	if (err != NULL)
		snprintf(err, errlen, "%s: cannot write \"%s\": %s", path,
		    value, strerror(saved));
	errno = saved;
	return (-1);
}

ssize_t
node_cgroup_read(const char *dir, const char *file, char *buf, size_t len)
{
	char	path[PATH_MAX];
	size_t	off = 0;
	ssize_t	n;
	int	fd, saved;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	while (off < len - 1) {
		n = read(fd, buf + off, len - 1 - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			saved = errno;
			close(fd);
			errno = saved;
			return (-1);
		}
		if (n == 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	buf[off] = '\0';
	return ((ssize_t)off);
}

/* Parses a decimal number, or "max", ending at whitespace or the end. */
static int
node_cgroup_parse_u64(const char *s, uint64_t *v)
{
	unsigned long long	 n;
	char			*end;

	if (strncmp(s, "max", 3) == 0 && (s[3] == '\0' || isspace(
	    (unsigned char)s[3]))) {
		*v = UINT64_MAX;
		return (0);
	}
	if (!isdigit((unsigned char)*s))
		return (-1);
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno != 0 || (*end != '\0' && !isspace((unsigned char)*end)))
		return (-1);
	*v = n;
	return (0);
}

int
node_cgroup_read_u64(const char *dir, const char *file, uint64_t *v)
{
	char	buf[64];

	if (node_cgroup_read(dir, file, buf, sizeof buf) == -1)
		return (-1);
	if (node_cgroup_parse_u64(buf, v) == -1) {
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

int
node_cgroup_read_key(const char *dir, const char *file, const char *key,
    uint64_t *v)
{
	char	buf[4096], *line, *last;
	size_t	klen = strlen(key);

	if (node_cgroup_read(dir, file, buf, sizeof buf) == -1)
		return (-1);
	for (line = strtok_r(buf, "\n", &last); line != NULL;
	    line = strtok_r(NULL, "\n", &last)) {
		if (strncmp(line, key, klen) != 0 || line[klen] != ' ')
			continue;
		if (node_cgroup_parse_u64(line + klen + 1, v) == -1) {
			errno = EINVAL;
			return (-1);
		}
		return (0);
	}
	errno = ENOENT;
	return (-1);
}

bool
node_cgroup_has(const char *dir, const char *file)
{
	char	path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return (access(path, F_OK) == 0);
}

int
node_cgroup_signal_all(const char *dir, int sig)
{
	char	path[PATH_MAX];
	FILE	*f;
	long	 pid;
	int	 n = 0;

	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	if ((f = fopen(path, "re")) == NULL)
		return (-1);
	while (fscanf(f, "%ld", &pid) == 1) {
		if (pid > 0)
			kill((pid_t)pid, sig);
		n++;
	}
	fclose(f);
	return (n);
}

bool
node_cgroup_procs_empty(const char *dir)
{
	char	buf[16];

	return (node_cgroup_read(dir, "cgroup.procs", buf, sizeof buf) <= 0);
}

uint64_t
node_cgroup_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

void
node_cgroup_nap(unsigned round)
{
	/* 1 ms at first (a freeze of a few processes settles in well
	 * under that), then up to 10 ms, so a long wait costs little. */
	struct timespec	ts = { 0, (long)(round < 10 ? 1 : 10) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}
