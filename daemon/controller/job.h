/* job.h: the controller's in-memory jobs: every job not yet finished, in
 * a table (job-table.c) found by id (a binary search) and walked in id
 * order, and what each holds and says (job.c).
 * Finished jobs live only in the store, so nothing here grows with them.
 * Scripts and environments stay in the store too (launch reads them), which
 * keeps a pending job at a few hundred bytes. */
#ifndef GB_CTL_JOB_H
#define GB_CTL_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-req.h"
#include "common/job-state.h"
#include "daemon/controller/store.h"

struct array_set;
struct job;
struct job_dep;
struct node;
struct sched_cjob;

/* gsub flags kept in the job's row. */
#define JOB_F_NO_REQUEUE	0x1	/* never requeued: never preempted */
#define JOB_F_CONSOLIDATE	0x2	/* insists on the fewest nodes */
#define JOB_F_SPREAD		0x4	/* the emptiest nodes first */
/* A dependency that can never be met cancels the job, or does not, whatever
 * scheduler.kill_invalid_depend says (sbatch's --kill-on-invalid-dep). */
#define JOB_F_KILL_INVALID_DEP	0x8
#define JOB_F_KEEP_INVALID_DEP	0x10
/* Output files appended to from the first run (sbatch's
 * --open-mode=append); a run after a restart always appends. */
#define JOB_F_APPEND		0x20
/* warn_signal goes to the batch shell alone, not its process group
 * (sbatch's --signal=B:SIG). */
#define JOB_F_WARN_BATCH	0x40
/* A job that asks for no shape takes its GPUs split any way, not evenly
 * (gsub --any-shape; every job of a store before schema 14). */
#define JOB_F_ANY_SHAPE		0x80
/* Each task sees every GPU of its node, not its own (sbatch's
 * --gpu-bind=none with --ntasks-per-node gpu). */
#define JOB_F_GPU_BIND_NONE	0x100
/* An interactive job (grun): its streams are relayed to the client that
 * submitted it, which it ends with; with JOB_F_PTY, on a pseudo-terminal. */
#define JOB_F_INTERACTIVE	0x200
#define JOB_F_PTY		0x400
/* sbatch's: the batch script runs once, on rank 0's node; the other parts
 * hold their nodes for its steps (srun), and the job ends with it. */
#define JOB_F_BATCH_ONCE	0x800

/* The service a job received, as the store's schema 3 columns hold it (as
 * of the last start or stop): what the core is handed when the job comes
 * back to it. All 0 for a job that never ran nor waited before. */
struct job_service {
	uint64_t		 attained;	/* GPU-ms */
	int64_t			 executed;	/* ms since the last promotion */
	int64_t			 run_total;	/* ms */
	int64_t			 first_start;	/* ms since the epoch, 0: never */
	int64_t			 last_stop;	/* ms since the epoch */
	int64_t			 queue_delay;	/* ms spent pending */
	/* Suspended (ms): over every run, in this run, and since when now
	 * (ms since the epoch, 0: not suspended); when it last resumed
	 * (memory only: 0 after a restart). */
	int64_t			 suspended;
	int64_t			 run_suspended;
	int64_t			 suspend_since;
	int64_t			 resumed;
	uint32_t		 preemptions;
	uint32_t		 promotions;
	uint32_t		 resizes;	/* an elastic job's */
	int			 last_queue;
};

/* What the scheduler keeps of a job beside its service: its handle in the
 * core, and since when it waits. */
struct job_sched {
	int64_t			 pending_since;	/* ms since the epoch */
	struct sched_cjob	*cjob;		/* NULL when not in the core */
};

/* Adds a job built from row (copied) to the table and the id-ordered list.
 * Returns it; the table owns it. */
struct job	*job_create(const struct store_job *row);
/* Between these two, job_create puts each job at the table's end,
 * whatever its id, and job_table_load_end puts it in id order: a start-up
 * reads jobs a state at a time, and a sort costs less than the store's. */
void		 job_table_load_begin(void);
void		 job_table_load_end(void);
/* Removes job from the table and frees it (after it finished). */
void		 job_free(struct job *);
/* Frees every job (at exit). */
void		 job_table_free_all(void);

struct job	*job_table_find(uint64_t id);
/* Active jobs in id order. */
struct job	*job_table_first(void);
struct job	*job_table_next(const struct job *);
size_t		 job_table_count(enum job_state);
/* The jobs of uid waiting to start: pending or held. */
size_t		 job_table_waiting_of(uint32_t uid);

/* Fills row from job; strings are borrowed from job. Script and env are
 * NULL: only the store has them. */
void		 job_to_row(const struct job *, struct store_job *row);

uint64_t	 job_id(const struct job *);
enum job_state	 job_state(const struct job *);
const char	*job_name(const struct job *);
const char	*job_user(const struct job *);
uint32_t	 job_uid(const struct job *);
/* The GPUs it asks for: an elastic job's fewest (gsub -G MIN-MAX). */
uint32_t	 job_gpus(const struct job *);
/* An elastic job's most GPUs; 0 for a rigid job. */
uint32_t	 job_gpus_max(const struct job *);
/* The GPUs its current or last run holds (held), else what it asks
 * for: what its service, accounting and usage count. */
uint32_t	 job_run_gpus(const struct job *);
/* The thousandths of GPUs its run holds: its GPUs x 1000, or a job of
 * shards its share of the shards its GPU had as the run started
 * (job_set_run_shards): what accounting, budgets and fair share charge
 * it. */
uint32_t	 job_run_milli(const struct job *);
uint64_t	 job_time_limit(const struct job *);
/* Its gsub flags (JOB_F_*). */
uint32_t	 job_flags(const struct job *);
/* The checkpoint signal the job asked for (gsub --ckpt-signal or
 * --signal), 0 for none (the node then sends SIGUSR1). */
int		 job_ckpt_signal(const struct job *);
/* Whether it is an interactive job (grun's: JOB_F_INTERACTIVE). */
bool		 job_is_interactive(const struct job *);
/* Where a running job's GPUs are: one part per node, rank 0 first. A
 * single-node job has one part; job_node and job_gpu_mask are rank 0's. */
#define JOB_MAX_PARTS	JOB_REQ_MAX_NODES	/* a request's most */
struct job_part {
	struct node	*node;
	uint64_t	 mask;
	/* Multi-node jobs: the part's process has exited, and how. Its
	 * node's report stays unacknowledged until the whole job ends, so
	 * a controller restart learns it again from the node's HELLO. */
	bool		 ended;
	enum job_state	 end_state;
	bool		 has_exit;
	int		 exit_code;
	int		 signal;
	char		*message;	/* what its node said, or NULL */
	bool		 first_failure;	/* it failed first: the others stop */
	/* While it runs, what its node's heartbeat last said the part's
	 * cgroup counted (memory only; the end record's figures replace
	 * them): peak memory in MB, CPU time in ms. */
	uint64_t	 live_mem_peak;
	int64_t		 live_cpu_time;
};
struct node	*job_node(const struct job *);
uint64_t	 job_gpu_mask(const struct job *);
size_t		 job_nparts(const struct job *);
struct job_part	*job_part(struct job *, size_t rank);
/* Part rank of a job; one of no node and no GPUs past the job's parts (a
 * job holding no GPUs has none). */
const struct job_part *job_part_const(const struct job *, size_t rank);
/* The rank of j's part on node n, or -1. */
int		 job_rank_on(const struct job *, const struct node *);
int64_t		 job_start_time(const struct job *);
/* The instant (ms since the epoch) its current run would have started
 * had it never been suspended: its start put off by the time it was
 * suspended in this run, one under way counted to now. now less it is
 * what the run has run; 0 for a job not started. */
int64_t		 job_run_from_ms(const struct job *, int64_t now_ms);
/* It resumed at ms (since the epoch): its run is charged from then. */
void		 job_set_resumed(struct job *, int64_t ms);
const char	*job_reason(const struct job *);
bool		 job_cancel_requested(const struct job *);
int64_t		 job_submit_time(const struct job *);
/* When it may start at the earliest (seconds; 0: at once). */
int64_t		 job_begin_time(const struct job *);
/* What it waits for (common/depend.h; "" nothing), and the text parsed
 * and judged so far (depend-wait.h; NULL until first judged). */
const char	*job_dependency(const struct job *);
struct job_dep	*job_dep(const struct job *);
/* Sets j's parsed dependency, which j then owns: freeing j frees it with
 * the function job_table_set_dep_free gave (depend_wait_forget, which
 * gbatchd.c registers: the job table does not know how dependencies are
 * judged). */
void		 job_set_dep(struct job *, struct job_dep *);
void		 job_table_set_dep_free(void (*)(struct job_dep *));

/* Hears of a job's transition once it is written and memory follows it:
 * j went from -> to, row is what was written (j is freed right after a
 * listener hears of a finished state). */
typedef void	(*job_listener_fn)(struct job *j, enum job_state from,
		    enum job_state to, const struct store_job *row);
/* Adds a listener of every job's transitions, called in the order added:
 * the composition root (gbatchd.c) registers the modules above that
 * follow jobs (the scheduler, interactive sessions), so that neither the
 * table nor job-change.c calls them. At most JOB_LISTENERS; forgotten by
 * job_table_free_all. */
#define JOB_LISTENERS	4
void		 job_table_listen(job_listener_fn);
/* Tells the listeners of j's transition: job_change_state's, once it is
 * written. */
void		 job_table_tell(struct job *, enum job_state from,
		    enum job_state to, const struct store_job *row);
uint32_t	 job_restarts(const struct job *);
/* Where it may run (common/job-field.h): the nodes it may run on alone,
 * those it may not (names joined by ','), the GPU type; "" for none. */
const char	*job_req_nodes(const struct job *);
/* The partitions it may run in, in order ('' for the default: a job
 * from before partitions), and its account ('' for none). */
const char	*job_partition(const struct job *);
const char	*job_account(const struct job *);
/* Its QOS ('' for the default: a job from before QOS). */
const char	*job_qos(const struct job *);
/* The advance reservation it runs in ('' for none). */
const char	*job_reservation(const struct job *);
/* Its nice and priority (gsub --nice, --priority; 0 for none). */
int		 job_nice(const struct job *);
uint32_t	 job_priority(const struct job *);
const char	*job_exclude_nodes(const struct job *);
const char	*job_gpu_type(const struct job *);
/* Its shape and tasks (common/job-field.h): the nodes asked for (0: any
 * number), and the processes per node ("", "K" or "gpu"). */
uint32_t	 job_num_nodes(const struct job *);
const char	*job_tasks_per_node(const struct job *);
/* The processes a node starts, from tasks_per_node's text: K ("" is 1),
 * or 0 for "gpu", one per GPU of the node's part. */
uint32_t	 job_tasks_fixed(const char *tasks_per_node);
/* A running job's MASTER_PORT (launch_pick_port), 0 when not running. */
uint32_t	 job_master_port(const struct job *);
/* What it asks beside its GPUs (common/job-field.h; 0: not asked). */
uint32_t	 job_cpus_per_gpu(const struct job *);
uint32_t	 job_cpus_per_task(const struct job *);
uint64_t	 job_mem(const struct job *);
/* Whether it asked to share its GPUs in turns (gsub --time-slice; its
 * QOS may ask it too: core-qos.c), and the MB of each GPU's memory it
 * declares (gsub --gpu-mem; 0: not said). */
bool		 job_time_slice(const struct job *);
uint64_t	 job_gpu_mem(const struct job *);
/* The shards of its one GPU it takes (gsub --gpu-share; 0: the GPU
 * whole). */
uint32_t	 job_gpu_share(const struct job *);
uint64_t	 job_mem_per_gpu(const struct job *);
/* Counts what a part's run used, as its node's cgroup says: the most
 * memory (MB) any one held, and CPU time (ms) in all. */
void		 job_add_usage(struct job *, uint64_t mem_peak, int64_t cpu_time);
void		 job_set_master_port(struct job *, uint32_t);
/* The CPUs its run holds in all (sacct's AllocCPUS). */
void		 job_set_alloc_cpus(struct job *, uint32_t);
/* Job arrays (common/job-field.h says how their rows work): the array's
 * id (0: none), the task (-1: none, or the array's own row), the array as
 * submitted and its throttle (0: none). */
uint64_t	 job_array_job_id(const struct job *);
int		 job_array_task_id(const struct job *);
const char	*job_array_spec(const struct job *);
uint32_t	 job_array_throttle(const struct job *);
/* An array's own row: the tasks it still stands for (NULL for any other
 * job), and the same as text ("" for none). After changing the set, call
 * job_array_left_changed; job-array.c does. */
struct array_set *job_array_left(struct job *);
const char	*job_array_tasks(const struct job *);
void		 job_array_left_changed(struct job *);
/* The set from text (NULL: none, the job is no array's row). */
void		 job_set_array_tasks(struct job *, const char *text);
/* The array's row becomes its last task. */
void		 job_set_array_task(struct job *, int task);
/* The scheduler's part of the job (schedule.c and job-change.c change it). */
struct job_sched *job_sched(struct job *);
/* Its service; zeros for a job that has none. */
const struct job_service *job_service(const struct job *);
const struct job_sched *job_sched_const(const struct job *);

/* Adds to row (job_to_row's) what j's running parts have counted so far
 * (job_part's live_ figures): the peak memory the larger, the CPU time
 * summed. For listings, never for the store. */
void		 job_row_add_live(const struct job *, struct store_job *row);
/* Gives j the request of row (job_to_row's, changed; it may borrow j's
 * strings): its own strings (name, comment, dependency: common/
 * job-field.h's JFF_OWN) in a block made anew when any differs, and the
 * shared ones (time limit, nodes, flags: JFF_SHARED) in the block of the
 * jobs that have them all the same. A new dependency drops what was
 * judged of the old one (depend-wait.h judges it afresh). The rest of row
 * is not read. Memory only: job-edit.c saves it and tells the core. */
void		 job_set_asked(struct job *, const struct store_job *row);
/* reason is one of the reasons a job is kept with (job.c's job_reasons);
 * any other is kept as "None". */
void		 job_set_reason(struct job *, const char *reason);
void		 job_set_cancel_requested(struct job *, bool);
/* A multi-node job one of whose parts failed: the others are stopping. */
bool		 job_gang_stopping(const struct job *);
void		 job_set_gang_stopping(struct job *, bool);
/* Copies of the job from before a requeue still being stopped on nodes
 * that came back (job-report.c counts them, the core holds their GPUs). A
 * job with any waits: its node would refuse a second copy, and the stale
 * one's checkpoint is what the next run should resume from. */
uint32_t	 job_stale_copies(const struct job *);
void		 job_set_stale_copies(struct job *, uint32_t);

/* For job-change.c only: the fields a transition changes. The queue and
 * counters follow the state. */
void		 job_set_state(struct job *, enum job_state);
void		 job_set_run(struct job *, const struct job_part *parts,
		     size_t nparts, int64_t start_time);
/* The shards its GPU had as its run started (node_gpu_shards), for a
 * job of shards (job_run_milli). */
void		 job_set_run_shards(struct job *, uint32_t shards);
void		 job_set_end(struct job *, int64_t end_time, bool has_exit,
		     int exit_code, int signal, const char *message);
void		 job_set_requeued(struct job *);
/* A re-adopted run takes back the requeue's restart (job-change.c). */
void		 job_set_restarts(struct job *, uint32_t);
/* Takes the scheduling counters of row (as written to the store). */
void		 job_set_sched_row(struct job *, const struct store_job *);

#endif
