/* part.c: partitions (part.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "common/duration.h"
#include "common/hostlist.h"
#include "common/job-req.h"
#include "common/label.h"
#include "common/xmalloc.h"
#include "daemon/controller/part.h"

/* A member as read, before it is a partition. */
struct part_raw {
	char			*nodes;
	bool			 is_default;
	uint64_t		 default_time;
	uint64_t		 max_time;
	unsigned		 max_gpus;
	unsigned		 max_nodes;
	struct conf_file_list	 accounts;
	struct conf_file_list	 qos;
	int			 tier;
};

int
part_time_setting(const config_setting_t *s, uint64_t *out, char *why,
    size_t len)
{
	const char	*v;
	char		 err[256];
	long long	 min;

	if (config_setting_type(s) == CONFIG_TYPE_INT ||
	    config_setting_type(s) == CONFIG_TYPE_INT64) {
		if (conf_file_whole(s, 0, JOB_REQ_MAX_TIME / 60, "minutes",
		    &min, why, len) == -1)
			return (-1);
		*out = (uint64_t)min * 60;
		return (0);
	}
	if (conf_file_string(s, &v, why, len) == -1)
		return (-1);
	if (duration_parse(v, JOB_REQ_MAX_TIME, out, err, sizeof err) == -1) {
		snprintf(why, len, "%s", err);
		return (-1);
	}
	return (0);
}

static int
part_default_time(void *settings, const config_setting_t *s, char *why,
    size_t len)
{
	return (part_time_setting(s,
	    &((struct part_raw *)settings)->default_time, why, len));
}

static int
part_max_time(void *settings, const config_setting_t *s, char *why,
    size_t len)
{
	return (part_time_setting(s, &((struct part_raw *)settings)->max_time,
	    why, len));
}

int
part_label_valid(const char *v, char *why, size_t len)
{
	if (label_ok(v))
		return (0);
	snprintf(why, len, "expected names of 1 to %d letters, digits, '.', "
	    "'-' or '_'", LABEL_MAX);
	return (-1);
}

static const struct conf_file_key part_keys[] = {
	{ .name = "nodes", .type = CONF_FILE_STRING,
	  .off = offsetof(struct part_raw, nodes),
	  .what = "a host list (\"gpu[01-16],dgx1\")" },
	{ .name = "default", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct part_raw, is_default) },
	{ .name = "default_time", .type = CONF_FILE_CUSTOM,
	  .read = part_default_time },
	{ .name = "max_time", .type = CONF_FILE_CUSTOM,
	  .read = part_max_time },
	{ .name = "max_gpus_per_job", .type = CONF_FILE_UINT,
	  .off = offsetof(struct part_raw, max_gpus), .min = 0,
	  .max = JOB_REQ_MAX_GPUS, .what = "GPUs (0: no cap)" },
	{ .name = "max_nodes_per_job", .type = CONF_FILE_UINT,
	  .off = offsetof(struct part_raw, max_nodes), .min = 0,
	  .max = JOB_REQ_MAX_NODES, .what = "nodes (0: no cap)" },
	{ .name = "accounts", .type = CONF_FILE_STRINGS,
	  .off = offsetof(struct part_raw, accounts), .min = 1,
	  .example = "[\"vision\", \"nlp\"]", .valid = part_label_valid },
	{ .name = "qos", .type = CONF_FILE_STRINGS,
	  .off = offsetof(struct part_raw, qos), .min = 1,
	  .example = "[\"normal\", \"high\"]", .valid = part_label_valid },
	{ .name = "tier", .type = CONF_FILE_INT,
	  .off = offsetof(struct part_raw, tier), .min = 0, .max = 255,
	  .what = "a priority tier (higher first)" },
};

/* Whether a partition's name is one gbatch takes: a label, as account
 * names are, and not a word the Slurm views give a meaning. */
static bool
part_name_valid(const char *name)
{
	return (label_ok(name) && strcmp(name, "all") != 0);
}

static int
part_cmp_names(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

int
part_read(struct parts *ps, const config_setting_t *m, char *err,
    size_t errlen)
{
	struct conf_file_group	 grp;
	struct part_raw		 raw;
	struct part		*p;
	const char		*name = config_setting_name(m);
	char			 gname[128], why[512];
	int			 line = config_setting_source_line(m);

	if (!part_name_valid(name)) {
		snprintf(err, errlen, "line %d: partitions.%s: expected a "
		    "partition name of 1 to %d letters, digits, '.', '-' or "
		    "'_', not \"all\"", line, name, LABEL_MAX);
		return (-1);
	}
	if (ps->n >= PART_MAX) {
		snprintf(err, errlen, "line %d: partitions.%s: at most %d "
		    "partitions", line, name, PART_MAX);
		return (-1);
	}
	memset(&raw, 0, sizeof raw);
	snprintf(gname, sizeof gname, "partitions.%s", name);
	memset(&grp, 0, sizeof grp);
	grp.name = gname;
	grp.keys = part_keys;
	grp.nkeys = sizeof part_keys / sizeof part_keys[0];
	if (conf_file_group_read(m, &grp, &raw, err, errlen) == -1)
		goto fail;
	if (raw.max_time != 0 && raw.default_time > raw.max_time) {
		snprintf(err, errlen, "line %d: %s: default_time is over "
		    "max_time; expected at most max_time", line, gname);
		goto fail;
	}
	ps->v = xreallocarray(ps->v, ps->n + 1, sizeof *ps->v);
	p = &ps->v[ps->n];
	memset(p, 0, sizeof *p);
	if (raw.nodes != NULL && strcmp(raw.nodes, "ALL") != 0) {
		if (hostlist_expand(raw.nodes, &p->names, &p->nnames, why,
		    sizeof why) == -1) {
			snprintf(err, errlen, "line %d: %s.nodes: %s", line,
			    gname, why);
			goto fail;
		}
		qsort(p->names, p->nnames, sizeof *p->names, part_cmp_names);
		p->nodes = raw.nodes;
		raw.nodes = NULL;
	}
	p->name = xstrdup(name);
	p->is_default = raw.is_default;
	p->default_time = raw.default_time;
	p->max_time = raw.max_time;
	p->max_gpus = raw.max_gpus;
	p->max_nodes = raw.max_nodes;
	p->accounts = raw.accounts;
	p->qos = raw.qos;
	p->tier = (uint32_t)raw.tier;
	ps->n++;
	free(raw.nodes);
	return (0);
fail:
	free(raw.nodes);
	conf_file_list_clear(&raw.accounts);
	conf_file_list_clear(&raw.qos);
	return (-1);
}

int
part_check(const struct parts *ps, int line, char *err, size_t errlen)
{
	const char	*first = NULL;
	size_t		 i;

	for (i = 0; i < ps->n; i++) {
		if (!ps->v[i].is_default)
			continue;
		if (first != NULL) {
			snprintf(err, errlen, "line %d: partitions: %s and %s "
			    "are both the default; expected default = true "
			    "in one partition at most", line, first,
			    ps->v[i].name);
			return (-1);
		}
		first = ps->v[i].name;
	}
	return (0);
}

void
part_clear(struct parts *ps)
{
	size_t	i;

	for (i = 0; i < ps->n; i++) {
		free(ps->v[i].name);
		free(ps->v[i].nodes);
		hostlist_free(ps->v[i].names, ps->v[i].nnames);
		conf_file_list_clear(&ps->v[i].accounts);
		conf_file_list_clear(&ps->v[i].qos);
	}
	free(ps->v);
	ps->v = NULL;
	ps->n = 0;
}

void
part_copy(struct parts *dst, const struct parts *src)
{
	const struct part	*s;
	struct part		*d;
	size_t			 i, k;

	dst->v = src->n > 0 ? xcalloc(src->n, sizeof *dst->v) : NULL;
	dst->n = src->n;
	for (i = 0; i < src->n; i++) {
		s = &src->v[i];
		d = &dst->v[i];
		*d = *s;
		d->name = xstrdup(s->name);
		d->nodes = s->nodes != NULL ? xstrdup(s->nodes) : NULL;
		d->names = s->nnames > 0 ? xcalloc(s->nnames,
		    sizeof *d->names) : NULL;
		for (k = 0; k < s->nnames; k++)
			d->names[k] = xstrdup(s->names[k]);
		conf_file_list_copy(&d->accounts, &s->accounts);
		conf_file_list_copy(&d->qos, &s->qos);
	}
}

static bool
part_str_equal(const char *a, const char *b)
{
	return (a == b || (a != NULL && b != NULL && strcmp(a, b) == 0));
}

bool
part_equal(const struct parts *a, const struct parts *b)
{
	const struct part	*x, *y;
	size_t			 i;

	if (a->n != b->n)
		return (false);
	for (i = 0; i < a->n; i++) {
		x = &a->v[i];
		y = &b->v[i];
		if (strcmp(x->name, y->name) != 0 ||
		    !part_str_equal(x->nodes, y->nodes) ||
		    x->is_default != y->is_default ||
		    x->default_time != y->default_time ||
		    x->max_time != y->max_time || x->max_gpus != y->max_gpus ||
		    x->max_nodes != y->max_nodes || x->tier != y->tier ||
		    !conf_file_list_equal(&x->accounts, &y->accounts) ||
		    !conf_file_list_equal(&x->qos, &y->qos))
			return (false);
	}
	return (true);
}

const struct part *
part_find(const struct parts *ps, const char *name)
{
	size_t	i;

	for (i = 0; i < ps->n; i++) {
		if (strcmp(ps->v[i].name, name) == 0)
			return (&ps->v[i]);
	}
	return (NULL);
}

const struct part *
part_default(const struct parts *ps)
{
	size_t	i;

	for (i = 0; i < ps->n; i++) {
		if (ps->v[i].is_default)
			return (&ps->v[i]);
	}
	return (ps->n > 0 ? &ps->v[0] : NULL);
}

bool
part_has_node(const struct part *p, const char *node)
{
	if (p->nodes == NULL)
		return (true);
	return (bsearch(&node, p->names, p->nnames, sizeof *p->names,
	    part_cmp_names) != NULL);
}

/* The names of ps, "gpu, debug", into buf. */
static void
part_names(const struct parts *ps, char *buf, size_t len)
{
	size_t	i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < ps->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
		    i > 0 ? ", " : "", ps->v[i].name);
}

int
part_resolve(const struct parts *ps, const char *asked, char *out,
    size_t outlen, char *err, size_t errlen)
{
	const struct part	*seen[PART_MAX_ASKED];
	const struct part	*p;
	const char		*w, *end;
	char			 name[LABEL_MAX + 2], names[1024];
	size_t			 n = 0, len, at = 0, i;

	if (ps->n == 0) {
		/* The one partition of every node. */
		if (*asked != '\0' && strcmp(asked, JOB_REQ_PARTITION) != 0) {
			snprintf(err, errlen, "partition \"%s\": this cluster "
			    "has no partitions but \"%s\", every node (leave "
			    "-p out)", asked, JOB_REQ_PARTITION);
			return (-1);
		}
		snprintf(out, outlen, "%s", JOB_REQ_PARTITION);
		return (0);
	}
	if (*asked == '\0') {
		snprintf(out, outlen, "%s", part_default(ps)->name);
		return (0);
	}
	part_names(ps, names, sizeof names);
	for (w = asked; ; w = end + 1) {
		end = strchr(w, ',');
		len = end != NULL ? (size_t)(end - w) : strlen(w);
		if (len == 0 || len > LABEL_MAX) {
			snprintf(err, errlen, "partition list \"%s\": expected "
			    "names joined by ',' of %s", asked, names);
			return (-1);
		}
		memcpy(name, w, len);
		name[len] = '\0';
		if ((p = part_find(ps, name)) == NULL) {
			snprintf(err, errlen, "partition \"%s\": no such "
			    "partition; expected one of %s", name, names);
			return (-1);
		}
		for (i = 0; i < n; i++) {
			if (seen[i] == p) {
				snprintf(err, errlen, "partition \"%s\" is "
				    "listed twice", name);
				return (-1);
			}
		}
		if (n == PART_MAX_ASKED) {
			snprintf(err, errlen, "partition list \"%s\": at most "
			    "%d partitions", asked, PART_MAX_ASKED);
			return (-1);
		}
		seen[n++] = p;
		if (at < outlen)
			at += (size_t)snprintf(out + at, outlen - at, "%s%s",
			    n > 1 ? "," : "", name);
		if (end == NULL)
			break;
	}
	if (at >= outlen) {
		snprintf(err, errlen, "partition list \"%s\" is too long",
		    asked);
		return (-1);
	}
	return (0);
}

uint64_t
part_time_limit(const struct part *p, const struct part_ask *a)
{
	if (a->time_limit != 0)
		return (a->time_limit);
	return (p->default_time != 0 ? p->default_time : p->max_time);
}

enum part_refusal
part_admits(const struct part *p, const struct part_ask *a, char *detail,
    size_t detlen)
{
	char	t1[32], t2[32];

	if (p->max_time != 0 && (a->time_limit > p->max_time ||
	    (a->time_limit == 0 && part_time_limit(p, a) == 0))) {
		if (a->time_limit == 0)
			snprintf(detail, detlen, "no time limit is over %s's "
			    "max_time %s", p->name, duration_format(p->max_time,
			    t2, sizeof t2));
		else
			snprintf(detail, detlen, "the time limit %s is over "
			    "%s's max_time %s", duration_format(a->time_limit,
			    t1, sizeof t1), p->name,
			    duration_format(p->max_time, t2, sizeof t2));
		return (PART_TIME_LIMIT);
	}
	if (p->max_gpus != 0 && a->gpus > p->max_gpus) {
		snprintf(detail, detlen, "%u GPUs is over %s's "
		    "max_gpus_per_job %u", a->gpus, p->name, p->max_gpus);
		return (PART_GPU_LIMIT);
	}
	if (p->max_nodes != 0 && a->nodes > p->max_nodes) {
		snprintf(detail, detlen, "%u nodes is over %s's "
		    "max_nodes_per_job %u", a->nodes, p->name, p->max_nodes);
		return (PART_NODE_LIMIT);
	}
	if (p->qos.n > 0 && a->qos != NULL && *a->qos != '\0' &&
	    !conf_file_list_has(&p->qos, a->qos)) {
		snprintf(detail, detlen, "%s is for the QOS %s%s; give one "
		    "with --qos", p->name, p->qos.v[0], p->qos.n > 1 ?
		    " and others (gctl show config)" : "");
		return (PART_QOS);
	}
	if (p->accounts.n > 0 && !conf_file_list_has(&p->accounts,
	    a->account)) {
		snprintf(detail, detlen, "%s is for the accounts %s%s; "
		    "give one with -A", p->name, p->accounts.v[0],
		    p->accounts.n > 1 ? " and others (gctl show config)" : "");
		return (PART_ACCOUNT);
	}
	return (PART_OK);
}

size_t
part_listed(const struct parts *ps, const char *list,
    const struct part **out, size_t *gone)
{
	const struct part	*p;
	const char		*w, *end;
	char			 name[LABEL_MAX + 2];
	size_t			 n = 0, len, lost = 0;

	if (gone != NULL)
		*gone = 0;
	if (ps->n == 0)
		return (0);
	if (*list == '\0') {
		out[0] = part_default(ps);
		return (1);
	}
	for (w = list; n < PART_MAX_ASKED; w = end + 1) {
		end = strchr(w, ',');
		len = end != NULL ? (size_t)(end - w) : strlen(w);
		if (len > 0 && len <= LABEL_MAX) {
			memcpy(name, w, len);
			name[len] = '\0';
			if ((p = part_find(ps, name)) != NULL)
				out[n++] = p;
			else
				lost++;
		}
		if (end == NULL)
			break;
	}
	if (gone != NULL)
		*gone = lost;
	return (n);
}

/* Whether p holds every node of names, joined by ','. */
static bool
part_holds_nodes(const struct part *p, const char *names)
{
	const char	*w, *end;
	char		 name[LABEL_MAX + 2];
	size_t		 len;

	if (p->nodes == NULL || *names == '\0')
		return (true);
	for (w = names; ; w = end + 1) {
		end = strchr(w, ',');
		len = end != NULL ? (size_t)(end - w) : strlen(w);
		if (len > LABEL_MAX)
			return (false);
		memcpy(name, w, len);
		name[len] = '\0';
		if (!part_has_node(p, name))
			return (false);
		if (end == NULL)
			return (true);
	}
}

const struct part *
part_choose(const struct parts *ps, const char *list,
    const struct part_ask *a, const char *req_nodes, enum part_refusal *why,
    char *err, size_t errlen)
{
	const struct part	*v[PART_MAX_ASKED];
	enum part_refusal	 r, first = PART_OK;
	char			 detail[256];
	size_t			 n, i, at = 0;

	if (why != NULL)
		*why = PART_OK;
	if (errlen > 0)
		err[0] = '\0';
	if ((n = part_listed(ps, list, v, NULL)) == 0) {
		if (ps->n > 0) {
			if (why != NULL)
				*why = PART_GONE;
			snprintf(err, errlen, "partition %s: no such partition "
			    "now", list);
		}
		return (NULL);
	}
	for (i = 0; i < n; i++) {
		if ((r = part_admits(v[i], a, detail, sizeof detail)) ==
		    PART_OK && !part_holds_nodes(v[i], req_nodes)) {
			r = PART_NODE_LIMIT;
			snprintf(detail, sizeof detail, "%s does not hold the "
			    "nodes %s", v[i]->name, req_nodes);
		}
		if (r == PART_OK)
			return (v[i]);
		if (first == PART_OK)
			first = r;
		if (at < errlen)
			at += (size_t)snprintf(err + at, errlen - at, "%s%s",
			    i > 0 ? "; " : "", detail);
	}
	if (why != NULL)
		*why = first;
	return (NULL);
}

const char *
part_refusal_word(enum part_refusal r)
{
	switch (r) {
	case PART_TIME_LIMIT:
		return ("PartitionTimeLimit");
	case PART_GPU_LIMIT:
		return ("PartitionGPULimit");
	case PART_NODE_LIMIT:
		return ("PartitionNodeLimit");
	case PART_ACCOUNT:
		return ("PartitionAccount");
	case PART_GONE:
		return ("PartitionConfig");
	case PART_QOS:
		return ("PartitionQOS");
	case PART_OK:
	default:
		return ("None");
	}
}

json_t *
part_json(const struct parts *ps)
{
	const struct part	*p, *def = part_default(ps);
	json_t			*a = json_object(), *o, *acc, *qos;
	size_t			 i, k;

	for (i = 0; i < ps->n; i++) {
		p = &ps->v[i];
		acc = json_array();
		for (k = 0; k < p->accounts.n; k++)
			json_array_append_new(acc,
			    json_string(p->accounts.v[k]));
		qos = json_array();
		for (k = 0; k < p->qos.n; k++)
			json_array_append_new(qos, json_string(p->qos.v[k]));
		o = json_pack("{s:s,s:b,s:I,s:I,s:I,s:I,s:o,s:o,s:I}", "nodes",
		    p->nodes != NULL ? p->nodes : "ALL",
		    "default", p == def, "default_time",
		    (json_int_t)p->default_time, "max_time",
		    (json_int_t)p->max_time, "max_gpus",
		    (json_int_t)p->max_gpus, "max_nodes",
		    (json_int_t)p->max_nodes, "accounts", acc, "qos", qos,
		    "tier",
		    (json_int_t)p->tier);
		json_object_set_new(a, p->name, o);
	}
	return (a);
}
