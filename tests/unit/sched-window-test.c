/* sched-window-test.c: the rules of advance reservations' windows
 * (policy/sched-window.c), worked by hand: who may use which node when,
 * the boundaries exactly at a window's start and end, a job whose limit
 * ends exactly at a start, a job without a limit, a window's own jobs
 * (never before its start, never past its end, never off its nodes),
 * overlapping windows, maintenance against user windows; the view a
 * pass reads held to the rule on random windows, as time passes; and the
 * scheduling core driven through windows: a maintenance draining a node,
 * a window's job waiting for its start then running on its nodes alone,
 * the wake-ups, a job allowed early refused later, jobs bound to nodes,
 * preemption kept off nodes a job may not use, the memo of like jobs
 * kept apart by their limits, and why each waits. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched-core.h"
#include "policy/sched-window.h"
#include "tests/unit/tap.h"

#define H	INT64_C(3600000)	/* an hour, in ms */

/* Whether the view of a job lets it use node, by sched_window_in_view
 * and by the list the view hands placement: the two must agree. */
static bool
t_view_has(struct sched_windows *ws, size_t nnodes, uint64_t resv,
    int64_t limit, int64_t now, uint32_t node)
{
	struct sched_window_view	v;
	bool				listed = false;
	size_t				i;

	sched_window_view(ws, nnodes, resv, limit, now, &v);
	if (v.never)
		return (false);
	if (v.key == 0)
		return (true);
	for (i = 0; i < v.n; i++)
		listed |= v.nodes[i] == node;
	if (listed != sched_window_in_view(ws, &v, node))
		printf("# in_view and the list disagree on node %u\n", node);
	return (listed);
}

/* Node 1 of three reserved from 10 h to 12 h (window 7). */
static void
t_one_window(bool maint)
{
	struct sched_windows	ws;
	uint32_t		n1 = 1;
	const char		*kind = maint ? "maint" : "user";

	memset(&ws, 0, sizeof ws);
	sched_window_set(&ws, 7, 10 * H, 12 * H, maint, &n1, 1);

	/* Others: by their limit's end, against the start. */
	ok(sched_window_allows(&ws, 1, 0, 2 * H, 8 * H),
	    "%s: a 2 h job at 8 h ends at 10 h, the start: allowed", kind);
	ok(!sched_window_allows(&ws, 1, 0, 2 * H + 1, 8 * H),
	    "%s: a ms more ends past the start: refused", kind);
	ok(sched_window_allows(&ws, 1, 0, 2 * H, 8 * H) &&
	    !sched_window_allows(&ws, 1, 0, 2 * H, 9 * H),
	    "%s: allowed at 8 h, refused at 9 h with the same limit", kind);
	ok(!sched_window_allows(&ws, 1, 0, 0, 0),
	    "%s: a job without a limit never starts there while it is to "
	    "come", kind);
	ok(!sched_window_allows(&ws, 1, 0, 1, 10 * H),
	    "%s: nor anyone else's at its start", kind);
	ok(!sched_window_allows(&ws, 1, 0, 1, 12 * H - 1),
	    "%s: nor a ms before its end", kind);
	ok(sched_window_allows(&ws, 1, 0, 0, 12 * H),
	    "%s: at its end the node is anyone's, limit or not", kind);
	ok(sched_window_allows(&ws, 0, 0, 0, 11 * H) &&
	    sched_window_allows(&ws, 2, 0, 0, 11 * H),
	    "%s: the nodes it does not hold are anyone's", kind);

	/* Its own jobs. */
	ok(!sched_window_allows(&ws, 1, 7, 1, 10 * H - 1),
	    "%s: its job waits for its start", kind);
	ok(sched_window_allows(&ws, 1, 7, 1, 10 * H),
	    "%s: its job starts at its start", kind);
	ok(sched_window_allows(&ws, 1, 7, 0, 11 * H),
	    "%s: its job without a limit (stopped at its end)", kind);
	ok(sched_window_allows(&ws, 1, 7, 5 * H, 11 * H),
	    "%s: its job whose limit goes past its end (stopped there)",
	    kind);
	ok(!sched_window_allows(&ws, 1, 7, 1, 12 * H),
	    "%s: its job may not start at its end", kind);
	ok(!sched_window_allows(&ws, 0, 7, 1, 11 * H),
	    "%s: its job runs on its nodes alone", kind);
	ok(!sched_window_allows(&ws, 1, 8, 1, 11 * H),
	    "%s: a job of a window the set does not know runs nowhere", kind);

	/* The view says the same. */
	ok(t_view_has(&ws, 3, 0, 2 * H, 8 * H, 1) &&
	    !t_view_has(&ws, 3, 0, 2 * H + 1, 8 * H, 1) &&
	    t_view_has(&ws, 3, 0, 2 * H + 1, 8 * H, 0) &&
	    !t_view_has(&ws, 3, 0, 0, 0, 1) && t_view_has(&ws, 3, 0, 0, 0, 2),
	    "%s: the view, as the rule", kind);
	ok(!t_view_has(&ws, 3, 7, 1, 10 * H - 1, 1) &&
	    t_view_has(&ws, 3, 7, 0, 10 * H, 1) &&
	    !t_view_has(&ws, 3, 7, 0, 10 * H, 0) &&
	    !t_view_has(&ws, 3, 7, 1, 12 * H, 1),
	    "%s: the view of its own jobs, as the rule", kind);
	ok(t_view_has(&ws, 3, 0, 0, 12 * H, 1),
	    "%s: the view after its end: anyone's", kind);
	sched_window_free(&ws);
}

/* The view's keys and the maintenance flag. */
static void
t_keys(void)
{
	struct sched_windows		ws;
	struct sched_window_view	v, v2;
	uint32_t			a[] = { 1, 2 }, b = 2;

	memset(&ws, 0, sizeof ws);
	sched_window_view(&ws, 4, 0, 0, 0, &v);
	ok(v.key == 0 && !v.never, "no windows: any node, key 0");
	/* A user window on 1 and 2 from 10 h to 12 h; a maintenance on 2
	 * from 11:30 to 12:30, over it. */
	sched_window_set(&ws, 1, 10 * H, 12 * H, false, a, 2);
	sched_window_set(&ws, 2, 23 * H / 2, 25 * H / 2, true, &b, 1);
	sched_window_view(&ws, 4, 0, H, 0, &v);
	ok(v.key == 0, "a job ending before every window: key 0");
	sched_window_view(&ws, 4, 0, 11 * H, 0, &v);
	ok(v.key == 2 && v.n == 2 && !v.maint,
	    "ending at 11 h: two nodes off (key %llu), not for maintenance",
	    (unsigned long long)v.key);
	sched_window_view(&ws, 4, 0, 11 * H + H / 4, 0, &v2);
	ok(v2.key == v.key && v2.n == v.n,
	    "ending at 11:15: the same nodes, the same key");
	sched_window_view(&ws, 4, 0, 0, 0, &v);
	ok(v.key == 2 && v.maint,
	    "no limit: off the same two, and a maintenance is in the way");
	sched_window_view(&ws, 4, 1, 0, 11 * H, &v);
	ok(v.key != 0 && v.n == 1 && v.nodes[0] == 1 && v.maint,
	    "window 1's job without a limit at 11 h (its run ends at 12 h): "
	    "node 1 alone, the maintenance takes node 2 at 11:30");
	sched_window_view(&ws, 4, 1, H / 2, 11 * H, &v2);
	ok(v2.n == 2 && !v2.maint,
	    "window 1's job of half an hour at 11 h: both its nodes");
	ok(v.key != v2.key, "and a key of its own");
	sched_window_view(&ws, 4, 1, 0, 9 * H, &v);
	ok(v.never && v.key != 0, "window 1's job before its start: never");
	ok(sched_window_next(&ws, 0) == 10 * H &&
	    sched_window_next(&ws, 10 * H) == 23 * H / 2 &&
	    sched_window_next(&ws, 23 * H / 2) == 12 * H &&
	    sched_window_next(&ws, 12 * H) == 25 * H / 2 &&
	    sched_window_next(&ws, 13 * H) == SCHED_WINDOW_NEVER,
	    "the next instants: each start and end, then none");
	ok(sched_window_clear(&ws, 2) && !sched_window_clear(&ws, 2),
	    "a window is cleared once");
	sched_window_view(&ws, 4, 0, 0, 0, &v);
	ok(v.key == 2 && !v.maint, "once cleared, no maintenance in the way");
	sched_window_free(&ws);
}

/* A job of window 1 on nodes its overlapping maintenance takes. */
static void
t_overlap(void)
{
	struct sched_windows	ws;
	uint32_t		a[] = { 0, 1 }, b = 1;

	memset(&ws, 0, sizeof ws);
	sched_window_set(&ws, 1, 0, 10 * H, false, a, 2);
	sched_window_set(&ws, 2, 5 * H, 6 * H, true, &b, 1);
	ok(sched_window_allows(&ws, 1, 1, 4 * H, H) &&
	    !sched_window_allows(&ws, 1, 1, 4 * H + 1, H),
	    "window 1's job must end by the maintenance's start on its node");
	ok(sched_window_allows(&ws, 0, 1, 0, H),
	    "and runs to its own end on the node the maintenance leaves");
	ok(!sched_window_allows(&ws, 1, 1, 1, 5 * H) &&
	    sched_window_allows(&ws, 1, 2, 0, 5 * H),
	    "during the maintenance, its own jobs alone: they pass over the "
	    "user window");
	ok(!sched_window_allows(&ws, 0, 2, 0, 5 * H),
	    "but not onto the user window's other node");
	ok(sched_window_allows(&ws, 1, 1, 0, 6 * H),
	    "after it, window 1's again");
	ok(!sched_window_allows(&ws, 1, 0, 0, 6 * H),
	    "but still not anyone's");
	sched_window_free(&ws);
}

/* Random windows on 12 nodes; the view held to the rule for jobs of
 * every window and none, limits around the windows' edges, as time
 * goes (the view rebuilt as windows end). */
static void
t_random(void)
{
	struct sched_windows	ws;
	uint32_t		nodes[12];
	int64_t			limits[] = { 0, 1, H / 2, H, 2 * H, 5 * H };
	int64_t			now, s;
	size_t			nn, k;
	int			round, w, bad = 0, checks = 0;
	uint32_t		node;
	uint64_t		resv;
	size_t			l;

	memset(&ws, 0, sizeof ws);
	for (round = 0; round < 40; round++) {
		for (w = 1; w <= 4; w++) {
			nn = 1 + tap_rand() % 5;
			for (k = 0; k < nn; k++)
				nodes[k] = tap_rand() % 12;
			s = (int64_t)(tap_rand() % 10) * H / 2;
			sched_window_set(&ws, (uint64_t)w, s, s + H / 2 +
			    (int64_t)(tap_rand() % 6) * H / 2,
			    tap_rand() % 3 == 0, nodes, nn);
		}
		for (now = 0; now <= 10 * H; now += H / 4) {
			for (resv = 0; resv <= 4; resv++) {
				for (l = 0; l < sizeof limits /
				    sizeof limits[0]; l++) {
					for (node = 0; node < 12; node++) {
						checks++;
						if (sched_window_allows(&ws,
						    node, resv, limits[l],
						    now) != t_view_has(&ws, 12,
						    resv, limits[l], now, node))
							bad++;
					}
				}
			}
		}
	}
	ok(bad == 0, "random windows: the view agrees with the rule "
	    "(%d of %d differ)", bad, checks);
	sched_window_free(&ws);
}

/* Nodes past the cluster's count (a window named a node the core has
 * not got yet) are never in a view. */
static void
t_past(void)
{
	struct sched_windows		ws;
	struct sched_window_view	v;
	uint32_t			a[] = { 1, 9 };

	memset(&ws, 0, sizeof ws);
	sched_window_set(&ws, 3, 0, H, false, a, 2);
	sched_window_view(&ws, 4, 3, 0, 0, &v);
	ok(v.n == 1 && v.nodes[0] == 1,
	    "a window's node past the cluster is left out of its view");
	sched_window_view(&ws, 12, 3, 0, 0, &v);
	ok(v.n == 2, "and in once the cluster has it");
	sched_window_free(&ws);
}


/* The core, dlas, nnodes nodes of gpus GPUs. */
static const struct sched_action	*t_acts;
static size_t				 t_nacts;

static struct sched_core *
t_core(uint32_t nnodes, uint32_t gpus)
{
	struct sched_conf	 conf;
	struct sched_core	*core;
	uint32_t		 i;

	sched_conf_default(&conf);
	conf.policy = SCHED_DLAS;
	conf.thresholds[0] = 1000 * H;
	core = sched_core_create(&conf);
	for (i = 0; i < nnodes; i++)
		place_node_add(sched_core_cluster(core), gpus, 0);
	return (core);
}

/* A job of gpus GPUs, limit ms (0: none), of window resv (0: none), on
 * nodes (NULL: any), preemptable or not. */
static struct sched_cjob *
t_job(struct sched_core *core, uint64_t id, uint32_t gpus, int64_t limit,
    uint64_t resv, const uint32_t *nodes, uint32_t nnodes, int64_t now)
{
	struct sched_jobspec	spec;

	memset(&spec, 0, sizeof spec);
	spec.id = id;
	spec.gpus = gpus;
	spec.submit = now;
	spec.first_start = SCHED_NEVER;
	spec.last_stop = now;
	spec.limit = limit;
	spec.resv = resv;
	spec.nodes = nodes;
	spec.nnodes = nnodes;
	return (sched_core_submit(core, &spec, now));
}

static size_t
t_pass(struct sched_core *core, int64_t now)
{
	t_nacts = sched_core_pass(core, now, &t_acts);
	return (t_nacts);
}

static bool
t_started(const struct sched_cjob *j)
{
	size_t	i;

	for (i = 0; i < t_nacts; i++) {
		if (t_acts[i].type == SCHED_ACT_START && t_acts[i].job == j)
			return (true);
	}
	return (false);
}

static long
t_node(const struct sched_cjob *j)
{
	const struct place_alloc	*a;
	size_t				 n;

	a = sched_cjob_alloc(j, &n);
	return (n == 1 ? (long)a[0].node : -1);
}

/* Two nodes of 4 GPUs, a maintenance on node 1 from 10 h to 12 h: by its
 * start it is drained, a job without a limit never starts there, one
 * whose limit ends by the start does; the maintenance's own job waits for
 * its start, then runs there; at its end the node is anyone's. */
static void
t_core_maint(void)
{
	struct sched_core	*core = t_core(2, 4);
	struct sched_cjob	*a, *b, *c, *m, *d;
	uint32_t		 n1 = 1;

	sched_core_window_set(core, 5, 10 * H, 12 * H, true, &n1, 1);
	a = t_job(core, 1, 4, 0, 0, NULL, 0, 0);
	b = t_job(core, 2, 4, 0, 0, NULL, 0, 0);
	c = t_job(core, 3, 4, 3 * H, 0, NULL, 0, 0);
	t_pass(core, 8 * H);
	ok(t_started(a) && t_node(a) == 0,
	    "core: an unlimited job goes to the node no window holds");
	ok(!t_started(b) && !t_started(c),
	    "core: at 8 h neither a second unlimited job nor a 3 h one (past "
	    "10 h) starts on the maintenance's node");
	ok(sched_cjob_reason(core, b) == SCHED_REASON_RESV_MAINT,
	    "core: the unlimited one waits for the maintenance: %s",
	    sched_reason_name(sched_cjob_reason(core, b)));
	sched_core_end(core, c, 8 * H);
	c = t_job(core, 4, 4, 2 * H, 0, NULL, 0, 8 * H);
	t_pass(core, 8 * H);
	ok(t_started(c) && t_node(c) == 1,
	    "core: a job of 2 h submitted at 8 h (ending at the start "
	    "exactly) starts there");
	m = t_job(core, 6, 4, 0, 5, NULL, 0, 8 * H);
	t_pass(core, 9 * H);
	ok(!t_started(m) && sched_cjob_reason(core, m) ==
	    SCHED_REASON_RESERVATION,
	    "core: the maintenance's job waits for its start (%s)",
	    sched_reason_name(sched_cjob_reason(core, m)));
	ok(sched_core_next_wakeup(core) == 10 * H,
	    "core: and the next wake-up is the start");
	sched_core_end(core, c, 10 * H);
	t_pass(core, 10 * H);
	ok(t_started(m) && t_node(m) == 1,
	    "core: at the start it runs on the maintenance's node");
	ok(!t_started(b), "core: and the unlimited job still waits");
	ok(sched_core_next_wakeup(core) == 12 * H,
	    "core: the next wake-up is the end");
	sched_core_end(core, m, 12 * H);
	t_pass(core, 12 * H);
	ok(t_started(b) && t_node(b) == 1,
	    "core: at the end the unlimited job runs there");
	d = t_job(core, 7, 1, 0, 5, NULL, 0, 12 * H);
	t_pass(core, 12 * H);
	ok(!t_started(d) && sched_cjob_reason(core, d) ==
	    SCHED_REASON_RESERVATION,
	    "core: a job of the ended window starts nowhere");
	sched_core_free(core);
}

/* A job allowed at 10:00 for its 2 h limit on a node reserved from
 * 12:00 is refused at 11:30: the same job, judged at each pass. */
static void
t_core_time_moves(void)
{
	struct sched_core	*core = t_core(1, 4);
	struct sched_cjob	*a, *b;
	uint32_t		 n0 = 0;

	sched_core_window_set(core, 9, 12 * H, 13 * H, false, &n0, 1);
	a = t_job(core, 1, 4, 0, 0, NULL, 0, 0);	/* holds the node */
	t_pass(core, 0);
	ok(!t_started(a), "core: an unlimited job never starts there");
	b = t_job(core, 2, 2, 2 * H, 0, NULL, 0, 0);
	t_pass(core, 10 * H);
	ok(t_started(b), "core: a 2 h job at 10:00 starts");
	sched_core_end(core, b, 10 * H);
	b = t_job(core, 3, 2, 2 * H, 0, NULL, 0, 10 * H);
	t_pass(core, 11 * H + H / 2);
	ok(!t_started(b) && sched_cjob_reason(core, b) ==
	    SCHED_REASON_RESOURCES,
	    "core: the same at 11:30 does not (%s: a user window, not a "
	    "maintenance)", sched_reason_name(sched_cjob_reason(core, b)));
	sched_core_free(core);
}

/* Like jobs that differ in their limits alone share a shape, not the
 * memo's verdict: the first (unlimited) finds no room, the next (short)
 * starts on the node held later. */
static void
t_core_memo(void)
{
	struct sched_core	*core = t_core(2, 2);
	struct sched_cjob	*a, *b, *c, *d;
	uint32_t		 n1 = 1;

	sched_core_window_set(core, 3, 10 * H, 11 * H, false, &n1, 1);
	a = t_job(core, 1, 2, 0, 0, NULL, 0, 0);
	t_pass(core, 0);
	ok(t_started(a) && t_node(a) == 0, "core: the free node first");
	b = t_job(core, 2, 2, 0, 0, NULL, 0, 0);
	c = t_job(core, 3, 2, 0, 0, NULL, 0, 0);
	d = t_job(core, 4, 2, H, 0, NULL, 0, 0);
	t_pass(core, 0);
	ok(!t_started(b) && !t_started(c) && t_started(d) &&
	    t_node(d) == 1,
	    "core: two unlimited jobs wait, the one of an hour behind them "
	    "starts on the reserved node");
	sched_core_free(core);
}

/* A job bound to nodes (-w, a partition) is narrowed to those the
 * windows leave it; a window's job bound to nodes runs where both
 * allow. */
static void
t_core_listed(void)
{
	struct sched_core	*core = t_core(3, 2);
	struct sched_cjob	*a, *b;
	static const uint32_t	 w12[] = { 1, 2 }, l01[] = { 0, 1 };

	sched_core_window_set(core, 4, 0, 10 * H, false, w12, 2);
	a = t_job(core, 1, 2, 0, 4, l01, 2, 0);
	t_pass(core, H);
	ok(t_started(a) && t_node(a) == 1,
	    "core: a window's job on nodes 0-1 runs on node 1, the one both "
	    "allow");
	b = t_job(core, 2, 2, 0, 0, w12, 2, 0);
	t_pass(core, H);
	ok(!t_started(b), "core: a job bound to the window's nodes and not "
	    "of it waits");
	sched_core_free(core);
}

/* A job kept off a node by a window preempts no one there. */
static void
t_core_preempt(void)
{
	struct sched_core	*core = t_core(1, 2);
	struct sched_cjob	*low, *high;
	struct sched_jobspec	 spec;
	uint32_t		 n0 = 0;
	size_t			 i;
	bool			 preempted = false;

	memset(&spec, 0, sizeof spec);
	spec.id = 1;
	spec.gpus = 2;
	spec.first_start = SCHED_NEVER;
	spec.attained = 2000 * H;	/* in Q1: a victim for Q0 */
	spec.executed = 2000 * H / 2;
	spec.limit = H;
	low = sched_core_submit(core, &spec, 0);
	t_pass(core, 0);
	ok(t_started(low), "core: a Q1 job runs");
	sched_core_window_set(core, 8, 5 * H, 6 * H, false, &n0, 1);
	high = t_job(core, 2, 2, 0, 0, NULL, 0, 0);
	t_pass(core, 0);
	for (i = 0; i < t_nacts; i++)
		preempted |= t_acts[i].type == SCHED_ACT_PREEMPT;
	ok(!preempted && !t_started(high),
	    "core: an unlimited Q0 job preempts nothing on a node a window "
	    "holds later");
	sched_core_free(core);
}

int
main(void)
{
	t_one_window(false);
	t_one_window(true);
	t_keys();
	t_overlap();
	t_random();
	t_past();
	t_core_maint();
	t_core_time_moves();
	t_core_memo();
	t_core_listed();
	t_core_preempt();
	return (tap_done());
}
