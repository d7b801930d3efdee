/* launch.c: messages that make node daemons act on jobs. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/jdecode.h"
#include "common/label.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/master-port.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/store.h"
#include "policy/sched.h"

/* What launching asks of the floors above (launch.h). Global: gbatchd.c
 * registers them once at start. */
static struct launch_hooks	launch_hooks;

void
launch_init(const struct launch_hooks *hooks)
{
	launch_hooks = *hooks;
}

/* The JSON text the store keeps (argv, env), as a value; fallback when
 * there is none or it does not read. */
static json_t *
launch_parse(const char *text, json_t *fallback)
{
	json_t	*v;

	if (text == NULL || (v = jdecode(text, strlen(text), NULL, 0)) ==
	    NULL)
		return (fallback);
	json_decref(fallback);
	return (v);
}

static void
launch_fail(struct job *j, const char *message)
{
	struct job_change	how = { 0 };

	how.message = message;
	how.detail = message;
	log_error("job %" PRIu64 ": %s", job_id(j), message);
	(void)job_change_state(j, JOB_FAILED, &how);
}

/* The job's checkpoint grace: its own, else the config's, never above
 * the config's cap. */
static int
launch_grace(const struct store_job *row)
{
	const struct conf	*c = ctx_conf();
	int			 g = row->ckpt_grace != 0 ? (int)row->ckpt_grace :
				     c->ckpt_grace;

	return (g < c->max_ckpt_grace ? g : c->max_ckpt_grace);
}

static json_t *
launch_gpus(uint64_t mask)
{
	json_t		*gpus = json_array();
	unsigned	 i;

	for (i = 0; i < 64; i++) {
		if (mask & (UINT64_C(1) << i))
			json_array_append_new(gpus, json_integer(i));
	}
	return (gpus);
}

/* "n1,n2": the job's nodes in rank order, as GBATCH_NODELIST. */
static char *
launch_nodelist(const struct job *j)
{
	char	*s = xstrdup(""), *t;
	size_t	 i;

	for (i = 0; i < job_nparts(j); i++) {
		t = xasprintf("%s%s%s", s, i > 0 ? "," : "",
		    node_name(job_part_const(j, i)->node));
		free(s);
		s = t;
	}
	return (s);
}

/* A task's place in its array, for GBATCH_ARRAY_* and %A/%a. */
static json_t *
launch_array(const struct store_job *row)
{
	struct array_set	a;
	json_t			*o;
	char			 err[256];

	o = json_pack("{s:I,s:i}", "job", (json_int_t)row->array_job_id,
	    "task", row->array_task_id);
	if (array_parse(row->array_spec, &a, err, sizeof err) == 0) {
		json_object_set_new(o, "count", json_integer(array_count(&a)));
		json_object_set_new(o, "min", json_integer(array_min(&a)));
		json_object_set_new(o, "max", json_integer(array_max(&a)));
		if (a.n == 1 && a.r[0].first != a.r[0].last)
			json_object_set_new(o, "step",
			    json_integer(a.r[0].step));
		array_free(&a);
	}
	return (o);
}

/* The processes part i starts (the job's tasks_per_node: "" one, "gpu"
 * one per GPU of the part, else that many). */
static unsigned
launch_tasks_of(const struct job *j, size_t i)
{
	uint32_t	k = job_tasks_fixed(job_tasks_per_node(j));

	return (k != 0 ? k : sched_mask_count(job_part_const(j, i)->mask));
}

/* Part i's "tasks": the global rank of its first process, how many it
 * starts, and the job's in all; with one task per GPU, whether each sees
 * them all. */
static json_t *
launch_tasks(const struct job *j, size_t i, unsigned world, unsigned base,
    uint32_t flags)
{
	json_t	*t;

	t = json_pack("{s:i,s:i,s:i}", "base", (int)base, "count",
	    (int)launch_tasks_of(j, i), "world_size", (int)world);
	if (job_tasks_fixed(job_tasks_per_node(j)) == 0) {
		json_object_set_new(t, "per_gpu", json_true());
		if (flags & JOB_F_GPU_BIND_NONE)
			json_object_set_new(t, "gpu_bind_none", json_true());
	}
	return (t);
}

/* The launch's members every part shares, from row (the store's). NULL
 * when it cannot be encoded. A new reference. */
static json_t *
launch_spec(struct job *j, const struct store_job *row)
{
	struct node	*master = job_node(j);
	json_t		*spec;
	char		*ckpt_dir, *nodelist, part[LABEL_MAX + 1];

	nodelist = launch_nodelist(j);
	spec = json_pack("{s:I,s:s,s:s,s:I,s:I,s:s,s:s,s:s,s:s,s:o,s:o,"
	    "s:I,s:s,s:I,s:I,s:i,s:i,s:s,s:i}",
	    "id", (json_int_t)row->id, "name", row->name, "user", row->user,
	    "uid", (json_int_t)row->uid, "gid", (json_int_t)row->gid,
	    "workdir", row->workdir, "stdout", row->stdout_path,
	    "stderr", row->stderr_path, "script", row->script,
	    "argv", launch_parse(row->argv, json_array()),
	    "env", launch_parse(row->env, json_object()),
	    "time_limit", (json_int_t)core_resv_limit(j, row->start_time),
	    "nodelist", nodelist, "num_nodes", (json_int_t)job_nparts(j),
	    "restarts", (json_int_t)row->restarts,
	    "ckpt_signal", row->ckpt_signal != 0 ? row->ckpt_signal : 10,
	    "ckpt_grace", launch_grace(row),
	    "master_addr", *node_addr(master) != '\0' ? node_addr(master) :
	    node_name(master),
	    "master_port", job_master_port(j) != 0 ? (int)job_master_port(j) :
	    (int)master_port_pick(master, row->id));
	free(nodelist);
	if (spec == NULL)
		return (NULL);
	json_object_set_new(spec, "partition", json_string(core_part_run(j,
	    part, sizeof part)));
	/* Shards of its one GPU, which other such jobs share. */
	if (job_gpu_share(j) > 0)
		json_object_set_new(spec, "gpu_share",
		    json_integer(job_gpu_share(j)));
	/* A job from before the umask was kept has none: the node picks. */
	if (row->umask >= 0)
		json_object_set_new(spec, "umask", json_integer(row->umask));
	if (row->flags & JOB_F_APPEND)
		json_object_set_new(spec, "open_mode", json_string("append"));
	if (row->warn_signal != 0) {
		json_object_set_new(spec, "warn_signal",
		    json_integer(row->warn_signal));
		json_object_set_new(spec, "warn_time",
		    json_integer((json_int_t)row->warn_time));
		if (row->flags & JOB_F_WARN_BATCH)
			json_object_set_new(spec, "warn_batch", json_true());
	}
	if (row->array_job_id != 0)
		json_object_set_new(spec, "array", launch_array(row));
	/* Only a job that can be preempted gets a checkpoint directory: a
	 * --no-requeue job never resumes, so one would only be litter in
	 * its working directory (docs/job-files.md). */
	if (!(row->flags & JOB_F_NO_REQUEUE)) {
		ckpt_dir = xasprintf("%s/.gbatch/ckpt/%" PRIu64, row->workdir,
		    row->id);
		json_object_set_new(spec, "ckpt_dir", json_string(ckpt_dir));
		free(ckpt_dir);
	}
	return (spec);
}

/* The global rank of part i's first task. */
static unsigned
launch_base_of(const struct job *j, size_t i)
{
	unsigned	base = 0;
	size_t		k;

	for (k = 0; k < i; k++)
		base += launch_tasks_of(j, k);
	return (base);
}

/* sbatch's script once: rank 0 runs it as one process that sees the
 * whole part (its tasks are srun's to start); the others hold their
 * nodes with nothing of the job's in them, writing nowhere and deaf to
 * all but the SIGTERM that ends them (gnoded's "hold"). */
static void
launch_batch_once(json_t *part, size_t i)
{
	if (i == 0) {
		json_object_set_new(part, "batch", json_string("once"));
		return;
	}
	json_object_set_new(part, "batch", json_string("hold"));
	json_object_set_new(part, "script", json_string(""));
	json_object_set_new(part, "argv", json_array());
	json_object_set_new(part, "stdout", json_string("/dev/null"));
	json_object_set_new(part, "stderr", json_string("/dev/null"));
	json_object_del(part, "warn_signal");
	json_object_del(part, "warn_time");
}

/* Part i's launch: spec with its rank, GPUs, tasks, CPUs and memory, and
 * an interactive job's streams. A new reference. */
static json_t *
launch_part(struct job *j, const json_t *spec, size_t i, unsigned world,
    unsigned base, uint32_t flags)
{
	json_t		*part, *io;
	uint32_t	 cpus;
	uint64_t	 mem;

	part = json_deep_copy(spec);
	json_object_set_new(part, "node_rank", json_integer((json_int_t)i));
	json_object_set_new(part, "gpus",
	    launch_gpus(job_part_const(j, i)->mask));
	json_object_set_new(part, "tasks", launch_tasks(j, i, world, base,
	    flags));
	if (flags & JOB_F_BATCH_ONCE)
		launch_batch_once(part, i);
	/* Its CPUs and memory: the node confines the job to them. */
	core_part_res(j, i, &cpus, &mem);
	if (cpus > 0)
		json_object_set_new(part, "cpus", json_integer(cpus));
	if (mem > 0)
		json_object_set_new(part, "mem_mb", json_integer(
		    (json_int_t)mem));
	if (flags & JOB_F_INTERACTIVE) {
		if ((io = launch_hooks.interactive(j, i)) != NULL)
			json_object_set_new(part, "interactive", io);
		else {
			/* A terminal's other nodes print nowhere, as
			 * srun --pty's other tasks. */
			json_object_set_new(part, "stdout",
			    json_string("/dev/null"));
			json_object_set_new(part, "stderr",
			    json_string("/dev/null"));
		}
	}
	return (part);
}

void
launch_job(struct job *j)
{
	struct store_job	 row;
	json_t			*msg, *spec;
	size_t			 i, nparts = job_nparts(j);
	unsigned		 world, base = 0;
	int			 rc;

	/* Every part's node must be there before any part starts: a gang
	 * never runs partly. */
	for (i = 0; i < nparts; i++) {
		if (node_peer(job_part_const(j, i)->node) == NULL) {
			launch_fail(j, "a node of its allocation disconnected "
			    "before the launch");
			return;
		}
	}
	if ((rc = store_job_get(job_id(j), &row)) != 1) {
		launch_fail(j, rc == 0 ? "its row is missing from the store" :
		    "cannot read its script from the store");
		return;
	}
	spec = launch_spec(j, &row);
	store_job_done();
	if (spec == NULL) {
		launch_fail(j, "cannot encode its launch message");
		return;
	}
	world = launch_base_of(j, nparts);
	/* One message per part: the same job, its rank, its GPUs and its
	 * tasks. */
	for (i = 0; i < nparts; i++) {
		msg = proto_msg(MSG_JOB_LAUNCH);
		json_object_set_new(msg, "job", launch_part(j, spec, i, world,
		    base, job_flags(j)));
		base += launch_tasks_of(j, i);
		peer_send(node_peer(job_part_const(j, i)->node), msg);
		json_decref(msg);
	}
	json_decref(spec);
}

int
launch_step(struct job *j, size_t rank, uint32_t step, struct peer *p,
    const json_t *cmd, const json_t *io, char *err, size_t errlen)
{
	struct store_job	 row;
	const json_t		*t;
	json_t			*msg, *spec, *part, *tasks;
	int			 rc;

	if ((rc = store_job_get(job_id(j), &row)) != 1) {
		snprintf(err, errlen, "%s", rc == 0 ? "its row is missing "
		    "from the store" : "cannot read it from the store");
		return (-1);
	}
	spec = launch_spec(j, &row);
	store_job_done();
	if (spec == NULL) {
		snprintf(err, errlen, "cannot encode its launch message");
		return (-1);
	}
	part = launch_part(j, spec, rank, launch_base_of(j, job_nparts(j)),
	    launch_base_of(j, rank), job_flags(j) &
	    ~(uint32_t)(JOB_F_INTERACTIVE | JOB_F_BATCH_ONCE));
	json_decref(spec);
	/* The job's allocation, the attaching user's command: as the user
	 * who asked, from where they asked, with their environment. */
	json_object_set_new(part, "user", json_string(peer_user(p)));
	json_object_set_new(part, "uid", json_integer(peer_uid(p)));
	json_object_set_new(part, "gid", json_integer(peer_gid(p)));
	json_object_set_new(part, "script", json_string(""));
	json_object_set(part, "argv", json_object_get(cmd, "argv"));
	json_object_set(part, "env", json_object_get(cmd, "env"));
	json_object_set(part, "workdir", json_object_get(cmd, "workdir"));
	json_object_del(part, "ckpt_dir");
	json_object_del(part, "warn_signal");
	/* One process: the node's first rank's, or the task of a step of
	 * several that the client names (srun's; req-session.c checked it):
	 * its node's count of them, its place there and the step's in all. */
	tasks = json_object_get(part, "tasks");
	json_object_set_new(tasks, "count", json_integer(1));
	json_object_del(tasks, "per_gpu");
	json_object_del(tasks, "gpu_bind_none");
	if ((t = json_object_get(cmd, "task")) != NULL) {
		json_object_set_new(tasks, "base", json_integer(
		    json_integer_value(json_object_get(t, "rank")) -
		    json_integer_value(json_object_get(t, "local"))));
		json_object_set(tasks, "local", json_object_get(t, "local"));
		json_object_set(tasks, "count", json_object_get(t, "count"));
		json_object_set(tasks, "world_size", json_object_get(t,
		    "world_size"));
		if (json_object_get(t, "first") != NULL)
			json_object_set(tasks, "first", json_object_get(t,
			    "first"));
		/* srun --gpus-per-task=1: the task's own GPU, of its local
		 * rank (gnoded checks the node has one a task). */
		if (json_is_true(json_object_get(t, "gpu_bind")))
			json_object_set_new(tasks, "per_gpu", json_true());
	}
	json_object_set_new(part, "interactive", json_deep_copy(io));
	msg = json_pack("{s:i,s:o,s:i}", "type", MSG_STEP_LAUNCH, "job", part,
	    "step", (int)step);
	peer_send(node_peer(job_part_const(j, rank)->node), msg);
	json_decref(msg);
	return (0);
}

/* Sends msg to the node of every part still running; returns how many
 * got it. */
static size_t
launch_to_parts(struct job *j, json_t *msg)
{
	const struct job_part	*part;
	size_t			 i, sent = 0;

	for (i = 0; i < job_nparts(j); i++) {
		part = job_part_const(j, i);
		if (part->ended || node_peer(part->node) == NULL)
			continue;
		peer_send(node_peer(part->node), msg);
		sent++;
	}
	json_decref(msg);
	return (sent);
}

int
launch_signal(struct job *j, int signal, bool cancel)
{
	return (launch_to_parts(j, json_pack("{s:i,s:I,s:i,s:b}", "type",
	    MSG_JOB_SIGNAL, "id", (json_int_t)job_id(j), "signal", signal,
	    "cancel", cancel)) > 0 ? 0 : -1);
}

int
launch_preempt(struct job *j)
{
	return (launch_to_parts(j, json_pack("{s:i,s:I}", "type",
	    MSG_JOB_PREEMPT, "id", (json_int_t)job_id(j))) > 0 ? 0 : -1);
}

int
launch_limit(struct job *j)
{
	return (launch_to_parts(j, json_pack("{s:i,s:I,s:I}", "type",
	    MSG_JOB_LIMIT, "id", (json_int_t)job_id(j), "time_limit",
	    (json_int_t)launch_run_limit(j))) > 0 ? 0 : -1);
}

uint64_t
launch_run_limit(const struct job *j)
{
	uint64_t	limit = core_resv_limit(j, job_start_time(j));

	if (limit > 0)
		limit += (uint64_t)(job_service(j)->run_suspended / 1000);
	return (limit);
}

json_t *
launch_suspend_msg(const struct job *j, bool suspend)
{
	return (json_pack("{s:i,s:I,s:b,s:I}", "type", MSG_JOB_SUSPEND, "id",
	    (json_int_t)job_id(j), "suspend", suspend, "time_limit",
	    (json_int_t)launch_run_limit(j)));
}

int
launch_suspend(struct job *j, bool suspend)
{
	return (launch_to_parts(j, launch_suspend_msg(j, suspend)) > 0 ? 0 :
	    -1);
}

int
launch_cancel(struct job *j, const char *detail)
{
	struct job_change	how = { 0 };
	enum job_state		s = job_state(j);

	how.detail = detail;
	how.message = detail;
	if (s == JOB_PENDING || s == JOB_HELD)
		return (job_change_state(j, JOB_CANCELLED, &how));
	/* Its node is away: the cancel is recorded now; should the node
	 * come back with the job, it is told to stop it. */
	if (launch_signal(j, 15, true) != 0)
		return (job_change_state(j, JOB_CANCELLED, &how));
	job_set_cancel_requested(j, true);
	return (0);
}
