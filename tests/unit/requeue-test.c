/* requeue-test.c: the rules of a job going back to the queue (requeue.c).
 * A cancelled job ends CANCELLED however its process died; a preempted job
 * waits again (Preempted), a gang that stopped after a lost or killed part
 * too (PartLost); a requeue counts a restart and clears where the job ran;
 * a re-adopted run takes back its requeue's restart and the service the
 * requeue credited, never going below zero. */
#include <stdio.h>
#include <string.h>

#include "daemon/controller/requeue.h"
#include "tests/unit/tap.h"

static void
end_is(enum job_state state, bool cancel, bool stopping, enum job_state ended,
    enum job_state to, const char *reason, const char *detail,
    const char *what)
{
	struct requeue_end	e;

	requeue_end(state, cancel, stopping, ended, &e);
	if (!ok(e.to == to && (reason == NULL ? e.reason == NULL :
	    e.reason != NULL && strcmp(e.reason, reason) == 0) &&
	    (detail == NULL ? e.detail == NULL : e.detail != NULL &&
	    strcmp(e.detail, detail) == 0), "%s", what))
		printf("#   got %s, %s, %s\n", job_state_name(e.to),
		    e.reason != NULL ? e.reason : "(null)",
		    e.detail != NULL ? e.detail : "(null)");
}

static void
test_end(void)
{
	const char	*pre = "stopped after its preemption; requeued";
	const char	*lost = "its other parts stopped after one was lost; "
			    "requeued";

	end_is(JOB_RUNNING, false, false, JOB_COMPLETED, JOB_COMPLETED, NULL,
	    NULL, "a run that completes: COMPLETED");
	end_is(JOB_RUNNING, false, false, JOB_FAILED, JOB_FAILED, NULL, NULL,
	    "a run that fails: FAILED");
	end_is(JOB_RUNNING, false, false, JOB_TIMEOUT, JOB_TIMEOUT, NULL,
	    NULL, "a run past its limit: TIMEOUT");
	end_is(JOB_RUNNING, true, false, JOB_FAILED, JOB_CANCELLED, NULL, NULL,
	    "cancelled, it ends CANCELLED whatever its process died of");
	end_is(JOB_RUNNING, true, false, JOB_COMPLETED, JOB_CANCELLED, NULL,
	    NULL, "even when it exited 0");
	end_is(JOB_PREEMPTING, true, false, JOB_COMPLETED, JOB_CANCELLED, NULL,
	    NULL, "cancelled while preempted: CANCELLED, not requeued");
	end_is(JOB_PREEMPTING, true, true, JOB_FAILED, JOB_CANCELLED, NULL,
	    NULL, "a cancelled gang that lost a part: CANCELLED");
	end_is(JOB_PREEMPTING, false, false, JOB_COMPLETED, JOB_PENDING,
	    "Preempted", pre, "preempted, checkpointed and exited 0: "
	    "requeued, Preempted");
	end_is(JOB_PREEMPTING, false, false, JOB_FAILED, JOB_PENDING,
	    "Preempted", pre, "preempted and killed after the grace: "
	    "requeued all the same");
	end_is(JOB_PREEMPTING, false, true, JOB_NODE_FAIL, JOB_PENDING,
	    "PartLost", lost, "a gang that stopped after a lost part: "
	    "PartLost");
	end_is(JOB_RUNNING, false, true, JOB_FAILED, JOB_FAILED, NULL, NULL,
	    "a gang stopped after its first failure ends as it");
}

static void
test_row(void)
{
	struct store_job	row;

	ok(requeue_is_requeue(JOB_RUNNING, JOB_PENDING), "RUNNING -> PENDING "
	    "is a requeue");
	ok(requeue_is_requeue(JOB_PREEMPTING, JOB_PENDING), "PREEMPTING -> "
	    "PENDING is");
	ok(!requeue_is_requeue(JOB_HELD, JOB_PENDING), "a release is not");
	ok(!requeue_is_requeue(JOB_RUNNING, JOB_FAILED), "an end is not");
	ok(!requeue_is_requeue(JOB_RUNNING, JOB_PREEMPTING), "a preemption "
	    "begun is not yet");

	memset(&row, 0, sizeof row);
	row.node = "n1";
	row.gpu_mask = 0xf;
	row.start_time = 100;
	row.restarts = 2;
	requeue_pending_row(&row, JOB_RUNNING, NULL);
	ok(row.node == NULL && row.gpu_mask == 0 && row.start_time == 0,
	    "requeued: no node, no GPUs, no start");
	is_int(row.restarts, 3, "a restart counted");
	is_str(row.reason, "Requeued", "reason Requeued unless told");
	row.restarts = 0;
	requeue_pending_row(&row, JOB_PREEMPTING, "Preempted");
	is_int(row.restarts, 1, "a preemption's requeue counts a restart");
	is_str(row.reason, "Preempted", "with the reason given");
	row.restarts = 4;
	requeue_pending_row(&row, JOB_HELD, "BeginTime");
	is_int(row.restarts, 4, "a release counts none");
	is_str(row.reason, "BeginTime", "and keeps its reason");

	is_str(requeue_run_end(JOB_RUNNING, JOB_COMPLETED), "COMPLETED",
	    "a run that ended: its state");
	is_str(requeue_run_end(JOB_PREEMPTING, JOB_CANCELLED), "CANCELLED",
	    "cancelled while preempted: CANCELLED");
	is_str(requeue_run_end(JOB_PREEMPTING, JOB_PENDING), "PREEMPTED",
	    "stopped for a preemption: PREEMPTED");
	is_str(requeue_run_end(JOB_RUNNING, JOB_PENDING), "REQUEUED",
	    "requeued (a lost node, gctl requeue): REQUEUED");
}

static void
test_readopt(void)
{
	struct store_job	row;

	/* Ran from 100 s on 4 GPUs; requeued at 110 s: the requeue
	 * credited 10 s, 40 GPU-s. */
	memset(&row, 0, sizeof row);
	row.start_time = 100;
	row.last_stop = 110000;
	row.restarts = 1;
	row.attained = 50000;
	row.executed = 12000;
	row.run_total = 15000;
	requeue_readopt(&row, 4);
	is_int(row.restarts, 0, "the requeue's restart is taken back");
	is_int(row.attained, 10000, "and its 40 GPU-s");
	is_int(row.executed, 2000, "and its 10 s executed");
	is_int(row.run_total, 5000, "and its 10 s of run time");

	/* Counters smaller than the credit (a promotion reset executed):
	 * down to zero, never below. */
	memset(&row, 0, sizeof row);
	row.start_time = 100;
	row.last_stop = 110000;
	row.restarts = 0;
	row.attained = 30000;
	row.executed = 4000;
	row.run_total = 10000;
	requeue_readopt(&row, 4);
	is_int(row.restarts, 0, "no restart to take back: 0 stays 0");
	is_int(row.attained, 0, "attained goes to 0, not below");
	is_int(row.executed, 0, "executed goes to 0, not below");
	is_int(row.run_total, 0, "run time exactly the credit: 0");

	/* The stop came before the start (a clock stepped back): only the
	 * restart is taken back. */
	memset(&row, 0, sizeof row);
	row.start_time = 200;
	row.last_stop = 150000;
	row.restarts = 3;
	row.attained = 7;
	row.executed = 8;
	row.run_total = 9;
	requeue_readopt(&row, 2);
	is_int(row.restarts, 2, "a stop before the start: the restart goes");
	ok(row.attained == 7 && row.executed == 8 && row.run_total == 9,
	    "and the service stays");
	row.last_stop = 200000;
	requeue_readopt(&row, 2);
	ok(row.restarts == 1 && row.attained == 7, "a stop at the start "
	    "credited nothing either");
}

int
main(void)
{
	test_end();
	test_row();
	test_readopt();
	return (tap_done());
}
