/* node-cgroup-test.c: jobs' cgroups (daemon/node/node-cgroup.c) on this
 * host's real cgroups, with real children: an OOM kill, a fork bomb, a
 * cpuset, a device denied. Needs root and cgroups, and says so in a SKIP
 * otherwise. The tests run in a child; the parent removes whatever cgroups
 * they leave, even when they crash or hang. */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/node/node-cgroup.h"
#include "tests/unit/tap.h"

#define MiB		(1024ULL * 1024)
/* How long a child may take to do its part, and the whole run. */
#define CHILD_MS	20000
#define RUN_MS		240000

static char	name[64], name_v2[64];
static char	devdir[64] = "/tmp/node-cgroup-test.XXXXXX";
static char	deny_path[128], allow_path[128];
static int	dev_major;
/* Why the device tests cannot run, or NULL. */
static const char *skipdev;

static uint64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

/* Waits a little for the kernel to get on: every wait here is a loop on a
 * condition with a deadline, never a bare sleep. */
static void
tick(void)
{
	poll(NULL, 0, 5);
}

/* What reap_orphans reaped, for reap to find its child's status there. */
static struct {
	pid_t	pid;
	int	status;
} reaped[64];
static size_t	nreaped;

/* Reaps whatever was orphaned to us (the runner is a subreaper), and our
 * own children that ended meanwhile, keeping those children's status. */
static void
reap_orphans(void)
{
	pid_t	pid;
	int	status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		reaped[nreaped % 64].pid = pid;
		reaped[nreaped % 64].status = status;
		nreaped++;
	}
}

/* The processes a cgroup directory lists, by reading it ourselves. */
static int
count_procs(const char *dir)
{
	char	path[PATH_MAX];
	FILE	*f;
	long	 pid;
	int	 n = 0;

	snprintf(path, sizeof path, "%s/cgroup.procs", dir);
	if ((f = fopen(path, "re")) == NULL)
		return (-1);
	while (fscanf(f, "%ld", &pid) == 1)
		n++;
	fclose(f);
	return (n);
}

static bool
exists(const char *path)
{
	struct stat	st;

	return (stat(path, &st) == 0);
}

/* A child in the cgroup: enters it, runs fn, which reports on fd, exits.
 * Returns the pid and the read end of its pipe in *rfd. */
static pid_t
spawn(const struct node_cgroup *cg, void (*fn)(int, const void *),
    const void *arg, int *rfd)
{
	pid_t	pid;
	int	p[2];

	fflush(stdout);
	if (pipe2(p, O_CLOEXEC) == -1)
		return (-1);
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return (-1);
	}
	if (pid == 0) {
		close(p[0]);
		if (cg != NULL && node_cgroup_enter(cg) == -1) {
			dprintf(p[1], "enter: %s", strerror(errno));
			_exit(90);
		}
		fn(p[1], arg);
		_exit(0);
	}
	close(p[1]);
	*rfd = p[0];
	return (pid);
}

/* Reads what the child wrote until it closes the pipe, or want bytes came,
 * or the deadline. Closes fd when it is done with it (want 0). */
static void
report(int fd, char *buf, size_t len, size_t want)
{
	uint64_t	deadline = now_ms() + CHILD_MS;
	struct pollfd	pfd = { fd, POLLIN, 0 };
	size_t		off = 0;
	ssize_t		n;

	buf[0] = '\0';
	while (off < len - 1 && (want == 0 || off < want)) {
		if (now_ms() >= deadline)
			break;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if ((n = read(fd, buf + off, len - 1 - off)) <= 0)
			break;
		off += (size_t)n;
	}
	buf[off] = '\0';
	if (want == 0)
		close(fd);
}

/* Waits for pid to end. Returns its status, or -1 past the deadline. */
static int
reap(pid_t pid)
{
	uint64_t	deadline = now_ms() + CHILD_MS;
	size_t		i;
	int		status;

	while (now_ms() < deadline) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return (status);
		for (i = 0; i < 64 && i < nreaped; i++) {
			if (reaped[i].pid == pid) {
				reaped[i].pid = 0;
				return (reaped[i].status);
			}
		}
		tick();
	}
	return (-1);
}

/* Kills what is in cg and waits until it is empty. */
static bool
empty_out(struct node_cgroup *cg)
{
	uint64_t	deadline = now_ms() + CHILD_MS;
	char		err[512];

	if (node_cgroup_kill(cg, err, sizeof err) == -1) {
		printf("# kill: %s\n", err);
		return (false);
	}
	while (!node_cgroup_empty(cg)) {
		if (now_ms() >= deadline)
			return (false);
		reap_orphans();
		tick();
	}
	reap_orphans();
	return (true);
}

static void
destroy(struct node_cgroup *cg)
{
	char	err[512];

	if (cg == NULL)
		return;
	if (!empty_out(cg) || node_cgroup_destroy(cg, err, sizeof err) == -1)
		printf("# cannot destroy %s: %s\n", node_cgroup_dir(cg, 0),
		    err);
	node_cgroup_free(cg);
}

static struct node_cgroup *
make(struct node_cgroup_sys *sys, uint64_t id,
    const struct node_cgroup_limits *l)
{
	struct node_cgroup	*cg;
	char			 err[512];

	if ((cg = node_cgroup_create(sys, id, l, err, sizeof err)) == NULL)
		printf("# create job %llu: %s\n", (unsigned long long)id, err);
	return (cg);
}

/* The children. */

static void
child_where(int fd, const void *arg)
{
	const struct node_cgroup	*cg = arg;
	const char			*dir;
	char				 path[PATH_MAX];
	FILE				*f;
	long				 pid;
	size_t				 i;
	bool				 found;

	for (i = 0; (dir = node_cgroup_dir(cg, i)) != NULL; i++) {
		snprintf(path, sizeof path, "%s/cgroup.procs", dir);
		found = false;
		if ((f = fopen(path, "re")) != NULL) {
			while (fscanf(f, "%ld", &pid) == 1)
				found |= pid == (long)getpid();
			fclose(f);
		}
		if (!found) {
			dprintf(fd, "not in %s", dir);
			return;
		}
	}
	dprintf(fd, "in all %zu", i);
}

static void
child_hog(int fd, const void *arg)
{
	size_t	size = *(const size_t *)arg, off;
	char	*p;

	if ((p = malloc(size)) == NULL) {
		dprintf(fd, "malloc failed");
		return;
	}
	for (off = 0; off < size; off += 4096)
		p[off] = 1;
	dprintf(fd, "survived");
}

static void
child_status(int fd, const void *arg)
{
	char	line[256], cpus[256] = "?", mems[256] = "?";
	FILE	*f;

	if ((f = fopen("/proc/self/status", "re")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "Cpus_allowed_list:\t", 19) == 0)
			snprintf(cpus, sizeof cpus, "%s", line + 19);
		if (strncmp(line, "Mems_allowed_list:\t", 19) == 0)
			snprintf(mems, sizeof mems, "%s", line + 19);
	}
	fclose(f);
	dprintf(fd, "cpus=%s mems=%s", cpus, mems);
}

/* Forks children that wait, until fork fails; reports how many. */
static void
child_forks(int fd, const void *arg)
{
	pid_t	pid;
	int	n = 0;

	for (;;) {
		if ((pid = fork()) == 0) {
			for (;;)
				pause();
		}
		if (pid == -1)
			break;
		n++;
	}
	dprintf(fd, "%d %s", n, errno == EAGAIN ? "EAGAIN" : strerror(errno));
	for (;;)
		pause();
}

/* A grandchild whose every process forks for ever. */
static void
child_bomb(int fd, const void *arg)
{
	if (fork() == 0) {
		for (;;)
			(void)fork();
	}
	dprintf(fd, "started");
	for (;;)
		(void)fork();
}

/* Processes that fork and reap children as fast as they can: a tree that
 * changes all the time but stays small (no pids.max where it runs). */
static void
child_churn(int fd, const void *arg)
{
	pid_t	pid;
	int	i;

	for (i = 0; i < 3; i++) {
		if (fork() != 0)
			continue;
		for (;;) {
			if ((pid = fork()) == 0)
				_exit(0);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
	}
	dprintf(fd, "started");
	for (;;)
		pause();
}

static void
child_busy(int fd, const void *arg)
{
	struct timespec	 ts;
	size_t		 size = 32 * MiB;
	char		*p;

	if ((p = malloc(size)) == NULL)
		return;
	memset(p, 1, size);
	do {
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1000 + ts.tv_nsec / 1000000 < 300);
	dprintf(fd, "done %d", p[size - 1]);
}

static const char *
errname(int e)
{
	return (e == EPERM ? "EPERM" : e == ENXIO ? "ENXIO" : e == 0 ?
	    "opened" : strerror(e));
}

static void
child_open(int fd, const void *arg)
{
	int	d, a, ed = 0, ea = 0;

	if ((d = open(deny_path, O_RDWR)) == -1)
		ed = errno;
	else
		close(d);
	if ((a = open(allow_path, O_RDWR)) == -1)
		ea = errno;
	else
		close(a);
	dprintf(fd, "%s %s", errname(ed), errname(ea));
}

static void
child_wait(int fd, const void *arg)
{
	dprintf(fd, "in");
	for (;;)
		pause();
}

static void
child_spin(int fd, const void *arg)
{
	volatile unsigned long	n = 0;

	dprintf(fd, "spinning");
	for (;;)
		n++;
}

/* The tests. */

static void
test_enter(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { 0 };
	char				 buf[256];
	int				 fd, status;
	pid_t				 pid;

	cg = make(sys, id, &l);
	ok(cg != NULL, "a cgroup with no limits is made");
	if (cg == NULL)
		return;
	ok(exists(node_cgroup_dir(cg, 0)), "its directory is there");
	pid = spawn(cg, child_where, cg, &fd);
	report(fd, buf, sizeof buf, 0);
	status = reap(pid);
	ok(strncmp(buf, "in all", 6) == 0 && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "a child that enters is listed in each "
	    "of its directories (%s)", buf);
	ok(!node_cgroup_oom(cg), "and no OOM kill is reported without one");
	destroy(cg);
}

/* Whether the running kernel has clone3's CLONE_INTO_CGROUP (5.7). */
static bool
kernel_clones_into_cgroups(void)
{
	struct utsname	u;
	int		major = 0, minor = 0;

	if (uname(&u) == -1 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return (false);
	return (major > 5 || (major == 5 && minor >= 7));
}

/* node_cgroup_fork: the child ends up in each of the cgroup's directories,
 * on v2 born there (no migration), on v1 by entering after the fork. */
static void
test_fork(struct node_cgroup_sys *sys, uint64_t id, bool v2)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { 0 };
	char				 buf[256];
	bool				 inside;
	int				 p[2], status;
	pid_t				 pid;

	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "a cgroup to fork into is made");
		return;
	}
	fflush(stdout);
	if (pipe2(p, O_CLOEXEC) == -1 ||
	    (pid = node_cgroup_fork(cg, &inside)) == -1) {
		ok(0, "node_cgroup_fork: %s", strerror(errno));
		destroy(cg);
		return;
	}
	if (pid == 0) {
		close(p[0]);
		dprintf(p[1], "%s, ", inside ? "born inside" : "entered");
		if (!inside && node_cgroup_enter(cg) == -1) {
			dprintf(p[1], "enter: %s", strerror(errno));
			_exit(90);
		}
		child_where(p[1], cg);
		_exit(0);
	}
	close(p[1]);
	report(p[0], buf, sizeof buf, 0);
	status = reap(pid);
	ok(strstr(buf, ", in all") != NULL && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0, "node_cgroup_fork: the child is in each "
	    "of the cgroup's directories (%s)", buf);
	if (v2)
		ok(inside == kernel_clones_into_cgroups() &&
		    strncmp(buf, inside ? "born inside" : "entered", 7) == 0,
		    "v2: it is born there where the kernel has CLONE_INTO_CGROUP,"
		    " and the parent knows (%s)", buf);
	else
		ok(!inside && strncmp(buf, "entered", 7) == 0, "v1: it enters "
		    "after the fork, CLONE_INTO_CGROUP being v2's (%s)", buf);
	destroy(cg);
	pid = node_cgroup_fork(NULL, &inside);
	if (pid == 0)
		_exit(inside ? 1 : 0);
	status = reap(pid);
	ok(pid > 0 && !inside && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "without a cgroup it is fork");
}

static void
test_oom(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { .mem_bytes = 64 * MiB };
	size_t				 size = 256 * MiB;
	char				 buf[256];
	int				 fd, status;
	pid_t				 pid;

	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "a cgroup limited to 64 MiB is made");
		return;
	}
	pid = spawn(cg, child_hog, &size, &fd);
	report(fd, buf, sizeof buf, 0);
	status = reap(pid);
	ok(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	    "a child that touches 256 MiB under a 64 MiB limit is killed "
	    "(%s, status %#x)", buf, status);
	ok(node_cgroup_oom(cg), "and node_cgroup_oom says the OOM killer did "
	    "it");
	destroy(cg);
}

static void
test_cpuset(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { .cpus = "0", .mems = "0" };
	char				 buf[256], err[512];
	int				 fd;
	pid_t				 pid;

	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "a cgroup on CPU 0 is made");
		return;
	}
	pid = spawn(cg, child_status, NULL, &fd);
	report(fd, buf, sizeof buf, 0);
	reap(pid);
	is_str(buf, "cpus=0 mems=0", "a child in a cpuset of CPU 0 and node 0 "
	    "may run there alone");
	destroy(cg);

	l.cpus = "zero";
	cg = node_cgroup_create(sys, id, &l, err, sizeof err);
	ok(cg == NULL && strstr(err, "\"zero\": expected a list") != NULL,
	    "a CPU list that is not one is refused (%s)", err);
	node_cgroup_free(cg);
	l.cpus = "4000";
	cg = node_cgroup_create(sys, id, &l, err, sizeof err);
	ok(cg == NULL && strstr(err, "cpuset.cpus") != NULL &&
	    strstr(err, "expected some of") != NULL,
	    "a CPU the node lacks is refused, naming those it has (%s)", err);
	node_cgroup_free(cg);
}

static void
test_pids(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { .pids_max = 5 };
	char				 buf[256];
	int				 fd;
	pid_t				 pid;

	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "a cgroup of at most 5 processes is made");
		return;
	}
	pid = spawn(cg, child_forks, NULL, &fd);
	report(fd, buf, sizeof buf, 1);
	/* The child (one) and its children reach the limit. */
	is_str(buf, "4 EAGAIN", "a child under pids.max 5 can fork 4 more, "
	    "then fork fails with EAGAIN");
	close(fd);
	ok(empty_out(cg), "node_cgroup_kill ends them all");
	ok(reap(pid) != -1, "the child is reaped");
	destroy(cg);
}

static void
test_kill(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { .pids_max = 64 };
	uint64_t			 deadline;
	char				 buf[256], err[512] = "ok";
	int				 fd, n = 0;
	pid_t				 pid;

	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "a cgroup for a fork bomb is made");
		return;
	}
	pid = spawn(cg, child_bomb, NULL, &fd);
	report(fd, buf, sizeof buf, 7);
	close(fd);
	deadline = now_ms() + CHILD_MS;
	while ((n = count_procs(node_cgroup_dir(cg, 0))) < 64 &&
	    now_ms() < deadline)
		tick();
	ok(n == 64, "a fork bomb fills its pids.max of 64 (%d processes)", n);
	ok(empty_out(cg), "node_cgroup_kill empties the cgroup all the same");
	ok(reap(pid) != -1, "the child is reaped");
	ok(node_cgroup_destroy(cg, err, sizeof err) == 0, "destroy succeeds "
	    "(%s)", err);
	ok(!exists(node_cgroup_dir(cg, 0)) && (node_cgroup_dir(cg, 1) == NULL ||
	    !exists(node_cgroup_dir(cg, 1))), "and its directories are gone");
	node_cgroup_free(cg);
}

/* The cgroup's CPU time in microseconds, or 0 when it cannot be read. */
static uint64_t
cpu_usec(const struct node_cgroup *cg)
{
	uint64_t	peak, cpu = 0;

	(void)node_cgroup_usage(cg, &peak, &cpu);
	return (cpu);
}

/* gctl suspend: a spinning process frozen uses no CPU time, and thawed
 * uses it again. */
static void
test_freeze(struct node_cgroup_sys *sys, uint64_t id, const char *how)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { 0 };
	uint64_t			 before, after, deadline;
	char				 buf[64], err[512] = "ok";
	int				 fd;
	pid_t				 pid;

	ok(node_cgroup_sys_can_freeze(sys), "%s: jobs can be frozen", how);
	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "%s: a cgroup to freeze is made", how);
		return;
	}
	pid = spawn(cg, child_spin, NULL, &fd);
	report(fd, buf, sizeof buf, 8);
	close(fd);
	ok(node_cgroup_freeze(cg, true, err, sizeof err) == 0,
	    "%s: the spinning job is frozen (%s)", how, err);
	before = cpu_usec(cg);
	deadline = now_ms() + 300;
	while (now_ms() < deadline)
		tick();
	after = cpu_usec(cg);
	ok(before > 0 && after == before, "%s: frozen, it uses no CPU time "
	    "(%llu us, then %llu us 300 ms on)", how,
	    (unsigned long long)before, (unsigned long long)after);
	ok(node_cgroup_freeze(cg, false, err, sizeof err) == 0,
	    "%s: it is thawed (%s)", how, err);
	deadline = now_ms() + CHILD_MS;
	while ((after = cpu_usec(cg)) <= before && now_ms() < deadline)
		tick();
	ok(after > before, "%s: thawed, it runs again (%llu us)", how,
	    (unsigned long long)after);
	ok(node_cgroup_freeze(cg, true, err, sizeof err) == 0,
	    "%s: frozen again", how);
	ok(empty_out(cg), "%s: a frozen job is killed all the same", how);
	ok(reap(pid) != -1, "%s: the child is reaped", how);
	destroy(cg);
}

/* v1 always has a peak; v2 only with memory.peak (Linux 5.19) and the
 * memory controller. */
static void
test_usage(struct node_cgroup_sys *sys, uint64_t id, bool v1)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { 0 };
	uint64_t			 mem = 0, cpu = 0;
	char				 buf[256], path[PATH_MAX];
	int				 fd, rc;
	bool				 peak;
	pid_t				 pid;

	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "a cgroup for usage is made");
		return;
	}
	snprintf(path, sizeof path, "%s/memory.peak", node_cgroup_dir(cg, 0));
	peak = v1 || exists(path);
	pid = spawn(cg, child_busy, NULL, &fd);
	report(fd, buf, sizeof buf, 0);
	reap(pid);
	rc = node_cgroup_usage(cg, &mem, &cpu);
	ok(rc == 0, "usage reads");
	ok(cpu >= 250000, "a child busy for 300 ms of CPU shows as such "
	    "(%llu us)", (unsigned long long)cpu);
	if (peak)
		ok(mem >= 32 * MiB, "and one that touched 32 MiB peaks at "
		    "least there (%llu bytes)", (unsigned long long)mem);
	else
		ok(1, "# SKIP no memory.peak here (%llu bytes)",
		    (unsigned long long)mem);
	destroy(cg);
}

/* A character device major no driver has, for nodes that open with ENXIO
 * when allowed: one of those Linux keeps for local use, 240-254, that
 * /proc/devices does not list. */
static int
free_major(void)
{
	char	line[128];
	bool	used[256] = { false }, chr = false;
	FILE	*f;
	int	m;

	if ((f = fopen("/proc/devices", "re")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "Character", 9) == 0)
			chr = true;
		else if (strncmp(line, "Block", 5) == 0)
			chr = false;
		else if (chr && sscanf(line, "%d", &m) == 1 && m >= 0 &&
		    m < 256)
			used[m] = true;
	}
	fclose(f);
	for (m = 240; m <= 254; m++) {
		if (!used[m])
			return (m);
	}
	return (-1);
}

/* Makes the two device nodes. Returns NULL, or why the test cannot run. */
static const char *
devices_setup(void)
{
	static char	why[256];
	int		fd;

	if ((dev_major = free_major()) == -1)
		return ("no free character major in 240-254");
	if (mkdtemp(devdir) == NULL)
		return ("mkdtemp failed");
	snprintf(deny_path, sizeof deny_path, "%s/deny", devdir);
	snprintf(allow_path, sizeof allow_path, "%s/allow", devdir);
	if (mknod(deny_path, S_IFCHR | 0666, makedev(dev_major, 1)) == -1 ||
	    mknod(allow_path, S_IFCHR | 0666, makedev(dev_major, 2)) == -1) {
		snprintf(why, sizeof why, "mknod in %s: %s", devdir,
		    strerror(errno));
		return (why);
	}
	/* Outside any job, the node must open as far as the missing
	 * driver (ENXIO): a nodev file system would say EACCES. */
	if ((fd = open(allow_path, O_RDWR)) != -1 || errno != ENXIO) {
		snprintf(why, sizeof why, "%s opens with %s, not ENXIO",
		    allow_path, fd != -1 ? "success" : strerror(errno));
		if (fd != -1)
			close(fd);
		return (why);
	}
	return (NULL);
}

static void
devices_cleanup(void)
{
	unlink(deny_path);
	unlink(allow_path);
	rmdir(devdir);
}

static void
test_devices(struct node_cgroup_sys *sys, uint64_t id, const char *how,
    const char *skip)
{
	struct node_cgroup		*cg;
	dev_t				 deny = makedev(dev_major, 1);
	struct node_cgroup_limits	 l = { .deny = &deny, .ndeny = 1 };
	char				 buf[256];
	int				 fd;
	pid_t				 pid;

	if (skip != NULL) {
		ok(1, "# SKIP devices (%s): %s", how, skip);
		return;
	}
	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "a cgroup denied %d:1 is made (%s)", dev_major, how);
		return;
	}
	pid = spawn(cg, child_open, NULL, &fd);
	report(fd, buf, sizeof buf, 0);
	reap(pid);
	is_str(buf, "EPERM ENXIO", "a child may not open the denied device "
	    "but may the other (%s)", how);
	destroy(cg);

	/* The same child outside shows both allowed. */
	pid = spawn(NULL, child_open, NULL, &fd);
	report(fd, buf, sizeof buf, 0);
	reap(pid);
	is_str(buf, "ENXIO ENXIO", "outside the cgroup both open as far as "
	    "the driver");
}

/* A cgroup of the job's name left by a crash, with a process in it and an
 * OOM kill counted: made again, it is new. */
static void
test_stale(struct node_cgroup_sys *sys, uint64_t id, bool oom)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { .mem_bytes = 64 * MiB };
	size_t				 size = 256 * MiB;
	char				 buf[256];
	int				 fd, status;
	pid_t				 pid, hog;

	if ((cg = make(sys, id, oom ? &l : &(struct node_cgroup_limits){0}))
	    == NULL) {
		ok(0, "a cgroup to leave behind is made");
		return;
	}
	if (oom) {
		hog = spawn(cg, child_hog, &size, &fd);
		report(fd, buf, sizeof buf, 0);
		reap(hog);
	}
	pid = spawn(cg, child_wait, NULL, &fd);
	report(fd, buf, sizeof buf, 2);
	close(fd);
	node_cgroup_free(cg);		/* gnoded crashed */

	cg = make(sys, id, oom ? &l : &(struct node_cgroup_limits){0});
	ok(cg != NULL, "a cgroup of the same name is made again");
	status = reap(pid);
	ok(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	    "the old one's process was killed (status %#x)", status);
	if (cg == NULL)
		return;
	ok(node_cgroup_empty(cg), "the new one is empty");
	if (oom)
		ok(!node_cgroup_oom(cg), "and has no OOM kill of the old one's");
	destroy(cg);
}

/* A crash between two mkdirs leaves a job's cgroup in some v1 hierarchies
 * only: made again, it is whole. */
static void
test_partial(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { 0 };
	const char			*dir;
	size_t				 i;
	bool				 all = true;

	if ((cg = make(sys, id, &l)) == NULL || node_cgroup_dir(cg, 1) == NULL) {
		ok(1, "# SKIP a single hierarchy cannot be half made");
		node_cgroup_free(cg);
		return;
	}
	rmdir(node_cgroup_dir(cg, 1));
	node_cgroup_free(cg);
	cg = make(sys, id, &l);
	for (i = 0; cg != NULL && (dir = node_cgroup_dir(cg, i)) != NULL; i++)
		all &= exists(dir);
	ok(cg != NULL && all, "a cgroup left in some hierarchies only is "
	    "made again in all");
	destroy(cg);
}

static void
test_destroy_busy(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { 0 };
	char				 buf[256], err[512] = "";
	int				 fd;
	pid_t				 pid;

	if ((cg = make(sys, id, &l)) == NULL) {
		ok(0, "a cgroup to destroy is made");
		return;
	}
	pid = spawn(cg, child_wait, NULL, &fd);
	report(fd, buf, sizeof buf, 2);
	close(fd);
	ok(!node_cgroup_empty(cg), "a cgroup with a process is not empty");
	ok(node_cgroup_destroy(cg, err, sizeof err) == -1 &&
	    strstr(err, "cannot remove") != NULL,
	    "and destroying it fails, saying why (%s)", err);
	ok(empty_out(cg), "once killed it is empty");
	reap(pid);
	ok(node_cgroup_destroy(cg, err, sizeof err) == 0 &&
	    !exists(node_cgroup_dir(cg, 0)), "and destroy removes it");
	ok(node_cgroup_destroy(cg, err, sizeof err) == 0,
	    "destroying it again is no error");
	node_cgroup_free(cg);
}

/* v2 on a cgroup2 mount without controllers (a hybrid host's unified
 * one): what works there without them. */
static void
test_v2_bare(struct node_cgroup_sys *sys)
{
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { .mem_bytes = 64 * MiB };
	char				 buf[256], err[512];
	int				 fd;
	pid_t				 pid;

	cg = node_cgroup_create(sys, 1, &l, err, sizeof err);
	ok(cg == NULL && strstr(err, "needs the memory controller") != NULL,
	    "v2: a memory limit without the memory controller is refused (%s)",
	    err);
	node_cgroup_free(cg);
	l.mem_bytes = 0;
	l.pids_max = 5;
	cg = node_cgroup_create(sys, 1, &l, err, sizeof err);
	ok(cg == NULL && strstr(err, "needs the pids controller") != NULL,
	    "v2: so is a limit on processes without pids (%s)", err);
	node_cgroup_free(cg);

	test_enter(sys, 2);
	test_devices(sys, 3, "v2, BPF", skipdev);
	test_usage(sys, 4, false);

	l.pids_max = 0;
	if ((cg = make(sys, 5, &l)) == NULL) {
		ok(0, "v2: a cgroup for a forking tree is made");
		return;
	}
	pid = spawn(cg, child_churn, NULL, &fd);
	report(fd, buf, sizeof buf, 7);
	close(fd);
	ok(count_procs(node_cgroup_dir(cg, 0)) >= 4, "v2: processes that "
	    "fork all the time run in it");
	ok(empty_out(cg), "v2: node_cgroup_kill (cgroup.kill) empties it");
	reap(pid);
	destroy(cg);
	test_stale(sys, 6, false);
	test_destroy_busy(sys, 7);
	test_fork(sys, 8, true);
}

/* On cgroup v2 the module may move the processes of this test's own
 * cgroup (its shell, make) into a leaf so that it can hand controllers
 * down: only where that cgroup already hands them down, or holds none
 * but ours, or is the real root, unless GBATCH_TEST_CGROUP_MOVE is set.
 * Returns NULL when the v2 tests may run, else why not. */
static const char *
v2_would_move(const char *mount)
{
	static char	why[512];
	char		buf[8192], path[PATH_MAX], *own;
	FILE		*f;
	size_t		n;

	if (getenv("GBATCH_TEST_CGROUP_MOVE") != NULL)
		return (NULL);
	/* Without controllers to hand down (a hybrid host's unified
	 * mount) nothing is moved. */
	snprintf(path, sizeof path, "%s/cgroup.controllers", mount);
	if ((f = fopen(path, "re")) == NULL)
		return (NULL);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (strstr(buf, "memory") == NULL && strstr(buf, "pids") == NULL &&
	    strstr(buf, "cpuset") == NULL && strstr(buf, "cpu") == NULL)
		return (NULL);
	if ((f = fopen("/proc/self/cgroup", "re")) == NULL)
		return ("cannot read /proc/self/cgroup");
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((own = strstr(buf, "0::/")) == NULL)
		return ("no cgroup2 line in /proc/self/cgroup");
	own += 3;
	own[strcspn(own, "\n")] = '\0';
	snprintf(path, sizeof path, "%s%s/cgroup.type", mount,
	    strcmp(own, "/") == 0 ? "" : own);
	if (!exists(path))
		return (NULL);		/* the real root */
	snprintf(path, sizeof path, "%s%s/cgroup.subtree_control", mount, own);
	if ((f = fopen(path, "re")) != NULL) {
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = '\0';
		if (strstr(buf, "memory") != NULL && strstr(buf, "pids") != NULL
		    && strstr(buf, "cpuset") != NULL)
			return (NULL);
	}
	snprintf(why, sizeof why, "on cgroup v2 this would move the processes "
	    "of %s (this test's shell among them) into a leaf; run it in a "
	    "cgroup of its own (systemd-run --scope -p Delegate=yes) with "
	    "GBATCH_TEST_CGROUP_MOVE=1", own);
	return (why);
}

/* The cgroup2 mount point, or NULL. */
static char *
v2_mount(void)
{
	static char	mp[PATH_MAX];
	char		line[1024], *sep;
	FILE		*f;

	if ((f = fopen("/proc/self/mountinfo", "re")) == NULL)
		return (NULL);
	while (fgets(line, sizeof line, f) != NULL) {
		if ((sep = strstr(line, " - cgroup2 ")) == NULL)
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1) {
			fclose(f);
			return (mp);
		}
	}
	fclose(f);
	return (NULL);
}

static int
run(void)
{
	struct node_cgroup_sys	*sys = NULL;
	enum node_cgroup_mode	 mode;
	const char		*v2, *moved = NULL;
	char			 why[512];

	mode = node_cgroup_open(&sys, "a/b", why, sizeof why);
	ok(mode == NODE_CGROUP_NONE && sys == NULL &&
	    strstr(why, "expected 1-64 letters") != NULL,
	    "a parent name with a slash is refused (%s)", why);

	v2 = v2_mount();
	if (v2 != NULL)
		moved = v2_would_move(v2);

	if (moved != NULL) {
		mode = NODE_CGROUP_NONE;
		snprintf(why, sizeof why, "%s", moved);
	} else
		mode = node_cgroup_open(&sys, name, why, sizeof why);
	if (mode == NODE_CGROUP_NONE) {
		ok(1, "# SKIP the host's cgroups: %s", why);
	} else {
		printf("# the host's cgroups: v%d\n", mode == NODE_CGROUP_V1 ?
		    1 : 2);
		test_enter(sys, 1);
		test_oom(sys, 2);
		test_cpuset(sys, 3);
		test_pids(sys, 4);
		test_kill(sys, 5);
		test_usage(sys, 6, mode == NODE_CGROUP_V1);
		test_devices(sys, 7, mode == NODE_CGROUP_V1 ? "v1, devices.deny"
		    : "v2, BPF", skipdev);
		test_stale(sys, 8, true);
		test_destroy_busy(sys, 9);
		test_partial(sys, 10);
		test_fork(sys, 11, mode == NODE_CGROUP_V2);
		test_freeze(sys, 12, mode == NODE_CGROUP_V1 ? "v1" : "v2");
		node_cgroup_sys_free(sys);
		sys = NULL;
		ok(node_cgroup_open(&sys, name, why, sizeof why) == mode,
		    "opening again finds the parent there and uses it");
		node_cgroup_sys_free(sys);
		sys = NULL;
	}

	/* The v2 code on the cgroup2 mount, with whatever controllers it
	 * has: on a hybrid host that is none. */
	mode = v2 == NULL ? NODE_CGROUP_NONE : moved != NULL ?
	    NODE_CGROUP_NONE : node_cgroup_open_v2(&sys, NULL, name_v2, why,
	    sizeof why);
	if (v2 == NULL)
		snprintf(why, sizeof why, "no cgroup2 file system mounted");
	else if (moved != NULL)
		snprintf(why, sizeof why, "%s", moved);
	if (mode != NODE_CGROUP_V2)
		ok(1, "# SKIP v2 without controllers: %s", why);
	else {
		printf("# v2 at %s\n", v2);
		test_v2_bare(sys);
		test_freeze(sys, 13, "v2 without controllers");
	}
	node_cgroup_sys_free(sys);
	return (tap_done());
}

/* The supervisor's cleanup: kills what is left in path/job_* and removes
 * them and path, with plain file I/O rather than the module under test. */
static void
sweep(const char *path)
{
	char		 dir[PATH_MAX], file[PATH_MAX + 32];
	struct dirent	*de;
	DIR		*d;
	FILE		*f;
	uint64_t	 deadline;
	long		 pid;
	int		 fd;

	if ((d = opendir(path)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "job_", 4) != 0)
			continue;
		snprintf(dir, sizeof dir, "%s/%s", path, de->d_name);
		printf("# cleanup: %s was left\n", dir);
		snprintf(file, sizeof file, "%s/freezer.state", dir);
		if ((fd = open(file, O_WRONLY)) != -1) {
			(void)!write(fd, "THAWED", 6);
			close(fd);
		}
		deadline = now_ms() + CHILD_MS;
		while (count_procs(dir) > 0 && now_ms() < deadline) {
			snprintf(file, sizeof file, "%s/cgroup.procs", dir);
			f = fopen(file, "re");
			while (f != NULL && fscanf(f, "%ld", &pid) == 1)
				kill((pid_t)pid, SIGKILL);
			if (f != NULL)
				fclose(f);
			reap_orphans();
			tick();
		}
		if (rmdir(dir) == -1)
			printf("Bail out! cannot remove %s: %s\n", dir,
			    strerror(errno));
	}
	closedir(d);
	if (rmdir(path) == -1 && errno != ENOENT)
		printf("Bail out! cannot remove %s: %s\n", path,
		    strerror(errno));
}

static void
cleanup(void)
{
	char	line[1024], mp[PATH_MAX], path[PATH_MAX + 128];
	FILE	*f;

	if ((f = fopen("/proc/self/mountinfo", "re")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strstr(line, " - cgroup") == NULL ||
		    sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
			continue;
		snprintf(path, sizeof path, "%s/%s", mp, name);
		sweep(path);
		snprintf(path, sizeof path, "%s/%s", mp, name_v2);
		sweep(path);
	}
	fclose(f);
}

int
main(void)
{
	uint64_t	deadline;
	pid_t		pid;
	int		status = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("1..0 # SKIP not root (euid %lu): making cgroups needs "
		    "root\n", (unsigned long)geteuid());
		return (0);
	}
	snprintf(name, sizeof name, "gbatch-test-%ld", (long)getpid());
	snprintf(name_v2, sizeof name_v2, "gbatch-test-%ld-v2",
	    (long)getpid());
	/* Here, so that the cleanup knows where the nodes are. */
	skipdev = devices_setup();
	if ((pid = fork()) == 0) {
		/* Orphans of the fork bombs come back to us, to be reaped
		 * rather than left as zombies. */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		exit(run());
	}
	deadline = now_ms() + RUN_MS;
	while (pid > 0 && waitpid(pid, &status, WNOHANG) != pid) {
		if (now_ms() >= deadline) {
			printf("Bail out! the tests took over %d s\n",
			    RUN_MS / 1000);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		tick();
	}
	cleanup();
	devices_cleanup();
	if (WIFSIGNALED(status))
		printf("Bail out! the tests died of signal %d\n",
		    WTERMSIG(status));
	return (WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}
