/* job.c: a job in memory: made from its row and back, what it holds and
 * says (job.h). The table of them is job-table.c's; the order pending jobs
 * run in is the scheduling core's (core.c). */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc-text.h"
#include "common/array.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/job-int.h"
#include "daemon/controller/job.h"
#include "daemon/controller/job-shared.h"
#include "daemon/controller/job-strs.h"

static void	job_parts_free(struct job *);

/* Reasons as stored; anything else read back from the store becomes
 * "None" rather than a string each job would own. */
static const char *const job_reasons[] = {
	"None", "Resources", "Priority", "Held", "NodeLost", "NodeDown",
	"Requeued", "Preempted", "Preempting", "PartLost", "StaleCopy",
	"BeginTime", "Dependency", "DependencyNeverSatisfied",
	/* part.h's refusals of a job that no partition of its list takes
	 * now (a reload changed them). */
	"PartitionTimeLimit", "PartitionGPULimit", "PartitionNodeLimit",
	"PartitionAccount", "PartitionConfig",
	/* Likewise of a QOS (qos.h): a partition of its list not for it,
	 * its QOS gone, its time limit over its QOS's max_time. */
	"PartitionQOS", "InvalidQOS", "QOSMaxWallDurationPerJobLimit",
	/* Its account, or one above it, spent its month's GPU-hours
	 * (assoc-usage.h). */
	"AssocGPUHoursSpent",
	/* Its advance reservation has not started, or is gone (ended or
	 * deleted: resv-tab.h). */
	"Reservation", "ReservationDeleted",
	/* A SUSPENDED job's: frozen for another's turn on its GPUs
	 * (time-slicing), not by an operator. */
	"TimeSlice",
};

/* Where s is in job_reasons; 0 ("None") for what is not there. */
static uint8_t
job_reason_index(const char *s)
{
	size_t	i;

	for (i = 0; i < sizeof job_reasons / sizeof job_reasons[0]; i++) {
		if (s != NULL && strcmp(s, job_reasons[i]) == 0)
			return ((uint8_t)i);
	}
	return (0);
}

/* The block of j's own strings and the width of its offsets: the one
 * after the struct, or the one made when they changed (job_set_asked). */
static const char *
job_own(const struct job *j, uint8_t *width)
{
	if (j->rare != NULL && j->rare->own != NULL) {
		*width = j->rare->own_width;
		return (j->rare->own);
	}
	*width = j->width;
	return (j->str);
}

/* Field f of j's own strings. */
static const char *
job_str(const struct job *j, enum job_field f)
{
	const char	*block;
	uint8_t		 width;

	block = job_own(j, &width);
	return (job_strs_own_text(block, width, f));
}

/* Plans the block of row's own strings into src and plan (an argv of
 * none is "[]", as listings show it); returns its size. */
static size_t
job_own_plan(const struct store_job *r, const char **src,
    struct job_strs_plan *plan)
{
	job_strs_own_src(r, src);
	if (src[job_strs_slot(JF_ARGV)] == NULL)
		src[job_strs_slot(JF_ARGV)] = "[]";
	return (job_strs_plan(src, JOB_OWN_COUNT, plan));
}

static const struct job_run	job_run_none;

/* What j's runs left, zeros for a job that has none. */
static const struct job_run *
job_run_const(const struct job *j)
{
	return (j->run != NULL ? j->run : &job_run_none);
}

/* The same, to be set: made when first needed. */
static struct job_run *
job_run_set(struct job *j)
{
	if (j->run == NULL)
		j->run = xcalloc(1, sizeof *j->run);
	return (j->run);
}

static void
job_run_free(struct job *j)
{
	if (j->run == NULL)
		return;
	job_parts_free(j);
	free(j->run->message);
	free(j->run);
	j->run = NULL;
}

static const struct job_rare	job_rare_none = { .task_id = -1 };

/* What few jobs have, zeros (no task) for a job that has none. */
static const struct job_rare *
job_rare_const(const struct job *j)
{
	return (j->rare != NULL ? j->rare : &job_rare_none);
}

/* The same, to be set: made when first needed. */
struct job_rare *
job_rare_set(struct job *j)
{
	if (j->rare == NULL) {
		j->rare = xcalloc(1, sizeof *j->rare);
		j->rare->task_id = -1;
	}
	return (j->rare);
}

struct job *
job_create(const struct store_job *r)
{
	const char		*src[JOB_OWN_COUNT];
	struct job_strs_plan	 plan;
	size_t			 size;
	struct job		*j;
	struct array_set	 spec;
	char			 err[256];

	/* One allocation for the job and its own strings: a listing walks
	 * every job, and strings next to their job cost no extra cache
	 * misses. They came in one request (FRAME_MAX_REQUEST, 1 MB), so
	 * 32-bit offsets hold them; most jobs' fit in 8 bits. */
	size = job_own_plan(r, src, &plan);
	j = xcalloc(1, offsetof(struct job, str) + size);
	job_strs_fill(j->str, src, JOB_OWN_COUNT, &plan);
	j->width = plan.width;
	j->shared = job_shared_get_row(job_table_shared(), r);
	j->id = r->id;
	if (r->master_port != 0 || r->mem_peak != 0 || r->cpu_time != 0 ||
	    r->alloc_cpus != 0 ||
	    r->start_time != 0 || r->end_time != 0 || r->has_exit ||
	    r->exit_code != 0 || r->signal != 0 || r->restarts != 0) {
		j->run = xcalloc(1, sizeof *j->run);
		j->run->master_port = r->master_port;
		j->run->mem_peak = r->mem_peak;
		j->run->alloc_cpus = r->alloc_cpus;
		j->run->cpu_time = r->cpu_time;
		j->run->start_time = r->start_time;
		j->run->end_time = r->end_time;
		j->run->has_exit = r->has_exit;
		j->run->exit_code = r->exit_code;
		j->run->signal = r->signal;
		j->run->restarts = r->restarts;
	}
	if (r->array_job_id != 0 || r->begin_time != 0 ||
	    r->mem_per_gpu != 0 || r->cpus_per_gpu != 0) {
		job_rare_set(j)->begin_time = r->begin_time;
		j->rare->mem_per_gpu = r->mem_per_gpu;
		j->rare->cpus_per_gpu = r->cpus_per_gpu;
	}
	if (r->array_job_id != 0) {
		j->rare->array_job_id = r->array_job_id;
		j->rare->task_id = r->array_task_id;
		if (array_parse(job_str(j, JF_ARRAY_SPEC), &spec, err,
		    sizeof err) == 0) {
			j->rare->throttle = spec.throttle;
			array_free(&spec);
		}
		if (j->rare->task_id < 0)
			job_set_array_tasks(j, r->array_tasks);
	}
	j->state = (uint8_t)r->state;
	j->reason = job_reason_index(r->reason);
	j->submit_time = r->submit_time;
	job_set_sched_row(j, r);

	job_table_add(j);
	return (j);
}

void
job_row_add_live(const struct job *j, struct store_job *row)
{
	const struct job_part	*p;
	size_t			 k;

	for (k = 0; k < job_nparts(j); k++) {
		p = job_part_const(j, k);
		if (p->live_mem_peak > row->mem_peak)
			row->mem_peak = p->live_mem_peak;
		row->cpu_time += p->live_cpu_time;
	}
}

/* Whether the own strings of row are j's already. */
static bool
job_own_same(const struct job *j, const char *const *src)
{
	const char	*block, *s;
	uint8_t		 width;
	size_t		 k;

	block = job_own(j, &width);
	for (k = 0; k < JOB_OWN_COUNT; k++) {
		s = job_strs_get(block, width, JOB_OWN_COUNT, k);
		if (strcmp(s, src[k] != NULL ? src[k] : "") != 0)
			return (false);
	}
	return (true);
}

void
job_set_asked(struct job *j, const struct store_job *r)
{
	const struct job_shared	*old = j->shared;
	const char		*src[JOB_OWN_COUNT];
	struct job_strs_plan	 plan;
	struct job_rare		*a;
	char			*block;
	size_t			 size;
	bool			 dep_same;

	/* r may borrow the job's strings: the new blocks are made (or
	 * found) before the old ones are let go. */
	size = job_own_plan(r, src, &plan);
	if (!job_own_same(j, src)) {
		dep_same = strcmp(job_dependency(j), r->dependency != NULL ?
		    r->dependency : "") == 0;
		block = xmalloc(size);
		job_strs_fill(block, src, JOB_OWN_COUNT, &plan);
		a = job_rare_set(j);
		free(a->own);
		a->own = block;
		a->own_width = plan.width;
		/* What was judged of the old conditions is of no use: the
		 * new ones are parsed and judged afresh. */
		if (!dep_same && a->dep != NULL) {
			job_table_dep_free(a->dep);
			a->dep = NULL;
		}
	}
	j->shared = job_shared_get_row(job_table_shared(), r);
	job_shared_put(job_table_shared(), old);
	if (r->begin_time != job_begin_time(j))
		job_rare_set(j)->begin_time = r->begin_time;
}

void
job_free(struct job *j)
{
	if (j == NULL)
		return;
	job_table_remove(j);
	job_run_free(j);
	job_shared_put(job_table_shared(), j->shared);
	if (j->rare != NULL) {
		if (j->rare->dep != NULL)
			job_table_dep_free(j->rare->dep);
		job_set_array_tasks(j, NULL);
		free(j->rare->learn);	/* job-learn.c's, of no pointer */
		free(j->rare->own);
		free(j->rare);
	}
	free(j);
}

void
job_to_row(const struct job *j, struct store_job *r)
{
	const struct job_run	*run = job_run_const(j);
	const char		*block;
	uint8_t			 width;

	memset(r, 0, sizeof *r);
	r->queue = -1;
	r->umask = -1;	/* only the store has it, as the script */
	r->id = j->id;
	job_shared_to_row(j->shared, r);
	block = job_own(j, &width);
	job_strs_own_to_row(block, width, r);
	r->state = j->state;
	r->reason = job_reasons[j->reason];
	r->submit_time = j->submit_time;
	r->begin_time = job_begin_time(j);
	r->start_time = run->start_time;
	r->end_time = run->end_time;
	r->has_exit = run->has_exit;
	r->exit_code = run->exit_code;
	r->signal = run->signal;
	if (run->message != NULL)
		r->message = run->message;
	r->array_job_id = job_array_job_id(j);
	r->array_task_id = job_array_task_id(j);
	r->array_tasks = job_array_tasks(j);
	r->master_port = run->master_port;
	r->cpus_per_gpu = job_cpus_per_gpu(j);
	r->mem_per_gpu = job_mem_per_gpu(j);
	r->mem_peak = run->mem_peak;
	r->alloc_cpus = run->alloc_cpus;
	r->cpu_time = run->cpu_time;
	r->gpu_mask = job_gpu_mask(j);
	r->restarts = run->restarts;
	r->attained = run->service.attained;
	r->executed = run->service.executed;
	r->run_total = run->service.run_total;
	r->first_start = run->service.first_start;
	r->last_stop = run->service.last_stop;
	r->preemptions = run->service.preemptions;
	r->promotions = run->service.promotions;
	r->resizes = run->service.resizes;
	r->queue_delay = run->service.queue_delay;
	r->suspended = run->service.suspended;
	r->run_suspended = run->service.run_suspended;
	r->suspend_since = run->service.suspend_since;
	r->pending_since = j->sched.pending_since;
	r->last_queue = run->service.last_queue;
}

uint64_t	 job_id(const struct job *j) { return (j->id); }
enum job_state	 job_state(const struct job *j)
		     { return ((enum job_state)j->state); }
const char	*job_name(const struct job *j) { return (job_str(j, JF_NAME)); }
const char	*job_user(const struct job *j)
		     { return (job_shared_text(j->shared, JF_USER)); }
uint32_t	 job_uid(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared, JF_UID)); }
uint32_t	 job_gpus(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared, JF_GPUS)); }
uint32_t	 job_gpus_max(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared, JF_GPUS_MAX)); }

uint32_t
job_run_gpus(const struct job *j)
{
	const struct job_run	*run;
	uint32_t		 n = 0, i;

	if (job_gpus_max(j) == 0 || (run = job_run_const(j))->nparts == 0)
		return (job_gpus(j));
	for (i = 0; i < run->nparts; i++)
		n += (uint32_t)__builtin_popcountll(run->parts[i].mask);
	return (n);
}

uint32_t
job_run_milli(const struct job *j)
{
	uint32_t	shards = 0;

	if (job_gpu_share(j) > 0 && j->run != NULL)
		shards = j->run->shards;
	return (alloc_text_share_milli(job_run_gpus(j), job_gpu_share(j),
	    shards));
}

uint64_t	 job_time_limit(const struct job *j)
		     { return (job_shared_num(j->shared, JF_TIME_LIMIT)); }
uint32_t	 job_flags(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared, JF_FLAGS)); }
int		 job_ckpt_signal(const struct job *j)
		     { return ((int)job_shared_num(j->shared, JF_CKPT_SIGNAL)); }

bool
job_is_interactive(const struct job *j)
{
	return ((job_flags(j) & JOB_F_INTERACTIVE) != 0);
}
struct node	*job_node(const struct job *j)
		     { return (job_part_const(j, 0)->node); }
uint64_t	 job_gpu_mask(const struct job *j)
		     { return (job_part_const(j, 0)->mask); }
size_t		 job_nparts(const struct job *j)
		     { return (job_run_const(j)->nparts); }
struct job_part	*job_part(struct job *j, size_t i)
		     { return (&j->run->parts[i]); }

/* Part i of j; for a job with no parts, a part of no node (a listing asks
 * for the first part of every job). */
const struct job_part *
job_part_const(const struct job *j, size_t i)
{
	static const struct job_part	none;
	const struct job_run		*run = job_run_const(j);

	return (i < run->nparts ? &run->parts[i] : &none);
}

int
job_rank_on(const struct job *j, const struct node *n)
{
	const struct job_run	*run = job_run_const(j);
	size_t			 i;

	for (i = 0; i < run->nparts; i++) {
		if (run->parts[i].node == n)
			return ((int)i);
	}
	return (-1);
}
int64_t		 job_start_time(const struct job *j)
		     { return (job_run_const(j)->start_time); }
const char	*job_reason(const struct job *j)
		     { return (job_reasons[j->reason]); }
bool		 job_cancel_requested(const struct job *j)
		     { return (j->cancel_requested); }
int64_t		 job_submit_time(const struct job *j) { return (j->submit_time); }
int64_t		 job_begin_time(const struct job *j)
		     { return (job_rare_const(j)->begin_time); }
const char	*job_dependency(const struct job *j)
		     { return (job_str(j, JF_DEPENDENCY)); }
struct job_dep	*job_dep(const struct job *j)
		     { return (job_rare_const(j)->dep); }

void
job_set_dep(struct job *j, struct job_dep *d)
{
	if (d != NULL || j->rare != NULL)
		job_rare_set(j)->dep = d;
}

uint32_t	 job_restarts(const struct job *j)
		     { return (job_run_const(j)->restarts); }
uint64_t	 job_array_job_id(const struct job *j)
		     { return (job_rare_const(j)->array_job_id); }
int		 job_array_task_id(const struct job *j)
		     { return (job_rare_const(j)->task_id); }
const char	*job_array_spec(const struct job *j)
		     { return (job_str(j, JF_ARRAY_SPEC)); }
const char	*job_req_nodes(const struct job *j)
		     { return (job_shared_text(j->shared, JF_REQ_NODES)); }
const char	*job_partition(const struct job *j)
		     { return (job_shared_text(j->shared, JF_PARTITION)); }
const char	*job_account(const struct job *j)
		     { return (job_shared_text(j->shared, JF_ACCOUNT)); }
const char	*job_qos(const struct job *j)
		     { return (job_shared_text(j->shared, JF_QOS)); }
const char	*job_reservation(const struct job *j)
		     { return (job_shared_text(j->shared, JF_RESERVATION)); }
int		 job_nice(const struct job *j)
		     { return ((int)(int64_t)job_shared_num(j->shared,
		     JF_NICE)); }
uint32_t	 job_priority(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared,
		     JF_PRIORITY)); }
const char	*job_exclude_nodes(const struct job *j)
		     { return (job_shared_text(j->shared, JF_EXCLUDE_NODES)); }
const char	*job_gpu_type(const struct job *j)
		     { return (job_shared_text(j->shared, JF_GPU_TYPE)); }
uint32_t	 job_num_nodes(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared, JF_NUM_NODES)); }
uint32_t	 job_master_port(const struct job *j)
		     { return (job_run_const(j)->master_port); }
uint32_t	 job_cpus_per_gpu(const struct job *j)
		     { return (job_rare_const(j)->cpus_per_gpu); }
uint32_t	 job_cpus_per_task(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared,
			 JF_CPUS_PER_TASK)); }
uint64_t	 job_mem(const struct job *j)
		     { return (job_shared_num(j->shared, JF_MEM)); }
uint64_t	 job_mem_per_gpu(const struct job *j)
		     { return (job_rare_const(j)->mem_per_gpu); }
bool		 job_time_slice(const struct job *j)
		     { return (job_shared_num(j->shared, JF_TIME_SLICE) != 0); }
uint64_t	 job_gpu_mem(const struct job *j)
		     { return (job_shared_num(j->shared, JF_GPU_MEM)); }
uint32_t	 job_gpu_share(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared,
		     JF_GPU_SHARE)); }

void
job_add_usage(struct job *j, uint64_t mem_peak, int64_t cpu_time)
{
	if (mem_peak > job_run_const(j)->mem_peak)
		job_run_set(j)->mem_peak = mem_peak;
	if (cpu_time > 0)
		job_run_set(j)->cpu_time += cpu_time;
}

void
job_set_alloc_cpus(struct job *j, uint32_t cpus)
{
	if (cpus != job_run_const(j)->alloc_cpus)
		job_run_set(j)->alloc_cpus = cpus;
}

void
job_set_master_port(struct job *j, uint32_t port)
{
	if (port != job_run_const(j)->master_port)
		job_run_set(j)->master_port = port;
}
const char	*job_tasks_per_node(const struct job *j)
		     { return (job_shared_text(j->shared, JF_TASKS_PER_NODE)); }

uint32_t
job_tasks_fixed(const char *t)
{
	if (*t == '\0')
		return (1);
	if (strcmp(t, "gpu") == 0)
		return (0);
	return ((uint32_t)strtoul(t, NULL, 10));
}
uint32_t	 job_array_throttle(const struct job *j)
		     { return (job_rare_const(j)->throttle); }
struct array_set *job_array_left(struct job *j)
		     { return (j->rare != NULL ? j->rare->left : NULL); }

const char *
job_array_tasks(const struct job *j)
{
	return (j->rare != NULL && j->rare->tasks != NULL ?
	    j->rare->tasks : "");
}

/* Only a job of an array (array_job_id set when it was made) has tasks
 * or a task id to set. */
void
job_set_array_tasks(struct job *j, const char *text)
{
	struct job_rare		*a = j->rare;
	char			 err[256];

	if (a == NULL || a->array_job_id == 0)
		return;
	if (a->left != NULL) {
		array_free(a->left);
		free(a->left);
		a->left = NULL;
	}
	free(a->tasks);
	a->tasks = NULL;
	if (text == NULL)
		return;
	a->left = xcalloc(1, sizeof *a->left);
	if (array_parse(text, a->left, err, sizeof err) != 0) {
		log_warn("job %" PRIu64 ": its array's tasks \"%s\" do not "
		    "parse (%s); it stands for none", j->id, text, err);
		free(a->left);
		a->left = NULL;
		return;
	}
	a->tasks = xstrdup(text);
}

void
job_array_left_changed(struct job *j)
{
	struct job_rare		*a = j->rare;
	size_t			 len;

	if (a == NULL || a->left == NULL)
		return;
	len = array_format(a->left, false, NULL, 0);
	free(a->tasks);
	a->tasks = xmalloc(len + 1);
	(void)array_format(a->left, false, a->tasks, len + 1);
}

void
job_set_array_task(struct job *j, int task)
{
	job_set_array_tasks(j, NULL);
	if (job_array_job_id(j) != 0)
		j->rare->task_id = task;
}
struct job_sched *job_sched(struct job *j) { return (&j->sched); }
const struct job_sched *job_sched_const(const struct job *j)
		     { return (&j->sched); }
const struct job_service *job_service(const struct job *j)
		     { return (&job_run_const(j)->service); }

void
job_set_reason(struct job *j, const char *reason)
{
	j->reason = job_reason_index(reason);
}

void
job_set_cancel_requested(struct job *j, bool on)
{
	j->cancel_requested = on;
}

bool
job_gang_stopping(const struct job *j)
{
	return (job_run_const(j)->gang_stopping);
}

void
job_set_gang_stopping(struct job *j, bool on)
{
	if (on != job_run_const(j)->gang_stopping)
		job_run_set(j)->gang_stopping = on;
}

uint32_t
job_stale_copies(const struct job *j)
{
	return (job_run_const(j)->stale_copies);
}

void
job_set_stale_copies(struct job *j, uint32_t n)
{
	if (n != job_run_const(j)->stale_copies)
		job_run_set(j)->stale_copies = n;
}

void
job_set_restarts(struct job *j, uint32_t n)
{
	if (n != job_run_const(j)->restarts)
		job_run_set(j)->restarts = n;
}

void
job_set_state(struct job *j, enum job_state s)
{
	job_table_state(j, s);
	j->state = (uint8_t)s;
}

/* Frees the parts of the last run and what their nodes said. */
static void
job_parts_free(struct job *j)
{
	struct job_run	*run = j->run;
	size_t		 i;

	if (run == NULL)
		return;
	for (i = 0; i < run->nparts; i++) {
		free(run->parts[i].message);
		run->parts[i].message = NULL;
		run->parts[i].first_failure = false;
	}
	free(run->parts);
	run->parts = NULL;
	run->nparts = 0;
}

void
job_set_run(struct job *j, const struct job_part *parts, size_t n,
    int64_t start)
{
	struct job_run	*run;
	size_t		 i;

	job_parts_free(j);
	if (n == 0 && start == 0)
		return;
	run = job_run_set(j);
	if (n > 0) {
		run->parts = xcalloc(n, sizeof *run->parts);
		run->nparts = (uint32_t)n;
	}
	for (i = 0; i < n; i++) {
		run->parts[i] = parts[i];
		run->parts[i].ended = false;
		run->parts[i].message = NULL;
		run->parts[i].live_mem_peak = 0;
		run->parts[i].live_cpu_time = 0;
	}
	if (start != 0)
		run->start_time = start;
}

void
job_set_run_shards(struct job *j, uint32_t shards)
{
	job_run_set(j)->shards = (uint8_t)(shards < UINT8_MAX ? shards :
	    UINT8_MAX);
}

void
job_set_end(struct job *j, int64_t end, bool has_exit, int exit_code,
    int sig, const char *message)
{
	struct job_run	*run = job_run_set(j);

	run->end_time = end;
	run->has_exit = has_exit;
	run->exit_code = exit_code;
	run->signal = sig;
	if (message != NULL) {
		free(run->message);
		run->message = xstrdup(message);
	}
}

void
job_set_requeued(struct job *j)
{
	struct job_run	*run = job_run_set(j);

	job_set_run(j, NULL, 0, 0);
	run->gang_stopping = false;
	run->start_time = 0;
	run->restarts++;
	j->cancel_requested = false;
}

void
job_set_sched_row(struct job *j, const struct store_job *r)
{
	struct job_service	*s;

	j->sched.pending_since = r->pending_since;
	if (j->run == NULL && r->attained == 0 && r->executed == 0 &&
	    r->run_total == 0 && r->first_start == 0 && r->last_stop == 0 &&
	    r->preemptions == 0 && r->promotions == 0 && r->resizes == 0 &&
	    r->queue_delay == 0 && r->last_queue == 0 && r->suspended == 0 &&
	    r->run_suspended == 0 && r->suspend_since == 0)
		return;
	s = &job_run_set(j)->service;
	s->attained = r->attained;
	s->executed = r->executed;
	s->run_total = r->run_total;
	s->first_start = r->first_start;
	s->last_stop = r->last_stop;
	s->preemptions = r->preemptions;
	s->promotions = r->promotions;
	s->resizes = r->resizes;
	s->queue_delay = r->queue_delay;
	s->last_queue = r->last_queue;
	s->suspended = r->suspended;
	s->run_suspended = r->run_suspended;
	s->suspend_since = r->suspend_since;
}

void
job_set_resumed(struct job *j, int64_t ms)
{
	job_run_set(j)->service.resumed = ms;
}

int64_t
job_run_from_ms(const struct job *j, int64_t now_ms)
{
	const struct job_service	*s = &job_run_const(j)->service;
	int64_t				 from;

	if (job_start_time(j) <= 0)
		return (0);
	from = job_start_time(j) * 1000 + s->run_suspended;
	if (s->suspend_since != 0 && now_ms > s->suspend_since)
		from += now_ms - s->suspend_since;
	return (from);
}
