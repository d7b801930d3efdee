/* acct-report-test.c: daemon/controller/acct-report.c, the figures of
 * gacct --report, against figures computed by hand (in the comments) from
 * the range [1000, 2000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/controller/acct-report.h"
#include "daemon/controller/acct-series.h"
#include "tests/unit/tap.h"

/* When set, jobs go here instead of to the report t_feed was given: the
 * jobs read on a thread of their own, merged afterwards. */
static struct acct_report	*t_jobs_into;

static void
t_job(struct acct_report *r, const char *user, enum job_state state,
    uint32_t gpus, int64_t submit, int64_t end, int64_t wait_ms,
    uint32_t preemptions, int queue)
{
	struct acct_report_job	j;

	memset(&j, 0, sizeof j);
	j.user = user;
	j.state = state;
	j.gpus = gpus;
	j.submit_time = submit;
	j.end_time = end;
	j.queue_delay = wait_ms;
	j.preemptions = preemptions;
	j.last_queue = queue;
	acct_report_job(t_jobs_into != NULL ? t_jobs_into : r, &j);
}

static void
t_run(struct acct_report *r, const char *user, int64_t start, int64_t end,
    uint32_t gpus, const char *alloc)
{
	struct acct_report_run	run = { user, start, end, gpus, alloc,
				    1000 };

	acct_report_run(r, &run);
}

/* A row's charged figure: each run's GPU-seconds within the range x its
 * weight (thousandths), merged as the rest. */
static void
t_charged(void)
{
	struct acct_report		*r = acct_report_create(1000, 2000);
	struct acct_report		*o = acct_report_create(1000, 2000);
	const struct acct_report_user	*u;
	struct acct_report_run		 run = { "phys", 500, 1500, 2, "",
					     2000 };

	/* 2 GPUs for 500 s of the range at 2; 1 GPU from n1's mask for
	 * 100 s at 0; 4 GPUs for 200 s at 0.5, read into another. */
	acct_report_run(r, &run);
	run = (struct acct_report_run){ "phys", 1800, 1900, 9, "n1:0x1", 0 };
	acct_report_run(r, &run);
	run = (struct acct_report_run){ "phys", 1800, 0, 4, "", 500 };
	acct_report_run(o, &run);
	acct_report_merge(r, o);
	acct_report_finish(r);
	is_int(acct_report_users(r, &u), 1, "one row");
	is_int(u[0].gpu_s, 1000 + 100 + 800, "1900 GPU-s as run");
	is_int(u[0].charged, 2000 * 1000 + 0 + 500 * 800, "2,400,000 "
	    "thousandths charged: 1000 x 2, 100 x 0, 800 x 0.5");
	acct_report_free(o);
	acct_report_free(r);
}

static void
t_stat(const struct acct_stat *s, uint64_t n, double avg, int64_t median,
    int64_t p95, const char *what)
{
	is_int(s->n, n, "%s: n", what);
	ok(s->avg > avg - 0.001 && s->avg < avg + 0.001, "%s: avg %.3f (got "
	    "%.3f)", what, avg, s->avg);
	is_int(s->median, median, "%s: median", what);
	is_int(s->p95, p95, "%s: p95", what);
}

static void
t_feed(struct acct_report *r)
{
	/* n1: 4 GPUs, no event before: down 1200-1500 (300 s). */
	acct_report_node(r, "n1", 4, -1, -1);
	acct_report_node_event(r, "n1", 1200, ACCT_NODE_DOWN);
	acct_report_node_event(r, "n1", 1500, ACCT_NODE_UP);
	/* n2: 8 GPUs, up and not drained before; drained 1100-1400 (300 s),
	 * down from 1900 (100 s). */
	acct_report_node(r, "n2", 8, 1, 0);
	acct_report_node_event(r, "n2", 1100, ACCT_NODE_DRAINED);
	acct_report_node_event(r, "n2", 1400, ACCT_NODE_RESUMED);
	acct_report_node_event(r, "n2", 1900, ACCT_NODE_DOWN);
	/* n3: 2 GPUs, first seen UP at 1600: not in the cluster before
	 * (600 s neither down nor capacity). */
	acct_report_node(r, "n3", 2, -1, -1);
	acct_report_node_event(r, "n3", 1600, ACCT_NODE_UP);
	/* n4: 4 GPUs drained before and all along (1000 s). An event after
	 * the range changes nothing. */
	acct_report_node(r, "n4", 4, 1, 1);
	acct_report_node_event(r, "n4", 2000, ACCT_NODE_DOWN);
	/* n5: 2 GPUs; first drain event DRAINED at 1300 (not drained
	 * before), first up event DOWN at 1800 (up before): drained
	 * 1300-1800 (500 s; not while down), down 200 s. */
	acct_report_node(r, "n5", 2, -1, -1);
	acct_report_node_event(r, "n5", 1300, ACCT_NODE_DRAINED);
	acct_report_node_event(r, "n5", 1800, ACCT_NODE_DOWN);

	/* alice: 500 s x 2 on n1 (clipped at since) + 200 s x 8 on n2
	 * (running: up to until) = 2600. */
	t_run(r, "alice", 500, 1500, 2, "n1:0x3");
	t_run(r, "alice", 1800, 0, 8, "n2:0xff");
	/* bob: 200 s x (2 on n1 + 4 on n2) = 1200; then a run after. */
	t_run(r, "bob", 1100, 1300, 6, "n1:0xc,n2:0xf0");
	t_run(r, "bob", 2000, 2100, 6, "n1:0xc,n2:0xf0");
	/* carol: a run ended at since (0), one with an unreadable alloc:
	 * its gpus, 200 s x 3 = 600, on no node. */
	t_run(r, "carol", 900, 1000, 1, "n1:0x1");
	t_run(r, "carol", 1500, 1700, 3, "");
	/* dave: 50 s x 1 on x9, a node not in the nodes table. */
	t_run(r, "dave", 1950, 2050, 1, "x9:0x1");

	t_job(r, "alice", JOB_COMPLETED, 2, 400, 1500, 5000, 0, 0);
	t_job(r, "alice", JOB_FAILED, 1, 1000, 1100, 1000, 1, 1);
	t_job(r, "alice", JOB_COMPLETED, 8, 1000, 1400, 0, 0, 0);
	t_job(r, "alice", JOB_TIMEOUT, 16, 1000, 1300, 3000, 2, 2);
	t_job(r, "bob", JOB_CANCELLED, 6, 1200, 1250, 500, 0, 0);
	t_job(r, "bob", JOB_NODE_FAIL, 4, 1100, 1900, 2500, 1, 1);
	/* Not finished: ignored. */
	t_job(r, "erin", JOB_RUNNING, 1, 1000, 0, 0, 0, 0);
}

static void
t_users(const struct acct_report *r)
{
	const struct acct_report_user	*u;
	size_t				 n = acct_report_users(r, &u);

	is_int(n, 4, "users: alice, bob, carol, dave");
	is_str(u[0].user, "alice", "sorted by name");
	is_str(u[3].user, "dave", "the last");
	is_int(u[0].jobs, 4, "alice: 4 jobs");
	is_int(u[0].by_state[0], 2, "alice: 2 COMPLETED");
	is_int(u[0].by_state[1], 1, "alice: 1 FAILED");
	is_int(u[0].by_state[2], 1, "alice: 1 TIMEOUT");
	is_int(u[0].by_state[3], 0, "alice: 0 CANCELLED");
	is_int(u[0].gpu_s, 2600, "alice: GPU-seconds");
	/* JCT 100 300 400 1100: avg 475, rank 2 and rank 4. */
	t_stat(&u[0].jct, 4, 475, 300, 1100, "alice JCT");
	t_stat(&u[0].wait, 4, 2250, 1000, 5000, "alice wait");
	is_int(u[0].preemptions, 3, "alice: preemptions");
	is_int(u[1].gpu_s, 1200, "bob: GPU-seconds, two nodes");
	t_stat(&u[1].jct, 2, 425, 50, 800, "bob JCT");
	is_int(u[1].by_state[3], 1, "bob: 1 CANCELLED");
	is_int(u[1].by_state[4], 1, "bob: 1 NODE_FAIL");
	is_int(u[2].gpu_s, 600, "carol: GPU-seconds from the run's gpus");
	is_int(u[2].jobs, 0, "carol: no job ended");
	t_stat(&u[2].jct, 0, 0, 0, 0, "carol JCT");
	is_int(u[3].gpu_s, 50, "dave: clipped at until");
}

/* The cluster report's figures from jobs and runs. */
static void
t_cluster_jobs(const struct acct_report *r)
{
	const struct acct_report_cluster	*c = acct_report_cluster(r);

	is_int(c->gpu_s, 4450, "cluster: GPU-seconds used");
	is_int(c->all.jobs, 6, "cluster: 6 jobs");
	is_int(c->all.by_state[0], 2, "cluster: 2 COMPLETED");
	/* 50 100 300 400 800 1100: avg 2750 / 6, ranks 3 and 6. */
	t_stat(&c->all.jct, 6, 2750.0 / 6, 300, 1100, "cluster JCT");
	is_int(c->all.preemptions, 4, "cluster: preemptions");
	t_stat(&c->bucket[0].jct, 0, 0, 0, 0, "bucket 0: no CPU job");
	t_stat(&c->bucket[1].jct, 1, 100, 100, 100, "bucket 1");
	t_stat(&c->bucket[2].jct, 2, 950, 800, 1100, "bucket 2-4");
	t_stat(&c->bucket[3].jct, 2, 225, 50, 400, "bucket 5-8");
	t_stat(&c->bucket[4].jct, 1, 300, 300, 300, "bucket >8");
	is_str(acct_report_bucket_name(4), ">8", "bucket names");
	is_str(acct_report_bucket_name(0), "0", "CPU jobs' bucket");
	is_int(c->nqueues, 3, "queues 0-2");
	t_stat(&c->queue[0].jct, 3, 1550.0 / 3, 400, 1100, "queue 0 JCT");
	t_stat(&c->queue[0].wait, 3, 5500.0 / 3, 500, 5000, "queue 0 wait");
	t_stat(&c->queue[1].jct, 2, 450, 100, 800, "queue 1 JCT");
	is_int(c->queue[2].by_state[2], 1, "queue 2: the TIMEOUT");
	/* JCT ranges: 50 | 100 300 400 | 800 1100 | none above. */
	is_str(acct_report_jct_name(0), "<1m", "JCT range names");
	is_str(acct_report_jct_name(ACCT_NJCT - 1), ">3d", "the last");
	t_stat(&c->jct[0].jct, 1, 50, 50, 50, "JCT under a minute");
	t_stat(&c->jct[1].jct, 3, 800.0 / 3, 300, 400, "JCT 1m-10m");
	t_stat(&c->jct[2].jct, 2, 950, 800, 1100, "JCT 10m-1h");
	is_int(c->jct[3].jobs + c->jct[7].jobs, 0, "no longer JCT");
}

static void
t_cluster(const struct acct_report *r)
{
	const struct acct_report_cluster	*c = acct_report_cluster(r);

	t_cluster_jobs(r);
	/* 4 x 700 + 8 x 900 + 2 x 400 + 4 x 1000 + 2 x 800 */
	is_int(c->capacity_s, 16400, "cluster: capacity");
	is_int(c->down_gpu_s, 1200 + 800 + 400, "cluster: down");
	is_int(c->drained_gpu_s, 2400 + 4000 + 1000, "cluster: drained");
}

static void
t_nodes(const struct acct_report *r)
{
	const struct acct_report_node	*n;
	size_t				 count = acct_report_nodes(r, &n);

	is_int(count, 6, "nodes n1-n5 and x9");
	is_str(n[0].name, "n1", "n1 first");
	is_int(n[0].gpu_s, 1000 + 400, "n1: allocated");
	is_int(n[0].down_s, 300, "n1: down");
	is_int(n[0].capacity_s, 2800, "n1: capacity");
	is_int(n[1].gpu_s, 1600 + 800, "n2: allocated");
	is_int(n[1].drained_s, 300, "n2: drained");
	is_int(n[1].down_s, 100, "n2: down");
	is_int(n[2].down_s, 0, "n3: not down before its first UP");
	is_int(n[2].capacity_s, 2 * 400, "n3: capacity from its first UP");
	is_int(n[3].drained_s, 1000, "n4: drained all along");
	is_int(n[3].down_s, 0, "n4: an event after the range is not counted");
	is_int(n[4].drained_s, 500, "n5: drained only while up");
	is_int(n[4].down_s, 200, "n5: down");
	is_str(n[5].name, "x9", "x9: known from a run");
	is_int(n[5].gpus, 0, "x9: no GPUs listed");
	is_int(n[5].capacity_s, 0, "x9: no capacity");
	is_int(n[5].gpu_s, 50, "x9: allocated");
}

static void
t_percentiles(void)
{
	struct acct_report		*r = acct_report_create(0, 100);
	const struct acct_report_user	*u;
	int				 i;

	/* JCT 1..20: nearest rank 10 (median) and 19 (p95). */
	for (i = 20; i >= 1; i--)
		t_job(r, "u", JOB_COMPLETED, 1, 0, i, 0, 0, 0);
	acct_report_finish(r);
	acct_report_users(r, &u);
	t_stat(&u[0].jct, 20, 10.5, 10, 19, "1..20");
	acct_report_free(r);

	r = acct_report_create(0, 100);
	t_job(r, "u", JOB_COMPLETED, 1, 0, 7, 0, 0, 0);
	acct_report_finish(r);
	acct_report_users(r, &u);
	t_stat(&u[0].jct, 1, 7, 7, 7, "one value");
	acct_report_free(r);
}

static int
t_cmp(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return ((x > y) - (x < y));
}

/* Percentiles of random values, duplicates among them, against those of
 * the same values sorted. */
static void
t_random(void)
{
	static int64_t			 v[1000];
	struct acct_report		*r;
	const struct acct_report_user	*u;
	int				 round, n, i, bad = 0;

	srand(7);
	for (round = 0; round < 300; round++) {
		n = 1 + rand() % 1000;
		r = acct_report_create(0, 100);
		for (i = 0; i < n; i++) {
			v[i] = rand() % (round % 2 ? 10 : 100000);
			t_job(r, "u", JOB_COMPLETED, 1, 0, v[i], 0, 0, 0);
		}
		acct_report_finish(r);
		acct_report_users(r, &u);
		qsort(v, (size_t)n, sizeof v[0], t_cmp);
		if (u[0].jct.median != v[(n + 1) / 2 - 1] ||
		    u[0].jct.p95 != v[(95 * n + 99) / 100 - 1])
			bad++;
		acct_report_free(r);
	}
	is_int(bad, 0, "300 random sets: median and p95 as sorting gives");
}

static void
t_many_users(void)
{
	struct acct_report		*r = acct_report_create(0, 100);
	const struct acct_report_user	*u;
	char				 name[32];
	int				 i;
	size_t				 n;

	/* Enough names to grow the table several times. */
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "user%04d", i % 1000);
		t_run(r, name, 0, 10, 1, "n1:0x1");
	}
	acct_report_finish(r);
	n = acct_report_users(r, &u);
	is_int(n, 1000, "1000 users, each once");
	is_str(u[999].user, "user0999", "the last");
	is_int(u[999].gpu_s, 30, "three runs of 10 GPU-s");
	acct_report_free(r);
}

/* The series of t_feed's report in 4 bins of 250 s, each figure summed
 * by hand per node, run and job (the comments of t_feed), with two jobs
 * still alive at until: one submitted at 500, one at 1900. */
static void
t_series(struct acct_report *r, const char *what)
{
	static const uint64_t	 cap[4] = { 4300, 3500, 4800, 3800 };
	static const uint64_t	 gpu[4] = { 1400, 800, 600, 1650 };
	static const uint64_t	 run[4] = { 400, 300, 200, 250 };
	static const uint64_t	 wait[4] = { 900, 650, 300, 250 };
	static const uint64_t	 jobs[4] = { 1, 3, 1, 1 };
	const struct acct_series_bin *b;
	const struct acct_report_cluster *c = acct_report_cluster(r);
	uint64_t		 sum_cap = 0, sum_gpu = 0;
	size_t			 n = acct_report_series_bins(r, &b), i;
	int			 bad = 0;

	is_int(n, 4, "%s: 4 bins", what);
	for (i = 0; i < n && i < 4; i++) {
		if (b[i].start != 1000 + 250 * (int64_t)i ||
		    b[i].end != b[i].start + 250)
			bad++;
		if (b[i].capacity_s != cap[i] || b[i].gpu_s != gpu[i] ||
		    b[i].run_s != run[i] || b[i].wait_s != wait[i] ||
		    b[i].jobs != jobs[i]) {
			printf("# bin %zu: capacity %ju gpu %ju run %ju wait "
			    "%ju jobs %ju\n", i, (uintmax_t)b[i].capacity_s,
			    (uintmax_t)b[i].gpu_s, (uintmax_t)b[i].run_s,
			    (uintmax_t)b[i].wait_s, (uintmax_t)b[i].jobs);
			bad++;
		}
		sum_cap += b[i].capacity_s;
		sum_gpu += b[i].gpu_s;
	}
	is_int(bad, 0, "%s: every bin's figures", what);
	is_int(sum_cap, c->capacity_s, "%s: capacity sums to the report's",
	    what);
	is_int(sum_gpu, c->gpu_s, "%s: use sums to the report's", what);
}

/* Bins of uneven length, and intervals against a count per second. */
static void
t_series_bins(void)
{
	struct acct_series		*s;
	const struct acct_series_bin	*b;
	static uint64_t			 want[1000];
	int64_t				 a, e;
	size_t				 n, i;
	int				 round, k, bad = 0;

	/* [0, 10) in 3: edges at ceil(10 i / 3) = 0, 4, 7, 10. */
	s = acct_series_create(0, 10, 3);
	acct_series_run(s, 3, 8, 2000);
	acct_series_job(s, -5, 0);
	n = acct_series_bins(s, &b);
	is_int(n, 3, "3 bins");
	is_int(b[1].start, 4, "the second starts at 4");
	is_int(b[2].start, 7, "the third at 7");
	is_int(b[0].gpu_s, 2, "[3, 8) x 2: 1 s in the first");
	is_int(b[1].gpu_s, 6, "3 s in the second");
	is_int(b[2].gpu_s, 2, "1 s in the third");
	is_int(b[1].wait_s, 0, "alive and running: not waiting");
	is_int(b[2].wait_s, 2, "alive, not running: waiting");
	acct_series_free(s);
	/* A run of half a GPU (shards): half the GPU-seconds. */
	s = acct_series_create(0, 10, 3);
	acct_series_run(s, 0, 10, 500);
	n = acct_series_bins(s, &b);
	ok(b[0].gpu_s == 2 && b[1].gpu_s == 2 && b[2].gpu_s == 2, "[0, 10) x "
	    "0.5: 2, 1.5 and 1.5 GPU-s, each rounded to the nearest (the "
	    "half up)");
	acct_series_free(s);

	s = acct_series_create(0, 5, 10);
	is_int(acct_series_bins(s, &b), 5, "a bin per second at most");
	acct_series_free(s);
	s = acct_series_create(7, 7, 10);
	is_int(acct_series_bins(s, &b), 0, "an empty range: no bins");
	acct_series_free(s);

	srand(11);
	for (round = 0; round < 200; round++) {
		int64_t	since = rand() % 100, len = 1 + rand() % 900;
		int	nb = 1 + rand() % 60;

		memset(want, 0, sizeof want);
		s = acct_series_create(since, since + len, nb);
		for (k = 0; k < 20; k++) {
			a = since - 50 + rand() % (len + 100);
			e = a + rand() % (len + 1);
			acct_series_capacity(s, a, e, (uint32_t)(k + 1));
			for (; a < e; a++) {
				if (a >= since && a < since + len)
					want[a - since] += (uint64_t)k + 1;
			}
		}
		n = acct_series_bins(s, &b);
		for (i = 0; i < n; i++) {
			uint64_t	sum = 0;

			for (a = b[i].start; a < b[i].end; a++)
				sum += want[a - since];
			if (sum != b[i].capacity_s)
				bad++;
		}
		if (n == 0 || b[0].start != since || b[n - 1].end != since +
		    len)
			bad++;
		acct_series_free(s);
	}
	is_int(bad, 0, "200 random sets of intervals: each bin as a count "
	    "per second gives");
}

/* A run of shards (gsub --gpu-share) is charged its share of the GPU:
 * as run, charged, on its node and in the cluster's figures. */
static void
t_shards(void)
{
	struct acct_report		*r = acct_report_create(1000, 2000);
	const struct acct_report_user	*u;
	const struct acct_report_node	*n;
	struct acct_report_run		 run = { "phys", 1000, 1400, 1,
					     "n1:0x2*2/4", 2000 };

	/* Half of n1's GPU 1 for 400 s at a factor of 2; a third of it
	 * for 300 s at 1. */
	acct_report_run(r, &run);
	run = (struct acct_report_run){ "phys", 1100, 1400, 1, "n1:0x2*1/3",
	    1000 };
	acct_report_run(r, &run);
	acct_report_finish(r);
	is_int(acct_report_users(r, &u), 1, "one row");
	is_int(u[0].gpu_s, 200 + 100, "300 GPU-s as run: 400 x 1/2, 300 x "
	    "1/3");
	is_int(u[0].charged, 200 * 2000 + 100 * 1000, "charged: 200 at 2, "
	    "100 at 1");
	is_int(acct_report_cluster(r)->gpu_s, 300, "the cluster's likewise");
	is_int(acct_report_nodes(r, &n), 1, "one node");
	is_int(n[0].gpu_s, 300, "n1 allocated 300 GPU-s");
	acct_report_free(r);
}

int
main(void)
{
	struct acct_report	*r = acct_report_create(1000, 2000);
	uint64_t		 used;

	t_feed(r);
	acct_report_finish(r);
	t_users(r);
	t_cluster(r);
	t_nodes(r);
	used = acct_report_cluster(r)->gpu_s;
	t_charged();
	t_shards();
	acct_report_free(r);

	/* The series, fed alone and with its jobs merged from another. */
	r = acct_report_create(1000, 2000);
	acct_report_series(r, 4);
	t_feed(r);
	acct_report_alive(r, 500);
	acct_report_alive(r, 1900);
	acct_report_finish(r);
	t_cluster(r);
	t_series(r, "series");
	acct_report_free(r);
	r = acct_report_create(1000, 2000);
	acct_report_series(r, 4);
	t_jobs_into = acct_report_create(1000, 2000);
	acct_report_series(t_jobs_into, 4);
	t_feed(r);
	acct_report_alive(r, 500);
	acct_report_alive(r, 1900);
	acct_report_merge(r, t_jobs_into);
	acct_report_free(t_jobs_into);
	t_jobs_into = NULL;
	acct_report_finish(r);
	t_series(r, "series merged");
	acct_report_free(r);
	t_series_bins();

	/* The jobs in a report of their own, merged into the one fed the
	 * rest: the same figures, every one. */
	r = acct_report_create(1000, 2000);
	t_jobs_into = acct_report_create(1000, 2000);
	t_feed(r);
	acct_report_merge(r, t_jobs_into);
	acct_report_free(t_jobs_into);
	t_jobs_into = NULL;
	acct_report_finish(r);
	t_users(r);
	t_cluster(r);
	t_nodes(r);
	acct_report_free(r);

	/* Merged the other way round: nodes are not merged, the rest is. */
	r = acct_report_create(1000, 2000);
	t_jobs_into = acct_report_create(1000, 2000);
	t_feed(r);
	acct_report_merge(t_jobs_into, r);
	acct_report_finish(t_jobs_into);
	t_users(t_jobs_into);
	t_cluster_jobs(t_jobs_into);
	acct_report_free(t_jobs_into);
	t_jobs_into = NULL;
	acct_report_free(r);

	/* The users report alone: the same rows and cluster share, and
	 * none of the cluster report's groups. */
	r = acct_report_create(1000, 2000);
	acct_report_users_only(r);
	t_feed(r);
	acct_report_finish(r);
	t_users(r);
	is_int(acct_report_cluster(r)->gpu_s, used, "users only: the cluster's "
	    "GPU-seconds, for the shares");
	is_int(acct_report_cluster(r)->all.jobs, 0, "users only: no groups");
	is_int(acct_report_cluster(r)->nqueues, 0, "users only: no queues");
	acct_report_free(r);
	t_percentiles();
	t_random();
	t_many_users();
	acct_report_free(NULL);
	return (tap_done());
}
