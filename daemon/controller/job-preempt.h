/* job-preempt.h: whether and how a running job may be preempted for
 * another (DESIGN.md, "Checkpoint-based preemption"): only when it can
 * come back without losing its work, unless its QOS says otherwise. Pure:
 * the job's flags, request and QOS, and the cluster's settings, are
 * arguments. tests/unit/job-preempt-test.c covers it. */
#ifndef GB_CTL_JOB_PREEMPT_H
#define GB_CTL_JOB_PREEMPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/label.h"
#include "daemon/controller/qos.h"

enum job_preempt {
	JOB_PREEMPT_NO = 0,	/* never a victim */
	JOB_PREEMPT_CHECKPOINT,	/* signal, grace, requeued with its id */
	JOB_PREEMPT_REQUEUE,	/* requeued to start over */
};

/* A job of flags (job.h's JOB_F_*), ckpt_signal (the one it asked for,
 * gsub --ckpt-signal or --signal; 0: none) and a QOS of mode: never,
 * when it said so (--no-requeue, grun without --preemptible) or its QOS
 * is off; by its checkpoint, when it gave a signal; requeued to start
 * over, for grun --preemptible, and for a batch job that gave no signal
 * when its QOS requeues or plain (scheduler.preempt_plain) allows it;
 * otherwise never, as it would lose its work. */
enum job_preempt job_preempt_mode(uint32_t flags, int ckpt_signal,
		    bool plain, enum qos_mode mode);
/* "no", "checkpoint", "requeue": JOB_LIST's preempt member. */
const char	*job_preempt_name(enum job_preempt);

/* The settings job_preempt_mode reads, copied for a listing that writes
 * its rows apart from them: preempt_plain and each QOS's mode by name
 * ('' the default's). */
struct job_preempt_modes {
	bool		 plain;
	enum qos_mode	 def;
	size_t		 n;
	struct {
		char		 name[LABEL_MAX + 1];
		enum qos_mode	 mode;
	}		 v[QOS_MAX];
};
void		 job_preempt_modes(struct job_preempt_modes *,
		    const struct qoses *, bool plain);
/* The mode of the QOS named qos (checkpoint for one that is none). */
enum qos_mode	 job_preempt_qos(const struct job_preempt_modes *,
		    const char *qos);

#endif
