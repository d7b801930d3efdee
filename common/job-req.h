/* job-req.h: a job request, described once. Each member of JOB_SUBMIT's
 * "job" (docs/protocol.md) is a row of JOB_REQ_FIELDS, with what it holds,
 * its bounds and what its absence means. gsub checks its options against
 * these rows (client/jobspec-opt.c), gbatchd reads a request through them
 * (daemon/controller/req-job-submit.c) and gnoded reads the members of
 * JOB_LAUNCH that carry the same values through them too
 * (daemon/node/node-launch.c): the three accept the same values because a
 * bound is written here and nowhere else. Which gsub option sets a member
 * is gsub's to say (its option table names the row).
 *
 * JOB_REQ_FIELDS(X) calls, in the order gbatchd reads a request:
 *   X(ENUM, member, parent, kind, min, max, def, field, words)
 * ENUM		JRQ_<ENUM>
 * member	its JSON name in "job", or in the object of parent
 * parent	JOB_REQ_TOP, or the JRQ_ of the JRK_OBJECT member it is in
 * kind		JRK_*: what it holds
 * min, max	a number's range; a text's length in bytes
 * def		what a number or a boolean (1: true) is when the member is
 *		absent; for words, the index of the word it then is (-1: none)
 * field	the job field (job-field.h) gbatchd keeps it in as it came,
 *		or JOB_REQ_NO_FIELD where it is kept otherwise (a flag, a
 *		normal form) or not at all
 * words	what a JRK_WORD or JRK_COUNT_OR_WORD takes, '|' between
 *
 * A member that is JSON null is taken as absent. Of the members: gpus is
 * how many GPUs in all (0: a CPU job, of CPUs and memory alone);
 * gpus_max an elastic job's most (gsub -G MIN-MAX, gpus its fewest; 0 or
 * gpus: a rigid job); time_limit seconds (0: none; JOB_REQ_MAX_TIME
 * says why 365 days at most); begin_time seconds since the epoch (0: at
 * once); num_nodes exactly that many nodes (gsub -N); tasks_per_node the
 * processes on each node, or "gpu" one per GPU;
 * mem and mem_per_gpu MB; time_slice true lets the job share its GPUs
 * in turns with other such jobs (a rigid GPU job's); gpu_mem the MB of
 * each GPU's memory it uses, as its user declares it; gpu_share the
 * shards of its one GPU a job takes (JOB_REQ_MAX_SHARES at most; absent:
 * the whole GPU); warn_time seconds before the time limit;
 * ckpt_grace seconds from the checkpoint signal to SIGTERM (gbatchd's
 * scheduler.max_ckpt_grace may allow less); umask a file mode mask
 * (octal 0777 at most; absent: the node's 077); batch "once" runs the
 * script once, on the first node (sbatch's), "per_task" once a task. */
#ifndef GB_JOB_REQ_H
#define GB_JOB_REQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/depend.h"
#include "common/frame.h"
#include "common/job-field.h"
#include "common/label.h"

/* What a member holds. */
enum job_req_kind {
	JRK_COUNT,		/* a whole number from min to max */
	JRK_BOOL,		/* true or false */
	JRK_LINE,		/* min to max bytes of text, no C0 nor DEL */
	JRK_TEXT,		/* up to max bytes of text, any but NUL */
	JRK_WORD,		/* one of words */
	JRK_COUNT_OR_WORD,	/* a whole number from min to max, or a word */
	JRK_STRINGS,		/* an array of strings, no NUL */
	JRK_VARS,		/* an object of strings (no NUL), by name */
	JRK_OBJECT,		/* an object: the rows whose parent it is */
};

/* A time limit: 365 days at most, in seconds; 0 is none (gsub's
 * UNLIMITED). More is a typo, not a plan: Slurm has no fixed cap, only
 * each partition's MaxTime, and INFINITE for none, which 0 is here. gsub,
 * gbatchd and gnoded all take 0 to this (gnoded's timers count ms in 64
 * bits, far beyond it). */
#define JOB_REQ_MAX_TIME	(INT64_C(365) * 86400)
/* A script: more is data, not a job script, and it keeps a request well
 * inside the frame's 1 MiB with a large environment. */
#define JOB_REQ_MAX_SCRIPT	(512 * 1024)
/* The bounds that other code needs as constants too. */
#define JOB_REQ_MAX_GPUS	65536	/* far beyond any cluster today */
#define JOB_REQ_MAX_NODES	1024	/* a gang of up to 1024 nodes */
#define JOB_REQ_MAX_TASKS	1024	/* processes a node starts */
#define JOB_REQ_MAX_CPUS	65536
#define JOB_REQ_MAX_MEM		(INT64_C(1) << 40)	/* MB: 1 EB */
/* The shards a job takes of a GPU at most (gsub --gpu-share): the most a
 * node offers one in (policy/place.h's PLACE_MAX_SHARDS, gnoded's
 * gpu_shards). */
#define JOB_REQ_MAX_SHARES	64
/* The GPUs one node has at most, as the scheduler counts them
 * (policy/sched.h's SCHED_MAX_GPUS_PER_NODE): --gpus-per-node's bound,
 * and the most GPUs a launch gives one node. */
#define JOB_REQ_MAX_GPUS_PER_NODE 64
/* A gpu_type: a GPU model, as gsub's -G TYPE:N writes it. */
/* The one partition gbatch has, holding every node, as the Slurm-named
 * commands and a job's SLURM_JOB_PARTITION name it. */
#define JOB_REQ_PARTITION	"gbatch"
/* The QOS a job has on a cluster whose gbatch.conf names none, and the
 * default's name by preference where it does (as Slurm's). */
#define JOB_REQ_QOS		"normal"
/* gsub --nice's and --priority's bounds: a job's priority - nice orders
 * it among the waiting jobs of its tier and queue (docs/scheduling.md). A
 * negative nice and any priority are an operator's to give. */
#define JOB_REQ_MAX_NICE	10000
#define JOB_REQ_MAX_PRIORITY	1000000
#define JOB_REQ_MAX_GPU_TYPE	64
/* The time from a checkpoint signal to SIGTERM: a day at most, whoever
 * sets it (the request, gbatchd's scheduler.ckpt_grace and
 * max_ckpt_grace). */
#define JOB_REQ_MAX_CKPT_GRACE	86400
/* A dependency's text: DEPEND_MAX conditions of 20-digit ids. */
#define JOB_REQ_MAX_DEPEND	(DEPEND_MAX * 32)

#define JOB_REQ_TOP		(-1)
#define JOB_REQ_NO_FIELD	(-1)

#define JOB_REQ_FIELDS(X)						\
	X(SCRIPT, "script", JOB_REQ_TOP, JRK_TEXT, 0,			\
	    JOB_REQ_MAX_SCRIPT, 0, JF_SCRIPT, NULL)						\
	X(NAME, "name", JOB_REQ_TOP, JRK_LINE, 0, 256, 0, JF_NAME, NULL) \
	X(ACCOUNT, "account", JOB_REQ_TOP, JRK_LINE, 0, LABEL_MAX, 0,	\
	    JF_ACCOUNT, NULL)						\
	X(PARTITION, "partition", JOB_REQ_TOP, JRK_LINE, 0, 1024, 0,	\
	    JF_PARTITION, NULL)						\
	X(QOS, "qos", JOB_REQ_TOP, JRK_LINE, 0, LABEL_MAX, 0, JF_QOS,	\
	    NULL)							\
	X(RESERVATION, "reservation", JOB_REQ_TOP, JRK_LINE, 0,	\
	    LABEL_MAX, 0, JF_RESERVATION, NULL)				\
	X(NICE, "nice", JOB_REQ_TOP, JRK_COUNT, -JOB_REQ_MAX_NICE,	\
	    JOB_REQ_MAX_NICE, 0, JF_NICE, NULL)				\
	X(PRIORITY, "priority", JOB_REQ_TOP, JRK_COUNT, 0,		\
	    JOB_REQ_MAX_PRIORITY, 0, JF_PRIORITY, NULL)			\
	X(COMMENT, "comment", JOB_REQ_TOP, JRK_LINE, 0, 1024, 0,	\
	    JF_COMMENT, NULL)						\
	X(DEPENDENCY, "dependency", JOB_REQ_TOP, JRK_LINE, 0,		\
	    JOB_REQ_MAX_DEPEND, 0, JOB_REQ_NO_FIELD, NULL)		\
	X(COMMAND, "command", JOB_REQ_TOP, JRK_LINE, 0, 4096, 0,	\
	    JF_COMMAND, NULL)						\
	X(WORKDIR, "workdir", JOB_REQ_TOP, JRK_LINE, 0, 4096, 0,	\
	    JF_WORKDIR, NULL)						\
	X(STDOUT, "stdout", JOB_REQ_TOP, JRK_LINE, 0, 4096, 0,		\
	    JF_STDOUT, NULL)						\
	X(STDERR, "stderr", JOB_REQ_TOP, JRK_LINE, 0, 4096, 0,		\
	    JF_STDERR, NULL)						\
	X(GPUS, "gpus", JOB_REQ_TOP, JRK_COUNT, 0, JOB_REQ_MAX_GPUS, 1,	\
	    JF_GPUS, NULL)						\
	X(GPUS_MAX, "gpus_max", JOB_REQ_TOP, JRK_COUNT, 0,		\
	    JOB_REQ_MAX_GPUS, 0, JF_GPUS_MAX, NULL)			\
	X(TIME_LIMIT, "time_limit", JOB_REQ_TOP, JRK_COUNT, 0,		\
	    JOB_REQ_MAX_TIME, 0, JF_TIME_LIMIT, NULL)		\
	X(BEGIN_TIME, "begin_time", JOB_REQ_TOP, JRK_COUNT, 0,		\
	    INT64_C(253402300799), 0, JF_BEGIN_TIME, NULL)		\
	X(ARGV, "argv", JOB_REQ_TOP, JRK_STRINGS, 0, 0, 0,		\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(ENV, "env", JOB_REQ_TOP, JRK_VARS, 0, 0, 0, JOB_REQ_NO_FIELD,	\
	    NULL)							\
	X(INTERACTIVE, "interactive", JOB_REQ_TOP, JRK_OBJECT, 0, 0, 0,	\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(PTY, "pty", JRQ_INTERACTIVE, JRK_BOOL, 0, 1, 0,		\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(ROWS, "rows", JRQ_INTERACTIVE, JRK_COUNT, 1, 65535, 24,	\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(COLS, "cols", JRQ_INTERACTIVE, JRK_COUNT, 1, 65535, 80,	\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(PREEMPTIBLE, "preemptible", JRQ_INTERACTIVE, JRK_BOOL, 0, 1,	\
	    0, JOB_REQ_NO_FIELD, NULL)					\
	X(HOLD, "hold", JOB_REQ_TOP, JRK_BOOL, 0, 1, 0,		\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(CKPT_SIGNAL, "ckpt_signal", JOB_REQ_TOP, JRK_COUNT, 1, 64, 0,	\
	    JF_CKPT_SIGNAL, NULL)					\
	X(CKPT_GRACE, "ckpt_grace", JOB_REQ_TOP, JRK_COUNT, 0,		\
	    JOB_REQ_MAX_CKPT_GRACE, 0, JF_CKPT_GRACE, NULL)					\
	X(WARN_SIGNAL, "warn_signal", JOB_REQ_TOP, JRK_COUNT, 1, 64, 0,	\
	    JF_WARN_SIGNAL, NULL)					\
	X(WARN_TIME, "warn_time", JOB_REQ_TOP, JRK_COUNT, 0, 65535, 0,	\
	    JF_WARN_TIME, NULL)						\
	X(WARN_BATCH, "warn_batch", JOB_REQ_TOP, JRK_BOOL, 0, 1, 0,	\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(REQUEUE, "requeue", JOB_REQ_TOP, JRK_BOOL, 0, 1, 1,		\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(PLACEMENT, "placement", JOB_REQ_TOP, JRK_WORD, 0, 0, -1,	\
	    JOB_REQ_NO_FIELD, "consolidate|spread")			\
	X(UMASK, "umask", JOB_REQ_TOP, JRK_COUNT, 0, 0777, -1, JF_UMASK, \
	    NULL)							\
	X(OPEN_MODE, "open_mode", JOB_REQ_TOP, JRK_WORD, 0, 0, 1,	\
	    JOB_REQ_NO_FIELD, "append|truncate")			\
	X(KILL_INVALID_DEP, "kill_invalid_dep", JOB_REQ_TOP, JRK_BOOL,	\
	    0, 1, 0, JOB_REQ_NO_FIELD, NULL)				\
	X(NODELIST, "nodelist", JOB_REQ_TOP, JRK_TEXT, 0,		\
	    FRAME_MAX_REQUEST, 0, JOB_REQ_NO_FIELD, NULL)		\
	X(EXCLUDE, "exclude", JOB_REQ_TOP, JRK_TEXT, 0,		\
	    FRAME_MAX_REQUEST, 0, JOB_REQ_NO_FIELD, NULL)		\
	X(GPU_TYPE, "gpu_type", JOB_REQ_TOP, JRK_LINE, 1,		\
	    JOB_REQ_MAX_GPU_TYPE, 0, JF_GPU_TYPE, NULL)			\
	X(NUM_NODES, "num_nodes", JOB_REQ_TOP, JRK_COUNT, 1,		\
	    JOB_REQ_MAX_NODES, 0, JF_NUM_NODES, NULL)			\
	X(ANY_SHAPE, "any_shape", JOB_REQ_TOP, JRK_BOOL, 0, 1, 0,	\
	    JOB_REQ_NO_FIELD, NULL)					\
	X(TASKS_PER_NODE, "tasks_per_node", JOB_REQ_TOP,		\
	    JRK_COUNT_OR_WORD, 1, JOB_REQ_MAX_TASKS, 1, JOB_REQ_NO_FIELD, \
	    "gpu")							\
	X(GPU_BIND, "gpu_bind", JOB_REQ_TOP, JRK_WORD, 0, 0, 1,	\
	    JOB_REQ_NO_FIELD, "none|task")				\
	X(CPUS_PER_GPU, "cpus_per_gpu", JOB_REQ_TOP, JRK_COUNT, 1,	\
	    JOB_REQ_MAX_CPUS, 0, JF_CPUS_PER_GPU, NULL)			\
	X(CPUS_PER_TASK, "cpus_per_task", JOB_REQ_TOP, JRK_COUNT, 1,	\
	    JOB_REQ_MAX_CPUS, 0, JF_CPUS_PER_TASK, NULL)		\
	X(MEM, "mem", JOB_REQ_TOP, JRK_COUNT, 1, JOB_REQ_MAX_MEM, 0,	\
	    JF_MEM, NULL)						\
	X(MEM_PER_GPU, "mem_per_gpu", JOB_REQ_TOP, JRK_COUNT, 1,	\
	    JOB_REQ_MAX_MEM, 0, JF_MEM_PER_GPU, NULL)			\
	X(TIME_SLICE, "time_slice", JOB_REQ_TOP, JRK_BOOL, 0, 1, 0,	\
	    JF_TIME_SLICE, NULL)					\
	X(GPU_MEM, "gpu_mem", JOB_REQ_TOP, JRK_COUNT, 1,		\
	    JOB_REQ_MAX_MEM, 0, JF_GPU_MEM, NULL)			\
	X(GPU_SHARE, "gpu_share", JOB_REQ_TOP, JRK_COUNT, 1,		\
	    JOB_REQ_MAX_SHARES, 0, JF_GPU_SHARE, NULL)			\
	X(ARRAY, "array", JOB_REQ_TOP, JRK_TEXT, 0, FRAME_MAX_REQUEST, 0, \
	    JOB_REQ_NO_FIELD, NULL)					\
	X(BATCH, "batch", JOB_REQ_TOP, JRK_WORD, 0, 0, 1,		\
	    JOB_REQ_NO_FIELD, "once|per_task")

#define JOB_REQ_ENUM(e, m, p, k, lo, hi, d, f, w)	JRQ_##e,
enum job_req {
	JOB_REQ_FIELDS(JOB_REQ_ENUM)
	JRQ_COUNT
};
#undef JOB_REQ_ENUM

struct job_req_desc {
	const char		*member;
	int			 parent;	/* enum job_req; JOB_REQ_TOP */
	enum job_req_kind	 kind;
	int64_t			 min;
	int64_t			 max;
	int64_t			 def;
	int			 field;		/* enum job_field, or none */
	const char		*words;		/* NULL, or "a|b" */
};

/* Indexed by enum job_req. */
extern const struct job_req_desc job_reqs[JRQ_COUNT];

/* A member as read: json is NULL when it is absent (or null), and then n
 * is its default and s NULL. A number or boolean (1: true) is in n, a
 * word's index too (s the word); a text is s (len bytes), borrowed from
 * the JSON. */
struct job_req_val {
	const json_t	*json;
	int64_t		 n;
	const char	*s;
	size_t		 len;
};

/* Checks v (not NULL) against row f, into *out. Returns 0, or -1 with err
 * saying what is accepted and what came ("expected a whole number from 0
 * to 86400, got 90000"), without the member's name. */
int		 job_req_check(enum job_req f, const json_t *v,
		     struct job_req_val *out, char *err, size_t errlen);
/* Reads member f of obj: the "job" object, or for a row with a parent the
 * parent's object. Absent (or null): 0, with the default. Returns 0, or
 * -1 with err naming the member ("interactive.rows: expected ..."). */
int		 job_req_get(const json_t *obj, enum job_req f,
		     struct job_req_val *out, char *err, size_t errlen);
/* Reads every row of job (a JOB_SUBMIT's "job") into vals. Returns 0, or
 * -1 with err naming the first member that is wrong. */
int		 job_req_read(const json_t *job,
		     struct job_req_val vals[JRQ_COUNT], char *err,
		     size_t errlen);
/* Checks a number a program parsed itself (gsub's -t 2-0 as seconds)
 * against row f's range. Returns 0, or -1 with err as job_req_check's
 * but for the number alone. */
int		 job_req_check_num(enum job_req f, int64_t n, char *err,
		     size_t errlen);
/* Checks that gpus GPUs split evenly over num_nodes nodes (0: any
 * number), as a job of that shape takes them. Returns 0, or -1 with err
 * naming num_nodes and what is accepted. */
int		 job_req_check_split(uint32_t gpus, uint32_t num_nodes,
		     char *err, size_t errlen);
/* Whether an elastic range is one: gpus_max 0 (rigid), or gpus to
 * gpus_max with gpus at least 1, each count a multiple of num_nodes where
 * it is set (an even split; gpus' own is job_req_check_split's). -1 with
 * err naming what is wrong and what is accepted. */
int		job_req_check_elastic(uint32_t gpus, uint32_t gpus_max,
		    uint32_t num_nodes, char *err, size_t errlen);
/* Whether time-slicing's members suit the job: time_slice (asked or
 * not) and gpu_mem (MB; 0: not said) are a GPU job's, and time_slice a
 * rigid one's (gpus_max 0: jobs that take turns share the same GPUs,
 * which an elastic job's count changes). -1 with err naming the member
 * (and gsub's option) and what is accepted. */
int		job_req_check_slice(uint32_t gpus, uint32_t gpus_max,
		    bool time_slice, uint64_t gpu_mem, char *err,
		    size_t errlen);
/* Whether a job of gpu_share shards (0: none asked) suits them: one GPU
 * of a rigid job on one node (num_nodes 0 or 1), which does not also
 * take turns on it (time_slice). -1 with err naming what is wrong and
 * what is accepted. */
int		job_req_check_share(uint32_t gpu_share, uint32_t gpus,
		    uint32_t gpus_max, uint32_t num_nodes, bool time_slice,
		    char *err, size_t errlen);
/* The name of a job that is given none: the base name of its command
 * (a path, or a --wrap's command line), else "wrap". Borrowed from
 * command, or static. */
const char	*job_req_default_name(const char *command);
/* The member's name as messages give it: "rows" of interactive is
 * "interactive.rows". Returns buf. */
const char	*job_req_name(enum job_req f, char *buf, size_t len);
/* What v is, for a message's "got ...": a number as it is, a string
 * quoted (made safe, and cut short), else what kind of value it is.
 * Returns buf. */
const char	*job_req_got(const json_t *v, char *buf, size_t len);
/* The index of word w (len bytes) in row f's words, or -1. */
int		 job_req_word(enum job_req f, const char *w, size_t len);
/* Writes what row f's words accept, "\"append\" or \"truncate\"", into
 * buf. Returns buf. */
const char	*job_req_words(enum job_req f, char *buf, size_t len);

#endif
