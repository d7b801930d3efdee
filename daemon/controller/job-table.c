/* job-table.c: the controller's jobs not yet finished, in an array in id
 * order: found by a binary search, walked by listings, counted by state
 * and by user (job.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/job-int.h"
#include "daemon/controller/job-shared.h"
#include "daemon/controller/job.h"

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

/* The controller's jobs: the one table of them. Global: every floor above
 * finds a job by its id (job_table_find) without being handed the table;
 * one controller a process. */
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
	/* The blocks of strings and numbers jobs share (job-shared.h). */
	struct job_shared_tab	  shared;
	/* Frees a job's parsed dependency: the module that judges
	 * dependencies made it (depend-wait.c), and gbatchd.c says how. */
	void			(*dep_free)(struct job_dep *);
	/* Who hears of each transition, in order (job_table_listen). */
	job_listener_fn		  listeners[JOB_LISTENERS];
	size_t			  nlisteners;
} jobs;

struct job_shared_tab *
job_table_shared(void)
{
	return (&jobs.shared);
}

void
job_table_set_dep_free(void (*fn)(struct job_dep *))
{
	jobs.dep_free = fn;
}

void
job_table_dep_free(struct job_dep *dep)
{
	jobs.dep_free(dep);
}

void
job_table_listen(job_listener_fn fn)
{
	/* A programmer's error: the root registers a fixed few. */
	if (jobs.nlisteners == JOB_LISTENERS) {
		log_error("job_table_listen: more than %d listeners",
		    JOB_LISTENERS);
		abort();
	}
	jobs.listeners[jobs.nlisteners++] = fn;
}

void
job_table_tell(struct job *j, enum job_state from, enum job_state to,
    const struct store_job *row)
{
	size_t	i;

	for (i = 0; i < jobs.nlisteners; i++)
		jobs.listeners[i](j, from, to, row);
}

static bool
job_table_is_waiting(enum job_state s)
{
	return (s == JOB_PENDING || s == JOB_HELD);
}

static struct job_waiting *
job_table_waiting_get(uint32_t uid, bool create)
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
job_table_waiting_add(const struct job *j, enum job_state s, int add)
{
	if (!job_table_is_waiting(s))
		return;
	if (add > 0)
		job_table_waiting_get(job_uid(j), true)->n++;
	else
		job_table_waiting_get(job_uid(j), true)->n--;
}

size_t
job_table_waiting_of(uint32_t uid)
{
	struct job_waiting	*w = job_table_waiting_get(uid, false);

	return (w != NULL ? w->n : 0);
}

/* The first slot from i on that holds a job, end if none before it. */
static size_t
job_table_skip(size_t i, size_t end)
{
	while (i < end && jobs.tab[i] == NULL)
		i++;
	return (i);
}

/* Moves every job down over the holes. */
static void
job_table_close(void)
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
job_table_lower(uint64_t id)
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
job_table_place(struct job *j)
{
	size_t	at, i;

	if (jobs.tab_len == jobs.tab_size) {
		if (jobs.tab_holes > 0)
			job_table_close();
		if (jobs.tab_len == jobs.tab_size) {
			jobs.tab_size = jobs.tab_size * 2 + 1024;
			jobs.tab = xreallocarray(jobs.tab, jobs.tab_size,
			    sizeof *jobs.tab);
		}
	}
	at = jobs.tab_len;
	if (j->id < jobs.tab_max && !jobs.loading) {
		job_table_close();
		at = job_table_lower(j->id);
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
job_table_unplace(struct job *j)
{
	jobs.tab[j->slot] = NULL;
	jobs.tab_holes++;
	while (jobs.tab_len > 0 && jobs.tab[jobs.tab_len - 1] == NULL) {
		jobs.tab_len--;
		jobs.tab_holes--;
	}
	if (jobs.tab_holes > 0 && jobs.tab_holes >= jobs.tab_len / 4)
		job_table_close();
}

struct job *
job_table_find(uint64_t id)
{
	size_t	lo = 0, hi = jobs.tab_len, mid, at;

	/* A binary search in which a probe landing on a hole reads the
	 * first job after it, before hi. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		at = job_table_skip(mid, hi);
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

void
job_table_load_begin(void)
{
	jobs.loading = true;
	jobs.nloaded = 0;
}

/* Adds j to the jobs job_load_end puts in order. */
static void
job_table_load_add(struct job *j)
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
job_table_cmp_loaded(const void *a, const void *b)
{
	uint64_t	x = ((const struct job_loaded *)a)->id;
	uint64_t	y = ((const struct job_loaded *)b)->id;

	return (x < y ? -1 : x > y);
}

void
job_table_load_end(void)
{
	size_t		 i;
	bool		 sorted = true;

	jobs.loading = false;
	/* The table is what was loaded (start-up's is empty before);
	 * otherwise it is walked for what was there. */
	job_table_close();
	if (jobs.nloaded != jobs.tab_len) {
		jobs.nloaded = 0;
		for (i = 0; i < jobs.tab_len; i++)
			job_table_load_add(jobs.tab[i]);
	}
	for (i = 1; i < jobs.nloaded && sorted; i++)
		sorted = jobs.loaded[i - 1].id < jobs.loaded[i].id;
	if (!sorted) {
		/* By the ids copied beside the jobs: no job is read. */
		qsort(jobs.loaded, jobs.nloaded, sizeof *jobs.loaded,
		    job_table_cmp_loaded);
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
job_table_free_all(void)
{
	struct job_waiting	*w;
	struct job		*j;
	size_t			 i;

	while ((j = job_table_first()) != NULL)
		job_free(j);
	free(jobs.tab);
	jobs.tab = NULL;
	jobs.tab_len = jobs.tab_size = jobs.tab_holes = 0;
	jobs.tab_max = 0;
	jobs.nlisteners = 0;
	for (i = 0; i < JOB_WAITING_BUCKETS; i++) {
		while ((w = jobs.waiting[i]) != NULL) {
			jobs.waiting[i] = w->next;
			free(w);
		}
	}
}

struct job *
job_table_first(void)
{
	size_t	i = job_table_skip(0, jobs.tab_len);

	return (i < jobs.tab_len ? jobs.tab[i] : NULL);
}

struct job *
job_table_next(const struct job *j)
{
	size_t	i = job_table_skip(j->slot + 1, jobs.tab_len);

	return (i < jobs.tab_len ? jobs.tab[i] : NULL);
}

size_t
job_table_count(enum job_state s)
{
	return (jobs.counts[s]);
}

void
job_table_add(struct job *j)
{
	job_table_place(j);
	jobs.total++;
	jobs.counts[j->state]++;
	job_table_waiting_add(j, j->state, 1);
	if (jobs.loading)
		job_table_load_add(j);
}

void
job_table_remove(struct job *j)
{
	job_table_unplace(j);
	jobs.total--;
	jobs.counts[j->state]--;
	job_table_waiting_add(j, j->state, -1);
}

void
job_table_state(struct job *j, enum job_state to)
{
	jobs.counts[j->state]--;
	jobs.counts[to]++;
	job_table_waiting_add(j, j->state, -1);
	job_table_waiting_add(j, to, 1);
}
