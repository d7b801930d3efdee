/* node-mps.c: one MPS control daemon for each shared GPU (node-mps.h).
 *
 * Each GPU's daemon has directories of its own under the state directory,
 * mps/<index>/pipe and mps/<index>/log (root's, 0755: every job's user
 * reaches the pipes, as in MPS's default /tmp/nvidia-mps), and sees that
 * GPU alone (CUDA_VISIBLE_DEVICES, by UUID). The control program is run
 * with "-d" to start it and fed "quit" to stop it; gnoded waits for the
 * program (not the daemon, which leaves it) a few seconds at most. */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/node/node-mps.h"
#include "daemon/node/node-proc.h"

/* How long the control program may take, and its daemon to make its
 * pipes once started. */
#define NODE_MPS_WAIT_MS	5000
#define NODE_MPS_READY_MS	2000
#define NODE_MPS_PATH		"/usr/local/sbin:/usr/local/bin:/usr/sbin:" \
				"/usr/bin:/sbin:/bin"

struct node_mps {
	char			*control;	/* the program's path */
	char			*dir;		/* <state_dir>/mps */
	unsigned		 shards;
	size_t			 ngpus;
	struct node_mps_gpu	*gpu;
	char			(*uuid)[96];
	uint64_t		*mem_mb;
};

enum node_mps_join
node_mps_rule_join(struct node_mps_gpu *g, uid_t uid)
{
	if (g->users == 0) {
		g->users = 1;
		g->uid = uid;
		return (NODE_MPS_OPEN);
	}
	if (g->uid != uid)
		return (NODE_MPS_OUTSIDE);
	g->users++;
	return (NODE_MPS_JOIN);
}

bool
node_mps_rule_leave(struct node_mps_gpu *g)
{
	if (g->users == 0)
		return (false);
	return (--g->users == 0);
}

unsigned
node_mps_threads(unsigned share, unsigned shards)
{
	unsigned	pct;

	if (shards == 0 || share >= shards)
		return (100);
	pct = (unsigned)((100ULL * share) / shards);
	return (pct == 0 ? 1 : pct);
}

uint64_t
node_mps_mem_mb(uint64_t mem_mb, unsigned share, unsigned shards)
{
	if (shards == 0 || share >= shards)
		return (mem_mb);
	/* mem_mb is NVML's total (under 2^44 MB), share at most 64. */
	return (mem_mb * share / shards);
}

/* The program's path: name itself where it has a '/', else the first
 * executable of that name on gnoded's PATH. NULL: none. */
static char *
node_mps_find(const char *name)
{
	const char	*path = getenv("PATH"), *p, *end;
	char		*cand;

	if (strchr(name, '/') != NULL)
		return (access(name, X_OK) == 0 ? xstrdup(name) : NULL);
	if (path == NULL || *path == '\0')
		path = NODE_MPS_PATH;
	for (p = path; *p != '\0'; p = *end == ':' ? end + 1 : end) {
		if ((end = strchr(p, ':')) == NULL)
			end = p + strlen(p);
		if (end == p)
			continue;
		cand = xasprintf("%.*s/%s", (int)(end - p), p, name);
		if (access(cand, X_OK) == 0)
			return (cand);
		free(cand);
	}
	return (NULL);
}

struct node_mps *
node_mps_create(const struct node_conf *conf, const struct node_gpus *gpus)
{
	struct node_mps	*m;
	char		*control, *dir;
	const char	*why = NULL;
	size_t		 i, n = node_gpu_count(gpus);

	if (conf->gpu_shards < 2 || n == 0)
		return (NULL);
	if (strcmp(node_gpu_source(gpus), "nvml") != 0) {
		log_info("node %s: shared GPUs run without MPS: the GPUs are "
		    "configured, not NVML's", conf->name);
		return (NULL);
	}
	if (*conf->mps_control == '\0') {
		log_info("node %s: shared GPUs run without MPS "
		    "(node.mps_control is \"\")", conf->name);
		return (NULL);
	}
	if ((control = node_mps_find(conf->mps_control)) == NULL) {
		log_info("node %s: shared GPUs run without MPS: no %s%s "
		    "(node.mps_control)", conf->name, conf->mps_control,
		    strchr(conf->mps_control, '/') != NULL ? "" : " on PATH");
		return (NULL);
	}
	dir = xasprintf("%s/mps", conf->state_dir);
	/* Its longest pipe directory is "<dir>/63/pipe". */
	if (strlen(dir) + sizeof "/63/pipe" - 1 > NODE_MPS_PIPE_MAX)
		why = "too long a path for MPS's sockets";
	else if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		why = strerror(errno);
	if (why != NULL) {
		log_warn("node %s: shared GPUs run without MPS: %s: %s",
		    conf->name, dir, why);
		free(control);
		free(dir);
		return (NULL);
	}
	m = xcalloc(1, sizeof *m);
	m->control = control;
	m->dir = dir;
	m->shards = conf->gpu_shards;
	m->ngpus = n;
	m->gpu = xcalloc(n, sizeof *m->gpu);
	m->uuid = xcalloc(n, sizeof *m->uuid);
	m->mem_mb = xcalloc(n, sizeof *m->mem_mb);
	for (i = 0; i < n; i++) {
		snprintf(m->uuid[i], sizeof m->uuid[i], "%s",
		    node_gpu_at(gpus, i)->uuid);
		m->mem_mb[i] = node_gpu_at(gpus, i)->memory_mb;
	}
	log_info("node %s: shared GPUs run under MPS (%s), one control "
	    "daemon a GPU", conf->name, control);
	return (m);
}

void
node_mps_free(struct node_mps *m)
{
	if (m == NULL)
		return;
	free(m->control);
	free(m->dir);
	free(m->gpu);
	free(m->uuid);
	free(m->mem_mb);
	free(m);
}

/* The child's side of node_mps_run, with what it runs made before the
 * fork (gnoded may have threads: no malloc here). Never returns. */
static void
node_mps_exec(char *const argv[], char *const env[], int in)
{
	sigset_t	none;
	int		nul;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if ((nul = open("/dev/null", O_RDWR)) == -1 ||
	    dup2(in, STDIN_FILENO) == -1 || dup2(nul, STDOUT_FILENO) == -1 ||
	    dup2(nul, STDERR_FILENO) == -1)
		_exit(126);
	node_proc_close_from(3);
	/* Its daemon is no part of gnoded's session. */
	(void)setsid();
	execve(argv[0], argv, env);
	_exit(127);
}

static void
node_mps_nap(void)
{
	struct timespec	ts = { 0, 10 * 1000 * 1000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Runs the control program for gpu: "-d" to start its daemon, else fed
 * "quit". Returns 0, or -1 with err set. */
static int
node_mps_run(const struct node_mps *m, unsigned gpu, bool start, char *err,
    size_t errlen)
{
	char		*argv[3], *env[5];
	pid_t		 pid, r;
	int		 in[2], status, waited;
	size_t		 i;

	if (pipe2(in, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return (-1);
	}
	argv[0] = m->control;
	argv[1] = start ? "-d" : NULL;
	argv[2] = NULL;
	env[0] = xasprintf("PATH=%s", NODE_MPS_PATH);
	env[1] = xasprintf("CUDA_VISIBLE_DEVICES=%s", m->uuid[gpu]);
	env[2] = xasprintf("CUDA_MPS_PIPE_DIRECTORY=%s/%u/pipe", m->dir, gpu);
	env[3] = xasprintf("CUDA_MPS_LOG_DIRECTORY=%s/%u/log", m->dir, gpu);
	env[4] = NULL;
	if ((pid = fork()) == 0)
		node_mps_exec(argv, env, in[0]);
	for (i = 0; i < 4; i++)
		free(env[i]);
	close(in[0]);
	if (pid == -1) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(in[1]);
		return (-1);
	}
	/* A pipe takes these few bytes without blocking. */
	if (!start && write(in[1], "quit\n", 5) != 5)
		log_warn("MPS: GPU %u: cannot write quit: %s", gpu,
		    strerror(errno));
	close(in[1]);
	for (waited = 0;; waited += 10) {
		if ((r = waitpid(pid, &status, WNOHANG)) == pid)
			break;
		if (r == -1 && errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			return (-1);
		}
		if (waited >= NODE_MPS_WAIT_MS) {
			(void)kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
				;
			snprintf(err, errlen, "%s %s: still running after "
			    "%d s; killed", m->control, start ? "-d" : "(quit)",
			    NODE_MPS_WAIT_MS / 1000);
			return (-1);
		}
		node_mps_nap();
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return (0);
	if (WIFEXITED(status))
		snprintf(err, errlen, "%s %s exited %d%s", m->control, start ?
		    "-d" : "(quit)", WEXITSTATUS(status),
		    WEXITSTATUS(status) == 127 ? " (cannot run it)" : "");
	else
		snprintf(err, errlen, "%s %s killed by signal %d", m->control,
		    start ? "-d" : "(quit)", WTERMSIG(status));
	return (-1);
}

/* Whether gpu's pipe directory holds anything (a daemon's sockets). */
static bool
node_mps_pipes(const struct node_mps *m, unsigned gpu)
{
	DIR		*d;
	struct dirent	*de;
	char		*path;
	bool		 any = false;

	path = xasprintf("%s/%u/pipe", m->dir, gpu);
	if ((d = opendir(path)) != NULL) {
		while (!any && (de = readdir(d)) != NULL)
			any = strcmp(de->d_name, ".") != 0 &&
			    strcmp(de->d_name, "..") != 0;
		closedir(d);
	}
	free(path);
	return (any);
}

static int
node_mps_mkdirs(const struct node_mps *m, unsigned gpu, char *err,
    size_t errlen)
{
	static const char *const sub[] = { "", "/pipe", "/log" };
	char	*path;
	size_t	 i;

	for (i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		path = xasprintf("%s/%u%s", m->dir, gpu, sub[i]);
		if (mkdir(path, 0755) == -1 && errno != EEXIST) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(path);
			return (-1);
		}
		free(path);
	}
	return (0);
}

/* Starts gpu's daemon and waits (briefly) for its pipes. */
static int
node_mps_start(const struct node_mps *m, unsigned gpu, char *err,
    size_t errlen)
{
	int	waited;

	if (node_mps_mkdirs(m, gpu, err, errlen) == -1 ||
	    node_mps_run(m, gpu, true, err, errlen) == -1)
		return (-1);
	for (waited = 0; !node_mps_pipes(m, gpu); waited += 10) {
		if (waited >= NODE_MPS_READY_MS) {
			log_warn("MPS: GPU %u: its daemon made no pipe in "
			    "%s/%u/pipe in %d s; its first clients may run "
			    "outside MPS", gpu, m->dir, gpu,
			    NODE_MPS_READY_MS / 1000);
			break;
		}
		node_mps_nap();
	}
	return (0);
}

static void
node_mps_stop(const struct node_mps *m, unsigned gpu)
{
	char	err[512];

	if (node_mps_run(m, gpu, false, err, sizeof err) == -1)
		log_warn("MPS: GPU %u: cannot stop its daemon: %s", gpu, err);
	else
		log_info("MPS: GPU %u: daemon stopped", gpu);
}

bool
node_mps_join(struct node_mps *m, unsigned gpu, uid_t uid, uint64_t id)
{
	struct node_mps_gpu	*g;
	char			 err[512];

	if (m == NULL || gpu >= m->ngpus)
		return (false);
	g = &m->gpu[gpu];
	switch (node_mps_rule_join(g, uid)) {
	case NODE_MPS_OUTSIDE:
		log_info("job %" PRIu64 ": runs outside MPS on GPU %u, whose "
		    "daemon serves uid %lu (MPS serves one user at a time)",
		    id, gpu, (unsigned long)g->uid);
		return (false);
	case NODE_MPS_JOIN:
		return (true);
	case NODE_MPS_OPEN:
		break;
	}
	if (node_mps_start(m, gpu, err, sizeof err) == -1) {
		(void)node_mps_rule_leave(g);
		log_warn("job %" PRIu64 ": runs outside MPS on GPU %u: cannot "
		    "start its daemon: %s", id, gpu, err);
		return (false);
	}
	log_info("MPS: GPU %u: daemon started for uid %lu (job %" PRIu64 ")",
	    gpu, (unsigned long)uid, id);
	return (true);
}

void
node_mps_rejoin(struct node_mps *m, unsigned gpu, uid_t uid)
{
	if (m != NULL && gpu < m->ngpus)
		(void)node_mps_rule_join(&m->gpu[gpu], uid);
}

void
node_mps_leave(struct node_mps *m, unsigned gpu)
{
	if (m != NULL && gpu < m->ngpus && node_mps_rule_leave(&m->gpu[gpu]))
		node_mps_stop(m, gpu);
}

void
node_mps_sweep(struct node_mps *m)
{
	size_t	i;

	if (m == NULL)
		return;
	for (i = 0; i < m->ngpus; i++)
		if (m->gpu[i].users == 0 && node_mps_pipes(m, (unsigned)i)) {
			log_info("MPS: GPU %zu: no job of it runs; stopping "
			    "what daemon an earlier gnoded left", i);
			node_mps_stop(m, (unsigned)i);
		}
}

void
node_mps_env(const struct node_mps *m, unsigned gpu, unsigned share,
    struct node_launch *l)
{
	if (m == NULL || gpu >= m->ngpus)
		return;
	free(l->mps_pipe);
	free(l->mps_device);
	l->mps_pipe = xasprintf("%s/%u/pipe", m->dir, gpu);
	l->mps_device = xstrdup(m->uuid[gpu]);
	l->mps_threads = node_mps_threads(share, m->shards);
	l->mps_mem_mb = node_mps_mem_mb(m->mem_mb[gpu], share, m->shards);
}
