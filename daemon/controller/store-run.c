/* store-run.c: job_runs, a job's runs from each start to the stop that
 * ended it (store.h), written in the group transaction with the
 * transition they record. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <sqlite3.h>

#include "daemon/controller/store-int.h"
#include "daemon/controller/store.h"

int
store_run_start(uint64_t job, uint32_t run, int64_t start, uint32_t gpus,
    const char *alloc, const char *partition)
{
	sqlite3_stmt	*st = store_stmt(STORE_RUN_START);

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":job"), (sqlite3_int64)job);
	sqlite3_bind_int64(st, store_param(st, ":run"), run);
	sqlite3_bind_int64(st, store_param(st, ":start"), start);
	sqlite3_bind_int64(st, store_param(st, ":gpus"), gpus);
	store_bind_text(st, store_param(st, ":alloc"), alloc);
	store_bind_text(st, store_param(st, ":partition"), partition);
	return (store_step_done(st, "insert job run"));
}

int
store_run_end(uint64_t job, int64_t end, const char *state, bool has_exit,
    int exit_code, int signal)
{
	sqlite3_stmt	*st = store_stmt(STORE_RUN_END);

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":job"), (sqlite3_int64)job);
	sqlite3_bind_int64(st, store_param(st, ":end"), end);
	store_bind_text(st, store_param(st, ":state"), state);
	if (has_exit) {
		sqlite3_bind_int(st, store_param(st, ":exit_code"), exit_code);
		sqlite3_bind_int(st, store_param(st, ":signal"), signal);
	}
	return (store_step_done(st, "end job run"));
}

int
store_run_preempt(uint64_t job, int64_t when)
{
	sqlite3_stmt	*st = store_stmt(STORE_RUN_PREEMPT);

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":job"), (sqlite3_int64)job);
	sqlite3_bind_int64(st, store_param(st, ":time"), when);
	return (store_step_done(st, "mark job run preempted"));
}

int
store_run_reopen(uint64_t job)
{
	sqlite3_stmt	*st = store_stmt(STORE_RUN_REOPEN);

	if (store_begin() != 0)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":job"), (sqlite3_int64)job);
	return (store_step_done(st, "reopen job run"));
}

int
store_run_open_alloc(uint64_t job, char *buf, size_t len)
{
	sqlite3_stmt	*st = store_stmt(STORE_RUN_OPEN_ALLOC);
	const char	*text;
	int		 rc = -1;

	sqlite3_bind_int64(st, store_param(st, ":job"), (sqlite3_int64)job);
	if (sqlite3_step(st) == SQLITE_ROW) {
		text = store_column_text(st, 0);
		if (strlen(text) < len) {
			memcpy(buf, text, strlen(text) + 1);
			rc = 0;
		}
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return (rc);
}

void
store_run_read(sqlite3_stmt *st, struct store_run *r)
{
	memset(r, 0, sizeof *r);
	r->run = (uint32_t)sqlite3_column_int64(st, 0);
	r->start_time = sqlite3_column_int64(st, 1);
	r->end_time = sqlite3_column_int64(st, 2);
	r->gpus = (uint32_t)sqlite3_column_int64(st, 3);
	r->alloc = store_column_text(st, 4);
	r->end_state = store_column_text(st, 5);
	if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
		r->has_exit = true;
		r->exit_code = sqlite3_column_int(st, 6);
		r->signal = sqlite3_column_int(st, 7);
	}
	r->preempt_time = sqlite3_column_int64(st, 8);
}
