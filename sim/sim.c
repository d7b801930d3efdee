/* sim.c: the replay. A virtual clock jumps from event to event: a job
 * arriving, a job finishing its work, or the core's next wake-up (a
 * demotion or promotion). At each instant the core runs a pass; preempted
 * jobs stop at once (their checkpoint costs the overhead when they
 * restart), and the pass runs again so the job they made room for starts
 * at the same instant. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "policy/predict.h"
#include "policy/sched-core.h"
#include "sim/sim-appjob.h"
#include "sim/sim-interfere.h"
#include "sim/sim-share.h"
#include "sim/sim.h"

struct sim_state {
	struct sched_cjob	*cj;
	/* A job that trains an application (sim_opts' apps): its work is
	 * its epochs, at the speed of each placement; NULL: left_ms. */
	struct sim_appjob	*aj;
	int64_t			 left_ms;	/* work still to do */
	int64_t			 run_since;	/* while running */
	int64_t			 end_at;	/* while running */
	/* The speed it runs at since rate_since: 1, or slowed by another
	 * distributed job on a node of its (sim_opts' interference). */
	double			 rate;
	int64_t			 rate_since;
	int			 running;
	/* The GPUs its run holds, for its GPU-time: a fraction of one
	 * for a job of shards (sim_cluster_held). */
	double			 held;
	/* Suspended for another's turn since (time-slicing); -1: not. */
	int64_t			 susp_since;
};

/* Min-heap of completions by (time, job index). Entries go stale when a
 * job is preempted; a popped entry counts only if it still matches. */
struct sim_end {
	int64_t		at;
	size_t		job;
};

struct sim_heap {
	struct sim_end	*v;
	size_t		 n, size;
};

static int
sim_end_less(const struct sim_end *a, const struct sim_end *b)
{
	return (a->at < b->at || (a->at == b->at && a->job < b->job));
}

static void
sim_heap_push(struct sim_heap *h, int64_t at, size_t job)
{
	struct sim_end	e = { at, job }, t;
	size_t		i;

	if (h->n == h->size) {
		h->size = h->size != 0 ? h->size * 2 : 256;
		h->v = xreallocarray(h->v, h->size, sizeof *h->v);
	}
	i = h->n++;
	h->v[i] = e;
	while (i > 0 && sim_end_less(&h->v[i], &h->v[(i - 1) / 2])) {
		t = h->v[i];
		h->v[i] = h->v[(i - 1) / 2];
		h->v[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void
sim_heap_pop(struct sim_heap *h)
{
	struct sim_end	t;
	size_t		i = 0, c;

	h->v[0] = h->v[--h->n];
	for (;;) {
		c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && sim_end_less(&h->v[c + 1], &h->v[c]))
			c++;
		if (!sim_end_less(&h->v[c], &h->v[i]))
			break;
		t = h->v[i];
		h->v[i] = h->v[c];
		h->v[c] = t;
		i = c;
	}
}

/* The first multiple of interval at or after t. */
static int64_t
sim_tick(int64_t t, int64_t interval)
{
	return ((t + interval - 1) / interval * interval);
}

void
sim_result_span(struct sim_result *res, size_t idx, int64_t from, int64_t to)
{
	if (to <= from)
		return;
	if (res->nspans == res->spansize) {
		res->spansize = res->spansize != 0 ? res->spansize * 2 : 256;
		res->spans = xreallocarray(res->spans, res->spansize,
		    sizeof *res->spans);
	}
	res->spans[res->nspans].job = idx;
	res->spans[res->nspans].start_ms = from;
	res->spans[res->nspans].end_ms = to;
	res->nspans++;
}

/* An application's job starts on what the core gave it: its placement's
 * configuration (the GPUs on each node, in node order), and the ms it
 * needs from there. */
static int64_t
sim_start_app(struct sim_appjob *aj, const struct sched_cjob *cj)
{
	const struct place_alloc	*a;
	uint32_t			 stack[64], *g = stack;
	size_t				 i, n;
	int64_t				 ms;

	a = sched_cjob_alloc(cj, &n);
	if (n > 64)
		g = xcalloc(n, sizeof *g);
	for (i = 0; i < n; i++)
		g[i] = (uint32_t)__builtin_popcountll(a[i].mask);
	ms = sim_appjob_place(aj, g, n) == 0 ? sim_appjob_left_ms(aj) :
	    INT64_MAX / 4;
	if (g != stack)
		free(g);
	return (ms);
}

/* Job idx ran from its last start to now: its GPU-time is busy, and the
 * run is kept. */
static void
sim_ran(const struct sim_state *s, size_t idx, struct sim_result *res,
    int64_t now)
{
	res->busy_gpu_ms += (uint64_t)llround((double)(now - s->run_since) *
	    s->held);
	sim_result_span(res, idx, s->run_since, now);
}

/* Job idx stops running at now (preempted, or suspended for another's
 * turn): its work so far is counted, its end no longer due. */
static void
sim_halt(struct sim_state *s, size_t idx, const struct sim_opts *o,
    struct sim_result *res, int64_t now, struct sim_share *share)
{
	s->running = 0;
	if (s->aj != NULL) {
		if (now - s->run_since > o->overhead_ms)
			sim_appjob_advance(s->aj, now - s->run_since -
			    o->overhead_ms);
	} else
		s->left_ms -= llround((double)(now - s->rate_since) *
		    s->rate);
	if (s->left_ms < 0)
		s->left_ms = 0;
	sim_ran(s, idx, res, now);
	if (share != NULL)
		sim_share_stop(share, idx, now);
}

/* Time-slicing: job idx's turn is over, or has come again (a switch's
 * cost more to do). */
static void
sim_suspend(struct sim_state *s, size_t idx, const struct sim_opts *o,
    struct sim_result *res, int64_t now, struct sim_share *share)
{
	sim_halt(s, idx, o, res, now, share);
	s->susp_since = now;
	res->jobs[idx].switches++;
	res->switches++;
}

static void
sim_resume(struct sim_state *s, size_t idx, const struct sim_opts *o,
    struct sim_result *res, struct sim_heap *h, int64_t now,
    struct sim_share *share)
{
	res->jobs[idx].suspended_ms += now - s->susp_since;
	s->susp_since = -1;
	s->running = 1;
	s->run_since = now;
	s->rate = 1;
	s->rate_since = now;
	if (s->aj != NULL)
		s->left_ms = sim_appjob_left_ms(s->aj);
	s->left_ms += o->switch_ms;
	s->end_at = now + s->left_ms;
	sim_heap_push(h, s->end_at, idx);
	if (share != NULL)
		sim_share_start(share, idx, now);
}

/* Carries out one pass's actions; returns how many preemptions it had. */
static size_t
sim_apply(struct sched_core *core, struct sim_state *st, struct sim_heap *h,
    const struct sim_opts *o, struct sim_result *res, int64_t now,
    const struct sched_action *acts, size_t n, struct sim_share *share)
{
	struct sim_state	*s;
	size_t			 i, idx, nalloc, preempted = 0;

	for (i = 0; i < n; i++) {
		idx = (size_t)(uintptr_t)sched_cjob_arg(acts[i].job);
		s = &st[idx];
		if (acts[i].type == SCHED_ACT_START) {
			s->running = 1;
			s->run_since = now;
			s->rate = 1;
			s->rate_since = now;
			if (s->aj != NULL)
				s->left_ms = o->overhead_ms +
				    sim_start_app(s->aj, s->cj);
			s->end_at = now + s->left_ms;
			sim_heap_push(h, s->end_at, idx);
			if (share != NULL)
				sim_share_start(share, idx, now);
			if (res->jobs[idx].start_ms < 0) {
				res->jobs[idx].start_ms = now;
				(void)sched_cjob_alloc(s->cj, &nalloc);
				res->jobs[idx].nodes = (uint32_t)nalloc;
			}
			continue;
		}
		if (acts[i].type == SCHED_ACT_SUSPEND) {
			sim_suspend(s, idx, o, res, now, share);
			continue;
		}
		if (acts[i].type == SCHED_ACT_RESUME) {
			sim_resume(s, idx, o, res, h, now, share);
			continue;
		}
		/* Preempted: the work done so far is kept (checkpoint), and
		 * the restart will cost the overhead (an application's job
		 * pays it at each start, and learns only after it). One
		 * suspended for a turn had its work counted then. */
		if (s->susp_since >= 0) {
			res->jobs[idx].suspended_ms += now - s->susp_since;
			s->susp_since = -1;
		} else
			sim_halt(s, idx, o, res, now, share);
		if (s->aj == NULL)
			s->left_ms += o->overhead_ms;
		res->jobs[idx].preemptions++;
		res->preemptions++;
		sched_core_stopped(core, s->cj, now);
		preempted++;
	}
	return (preempted);
}

void
sim_job_res(const struct sim_job *tj, struct place_res *r)
{
	uint32_t	nodes = tj->num_nodes > 0 ? tj->num_nodes : 1;

	memset(r, 0, sizeof *r);
	if (tj->gpus == 0) {
		/* A CPU job: its CPUs (one at least) and memory, split over
		 * its nodes, or the node's memory for as many CPUs. */
		r->cpus_node = tj->cpus > nodes ? (tj->cpus + nodes - 1) /
		    nodes : 1;
		r->mem_node = (tj->mem + nodes - 1) / nodes;
		r->mem_share = tj->mem == 0;
		return;
	}
	if (tj->cpus > 0)
		r->cpus_gpu = (tj->cpus + tj->gpus - 1) / tj->gpus;
	else
		r->cpus_share = true;
	if (tj->mem > 0)
		r->mem_gpu = (tj->mem + tj->gpus - 1) / tj->gpus;
	else
		r->mem_share = true;
}

void
sim_job_want(const struct sim_job *tj, bool even, struct place_res *r,
    struct place_want *w)
{
	memset(w, 0, sizeof *w);
	w->gpus = tj->gpus;
	w->nnodes = tj->num_nodes;
	w->any_shape = !even;
	w->shards = tj->shards;
	sim_job_res(tj, r);
	w->res = r;
}

/* What the predictor knows tj by. */
static void
sim_predict_job(const struct sim_job *tj, struct predict_job *pj)
{
	pj->user = tj->user;
	pj->name = tj->name;
	pj->gpus = tj->gpus;
}

/* Learns tj's run, which just ended: its duration uninterrupted, on
 * held GPUs. */
static void
sim_learn(struct predict *pr, const struct sim_job *tj, double held)
{
	struct predict_job	pj;

	sim_predict_job(tj, &pj);
	predict_learn(pr, &pj, (uint64_t)tj->duration_ms,
	    (uint64_t)llround((double)tj->duration_ms * held));
}

static bool
sim_guess(const struct predict *pr, const struct sim_job *tj,
    struct predict_guess *g)
{
	struct predict_job	pj;

	sim_predict_job(tj, &pj);
	return (predict_guess(pr, &pj, g));
}

/* The GPU-times of the jobs like tj that ended (out has PREDICT_WINDOW
 * room): their count. */
static size_t
sim_similar(const struct predict *pr, const struct sim_job *tj,
    uint64_t *out)
{
	struct predict_job	pj;

	sim_predict_job(tj, &pj);
	return (predict_similar(pr, &pj, out, PREDICT_WINDOW));
}

/* --interference: each running job of the trace's own durations (not an
 * application's) that runs on several nodes, one shared with another
 * such job, runs 1 / (1 + factor) as fast; one whose lot changed at now
 * has its work counted to now at its old speed and its end moved. */
static void
sim_interfere_update(struct sim_interfere *f, struct place_cluster *cl,
    struct sim_state *st, size_t njobs, struct sim_heap *h, int64_t now,
    double factor)
{
	const struct place_alloc	**allocs;
	size_t				*nallocs, *idx, n = 0, i;
	bool				*slowed;
	double				 rate;
	struct sim_state		*s;

	allocs = xcalloc(njobs + 1, sizeof *allocs);
	nallocs = xcalloc(njobs + 1, sizeof *nallocs);
	idx = xcalloc(njobs + 1, sizeof *idx);
	slowed = xcalloc(njobs + 1, sizeof *slowed);
	for (i = 0; i < njobs; i++) {
		if (!st[i].running || st[i].aj != NULL)
			continue;
		allocs[n] = sched_cjob_alloc(st[i].cj, &nallocs[n]);
		idx[n++] = i;
	}
	sim_interfere_judge(f, place_nodes(cl), allocs, nallocs, n, slowed);
	for (i = 0; i < n; i++) {
		s = &st[idx[i]];
		rate = slowed[i] ? 1 / (1 + factor) : 1;
		if (rate == s->rate)
			continue;
		s->left_ms -= llround((double)(now - s->rate_since) *
		    s->rate);
		if (s->left_ms < 0)
			s->left_ms = 0;
		s->rate = rate;
		s->rate_since = now;
		s->end_at = now + llround((double)s->left_ms / rate);
		sim_heap_push(h, s->end_at, idx[i]);
	}
	free(allocs);
	free(nallocs);
	free(idx);
	free(slowed);
}

int
sim_run(const struct sim_trace *trace, const struct sim_cluster *cluster,
    const struct sched_conf *conf, const struct sim_opts *o,
    struct sim_result *res, char *err, size_t errlen)
{
	struct sched_core		*core;
	struct place_cluster		*cl;
	struct sim_state		*st;
	struct sim_heap			 h = { NULL, 0, 0 };
	struct sched_jobspec		 spec;
	struct predict			*pr = NULL;
	struct sim_share		*share = NULL;
	struct sim_appjob		*ajs = NULL;
	struct sim_interfere		 itf = { NULL, 0 };
	struct predict_guess		 guess;
	uint64_t			 gsamples[PREDICT_WINDOW];
	const struct sched_action	*acts;
	const struct sim_job		*tj;
	size_t				 next = 0, done = 0, i, n, idx, step;
	int64_t				 now = 0, t, wake, first_submit = 0;
	int64_t				 pass_at = SCHED_NEVER;
	int				 rounds, ret = -1;
	bool				 learn;

	memset(res, 0, sizeof *res);
	if (sched_conf_check(conf, err, errlen) != 0)
		return (-1);
	core = sched_core_create(conf);
	/* Backfill leans on durations learned as the trace is replayed: a
	 * job's own is never known before it ends, as on a live cluster. */
	learn = conf->backfill_depth > 0 || (conf->gittins_similar &&
	    conf->policy == SCHED_GITTINS);
	if (learn || o->predictions)
		pr = predict_create(PREDICT_MAX_KEYS);
	if (conf->fairshare && conf->policy != SCHED_SRTF)
		share = sim_share_create(trace, cluster, o->fs_half_life_ms,
		    o->fs_accounts, o->fs_naccounts, o->fs_users,
		    o->fs_nusers);
	if (o->rules != NULL)
		o->rules(o->rules_arg, core);
	cl = sched_core_cluster(core);
	sim_cluster_build(cluster, cl);
	res->njobs = trace->njobs;
	res->jobs = xcalloc(trace->njobs != 0 ? trace->njobs : 1,
	    sizeof *res->jobs);
	st = xcalloc(trace->njobs != 0 ? trace->njobs : 1, sizeof *st);
	if (o->predictions)
		res->guesses = xcalloc(trace->njobs != 0 ? trace->njobs : 1,
		    sizeof *res->guesses);
	if (o->napps > 0)
		ajs = xcalloc(trace->njobs != 0 ? trace->njobs : 1,
		    sizeof *ajs);
	for (i = 0; i < trace->njobs; i++) {
		res->jobs[i].start_ms = -1;
		res->jobs[i].end_ms = -1;
		st[i].left_ms = trace->jobs[i].duration_ms;
		st[i].held = sim_cluster_held(cluster, trace->jobs[i].gpus,
		    trace->jobs[i].shards);
		st[i].susp_since = -1;
		if (trace->jobs[i].app != NULL &&
		    trace->jobs[i].app_index < o->napps) {
			st[i].aj = &ajs[i];
			sim_appjob_init(st[i].aj,
			    o->apps[trace->jobs[i].app_index],
			    trace->jobs[i].batch);
		}
	}
	if (trace->njobs > 0)
		first_submit = trace->jobs[0].submit_ms;
	step = trace->njobs / 100 + 1;

	while (done < trace->njobs) {
		/* What the last instant's starts and ends did to who slows
		 * whom (--interference). */
		if (o->interference > 0 && next > 0)
			sim_interfere_update(&itf, cl, st, trace->njobs, &h,
			    now, o->interference);
		/* The next instant anything happens. */
		while (h.n > 0 && (!st[h.v[0].job].running ||
		    st[h.v[0].job].end_at != h.v[0].at))
			sim_heap_pop(&h);
		t = SCHED_NEVER;
		if (next < trace->njobs)
			t = trace->jobs[next].submit_ms;
		if (h.n > 0 && h.v[0].at < t)
			t = h.v[0].at;
		/* On an interval, passes run at its multiples only: a
		 * wake-up waits for the next (arrivals and ends are kept at
		 * their instants, and ask for one). */
		if ((wake = sched_core_next_wakeup(core)) != SCHED_NEVER &&
		    o->interval_ms > 0)
			wake = sim_tick(wake, o->interval_ms);
		if (wake < t)
			t = wake;
		if (pass_at < t)
			t = pass_at;
		if (t == SCHED_NEVER) {
			for (i = 0; res->jobs[i].end_ms >= 0; i++)
				;
			snprintf(err, errlen, "%zu of %zu jobs could never "
			    "start: the placement never finds their GPUs "
			    "(first: line %u, %u GPUs)", trace->njobs - done,
			    trace->njobs, trace->jobs[i].line,
			    trace->jobs[i].gpus);
			goto out;
		}
		now = t;
		/* Ends before arrivals at the same instant, as the Tiresias
		 * simulator does: the GPUs are free for the newcomers. */
		while (h.n > 0 && h.v[0].at == now) {
			idx = h.v[0].job;
			sim_heap_pop(&h);
			if (!st[idx].running || st[idx].end_at != now)
				continue;
			st[idx].running = 0;
			st[idx].left_ms = 0;
			sim_ran(&st[idx], idx, res, now);
			res->jobs[idx].end_ms = now;
			res->jobs[idx].promotions =
			    sched_cjob_promotions(st[idx].cj);
			if (pr != NULL)
				sim_learn(pr, &trace->jobs[idx], st[idx].held);
			if (share != NULL)
				sim_share_stop(share, idx, now);
			sched_core_end(core, st[idx].cj, now);
			st[idx].cj = NULL;
			if (++done % step == 0 && o->progress != NULL)
				o->progress(o->progress_arg, done, trace->njobs);
		}
		while (next < trace->njobs &&
		    trace->jobs[next].submit_ms == now) {
			tj = &trace->jobs[next];
			memset(&spec, 0, sizeof spec);
			spec.id = next;
			spec.gpus = tj->gpus;
			spec.submit = tj->submit_ms;
			spec.duration = tj->duration_ms;
			spec.group = tj->array_id;
			spec.group_cap = tj->array_throttle;
			spec.num_nodes = tj->num_nodes;
			spec.nodes = tj->nodes;
			spec.nnodes = tj->nnodes;
			spec.nsets = tj->nsets;
			spec.tier = tj->tier;
			spec.pclass = tj->pclass;
			spec.no_requeue = tj->no_requeue;
			spec.time_slice = tj->time_slice;
			spec.shards = tj->shards;
			spec.nlimits = tj->nlimits;
			spec.limits[0] = tj->limit;
			sim_job_res(tj, &spec.res);
			spec.any_shape = !o->even_shapes;
			spec.arg = (void *)(uintptr_t)next;
			spec.first_start = SCHED_NEVER;
			spec.last_stop = tj->submit_ms;
			spec.limit = (int64_t)tj->time_limit * 1000;
			if (share != NULL)
				spec.fs_leaf = sim_share_leaf(share, next);
			/* The schedule reads the guess only where it asked
			 * for one: --predictions alone changes nothing. */
			if (pr != NULL)
				(void)sim_guess(pr, tj, &guess);
			if (res->guesses != NULL)
				res->guesses[next] = guess;
			if (learn)
				spec.expect = (int64_t)guess.run_ms;
			/* Gittins by the jobs like it that ended before. */
			if (learn && conf->gittins_similar) {
				spec.ngsamples = (uint32_t)sim_similar(pr, tj,
				    gsamples);
				spec.gsamples = gsamples;
			}
			st[next].cj = sched_core_submit(core, &spec, now);
			next++;
		}
		if (o->interval_ms > 0) {
			/* The next multiple of the interval passes for what
			 * happened now (now itself, if it is one). */
			if (sim_tick(now, o->interval_ms) < pass_at)
				pass_at = sim_tick(now, o->interval_ms);
			if (now < pass_at)
				continue;
			pass_at = SCHED_NEVER;
		}
		/* A pass that preempted frees GPUs now: pass again so their
		 * taker starts at this instant. Each round preempts only for
		 * jobs that outrank their victims, so this ends; the bound is
		 * a guard, and an instant that reaches it is counted. */
		if (share != NULL)
			sim_share_tick(share, core, now);
		for (rounds = 0; rounds < SIM_ROUNDS; rounds++) {
			if (share != NULL && conf->fairshare_preempt)
				sim_share_parts(share, core);
			n = sched_core_pass(core, now, &acts);
			res->passes++;
			if (sim_apply(core, st, &h, o, res, now, acts, n,
			    share) == 0)
				break;
		}
		if (rounds == SIM_ROUNDS)
			res->unsettled++;
	}
	for (i = 0; i < trace->njobs; i++) {
		if (res->jobs[i].end_ms - first_submit > res->makespan_ms)
			res->makespan_ms = res->jobs[i].end_ms - first_submit;
	}
	res->promotions = 0;
	for (i = 0; i < trace->njobs; i++)
		res->promotions += res->jobs[i].promotions;
	if (o->progress != NULL)
		o->progress(o->progress_arg, done, trace->njobs);
	ret = 0;
out:
	for (i = 0; i < trace->njobs; i++) {
		if (st[i].cj != NULL)
			sched_core_end(core, st[i].cj, 0);
	}
	if (ret != 0)
		sim_result_free(res);
	free(st);
	free(ajs);
	free(h.v);
	sim_interfere_free(&itf);
	predict_free(pr);
	sim_share_free(share);
	sched_core_free(core);
	return (ret);
}

void
sim_result_free(struct sim_result *res)
{
	if (res == NULL)
		return;
	free(res->jobs);
	res->jobs = NULL;
	free(res->spans);
	res->spans = NULL;
	free(res->guesses);
	res->guesses = NULL;
	res->nspans = res->spansize = 0;
}
