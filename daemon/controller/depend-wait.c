/* depend-wait.c: jobs that wait for other jobs (depend-wait.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/job-state.h"
#include "common/xmalloc.h"
#include "daemon/controller/depend-judge.h"
#include "daemon/controller/depend-wait.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job.h"
#include "daemon/controller/store.h"

/* A job's text parsed, and each condition's outcome once final (met or
 * never: the other job ended), so an ended job is read once. */
struct job_dep {
	uint64_t		 waiter;	/* the job it belongs to */
	struct depend		 d;
	struct depend_judge_kept *kept;		/* one per condition */
};

/* The index: the jobs named in conditions, each with its waiters. */
#define DEPEND_WAIT_BUCKETS	4096

struct depend_link {
	uint64_t		 target;
	uint64_t		 waiter;
	struct depend_link	*next;
};

/* The index from each job to the jobs waiting for it, and the waiters to
 * judge again. Global: an index over the one job table, kept beside it
 * (job-table.c) as its hook frees each job's dependency. */
static struct {
	struct depend_link	*index[DEPEND_WAIT_BUCKETS];
	uint64_t		*singletons;
	size_t			 nsingletons;
	size_t			 singletons_size;
	uint64_t		*dirty;
	size_t			 ndirty;
	size_t			 dirty_size;
} depend;

static size_t
depend_bucket(uint64_t id)
{
	return ((size_t)(id * 0x9E3779B97F4A7C15ULL >> 40) %
	    DEPEND_WAIT_BUCKETS);
}

static void
depend_push(uint64_t **a, size_t *n, size_t *size, uint64_t id)
{
	if (*n == *size) {
		*size = *size != 0 ? *size * 2 : 64;
		*a = xreallocarray(*a, *size, sizeof **a);
	}
	(*a)[(*n)++] = id;
}

/* Enters jd's conditions in the index. */
static void
depend_index_add(const struct job_dep *jd)
{
	struct depend_link	*l;
	size_t			 i;

	for (i = 0; i < jd->d.n; i++) {
		if (jd->d.items[i].type == DEPEND_SINGLETON) {
			depend_push(&depend.singletons, &depend.nsingletons,
			    &depend.singletons_size, jd->waiter);
			continue;
		}
		l = xmalloc(sizeof *l);
		l->target = jd->d.items[i].job;
		l->waiter = jd->waiter;
		l->next = depend.index[depend_bucket(l->target)];
		depend.index[depend_bucket(l->target)] = l;
	}
}

static void
depend_index_remove(const struct job_dep *jd)
{
	struct depend_link	**p, *l;
	size_t			  i, k;

	for (i = 0; i < jd->d.n; i++) {
		if (jd->d.items[i].type == DEPEND_SINGLETON) {
			for (k = 0; k < depend.nsingletons; k++) {
				if (depend.singletons[k] == jd->waiter) {
					depend.nsingletons--;
					depend.singletons[k] =
					    depend.singletons[depend.nsingletons];
					break;
				}
			}
			continue;
		}
		for (p = &depend.index[depend_bucket(jd->d.items[i].job)];
		    (l = *p) != NULL; p = &l->next) {
			if (l->target == jd->d.items[i].job &&
			    l->waiter == jd->waiter) {
				*p = l->next;
				free(l);
				break;
			}
		}
	}
}

bool
depend_wait_changed(uint64_t id)
{
	const struct depend_link	*l;
	size_t				 k, before = depend.ndirty;

	for (l = depend.index[depend_bucket(id)]; l != NULL; l = l->next) {
		if (l->target == id)
			depend_push(&depend.dirty, &depend.ndirty,
			    &depend.dirty_size, l->waiter);
	}
	for (k = 0; k < depend.nsingletons; k++)
		depend_push(&depend.dirty, &depend.ndirty, &depend.dirty_size,
		    depend.singletons[k]);
	return (depend.ndirty > before);
}

size_t
depend_wait_take(uint64_t **ids)
{
	size_t	n = depend.ndirty;

	*ids = depend.dirty;
	depend.dirty = NULL;
	depend.ndirty = depend.dirty_size = 0;
	return (n);
}

void
depend_wait_free(void)
{
	free(depend.dirty);
	free(depend.singletons);
	depend.dirty = depend.singletons = NULL;
	depend.ndirty = depend.dirty_size = 0;
	depend.nsingletons = depend.singletons_size = 0;
}

void
depend_wait_forget(struct job_dep *jd)
{
	if (jd == NULL)
		return;
	depend_index_remove(jd);
	depend_free(&jd->d);
	free(jd->kept);
	free(jd);
}

/* The state of job id: from memory while it is active, else from the
 * store. Returns 1 with *state and *started, 0 when there is no such job,
 * -1 when the store failed. */
static int
depend_wait_find(uint64_t id, enum job_state *state, bool *started)
{
	struct store_job	 row;
	struct job		*j;
	int			 r;

	if ((j = job_table_find(id)) != NULL) {
		*state = job_state(j);
		*started = job_start_time(j) != 0 ||
		    job_service(j)->first_start != 0;
		return (1);
	}
	if ((r = store_job_get(id, &row)) != 1)
		return (r);
	*state = row.state;
	*started = row.start_time != 0 || row.first_start != 0;
	store_job_done();
	return (1);
}

/* A condition over a job array's jobs (its row and its tasks, or one
 * task): each member judged (depend-judge.h), then all of them must hold. */
static void
depend_array_active(struct job *j, void *arg)
{
	struct depend_judge_array	*a = arg;

	if (!depend_judge_array_wants(a, job_array_task_id(j),
	    job_array_tasks(j)))
		return;
	depend_judge_array_add(a, job_state(j), job_start_time(j) != 0 ||
	    job_service(j)->first_start != 0);
}

static void
depend_array_ended(const struct store_job *row, void *arg)
{
	struct depend_judge_array	*a = arg;

	if (!job_state_is_terminal(row->state) || !depend_judge_array_wants(a,
	    row->array_task_id, row->array_tasks != NULL ?
	    row->array_tasks : ""))
		return;
	depend_judge_array_add(a, row->state, row->start_time != 0 ||
	    row->first_start != 0);
}

/* Whether id is a job array's id (its row in memory or the store). */
static int
depend_is_array(uint64_t id)
{
	struct store_job	 row;
	struct job		*j;
	int			 r;

	if (job_array_named(id))
		return (1);
	if ((j = job_table_find(id)) != NULL)
		return (0);
	if ((r = store_job_get(id, &row)) != 1)
		return (r == 0 ? 0 : -1);
	r = row.array_job_id == id;
	store_job_done();
	return (r);
}

/* How condition it stands now: returns 1 with *st, *state (to name in a
 * message) and *final (it can change no more), 0 when the job (or the
 * task) does not exist, -1 when the store failed. */
static int
depend_wait_item(const struct depend_item *it, enum depend_state *st,
    enum job_state *state, bool *final)
{
	struct depend_judge_array a;
	bool			 started;
	int			 r;

	if ((r = depend_is_array(it->job)) < 0)
		return (-1);
	if (r == 0) {
		if (it->task >= 0)
			return (0);
		if ((r = depend_wait_find(it->job, state, &started)) != 1)
			return (r);
		*st = depend_judge(it->type, *state, started);
		*final = job_state_is_terminal(*state);
		return (1);
	}
	depend_judge_array_start(&a, it->type, it->task);
	job_array_each(it->job, depend_array_active, &a);
	if (store_job_each_of_array(it->job, depend_array_ended, &a) != 0)
		return (-1);
	return (depend_judge_array_result(&a, st, state, final) ? 1 : 0);
}

int
depend_wait_check(const char *text, char *norm, size_t len, char *err,
    size_t errlen)
{
	struct depend	d;
	enum depend_state st;
	enum job_state	state;
	bool		final;
	char		why[512];
	size_t		i;
	int		r;

	if (depend_parse(text, &d, why, sizeof why) == -1) {
		snprintf(err, errlen, "dependency: %s", why);
		return (-1);
	}
	for (i = 0; i < d.n; i++) {
		if (d.items[i].type == DEPEND_SINGLETON)
			continue;
		if ((r = depend_wait_item(&d.items[i], &st, &state,
		    &final)) != 1) {
			if (r == 0 && d.items[i].task >= 0 &&
			    depend_wait_find(d.items[i].job, &state,
			    &final) == 1)
				snprintf(err, errlen, "dependency: job %" PRIu64
				    " has no array task %d", d.items[i].job,
				    (int)d.items[i].task);
			else
				snprintf(err, errlen, r == 0 ? "dependency: "
				    "job %" PRIu64 " does not exist" :
				    "dependency: job %" PRIu64 " could not be "
				    "read", d.items[i].job);
			depend_free(&d);
			return (-1);
		}
	}
	depend_format(&d, norm, len);
	depend_free(&d);
	return (0);
}

int
depend_wait_check_for(const struct job *j, const char *text, char *err,
    size_t errlen)
{
	struct depend	d;
	uint64_t	self = job_id(j), array = job_array_job_id(j);
	char		why[256];
	int		r = 0;

	if (*text == '\0')
		return (0);
	if (depend_parse(text, &d, why, sizeof why) == -1) {
		snprintf(err, errlen, "dependency: %s", why);
		return (-1);
	}
	/* A task may wait for its array's other tasks, not for itself nor
	 * the whole array; an array's row stands for its tasks not yet
	 * started, and waits for none of them. */
	if (depend_waits_for(&d, self, -1)) {
		snprintf(err, errlen, "dependency: job %" PRIu64 " cannot wait "
		    "for itself; it would wait forever", self);
		r = -1;
	} else if (array != 0 && depend_waits_for(&d, array,
	    job_array_task_id(j))) {
		snprintf(err, errlen, "dependency: job %" PRIu64 " cannot wait "
		    "for its own array %" PRIu64 "; it would wait forever",
		    self, array);
		r = -1;
	}
	depend_free(&d);
	return (r);
}

/* Whether an earlier job of j's user and name is still to end (Slurm's
 * singleton). */
static bool
depend_wait_earlier_twin(const struct job *j)
{
	const struct job	*o;

	for (o = job_table_first(); o != NULL && job_id(o) < job_id(j);
	    o = job_table_next(o)) {
		if (depend_judge_earlier_twin(job_id(j), job_uid(j),
		    job_name(j), job_id(o), job_uid(o), job_name(o),
		    job_state(o)))
			return (true);
	}
	return (false);
}

enum depend_state
depend_wait_judge(struct job *j, char *why, size_t len)
{
	struct job_dep		*jd = job_dep(j);
	struct depend_item	*it;
	enum depend_state	*each, st;
	enum job_state		 state;
	bool			 final;
	char			 err[256];
	size_t			 i;
	int			 r;

	if (why != NULL && len > 0)
		why[0] = '\0';
	if (*job_dependency(j) == '\0')
		return (DEPEND_MET);
	if (jd == NULL) {
		jd = xcalloc(1, sizeof *jd);
		/* Checked at submit: a text that no longer parses (a store
		 * edited by hand) can never be met. */
		if (depend_parse(job_dependency(j), &jd->d, err,
		    sizeof err) == -1) {
			if (why != NULL)
				snprintf(why, len, "%s", err);
			free(jd);
			return (DEPEND_NEVER);
		}
		jd->kept = xcalloc(jd->d.n, sizeof *jd->kept);
		jd->waiter = job_id(j);
		depend_index_add(jd);
		job_set_dep(j, jd);
	}
	each = xcalloc(jd->d.n, sizeof *each);
	for (i = 0; i < jd->d.n; i++) {
		it = &jd->d.items[i];
		state = jd->kept[i].state;
		if ((each[i] = jd->kept[i].st) != DEPEND_WAIT)
			;
		else if (it->type == DEPEND_SINGLETON) {
			each[i] = depend_wait_earlier_twin(j) ? DEPEND_WAIT :
			    DEPEND_MET;
			continue;
		} else {
			st = DEPEND_WAIT;
			final = false;
			r = depend_wait_item(it, &st, &state, &final);
			each[i] = depend_judge_found(r, st, &state, final,
			    &jd->kept[i]);
			if (r < 0)
				continue;	/* the store: next time */
		}
		if (each[i] == DEPEND_NEVER && why != NULL && why[0] == '\0')
			depend_judge_why(it, state, why, len);
	}
	st = depend_combine(&jd->d, each);
	free(each);
	return (st);
}
