/* job-array.c: splitting tasks off a job array's own row. */
#include <inttypes.h>
#include <stdio.h>

#include "common/array.h"
#include "common/log.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job.h"
#include "daemon/controller/store.h"

bool
job_array_is_row(const struct job *j)
{
	struct array_set	*left;

	left = job_array_left((struct job *)j);
	return (left != NULL && array_count(left) > 0);
}

struct job *
job_array_split(struct job *j, uint32_t task)
{
	struct array_set	*left = job_array_left(j);
	struct store_job	 row;
	struct job		*t;
	uint64_t		 id;
	char			 detail[64];

	if (left == NULL || !array_has(left, task)) {
		log_warn("job %" PRIu64 ": array task %" PRIu32 " is not one "
		    "it stands for", job_id(j), task);
		return (NULL);
	}
	if (array_count(left) == 1) {
		job_set_array_task(j, (int)task);
		job_to_row(j, &row);
		return (store_job_update(&row) == 0 ? j : NULL);
	}
	id = store_job_next_id();
	if (store_job_copy(job_id(j), id, (int)task) != 0)
		return (NULL);
	snprintf(detail, sizeof detail, "task %" PRIu32 " of array %" PRIu64,
	    task, job_array_job_id(j));
	(void)store_event_insert(id, ctx_now(), "",
	    job_state_name(job_state(j)), detail);
	job_to_row(j, &row);
	row.id = id;
	row.array_task_id = (int)task;
	row.array_tasks = "";
	t = job_create(&row);
	(void)array_remove(left, task);
	job_array_left_changed(j);
	job_to_row(j, &row);
	(void)store_job_update(&row);
	return (t);
}

/* The first active job that may be of array id: its tasks have ids from
 * the array's on, and the array's own row may have ended. */
static struct job *
job_array_from(uint64_t id)
{
	struct job	*j;

	if ((j = job_table_find(id)) == NULL) {
		for (j = job_table_first(); j != NULL && job_id(j) < id;
		    j = job_table_next(j))
			;
	}
	return (j);
}

struct job *
job_array_task(uint64_t id, uint32_t task, bool split)
{
	struct job	*j, *row = NULL;

	for (j = job_array_from(id); j != NULL; j = job_table_next(j)) {
		if (job_array_job_id(j) != id)
			continue;
		if (job_array_task_id(j) == (int)task)
			return (j);
		if (job_array_is_row(j))
			row = j;
	}
	if (row == NULL || !array_has(job_array_left(row), task) || !split)
		return (NULL);
	return (job_array_split(row, task));
}

bool
job_array_named(uint64_t id)
{
	struct job	*j;

	/* A job of that id is the array's, or no array has the id. */
	if ((j = job_table_find(id)) != NULL)
		return (job_array_job_id(j) == id);
	for (j = job_array_from(id); j != NULL; j = job_table_next(j)) {
		if (job_array_job_id(j) == id)
			return (true);
	}
	return (false);
}

void
job_array_each(uint64_t id, void (*fn)(struct job *, void *), void *arg)
{
	struct job	*j, *next;

	for (j = job_array_from(id); j != NULL; j = next) {
		next = job_table_next(j);
		if (job_array_job_id(j) == id)
			fn(j, arg);
	}
}
