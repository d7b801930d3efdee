/* job-preempt.c: which jobs may be preempted, and how (job-preempt.h). */
#include <stdio.h>
#include <string.h>

#include "daemon/controller/job-preempt.h"
#include "daemon/controller/job.h"

enum job_preempt
job_preempt_mode(uint32_t flags, int ckpt_signal, bool plain,
    enum qos_mode mode)
{
	if ((flags & JOB_F_NO_REQUEUE) || mode == QOS_MODE_OFF)
		return (JOB_PREEMPT_NO);
	/* grun --preemptible: it runs afresh, in a session of its own. */
	if (flags & JOB_F_INTERACTIVE)
		return (JOB_PREEMPT_REQUEUE);
	if (ckpt_signal != 0)
		return (JOB_PREEMPT_CHECKPOINT);
	return (plain || mode == QOS_MODE_REQUEUE ? JOB_PREEMPT_REQUEUE :
	    JOB_PREEMPT_NO);
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

void
job_preempt_modes(struct job_preempt_modes *m, const struct qoses *qs,
    bool plain)
{
	size_t	i;

	memset(m, 0, sizeof *m);
	m->plain = plain;
	m->def = qos_default(qs)->mode;
	for (i = 0; i < qs->n && i < QOS_MAX; i++) {
		snprintf(m->v[i].name, sizeof m->v[i].name, "%s",
		    qs->v[i].name);
		m->v[i].mode = qs->v[i].mode;
	}
	m->n = i;
}

enum qos_mode
job_preempt_qos(const struct job_preempt_modes *m, const char *qos)
{
	size_t	i;

	if (qos == NULL || *qos == '\0')
		return (m->def);
	for (i = 0; i < m->n; i++) {
		if (strcmp(m->v[i].name, qos) == 0)
			return (m->v[i].mode);
	}
	return (QOS_MODE_CHECKPOINT);
}
