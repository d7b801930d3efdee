/* step-rows-test.c: a job's task records grouped into its steps
 * (client/step-rows.c): by job and first task, nodes once each, the
 * step's state and exit from its tasks', its times. */
#include <string.h>

#include <jansson.h>

#include "client/step-rows.h"
#include "tests/unit/tap.h"

static json_t *
t_task(uint64_t job, unsigned step, unsigned first, const char *node,
    const char *state, int code, int sig, long start, long end)
{
	return (json_pack("{s:I,s:i,s:i,s:s,s:s,s:i,s:i,s:I,s:I,s:s}", "job",
	    (json_int_t)job, "step", step, "first", first, "node", node,
	    "state", state, "exit_code", code, "signal", sig, "start_time",
	    (json_int_t)start, "end_time", (json_int_t)end, "command",
	    step == first ? "python3 train.py" : "other"));
}

int
main(void)
{
	json_t		*a = json_array();
	struct step_row	*r;
	size_t		 n;

	r = step_rows_group(a, &n);
	ok(r == NULL && n == 0, "no task: no step");
	/* Job 7: step 5 of four tasks on n1, n1, n2, n2; step 9 of one, on
	 * n2, still running; job 3's step 2, cancelled. Any order. */
	json_array_append_new(a, t_task(7, 8, 5, "n2", "FAILED", 3, 0, 12, 20));
	json_array_append_new(a, t_task(7, 5, 5, "n1", "COMPLETED", 0, 0, 10,
	    18));
	json_array_append_new(a, t_task(7, 9, 9, "n2", "RUNNING", 0, 0, 30, 0));
	json_array_append_new(a, t_task(7, 6, 5, "n1", "COMPLETED", 0, 0, 11,
	    19));
	json_array_append_new(a, t_task(7, 7, 5, "n2", "COMPLETED", 0, 0, 11,
	    25));
	json_array_append_new(a, t_task(3, 2, 2, "n1", "CANCELLED", 0, 15, 1,
	    4));
	r = step_rows_group(a, &n);
	is_int(n, 3, "three steps");
	ok(r[0].job == 3 && r[0].step == 2 && r[1].job == 7 && r[1].step == 5 &&
	    r[2].step == 9, "by job, then step");
	is_int(r[1].ntasks, 4, "step 5: four tasks");
	is_str(r[1].nodes, "n2,n1", "its nodes once each, as they came");
	is_int(r[1].nnodes, 2, "two nodes");
	is_str(r[1].state, "FAILED", "one task failed: the step failed");
	is_int(r[1].exit_code, 3, "with the highest status");
	ok(r[1].start_time == 10 && r[1].end_time == 25,
	    "from the first start to the last end");
	is_str(r[1].command, "python3 train.py", "the first task's command");
	is_str(r[2].state, "RUNNING", "step 9 runs");
	is_int(r[2].end_time, 0, "and has no end");
	is_str(r[0].state, "CANCELLED", "job 3's step was cancelled");
	is_int(r[0].signal, 15, "by SIGTERM");
	step_rows_free(r, n);
	json_decref(a);
	return (tap_done());
}
