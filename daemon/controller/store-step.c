/* store-step.c: job_steps, the tasks of the steps started inside running
 * jobs (store.h): a row as a task starts, its end as it is reported. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <sqlite3.h>

#include "common/log.h"
#include "daemon/controller/store-int.h"
#include "daemon/controller/store.h"

int
store_step_start(const struct store_step *s)
{
	sqlite3_stmt	*st = store_stmt(STORE_STEP_START);

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":job"), (sqlite3_int64)s->job);
	sqlite3_bind_int64(st, store_param(st, ":step"), s->step);
	sqlite3_bind_int64(st, store_param(st, ":first"), s->first);
	store_bind_text(st, store_param(st, ":user"), s->user);
	store_bind_text(st, store_param(st, ":node"), s->node);
	sqlite3_bind_int64(st, store_param(st, ":task"), s->task);
	sqlite3_bind_int64(st, store_param(st, ":ntasks"), s->ntasks);
	store_bind_text(st, store_param(st, ":command"), s->command);
	sqlite3_bind_int64(st, store_param(st, ":start"), s->start_time);
	return (store_step_done(st, "insert job step"));
}

int
store_step_end(uint64_t job, uint32_t step, int64_t end, const char *state,
    int exit_code, int signal)
{
	sqlite3_stmt	*st = store_stmt(STORE_STEP_END);

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":job"), (sqlite3_int64)job);
	sqlite3_bind_int64(st, store_param(st, ":step"), step);
	sqlite3_bind_int64(st, store_param(st, ":end"), end);
	store_bind_text(st, store_param(st, ":state"), state);
	sqlite3_bind_int(st, store_param(st, ":exit_code"), exit_code);
	sqlite3_bind_int(st, store_param(st, ":signal"), signal);
	return (store_step_done(st, "end job step"));
}

int
store_step_close(uint64_t job, int64_t end, const char *state)
{
	sqlite3_stmt	*st = store_stmt(STORE_STEP_CLOSE);

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":job"), (sqlite3_int64)job);
	sqlite3_bind_int64(st, store_param(st, ":end"), end);
	store_bind_text(st, store_param(st, ":state"), state);
	return (store_step_done(st, "close job steps"));
}

uint32_t
store_step_max(void)
{
	sqlite3_stmt	*st = store_stmt(STORE_STEP_MAX);
	int64_t		 v = 0;

	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return (v > 0 && v <= UINT32_MAX ? (uint32_t)v : 0);
}

int
store_step_list(uint64_t job, store_step_cb cb, void *arg)
{
	sqlite3_stmt		*st = store_stmt(STORE_STEPS_OF);
	struct store_step	 s;
	int			 rc;

	sqlite3_bind_int64(st, 1, (sqlite3_int64)job);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&s, 0, sizeof s);
		s.job = job;
		s.step = (uint32_t)sqlite3_column_int64(st, 0);
		s.first = (uint32_t)sqlite3_column_int64(st, 1);
		s.user = store_column_text(st, 2);
		s.node = store_column_text(st, 3);
		s.task = (uint32_t)sqlite3_column_int64(st, 4);
		s.ntasks = (uint32_t)sqlite3_column_int64(st, 5);
		s.command = store_column_text(st, 6);
		s.start_time = sqlite3_column_int64(st, 7);
		s.end_time = sqlite3_column_int64(st, 8);
		s.state = store_column_text(st, 9);
		if (sqlite3_column_type(st, 10) != SQLITE_NULL) {
			s.has_exit = true;
			s.exit_code = sqlite3_column_int(st, 10);
			s.signal = sqlite3_column_int(st, 11);
		}
		cb(&s, arg);
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		log_error("job %" PRIu64 ": reading its steps: %s", job,
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	return (0);
}
