/* node-spawn.c: the job process: script, identity, environment, files. */
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/job-req.h"
#include "common/outpat.h"
#include "common/xmalloc.h"
#include "daemon/node/node-cgroup.h"
#include "daemon/node/node-ckpt.h"
#include "daemon/node/node-outfile.h"
#include "daemon/node/node-proc.h"
#include "daemon/node/node-spawn.h"
#include "daemon/node/node-user.h"

struct node_spawn {
	const struct node_launch	*l;
	bool				 as_root;	/* switch ids */
	struct node_user		 user;		/* when as_root */
	char				*path;		/* STATE/scripts/ID-PID */
	char				**argv;
	char				**env;
	size_t				 nenv;
	char				*out;		/* expanded, stdout */
	char				*errf;		/* and stderr */
	bool				 out_trunc;	/* else append */
	bool				 err_trunc;
	const struct node_cgroup	*cg;		/* or NULL */
	bool				 born_in_cg;	/* in the child */
	unsigned			 local;		/* the next task */
};

/* Where the job's environment has key: its index, or nenv. */
static size_t
node_spawn_getenv(const struct node_spawn *sp, const char *key)
{
	size_t	klen = strlen(key), i;

	for (i = 0; i < sp->nenv; i++) {
		if (strncmp(sp->env[i], key, klen) == 0 &&
		    sp->env[i][klen] == '=')
			break;
	}
	return (i);
}

static void
node_spawn_setenv(struct node_spawn *sp, const char *key, const char *value)
{
	size_t	i = node_spawn_getenv(sp, key);

	/* Ours win over a variable of the same name in the job's env. */
	if (i < sp->nenv) {
		free(sp->env[i]);
		sp->env[i] = xasprintf("%s=%s", key, value);
		return;
	}
	sp->env = xreallocarray(sp->env, sp->nenv + 2, sizeof *sp->env);
	sp->env[sp->nenv++] = xasprintf("%s=%s", key, value);
	sp->env[sp->nenv] = NULL;
}

/* The CPUs and memory (MB) the job has on this node, under the names
 * given; none where the launch did not say. */
static void
node_spawn_res_env(struct node_spawn *sp, const char *cpus, const char *mem)
{
	char	num[32];

	if (sp->l->cpus > 0) {
		snprintf(num, sizeof num, "%u", sp->l->cpus);
		node_spawn_setenv(sp, cpus, num);
	}
	if (sp->l->mem_mb > 0) {
		snprintf(num, sizeof num, "%llu",
		    (unsigned long long)sp->l->mem_mb);
		node_spawn_setenv(sp, mem, num);
	}
}

/* A job array's task: prefix JOB_ID, TASK_ID, TASK_COUNT, TASK_MIN,
 * TASK_MAX and (for a stepped range) TASK_STEP. */
static void
node_spawn_array_env(struct node_spawn *sp, const char *prefix)
{
	const struct node_launch	*l = sp->l;
	char				 key[64], num[32];

	if (l->array_job == 0 || l->array_task < 0)
		return;
#define NODE_SPAWN_ARRAY(suffix, fmt, val) do {				\
	snprintf(key, sizeof key, "%s%s", prefix, suffix);		\
	snprintf(num, sizeof num, fmt, val);				\
	node_spawn_setenv(sp, key, num);				\
} while (0)
	NODE_SPAWN_ARRAY("JOB_ID", "%llu", (unsigned long long)l->array_job);
	NODE_SPAWN_ARRAY("TASK_ID", "%ld", l->array_task);
	NODE_SPAWN_ARRAY("TASK_COUNT", "%u", l->array_count);
	NODE_SPAWN_ARRAY("TASK_MIN", "%u", l->array_min);
	NODE_SPAWN_ARRAY("TASK_MAX", "%u", l->array_max);
	if (l->array_step > 1)
		NODE_SPAWN_ARRAY("TASK_STEP", "%u", l->array_step);
#undef NODE_SPAWN_ARRAY
}

/* Sets key to n, a count every node of the job has alike, in Slurm's
 * per-node form: "N" on one node, "N(xM)" for M nodes. */
static void
node_spawn_per_node(struct node_spawn *sp, const char *key, unsigned n)
{
	char	num[48];

	if (sp->l->num_nodes > 1)
		snprintf(num, sizeof num, "%u(x%u)", n, sp->l->num_nodes);
	else
		snprintf(num, sizeof num, "%u", n);
	node_spawn_setenv(sp, key, num);
}

/* The variables Slurm's batch jobs see, where gbatch has their meaning:
 * one task per node, so a node's rank is its task's too. Scripts and
 * libraries that read them (SLURM_JOB_ID in paths, SLURM_PROCID for a
 * rank, SLURM_NTASKS for a world size) run unchanged. */
static void
node_spawn_slurm_env(struct node_spawn *sp, const char *node,
    const char *devs)
{
	const struct node_launch	*l = sp->l;
	char				 num[32];
	size_t				 i, k = 0;
	unsigned			 per_task;

	/* A submitter's shell inside a Slurm job exported its own: none
	 * of those is this job's. */
	for (i = 0; i < sp->nenv; i++) {
		if (strncmp(sp->env[i], "SLURM", 5) == 0)
			free(sp->env[i]);
		else
			sp->env[k++] = sp->env[i];
	}
	sp->nenv = k;
	sp->env[k] = NULL;
	snprintf(num, sizeof num, "%llu", (unsigned long long)l->id);
	node_spawn_setenv(sp, "SLURM_JOB_ID", num);
	node_spawn_setenv(sp, "SLURM_JOBID", num);
	node_spawn_setenv(sp, "SLURM_JOB_NAME", l->name);
	node_spawn_setenv(sp, "SLURM_JOB_USER", l->user);
	snprintf(num, sizeof num, "%u", (unsigned)l->uid);
	node_spawn_setenv(sp, "SLURM_JOB_UID", num);
	node_spawn_setenv(sp, "SLURM_SUBMIT_DIR", l->workdir);
	node_spawn_setenv(sp, "SLURM_JOB_NODELIST", l->nodelist);
	node_spawn_setenv(sp, "SLURM_NODELIST", l->nodelist);
	snprintf(num, sizeof num, "%u", l->num_nodes);
	node_spawn_setenv(sp, "SLURM_JOB_NUM_NODES", num);
	node_spawn_setenv(sp, "SLURM_NNODES", num);
	snprintf(num, sizeof num, "%u", l->world_size);
	node_spawn_setenv(sp, "SLURM_NTASKS", num);
	node_spawn_setenv(sp, "SLURM_NPROCS", num);
	snprintf(num, sizeof num, "%u", l->tasks);
	node_spawn_setenv(sp, "SLURM_NTASKS_PER_NODE", num);
	snprintf(num, sizeof num, "%u", l->node_rank);
	node_spawn_setenv(sp, "SLURM_NODEID", num);
	node_spawn_setenv(sp, "SLURMD_NODENAME", node);
	snprintf(num, sizeof num, "%zu", l->ngpus);
	node_spawn_setenv(sp, "SLURM_GPUS_ON_NODE", num);
	node_spawn_res_env(sp, "SLURM_CPUS_ON_NODE", "SLURM_MEM_PER_NODE");
	if (l->cpus > 0) {
		node_spawn_per_node(sp, "SLURM_JOB_CPUS_PER_NODE", l->cpus);
		per_task = l->tasks > 1 ? l->cpus / l->tasks : l->cpus;
		snprintf(num, sizeof num, "%u", per_task > 0 ? per_task : 1);
		node_spawn_setenv(sp, "SLURM_CPUS_PER_TASK", num);
	}
	node_spawn_per_node(sp, "SLURM_TASKS_PER_NODE", l->tasks);
	node_spawn_setenv(sp, "SLURM_JOB_PARTITION", *l->partition != '\0' ?
	    l->partition : JOB_REQ_PARTITION);
	/* Slurm sets it for a job with GPUs only. */
	if (l->ngpus > 0)
		node_spawn_setenv(sp, "SLURM_JOB_GPUS", devs);
	snprintf(num, sizeof num, "%u", l->restarts);
	node_spawn_setenv(sp, "SLURM_RESTART_COUNT", num);
	node_spawn_array_env(sp, "SLURM_ARRAY_");
}

/* What differs between the tasks of a node: torch.distributed's env://
 * variables as torchrun sets them for its workers (RANK the task's global
 * rank, LOCAL_RANK its rank on the node, GROUP_RANK and NODE_RANK the
 * node's), so init_process_group(init_method="env://") works unchanged
 * whether a node starts one process or one per GPU; Slurm's task
 * variables; and, one task per GPU, the task's own GPU. */
static void
node_spawn_task_env(struct node_spawn *sp, const struct node_conf *conf,
    unsigned local)
{
	const struct node_launch	*l = sp->l;
	char				 num[32];

	snprintf(num, sizeof num, "%u", l->task_base + local);
	node_spawn_setenv(sp, "RANK", num);
	if (conf->slurm_env)
		node_spawn_setenv(sp, "SLURM_PROCID", num);
	snprintf(num, sizeof num, "%u", local);
	node_spawn_setenv(sp, "LOCAL_RANK", num);
	if (conf->slurm_env)
		node_spawn_setenv(sp, "SLURM_LOCALID", num);
	snprintf(num, sizeof num, "%u", l->tasks);
	node_spawn_setenv(sp, "LOCAL_WORLD_SIZE", num);
	snprintf(num, sizeof num, "%u", l->world_size);
	node_spawn_setenv(sp, "WORLD_SIZE", num);
	snprintf(num, sizeof num, "%u", l->node_rank);
	node_spawn_setenv(sp, "NODE_RANK", num);
	node_spawn_setenv(sp, "GROUP_RANK", num);
	if (l->task_per_gpu && !l->gpu_bind_none && local < l->ngpus) {
		snprintf(num, sizeof num, "%u", l->gpus[local]);
		node_spawn_setenv(sp, "CUDA_VISIBLE_DEVICES",
		    l->mps_pipe != NULL ? l->mps_device : num);
	}
}

/* Sets key to value unless the job's environment has it. */
static void
node_spawn_default_env(struct node_spawn *sp, const char *key,
    const char *value)
{
	if (node_spawn_getenv(sp, key) == sp->nenv)
		node_spawn_setenv(sp, key, value);
}

/* HOME, LOGNAME, SHELL and USER from the user's account on this node,
 * where the job's environment lacks them (gsub --export=NONE, a job
 * submitted from cron or env -i): the commands send no account data, and
 * this node's is the one the job runs under. */
static void
node_spawn_account_env(struct node_spawn *sp)
{
	struct node_user	 own, *u = &sp->user;

	if (!sp->as_root) {
		/* Not root: its own jobs, its own account. */
		if (node_user_account(&own, sp->l->uid) == -1)
			return;
		u = &own;
	}
	if (u->name != NULL) {
		node_spawn_default_env(sp, "HOME", u->home);
		node_spawn_default_env(sp, "LOGNAME", u->name);
		node_spawn_default_env(sp, "SHELL", u->shell);
		node_spawn_default_env(sp, "USER", u->name);
	}
	if (u == &own)
		node_user_clear(&own);
}

/* What the process is to srun (grun run as srun inside a job): the batch
 * script of a job whose tasks srun starts (GBATCH_STEP=batch), a task of
 * a job that runs its script once a task ("task"), or a step's task (its
 * number, Slurm's SLURM_STEP_ID too). Always set: a job submitted from
 * inside another inherits its environment. */
static void
node_spawn_step_env(struct node_spawn *sp, const struct node_conf *conf)
{
	const struct node_launch	*l = sp->l;
	char				 num[32];

	if (l->step > 0) {
		snprintf(num, sizeof num, "%u", l->step_first != 0 ?
		    l->step_first : l->step);
		node_spawn_setenv(sp, "GBATCH_STEP", num);
		if (conf->slurm_env) {
			node_spawn_setenv(sp, "SLURM_STEP_ID", num);
			node_spawn_setenv(sp, "SLURM_STEPID", num);
		}
	} else
		node_spawn_setenv(sp, "GBATCH_STEP", l->batch ==
		    NODE_BATCH_ONCE ? "batch" : "task");
}

/* A job MPS serves: its GPU's daemon and its share of the GPU. That
 * daemon sees the GPU alone, which its clients name by UUID (by index
 * they would name a GPU it does not have); the memory limit's device 0
 * is that one GPU. */
static void
node_spawn_mps_env(struct node_spawn *sp)
{
	const struct node_launch	*l = sp->l;
	char				 num[32];

	if (l->mps_pipe == NULL)
		return;
	node_spawn_setenv(sp, "CUDA_VISIBLE_DEVICES", l->mps_device);
	node_spawn_setenv(sp, "CUDA_MPS_PIPE_DIRECTORY", l->mps_pipe);
	snprintf(num, sizeof num, "%u", l->mps_threads);
	node_spawn_setenv(sp, "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", num);
	if (l->mps_mem_mb > 0) {
		snprintf(num, sizeof num, "0=%lluM",
		    (unsigned long long)l->mps_mem_mb);
		node_spawn_setenv(sp, "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT", num);
	}
}

static void
node_spawn_env(struct node_spawn *sp, const struct node_conf *conf)
{
	const struct node_launch	*l = sp->l;
	char				*devs, num[32];
	size_t				 i, len = 0;

	for (sp->nenv = 0; l->env[sp->nenv] != NULL; sp->nenv++)
		;
	sp->env = xcalloc(sp->nenv + 1, sizeof *sp->env);
	for (i = 0; i < sp->nenv; i++)
		sp->env[i] = xstrdup(l->env[i]);

	node_spawn_account_env(sp);
	devs = xmalloc(l->ngpus * 4 + 1);
	devs[0] = '\0';
	for (i = 0; i < l->ngpus; i++)
		len += (size_t)sprintf(devs + len, "%s%u", i == 0 ? "" : ",",
		    l->gpus[i]);
	/* Empty for a CPU job: CUDA then sees no GPU, cgroups or not. */
	node_spawn_setenv(sp, "CUDA_VISIBLE_DEVICES", devs);
	if (conf->slurm_env)
		node_spawn_slurm_env(sp, conf->name != NULL ? conf->name : "",
		    devs);
	free(devs);
	/* The indices are NVML's, which count in PCI bus order; CUDA counts
	 * fastest first unless told otherwise, and on a machine with mixed
	 * GPUs the two orders differ. */
	node_spawn_setenv(sp, "CUDA_DEVICE_ORDER", "PCI_BUS_ID");
	snprintf(num, sizeof num, "%llu", (unsigned long long)l->id);
	node_spawn_setenv(sp, "GBATCH_JOB_ID", num);
	node_spawn_setenv(sp, "GBATCH_JOB_NAME", l->name);
	node_spawn_step_env(sp, conf);
	snprintf(num, sizeof num, "%zu", l->ngpus);
	node_spawn_setenv(sp, "GBATCH_GPUS", num);
	/* Shards of its GPU: N of S, beside other jobs (Slurm's count). */
	if (l->gpu_share > 0) {
		snprintf(num, sizeof num, "%u", l->gpu_share);
		node_spawn_setenv(sp, "GBATCH_GPU_SHARE", num);
		if (conf->slurm_env)
			node_spawn_setenv(sp, "SLURM_SHARDS_ON_NODE", num);
		snprintf(num, sizeof num, "%u", conf->gpu_shards);
		node_spawn_setenv(sp, "GBATCH_GPU_SHARDS", num);
	}
	node_spawn_mps_env(sp);
	node_spawn_res_env(sp, "GBATCH_CPUS", "GBATCH_MEM_MB");
	node_spawn_setenv(sp, "GBATCH_NODELIST", l->nodelist);
	snprintf(num, sizeof num, "%u", l->num_nodes);
	node_spawn_setenv(sp, "GBATCH_NUM_NODES", num);
	snprintf(num, sizeof num, "%u", l->node_rank);
	node_spawn_setenv(sp, "GBATCH_NODE_RANK", num);
	node_spawn_setenv(sp, "GBATCH_SUBMIT_DIR", l->workdir);
	snprintf(num, sizeof num, "%u", l->restarts);
	node_spawn_setenv(sp, "GBATCH_RESTART_COUNT", num);
	node_spawn_array_env(sp, "GBATCH_ARRAY_");
	if (*l->ckpt_dir != '\0')
		node_spawn_setenv(sp, "GBATCH_CKPT_DIR", l->ckpt_dir);
	if (l->progress != NULL)
		node_spawn_setenv(sp, "GBATCH_PROGRESS", l->progress);
	if (*l->master_addr != '\0')
		node_spawn_setenv(sp, "MASTER_ADDR", l->master_addr);
	if (l->master_port != 0) {
		snprintf(num, sizeof num, "%u", l->master_port);
		node_spawn_setenv(sp, "MASTER_PORT", num);
	}
}

static void
node_spawn_argv(struct node_spawn *sp)
{
	const struct node_launch	*l = sp->l;
	size_t				 n, i = 0;

	for (n = 0; l->argv[n] != NULL; n++)
		;
	sp->argv = xcalloc(n + 5, sizeof *sp->argv);
	if (l->batch == NODE_BATCH_HOLD) {
		/* A holder: a process of the job's user in its cgroup, that
		 * does nothing until the job's end stops it. */
		sp->argv[i++] = xstrdup("/bin/sleep");
		sp->argv[i++] = xstrdup("infinity");
		sp->argv[i] = NULL;
		return;
	}
	if (*l->script == '\0') {
		/* A command (grun's): the shell finds it on the job's PATH
		 * and becomes it. */
		sp->argv[i++] = xstrdup("/bin/sh");
		sp->argv[i++] = xstrdup("-c");
		sp->argv[i++] = xstrdup("exec \"$@\"");
		sp->argv[i++] = xstrdup("gbatch");
	} else {
		/* The kernel only runs a script by itself when it starts
		 * with #!. */
		if (strncmp(l->script, "#!", 2) != 0)
			sp->argv[i++] = xstrdup("/bin/sh");
		sp->argv[i++] = xstrdup(sp->path);
	}
	for (n = 0; l->argv[n] != NULL; n++)
		sp->argv[i++] = xstrdup(l->argv[n]);
	sp->argv[i] = NULL;
}

static int
node_spawn_script(struct node_spawn *sp, const char *state_dir, char *err,
    size_t errlen)
{
	const struct node_launch	*l = sp->l;
	size_t				 len = strlen(l->script), off = 0;
	ssize_t				 n;
	int				 fd;

	/* A file of scripts/ (mode 0711: no one lists it) the job's user
	 * alone may read: one inode a job, not a directory and a file. */
	sp->path = xasprintf("%s/scripts/%llu-%ld", state_dir,
	    (unsigned long long)l->id, (long)getpid());
	fd = open(sp->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0700);
	if (fd == -1) {
		snprintf(err, errlen, "%s: cannot create the job script: %s",
		    sp->path, strerror(errno));
		/* Not made here: node_spawn_cleanup leaves it be. */
		free(sp->path);
		sp->path = NULL;
		return (-1);
	}
	while (off < len) {
		if ((n = write(fd, l->script + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			close(fd);
			goto fail;
		}
		off += (size_t)n;
	}
	/* The job runs as its user, who must be able to read the script
	 * and no one else. */
	if (sp->as_root && fchown(fd, l->uid, l->gid) == -1) {
		close(fd);
		goto fail;
	}
	if (close(fd) == -1)
		goto fail;
	return (0);
fail:
	snprintf(err, errlen, "%s: cannot write the job script: %s", sp->path,
	    strerror(errno));
	return (-1);
}

/* Expands the job's output patterns for this node's part and decides
 * whether it truncates or appends to each file (outpat_truncates). */
static int
node_spawn_files(struct node_spawn *sp, const struct node_conf *conf,
    unsigned local, char *err, size_t errlen)
{
	const struct node_launch	*l = sp->l;
	struct outpat_vars		 v;
	char				 path[PATH_MAX], perr[256];

	memset(&v, 0, sizeof v);
	v.id = l->id;
	v.name = l->name;
	v.user = l->user;
	v.restarts = l->restarts;
	v.node = conf->name;
	v.rank = (long)(l->task_base + local);
	v.node_rank = (long)l->node_rank;
	v.array_job = l->array_job;
	v.array_task = l->array_task;
	if (outpat_expand(l->out, &v, path, sizeof path, perr,
	    sizeof perr) == -1) {
		snprintf(err, errlen, "stdout: %s", perr);
		return (-1);
	}
	free(sp->out);
	sp->out = xstrdup(path);
	if (outpat_expand(l->err, &v, path, sizeof path, perr,
	    sizeof perr) == -1) {
		snprintf(err, errlen, "stderr: %s", perr);
		return (-1);
	}
	free(sp->errf);
	sp->errf = xstrdup(path);
	/* The node's tasks start one after the other, each once the last
	 * has opened its files: the first may truncate a file they share. */
	sp->out_trunc = !l->append && (local == 0 ||
	    outpat_per_task(l->out)) && outpat_truncates(l->out, l->restarts,
	    l->num_nodes);
	sp->err_trunc = !l->append && (local == 0 ||
	    outpat_per_task(l->err)) && outpat_truncates(l->err, l->restarts,
	    l->num_nodes);
	/* One file opened once: truncated only if neither name is shared. */
	if (strcmp(sp->out, sp->errf) == 0)
		sp->out_trunc = sp->err_trunc = sp->out_trunc && sp->err_trunc;
	return (0);
}

/* Only a gnoded running as root switches ids; one that does not runs
 * jobs for its own uid alone (node_jobs_check), as itself. */
static int
node_spawn_user(struct node_spawn *sp, const struct node_conf *conf,
    char *err, size_t errlen)
{
	const struct node_launch	*l = sp->l;

	if (!sp->as_root)
		return (0);
	return (node_user_resolve(&sp->user, l->uid, l->gid, l->user,
	    conf->name, err, errlen));
}

struct node_spawn *
node_spawn_prepare(const struct node_conf *conf, const struct node_launch *l,
    char *err, size_t errlen)
{
	struct node_spawn	*sp;

	sp = xcalloc(1, sizeof *sp);
	sp->l = l;
	sp->as_root = geteuid() == 0;
	if (node_spawn_user(sp, conf, err, errlen) == -1 ||
	    node_spawn_files(sp, conf, 0, err, errlen) == -1 ||
	    (*l->script != '\0' && node_spawn_script(sp, conf->state_dir, err,
	    errlen) == -1)) {
		node_spawn_cleanup(sp);
		node_spawn_free(sp);
		return (NULL);
	}
	node_spawn_argv(sp);
	node_spawn_env(sp, conf);
	node_spawn_task_env(sp, conf, l->task_local);
	return (sp);
}

void
node_spawn_set_cgroup(struct node_spawn *sp, const struct node_cgroup *cg)
{
	sp->cg = cg;
}

int
node_spawn_task(struct node_spawn *sp, const struct node_conf *conf,
    unsigned local, char *err, size_t errlen)
{
	if (node_spawn_files(sp, conf, local, err, errlen) == -1)
		return (-1);
	node_spawn_task_env(sp, conf, local);
	sp->local = local;
	return (0);
}

/* Writes msg, why the child failed, to the shepherd and exits. */
static void __attribute__((noreturn))
node_spawn_die_msg(int fd, const char *msg)
{
	(void)!write(fd, msg, strlen(msg));
	_exit(127);
}

/* Writes "what path: strerror(errno)" to the shepherd and exits. */
static void __attribute__((noreturn))
node_spawn_die(int fd, const char *what, const char *path)
{
	char	msg[1024];

	snprintf(msg, sizeof msg, "%s%s%s: %s", what, path != NULL ? " " : "",
	    path != NULL ? path : "", strerror(errno));
	node_spawn_die_msg(fd, msg);
}

/* Opens a job's output file as its user (node-outfile.h: always
 * appended to, mode 0666 less the submitter's umask, nothing another user
 * planted at its name), or dies saying "cannot open WHAT PATH: why". */
static int
node_spawn_open(int fd, const char *what, const char *path, bool truncate)
{
	char	why[512], msg[1024];
	int	ofd;

	if ((ofd = node_outfile_open(path, truncate, why, sizeof why)) == -1) {
		snprintf(msg, sizeof msg, "cannot open %s %s: %s", what, path,
		    why);
		node_spawn_die_msg(fd, msg);
	}
	return (ofd);
}

/* In a child: takes on the job's user's identity, or dies saying why. */
static void
node_spawn_become(struct node_spawn *sp, int fd)
{
	char	err[512];

	if (sp->as_root && node_user_become(&sp->user, err, sizeof err) == -1)
		node_spawn_die_msg(fd, err);
}

/* In the child of an interactive job or step: its stdio are the
 * session's streams (l->io_fd). The first task has the input and the
 * terminal, which becomes its controlling terminal; with a terminal, the
 * other tasks print nowhere (as srun --pty's). */
static void
node_spawn_relayed(struct node_spawn *sp, int fd)
{
	const struct node_launch	*l = sp->l;
	int				 io[3], i, nfd;
	bool				 first = sp->local == 0;

	if ((nfd = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1)
		node_spawn_die(fd, "stdin", "/dev/null");
	for (i = 0; i < 3; i++)
		io[i] = l->io_fd[i] >= 0 && (first || (i > 0 &&
		    !l->io_pty)) ? l->io_fd[i] : nfd;
	if (!l->io_stdin || !first)
		io[0] = nfd;
	for (i = 0; i < 3; i++) {
		if (dup2(io[i], i) == -1)
			node_spawn_die(fd, "cannot set up the session's streams",
			    NULL);
	}
	if (l->io_pty && first && ioctl(0, TIOCSCTTY, 0) == -1)
		node_spawn_die(fd, "cannot take the terminal", NULL);
}

/* In the child: never returns. */
static void __attribute__((noreturn))
node_spawn_child(struct node_spawn *sp, int fd)
{
	const struct node_launch	*l = sp->l;
	struct sigaction		 sa;
	sigset_t			 all;
	int				 sig, ofd, efd, nfd;

	setsid();
	/* The shepherd blocks and ignores signals; the job starts clean. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++) {
		/* A holder hears SIGTERM alone (a signal to the job, a
		 * checkpoint's, a warning's are the batch script's). */
		sa.sa_handler = l->batch == NODE_BATCH_HOLD && sig != SIGTERM ?
		    SIG_IGN : SIG_DFL;
		sigaction(sig, &sa, NULL);
	}
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);

	/* Into the job's cgroup first, while still root and before it can
	 * fork: nothing the job starts is outside it (unless it was born
	 * there, node_cgroup_fork). */
	if (sp->cg != NULL && !sp->born_in_cg && node_cgroup_enter(sp->cg) == -1)
		node_spawn_die(fd, "cannot enter the job's cgroup", NULL);
	/* Everything from here on is done as the job's user: a job may
	 * write, through its output paths and its checkpoint directory,
	 * only where its user could. */
	node_spawn_become(sp, fd);
	if (chdir(l->workdir) == -1)
		node_spawn_die(fd, "workdir", l->workdir);
	umask(l->umask);

	/* As the job's user: the user must own what a restarted run reads
	 * back, and may only create what the user could. */
	if (*l->ckpt_dir != '\0' && node_ckpt_make(l->ckpt_dir) == -1)
		node_spawn_die(fd, "cannot create checkpoint directory",
		    l->ckpt_dir);

	if (l->io)
		node_spawn_relayed(sp, fd);
	else {
		if ((nfd = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1)
			node_spawn_die(fd, "stdin", "/dev/null");
		ofd = node_spawn_open(fd, "stdout", sp->out, sp->out_trunc);
		if (strcmp(sp->out, sp->errf) == 0)
			efd = ofd;
		else
			efd = node_spawn_open(fd, "stderr", sp->errf,
			    sp->err_trunc);
		if (dup2(nfd, 0) == -1 || dup2(ofd, 1) == -1 ||
		    dup2(efd, 2) == -1)
			node_spawn_die(fd, "cannot set up stdio for", sp->out);
	}
	/* The job gets stdio and nothing else of the daemon's: whatever the
	 * shepherd or a library holds open closes at the exec (the pipe
	 * to the shepherd included, which must stay open until then). */
	if (node_proc_cloexec_from(3) == -1)
		node_spawn_die(fd, "cannot close the daemon's descriptors for",
		    sp->out);

	execve(sp->argv[0], sp->argv, sp->env);
	node_spawn_die(fd, "cannot run", sp->argv[0]);
}

/* Reads what a child wrote to fd until it closes, into err; closes fd.
 * Returns the length read, 0 when the child said nothing. */
static size_t
node_spawn_read_err(int fd, char *err, size_t errlen)
{
	ssize_t	n;
	size_t	len = 0;

	while (len < errlen - 1) {
		n = read(fd, err + len, errlen - 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	err[len] = '\0';
	return (len);
}

/* Forks a child that can write why it failed to fds[1] (close-on-exec, so
 * an exec closes it); the parent keeps fds[0]. The child is born in cg
 * where the kernel can do that (node_cgroup_fork: the caller, the
 * shepherd, has one thread) and says so in *born_in_cg. Returns the pid, 0
 * in the child, or -1 with err saying "what: ..." */
static pid_t
node_spawn_fork(int fds[2], const struct node_cgroup *cg, bool *born_in_cg,
    const char *what, char *err, size_t errlen)
{
	pid_t	pid;

	if (pipe2(fds, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "%s: pipe: %s", what, strerror(errno));
		return (-1);
	}
	if ((pid = node_cgroup_fork(cg, born_in_cg)) == -1) {
		snprintf(err, errlen, "%s: fork: %s", what, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return (-1);
	}
	close(pid == 0 ? fds[0] : fds[1]);
	return (pid);
}

pid_t
node_spawn_start(struct node_spawn *sp, char *err, size_t errlen)
{
	pid_t	pid;
	int	fds[2], status;

	if ((pid = node_spawn_fork(fds, sp->cg, &sp->born_in_cg,
	    "cannot start the job", err, errlen)) <= 0) {
		if (pid == 0)
			node_spawn_child(sp, fds[1]);
		return (-1);
	}
	/* The pipe closes on a successful exec (O_CLOEXEC); a message means
	 * the child failed before it. */
	if (node_spawn_read_err(fds[0], err, errlen) == 0)
		return (pid);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	return (-1);
}

void
node_spawn_exec(struct node_spawn *sp, int fd)
{
	node_spawn_child(sp, fd);
}

int
node_spawn_tidy(struct node_spawn *sp, char *err, size_t errlen)
{
	const struct node_launch	*l;
	struct node_user_saved		 sv;
	char				 why[512];
	int				 rc;

	if (sp == NULL)
		return (0);
	l = sp->l;
	/* Rank 0 alone: the parts of a multi-node job share the directory,
	 * and one that ended early could remove it while another was about
	 * to write its checkpoint (docs/job-files.md). */
	if (*l->ckpt_dir == '\0' || l->node_rank != 0)
		return (0);
	if (!sp->as_root)
		return (node_ckpt_remove(l->ckpt_dir, l->workdir, err, errlen));
	/* As the job's user, who may have put anything there, a symlink
	 * included: root would follow it. The effective ids switch and
	 * back, rather than a child being forked for it: a fork per job end
	 * cost a fifth of the trivial-job rate. */
	if (node_user_enter(&sp->user, &sv, why, sizeof why) == -1) {
		snprintf(err, errlen, "cannot remove it: %s", why);
		return (-1);
	}
	rc = node_ckpt_remove(l->ckpt_dir, l->workdir, err, errlen);
	node_user_leave(&sv);
	return (rc);
}

void
node_spawn_cleanup(struct node_spawn *sp)
{
	if (sp == NULL || sp->path == NULL)
		return;
	unlink(sp->path);
}

void
node_spawn_free(struct node_spawn *sp)
{
	size_t	i;

	if (sp == NULL)
		return;
	for (i = 0; sp->argv != NULL && sp->argv[i] != NULL; i++)
		free(sp->argv[i]);
	free(sp->argv);
	for (i = 0; i < sp->nenv; i++)
		free(sp->env[i]);
	free(sp->env);
	free(sp->path);
	free(sp->out);
	free(sp->errf);
	node_user_clear(&sp->user);
	free(sp);
}
