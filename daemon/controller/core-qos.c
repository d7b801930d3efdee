/* core-qos.c: what a job's QOS (qos.h) makes of it in the core: its tier,
 * QOS priority first and then its partition's; its preemption class,
 * and the rules between classes that the QOS' preempt lists give;
 * whether it may be preempted, and how; its QOS's limit per user; and
 * whether a pending job waits outside the core because a reload took
 * its QOS away or lowered its max_time. */
#include <string.h>

#include "daemon/controller/conf.h"
#include "daemon/controller/core-int.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"

const struct qos *
core_qos_of(const struct job *j)
{
	const struct qoses	*qs = &ctx_conf()->qos;
	const char		*name = job_qos(j);

	return (*name == '\0' ? qos_default(qs) : qos_find(qs, name));
}

void
core_qos_rules(void)
{
	const struct conf	*c = ctx_conf();

	(void)qos_tiers_make(&c->qos, &c->parts, &core.tiers);
	qos_core_rules(&c->qos, core.sc);
}

void
core_qos_spec(const struct job *j, struct sched_jobspec *spec)
{
	const struct qoses	*qs = &ctx_conf()->qos;
	const struct qos	*q;
	struct sched_limit	*l;

	if ((q = core_qos_of(j)) == NULL)
		q = qos_default(qs);
	spec->tier = qos_tier(&core.tiers, q, spec->tier);
	spec->pclass = (uint8_t)qos_class(qs, q);
	if (q->time_slice)
		spec->time_slice = true;
	if ((q->max_jobs_per_user == 0 && q->max_gpus_per_user == 0) ||
	    spec->nlimits == SCHED_MAX_LIMITS)
		return;
	l = &spec->limits[spec->nlimits++];
	l->id = qos_limit_id(q, job_user(j));
	l->jobs = q->max_jobs_per_user;
	l->gpus = q->max_gpus_per_user;
	l->jobs_reason = SCHED_REASON_QOS_JOBS;
	l->gpus_reason = SCHED_REASON_QOS_GPUS;
}

enum job_preempt
core_qos_preempt(const struct job *j)
{
	const struct qos	*q = core_qos_of(j);

	return (job_preempt_mode(job_flags(j), job_ckpt_signal(j),
	    ctx_conf()->preempt_plain, q != NULL ? q->mode :
	    QOS_MODE_CHECKPOINT));
}

bool
core_qos_before(struct job *j)
{
	const struct qos	*q;

	if ((q = core_qos_of(j)) == NULL) {
		job_set_reason(j, "InvalidQOS");
		return (true);
	}
	if (q->max_time != 0 && (job_time_limit(j) == 0 ||
	    job_time_limit(j) > q->max_time)) {
		job_set_reason(j, "QOSMaxWallDurationPerJobLimit");
		return (true);
	}
	return (false);
}
