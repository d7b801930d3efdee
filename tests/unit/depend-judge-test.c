/* depend-judge-test.c: how a job's dependencies stand (depend-judge.c). A
 * condition on a job array holds when it holds for every member it names
 * (all tasks, or one task, found as the task itself or in the array's row
 * while the row still stands for it); a member that can never meet it
 * decides, else one that waits; the outcome is final once no member is
 * active, and kept; a job purged from the store can never meet one; a
 * singleton waits for earlier jobs of its user and name that are still to
 * end; a job that can never start is cancelled by its own word, else the
 * cluster's. */
#include <stdio.h>
#include <string.h>

#include "daemon/controller/depend-judge.h"
#include "daemon/controller/job.h"
#include "tests/unit/tap.h"

static void
test_array(void)
{
	struct depend_judge_array	a;
	enum depend_state		st;
	enum job_state			state;
	bool				final;

	depend_judge_array_start(&a, DEPEND_AFTEROK, -1);
	ok(!depend_judge_array_result(&a, &st, &state, &final),
	    "no member found: no such job or task");

	depend_judge_array_start(&a, DEPEND_AFTEROK, -1);
	depend_judge_array_add(&a, JOB_COMPLETED, true);
	depend_judge_array_add(&a, JOB_COMPLETED, true);
	ok(depend_judge_array_result(&a, &st, &state, &final) &&
	    st == DEPEND_MET && state == JOB_COMPLETED && final,
	    "afterok: every member completed: met, final");

	depend_judge_array_start(&a, DEPEND_AFTEROK, -1);
	depend_judge_array_add(&a, JOB_COMPLETED, true);
	depend_judge_array_add(&a, JOB_RUNNING, true);
	depend_judge_array_add(&a, JOB_PENDING, false);
	ok(depend_judge_array_result(&a, &st, &state, &final) &&
	    st == DEPEND_WAIT && state == JOB_RUNNING && !final,
	    "a member still running: waits, named by the first that waits");

	depend_judge_array_start(&a, DEPEND_AFTEROK, -1);
	depend_judge_array_add(&a, JOB_RUNNING, true);
	depend_judge_array_add(&a, JOB_FAILED, true);
	depend_judge_array_add(&a, JOB_TIMEOUT, true);
	depend_judge_array_add(&a, JOB_PENDING, false);
	ok(depend_judge_array_result(&a, &st, &state, &final) &&
	    st == DEPEND_NEVER && state == JOB_FAILED,
	    "a member failed: never, named by the first that failed");
	ok(!final, "not final while a member is active");

	depend_judge_array_start(&a, DEPEND_AFTEROK, -1);
	depend_judge_array_add(&a, JOB_CANCELLED, false);
	depend_judge_array_add(&a, JOB_COMPLETED, true);
	ok(depend_judge_array_result(&a, &st, &state, &final) &&
	    st == DEPEND_NEVER && state == JOB_CANCELLED && final,
	    "every member ended, one cancelled: never, final");

	depend_judge_array_start(&a, DEPEND_AFTERANY, -1);
	depend_judge_array_add(&a, JOB_FAILED, true);
	depend_judge_array_add(&a, JOB_CANCELLED, false);
	ok(depend_judge_array_result(&a, &st, &state, &final) &&
	    st == DEPEND_MET && final, "afterany: every member ended, "
	    "however: met");

	depend_judge_array_start(&a, DEPEND_AFTERNOTOK, -1);
	depend_judge_array_add(&a, JOB_FAILED, true);
	depend_judge_array_add(&a, JOB_COMPLETED, true);
	ok(depend_judge_array_result(&a, &st, &state, &final) &&
	    st == DEPEND_NEVER && state == JOB_COMPLETED,
	    "afternotok: a member completed: never");

	depend_judge_array_start(&a, DEPEND_AFTER, -1);
	depend_judge_array_add(&a, JOB_RUNNING, true);
	depend_judge_array_add(&a, JOB_PENDING, true);
	ok(depend_judge_array_result(&a, &st, &state, &final) &&
	    st == DEPEND_MET && !final, "after: every member has started "
	    "(a requeued one too): met, not final");
	depend_judge_array_add(&a, JOB_PENDING, false);
	ok(depend_judge_array_result(&a, &st, &state, &final) &&
	    st == DEPEND_WAIT && state == JOB_PENDING, "one never started: "
	    "waits");
}

static void
test_wants(void)
{
	struct depend_judge_array	a;

	depend_judge_array_start(&a, DEPEND_AFTEROK, -1);
	ok(depend_judge_array_wants(&a, 4, "") &&
	    depend_judge_array_wants(&a, -1, "5-9"), "every task asked: "
	    "every member");
	depend_judge_array_start(&a, DEPEND_AFTEROK, 3);
	ok(depend_judge_array_wants(&a, 3, ""), "task 3 asked: task 3");
	ok(!depend_judge_array_wants(&a, 2, ""), "not task 2");
	ok(!depend_judge_array_wants(&a, 2, "1-5"), "a task is only itself");
	ok(depend_judge_array_wants(&a, -1, "1-5"), "the row standing for "
	    "tasks 1-5 stands for 3");
	ok(depend_judge_array_wants(&a, -1, "0,3,7"), "and for 0,3,7");
	ok(!depend_judge_array_wants(&a, -1, "1,2,4-9"), "not for 1,2,4-9");
	ok(!depend_judge_array_wants(&a, -1, ""), "a row standing for no "
	    "task stands for none");
	ok(!depend_judge_array_wants(&a, -1, NULL), "nor does one without "
	    "tasks");
	ok(!depend_judge_array_wants(&a, -1, "3-x"), "a row whose tasks do "
	    "not read stands for none");
}

static void
test_found(void)
{
	struct depend_judge_kept	kept;
	enum job_state			state;

	memset(&kept, 0, sizeof kept);
	state = JOB_RUNNING;
	is_int(depend_judge_found(-1, DEPEND_MET, &state, true, &kept),
	    DEPEND_WAIT, "the store failed: it waits");
	is_int(kept.st, DEPEND_WAIT, "nothing kept");

	state = JOB_RUNNING;
	is_int(depend_judge_found(1, DEPEND_WAIT, &state, false, &kept),
	    DEPEND_WAIT, "found running: it waits");
	is_int(kept.st, DEPEND_WAIT, "nothing kept while it can change");

	state = JOB_FAILED;
	is_int(depend_judge_found(1, DEPEND_NEVER, &state, true, &kept),
	    DEPEND_NEVER, "found failed: never");
	ok(kept.st == DEPEND_NEVER && kept.state == JOB_FAILED,
	    "kept, with the state to name");

	memset(&kept, 0, sizeof kept);
	state = JOB_COMPLETED;
	is_int(depend_judge_found(1, DEPEND_MET, &state, true, &kept),
	    DEPEND_MET, "found completed: met");
	ok(kept.st == DEPEND_MET && kept.state == JOB_COMPLETED, "kept");

	memset(&kept, 0, sizeof kept);
	state = JOB_PENDING;
	is_int(depend_judge_found(0, DEPEND_WAIT, &state, false, &kept),
	    DEPEND_NEVER, "gone from the store: never");
	is_int(state, JOB_STATE_COUNT, "named as purged");
	ok(kept.st == DEPEND_NEVER && kept.state == JOB_STATE_COUNT,
	    "and kept so");
}

static void
test_twin(void)
{
	ok(depend_judge_earlier_twin(10, 1000, "train", 7, 1000, "train",
	    JOB_PENDING), "an earlier pending job of the same user and name");
	ok(depend_judge_earlier_twin(10, 1000, "train", 7, 1000, "train",
	    JOB_PREEMPTING), "or one being preempted");
	ok(!depend_judge_earlier_twin(10, 1000, "train", 7, 1000, "train",
	    JOB_COMPLETED), "not one that ended");
	ok(!depend_judge_earlier_twin(10, 1000, "train", 12, 1000, "train",
	    JOB_RUNNING), "not a later one");
	ok(!depend_judge_earlier_twin(10, 1000, "train", 10, 1000, "train",
	    JOB_PENDING), "not itself");
	ok(!depend_judge_earlier_twin(10, 1000, "train", 7, 1001, "train",
	    JOB_RUNNING), "not another user's");
	ok(!depend_judge_earlier_twin(10, 1000, "train", 7, 1000, "train2",
	    JOB_RUNNING), "not another name");
}

static void
test_text(void)
{
	struct depend_item	it = { DEPEND_AFTEROK, 12, -1 };
	char			why[100], msg[160];

	depend_judge_why(&it, JOB_FAILED, why, sizeof why);
	is_str(why, "afterok:12: job 12 FAILED", "a job that failed");
	it.task = 3;
	depend_judge_why(&it, JOB_CANCELLED, why, sizeof why);
	is_str(why, "afterok:12_3: job 12_3 CANCELLED", "a task");
	it.type = DEPEND_AFTERANY;
	it.job = 7;
	it.task = -1;
	depend_judge_why(&it, JOB_STATE_COUNT, why, sizeof why);
	is_str(why, "afterany:7: job 7 is gone (purged)", "a purged job");
	depend_judge_never_text("afterok:12: job 12 FAILED", msg, sizeof msg);
	is_str(msg, "its dependency can never be satisfied (afterok:12: job "
	    "12 FAILED)", "the cancelled job's message");
}

static void
test_kills(void)
{
	ok(!depend_judge_kills(0, false), "no word: the cluster keeps it");
	ok(depend_judge_kills(0, true), "no word: the cluster cancels it");
	ok(depend_judge_kills(JOB_F_KILL_INVALID_DEP, false),
	    "--kill-on-invalid-dep=yes cancels whatever the cluster says");
	ok(!depend_judge_kills(JOB_F_KEEP_INVALID_DEP, true),
	    "--kill-on-invalid-dep=no keeps whatever the cluster says");
	ok(depend_judge_kills(JOB_F_KEEP_INVALID_DEP | JOB_F_NO_REQUEUE |
	    JOB_F_KILL_INVALID_DEP, false), "both words: yes wins");
	ok(!depend_judge_kills(JOB_F_NO_REQUEUE | JOB_F_APPEND, false),
	    "other flags are no word");
}

int
main(void)
{
	test_array();
	test_wants();
	test_found();
	test_twin();
	test_text();
	test_kills();
	return (tap_done());
}
