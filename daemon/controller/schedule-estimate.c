/* schedule-estimate.c: a job's start foreseen (schedule-estimate.h). A
 * copy of the core's cluster is played forward: at each instant the jobs
 * served first take what fits, then the job asks; otherwise time moves to
 * the next end of a time limit. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/schedule-estimate.h"
#include "policy/place.h"
#include "policy/sched-core.h"

#define ESTIMATE_NEVER	INT64_MAX
/* The most pending jobs played before it: past that many the estimate
 * says how many come first and foresees no start. */
#define ESTIMATE_MAX_AHEAD	10000

/* A job asking for GPUs in the play: one served first, or the job. */
struct estimate_job {
	uint32_t		 gpus;
	uint32_t		 num_nodes;	/* its shape; 0: free */
	bool			 any_shape;
	bool			 consolidate;
	enum sched_placement	 placement;
	uint32_t		*nodes;		/* NULL: any */
	uint32_t		 nnodes;
	int64_t			 limit;		/* ms; 0: none */
	bool			 placed;
};

/* GPUs held until end (ms; ESTIMATE_NEVER: no time limit). */
struct estimate_hold {
	int64_t			 end;
	struct place_alloc	*a;
	size_t			 n;
};

struct estimate {
	struct place_cluster	*cl;
	struct place_alloc	*scratch;
	size_t			 scratchsize;
	struct estimate_hold	*holds;
	size_t			 nholds, holdsize;
	struct estimate_job	*ahead;
	size_t			 nahead, aheadsize;
	bool			 one_queue;
};

static void
estimate_hold(struct estimate *e, int64_t end, const struct place_alloc *a,
    size_t n)
{
	struct estimate_hold	*h;

	if (e->nholds == e->holdsize) {
		e->holdsize = e->holdsize != 0 ? e->holdsize * 2 : 64;
		e->holds = xreallocarray(e->holds, e->holdsize,
		    sizeof *e->holds);
	}
	h = &e->holds[e->nholds++];
	h->end = end;
	h->n = n;
	h->a = xreallocarray(NULL, n, sizeof *a);
	memcpy(h->a, a, n * sizeof *a);
	place_take(e->cl, a, n);
}

/* Where j fits now, in e->scratch; 0 when it does not. */
static size_t
estimate_find(struct estimate *e, const struct estimate_job *j)
{
	if (e->scratchsize < j->gpus) {
		e->scratchsize = j->gpus;
		e->scratch = xreallocarray(e->scratch, j->gpus,
		    sizeof *e->scratch);
	}
	struct place_want	w = {
		.gpus = j->gpus,
		.nnodes = j->num_nodes,
		.any_shape = j->any_shape,
		.sensitive = j->consolidate,
		.nodes = j->nodes,
		.nlisted = j->nnodes,
	};

	return (place_find_want(e->cl, j->placement, &w, e->scratch));
}

static void
estimate_job_of(struct estimate_job *ej, uint32_t gpus, uint32_t num_nodes,
    uint32_t flags, const char *req, const char *exc, const char *type,
    int64_t run_ms)
{
	memset(ej, 0, sizeof *ej);
	ej->gpus = gpus;
	ej->num_nodes = num_nodes;
	ej->any_shape = (flags & JOB_F_ANY_SHAPE) != 0;
	ej->consolidate = (flags & JOB_F_CONSOLIDATE) != 0;
	ej->placement = (flags & JOB_F_SPREAD) ? SCHED_PLACE_SPREAD :
	    ctx_conf()->sched.placement;
	ej->nodes = core_part_nodes_for(req != NULL ? req : "", exc != NULL ?
	    exc : "", type != NULL ? type : "", &ej->nnodes);
	/* A run past its prediction is due any moment: a ms. */
	ej->limit = run_ms == CORE_PREDICT_NEVER ? 0 : run_ms > 0 ? run_ms : 1;
}

/* The pending jobs a new one would come after (sched_core_each_pending's
 * order). */
static void
estimate_pending(struct sched_cjob *cj, void *arg)
{
	struct estimate		*e = arg;
	struct job		*j = sched_cjob_arg(cj);

	if ((!e->one_queue && sched_cjob_queue(cj) != 0) ||
	    e->nahead == ESTIMATE_MAX_AHEAD)
		return;
	if (e->nahead == e->aheadsize) {
		e->aheadsize = e->aheadsize != 0 ? e->aheadsize * 2 : 64;
		e->ahead = xreallocarray(e->ahead, e->aheadsize,
		    sizeof *e->ahead);
	}
	estimate_job_of(&e->ahead[e->nahead++], job_gpus(j), job_num_nodes(j),
	    job_flags(j), job_req_nodes(j),
	    job_exclude_nodes(j), job_gpu_type(j), core_predict_run_for(j));
}

/* The cluster as the core has it, each GPU in use held till its job's
 * time limit (or for good: a job without one, or a GPU no job accounts
 * for, a stale copy's). */
static void
estimate_cluster(struct estimate *e, struct sched_core *core)
{
	struct place_cluster	*live = sched_core_cluster(core);
	struct place_alloc	*a, one = { 0 };
	struct node		*n;
	struct job		*j;
	uint64_t		 full, used;
	uint32_t		 i, sw;
	size_t			 k, np;

	e->cl = place_cluster_create(ctx_conf()->sched.seed);
	for (i = 0; (n = core_node_at(i, &sw)) != NULL; i++) {
		(void)place_node_add(e->cl, place_node_gpus(live, i), sw);
		place_node_set_up(e->cl, i, node_is_schedulable(n));
	}
	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (!job_state_on_node(job_state(j)) ||
		    (np = job_nparts(j)) == 0)
			continue;
		a = xcalloc(np, sizeof *a);
		for (k = i = 0; k < np; k++) {
			a[i].node = node_sched_index(job_part_const(j,
			    k)->node);
			a[i].mask = job_part_const(j, k)->mask &
			    place_node_free_mask(e->cl, a[i].node);
			if (a[i].node < place_nodes(e->cl) && a[i].mask != 0)
				i++;
		}
		estimate_hold(e, core_predict_end(j), a, i);
		free(a);
	}
	for (i = 0; i < place_nodes(e->cl); i++) {
		full = place_node_gpus(e->cl, i) >= 64 ? UINT64_MAX :
		    (UINT64_C(1) << place_node_gpus(e->cl, i)) - 1;
		used = full & ~place_node_free_mask(live, i) &
		    place_node_free_mask(e->cl, i);
		if (used == 0)
			continue;
		one.node = i;
		one.mask = used;
		estimate_hold(e, ESTIMATE_NEVER, &one, 1);
	}
}

/* "n1 GPUs 0,1, n2 GPU 3" into buf and "n1,n2" into names: the n parts
 * in e->scratch. */
static void
estimate_where(const struct estimate *e, size_t n, char *buf, size_t len,
    char *names, size_t nameslen)
{
	struct node	*node;
	uint32_t	 sw;
	size_t		 i, at = 0, gat, nat = 0;
	unsigned	 g;
	char		 gpus[256];
	int		 w;

	buf[0] = '\0';
	names[0] = '\0';
	for (i = 0; i < n && at < len; i++) {
		gpus[0] = '\0';
		for (g = 0, gat = 0; g < 64 && gat < sizeof gpus; g++) {
			if ((e->scratch[i].mask & (UINT64_C(1) << g)) == 0)
				continue;
			if ((w = snprintf(gpus + gat, sizeof gpus - gat, "%s%u",
			    gat > 0 ? "," : "", g)) < 0)
				break;
			gat += (size_t)w;
		}
		node = core_node_at(e->scratch[i].node, &sw);
		if (node != NULL && nat < nameslen) {
			if ((w = snprintf(names + nat, nameslen - nat, "%s%s",
			    nat > 0 ? "," : "", node_name(node))) < 0)
				return;
			nat += (size_t)w;
		}
		if ((w = snprintf(buf + at, len - at, "%s%s GPU%s %s", i > 0 ?
		    ", " : "", node != NULL ? node_name(node) : "?",
		    sched_mask_count(e->scratch[i].mask) > 1 ? "s" : "",
		    gpus)) < 0)
			return;
		at += (size_t)w;
	}
}

/* Narrows me to the nodes of the first partition of row's list that
 * takes it (the one a submit would most likely run it in). */
static void
estimate_partition(struct estimate_job *me, const struct store_job *row)
{
	const struct parts	*ps = &ctx_conf()->parts;
	const struct part	*p;
	struct part_ask		 a;
	char			 err[64];

	if (ps->n == 0 || row->partition == NULL)
		return;
	memset(&a, 0, sizeof a);
	a.time_limit = row->time_limit;
	a.gpus = row->gpus;
	a.nodes = row->num_nodes;
	a.account = row->account != NULL ? row->account : "";
	if ((p = part_choose(ps, row->partition, &a, row->req_nodes != NULL ?
	    row->req_nodes : "", NULL, err, sizeof err)) == NULL ||
	    p->nodes == NULL)
		return;
	free(me->nodes);
	me->nodes = core_part_nodes_in(row->req_nodes != NULL ?
	    row->req_nodes : "", row->exclude_nodes != NULL ?
	    row->exclude_nodes : "", row->gpu_type != NULL ? row->gpu_type :
	    "", p, &me->nnodes);
}

void
schedule_estimate(const struct store_job *row, int64_t now,
    struct schedule_estimate *out)
{
	struct sched_core	*core = core_sched();
	struct estimate		 e;
	struct estimate_job	 me;
	int64_t			 t = now, next;
	size_t			 i, got, round;

	memset(out, 0, sizeof *out);
	memset(&e, 0, sizeof e);
	e.one_queue = sched_core_queues(core) == 1;
	estimate_cluster(&e, core);
	sched_core_each_pending(core, estimate_pending, &e);
	out->ahead = e.nahead;
	estimate_job_of(&me, row->gpus, row->num_nodes, row->flags,
	    row->req_nodes,
	    row->exclude_nodes, row->gpu_type, 0);
	estimate_partition(&me, row);
	/* Each round ends at least one hold, so this ends. */
	for (round = 0; round <= e.nholds + e.nahead + 1; round++) {
		for (i = 0; i < e.nahead; i++) {
			if (e.ahead[i].placed ||
			    (got = estimate_find(&e, &e.ahead[i])) == 0)
				continue;
			e.ahead[i].placed = true;
			estimate_hold(&e, e.ahead[i].limit > 0 ? t +
			    e.ahead[i].limit : ESTIMATE_NEVER, e.scratch, got);
		}
		if ((got = estimate_find(&e, &me)) > 0) {
			out->found = true;
			out->start = (t + 999) / 1000;
			estimate_where(&e, got, out->where,
			    sizeof out->where, out->nodes, sizeof out->nodes);
			break;
		}
		next = ESTIMATE_NEVER;
		for (i = 0; i < e.nholds; i++) {
			if (e.holds[i].n > 0 && e.holds[i].end < next)
				next = e.holds[i].end;
		}
		if (next == ESTIMATE_NEVER)
			break;
		t = next > t ? next : t;
		for (i = 0; i < e.nholds; i++) {
			if (e.holds[i].n == 0 || e.holds[i].end > t)
				continue;
			place_release(e.cl, e.holds[i].a, e.holds[i].n);
			e.holds[i].n = 0;
		}
	}
	out->never_fits = !out->found && place_gpus_total(e.cl) < row->gpus;
	for (i = 0; i < e.nholds; i++)
		free(e.holds[i].a);
	for (i = 0; i < e.nahead; i++)
		free(e.ahead[i].nodes);
	free(e.holds);
	free(e.ahead);
	free(e.scratch);
	free(me.nodes);
	place_cluster_free(e.cl);
}
