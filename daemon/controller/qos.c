/* qos.c: QOS classes (qos.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "common/duration.h"
#include "common/job-req.h"
#include "common/label.h"
#include "common/xmalloc.h"
#include "daemon/controller/budget.h"
#include "daemon/controller/part.h"
#include "daemon/controller/qos.h"
#include "policy/sched-core.h"

/* The one QOS of a cluster whose gbatch.conf names none. */
static const struct qos qos_builtin = {
	.name = (char *)JOB_REQ_QOS,
	.is_default = true,
	.usage_factor = 1.0,
	.mode = QOS_MODE_CHECKPOINT,
};

/* A member as read, before it is a QOS. */
struct qos_raw {
	bool			 is_default;
	int			 priority;
	unsigned		 max_jobs;
	unsigned		 max_gpus;
	uint64_t		 max_time;
	double			 usage_factor;
	struct conf_file_list	 preempt;
	char			*mode;
	bool			 time_slice;
};

static int
qos_max_time(void *settings, const config_setting_t *s, char *why,
    size_t len)
{
	return (part_time_setting(s, &((struct qos_raw *)settings)->max_time,
	    why, len));
}

static int
qos_mode_valid(const char *v, char *why, size_t len)
{
	if (strcmp(v, "checkpoint") == 0 || strcmp(v, "requeue") == 0 ||
	    strcmp(v, "off") == 0)
		return (0);
	snprintf(why, len, "expected \"checkpoint\", \"requeue\" or \"off\", "
	    "got \"%s\"", v);
	return (-1);
}

static const struct conf_file_key qos_keys[] = {
	{ .name = "default", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct qos_raw, is_default) },
	{ .name = "priority", .type = CONF_FILE_INT,
	  .off = offsetof(struct qos_raw, priority), .min = 0, .max = 255,
	  .what = "a priority tier (higher first)" },
	{ .name = "max_jobs_per_user", .type = CONF_FILE_UINT,
	  .off = offsetof(struct qos_raw, max_jobs), .min = 0,
	  .max = 1000000, .what = "running jobs (0: no cap)" },
	{ .name = "max_gpus_per_user", .type = CONF_FILE_UINT,
	  .off = offsetof(struct qos_raw, max_gpus), .min = 0,
	  .max = JOB_REQ_MAX_GPUS, .what = "GPUs (0: no cap)" },
	{ .name = "max_time", .type = CONF_FILE_CUSTOM,
	  .read = qos_max_time },
	{ .name = "usage_factor", .type = CONF_FILE_NUMBER,
	  .off = offsetof(struct qos_raw, usage_factor), .min = 0,
	  .max = 1000, .what = "a factor on GPU-hours (1: as used)" },
	{ .name = "preempt", .type = CONF_FILE_STRINGS,
	  .off = offsetof(struct qos_raw, preempt), .min = 0,
	  .example = "[\"scavenger\"]", .valid = part_label_valid },
	{ .name = "preempt_mode", .type = CONF_FILE_STRING,
	  .off = offsetof(struct qos_raw, mode),
	  .what = "\"checkpoint\", \"requeue\" or \"off\"",
	  .valid = qos_mode_valid },
	{ .name = "time_slice", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct qos_raw, time_slice) },
};

int
qos_read(struct qoses *qs, const config_setting_t *m, char *err,
    size_t errlen)
{
	struct conf_file_group	 grp;
	struct qos_raw		 raw;
	struct qos		*q;
	const char		*name = config_setting_name(m);
	char			 gname[128];
	int			 line = config_setting_source_line(m);

	if (!label_ok(name)) {
		snprintf(err, errlen, "line %d: qos.%s: expected a QOS name "
		    "of 1 to %d letters, digits, '.', '-' or '_'", line, name,
		    LABEL_MAX);
		return (-1);
	}
	if (qs->n >= QOS_MAX) {
		snprintf(err, errlen, "line %d: qos.%s: at most %d QOS", line,
		    name, QOS_MAX);
		return (-1);
	}
	memset(&raw, 0, sizeof raw);
	raw.usage_factor = 1.0;
	snprintf(gname, sizeof gname, "qos.%s", name);
	memset(&grp, 0, sizeof grp);
	grp.name = gname;
	grp.keys = qos_keys;
	grp.nkeys = sizeof qos_keys / sizeof qos_keys[0];
	if (conf_file_group_read(m, &grp, &raw, err, errlen) == -1) {
		conf_file_list_clear(&raw.preempt);
		free(raw.mode);
		return (-1);
	}
	qs->v = xreallocarray(qs->v, qs->n + 1, sizeof *qs->v);
	q = &qs->v[qs->n++];
	memset(q, 0, sizeof *q);
	q->name = xstrdup(name);
	q->is_default = raw.is_default;
	q->priority = (uint32_t)raw.priority;
	q->max_jobs_per_user = raw.max_jobs;
	q->max_gpus_per_user = raw.max_gpus;
	q->max_time = raw.max_time;
	q->usage_factor = raw.usage_factor;
	q->time_slice = raw.time_slice;
	q->preempt = raw.preempt;
	q->mode = raw.mode == NULL || strcmp(raw.mode, "checkpoint") == 0 ?
	    QOS_MODE_CHECKPOINT : strcmp(raw.mode, "requeue") == 0 ?
	    QOS_MODE_REQUEUE : QOS_MODE_OFF;
	free(raw.mode);
	return (0);
}

/* Marks in seen the values v[0..n) (256 of them at most: each is a
 * tier) and gives each marked value its rank among them into rank;
 * returns how many distinct values there are. */
static unsigned
qos_rank(const uint32_t *v, size_t n, uint8_t *rank)
{
	bool		seen[256];
	unsigned	k = 0, x;
	size_t		i;

	memset(seen, 0, sizeof seen);
	for (i = 0; i < n; i++)
		seen[v[i] & 255] = true;
	for (x = 0; x < 256; x++) {
		rank[x] = (uint8_t)(k > 255 ? 255 : k);
		if (seen[x])
			k++;
	}
	return (k);
}

/* The QOS priorities of qs (0 without any) into v; their count. */
static size_t
qos_priorities(const struct qoses *qs, uint32_t *v)
{
	size_t	i;

	if (qs->n == 0) {
		v[0] = 0;
		return (1);
	}
	for (i = 0; i < qs->n; i++)
		v[i] = qs->v[i].priority;
	return (qs->n);
}

/* The partitions' tiers of ps (0 without any) into v; their count. */
static size_t
qos_part_tiers(const struct parts *ps, uint32_t *v)
{
	size_t	i;

	if (ps == NULL || ps->n == 0) {
		v[0] = 0;
		return (1);
	}
	for (i = 0; i < ps->n; i++)
		v[i] = ps->v[i].tier;
	return (ps->n);
}

unsigned
qos_tiers_make(const struct qoses *qs, const struct parts *ps,
    struct qos_tiers *t)
{
	uint32_t	v[PART_MAX + QOS_MAX + 1];
	unsigned	np;

	np = qos_rank(v, qos_priorities(qs, v), t->qrank);
	t->nt = qos_rank(v, qos_part_tiers(ps, v), t->prank);
	return (np * t->nt);
}

int
qos_check(const struct qoses *qs, int line, char *err, size_t errlen)
{
	const struct qos	*q, *r, *first = NULL;
	size_t			 i, k;

	for (i = 0; i < qs->n; i++) {
		q = &qs->v[i];
		if (q->is_default && first != NULL) {
			snprintf(err, errlen, "line %d: qos: %s and %s are "
			    "both the default; expected default = true in "
			    "one QOS at most", line, first->name, q->name);
			return (-1);
		}
		if (q->is_default)
			first = q;
		for (k = 0; k < q->preempt.n; k++) {
			if ((r = qos_find(qs, q->preempt.v[k])) == NULL) {
				snprintf(err, errlen, "line %d: qos.%s.preempt: "
				    "no QOS \"%s\"; expected names of this "
				    "qos group", line, q->name,
				    q->preempt.v[k]);
				return (-1);
			}
			if (r->priority >= q->priority) {
				snprintf(err, errlen, "line %d: qos.%s.preempt: "
				    "%s has priority %u, not below %s's %u; "
				    "expected QOS of lower priorities (a job "
				    "preempted by one it outranks would start "
				    "again at once)", line, q->name, r->name,
				    r->priority, q->name, q->priority);
				return (-1);
			}
		}
	}
	return (0);
}

int
qos_check_parts(const struct qoses *qs, const struct parts *ps, int line,
    char *err, size_t errlen)
{
	const struct part	*p;
	struct qos_tiers	 t;
	unsigned		 n;
	size_t			 i, k;

	for (i = 0; i < ps->n; i++) {
		p = &ps->v[i];
		for (k = 0; k < p->qos.n; k++) {
			if (qos_find(qs, p->qos.v[k]) != NULL)
				continue;
			snprintf(err, errlen, "line %d: partitions.%s.qos: no "
			    "QOS \"%s\"; expected names of the qos group (or "
			    "\"%s\" without one)", line, p->name, p->qos.v[k],
			    JOB_REQ_QOS);
			return (-1);
		}
	}
	if ((n = qos_tiers_make(qs, ps, &t)) > 256) {
		snprintf(err, errlen, "line %d: partitions: %u QOS priorities "
		    "times %u partition tiers make %u tiers; expected 256 at "
		    "most", line, n / t.nt, t.nt, n);
		return (-1);
	}
	return (0);
}

void
qos_clear(struct qoses *qs)
{
	size_t	i;

	for (i = 0; i < qs->n; i++) {
		free(qs->v[i].name);
		conf_file_list_clear(&qs->v[i].preempt);
	}
	free(qs->v);
	qs->v = NULL;
	qs->n = 0;
}

void
qos_copy(struct qoses *dst, const struct qoses *src)
{
	struct qos	*d;
	size_t		 i;

	dst->v = src->n > 0 ? xcalloc(src->n, sizeof *dst->v) : NULL;
	dst->n = src->n;
	for (i = 0; i < src->n; i++) {
		d = &dst->v[i];
		*d = src->v[i];
		d->name = xstrdup(src->v[i].name);
		conf_file_list_copy(&d->preempt, &src->v[i].preempt);
	}
}

bool
qos_equal(const struct qoses *a, const struct qoses *b)
{
	const struct qos	*x, *y;
	size_t			 i;

	if (a->n != b->n)
		return (false);
	for (i = 0; i < a->n; i++) {
		x = &a->v[i];
		y = &b->v[i];
		if (strcmp(x->name, y->name) != 0 ||
		    x->is_default != y->is_default ||
		    x->priority != y->priority ||
		    x->max_jobs_per_user != y->max_jobs_per_user ||
		    x->max_gpus_per_user != y->max_gpus_per_user ||
		    x->max_time != y->max_time ||
		    x->usage_factor != y->usage_factor || x->mode != y->mode ||
		    x->time_slice != y->time_slice ||
		    !conf_file_list_equal(&x->preempt, &y->preempt))
			return (false);
	}
	return (true);
}

const struct qos *
qos_find(const struct qoses *qs, const char *name)
{
	size_t	i;

	if (qs->n == 0)
		return (strcmp(name, JOB_REQ_QOS) == 0 ? &qos_builtin : NULL);
	for (i = 0; i < qs->n; i++) {
		if (strcmp(qs->v[i].name, name) == 0)
			return (&qs->v[i]);
	}
	return (NULL);
}

const struct qos *
qos_default(const struct qoses *qs)
{
	const struct qos	*q;
	size_t			 i;

	if (qs->n == 0)
		return (&qos_builtin);
	for (i = 0; i < qs->n; i++) {
		if (qs->v[i].is_default)
			return (&qs->v[i]);
	}
	return ((q = qos_find(qs, JOB_REQ_QOS)) != NULL ? q : &qs->v[0]);
}

const char *
qos_key(const struct qoses *qs, const char *name)
{
	return (*name != '\0' ? name : qos_default(qs)->name);
}

uint32_t
qos_weight(const struct qoses *qs, const char *name)
{
	const struct qos	*q = *name != '\0' ? qos_find(qs, name) :
				    qos_default(qs);

	/* qos_read keeps a factor within 0 to 1000. */
	if (q == NULL)
		return (BUDGET_MILLI);
	return ((uint32_t)(q->usage_factor * BUDGET_MILLI + 0.5));
}

unsigned
qos_class(const struct qoses *qs, const struct qos *q)
{
	if (qs->n == 0 || q < qs->v || q >= qs->v + qs->n)
		return (0);
	return ((unsigned)(q - qs->v));
}

int
qos_resolve(const struct qoses *qs, const char *asked, char *out,
    size_t outlen, char *err, size_t errlen)
{
	const struct qos	*q;
	size_t			 i, at = 0;
	char			 names[1024];

	if (*asked == '\0')
		q = qos_default(qs);
	else if ((q = qos_find(qs, asked)) == NULL) {
		names[0] = '\0';
		for (i = 0; i < qs->n && at < sizeof names; i++)
			at += (size_t)snprintf(names + at, sizeof names - at,
			    "%s%s", i > 0 ? ", " : "", qs->v[i].name);
		if (qs->n == 0)
			snprintf(err, errlen, "QOS \"%s\": this cluster has no "
			    "QOS but \"%s\" (leave --qos out)", asked,
			    JOB_REQ_QOS);
		else
			snprintf(err, errlen, "QOS \"%s\": no such QOS; "
			    "expected one of %s", asked, names);
		return (-1);
	}
	snprintf(out, outlen, "%s", q->name);
	return (0);
}

int
qos_admits(const struct qos *q, uint64_t *time_limit, uint32_t gpus,
    char *err, size_t errlen)
{
	char	t1[32], t2[32];

	if (q->max_time != 0 && *time_limit == 0)
		*time_limit = q->max_time;
	if (q->max_time != 0 && *time_limit > q->max_time) {
		snprintf(err, errlen, "QOS %s does not take the job: the time "
		    "limit %s is over its max_time %s", q->name,
		    duration_format(*time_limit, t1, sizeof t1),
		    duration_format(q->max_time, t2, sizeof t2));
		return (-1);
	}
	if (q->max_gpus_per_user != 0 && gpus > q->max_gpus_per_user) {
		snprintf(err, errlen, "QOS %s does not take the job: %u GPUs "
		    "is over its max_gpus_per_user %u, so it could never "
		    "start", q->name, gpus, q->max_gpus_per_user);
		return (-1);
	}
	return (0);
}

bool
qos_may_preempt(const struct qos *p, const struct qos *r)
{
	return (p == r || p->priority == r->priority ||
	    conf_file_list_has(&p->preempt, r->name));
}

uint8_t
qos_tier(const struct qos_tiers *t, const struct qos *q, uint32_t part_tier)
{
	unsigned	x = (unsigned)t->qrank[q->priority & 255] * t->nt +
			    t->prank[part_tier & 255];

	return ((uint8_t)(x > 255 ? 255 : x));
}

void
qos_core_rules(const struct qoses *qs, struct sched_core *core)
{
	size_t	p, r;

	for (p = 0; p < qs->n; p++) {
		for (r = 0; r < qs->n; r++) {
			if (!qos_may_preempt(&qs->v[p], &qs->v[r]))
				sched_core_preempt_rule(core, (unsigned)p,
				    (unsigned)r, false);
		}
	}
}

uint64_t
qos_limit_id(const struct qos *q, const char *user)
{
	uint64_t	h = 14695981039346656037ULL;
	const char	*s;

	for (s = q->name; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (s = user; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h | (UINT64_C(1) << 63));
}

const char *
qos_mode_name(enum qos_mode m)
{
	switch (m) {
	case QOS_MODE_REQUEUE:
		return ("requeue");
	case QOS_MODE_OFF:
		return ("off");
	case QOS_MODE_CHECKPOINT:
	default:
		return ("checkpoint");
	}
}

json_t *
qos_json(const struct qoses *qs)
{
	const struct qos	*q;
	json_t			*o = json_object(), *m, *l;
	size_t			 i, k, n = qs->n > 0 ? qs->n : 1;

	for (i = 0; i < n; i++) {
		q = qs->n > 0 ? &qs->v[i] : &qos_builtin;
		l = json_array();
		for (k = 0; k < q->preempt.n; k++)
			json_array_append_new(l, json_string(q->preempt.v[k]));
		m = json_pack("{s:b, s:I, s:I, s:I, s:I, s:f, s:o, s:s, s:b}",
		    "default", q == qos_default(qs),
		    "priority", (json_int_t)q->priority,
		    "max_jobs_per_user", (json_int_t)q->max_jobs_per_user,
		    "max_gpus_per_user", (json_int_t)q->max_gpus_per_user,
		    "max_time", (json_int_t)q->max_time,
		    "usage_factor", q->usage_factor,
		    "preempt", l,
		    "preempt_mode", qos_mode_name(q->mode),
		    "time_slice", q->time_slice);
		json_object_set_new(o, q->name, m);
	}
	return (o);
}
