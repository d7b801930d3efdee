/* sched-prop-test.c: properties of the scheduling core that must hold
 * whatever the workload. For each policy (fifo strict and not, dlas,
 * gittins, srtf) and each placement, random small clusters (1-4 nodes of
 * 1-8 GPUs) replay random job sets (20-60 jobs, a quarter of them in a
 * higher tier but under strict fifo) through an event loop like
 * gsim's (sim/sim.c): submits, completions and the core's wake-ups, with
 * preempted jobs stopped at once. After every pass: no GPU is held twice
 * or beyond its node, every GPU is either free or held, each running job
 * holds exactly its GPUs, the core and the driver agree on who runs.
 * At the end: every job finished having run exactly its duration, fifo
 * never preempted, strict fifo started jobs in submit order, and the same
 * seed gave the same end times. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched-core.h"
#include "tests/unit/tap.h"

#define P_MAXJOBS	60
#define P_MAXNODES	4
#define P_SEEDS		8
#define P_MAXROUNDS	64

struct p_job {
	uint32_t		 gpus;
	uint32_t		 num_nodes;	/* exact shape; 0: free */
	bool			 any_shape;
	bool			 sensitive;
	bool			 no_requeue;
	uint8_t			 tier;		/* a partition's, or 0 */
	int64_t			 submit;
	int64_t			 duration;
	int64_t			 left;
	int64_t			 run_since;
	int64_t			 end;		/* -1 until it ends */
	bool			 running;
	struct sched_cjob	*cj;
};

struct p_world {
	uint32_t	 nnodes;
	uint32_t	 gpus[P_MAXNODES];
	uint32_t	 total;
	size_t		 njobs;
	struct p_job	 jobs[P_MAXJOBS];
	uint64_t	 samples[P_MAXJOBS];
	unsigned	 nqueues;
	uint64_t	 thr[2];
	double		 knob;
};

/* Violations counted over the runs of one policy and placement. */
struct p_stats {
	long	 overlap;	/* a GPU held twice, beyond its node, or lost */
	long	 size;		/* a running job not holding its GPUs */
	long	 state;		/* core and driver disagree */
	long	 executed;	/* ended with executed != duration */
	long	 stuck;		/* jobs left that never ran, loops, time */
	long	 fifo_preempt;
	long	 order;		/* strict fifo started a job out of order */
	long	 differ;	/* a second run of a seed ended otherwise */
	long	 preempts;
	long	 finished;
	long	 jobs;
};

static uint64_t	p_lcg;

static uint32_t
p_rand(uint32_t n)
{
	p_lcg = p_lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((uint32_t)(p_lcg >> 33) % n);
}

/* Can an idle cluster hold j as it asks (and in its shape exactly)? */
static bool
p_fits(struct place_cluster *idle, enum sched_placement how,
    const struct p_job *j, bool sensitive, struct place_alloc *out)
{
	struct place_want	w = {
		.gpus = j->gpus,
		.nnodes = j->num_nodes,
		.any_shape = j->any_shape,
		.sensitive = sensitive,
	};

	if (j->num_nodes > 0 && j->gpus % j->num_nodes != 0)
		return (false);
	return (place_find_want(idle, how, &w, out) != 0);
}

/* A job yarn or a sensitive job could never place on the idle cluster
 * would wait forever: shrink it until it fits there. */
static void
p_world_make(struct p_world *w, uint64_t seed, enum sched_placement how)
{
	struct place_cluster	*idle;
	struct place_alloc	 out[P_MAXNODES * 8 * 8];
	struct p_job		*j;
	uint32_t		 i, big;
	int64_t			 t = 0;

	memset(w, 0, sizeof *w);
	p_lcg = seed;
	idle = place_cluster_create(1);
	w->nnodes = 1 + p_rand(P_MAXNODES);
	for (i = 0; i < w->nnodes; i++) {
		w->gpus[i] = 1 + p_rand(8);
		w->total += w->gpus[i];
		place_node_add(idle, w->gpus[i], 0);
	}
	w->njobs = 20 + p_rand(P_MAXJOBS - 20 + 1);
	for (i = 0; i < w->njobs; i++) {
		j = &w->jobs[i];
		big = p_rand(4) == 0 ? w->total : (w->total < 4 ? w->total : 4);
		j->gpus = 1 + p_rand(big);
		/* A third of any shape, a third even, a third exact. */
		j->any_shape = p_rand(3) == 0;
		j->num_nodes = !j->any_shape && p_rand(2) == 0 ?
		    1 + p_rand(w->nnodes) : 0;
		while (p_fits(idle, how, j, false, out) == 0) {
			if (j->num_nodes > 1 && j->gpus <= j->num_nodes)
				j->num_nodes--;
			else if (j->gpus > 1)
				j->gpus--;
			else
				j->num_nodes = 0;
		}
		j->sensitive = p_rand(6) == 0 && p_fits(idle, how, j, true, out);
		j->no_requeue = p_rand(8) == 0;
		/* A quarter in a higher tier (but under strict fifo, whose
		 * order the checks hold to submit order). */
		j->tier = p_rand(4) == 0 ? (uint8_t)(1 + p_rand(2)) : 0;
		t += p_rand(3) == 0 ? 0 : p_rand(800);
		j->submit = t;
		j->duration = 1 + p_rand(5000);
		w->samples[i] = (uint64_t)j->duration * j->gpus;
	}
	w->nqueues = 2 + p_rand(2);
	w->thr[0] = 500 + p_rand(4500);
	w->thr[1] = w->thr[0] * (2 + p_rand(4));
	w->knob = (double)p_rand(3);
	place_cluster_free(idle);
}

/* Is an allocation of n parts an even split of gpus GPUs? */
static bool
p_even(const struct place_alloc *a, size_t n, uint32_t gpus)
{
	size_t	k;

	for (k = 0; k < n; k++) {
		if (sched_mask_count(a[k].mask) != gpus / n)
			return (false);
	}
	return (true);
}

/* Checks the cluster and the jobs holding GPUs after a pass; once its
 * actions are applied (applied), also that the core and the driver agree
 * on which jobs run. */
static void
p_check(struct sched_core *core, struct p_world *w, bool strict_fifo,
    bool applied, struct p_stats *st)
{
	struct place_cluster		*cl = sched_core_cluster(core);
	const struct place_alloc	*a;
	uint64_t			 held[P_MAXNODES], full;
	size_t				 i, k, n, running = 0, active = 0;
	unsigned			 c;
	enum sched_cjob_state		 s;
	enum sched_reason		 r;

	memset(held, 0, sizeof held);
	for (i = 0; i < w->njobs; i++) {
		if (w->jobs[i].cj == NULL)
			continue;
		active++;
		s = sched_cjob_state(w->jobs[i].cj);
		if (applied && (s == SCHED_JOB_RUNNING) != w->jobs[i].running)
			st->state++;
		if (s == SCHED_JOB_PENDING) {
			r = sched_cjob_reason(core, w->jobs[i].cj);
			if (r == SCHED_REASON_NONE ||
			    (r == SCHED_REASON_PRIORITY && !strict_fifo))
				st->state++;
			continue;
		}
		running += s == SCHED_JOB_RUNNING;
		a = sched_cjob_alloc(w->jobs[i].cj, &n);
		c = 0;
		for (k = 0; k < n; k++) {
			if (a[k].node >= w->nnodes || (held[a[k].node] &
			    a[k].mask) != 0) {
				st->overlap++;
				continue;
			}
			held[a[k].node] |= a[k].mask;
			c += sched_mask_count(a[k].mask);
		}
		if (c != w->jobs[i].gpus)
			st->size++;
		if (!w->jobs[i].any_shape && !p_even(a, n, w->jobs[i].gpus))
			st->size++;
		if (w->jobs[i].num_nodes > 0 && n != w->jobs[i].num_nodes)
			st->size++;
	}
	for (i = 0; i < w->nnodes; i++) {
		full = (UINT64_C(1) << w->gpus[i]) - 1;
		if ((held[i] & ~full) != 0 ||
		    (held[i] & place_node_free_mask(cl, (uint32_t)i)) != 0 ||
		    (held[i] | place_node_free_mask(cl, (uint32_t)i)) != full)
			st->overlap++;
	}
	if (applied && (sched_core_running(core) != running ||
	    sched_core_pending(core) + running != active))
		st->state++;
}

/* Replays w; writes the end times to ends. */
static void
p_run(struct p_world *w, const struct sched_conf *conf, struct p_stats *st,
    int64_t *ends)
{
	struct sched_core		*core;
	struct sched_jobspec		 spec;
	const struct sched_action	*acts;
	struct p_job			*j;
	size_t				 i, n, next = 0, done = 0, preempted;
	int64_t				 now = 0, t, wake;
	int				 rounds, steps = 0;
	struct p_job			*last = NULL;
	bool				 strict;

	strict = conf->policy == SCHED_FIFO && conf->strict;
	core = sched_core_create(conf);
	for (i = 0; i < w->nnodes; i++)
		place_node_add(sched_core_cluster(core), w->gpus[i], 0);
	for (i = 0; i < w->njobs; i++) {
		w->jobs[i].left = w->jobs[i].duration;
		w->jobs[i].end = -1;
		w->jobs[i].running = false;
		w->jobs[i].cj = NULL;
	}
	while (done < w->njobs) {
		t = next < w->njobs ? w->jobs[next].submit : SCHED_NEVER;
		for (i = 0; i < w->njobs; i++) {
			j = &w->jobs[i];
			if (j->running && j->run_since + j->left < t)
				t = j->run_since + j->left;
		}
		if ((wake = sched_core_next_wakeup(core)) < t)
			t = wake;
		if (t == SCHED_NEVER || t < now || ++steps > 100000) {
			st->stuck++;
			break;
		}
		now = t;
		/* Ends before arrivals at the same instant, as in gsim. */
		for (i = 0; i < w->njobs; i++) {
			j = &w->jobs[i];
			if (!j->running || j->run_since + j->left != now)
				continue;
			if (sched_cjob_total_executed(j->cj, now) !=
			    j->duration)
				st->executed++;
			sched_core_end(core, j->cj, now);
			j->cj = NULL;
			j->running = false;
			j->end = now;
			done++;
		}
		for (; next < w->njobs && w->jobs[next].submit == now; next++) {
			j = &w->jobs[next];
			memset(&spec, 0, sizeof spec);
			spec.id = next;
			spec.gpus = j->gpus;
			spec.submit = j->submit;
			spec.duration = j->duration;
			spec.consolidate = j->sensitive;
			spec.num_nodes = j->num_nodes;
			spec.any_shape = j->any_shape;
			spec.no_requeue = j->no_requeue;
			spec.tier = strict ? 0 : j->tier;
			spec.arg = j;
			spec.first_start = SCHED_NEVER;
			spec.last_stop = j->submit;
			j->cj = sched_core_submit(core, &spec, now);
		}
		for (rounds = 0; rounds < P_MAXROUNDS; rounds++) {
			n = sched_core_pass(core, now, &acts);
			p_check(core, w, strict, false, st);
			preempted = 0;
			for (i = 0; i < n; i++) {
				j = sched_cjob_arg(acts[i].job);
				if (acts[i].type == SCHED_ACT_START) {
					if (j->running)
						st->state++;
					if (strict && last != NULL && j < last)
						st->order++;
					last = j;
					j->running = true;
					j->run_since = now;
					continue;
				}
				if (conf->policy == SCHED_FIFO)
					st->fifo_preempt++;
				if (!j->running || j->no_requeue)
					st->state++;
				j->left -= now - j->run_since;
				j->running = false;
				sched_core_stopped(core, j->cj, now);
				preempted++;
			}
			st->preempts += (long)preempted;
			p_check(core, w, strict, true, st);
			if (preempted == 0)
				break;
		}
		if (rounds == P_MAXROUNDS)
			st->stuck++;
	}
	for (i = 0; i < w->njobs; i++) {
		ends[i] = w->jobs[i].end;
		if (w->jobs[i].end >= 0)
			st->finished++;
		if (w->jobs[i].cj != NULL)
			sched_core_end(core, w->jobs[i].cj, now);
	}
	st->jobs += (long)w->njobs;
	sched_core_free(core);
}

static void
p_combo(enum sched_policy policy, bool strict, enum sched_placement how,
    long *preempts)
{
	struct p_world		*w;
	struct sched_conf	 conf;
	struct p_stats		 st, again;
	int64_t			 ends[P_MAXJOBS], ends2[P_MAXJOBS];
	char			 name[64];
	int			 seed;

	w = calloc(1, sizeof *w);
	memset(&st, 0, sizeof st);
	for (seed = 1; seed <= P_SEEDS; seed++) {
		p_world_make(w, (uint64_t)seed * 7919 + how, how);
		sched_conf_default(&conf);
		conf.policy = policy;
		conf.strict = strict;
		conf.placement = how;
		conf.seed = (uint64_t)seed;
		conf.nqueues = w->nqueues;
		conf.thresholds[0] = w->thr[0];
		conf.thresholds[1] = w->thr[1];
		conf.promote_knob = w->knob;
		conf.samples = w->samples;
		conf.nsamples = w->njobs;
		p_run(w, &conf, &st, ends);
		memset(&again, 0, sizeof again);
		p_run(w, &conf, &again, ends2);
		if (memcmp(ends, ends2, w->njobs * sizeof ends[0]) != 0)
			st.differ++;
	}
	free(w);
	snprintf(name, sizeof name, "%s%s/%s", sched_conf_policy_name(policy),
	    policy == SCHED_FIFO ? (strict ? " strict" : " lax") : "",
	    sched_conf_placement_name(how));
	is_int(st.overlap, 0, "%s: no GPU held twice, lost or beyond a node",
	    name);
	is_int(st.size, 0, "%s: every running job holds its GPU count", name);
	is_int(st.state, 0, "%s: core and driver agree on states", name);
	ok(st.stuck == 0 && st.finished == st.jobs,
	    "%s: all %ld jobs finish (%ld did)", name, st.jobs, st.finished);
	is_int(st.executed, 0, "%s: each ran exactly its duration", name);
	is_int(st.differ, 0, "%s: the same seed, the same end times", name);
	if (policy == SCHED_FIFO)
		is_int(st.fifo_preempt, 0, "%s: no preemption", name);
	if (policy == SCHED_FIFO && strict)
		is_int(st.order, 0, "%s: jobs start in submit order", name);
	*preempts += st.preempts;
}

int
main(void)
{
	static const enum sched_placement	hows[] = {
		SCHED_PLACE_CONSOLIDATE, SCHED_PLACE_YARN, SCHED_PLACE_SPREAD,
		SCHED_PLACE_RANDOM,
	};
	long					pre[3] = { 0, 0, 0 };
	size_t					h;

	for (h = 0; h < sizeof hows / sizeof hows[0]; h++) {
		p_combo(SCHED_FIFO, true, hows[h], &pre[0]);
		p_combo(SCHED_FIFO, false, hows[h], &pre[0]);
		p_combo(SCHED_DLAS, false, hows[h], &pre[1]);
		p_combo(SCHED_GITTINS, false, hows[h], &pre[1]);
		p_combo(SCHED_SRTF, false, hows[h], &pre[2]);
	}
	/* The workloads must exercise preemption, or the checks above say
	 * little about it. */
	ok(pre[1] > 0, "dlas and gittins runs preempted %ld times", pre[1]);
	ok(pre[2] > 0, "srtf runs preempted %ld times", pre[2]);
	return (tap_done());
}
