/* sim-part.c: gsim --conf's partitions and QOS (sim-part.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "common/hostlist.h"
#include "common/xmalloc.h"
#include "daemon/common/conf-file.h"
#include "daemon/controller/part.h"
#include "daemon/controller/qos.h"
#include "sim/sim-part.h"
#include "sim/sim.h"

/* The node sets of one combination of partitions that take a job (their
 * indexes, "0,3"): made once, shared by every job of that combination. */
struct sim_parts_sets {
	char		*key;
	uint32_t	*nodes;		/* NULL: anywhere */
	uint32_t	 nnodes;
	uint32_t	 nsets;
	uint8_t		 tier;
};

struct sim_parts {
	/* As gbatchd's conf has them: the QOS first (the partitions may
	 * name them), then the partitions. */
	struct qoses		 qos;
	struct parts		 ps;
	struct qos_tiers	 tiers;
	char			**names;	/* the nodes', cluster order */
	size_t			 nnames;
	struct sim_parts_sets	*sets;
	size_t			 nsets;
};

static int
sim_parts_member(void *settings, const config_setting_t *m, char *err,
    size_t errlen)
{
	return (part_read(&((struct sim_parts *)settings)->ps, m, err,
	    errlen));
}

static int
sim_parts_check(void *settings, const config_setting_t *g, char *err,
    size_t errlen)
{
	struct sim_parts	*sp = settings;
	int			 line = config_setting_source_line(g);

	if (part_check(&sp->ps, line, err, errlen) != 0)
		return (-1);
	return (qos_check_parts(&sp->qos, &sp->ps, line, err, errlen));
}

static int
sim_qos_member(void *settings, const config_setting_t *m, char *err,
    size_t errlen)
{
	return (qos_read(&((struct sim_parts *)settings)->qos, m, err,
	    errlen));
}

static int
sim_qos_check(void *settings, const config_setting_t *g, char *err,
    size_t errlen)
{
	return (qos_check(&((struct sim_parts *)settings)->qos,
	    config_setting_source_line(g), err, errlen));
}

/* gbatch.conf's qos and partitions groups, as gbatchd reads them. */
static const struct conf_file_group sim_parts_group[] = {
	{ "qos", NULL, 0, sim_qos_check, sim_qos_member },
	{ "partitions", NULL, 0, sim_parts_check, sim_parts_member },
};

int
sim_part_load(const char *conf, const char *nodes,
    const struct sim_cluster *c, struct sim_parts **out, char *err,
    size_t errlen)
{
	struct sim_parts	*sp = xcalloc(1, sizeof *sp);
	size_t			 n = (size_t)c->switches * c->nodes_per_switch;
	size_t			 i;
	char			 why[512];

	*out = NULL;
	if (conf_file_read(conf, true, sim_parts_group, 2, sp, err,
	    errlen) != 0)
		goto fail;
	(void)qos_tiers_make(&sp->qos, &sp->ps, &sp->tiers);
	if (nodes != NULL) {
		if (hostlist_expand(nodes, &sp->names, &sp->nnames, why,
		    sizeof why) != 0) {
			snprintf(err, errlen, "--nodes: %s", why);
			goto fail;
		}
		if (sp->nnames != n) {
			snprintf(err, errlen, "--nodes: %zu names for the "
			    "cluster's %zu nodes; expected one name a node, "
			    "in the cluster's order", sp->nnames, n);
			goto fail;
		}
	} else {
		sp->names = xcalloc(n, sizeof *sp->names);
		for (i = 0; i < n; i++)
			sp->names[i] = xasprintf("n%zu", i + 1);
		sp->nnames = n;
	}
	*out = sp;
	return (0);
fail:
	sim_part_free(sp);
	return (-1);
}

/* The sets of the partitions v[0..n) (indexes into sp->ps), made once. */
static const struct sim_parts_sets *
sim_parts_sets(struct sim_parts *sp, const struct part **v, size_t n)
{
	struct sim_parts_sets	*s;
	char			 key[PART_MAX_ASKED * 4 + 1];
	size_t			 i, k, at = 0;
	uint32_t		 total = 0, nset;

	key[0] = '\0';
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(key + at, sizeof key - at, "%s%zu",
		    i > 0 ? "," : "", (size_t)(v[i] - sp->ps.v));
	for (i = 0; i < sp->nsets; i++) {
		if (strcmp(sp->sets[i].key, key) == 0)
			return (&sp->sets[i]);
	}
	sp->sets = xreallocarray(sp->sets, sp->nsets + 1, sizeof *sp->sets);
	s = &sp->sets[sp->nsets++];
	memset(s, 0, sizeof *s);
	s->key = xstrdup(key);
	s->tier = (uint8_t)v[0]->tier;
	/* One partition of every node: no more bound than without. */
	if (n == 1 && v[0]->nodes == NULL)
		return (s);
	s->nodes = xcalloc(n + n * sp->nnames + 1, sizeof *s->nodes);
	s->nsets = (uint32_t)n;
	at = n > 1 ? n : 0;
	for (i = 0; i < n; i++) {
		for (k = 0, nset = 0; k < sp->nnames; k++) {
			if (part_has_node(v[i], sp->names[k])) {
				s->nodes[at++] = (uint32_t)k;
				nset++;
			}
		}
		total += nset;
		if (n > 1)
			s->nodes[i] = total;
	}
	s->nnodes = (uint32_t)at;
	return (s);
}

/* Job j's QOS, as gbatchd judges a submit's (its qos column, else the
 * default): its time limit (none: the QOS's max_time), its class, its
 * preempt_mode (off: never a victim; the replay takes every other job
 * to checkpoint), its limit per user. NULL, with err naming the line, for
 * a QOS that is none or whose limits refuse the job. */
static const struct qos *
sim_part_qos(const struct sim_parts *sp, const char *path, struct sim_job *j,
    char *err, size_t errlen)
{
	const struct qos	*q;
	char			 name[128], why[384];

	if (qos_resolve(&sp->qos, j->qos != NULL ? j->qos : "", name,
	    sizeof name, why, sizeof why) != 0 ||
	    qos_admits((q = qos_find(&sp->qos, name)), &j->time_limit,
	    j->gpus, why, sizeof why) != 0) {
		snprintf(err, errlen, "%s:%u: job %llu: %s", path, j->line,
		    (unsigned long long)j->id, why);
		return (NULL);
	}
	j->pclass = (uint8_t)qos_class(&sp->qos, q);
	j->no_requeue = q->mode == QOS_MODE_OFF;
	if (q->max_jobs_per_user != 0 || q->max_gpus_per_user != 0) {
		j->nlimits = 1;
		j->limit.id = qos_limit_id(q, j->user != NULL ? j->user :
		    "");
		j->limit.jobs = q->max_jobs_per_user;
		j->limit.gpus = q->max_gpus_per_user;
		j->limit.jobs_reason = SCHED_REASON_QOS_JOBS;
		j->limit.gpus_reason = SCHED_REASON_QOS_GPUS;
	}
	return (q);
}

/* Whether job j fits one of its sets on an idle cluster. */
static bool
sim_parts_fits(struct place_cluster *idle, struct place_alloc *out,
    const struct sim_job *j, bool even)
{
	struct place_want	w;
	struct place_res	res;
	uint32_t		k = 0, start;

	sim_job_want(j, even, &res, &w);
	if (j->nodes == NULL)
		return (place_find_want(idle, SCHED_PLACE_CONSOLIDATE, &w,
		    out) > 0);
	do {
		if (j->nsets <= 1) {
			w.nodes = j->nodes;
			w.nlisted = j->nnodes;
		} else {
			start = k == 0 ? 0 : j->nodes[k - 1];
			w.nodes = j->nodes + j->nsets + start;
			w.nlisted = j->nodes[k] - start;
		}
		if (w.nlisted > 0 && place_find_want(idle,
		    SCHED_PLACE_CONSOLIDATE, &w, out) > 0)
			return (true);
	} while (++k < j->nsets);
	return (false);
}

int
sim_part_apply(struct sim_parts *sp, const char *path, struct sim_trace *t,
    const struct sim_cluster *c, bool even, char *err, size_t errlen)
{
	const struct part		*v[PART_MAX_ASKED], *ok[PART_MAX_ASKED];
	const struct sim_parts_sets	*s;
	const struct qos		*q;
	struct place_cluster		*idle;
	struct place_alloc		*out;
	struct part_ask			 a;
	struct sim_job			*j;
	char				 list[1100], why[512], detail[256];
	size_t				 i, n, k, nok;
	int				 ret = 0;

	idle = place_cluster_create(1);
	sim_cluster_build(c, idle);
	out = xcalloc(place_nodes(idle) + 1, sizeof *out);
	for (i = 0; i < t->njobs && ret == 0; i++) {
		j = &t->jobs[i];
		if (part_resolve(&sp->ps, j->partition != NULL ?
		    j->partition : "", list, sizeof list, why,
		    sizeof why) != 0) {
			snprintf(err, errlen, "%s:%u: %s", path, j->line, why);
			ret = -1;
			break;
		}
		if ((q = sim_part_qos(sp, path, j, err, errlen)) == NULL) {
			ret = -1;
			break;
		}
		memset(&a, 0, sizeof a);
		a.qos = q->name;
		a.time_limit = j->time_limit;
		a.gpus = j->gpus;
		a.nodes = j->num_nodes;
		a.account = j->account != NULL ? j->account : "";
		n = part_listed(&sp->ps, list, v, NULL);
		for (k = nok = 0; k < n; k++) {
			if (part_admits(v[k], &a, detail, sizeof detail) ==
			    PART_OK)
				ok[nok++] = v[k];
		}
		if (n > 0 && nok == 0) {
			(void)part_choose(&sp->ps, list, &a, "", NULL, why,
			    sizeof why);
			snprintf(err, errlen, "%s:%u: job %llu: no partition of "
			    "%s takes it: %s", path, j->line,
			    (unsigned long long)j->id, list, why);
			ret = -1;
			break;
		}
		if (nok > 0) {
			s = sim_parts_sets(sp, ok, nok);
			j->nodes = s->nodes;
			j->nnodes = s->nnodes;
			j->nsets = s->nsets;
			j->tier = s->tier;
		}
		j->tier = qos_tier(&sp->tiers, q, j->tier);
		if (!sim_parts_fits(idle, out, j, even)) {
			snprintf(err, errlen, "%s:%u: job %llu's %u GPUs fit no "
			    "partition of %s on an idle cluster (--nodes names "
			    "the nodes its partitions hold)", path, j->line,
			    (unsigned long long)j->id, j->gpus, list);
			ret = -1;
		}
	}
	free(out);
	place_cluster_free(idle);
	return (ret);
}

void
sim_part_rules(void *arg, struct sched_core *core)
{
	const struct sim_parts	*sp = arg;

	qos_core_rules(&sp->qos, core);
}

void
sim_part_free(struct sim_parts *sp)
{
	size_t	i;

	if (sp == NULL)
		return;
	part_clear(&sp->ps);
	qos_clear(&sp->qos);
	hostlist_free(sp->names, sp->nnames);
	for (i = 0; i < sp->nsets; i++) {
		free(sp->sets[i].key);
		free(sp->sets[i].nodes);
	}
	free(sp->sets);
	free(sp);
}
