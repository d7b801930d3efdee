/* cgroup-fork.c (bench): what putting a job's first process into its
 * cgroup costs, the two ways gnoded's shepherd can: fork, then the child
 * writes itself into cgroup.procs (a migration: the kernel takes the
 * cgroup threadgroup lock for writing, which waits out an RCU grace
 * period), or node_cgroup_fork, where the child is born in the cgroup
 * (clone3 with CLONE_INTO_CGROUP, cgroup v2). Each figure is from the
 * fork to the child's word that it is in, through a pipe; the two ways
 * take turns, a pause between launches as between real ones.
 *   cgroup-fork [ROUNDS]      (default 20; as root, on a host with a
 *                              cgroup2 mount: a v2 host's, or a hybrid
 *                              host's unified one without controllers)
 * Then what making a job's cgroup there costs: mkdir and the device
 * program that denies the node's other GPUs (seven here, as on an 8-GPU
 * node), and removing it after.
 * Prints one line per way, and one for the making, each label and its
 * figures (median and p95, in ms) separated by a tab. Exit status: 0; 1 when
 * there is no usable cgroup2 mount here (it says why); 2 for a usage
 * error. */
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/node/node-cgroup.h"

#define CGROUP_FORK_MAX		1000
#define CGROUP_FORK_PAUSE_US	50000

static double
cgroup_fork_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6);
}

/* One launch into cg, born there (born) or entering: the ms from the fork
 * to the child's word, or -1. */
static double
cgroup_fork_once(const struct node_cgroup *cg, bool born)
{
	double	t0;
	bool	inside;
	char	c;
	int	p[2], status;
	pid_t	pid;

	if (pipe2(p, O_CLOEXEC) == -1)
		return (-1);
	t0 = cgroup_fork_now_ms();
	pid = born ? node_cgroup_fork(cg, &inside) : fork();
	if (pid == 0) {
		if (!born || !inside)
			(void)node_cgroup_enter(cg);
		(void)!write(p[1], born && inside ? "b" : "e", 1);
		_exit(0);
	}
	close(p[1]);
	if (pid == -1 || read(p[0], &c, 1) != 1)
		t0 = -1;
	close(p[0]);
	if (pid > 0)
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
	if (t0 < 0 || (born && c != 'b'))
		return (-1);
	return (cgroup_fork_now_ms() - t0);
}

static int
cgroup_fork_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

static void
cgroup_fork_print(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cgroup_fork_cmp);
	printf("%s\tmedian %.2f ms, p95 %.2f ms (n=%d)\n", what,
	    v[(n - 1) / 2], v[(n * 95 + 99) / 100 - 1], n);
}

/* Makes and removes a job's cgroup denied seven GPUs' device files:
 * the ms making took, or -1. */
static double
cgroup_fork_make(struct node_cgroup_sys *sys, uint64_t id)
{
	struct node_cgroup_limits	 l = { 0 };
	struct node_cgroup		*cg;
	dev_t				 deny[7];
	char				 why[512];
	double				 t0, t;
	size_t				 i;

	for (i = 0; i < 7; i++)
		deny[i] = makedev(195, (unsigned)i + 1);
	l.deny = deny;
	l.ndeny = 7;
	t0 = cgroup_fork_now_ms();
	if ((cg = node_cgroup_create(sys, id, &l, why, sizeof why)) == NULL)
		return (-1);
	t = cgroup_fork_now_ms() - t0;
	(void)node_cgroup_destroy(cg, why, sizeof why);
	node_cgroup_free(cg);
	return (t);
}

int
main(int argc, char **argv)
{
	static double			 entered[CGROUP_FORK_MAX];
	static double			 born[CGROUP_FORK_MAX];
	static double			 made[CGROUP_FORK_MAX];
	struct node_cgroup_sys		*sys = NULL;
	struct node_cgroup		*cg;
	struct node_cgroup_limits	 l = { 0 };
	char				 name[64], why[512];
	int				 rounds = 20, i;

	if (argc > 2 || (argc == 2 && ((rounds = atoi(argv[1])) < 1 ||
	    rounds > CGROUP_FORK_MAX))) {
		fprintf(stderr, "usage: cgroup-fork [ROUNDS, 1-%d]\n",
		    CGROUP_FORK_MAX);
		return (2);
	}
	snprintf(name, sizeof name, "gbbench-cgfork-%ld", (long)getpid());
	if (node_cgroup_open_v2(&sys, NULL, name, why, sizeof why) !=
	    NODE_CGROUP_V2) {
		printf("cgroup-fork: no usable cgroup2 mount: %s\n", why);
		return (1);
	}
	if ((cg = node_cgroup_create(sys, 1, &l, why, sizeof why)) == NULL) {
		printf("cgroup-fork: %s\n", why);
		node_cgroup_sys_close(sys);
		return (1);
	}
	for (i = 0; i < rounds; i++) {
		usleep(CGROUP_FORK_PAUSE_US);
		entered[i] = cgroup_fork_once(cg, false);
		usleep(CGROUP_FORK_PAUSE_US);
		born[i] = cgroup_fork_once(cg, true);
		if (entered[i] < 0 || born[i] < 0) {
			printf("cgroup-fork: a launch failed (%s)\n",
			    born[i] < 0 ? "clone3 into the cgroup" : "enter");
			rounds = -1;
			break;
		}
	}
	for (i = 0; rounds > 0 && i < rounds; i++) {
		usleep(CGROUP_FORK_PAUSE_US);
		if ((made[i] = cgroup_fork_make(sys, 2 + (uint64_t)i)) < 0) {
			printf("cgroup-fork: cannot make a cgroup with a device "
			    "program here\n");
			rounds = -1;
		}
	}
	if (rounds > 0) {
		cgroup_fork_print("fork, then write cgroup.procs", entered,
		    rounds);
		cgroup_fork_print("born in it (clone3 CLONE_INTO_CGROUP)", born,
		    rounds);
		cgroup_fork_print("made, with its device program", made,
		    rounds);
	}
	(void)node_cgroup_destroy(cg, why, sizeof why);
	node_cgroup_free(cg);
	node_cgroup_sys_close(sys);
	return (rounds > 0 ? 0 : 1);
}
