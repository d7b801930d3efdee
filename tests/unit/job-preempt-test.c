/* job-preempt-test.c: which running jobs may be preempted, and how
 * (daemon/controller/job-preempt.c): only those that can come back
 * without losing their work, unless the cluster allows plain ones. */
#include "daemon/controller/job-preempt.h"
#include "daemon/controller/job.h"
#include "tests/unit/tap.h"

int
main(void)
{
	is_int(job_preempt_mode(0, 0, false), JOB_PREEMPT_NO,
	    "a plain batch job, by default: never (it would lose its work)");
	is_int(job_preempt_mode(0, 0, true), JOB_PREEMPT_REQUEUE,
	    "with preempt_plain: requeued to start over");
	is_int(job_preempt_mode(0, 10, false), JOB_PREEMPT_CHECKPOINT,
	    "one that gave a checkpoint signal: by its checkpoint");
	is_int(job_preempt_mode(0, 12, true), JOB_PREEMPT_CHECKPOINT,
	    "the same whatever preempt_plain says");
	is_int(job_preempt_mode(JOB_F_NO_REQUEUE, 0, true), JOB_PREEMPT_NO,
	    "--no-requeue: never, whatever the cluster allows");
	is_int(job_preempt_mode(JOB_F_INTERACTIVE | JOB_F_NO_REQUEUE, 0,
	    true), JOB_PREEMPT_NO, "grun without --preemptible: never");
	is_int(job_preempt_mode(JOB_F_INTERACTIVE, 0, false),
	    JOB_PREEMPT_REQUEUE, "grun --preemptible: requeued, afresh");
	is_str(job_preempt_name(JOB_PREEMPT_CHECKPOINT), "checkpoint",
	    "named checkpoint");
	is_str(job_preempt_name(JOB_PREEMPT_REQUEUE), "requeue",
	    "requeue");
	is_str(job_preempt_name(JOB_PREEMPT_NO), "no", "no");
	return (tap_done());
}
