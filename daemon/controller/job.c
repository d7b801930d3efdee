/* job.c: the in-memory job table: the jobs not yet finished, in an array
 * in id order (found by a binary search, walked by listings). The order
 * pending jobs run in is the scheduling core's (schedule.c). */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/job.h"
#include "daemon/controller/job-shared.h"
#include "daemon/controller/job-strs.h"

/* The strings a job keeps from its row that are its own (common/
 * job-field.h's JFF_OWN) are in a block after the struct (job_str); the
 * others, where it runs and as whom (JFF_SHARED), are shared with the
 * jobs that have the same (job-strs.h). None changes once the job is made,
 * but for a message that job_set_end replaces. */

/* What a job's runs leave: none of it is set before its first start (or
 * end), and most of a large queue has never started, so a job holds it
 * apart, from the first time one member is set (job_run_set). */
struct job_run {
	char			*message;	/* NULL: str's JF_MESSAGE */
	struct job_part		*parts;		/* nparts; NULL for none */
	uint64_t		 mem_peak;	/* MB, over every run */
	int64_t			 cpu_time;	/* ms, every run's */
	int64_t			 start_time;
	int64_t			 end_time;
	uint32_t		 master_port;	/* running: MASTER_PORT */
	uint32_t		 restarts;
	uint32_t		 stale_copies;
	uint32_t		 nparts;
	int			 exit_code;
	int			 signal;
	bool			 has_exit;
	bool			 gang_stopping;
	struct job_service	 service;
};

/* What few jobs have: a place in an array, a dependency, a begin time,
 * memory or CPUs by the GPU. Made when the job is, for a job with any of
 * them, or when a dependency is first set. */
struct job_rare {
	/* An array's own row: the tasks it still stands for, parsed and
	 * as text (NULL for a task). */
	struct array_set	*left;
	char			*tasks;
	struct job_dep		*dep;		/* its dependency, parsed */
	uint64_t		 array_job_id;	/* 0: not of an array */
	uint64_t		 mem_per_gpu;
	int64_t			 begin_time;
	uint32_t		 throttle;	/* its array's %N, 0: none */
	uint32_t		 cpus_per_gpu;	/* 0: not asked */
	int			 task_id;	/* -1: not a task */
};

/* Laid out for size: 100,000 pending jobs are 100,000 of these (issue 15's
 * memory target). Pointers first, then 64-bit, then 32-bit members; what
 * runs leave and what few jobs have (arrays, dependencies, ...) are apart,
 * the strings others have too are shared, and its own are in str after a
 * table of where each starts, in 8, 16 or 32 bits. */
struct job {
	uint64_t		 id;
	struct job_run		*run;		/* NULL: all members 0 */
	struct job_rare		*rare;		/* NULL: all members 0 */
	/* What it asks that others ask alike: its user, command, files,
	 * constraints, GPUs, nodes, CPUs, memory, time limit and flags. */
	const struct job_shared	*shared;
	int64_t			 submit_time;
	struct job_sched	 sched;
	uint32_t		 slot;		/* in jobs.tab */
	uint8_t			 state;		/* enum job_state */
	uint8_t			 reason;	/* in job_reasons */
	bool			 cancel_requested;
	uint8_t			 width;		/* of an offset: 1, 2 or 4 */
	/* The block of its own strings (job-strs.h): argv is JSON text
	 * (listings show it), dependency depend.h's text, array_spec as
	 * submitted with %N; '' for none. Of the shared ones, req_nodes
	 * and exclude_nodes are -w and -x (names, ',' between), gpu_type
	 * --gres=gpu:TYPE:N's, tasks_per_node "", "K" or "gpu". */
	char			 str[];
};

static void	job_parts_free(struct job *);
static void	job_load_add(struct job *);

/* Between job_load_begin and job_load_end: the jobs made, with their ids
 * beside them for the sort. */
struct job_loaded {
	uint64_t	 id;
	struct job	*j;
};

/* Jobs waiting to start (pending or held) of each user, for
 * controller.max_pending_per_user: a hash by uid, chained. */
#define JOB_WAITING_BUCKETS	256
struct job_waiting {
	uint32_t		 uid;
	size_t			 n;
	struct job_waiting	*next;
};

/* The controller's jobs: the one table of this module. */
static struct {
	/* Every job, in id order. A job freed leaves a hole (NULL) until
	 * the holes are a quarter of the table, which is then closed up
	 * (job_tab_close): a hole costs a search a pointer's read, closing
	 * them touches every job. */
	struct job		**tab;
	size_t			  tab_len;
	size_t			  tab_size;
	size_t			  tab_holes;
	uint64_t		  tab_max;	/* the largest id ever in it */
	size_t			  total;
	size_t			  counts[JOB_STATE_COUNT];
	bool			  loading;
	struct job_loaded	 *loaded;
	size_t			  nloaded;
	size_t			  loaded_size;
	struct job_waiting	 *waiting[JOB_WAITING_BUCKETS];
	/* Frees a job's parsed dependency (job_set_dep_free). */
	void			(*dep_free)(struct job_dep *);
} jobs;

/* Reasons as stored; anything else read back from the store becomes
 * "None" rather than a string each job would own. */
static const char *const job_reasons[] = {
	"None", "Resources", "Priority", "Held", "NodeLost", "NodeDown",
	"Requeued", "Preempted", "Preempting", "PartLost", "StaleCopy",
	"BeginTime", "Dependency", "DependencyNeverSatisfied",
};

static bool
job_is_waiting(enum job_state s)
{
	return (s == JOB_PENDING || s == JOB_HELD);
}

static struct job_waiting *
job_waiting_get(uint32_t uid, bool create)
{
	struct job_waiting	**at = &jobs.waiting[uid % JOB_WAITING_BUCKETS];
	struct job_waiting	 *w;

	for (w = *at; w != NULL; w = w->next) {
		if (w->uid == uid)
			return (w);
	}
	if (!create)
		return (NULL);
	w = xcalloc(1, sizeof *w);
	w->uid = uid;
	w->next = *at;
	*at = w;
	return (w);
}

/* Counts job j in or out (add: +1 or -1) of its user's waiting jobs when
 * state s is a waiting one. Entries stay once made: a cluster has few
 * users. */
static void
job_waiting_add(const struct job *j, enum job_state s, int add)
{
	if (!job_is_waiting(s))
		return;
	if (add > 0)
		job_waiting_get(job_uid(j), true)->n++;
	else
		job_waiting_get(job_uid(j), true)->n--;
}

size_t
job_waiting_of(uint32_t uid)
{
	struct job_waiting	*w = job_waiting_get(uid, false);

	return (w != NULL ? w->n : 0);
}

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

/* The first slot from i on that holds a job, end if none before it. */
static size_t
job_tab_skip(size_t i, size_t end)
{
	while (i < end && jobs.tab[i] == NULL)
		i++;
	return (i);
}

/* Moves every job down over the holes. */
static void
job_tab_close(void)
{
	size_t	i, n = 0;

	for (i = 0; i < jobs.tab_len; i++) {
		if (jobs.tab[i] == NULL)
			continue;
		if (n != i) {
			jobs.tab[n] = jobs.tab[i];
			jobs.tab[n]->slot = (uint32_t)n;
		}
		n++;
	}
	jobs.tab_len = n;
	jobs.tab_holes = 0;
}

/* The first slot whose job's id is id or more, in a table with no holes. */
static size_t
job_tab_lower(uint64_t id)
{
	size_t	lo = 0, hi = jobs.tab_len, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (jobs.tab[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* Puts j in the table: at the end, as ids grow; a job older than the
 * newest goes in its place, but while loading, at the end all the same
 * (job_load_end sorts). */
static void
job_tab_add(struct job *j)
{
	size_t	at, i;

	if (jobs.tab_len == jobs.tab_size) {
		if (jobs.tab_holes > 0)
			job_tab_close();
		if (jobs.tab_len == jobs.tab_size) {
			jobs.tab_size = jobs.tab_size * 2 + 1024;
			jobs.tab = xreallocarray(jobs.tab, jobs.tab_size,
			    sizeof *jobs.tab);
		}
	}
	at = jobs.tab_len;
	if (j->id < jobs.tab_max && !jobs.loading) {
		job_tab_close();
		at = job_tab_lower(j->id);
		memmove(&jobs.tab[at + 1], &jobs.tab[at],
		    (jobs.tab_len - at) * sizeof *jobs.tab);
		for (i = at + 1; i <= jobs.tab_len; i++)
			jobs.tab[i]->slot = (uint32_t)i;
	}
	if (j->id > jobs.tab_max)
		jobs.tab_max = j->id;
	jobs.tab[at] = j;
	j->slot = (uint32_t)at;
	jobs.tab_len++;
}

static void
job_tab_remove(struct job *j)
{
	jobs.tab[j->slot] = NULL;
	jobs.tab_holes++;
	while (jobs.tab_len > 0 && jobs.tab[jobs.tab_len - 1] == NULL) {
		jobs.tab_len--;
		jobs.tab_holes--;
	}
	if (jobs.tab_holes > 0 && jobs.tab_holes >= jobs.tab_len / 4)
		job_tab_close();
}

struct job *
job_find(uint64_t id)
{
	size_t	lo = 0, hi = jobs.tab_len, mid, at;

	/* A binary search in which a probe landing on a hole reads the
	 * first job after it, before hi. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		at = job_tab_skip(mid, hi);
		if (at == hi)
			hi = mid;
		else if (jobs.tab[at]->id == id)
			return (jobs.tab[at]);
		else if (jobs.tab[at]->id < id)
			lo = at + 1;
		else
			hi = mid;
	}
	return (NULL);
}

/* Field f of j's own strings. */
static const char *
job_str(const struct job *j, enum job_field f)
{
	return (job_strs_own_text(j->str, j->width, f));
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
static struct job_rare *
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

	job_strs_own_src(r, src);
	if (src[job_strs_slot(JF_ARGV)] == NULL)
		src[job_strs_slot(JF_ARGV)] = "[]";
	/* One allocation for the job and its own strings: a listing walks
	 * every job, and strings next to their job cost no extra cache
	 * misses. They came in one request (FRAME_MAX_REQUEST, 1 MB), so
	 * 32-bit offsets hold them; most jobs' fit in 8 bits. */
	size = job_strs_plan(src, JOB_OWN_COUNT, &plan);
	j = xcalloc(1, offsetof(struct job, str) + size);
	job_strs_fill(j->str, src, JOB_OWN_COUNT, &plan);
	j->width = plan.width;
	j->shared = job_shared_get_row(r);
	j->id = r->id;
	if (r->master_port != 0 || r->mem_peak != 0 || r->cpu_time != 0 ||
	    r->start_time != 0 || r->end_time != 0 || r->has_exit ||
	    r->exit_code != 0 || r->signal != 0 || r->restarts != 0) {
		j->run = xcalloc(1, sizeof *j->run);
		j->run->master_port = r->master_port;
		j->run->mem_peak = r->mem_peak;
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

	job_tab_add(j);
	jobs.total++;
	jobs.counts[j->state]++;
	job_waiting_add(j, j->state, 1);
	if (jobs.loading)
		job_load_add(j);
	return (j);
}

void
job_load_begin(void)
{
	jobs.loading = true;
	jobs.nloaded = 0;
}

/* Adds j to the jobs job_load_end puts in order. */
static void
job_load_add(struct job *j)
{
	if (jobs.nloaded == jobs.loaded_size) {
		jobs.loaded_size = jobs.loaded_size * 2 + 1024;
		jobs.loaded = xreallocarray(jobs.loaded, jobs.loaded_size,
		    sizeof *jobs.loaded);
	}
	jobs.loaded[jobs.nloaded].id = j->id;
	jobs.loaded[jobs.nloaded++].j = j;
}

static int
job_cmp_loaded(const void *a, const void *b)
{
	uint64_t	x = ((const struct job_loaded *)a)->id;
	uint64_t	y = ((const struct job_loaded *)b)->id;

	return (x < y ? -1 : x > y);
}

void
job_load_end(void)
{
	size_t		 i;
	bool		 sorted = true;

	jobs.loading = false;
	/* The table is what was loaded (start-up's is empty before);
	 * otherwise it is walked for what was there. */
	job_tab_close();
	if (jobs.nloaded != jobs.tab_len) {
		jobs.nloaded = 0;
		for (i = 0; i < jobs.tab_len; i++)
			job_load_add(jobs.tab[i]);
	}
	for (i = 1; i < jobs.nloaded && sorted; i++)
		sorted = jobs.loaded[i - 1].id < jobs.loaded[i].id;
	if (!sorted) {
		/* By the ids copied beside the jobs: no job is read. */
		qsort(jobs.loaded, jobs.nloaded, sizeof *jobs.loaded,
		    job_cmp_loaded);
		for (i = 0; i < jobs.nloaded; i++) {
			jobs.tab[i] = jobs.loaded[i].j;
			jobs.tab[i]->slot = (uint32_t)i;
		}
	}
	free(jobs.loaded);
	jobs.loaded = NULL;
	jobs.nloaded = jobs.loaded_size = 0;
}

void
job_set_dep_free(void (*fn)(struct job_dep *))
{
	jobs.dep_free = fn;
}

void
job_free(struct job *j)
{
	if (j == NULL)
		return;
	job_tab_remove(j);
	jobs.total--;
	jobs.counts[j->state]--;
	job_waiting_add(j, j->state, -1);
	job_run_free(j);
	job_shared_put(j->shared);
	if (j->rare != NULL) {
		if (j->rare->dep != NULL)
			jobs.dep_free(j->rare->dep);
		job_set_array_tasks(j, NULL);
		free(j->rare);
	}
	free(j);
}

void
job_free_all(void)
{
	struct job_waiting	*w;
	struct job		*j;
	size_t			 i;

	while ((j = job_first()) != NULL)
		job_free(j);
	free(jobs.tab);
	jobs.tab = NULL;
	jobs.tab_len = jobs.tab_size = jobs.tab_holes = 0;
	jobs.tab_max = 0;
	for (i = 0; i < JOB_WAITING_BUCKETS; i++) {
		while ((w = jobs.waiting[i]) != NULL) {
			jobs.waiting[i] = w->next;
			free(w);
		}
	}
}

struct job *
job_first(void)
{
	size_t	i = job_tab_skip(0, jobs.tab_len);

	return (i < jobs.tab_len ? jobs.tab[i] : NULL);
}

struct job *
job_next(const struct job *j)
{
	size_t	i = job_tab_skip(j->slot + 1, jobs.tab_len);

	return (i < jobs.tab_len ? jobs.tab[i] : NULL);
}

size_t
job_count(enum job_state s)
{
	return (jobs.counts[s]);
}

void
job_to_row(const struct job *j, struct store_job *r)
{
	const struct job_run	*run = job_run_const(j);

	memset(r, 0, sizeof *r);
	r->queue = -1;
	r->umask = -1;	/* only the store has it, as the script */
	r->id = j->id;
	job_shared_to_row(j->shared, r);
	job_strs_own_to_row(j->str, j->width, r);
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
	r->queue_delay = run->service.queue_delay;
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
uint64_t	 job_time_limit(const struct job *j)
		     { return (job_shared_num(j->shared, JF_TIME_LIMIT)); }
uint32_t	 job_flags(const struct job *j)
		     { return ((uint32_t)job_shared_num(j->shared, JF_FLAGS)); }

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

void
job_add_usage(struct job *j, uint64_t mem_peak, int64_t cpu_time)
{
	if (mem_peak > job_run_const(j)->mem_peak)
		job_run_set(j)->mem_peak = mem_peak;
	if (cpu_time > 0)
		job_run_set(j)->cpu_time += cpu_time;
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
	jobs.counts[j->state]--;
	jobs.counts[s]++;
	job_waiting_add(j, j->state, -1);
	job_waiting_add(j, s, 1);
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
	}
	if (start != 0)
		run->start_time = start;
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
	    r->preemptions == 0 && r->promotions == 0 &&
	    r->queue_delay == 0 && r->last_queue == 0)
		return;
	s = &job_run_set(j)->service;
	s->attained = r->attained;
	s->executed = r->executed;
	s->run_total = r->run_total;
	s->first_start = r->first_start;
	s->last_stop = r->last_stop;
	s->preemptions = r->preemptions;
	s->promotions = r->promotions;
	s->queue_delay = r->queue_delay;
	s->last_queue = r->last_queue;
}
