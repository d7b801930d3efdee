/* job-preempt.c: which jobs may be preempted, and how (job-preempt.h). */
#include "daemon/controller/job-preempt.h"
#include "daemon/controller/job.h"

enum job_preempt
job_preempt_mode(uint32_t flags, int ckpt_signal, bool plain)
{
	if (flags & JOB_F_NO_REQUEUE)
		return (JOB_PREEMPT_NO);
	/* grun --preemptible: it runs afresh, in a session of its own. */
	if (flags & JOB_F_INTERACTIVE)
		return (JOB_PREEMPT_REQUEUE);
	if (ckpt_signal != 0)
		return (JOB_PREEMPT_CHECKPOINT);
	return (plain ? JOB_PREEMPT_REQUEUE : JOB_PREEMPT_NO);
}

const char *
job_preempt_name(enum job_preempt m)
{
	switch (m) {
	case JOB_PREEMPT_CHECKPOINT:
		return ("checkpoint");
	case JOB_PREEMPT_REQUEUE:
		return ("requeue");
	case JOB_PREEMPT_NO:
	default:
		return ("no");
	}
}
