/* qos.h: QOS classes, as gbatch.conf's qos group names them (Slurm's
 * QOS): a priority, limits per user, a usage factor for accounting, which
 * other QOS its jobs may preempt, and how its own jobs are preempted.
 * Without any, gbatch has one, JOB_REQ_QOS, of priority 0 and no limit,
 * as before. Pure settings and the rules that read them: no I/O, no
 * clock. See gbatch.conf(5) and docs/scheduling.md ("QOS"). */
#ifndef GB_CTL_QOS_H
#define GB_CTL_QOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/common/conf-file.h"

struct parts;
struct sched_core;

/* QOS gbatch.conf may have: a class each in the scheduling core's
 * preemption rules (sched_core_preempt_rule), which has 256. */
#define QOS_MAX		64

/* How a running job of the QOS is treated when another preempts it. */
enum qos_mode {
	/* Only when it can come back without losing its work: by its
	 * checkpoint signal (signal, grace, requeued with its id); a job
	 * that gave none is never preempted (unless scheduler.preempt_plain
	 * says otherwise). The default. */
	QOS_MODE_CHECKPOINT = 0,
	/* Requeued to start over (signalled first if it gave a checkpoint
	 * signal): a scavenger's jobs. */
	QOS_MODE_REQUEUE,
	/* Never preempted. */
	QOS_MODE_OFF,
};

struct qos {
	char			*name;
	bool			 is_default;
	uint32_t		 priority;	/* 0 to 255, higher first */
	/* Per user, across the user's jobs of this QOS: running jobs and
	 * GPUs they hold at once (0: no cap); and the most a job may ask
	 * (s; 0: no cap). */
	uint32_t		 max_jobs_per_user;
	uint32_t		 max_gpus_per_user;
	uint64_t		 max_time;
	/* What a GPU-hour of its jobs counts in accounting and budgets. */
	double			 usage_factor;
	/* The QOS its jobs may preempt (each of a lower priority). */
	struct conf_file_list	 preempt;
	enum qos_mode		 mode;
	/* Its jobs share their GPUs in turns, as gsub --time-slice asks
	 * (scheduler.time_slice). */
	bool			 time_slice;
};

struct qoses {
	struct qos	*v;
	size_t		 n;
};

/* Reads m, one member of gbatch.conf's qos group (high = { ... };),
 * into a new QOS at the end of qs. Returns 0, or -1 with err as
 * "line N: qos.high.KEY: ..." naming what is accepted. */
int		 qos_read(struct qoses *qs, const struct config_setting_t *m,
		     char *err, size_t errlen);
/* The rules that tie the QOS together: one default at most; each preempt
 * list names other QOS, of lower priorities. Returns 0, or -1 with err. */
int		 qos_check(const struct qoses *qs, int line, char *err,
		     size_t errlen);
/* The rules that tie the partitions ps to the QOS: each QOS a partition
 * lists is one; the QOS priorities and partitions' tiers fit qos_tier's
 * 256. Returns 0, or -1 with err. */
int		 qos_check_parts(const struct qoses *qs,
		     const struct parts *ps, int line, char *err,
		     size_t errlen);

void		 qos_clear(struct qoses *qs);
void		 qos_copy(struct qoses *dst, const struct qoses *src);
bool		 qos_equal(const struct qoses *a, const struct qoses *b);

/* The QOS named name, or NULL; without any QOS, the built-in one for
 * JOB_REQ_QOS. */
const struct qos *qos_find(const struct qoses *qs, const char *name);
/* The default: the one marked so, else the one named JOB_REQ_QOS, else
 * the first; the built-in one without any. Never NULL. */
const struct qos *qos_default(const struct qoses *qs);
/* The name a job of QOS name is reported under (gacct --report qos, the
 * metrics): name, or the default's for '' (a job from before QOS). */
const char	*qos_key(const struct qoses *qs, const char *name);
/* What a GPU-second of a job of QOS name is charged in budgets and
 * reports: its QOS's usage_factor in thousandths (budget.h's
 * BUDGET_MILLI is a factor of 1), rounded to the nearest. name '' is the
 * default's; a QOS not in qs (a reload removed it) counts at 1. */
uint32_t	 qos_weight(const struct qoses *qs, const char *name);
/* q's class among qs (its index; 0 for the built-in one): the core's
 * preemption class (sched_jobspec's pclass). */
unsigned	 qos_class(const struct qoses *qs, const struct qos *q);

/* Checks a job's --qos against qs ('' asks for the default) and writes
 * the name gbatch keeps into out. Returns 0, or -1 with err naming the
 * QOS there are. */
int		 qos_resolve(const struct qoses *qs, const char *asked,
		     char *out, size_t outlen, char *err, size_t errlen);

/* Whether q takes a job of gpus GPUs and *time_limit seconds (0: none,
 * which becomes q's max_time when it has one): its max_time, and its
 * max_gpus_per_user (a larger job could never start). Returns 0, or -1
 * with err naming the limit. */
int		 qos_admits(const struct qos *q, uint64_t *time_limit,
		     uint32_t gpus, char *err, size_t errlen);

/* Whether a job of QOS p may preempt one of QOS r, the order of the core
 * permitting: within one QOS priority the scheduler's queues decide (as
 * without QOS); across, only a QOS that p's preempt list names. */
bool		 qos_may_preempt(const struct qos *p, const struct qos *r);
/* Tells core, before its jobs come, which class may not preempt which
 * (qos_class, qos_may_preempt): gbatchd's core and gsim's alike. */
void		 qos_core_rules(const struct qoses *qs, struct sched_core *core);

/* The core's tiers: QOS priority first, then the partition's tier, each
 * ranked among the distinct ones of the QOS and the partitions, so that
 * the pairs keep their order within 0 to 255 (qos_check ensures they
 * fit). */
struct qos_tiers {
	uint8_t		 qrank[256];	/* by QOS priority */
	uint8_t		 prank[256];	/* by partition tier */
	unsigned	 nt;		/* distinct partition tiers */
};
/* Fills t from qs and ps (NULL: no partitions); returns how many tiers
 * the pairs make. */
unsigned	 qos_tiers_make(const struct qoses *qs, const struct parts *ps,
		     struct qos_tiers *t);
/* The tier of a job of QOS q in a partition of tier part_tier. */
uint8_t		 qos_tier(const struct qos_tiers *t, const struct qos *q,
		     uint32_t part_tier);

/* The id of the core's limit group of user's jobs of QOS q (sched_limit):
 * a hash of both, in the top half of the ids, where no job array's is. */
uint64_t	 qos_limit_id(const struct qos *q, const char *user);

/* "checkpoint", "requeue", "off". */
const char	*qos_mode_name(enum qos_mode);

/* The QOS as gctl show config and the Slurm views read them: an object
 * of {default, priority, max_jobs_per_user, max_gpus_per_user, max_time,
 * usage_factor, preempt, preempt_mode} by name (a new reference). */
json_t		*qos_json(const struct qoses *qs);

#endif
