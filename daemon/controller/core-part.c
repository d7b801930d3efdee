/* core-part.c: where the core lets a job run: the nodes of its -w, -x and
 * GPU type, and of the partitions of its list that take it (part.h), one
 * set each, in its list's order, with the first one's tier; whether a
 * pending job waits outside the core for its partitions' limits or its
 * account's spent budget, and the running limits of its accounts; the
 * partition a running job runs in; what a reload leaves without one. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/job-req.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/assoc-usage.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core-int.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/part.h"

/* Whether name is one of list's ("n1,n2"). */
static bool
core_name_in(const char *name, const char *list)
{
	size_t		 len = strlen(name);
	const char	*p;

	for (p = list; (p = strstr(p, name)) != NULL; p += len) {
		if ((p == list || p[-1] == ',') && (p[len] == ',' ||
		    p[len] == '\0'))
			return (true);
	}
	return (false);
}

/* Appends to v (at *k) the core's nodes that are in p (any, for NULL)
 * and that req, exc and type allow. */
static void
core_nodes_add(const char *req, const char *exc, const char *type,
    const struct part *p, uint32_t *v, uint32_t *k)
{
	const char	*name;
	uint32_t	 i;

	for (i = 0; i < core.nnodes; i++) {
		name = node_name(core.nodes[i]);
		if ((*req != '\0' && !core_name_in(name, req)) ||
		    (*exc != '\0' && core_name_in(name, exc)) ||
		    (*type != '\0' && !node_gpus_match(core.nodes[i],
		    type)) || (p != NULL && !part_has_node(p, name)))
			continue;
		v[(*k)++] = i;
	}
}

uint32_t *
core_part_nodes_for(const char *req, const char *exc, const char *type,
    uint32_t *n)
{
	uint32_t	*v;

	*n = 0;
	if (*req == '\0' && *exc == '\0' && *type == '\0')
		return (NULL);
	v = xcalloc(core.nnodes + 1, sizeof *v);
	core_nodes_add(req, exc, type, NULL, v, n);
	return (v);
}

/* A limit group's id from its names: in the top half of the ids, where
 * no job array's id (a job id) reaches, a hash of kind and names. */
static uint64_t
core_part_limit_id(char kind, const char *a, const char *b)
{
	uint64_t	h = 14695981039346656037ULL;
	const char	*s;

	h = (h ^ (unsigned char)kind) * 1099511628211ULL;
	for (s = a; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (s = b; s != NULL && *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h | (UINT64_C(1) << 63));
}

/* Appends a limit of caps l to spec, when l has one. */
static void
core_part_limit_add(struct sched_jobspec *spec, uint64_t id,
    const struct assoc_limits *l, bool account)
{
	struct sched_limit	*s;

	if ((l->max_jobs == 0 && l->max_gpus == 0) ||
	    spec->nlimits == SCHED_MAX_LIMITS)
		return;
	s = &spec->limits[spec->nlimits++];
	s->id = id;
	s->jobs = l->max_jobs;
	s->gpus = l->max_gpus;
	s->jobs_reason = account ? SCHED_REASON_ASSOC_GRP_JOBS :
	    SCHED_REASON_ASSOC_JOBS;
	s->gpus_reason = account ? SCHED_REASON_ASSOC_GRP_GPUS :
	    SCHED_REASON_ASSOC_GPUS;
}

void
core_part_limits(const struct job *j, struct sched_jobspec *spec)
{
	const struct assoc_user		*u;
	const struct assoc_account	*a;
	const char			*account = job_account(j);
	size_t				 depth = 0;

	if (*account == '\0')
		return;
	if ((u = assoc_tab_user(&core.assoc, job_user(j), account)) != NULL)
		core_part_limit_add(spec, core_part_limit_id('u', job_user(j),
		    account), &u->lim, false);
	/* The account and each above it (a tree is shallow; the depth
	 * bound only guards against a loop). */
	for (a = assoc_tab_account(&core.assoc, account); a != NULL &&
	    depth++ < 64; a = *a->parent != '\0' ?
	    assoc_tab_account(&core.assoc, a->parent) : NULL)
		core_part_limit_add(spec, core_part_limit_id('a', a->name,
		    NULL), &a->lim, true);
}

bool
core_part_budget(struct job *j)
{
	if (!assoc_usage_held(core_usage(), &core.assoc, job_account(j),
	    NULL))
		return (false);
	job_set_reason(j, "AssocGPUHoursSpent");
	return (true);
}

uint32_t *
core_part_nodes_in(const char *req, const char *exc, const char *type,
    const struct part *p, uint32_t *n)
{
	uint32_t	*v;

	*n = 0;
	if (p == NULL || p->nodes == NULL)
		return (core_part_nodes_for(req, exc, type, n));
	v = xcalloc(core.nnodes + 1, sizeof *v);
	core_nodes_add(req, exc, type, p, v, n);
	return (v);
}

/* What j asks that its partitions judge. */
static void
core_part_ask(const struct job *j, struct part_ask *a)
{
	memset(a, 0, sizeof *a);
	a->time_limit = job_time_limit(j);
	a->gpus = job_gpus(j);
	a->nodes = job_num_nodes(j);
	a->account = job_account(j);
	a->qos = job_qos(j);
}

/* The nodes j may run on (NULL: any), as sched_jobspec lays out its
 * sets: one for each partition of its list that takes it, in order
 * (*nsets of them), and its tier, the first such partition's. */
uint32_t *
core_part_job_nodes(const struct job *j, uint32_t *n, uint32_t *nsets,
    uint8_t *tier)
{
	const struct parts	*ps = &ctx_conf()->parts;
	const struct part	*v[PART_MAX_ASKED], *ok[PART_MAX_ASKED];
	const char		*req = job_req_nodes(j);
	const char		*exc = job_exclude_nodes(j);
	const char		*type = job_gpu_type(j);
	struct part_ask		 a;
	char			 detail[256];
	uint32_t		*nodes, k = 0, s, nok = 0;
	size_t			 nv, i;

	*nsets = 0;
	*tier = 0;
	if ((nv = part_listed(ps, job_partition(j), v, NULL)) == 0)
		return (core_part_nodes_for(req, exc, type, n));
	core_part_ask(j, &a);
	for (i = 0; i < nv; i++) {
		if (part_admits(v[i], &a, detail, sizeof detail) == PART_OK)
			ok[nok++] = v[i];
	}
	if (nok > 0)
		*tier = (uint8_t)ok[0]->tier;
	/* One partition of every node: no more bound than without. */
	if (nok == 1 && ok[0]->nodes == NULL)
		return (core_part_nodes_for(req, exc, type, n));
	nodes = xcalloc((size_t)core.nnodes * (nok > 0 ? nok : 1) + nok + 1,
	    sizeof *nodes);
	if (nok <= 1) {
		if (nok == 1)
			core_nodes_add(req, exc, type, ok[0], nodes, &k);
		*n = k;
		*nsets = nok;
		return (nodes);
	}
	/* Each set after the ends, which say where each stops. */
	k = nok;
	for (s = 0; s < nok; s++) {
		core_nodes_add(req, exc, type, ok[s], nodes, &k);
		nodes[s] = k - nok;
	}
	*n = k;
	*nsets = nok;
	return (nodes);
}

/* Whether pending job j must stay out of the core as no partition of its
 * list takes it now (a reload removed them or changed their limits): its
 * reason names the first refusal. */
bool
core_part_before(struct job *j)
{
	const struct parts	*ps = &ctx_conf()->parts;
	struct part_ask		 a;
	enum part_refusal	 why;
	char			 err[64];

	if (ps->n == 0)
		return (false);
	core_part_ask(j, &a);
	if (part_choose(ps, job_partition(j), &a, job_req_nodes(j), &why, err,
	    sizeof err) != NULL)
		return (false);
	job_set_reason(j, part_refusal_word(why));
	return (true);
}

/* Appends id to the list in buf (at most a few, then "..."). */
static void
core_note_id(char *buf, size_t len, size_t *count, uint64_t id)
{
	size_t	at = strlen(buf);

	if (++*count <= 8)
		snprintf(buf + at, len - at, "%s%" PRIu64, *count > 1 ? ", " :
		    "", id);
	else if (*count == 9)
		snprintf(buf + at, len - at, ", ...");
}

/* A reload's note: logged, and appended to notes. Frees line. */
static void
core_note(json_t *notes, char *line)
{
	log_warn("gbatchd: reconfigure: %s", line);
	json_array_append_new(notes, json_string(line));
	free(line);
}

void
core_part_notes(json_t *notes)
{
	const struct parts	*ps = &ctx_conf()->parts;
	const struct part	*v[PART_MAX_ASKED];
	struct part_ask		 a;
	struct job		*j;
	enum job_state		 st;
	char			 run[256] = "", wait[256] = "", err[64];
	char			 qrun[256] = "", qwait[256] = "";
	size_t			 nrun = 0, nwait = 0, nqrun = 0, nqwait = 0;
	size_t			 gone;

	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		st = job_state(j);
		/* Its QOS gone: it runs on, or waits (InvalidQOS). */
		if (core_qos_of(j) == NULL && (core_running(st) ||
		    st == JOB_PENDING))
			core_note_id(core_running(st) ? qrun : qwait, 256,
			    core_running(st) ? &nqrun : &nqwait, job_id(j));
		if (core_running(st)) {
			if (part_listed(ps, job_partition(j), v, &gone) == 0 &&
			    gone > 0)
				core_note_id(run, sizeof run, &nrun,
				    job_id(j));
		} else if (st == JOB_PENDING && ps->n > 0) {
			core_part_ask(j, &a);
			if (part_choose(ps, job_partition(j), &a,
			    job_req_nodes(j), NULL, err, sizeof err) == NULL)
				core_note_id(wait, sizeof wait, &nwait,
				    job_id(j));
		}
	}
	if (nrun > 0)
		core_note(notes, xasprintf("%zu running job%s (%s) ran in "
		    "partitions no longer in the file: they keep running where "
		    "they are", nrun, nrun == 1 ? "" : "s", run));
	if (nwait > 0)
		core_note(notes, xasprintf("%zu pending job%s (%s): no "
		    "partition %s takes %s now; %s until one does (gq -o reason "
		    "says why)", nwait, nwait == 1 ? "" : "s", wait, nwait == 1 ?
		    "it lists" : "they list", nwait == 1 ? "it" : "them",
		    nwait == 1 ? "it waits" : "they wait"));
	if (nqrun > 0)
		core_note(notes, xasprintf("%zu running job%s (%s) of QOS no "
		    "longer in the file: they keep running", nqrun, nqrun == 1 ?
		    "" : "s", qrun));
	if (nqwait > 0)
		core_note(notes, xasprintf("%zu pending job%s (%s) of QOS no "
		    "longer in the file wait (InvalidQOS) until %s moved to "
		    "another (gctl update job ID QOS=NAME) or the QOS comes back",
		    nqwait, nqwait == 1 ? "" : "s", qwait, nqwait == 1 ? "it is" :
		    "they are"));
}

const char *
core_part_run(const struct job *j, char *buf, size_t len)
{
	return (core_part_run_on(j, NULL, job_nparts(j), buf, len));
}

const char *
core_part_run_on(const struct job *j, const struct job_part *parts,
    size_t nparts, char *buf, size_t len)
{
	const struct parts	*ps = &ctx_conf()->parts;
	const struct part	*v[PART_MAX_ASKED];
	const struct job_part	*p;
	struct part_ask		 a;
	const char		*list = job_partition(j);
	char			 detail[256];
	size_t			 n, i, k;

	if ((n = part_listed(ps, list, v, NULL)) == 0) {
		/* No partitions, or none of its list left: its first. */
		if (*list == '\0')
			list = JOB_REQ_PARTITION;
		snprintf(buf, len, "%.*s", (int)strcspn(list, ","), list);
		return (buf);
	}
	core_part_ask(j, &a);
	for (i = 0; i < n; i++) {
		if (part_admits(v[i], &a, detail, sizeof detail) != PART_OK)
			continue;
		for (k = 0; k < nparts; k++) {
			p = parts != NULL ? &parts[k] : job_part_const(j, k);
			if (!part_has_node(v[i], node_name(p->node)))
				break;
		}
		if (k == nparts)
			break;
	}
	snprintf(buf, len, "%s", v[i < n ? i : 0]->name);
	return (buf);
}

