/* job-preempt-test.c: which running jobs may be preempted, and how
 * (daemon/controller/job-preempt.c): only those that can come back
 * without losing their work, unless the cluster allows plain ones or
 * their QOS says otherwise; the modes a listing copies. */
#include <string.h>

#include "daemon/controller/job-preempt.h"
#include "daemon/controller/job.h"
#include "tests/unit/tap.h"

/* What a listing copies of the QOS' modes, and reads by name. */
static void
t_modes(void)
{
	struct job_preempt_modes	 m;
	struct qoses			 qs;
	struct qos			 v[2];

	memset(v, 0, sizeof v);
	v[0].name = "normal";
	v[0].mode = QOS_MODE_CHECKPOINT;
	v[1].name = "scavenger";
	v[1].mode = QOS_MODE_REQUEUE;
	v[1].is_default = true;
	qs.v = v;
	qs.n = 2;
	job_preempt_modes(&m, &qs, true);
	ok(m.plain, "modes: plain copied");
	is_int(job_preempt_qos(&m, "scavenger"), QOS_MODE_REQUEUE,
	    "modes: a QOS's by name");
	is_int(job_preempt_qos(&m, "normal"), QOS_MODE_CHECKPOINT,
	    "modes: another's");
	is_int(job_preempt_qos(&m, ""), QOS_MODE_REQUEUE,
	    "modes: '' is the default's (a job from before QOS)");
	is_int(job_preempt_qos(&m, "gone"), QOS_MODE_CHECKPOINT,
	    "modes: a QOS that is none: checkpoint");
	qs.n = 0;
	job_preempt_modes(&m, &qs, false);
	is_int(job_preempt_qos(&m, ""), QOS_MODE_CHECKPOINT,
	    "modes: without QOS, the built-in one's");
}

int
main(void)
{
	is_int(job_preempt_mode(0, 0, false, QOS_MODE_CHECKPOINT), JOB_PREEMPT_NO,
	    "a plain batch job, by default: never (it would lose its work)");
	is_int(job_preempt_mode(0, 0, true, QOS_MODE_CHECKPOINT), JOB_PREEMPT_REQUEUE,
	    "with preempt_plain: requeued to start over");
	is_int(job_preempt_mode(0, 10, false, QOS_MODE_CHECKPOINT), JOB_PREEMPT_CHECKPOINT,
	    "one that gave a checkpoint signal: by its checkpoint");
	is_int(job_preempt_mode(0, 12, true, QOS_MODE_CHECKPOINT), JOB_PREEMPT_CHECKPOINT,
	    "the same whatever preempt_plain says");
	is_int(job_preempt_mode(JOB_F_NO_REQUEUE, 0, true, QOS_MODE_CHECKPOINT), JOB_PREEMPT_NO,
	    "--no-requeue: never, whatever the cluster allows");
	is_int(job_preempt_mode(JOB_F_INTERACTIVE | JOB_F_NO_REQUEUE, 0,
	    true, QOS_MODE_CHECKPOINT), JOB_PREEMPT_NO, "grun without --preemptible: never");
	is_int(job_preempt_mode(JOB_F_INTERACTIVE, 0, false, QOS_MODE_CHECKPOINT),
	    JOB_PREEMPT_REQUEUE, "grun --preemptible: requeued, afresh");
	is_int(job_preempt_mode(0, 0, false, QOS_MODE_REQUEUE),
	    JOB_PREEMPT_REQUEUE, "a plain job of a requeue QOS: requeued");
	is_int(job_preempt_mode(0, 10, false, QOS_MODE_REQUEUE),
	    JOB_PREEMPT_CHECKPOINT, "one of a requeue QOS that gave a "
	    "signal: by its checkpoint");
	is_int(job_preempt_mode(0, 10, true, QOS_MODE_OFF), JOB_PREEMPT_NO,
	    "a QOS that is off: never, checkpoint or not");
	is_int(job_preempt_mode(JOB_F_INTERACTIVE, 0, false, QOS_MODE_OFF),
	    JOB_PREEMPT_NO, "grun --preemptible in a QOS that is off: never");
	is_int(job_preempt_mode(JOB_F_NO_REQUEUE, 0, false,
	    QOS_MODE_REQUEUE), JOB_PREEMPT_NO,
	    "--no-requeue in a requeue QOS: never");
	t_modes();
	is_str(job_preempt_name(JOB_PREEMPT_CHECKPOINT), "checkpoint",
	    "named checkpoint");
	is_str(job_preempt_name(JOB_PREEMPT_REQUEUE), "requeue",
	    "requeue");
	is_str(job_preempt_name(JOB_PREEMPT_NO), "no", "no");
	return (tap_done());
}
