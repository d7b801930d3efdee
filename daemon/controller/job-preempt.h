/* job-preempt.h: whether and how a running job may be preempted for
 * another (DESIGN.md, "Checkpoint-based preemption"): only when it can
 * come back without losing its work. Pure: the job's flags and request,
 * and the cluster's setting, are arguments. tests/unit/job-preempt-test.c
 * covers it. */
#ifndef GB_CTL_JOB_PREEMPT_H
#define GB_CTL_JOB_PREEMPT_H

#include <stdbool.h>
#include <stdint.h>

enum job_preempt {
	JOB_PREEMPT_NO = 0,	/* never a victim */
	JOB_PREEMPT_CHECKPOINT,	/* signal, grace, requeued with its id */
	JOB_PREEMPT_REQUEUE,	/* requeued to start over */
};

/* A job of flags (job.h's JOB_F_*) and ckpt_signal (the one it asked
 * for, gsub --ckpt-signal or --signal; 0: none): never, when it said so
 * (--no-requeue, grun without --preemptible); by its checkpoint, when it
 * gave a signal; requeued to start over, for grun --preemptible and, when
 * plain (scheduler.preempt_plain) allows it, for a batch job that gave no
 * signal; otherwise never, as it would lose its work. */
enum job_preempt job_preempt_mode(uint32_t flags, int ckpt_signal,
		    bool plain);
/* "no", "checkpoint", "requeue": JOB_LIST's preempt member. */
const char	*job_preempt_name(enum job_preempt);

#endif
