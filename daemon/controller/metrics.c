/* metrics.c: gbatchd's counters and histograms, and the text a scrape
 * reads (Prometheus exposition format 0.0.4: a HELP and a TYPE line per
 * family, then its samples). Names follow Prometheus's conventions: the
 * gbatch_ prefix, the unit in the name (seconds), _total on counters.
 *
 * Histograms keep a count per bucket and cumulate when written, so an
 * observation costs one comparison per bucket and no float arithmetic:
 * durations are whole microseconds. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/label.h"
#include "common/xmalloc.h"
#include "daemon/controller/metrics.h"

/* An upper bound: in microseconds to compare, as text for the le label
 * (written once here, so the label never shows a float's rounding). */
struct metrics_bound {
	int64_t		 us;
	const char	*le;
};

#define METRICS_MAX_BUCKETS	16

/* The groups' families, gbatch_<name>_jobs{<name>,state},
 * gbatch_<name>_gpus_allocated{<name>} and
 * gbatch_<name>_gpu_seconds_total{<name>}, and how many names' GPU-seconds
 * are counted: past that many the rest are not, so a scrape stays
 * bounded. */
static const struct metrics_by_info {
	const char	*name;
	size_t		 max;
	const char	*jobs_help;
	const char	*gpus_help;
	const char	*seconds_help;
} metrics_by_info[METRICS_BY_COUNT] = {
	/* gbatch.conf's most, and the one of a cluster without. */
	[METRICS_BY_PARTITION] = { "partition", 257,
	    "Jobs pending that may run in each partition (a job that lists "
	    "two counts in both) and jobs running in it.",
	    "GPUs held by the jobs running in each partition.",
	    "GPUs x seconds of the runs that ended in each partition since "
	    "gbatchd started." },
	/* Past any cluster's projects: without controller.enforce_accounts
	 * a job may name any account. */
	[METRICS_BY_ACCOUNT] = { "account", 1024,
	    "Jobs pending and running charged to each account (not those of "
	    "the accounts below it; account=\"\" for jobs of none).",
	    "GPUs held by the running jobs charged to each account.",
	    "GPUs x seconds of the runs that ended charged to each account "
	    "since gbatchd started." },
	/* gbatch.conf's most, and as many again that reloads removed. */
	[METRICS_BY_QOS] = { "qos", 128,
	    "Jobs pending and running in each QOS (jobs from before QOS in "
	    "the default's).",
	    "GPUs held by the running jobs of each QOS.",
	    "GPUs x seconds of the runs that ended in each QOS since gbatchd "
	    "started (as run, without its usage factor)." },
};

/* GPU-seconds of the runs that ended, by the names of one kind of group,
 * in the order first seen. */
struct metrics_uses {
	struct metrics_use {
		char		 name[LABEL_MAX + 1];
		uint64_t	 gpu_seconds;
	}			*v;
	size_t			 n;
	size_t			 size;
};

struct metrics_histogram {
	const char			*name;
	const char			*help;
	const struct metrics_bound	*bounds;
	size_t				 nbounds;
	uint64_t			 bucket[METRICS_MAX_BUCKETS];
	uint64_t			 count;
	uint64_t			 sum_us;
};

/* A pass takes well under a millisecond on a small cluster and a few
 * milliseconds with 100,000 pending jobs (DESIGN.md, "Scale"). */
static const struct metrics_bound metrics_pass_bounds[] = {
	{ 100, "0.0001" }, { 250, "0.00025" }, { 500, "0.0005" },
	{ 1000, "0.001" }, { 2500, "0.0025" }, { 5000, "0.005" },
	{ 10000, "0.01" }, { 25000, "0.025" }, { 50000, "0.05" },
	{ 100000, "0.1" }, { 250000, "0.25" }, { 500000, "0.5" },
	{ 1000000, "1" },
};

/* A commit is an fsync: tens of microseconds on an SSD, milliseconds on a
 * disk, seconds when the disk is in trouble (what an alert wants). */
static const struct metrics_bound metrics_commit_bounds[] = {
	{ 500, "0.0005" }, { 1000, "0.001" }, { 2500, "0.0025" },
	{ 5000, "0.005" }, { 10000, "0.01" }, { 25000, "0.025" },
	{ 50000, "0.05" }, { 100000, "0.1" }, { 250000, "0.25" },
	{ 500000, "0.5" }, { 1000000, "1" }, { 2500000, "2.5" },
	{ 5000000, "5" },
};

#define METRICS_NBOUNDS(a)	(sizeof (a) / sizeof (a)[0])

/* The counters, in the order written. */
enum metrics_counter {
	METRICS_SUBMITS,
	METRICS_STARTS,
	METRICS_PREEMPTS,
	METRICS_PROMOTIONS,
	METRICS_RESIZES,
	METRICS_SWITCHES,
};
#define METRICS_NCOUNTERS	(METRICS_SWITCHES + 1)

static const struct {
	const char	*name;
	const char	*help;
} metrics_counter_info[METRICS_NCOUNTERS] = {
	{ "gbatch_job_submissions_total", "Jobs accepted since gbatchd "
	  "started." },
	{ "gbatch_job_starts_total", "Jobs the scheduler started (every run "
	  "of a requeued job counts)." },
	{ "gbatch_job_preemptions_total", "Running jobs the scheduler "
	  "preempted for a job of a higher queue." },
	{ "gbatch_job_promotions_total", "Pending jobs promoted to the top "
	  "queue after waiting (starvation promotion)." },
	{ "gbatch_job_resizes_total", "Running elastic jobs the scheduler "
	  "stopped at a checkpoint to restart on more GPUs." },
	{ "gbatch_job_slice_switches_total", "Running jobs the scheduler "
	  "suspended for another job's turn on their GPUs (time-slicing)." },
};

/* What gbatchd counts for a monitoring system: one set a process.
 * Global: counted from every floor, read by the metrics endpoint. */
static struct {
	struct metrics_histogram	 pass;
	struct metrics_histogram	 commit;
	uint64_t			 counters[METRICS_NCOUNTERS];
	uint64_t			 finished[JOB_STATE_COUNT];
	struct metrics_uses		 uses[METRICS_BY_COUNT];
} metrics = {
	.pass = {
		"gbatch_schedule_pass_duration_seconds",
		"Time a scheduling pass took, its starts and preemptions "
		"included.",
		metrics_pass_bounds, METRICS_NBOUNDS(metrics_pass_bounds),
		{ 0 }, 0, 0
	},
	.commit = {
		"gbatch_store_commit_duration_seconds",
		"Time a commit of the job database took (one per group of "
		"requests).",
		metrics_commit_bounds, METRICS_NBOUNDS(metrics_commit_bounds),
		{ 0 }, 0, 0
	},
};

void metrics_count_submit(void) { metrics.counters[METRICS_SUBMITS]++; }
void metrics_count_start(void) { metrics.counters[METRICS_STARTS]++; }
void metrics_count_preempt(void) { metrics.counters[METRICS_PREEMPTS]++; }
void metrics_count_resize(void) { metrics.counters[METRICS_RESIZES]++; }
void metrics_count_switch(void) { metrics.counters[METRICS_SWITCHES]++; }

void
metrics_count_promotions(uint64_t n)
{
	metrics.counters[METRICS_PROMOTIONS] += n;
}

/* Adds gpu_seconds to name's in u, a new one while there is room. */
static void
metrics_uses_add(struct metrics_uses *u, size_t max, const char *name,
    uint64_t gpu_seconds)
{
	size_t	i;

	for (i = 0; i < u->n; i++) {
		if (strcmp(u->v[i].name, name) == 0)
			break;
	}
	if (i == u->n) {
		if (u->n == max)
			return;
		if (i == u->size) {
			u->size = u->size * 2 + 16;
			u->v = xreallocarray(u->v, u->size, sizeof *u->v);
		}
		snprintf(u->v[i].name, sizeof u->v[i].name, "%s", name);
		u->v[i].gpu_seconds = 0;
		u->n++;
	}
	u->v[i].gpu_seconds += gpu_seconds;
}

void
metrics_count_gpu_seconds(const char *const names[METRICS_BY_COUNT],
    uint64_t gpu_seconds)
{
	int	by;

	for (by = 0; by < METRICS_BY_COUNT; by++)
		metrics_uses_add(&metrics.uses[by], metrics_by_info[by].max,
		    names[by], gpu_seconds);
}

void
metrics_count_finished(enum job_state s)
{
	if ((unsigned)s < JOB_STATE_COUNT)
		metrics.finished[s]++;
}

static void
metrics_observe(struct metrics_histogram *h, int64_t us)
{
	size_t	i;

	if (us < 0)
		us = 0;
	for (i = 0; i < h->nbounds; i++) {
		if (us <= h->bounds[i].us) {
			h->bucket[i]++;
			break;
		}
	}
	h->count++;
	h->sum_us += (uint64_t)us;
}

void
metrics_observe_pass_us(int64_t us)
{
	metrics_observe(&metrics.pass, us);
}

void
metrics_observe_commit_us(int64_t us)
{
	metrics_observe(&metrics.commit, us);
}

int64_t
metrics_clock_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

static void
metrics_histogram_reset(struct metrics_histogram *h)
{
	memset(h->bucket, 0, sizeof h->bucket);
	h->count = h->sum_us = 0;
}

void
metrics_reset(void)
{
	int	by;

	memset(metrics.counters, 0, sizeof metrics.counters);
	memset(metrics.finished, 0, sizeof metrics.finished);
	for (by = 0; by < METRICS_BY_COUNT; by++) {
		free(metrics.uses[by].v);
		memset(&metrics.uses[by], 0, sizeof metrics.uses[by]);
	}
	metrics_histogram_reset(&metrics.pass);
	metrics_histogram_reset(&metrics.commit);
}

void
metrics_write_label(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void
metrics_family(FILE *f, const char *name, const char *type,
    const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void
metrics_histogram_write(FILE *f, const struct metrics_histogram *h)
{
	uint64_t	cum = 0;
	size_t		i;

	metrics_family(f, h->name, "histogram", h->help);
	for (i = 0; i < h->nbounds; i++) {
		cum += h->bucket[i];
		fprintf(f, "%s_bucket{le=\"%s\"} %" PRIu64 "\n", h->name,
		    h->bounds[i].le, cum);
	}
	fprintf(f, "%s_bucket{le=\"+Inf\"} %" PRIu64 "\n", h->name, h->count);
	fprintf(f, "%s_sum %" PRIu64 ".%06" PRIu64 "\n", h->name,
	    h->sum_us / 1000000, h->sum_us % 1000000);
	fprintf(f, "%s_count %" PRIu64 "\n", h->name, h->count);
}

/* Whether the scheduler holds jobs of state s in its queues. */
static bool
metrics_is_queued(enum job_state s)
{
	return (s == JOB_PENDING || job_state_on_node(s));
}

static void
metrics_jobs_write(FILE *f, const struct metrics_gauges *g)
{
	enum job_state	s;
	unsigned	q;
	size_t		out;

	metrics_family(f, "gbatch_jobs", "gauge", "Active jobs by state, and "
	    "by queue level for the jobs in the scheduler's queues.");
	for (s = 0; s < JOB_STATE_COUNT; s++) {
		if (job_state_is_terminal(s))
			continue;
		out = g->jobs[s][SCHED_MAX_QUEUES];
		if (metrics_is_queued(s)) {
			for (q = 0; q < g->nqueues && q < SCHED_MAX_QUEUES;
			    q++)
				fprintf(f, "gbatch_jobs{state=\"%s\",queue="
				    "\"%u\"} %zu\n", job_state_name(s), q,
				    g->jobs[s][q]);
			/* Outside the queues for a moment (a stale copy
			 * still stopping): a series only while there are
			 * such, so sum(gbatch_jobs) stays the total. */
			if (out == 0)
				continue;
		}
		fprintf(f, "gbatch_jobs{state=\"%s\"} %zu\n",
		    job_state_name(s), out);
	}
	metrics_family(f, "gbatch_jobs_finished_total", "counter", "Jobs that "
	    "reached each final state since gbatchd started.");
	for (s = 0; s < JOB_STATE_COUNT; s++) {
		if (job_state_is_terminal(s))
			fprintf(f, "gbatch_jobs_finished_total{state=\"%s\"} "
			    "%" PRIu64 "\n", job_state_name(s),
			    metrics.finished[s]);
	}
}

static int
metrics_state_cmp(const void *a, const void *b)
{
	return (strcmp(*(const char *const *)a, *(const char *const *)b));
}

/* gbatch_nodes{state}: the states present, in name order. */
static void
metrics_node_states_write(FILE *f, const struct metrics_gauges *g)
{
	const char	**states;
	size_t		  i, n;

	metrics_family(f, "gbatch_nodes", "gauge", "Nodes by state (idle, "
	    "mixed, allocated, drained, down); a state no node is in is "
	    "absent.");
	if (g->nnodes == 0)
		return;
	states = xcalloc(g->nnodes, sizeof *states);
	for (i = 0; i < g->nnodes; i++)
		states[i] = g->nodes[i].state;
	qsort(states, g->nnodes, sizeof *states, metrics_state_cmp);
	for (i = 0; i < g->nnodes; i += n) {
		for (n = 1; i + n < g->nnodes &&
		    strcmp(states[i], states[i + n]) == 0; n++)
			;
		fputs("gbatch_nodes{state=\"", f);
		metrics_write_label(f, states[i]);
		fprintf(f, "\"} %zu\n", n);
	}
	free(states);
}

static void
metrics_nodes_write(FILE *f, const struct metrics_gauges *g)
{
	static const char *const	 status[] = {
		"total", "allocated", "down"
	};
	const struct metrics_node	*n;
	uint32_t			 v[3];
	size_t				 i, k;

	metrics_family(f, "gbatch_node_gpus", "gauge", "GPUs of each node: "
	    "all of them, those held by jobs, and those of a node that is "
	    "down.");
	for (i = 0; i < g->nnodes; i++) {
		n = &g->nodes[i];
		v[0] = n->gpus_total;
		v[1] = n->gpus_allocated;
		v[2] = n->gpus_down;
		for (k = 0; k < 3; k++) {
			fputs("gbatch_node_gpus{node=\"", f);
			metrics_write_label(f, n->name);
			fprintf(f, "\",status=\"%s\"} %" PRIu32 "\n",
			    status[k], v[k]);
		}
	}
	metrics_node_states_write(f, g);
}

static void
metrics_clients_write(FILE *f, const struct metrics_gauges *g)
{
	static const char *const kind[METRICS_CLIENT_COUNT] = {
		[METRICS_CLIENT_LOCAL] = "local",
		[METRICS_CLIENT_RELAYED] = "relayed",
		[METRICS_CLIENT_NODE] = "node",
	};
	size_t			 i;

	metrics_family(f, "gbatch_clients_connected", "gauge", "Open "
	    "connections: commands on the Unix socket, commands relayed by "
	    "node daemons, node daemons.");
	for (i = 0; i < METRICS_CLIENT_COUNT; i++)
		fprintf(f, "gbatch_clients_connected{kind=\"%s\"} %zu\n",
		    kind[i], g->clients[i]);
}

static void
metrics_requests_write(FILE *f, const struct metrics_gauges *g)
{
	size_t	i;

	metrics_family(f, "gbatch_requests_total", "counter", "Requests "
	    "handled, by message type (docs/protocol.md).");
	for (i = 0; i < g->nrequests; i++)
		fprintf(f, "gbatch_requests_total{type=\"%s\"} %" PRIu64 "\n",
		    g->requests[i].name, g->requests[i].count);
	metrics_family(f, "gbatch_request_seconds_total", "counter", "Time "
	    "the handlers of each message type took.");
	for (i = 0; i < g->nrequests; i++)
		fprintf(f, "gbatch_request_seconds_total{type=\"%s\"} "
		    "%" PRIu64 ".%06" PRIu64 "\n", g->requests[i].name,
		    g->requests[i].us / 1000000, g->requests[i].us % 1000000);
}

/* Writes "gbatch_<by>_<what>{<by>=\"NAME\"" for a sample of group NAME. */
static void
metrics_group_sample(FILE *f, int by, const char *what, const char *name)
{
	const char	*n = metrics_by_info[by].name;

	fprintf(f, "gbatch_%s_%s{%s=\"", n, what, n);
	metrics_write_label(f, name);
	fputc('"', f);
}

/* Jobs and GPUs by partition, account or QOS (by), and the GPU-seconds
 * of the runs that ended in each. */
static void
metrics_groups_write(FILE *f, const struct metrics_gauges *g, int by)
{
	const struct metrics_by_info	*info = &metrics_by_info[by];
	const struct metrics_group	*v = g->groups[by];
	const struct metrics_uses	*u = &metrics.uses[by];
	char				 fam[64];
	size_t				 i;

	snprintf(fam, sizeof fam, "gbatch_%s_jobs", info->name);
	metrics_family(f, fam, "gauge", info->jobs_help);
	for (i = 0; i < g->ngroups[by]; i++) {
		metrics_group_sample(f, by, "jobs", v[i].name);
		fprintf(f, ",state=\"PENDING\"} %zu\n", v[i].pending);
		metrics_group_sample(f, by, "jobs", v[i].name);
		fprintf(f, ",state=\"RUNNING\"} %zu\n", v[i].running);
	}
	snprintf(fam, sizeof fam, "gbatch_%s_gpus_allocated", info->name);
	metrics_family(f, fam, "gauge", info->gpus_help);
	for (i = 0; i < g->ngroups[by]; i++) {
		metrics_group_sample(f, by, "gpus_allocated", v[i].name);
		fprintf(f, "} %" PRIu64 "\n", v[i].gpus);
	}
	snprintf(fam, sizeof fam, "gbatch_%s_gpu_seconds_total", info->name);
	metrics_family(f, fam, "counter", info->seconds_help);
	for (i = 0; i < u->n; i++) {
		metrics_group_sample(f, by, "gpu_seconds_total", u->v[i].name);
		fprintf(f, "} %" PRIu64 "\n", u->v[i].gpu_seconds);
	}
}

int
metrics_write(FILE *f, const struct metrics_gauges *g)
{
	size_t	i;

	metrics_family(f, "gbatch_up", "gauge", "1 while gbatchd serves.");
	fputs("gbatch_up 1\n", f);
	metrics_family(f, "gbatch_start_time_seconds", "gauge", "When "
	    "gbatchd started, in seconds since the epoch.");
	fprintf(f, "gbatch_start_time_seconds %" PRId64 "\n", g->start_time);
	metrics_jobs_write(f, g);
	for (i = 0; i < METRICS_BY_COUNT; i++)
		metrics_groups_write(f, g, (int)i);
	metrics_nodes_write(f, g);
	for (i = 0; i < METRICS_NCOUNTERS; i++) {
		metrics_family(f, metrics_counter_info[i].name, "counter",
		    metrics_counter_info[i].help);
		fprintf(f, "%s %" PRIu64 "\n", metrics_counter_info[i].name,
		    metrics.counters[i]);
	}
	metrics_histogram_write(f, &metrics.pass);
	metrics_histogram_write(f, &metrics.commit);
	metrics_clients_write(f, g);
	metrics_requests_write(f, g);
	return (ferror(f) ? -1 : 0);
}
