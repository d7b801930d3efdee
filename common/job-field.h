/* job-field.h: a job's fields, described once. Everything that lists them
 * is derived from JOB_FIELDS: the controller's row (struct store_job), the
 * SQL columns and their named binds (store.c), the JOB_LIST record's member
 * names and which of them controller.private_data hides (job-list.c), and
 * the members a client row holds (client/job-row.c). A new field is one line
 * here, plus its migration and how it is shown.
 *
 * JOB_FIELDS(COL, WIRE) calls, in the order JOB_LIST records list members:
 *   COL(ENUM, member, C type, SQL column, wire name, kind, flags)
 *	a member of struct store_job; column NULL: kept in memory only;
 *	wire name NULL: never sent.
 *   WIRE(ENUM, wire name)
 *	a member the JOB_LIST writer derives from other fields.
 *
 * Times are seconds since the epoch (0: never), durations seconds, except
 * where JFF_MS says milliseconds (sent as seconds). Of the fields:
 * attained is GPU-ms of service over every run; executed the ms run since
 * the last promotion; run_total the ms run in all; queue_delay the ms spent
 * PENDING, every wait summed (held time is not waiting); suspended the ms
 * spent SUSPENDED over every run, run_suspended those of the current (or
 * last) run, which put its time limit off and are not in its elapsed,
 * and suspend_since when the current suspension began (0: not
 * suspended); pending_since when
 * the current wait began; last_queue the scheduler's level when last
 * changed; queue its level now (-1: not held by the scheduler); rank a
 * pending job's place in the order the scheduler takes them (1 starts
 * first; 0: none, or not asked for); expect_start when backfill promised
 * a pending job its GPUs (0: no promise); predicted its run time in all
 * as the completed jobs like it ran (0: none alike yet, or not asked
 * for), predicted_by the rule that found them (policy/predict.h's words)
 * and predicted_runs how many; jct is
 * end_time - submit_time of a finished job. node and gpu_mask are rank 0's
 * part of the current or last run, alloc every part ("n1:0xf,n2:0xf") or
 * '' for one; job_runs (store.h) keeps each run. account and comment are
 * the submitter's words (sbatch's -A and --comment), '' for none.
 * partition is the partitions it may run in, in the order it takes them
 * ("gpu,long"; the default's name when it named none; '' for a job from
 * before partitions, which the default takes). qos is its QOS (gsub
 * --qos; the default's name when it named none; '' for a job from before
 * QOS, which the default takes). reservation is the advance reservation
 * it runs in (gsub --reservation; '' for none). nice and priority order
 * it among the
 * waiting jobs of its tier and queue (gsub --nice, --priority): the
 * higher priority - nice first.
 * begin_time is when the job may start at the earliest (sbatch's
 * --begin; 0: at once). dependency is what it waits for (common/depend.h,
 * in its normal form; '' for nothing). A job array (sbatch's --array) is
 * one row while its tasks wait: array_job_id its own id, array_task_id -1
 * and array_tasks the tasks not yet started (common/array.h's normal
 * form). A task that starts (or is cancelled, or held, alone) becomes a row
 * of its own, with a new id, the array's array_job_id and its
 * array_task_id; the last task takes the array's row. array_spec is the
 * whole array as submitted, throttle included ("0-99%8"), on every row of
 * it; all four are 0, -1 or '' for a job of no array. req_nodes and
 * exclude_nodes are the nodes a job may run on alone, and those it may not
 * (sbatch's -w and -x: names joined by ',', expanded), gpu_type the GPU
 * model its nodes' GPUs must all name ("a100", matched without case; '' for
 * none of these). num_nodes is the shape asked for (sbatch's -N): exactly
 * that many nodes, gpus / num_nodes GPUs on each (0: one node when one
 * holds it, else an even split, or any with JOB_F_ANY_SHAPE).
 * gpus_max is an elastic job's most GPUs (gsub -G MIN-MAX; gpus is then
 * MIN), 0 for a rigid job: it runs on any count from gpus to gpus_max, the
 * scheduler's choice at each start (policy/sched-core-elastic.c), and
 * resizes how often it was stopped to restart on more GPUs. step_us is
 * the step time (microseconds) a running job last reported through
 * GBATCH_PROGRESS, goodput the samples a second its model expects on the
 * GPUs it holds (daemon/controller/job-learn.h; 0: nothing reported).
 * tasks_per_node is how many processes each node starts (sbatch's
 * --ntasks-per-node): '' one, "K", or "gpu" one per GPU. master_port is
 * a running job's MASTER_PORT, unique among the jobs running with the same
 * first node (0: not running). cpus_per_gpu or cpus_per_task, and mem (MB
 * on each node) or mem_per_gpu (MB), are what it asks beside its GPUs
 * (sbatch's --cpus-per-gpu, -c, --mem, --mem-per-gpu); 0: the
 * scheduler's default, the node's share per GPU. time_slice is 1 when
 * the job asked to share its GPUs in turns with other such jobs (gsub
 * --time-slice; its QOS may ask it too), gpu_mem the MB of each GPU's
 * memory it declares it uses (gsub --gpu-mem; 0: not said), which a job
 * joining its GPUs must leave free. gpu_share N (not 0) is a job of one
 * GPU that takes N of its node's gpu_shards shards of it, beside other
 * such jobs (gsub --gpu-share, --gres=shard:N). mem_peak is the most
 * memory (MB) its processes held on a node at once, over every run, and
 * cpu_time the CPU time they used in all (ms), as the nodes' cgroups
 * count them (0: not counted). alloc_cpus is the CPUs its last run held
 * on its nodes in all (0: not started, or not known). flags
 * are job.h's JOB_F_*;
 * ckpt_signal 0 means SIGUSR1, ckpt_grace 0 the config's; umask -1 none.
 * warn_signal (0: none) is sent warn_time seconds before the time limit
 * (sbatch's --signal), to the batch shell alone with JOB_F_WARN_BATCH. */
#ifndef GB_JOB_FIELD_H
#define GB_JOB_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-state.h"

/* How a field is stored and sent. */
enum job_field_kind {
	JFK_U64,	/* integers */
	JFK_I64,
	JFK_U32,
	JFK_INT,
	JFK_TEXT,	/* NULL stores NULL */
	JFK_TEXT0,	/* NULL stores '' */
	JFK_TEXTREF,	/* stored in job_texts, shared (store.c) */
	JFK_STATE,	/* enum job_state, stored by name */
	JFK_EXIT,	/* int, NULL unless has_exit */
	JFK_NULLINT,	/* int, -1 stores NULL */
	JFK_DERIVED,	/* computed for the wire */
};

#define JFF_UPDATE	0x1	/* a transition rewrites it (store_job_update) */
#define JFF_PRIVATE	0x2	/* controller.private_data hides it from others */
#define JFF_MS		0x4	/* milliseconds stored, seconds on the wire */
/* Where gbatchd keeps it in memory while the job is not finished
 * (daemon/controller/job-strs.h): in the block the jobs that ask alike
 * share (fixed at submit: who, where, what with), or among the job's own
 * strings. Fields with neither are kept by job.c as it sees fit, or read
 * from the store when needed. */
#define JFF_SHARED	0x8
#define JFF_OWN		0x10
/* What a waiting job's user may change in its request (scontrol update;
 * store_job_edit writes it). */
#define JFF_EDIT	0x20

#define JOB_FIELDS(COL, WIRE)						\
	COL(ID, id, uint64_t, "id", "id", JFK_U64, 0)			\
	COL(NAME, name, const char *, "name", "name", JFK_TEXT,		\
	    JFF_OWN | JFF_EDIT)						\
	COL(USER, user, const char *, "user", "user", JFK_TEXT,		\
	    JFF_SHARED)							\
	COL(UID, uid, uint32_t, "uid", "uid", JFK_U32, JFF_SHARED)	\
	COL(GID, gid, uint32_t, "gid", NULL, JFK_U32, JFF_SHARED)	\
	COL(STATE, state, enum job_state, "state", "state", JFK_STATE,	\
	    JFF_UPDATE)							\
	COL(REASON, reason, const char *, "reason", "reason", JFK_TEXT0, \
	    JFF_UPDATE)							\
	COL(GPUS, gpus, uint32_t, "gpus", "gpus", JFK_U32,		\
	    JFF_SHARED | JFF_EDIT)					\
	COL(GPUS_MAX, gpus_max, uint32_t, "gpus_max", "gpus_max",	\
	    JFK_U32, JFF_SHARED)					\
	WIRE(ALLOC, "alloc")						\
	WIRE(NODES, "nodes")						\
	COL(TIME_LIMIT, time_limit, uint64_t, "time_limit",		\
	    "time_limit", JFK_U64, JFF_SHARED | JFF_EDIT)		\
	COL(SUBMIT_TIME, submit_time, int64_t, "submit_time",		\
	    "submit_time", JFK_I64, 0)					\
	COL(BEGIN_TIME, begin_time, int64_t, "begin_time",		\
	    "begin_time", JFK_I64, JFF_EDIT)				\
	COL(START_TIME, start_time, int64_t, "start_time", "start_time", \
	    JFK_I64, JFF_UPDATE)					\
	COL(END_TIME, end_time, int64_t, "end_time", "end_time", JFK_I64, \
	    JFF_UPDATE)							\
	WIRE(ELAPSED, "elapsed")					\
	COL(EXIT_CODE, exit_code, int, "exit_code", "exit_code", JFK_EXIT, \
	    JFF_UPDATE)							\
	COL(SIGNAL, signal, int, "signal", "signal", JFK_EXIT, JFF_UPDATE) \
	COL(WORKDIR, workdir, const char *, "workdir", "workdir",	\
	    JFK_TEXT, JFF_PRIVATE | JFF_SHARED)				\
	COL(STDOUT, stdout_path, const char *, "stdout", "stdout",	\
	    JFK_TEXT, JFF_PRIVATE | JFF_SHARED)				\
	COL(STDERR, stderr_path, const char *, "stderr", "stderr",	\
	    JFK_TEXT, JFF_PRIVATE | JFF_SHARED)				\
	COL(COMMAND, command, const char *, "command", "command",	\
	    JFK_TEXT, JFF_PRIVATE | JFF_SHARED)				\
	COL(ARGV, argv, const char *, "argv", "argv", JFK_TEXT,		\
	    JFF_PRIVATE | JFF_OWN)					\
	COL(MESSAGE, message, const char *, "message", "message",	\
	    JFK_TEXT0, JFF_UPDATE | JFF_PRIVATE | JFF_OWN)		\
	COL(ACCOUNT, account, const char *, "account", "account",	\
	    JFK_TEXT0, JFF_SHARED | JFF_EDIT)				\
	COL(PARTITION, partition, const char *, "partition",		\
	    "partition", JFK_TEXT0, JFF_SHARED | JFF_EDIT)		\
	COL(QOS, qos, const char *, "qos", "qos", JFK_TEXT0,		\
	    JFF_SHARED | JFF_EDIT)					\
	COL(RESERVATION, reservation, const char *, "reservation",	\
	    "reservation", JFK_TEXT0, JFF_SHARED)			\
	COL(NICE, nice, int, "nice", "nice", JFK_INT,			\
	    JFF_SHARED | JFF_EDIT)					\
	COL(PRIORITY, priority, uint32_t, "priority", "priority",	\
	    JFK_U32, JFF_SHARED | JFF_EDIT)				\
	COL(COMMENT, comment, const char *, "comment", "comment",	\
	    JFK_TEXT0, JFF_PRIVATE | JFF_OWN | JFF_EDIT)		\
	COL(DEPENDENCY, dependency, const char *, "dependency",		\
	    "dependency", JFK_TEXT0, JFF_OWN | JFF_EDIT)		\
	COL(ARRAY_JOB_ID, array_job_id, uint64_t, "array_job_id",	\
	    "array_job_id", JFK_U64, 0)					\
	COL(ARRAY_TASK_ID, array_task_id, int, "array_task_id",	\
	    "array_task_id", JFK_NULLINT, JFF_UPDATE)			\
	COL(ARRAY_TASKS, array_tasks, const char *, "array_tasks",	\
	    "array_tasks", JFK_TEXT0, JFF_UPDATE)			\
	COL(ARRAY_SPEC, array_spec, const char *, "array_spec",		\
	    "array_spec", JFK_TEXT0, JFF_OWN)				\
	COL(REQ_NODES, req_nodes, const char *, "req_nodes",		\
	    "req_nodes", JFK_TEXT0, JFF_SHARED)				\
	COL(EXCLUDE_NODES, exclude_nodes, const char *,			\
	    "exclude_nodes", "exclude_nodes", JFK_TEXT0, JFF_SHARED)	\
	COL(GPU_TYPE, gpu_type, const char *, "gpu_type", "gpu_type",	\
	    JFK_TEXT0, JFF_SHARED)					\
	COL(NUM_NODES, num_nodes, uint32_t, "num_nodes", "num_nodes",	\
	    JFK_U32, JFF_SHARED | JFF_EDIT)				\
	COL(TASKS_PER_NODE, tasks_per_node, const char *,		\
	    "tasks_per_node", "tasks_per_node", JFK_TEXT0, JFF_SHARED)	\
	COL(MASTER_PORT, master_port, uint32_t, "master_port",		\
	    "master_port", JFK_U32, JFF_UPDATE)				\
	COL(CPUS_PER_GPU, cpus_per_gpu, uint32_t, "cpus_per_gpu",	\
	    "cpus_per_gpu", JFK_U32, 0)					\
	COL(CPUS_PER_TASK, cpus_per_task, uint32_t, "cpus_per_task",	\
	    "cpus_per_task", JFK_U32, JFF_SHARED)			\
	COL(MEM, mem, uint64_t, "mem", "mem", JFK_U64, JFF_SHARED)	\
	COL(MEM_PER_GPU, mem_per_gpu, uint64_t, "mem_per_gpu",		\
	    "mem_per_gpu", JFK_U64, 0)					\
	COL(TIME_SLICE, time_slice, uint32_t, "time_slice", "time_slice", \
	    JFK_U32, JFF_SHARED)					\
	COL(GPU_MEM, gpu_mem, uint64_t, "gpu_mem", "gpu_mem", JFK_U64,	\
	    JFF_SHARED)							\
	COL(GPU_SHARE, gpu_share, uint32_t, "gpu_share", "gpu_share",	\
	    JFK_U32, JFF_SHARED)					\
	COL(MEM_PEAK, mem_peak, uint64_t, "mem_peak", "mem_peak", JFK_U64, \
	    JFF_UPDATE)							\
	COL(CPU_TIME, cpu_time, int64_t, "cpu_time", "cpu_time", JFK_I64, \
	    JFF_UPDATE | JFF_MS)					\
	COL(ALLOC_CPUS, alloc_cpus, uint32_t, "alloc_cpus", "alloc_cpus", \
	    JFK_U32, JFF_UPDATE)					\
	COL(QUEUE, queue, int, NULL, "queue", JFK_INT, 0)		\
	COL(RANK, rank, int, NULL, "rank", JFK_INT, 0)			\
	COL(EXPECT_START, expect_start, int64_t, NULL, "expect_start",	\
	    JFK_I64, 0)							\
	COL(PREDICTED, predicted, int64_t, NULL, "predicted", JFK_I64,	\
	    JFF_MS)							\
	COL(PREDICTED_BY, predicted_by, const char *, NULL,		\
	    "predicted_by", JFK_TEXT0, 0)				\
	COL(PREDICTED_RUNS, predicted_runs, uint32_t, NULL,		\
	    "predicted_runs", JFK_U32, 0)				\
	COL(ATTAINED, attained, uint64_t, "attained", "attained",	\
	    JFK_U64, JFF_UPDATE | JFF_MS)				\
	COL(RESTARTS, restarts, uint32_t, "restarts", "restarts",	\
	    JFK_U32, JFF_UPDATE)					\
	COL(PREEMPTIONS, preemptions, uint32_t, "preemptions",		\
	    "preemptions", JFK_U32, JFF_UPDATE)				\
	COL(PROMOTIONS, promotions, uint32_t, "promotions",		\
	    "promotions", JFK_U32, JFF_UPDATE)				\
	COL(RESIZES, resizes, uint32_t, "resizes", "resizes", JFK_U32,	\
	    JFF_UPDATE)							\
	COL(STEP_US, step_us, uint64_t, NULL, "step_us", JFK_U64, 0)	\
	COL(GOODPUT, goodput, uint64_t, NULL, "goodput", JFK_U64, 0)	\
	COL(FIRST_START, first_start, int64_t, "first_start",		\
	    "first_start", JFK_I64, JFF_UPDATE | JFF_MS)		\
	COL(RUN_TOTAL, run_total, int64_t, "run_total", "run_time",	\
	    JFK_I64, JFF_UPDATE | JFF_MS)				\
	COL(QUEUE_DELAY, queue_delay, int64_t, "queue_delay",		\
	    "queue_delay", JFK_I64, JFF_UPDATE | JFF_MS)		\
	COL(SUSPENDED, suspended, int64_t, "suspended", "suspended",	\
	    JFK_I64, JFF_UPDATE | JFF_MS)				\
	COL(RUN_SUSPENDED, run_suspended, int64_t, "run_suspended",	\
	    "run_suspended", JFK_I64, JFF_UPDATE | JFF_MS)		\
	COL(SUSPEND_SINCE, suspend_since, int64_t, "suspend_since",	\
	    "suspend_time", JFK_I64, JFF_UPDATE | JFF_MS)		\
	WIRE(JCT, "jct")						\
	WIRE(KIND, "kind")						\
	WIRE(PREEMPT, "preempt")					\
	COL(LAST_QUEUE, last_queue, int, "last_queue", "last_queue",	\
	    JFK_INT, JFF_UPDATE)					\
	COL(PENDING_SINCE, pending_since, int64_t, "pending_since", NULL, \
	    JFK_I64, JFF_UPDATE)					\
	COL(SCRIPT, script, const char *, "script", NULL, JFK_TEXTREF, 0) \
	COL(ENV, env, const char *, "env", NULL, JFK_TEXTREF, 0)	\
	COL(NODE, node, const char *, "node", NULL, JFK_TEXT, JFF_UPDATE) \
	COL(GPU_MASK, gpu_mask, uint64_t, "gpu_mask", NULL, JFK_U64,	\
	    JFF_UPDATE)							\
	COL(ALLOC_TEXT, alloc, const char *, "alloc", NULL, JFK_TEXT0,	\
	    JFF_UPDATE)							\
	COL(EXECUTED, executed, int64_t, "executed", NULL, JFK_I64,	\
	    JFF_UPDATE)							\
	COL(LAST_STOP, last_stop, int64_t, "last_stop", NULL, JFK_I64,	\
	    JFF_UPDATE)							\
	COL(FLAGS, flags, uint32_t, "flags", NULL, JFK_U32,		\
	    JFF_SHARED | JFF_EDIT)					\
	COL(CKPT_SIGNAL, ckpt_signal, int, "ckpt_signal", NULL,		\
	    JFK_INT, JFF_SHARED)					\
	COL(CKPT_GRACE, ckpt_grace, uint32_t, "ckpt_grace", NULL,	\
	    JFK_U32, JFF_SHARED)					\
	COL(UMASK, umask, int, "umask", NULL, JFK_NULLINT, 0)		\
	COL(WARN_SIGNAL, warn_signal, int, "warn_signal", NULL, JFK_INT, 0) \
	COL(WARN_TIME, warn_time, uint32_t, "warn_time", NULL, JFK_U32, 0)

#define JOB_FIELD_ENUM_COL(e, m, t, c, w, k, f)	JF_##e,
#define JOB_FIELD_ENUM_WIRE(e, w)		JF_##e,
enum job_field {
	JOB_FIELDS(JOB_FIELD_ENUM_COL, JOB_FIELD_ENUM_WIRE)
	JF_COUNT
};
#undef JOB_FIELD_ENUM_COL
#undef JOB_FIELD_ENUM_WIRE

/* A set of fields: one bit per enum job_field, in as many words as
 * JF_COUNT needs, so that a new field needs no change here. A small value,
 * passed and returned whole; the helpers are inline because the JOB_LIST
 * writer asks one for each member of thousands of records. */
#define JFS_WORDS	((JF_COUNT + 63) / 64)
struct job_field_set {
	uint64_t	w[JFS_WORDS];
};

/* The empty set. */
static inline struct job_field_set
jfs_none(void)
{
	struct job_field_set	s = { { 0 } };

	return (s);
}

/* Every field. */
static inline struct job_field_set
jfs_all(void)
{
	struct job_field_set	s;
	unsigned		i;

	for (i = 0; i < JFS_WORDS; i++)
		s.w[i] = UINT64_MAX;
	/* No bits past JF_COUNT, so that jfs_eq sees one set of all. */
	if (JF_COUNT % 64 != 0)
		s.w[JFS_WORDS - 1] = (UINT64_C(1) << (JF_COUNT % 64)) - 1;
	return (s);
}

static inline void
jfs_add(struct job_field_set *s, enum job_field f)
{
	s->w[(unsigned)f / 64] |= UINT64_C(1) << ((unsigned)f % 64);
}

/* The set of f alone. */
static inline struct job_field_set
jfs_one(enum job_field f)
{
	struct job_field_set	s = jfs_none();

	jfs_add(&s, f);
	return (s);
}

static inline bool
jfs_has(struct job_field_set s, enum job_field f)
{
	return ((s.w[(unsigned)f / 64] >> ((unsigned)f % 64)) & 1);
}

/* The fields of a or b. */
static inline struct job_field_set
jfs_or(struct job_field_set a, struct job_field_set b)
{
	unsigned	i;

	for (i = 0; i < JFS_WORDS; i++)
		a.w[i] |= b.w[i];
	return (a);
}

/* The fields of both a and b. */
static inline struct job_field_set
jfs_and(struct job_field_set a, struct job_field_set b)
{
	unsigned	i;

	for (i = 0; i < JFS_WORDS; i++)
		a.w[i] &= b.w[i];
	return (a);
}

/* The fields of a that are not in b. */
static inline struct job_field_set
jfs_minus(struct job_field_set a, struct job_field_set b)
{
	unsigned	i;

	for (i = 0; i < JFS_WORDS; i++)
		a.w[i] &= ~b.w[i];
	return (a);
}

static inline bool
jfs_eq(struct job_field_set a, struct job_field_set b)
{
	unsigned	i;

	for (i = 0; i < JFS_WORDS; i++) {
		if (a.w[i] != b.w[i])
			return (false);
	}
	return (true);
}

static inline bool
jfs_empty(struct job_field_set s)
{
	unsigned	i;

	for (i = 0; i < JFS_WORDS; i++) {
		if (s.w[i] != 0)
			return (false);
	}
	return (true);
}

struct job_field_desc {
	const char		*column;	/* NULL: not stored */
	const char		*wire;		/* NULL: not sent */
	enum job_field_kind	 kind;
	unsigned		 flags;		/* JFF_* */
};

/* Indexed by enum job_field. */
extern const struct job_field_desc job_fields[JF_COUNT];

/* The fields a JOB_LIST record can carry, and those of them that
 * controller.private_data hides. */
struct job_field_set job_field_wire_set(void);
struct job_field_set job_field_private_set(void);
/* The field whose wire name is the len bytes at name, or -1. */
int		job_field_by_wire(const char *name, size_t len);

#endif
