/* sim-elastic.c: gsim's elastic replay; see sim-elastic.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "policy/elastic.h"
#include "policy/goodput.h"
#include "policy/predict.h"
#include "sim/sim-appjob.h"
#include "sim/sim-elastic.h"

struct sim_ejob {
	struct sim_appjob	 aj;
	uint32_t		*on;		/* its GPUs on each node */
	uint32_t		 gpus;		/* their sum */
	uint32_t		 max;		/* the most it can use */
	double			*speedup;	/* [0..max] */
	uint32_t		*batch;		/* the best batch on n GPUs */
	uint32_t		 sp_epoch;	/* the speedup's; UINT32_MAX: none */
	int64_t			 restart_ms;	/* of a restart, still to pay */
	int64_t			 since;		/* holds its GPUs since */
	uint64_t		 attained;	/* GPU-ms */
	int			 active;	/* submitted, not done */
	/* What its reports taught the scheduler, and the name key under
	 * which the next job of its name starts from it. */
	struct goodput_model	 gm;
	char			 key[PREDICT_KEY_MAX + 1];
	uint32_t		 nnodes;	/* nodes it runs on */
	double			 one;		/* its goodput on 1 GPU */
	/* The gradient statistics of its first report: where the next job
	 * of its name starts (statistics change as a job trains). */
	double			 sqr0, var0;
	bool			 grads0;
};

/* The newest model of each name key. */
struct sim_ename {
	char			 key[PREDICT_KEY_MAX + 1];
	struct goodput_model	 gm;
};

struct sim_eloop {
	const struct sim_trace	*trace;
	const struct sim_opts	*o;
	struct sim_result	*res;
	struct sim_ejob		*j;
	uint32_t		*free;		/* by node */
	uint32_t		 nodes, per;
	uint32_t		*counts;	/* scratch: a packed placement */
	bool			 oracle;	/* speedups from the tables */
	struct sim_ename	*names;
	size_t			 nnames;
};

/* The GPUs of n packed on the fewest nodes, in l->counts; their count. */
static size_t
sim_elastic_packed(struct sim_eloop *l, uint32_t n)
{
	size_t	k = 0;

	while (n > 0) {
		l->counts[k] = n < l->per ? n : l->per;
		n -= l->counts[k++];
	}
	return (k);
}

/* Job e's GPUs on each node it holds some on, into l->counts; their
 * count. */
static size_t
sim_elastic_counts(struct sim_eloop *l, const struct sim_ejob *e)
{
	uint32_t	k;
	size_t		m = 0;

	for (k = 0; k < l->nodes; k++) {
		if (e->on[k] > 0)
			l->counts[m++] = e->on[k];
	}
	return (m);
}

/* Job e's goodput on n GPUs placed counts[0..k) at batch size b: from
 * the tables (the oracle), or from its model. */
static double
sim_elastic_goodput(const struct sim_eloop *l, const struct sim_ejob *e,
    const uint32_t *counts, size_t k, uint32_t n, uint32_t b)
{
	struct sim_appjob	t;
	uint32_t		atomic, accum;

	if (l->oracle) {
		t = e->aj;
		t.batch = b;
		return (sim_appjob_place(&t, counts, k) == 0 ?
		    sim_appjob_rate(&t, e->aj.epoch) : 0);
	}
	sim_appjob_config(e->aj.app, b, n, &atomic, &accum);
	return (goodput_rate(&e->gm, (uint32_t)k, n, atomic, accum,
	    sim_app_init_batch(e->aj.app)));
}

/* The batch sizes app may train on n GPUs, into cand[0..64): from the
 * first validated (or n times the smallest local one) to the largest, by
 * factors of sqrt 2. Returns their count. */
static size_t
sim_elastic_batches(const struct sim_app *app, uint32_t n, uint32_t *cand)
{
	uint32_t	lo, hi = sim_app_max_batch(app);
	double		b;
	size_t		nc = 0;

	lo = n * sim_app_min_local(app);
	if (lo < sim_app_init_batch(app))
		lo = sim_app_init_batch(app);
	for (b = lo; b < hi && nc < 63; b *= M_SQRT2)
		cand[nc++] = (uint32_t)b;
	cand[nc++] = hi;
	return (nc);
}

/* The batch size among sim_elastic_batches' that trains job e fastest on
 * n GPUs placed counts[0..k), and that goodput in *best (0 where none
 * trains). */
static uint32_t
sim_elastic_best_batch(const struct sim_eloop *l, const struct sim_ejob *e,
    const uint32_t *counts, size_t k, uint32_t n, double *best)
{
	uint32_t	cand[64], bb;
	double		g;
	size_t		c, nc = sim_elastic_batches(e->aj.app, n, cand);

	*best = 0;
	bb = cand[0];
	for (c = 0; c < nc; c++) {
		if ((g = sim_elastic_goodput(l, e, counts, k, n, cand[c])) >
		    *best) {
			*best = g;
			bb = cand[c];
		}
	}
	return (bb);
}

/* Job e's speedups and the batch sizes that give them: for n GPUs packed,
 * the batch size that trains fastest (sim_elastic_best_batch). From its
 * model: linear while it knows nothing, and no further than twice the
 * most GPUs it reported from (goodput_explore); from the tables (the
 * oracle), at its epoch. */
static void
sim_elastic_speedups(struct sim_eloop *l, struct sim_ejob *e)
{
	double		best, one = 1;
	uint32_t	n, bb, most;
	size_t		k;

	if (l->oracle && e->sp_epoch == e->aj.epoch)
		return;
	e->sp_epoch = e->aj.epoch;
	most = l->oracle ? e->max : goodput_explore(&e->gm);
	e->speedup[0] = 0;
	for (n = 1; n <= e->max; n++) {
		best = 0;
		bb = e->batch[n - 1];
		if (n <= most) {
			k = sim_elastic_packed(l, n);
			bb = sim_elastic_best_batch(l, e, l->counts, k, n,
			    &best);
		}
		if (n == 1)
			e->one = one = best > 0 ? best : 1;
		if (!l->oracle && !goodput_known(&e->gm))
			e->speedup[n] = n;
		else
			e->speedup[n] = best / one;
		e->batch[n] = bb;
		/* More GPUs never train slower (an allocation can leave
		 * some idle), and none past what it may explore. */
		if (e->speedup[n] < e->speedup[n - 1] || n > most)
			e->speedup[n] = e->speedup[n - 1];
	}
}

/* Job e's work left, in seconds on one GPU, as its scheduler knows it:
 * what it has still to train (a job of gsim knows its epochs, as a
 * training script knows its budget) over its goodput on one GPU by its
 * model (by the tables for the oracle); 0 while its model knows nothing
 * (elastic.h guesses it from its service). */
static double
sim_elastic_left(const struct sim_eloop *l, const struct sim_ejob *e)
{
	const struct sim_app	*app = e->aj.app;
	double			 todo;

	if ((!l->oracle && !goodput_known(&e->gm)) || !(e->one > 0))
		return (0);
	todo = sim_app_progress(app, sim_app_epochs(app)) - e->aj.progress;
	return (todo > 0 ? todo / e->one : 0);
}

/* Job i's report of the interval it trained: its configuration's step
 * and sync, its gradient statistics now; the model of its name moves
 * with it, but for the statistics of its first report, which are what a
 * new job of its name trains with (they grow as a job trains: a new job
 * given its elder's last ones would be thought to scale as the elder did
 * at its end). */
static void
sim_elastic_report(struct sim_eloop *l, size_t i)
{
	struct sim_ejob		*e = &l->j[i];
	struct goodput_report	 r;
	double			 sqr, var;
	size_t			 k;

	r.nodes = e->nnodes;
	r.replicas = e->gpus;
	r.local = e->aj.atomic;
	r.step_s = e->aj.raw_step;
	r.sync_s = e->aj.raw_sync;
	goodput_report(&e->gm, &r);
	sim_app_grad(e->aj.app, e->aj.trained, e->aj.epoch, &sqr, &var);
	goodput_grads(&e->gm, sqr, var);
	for (k = 0; k < l->nnames; k++) {
		if (strcmp(l->names[k].key, e->key) == 0)
			break;
	}
	if (k == l->nnames) {
		l->names = xreallocarray(l->names, l->nnames + 1,
		    sizeof *l->names);
		memcpy(l->names[k].key, e->key, sizeof e->key);
		l->nnames++;
	}
	if (!e->grads0) {
		e->grads0 = true;
		e->sqr0 = sqr;
		e->var0 = var;
	}
	l->names[k].gm = e->gm;
	goodput_grads(&l->names[k].gm, e->sqr0, e->var0);
}

/* Job i comes: it starts from the model of the newest job of its name,
 * if any reported. */
static void
sim_elastic_arrive(struct sim_eloop *l, size_t i)
{
	struct sim_ejob	*e = &l->j[i];
	size_t		 k;

	e->active = 1;
	for (k = 0; k < l->nnames; k++) {
		if (strcmp(l->names[k].key, e->key) == 0) {
			e->gm = l->names[k].gm;
			break;
		}
	}
}

/* Job i gives its GPUs back at now (its run so far counted). */
static void
sim_elastic_release(struct sim_eloop *l, size_t i, int64_t now)
{
	struct sim_ejob	*e = &l->j[i];
	uint32_t	 k;

	if (e->gpus == 0)
		return;
	sim_result_span(l->res, i, e->since, now);
	l->res->busy_gpu_ms += (uint64_t)(now - e->since) * e->gpus;
	for (k = 0; k < l->nodes; k++) {
		l->free[k] += e->on[k];
		e->on[k] = 0;
	}
	e->gpus = 0;
}

/* The node to take up to left GPUs from: an idle one while left fills a
 * node, else the one whose free GPUs fit left most tightly, else the one
 * with the most free. UINT32_MAX: none is free. */
static uint32_t
sim_elastic_node(const struct sim_eloop *l, uint32_t left)
{
	uint32_t	k, fit = UINT32_MAX, most = UINT32_MAX;

	for (k = 0; k < l->nodes; k++) {
		if (l->free[k] == 0)
			continue;
		if (left >= l->per && l->free[k] == l->per)
			return (k);
		if (l->free[k] >= left && (fit == UINT32_MAX ||
		    l->free[k] < l->free[fit]))
			fit = k;
		if (most == UINT32_MAX || l->free[k] > l->free[most])
			most = k;
	}
	return (fit != UINT32_MAX ? fit : most);
}

/* Job i takes n GPUs at now, packed on the fewest nodes it can find
 * (sim_elastic_node), and restarts on them at the batch size that suits
 * them. */
static void
sim_elastic_place(struct sim_eloop *l, size_t i, uint32_t n, int64_t now)
{
	struct sim_ejob	*e = &l->j[i];
	uint32_t	 left = n, best, take;
	size_t		 m;

	while (left > 0) {
		if ((best = sim_elastic_node(l, left)) == UINT32_MAX)
			break;
		take = left < l->free[best] ? left : l->free[best];
		e->on[best] += take;
		l->free[best] -= take;
		left -= take;
	}
	e->gpus = n - left;
	m = sim_elastic_counts(l, e);
	e->nnodes = (uint32_t)m;
	e->aj.batch = e->batch[e->gpus];
	(void)sim_appjob_place(&e->aj, l->counts, m);
	e->restart_ms = l->o->overhead_ms;
	e->since = now;
	if (l->res->jobs[i].start_ms < 0) {
		l->res->jobs[i].start_ms = now;
		l->res->jobs[i].nodes = (uint32_t)m;
	}
}

/* Job e, at the start of an epoch, trains on at the batch size that is
 * fastest on its GPUs, as Pollux's agent retunes its batch between
 * epochs without a restart: by the tables for the oracle, else by its
 * model, told its gradient statistics first (it measures them as it
 * trains). */
static void
sim_elastic_retune(struct sim_eloop *l, struct sim_ejob *e)
{
	double		sqr, var, best;
	uint32_t	b;
	size_t		m;

	if (!l->oracle) {
		sim_app_grad(e->aj.app, e->aj.trained, e->aj.epoch, &sqr,
		    &var);
		goodput_grads(&e->gm, sqr, var);
		if (!goodput_known(&e->gm))
			return;
	}
	m = sim_elastic_counts(l, e);
	b = sim_elastic_best_batch(l, e, l->counts, m, e->gpus, &best);
	if (best > 0 && b != e->aj.batch) {
		e->aj.batch = b;
		(void)sim_appjob_place(&e->aj, l->counts, m);
	}
}

/* Runs job i from now for up to dt ms, an epoch at a time (retuned at
 * each one's start); returns 1 when it ended (at *end), its GPUs given
 * back. */
static int
sim_elastic_advance(struct sim_eloop *l, size_t i, int64_t now, int64_t dt,
    int64_t *end)
{
	struct sim_ejob	*e = &l->j[i];
	int64_t		 t, ms, r;

	t = r = dt < e->restart_ms ? dt : e->restart_ms;
	e->restart_ms -= r;
	while (t < dt) {
		if ((ms = sim_appjob_epoch_ms(&e->aj)) > dt - t) {
			sim_appjob_advance(&e->aj, dt - t);
			break;
		}
		sim_appjob_advance(&e->aj, ms);
		t += ms;
		if (sim_appjob_done(&e->aj)) {
			*end = now + t;
			e->attained += (uint64_t)t * e->gpus;
			sim_elastic_release(l, i, *end);
			return (1);
		}
		sim_elastic_retune(l, e);
	}
	e->attained += (uint64_t)dt * e->gpus;
	/* It trained: it reports how. */
	if (dt > r)
		sim_elastic_report(l, i);
	return (0);
}

/* A pass at now: the GPUs shared again, and the jobs whose share changed
 * moved (a running one restarts: a preemption). */
static void
sim_elastic_pass(struct sim_eloop *l, struct elastic_job *ej, size_t *idx,
    uint32_t total, int64_t now)
{
	size_t	i, m = 0, k, best;

	for (i = 0; i < l->trace->njobs; i++) {
		if (!l->j[i].active)
			continue;
		sim_elastic_speedups(l, &l->j[i]);
		memset(&ej[m], 0, sizeof ej[m]);
		ej[m].speedup = l->j[i].speedup;
		ej[m].max = l->j[i].max;
		ej[m].now = l->j[i].gpus;
		ej[m].attained = l->j[i].attained;
		ej[m].left = sim_elastic_left(l, &l->j[i]);
		idx[m++] = i;
	}
	(void)elastic_share(ej, m, total, (double)l->o->overhead_ms / 1000);
	for (k = 0; k < m; k++) {
		if (ej[k].want == ej[k].now)
			continue;
		if (ej[k].now > 0) {
			l->res->jobs[idx[k]].preemptions++;
			l->res->preemptions++;
		}
		sim_elastic_release(l, idx[k], now);
	}
	/* The largest first, on the emptiest nodes. */
	for (;;) {
		best = m;
		for (k = 0; k < m; k++) {
			if (ej[k].want != ej[k].now && ej[k].want > 0 &&
			    l->j[idx[k]].gpus == 0 && (best == m ||
			    ej[k].want > ej[best].want))
				best = k;
		}
		if (best == m)
			break;
		sim_elastic_place(l, idx[best], ej[best].want, now);
		ej[best].now = ej[best].want;
	}
}

int
sim_elastic_run(const struct sim_trace *trace, const struct sim_cluster *cl,
    const struct sim_opts *o, bool oracle, struct sim_result *res, char *err,
    size_t errlen)
{
	struct sim_eloop	 l;
	struct elastic_job	*ej;
	struct sim_ejob		*e;
	size_t			*idx, i, next = 0, done = 0, running;
	int64_t			 interval, now, t, end;
	uint32_t		 total, cap;
	int			 ret = -1;

	memset(res, 0, sizeof *res);
	memset(&l, 0, sizeof l);
	for (i = 0; i < trace->njobs; i++) {
		if (trace->jobs[i].app == NULL ||
		    trace->jobs[i].app_index >= o->napps) {
			snprintf(err, errlen, "line %u: --elastic replays jobs "
			    "that train an application (--apps); this one "
			    "runs a duration", trace->jobs[i].line);
			return (-1);
		}
	}
	interval = o->interval_ms > 0 ? o->interval_ms : 60000;
	l.trace = trace;
	l.o = o;
	l.oracle = oracle;
	l.res = res;
	l.nodes = cl->switches * cl->nodes_per_switch;
	l.per = cl->gpus_per_node;
	total = l.nodes * l.per;
	l.free = xcalloc(l.nodes, sizeof *l.free);
	l.counts = xcalloc(total + 1, sizeof *l.counts);
	for (i = 0; i < l.nodes; i++)
		l.free[i] = l.per;
	res->njobs = trace->njobs;
	res->jobs = xcalloc(trace->njobs != 0 ? trace->njobs : 1,
	    sizeof *res->jobs);
	l.j = xcalloc(trace->njobs != 0 ? trace->njobs : 1, sizeof *l.j);
	ej = xcalloc(trace->njobs != 0 ? trace->njobs : 1, sizeof *ej);
	idx = xcalloc(trace->njobs != 0 ? trace->njobs : 1, sizeof *idx);
	for (i = 0; i < trace->njobs; i++) {
		e = &l.j[i];
		res->jobs[i].start_ms = -1;
		res->jobs[i].end_ms = -1;
		sim_appjob_init(&e->aj, o->apps[trace->jobs[i].app_index],
		    trace->jobs[i].batch);
		cap = sim_app_max_batch(e->aj.app) /
		    sim_app_min_local(e->aj.app);
		e->max = cap < total ? (cap > 0 ? cap : 1) : total;
		e->on = xcalloc(l.nodes, sizeof *e->on);
		e->speedup = xcalloc(e->max + 1, sizeof *e->speedup);
		e->batch = xcalloc(e->max + 1, sizeof *e->batch);
		e->sp_epoch = UINT32_MAX;
		goodput_init(&e->gm);
		(void)predict_name_key(trace->jobs[i].name != NULL ?
		    trace->jobs[i].name : trace->jobs[i].app, e->key,
		    sizeof e->key);
	}
	now = trace->njobs > 0 ? (trace->jobs[0].submit_ms + interval - 1) /
	    interval * interval : 0;
	while (done < trace->njobs) {
		while (next < trace->njobs &&
		    trace->jobs[next].submit_ms <= now)
			sim_elastic_arrive(&l, next++);
		sim_elastic_pass(&l, ej, idx, total, now);
		res->passes++;
		/* To the next pass: a minute on, or the next arrival's
		 * pass where nothing runs. */
		running = 0;
		for (i = 0; i < trace->njobs; i++)
			running += l.j[i].gpus > 0;
		t = now + interval;
		if (running == 0) {
			if (next >= trace->njobs) {
				snprintf(err, errlen, "%zu jobs could not "
				    "start", trace->njobs - done);
				goto out;
			}
			t = (trace->jobs[next].submit_ms + interval - 1) /
			    interval * interval;
			if (t <= now)
				t = now + interval;
		}
		for (i = 0; i < trace->njobs; i++) {
			if (l.j[i].gpus == 0 || !sim_elastic_advance(&l, i, now,
			    t - now, &end))
				continue;
			l.j[i].active = 0;
			res->jobs[i].end_ms = end;
			done++;
		}
		now = t;
	}
	for (i = 0; i < trace->njobs; i++) {
		if (res->jobs[i].end_ms - trace->jobs[0].submit_ms >
		    res->makespan_ms)
			res->makespan_ms = res->jobs[i].end_ms -
			    trace->jobs[0].submit_ms;
	}
	ret = 0;
out:
	for (i = 0; i < trace->njobs; i++) {
		free(l.j[i].on);
		free(l.j[i].speedup);
		free(l.j[i].batch);
	}
	if (ret != 0)
		sim_result_free(res);
	free(l.j);
	free(ej);
	free(idx);
	free(l.free);
	free(l.counts);
	free(l.names);
	return (ret);
}
