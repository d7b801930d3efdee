/* metrics-test.c: the Prometheus text gbatchd serves (metrics.c): each
 * family declared before its samples, histogram buckets cumulative with
 * +Inf equal to _count, label values escaped, counters and gauges where
 * they belong. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/controller/metrics.h"
#include "tap.h"

/* The text for g, a new string. */
/* A run of partition, account and QOS ended: gpu_s GPU-seconds. */
static void
t_count(const char *part, const char *account, const char *qos,
    uint64_t gpu_s)
{
	const char	*names[METRICS_BY_COUNT];

	names[METRICS_BY_PARTITION] = part;
	names[METRICS_BY_ACCOUNT] = account;
	names[METRICS_BY_QOS] = qos;
	metrics_count_gpu_seconds(names, gpu_s);
}

static char *
t_write(const struct metrics_gauges *g)
{
	char	*text = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&text, &len);

	if (f == NULL || metrics_write(f, g) != 0 || fclose(f) != 0) {
		printf("Bail out! cannot write the metrics\n");
		exit(1);
	}
	return (text);
}

/* Whether text holds line, whole. */
static int
t_has(const char *text, const char *line)
{
	size_t		 n = strlen(line);
	const char	*p;

	for (p = text; (p = strstr(p, line)) != NULL; p++) {
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return (1);
	}
	return (0);
}

/* The value of the sample named (name and labels) in text, or -1. */
static double
t_value(const char *text, const char *sample)
{
	size_t		 n = strlen(sample);
	const char	*p;

	for (p = text; (p = strstr(p, sample)) != NULL; p++) {
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return (strtod(p + n + 1, NULL));
	}
	return (-1);
}

static void
test_histogram(void)
{
	static const char *const le[] = {
		"0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005",
		"0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "+Inf"
	};
	struct metrics_gauges	 g = { .nqueues = 1 };
	char			*text, name[128];
	double			 v, last = 0;
	size_t			 i;
	int			 rising = 1;

	metrics_reset();
	/* 50 us and 100 us (on the bound: le is "less or equal"), 101 us,
	 * 2 ms, and 2 s, above every bound. */
	metrics_observe_pass_us(50);
	metrics_observe_pass_us(100);
	metrics_observe_pass_us(101);
	metrics_observe_pass_us(2000);
	metrics_observe_pass_us(2000000);
	text = t_write(&g);
	for (i = 0; i < sizeof le / sizeof le[0]; i++) {
		snprintf(name, sizeof name, "gbatch_schedule_pass_duration_"
		    "seconds_bucket{le=\"%s\"}", le[i]);
		v = t_value(text, name);
		if (v < last || v < 0)
			rising = 0;
		last = v;
	}
	ok(rising, "histogram: every bucket present and cumulative");
	is_int(t_value(text, "gbatch_schedule_pass_duration_seconds_bucket"
	    "{le=\"0.0001\"}"), 2, "histogram: 100 us is in le=0.0001");
	is_int(t_value(text, "gbatch_schedule_pass_duration_seconds_bucket"
	    "{le=\"0.00025\"}"), 3, "histogram: 101 us is in the next");
	is_int(t_value(text, "gbatch_schedule_pass_duration_seconds_bucket"
	    "{le=\"0.001\"}"), 3, "histogram: nothing between");
	is_int(t_value(text, "gbatch_schedule_pass_duration_seconds_bucket"
	    "{le=\"1\"}"), 4, "histogram: 2 s is above the last bound");
	is_int(t_value(text, "gbatch_schedule_pass_duration_seconds_bucket"
	    "{le=\"+Inf\"}"), 5, "histogram: +Inf holds every observation");
	is_int(t_value(text, "gbatch_schedule_pass_duration_seconds_count"),
	    5, "histogram: _count equals +Inf");
	ok(t_has(text, "gbatch_schedule_pass_duration_seconds_sum 2.002251"),
	    "histogram: _sum in seconds, to the microsecond");
	is_int(t_value(text, "gbatch_store_commit_duration_seconds_count"), 0,
	    "histogram: the commit histogram is apart");
	ok(t_has(text, "gbatch_store_commit_duration_seconds_bucket"
	    "{le=\"5\"} 0"), "histogram: commit buckets reach 5 s");
	free(text);

	metrics_observe_commit_us(-3);
	text = t_write(&g);
	is_int(t_value(text, "gbatch_store_commit_duration_seconds_bucket"
	    "{le=\"0.0005\"}"), 1, "histogram: a clock step back counts as 0");
	free(text);
	metrics_reset();
	text = t_write(&g);
	is_int(t_value(text, "gbatch_schedule_pass_duration_seconds_bucket"
	    "{le=\"+Inf\"}"), 0, "reset: the histograms start over");
	free(text);
}

static void
test_labels(void)
{
	struct metrics_node	 n[1] = {
		{ "a\"b\\c\nd", "idle", 4, 1, 0 },
	};
	struct metrics_gauges	 g = { .nqueues = 1, .nodes = n, .nnodes = 1 };
	char			*text = NULL;
	size_t			 len = 0;
	FILE			*f;

	f = open_memstream(&text, &len);
	metrics_write_label(f, "x\"y\\z\n");
	fclose(f);
	is_str(text, "x\\\"y\\\\z\\n", "label: quote, backslash, newline "
	    "escaped");
	free(text);
	text = t_write(&g);
	ok(t_has(text, "gbatch_node_gpus{node=\"a\\\"b\\\\c\\nd\","
	    "status=\"total\"} 4"), "label: a node name escaped in a sample");
	ok(strstr(text, "c\nd") == NULL, "label: no raw newline inside");
	free(text);
}

static void
test_gauges(void)
{
	struct metrics_node	 n[3] = {
		{ "n1", "mixed", 8, 3, 0 },
		{ "n2", "down", 4, 0, 4 },
		{ "n3", "mixed", 2, 1, 0 },
	};
	const struct metrics_request requests[2] = {
		{ "JOB_LIST", 12, 3000250 },
		{ "PING", 0, 0 },
	};
	struct metrics_gauges	 g = { .nqueues = 2, .nodes = n, .nnodes = 3 };
	char			*text;

	g.jobs[JOB_PENDING][0] = 2;
	g.jobs[JOB_PENDING][1] = 5;
	g.jobs[JOB_PENDING][SCHED_MAX_QUEUES] = 1;
	g.jobs[JOB_HELD][SCHED_MAX_QUEUES] = 4;
	g.jobs[JOB_RUNNING][1] = 3;
	g.clients[METRICS_CLIENT_LOCAL] = 7;
	g.clients[METRICS_CLIENT_NODE] = 2;
	g.requests = requests;
	g.nrequests = 2;
	g.start_time = 1700000000;
	text = t_write(&g);
	ok(t_has(text, "gbatch_jobs{state=\"PENDING\",queue=\"0\"} 2") &&
	    t_has(text, "gbatch_jobs{state=\"PENDING\",queue=\"1\"} 5"),
	    "jobs: pending by queue level");
	ok(t_has(text, "gbatch_jobs{state=\"PENDING\"} 1"),
	    "jobs: pending outside the queues without a queue label");
	ok(t_has(text, "gbatch_jobs{state=\"RUNNING\",queue=\"0\"} 0") &&
	    t_has(text, "gbatch_jobs{state=\"RUNNING\",queue=\"1\"} 3"),
	    "jobs: running by queue level, zeros too");
	ok(strstr(text, "gbatch_jobs{state=\"RUNNING\"}") == NULL,
	    "jobs: no unlabelled running series when none is outside");
	ok(strstr(text, "queue=\"2\"") == NULL, "jobs: only the levels "
	    "there are");
	ok(t_has(text, "gbatch_jobs{state=\"HELD\"} 4") &&
	    strstr(text, "state=\"HELD\",queue") == NULL,
	    "jobs: held jobs have no queue");
	ok(strstr(text, "gbatch_jobs{state=\"COMPLETED\"") == NULL,
	    "jobs: finished jobs are not a gauge");
	ok(t_has(text, "gbatch_node_gpus{node=\"n1\",status=\"allocated\"} 3")
	    && t_has(text, "gbatch_node_gpus{node=\"n2\",status=\"down\"} 4")
	    && t_has(text, "gbatch_node_gpus{node=\"n2\",status=\"total\"} 4"),
	    "nodes: GPUs per node and status");
	ok(t_has(text, "gbatch_nodes{state=\"down\"} 1") &&
	    t_has(text, "gbatch_nodes{state=\"mixed\"} 2") &&
	    strstr(text, "gbatch_nodes{state=\"idle\"}") == NULL,
	    "nodes: counted by state");
	ok(t_has(text, "gbatch_clients_connected{kind=\"local\"} 7") &&
	    t_has(text, "gbatch_clients_connected{kind=\"relayed\"} 0") &&
	    t_has(text, "gbatch_clients_connected{kind=\"node\"} 2"),
	    "clients: by kind");
	ok(t_has(text, "gbatch_requests_total{type=\"JOB_LIST\"} 12") &&
	    t_has(text, "gbatch_requests_total{type=\"PING\"} 0"),
	    "requests: counted by type");
	ok(t_has(text, "gbatch_request_seconds_total{type=\"JOB_LIST\"} "
	    "3.000250") && t_has(text, "gbatch_request_seconds_total{type="
	    "\"PING\"} 0.000000"), "requests: seconds, to the microsecond");
	ok(t_has(text, "gbatch_start_time_seconds 1700000000") &&
	    t_has(text, "gbatch_up 1"), "up and start time");
	free(text);
}

static void
test_counters(void)
{
	struct metrics_gauges	 g = { .nqueues = 1 };
	char			*text;

	metrics_reset();
	metrics_count_submit();
	metrics_count_submit();
	metrics_count_submit();
	metrics_count_start();
	metrics_count_preempt();
	metrics_count_promotions(0);
	metrics_count_promotions(2);
	metrics_count_finished(JOB_COMPLETED);
	metrics_count_finished(JOB_COMPLETED);
	metrics_count_finished(JOB_CANCELLED);
	text = t_write(&g);
	ok(t_has(text, "gbatch_job_submissions_total 3"), "counters: "
	    "submissions");
	ok(t_has(text, "gbatch_job_starts_total 1"), "counters: starts");
	ok(t_has(text, "gbatch_job_preemptions_total 1"), "counters: "
	    "preemptions");
	ok(t_has(text, "gbatch_job_promotions_total 2"), "counters: "
	    "promotions");
	ok(t_has(text, "gbatch_jobs_finished_total{state=\"COMPLETED\"} 2") &&
	    t_has(text, "gbatch_jobs_finished_total{state=\"CANCELLED\"} 1") &&
	    t_has(text, "gbatch_jobs_finished_total{state=\"NODE_FAIL\"} 0"),
	    "counters: finished jobs by final state, zeros too");
	free(text);
	metrics_reset();
	text = t_write(&g);
	ok(t_has(text, "gbatch_job_submissions_total 0"), "reset: counters "
	    "start over");
	free(text);
}

/* Whether text has group name's samples of kind (partition, account,
 * qos): its jobs pending and running and the GPUs they hold; with
 * seconds >= 0, its GPU-seconds too. */
static int
t_group_has(const char *text, const char *kind, const char *name,
    size_t pending, size_t running, uint64_t gpus, int64_t seconds)
{
	char	line[256];

	snprintf(line, sizeof line, "gbatch_%s_jobs{%s=\"%s\",state="
	    "\"PENDING\"} %zu", kind, kind, name, pending);
	if (!t_has(text, line))
		return (0);
	snprintf(line, sizeof line, "gbatch_%s_jobs{%s=\"%s\",state="
	    "\"RUNNING\"} %zu", kind, kind, name, running);
	if (!t_has(text, line))
		return (0);
	snprintf(line, sizeof line, "gbatch_%s_gpus_allocated{%s=\"%s\"} "
	    "%" PRIu64, kind, kind, name, gpus);
	if (!t_has(text, line))
		return (0);
	snprintf(line, sizeof line, "gbatch_%s_gpu_seconds_total{%s=\"%s\"} "
	    "%" PRId64, kind, kind, name, seconds);
	return (seconds < 0 || t_has(text, line));
}

/* Whether a scrape after a reset has no GPU-seconds of kind. */
static int
t_reset_clears(const struct metrics_gauges *g, const char *kind)
{
	char	*text, fam[64];
	int	 none;

	metrics_reset();
	text = t_write(g);
	snprintf(fam, sizeof fam, "gbatch_%s_gpu_seconds_total{", kind);
	none = strstr(text, fam) == NULL;
	free(text);
	return (none);
}

/* Partitions: jobs and GPUs as the caller gathered them, a label value
 * escaped; GPU-seconds counted by name, and only for those with a run. */
static void
test_partitions(void)
{
	struct metrics_group	 p[2] = {
		{ "gpu", 3, 2, 6 },
		{ "we\"ird", 0, 1, 1 },
	};
	struct metrics_gauges	 g = { .nqueues = 1 };
	char			*text;

	g.groups[METRICS_BY_PARTITION] = p;
	g.ngroups[METRICS_BY_PARTITION] = 2;
	metrics_reset();
	t_count("gpu", "", "normal", 100);
	t_count("long", "", "normal", 7);
	t_count("gpu", "", "normal", 20);
	text = t_write(&g);
	ok(t_group_has(text, "partition", "gpu", 3, 2, 6, 120),
	    "partitions: jobs, GPUs, GPU-seconds summed by partition");
	ok(t_has(text, "gbatch_partition_gpus_allocated{partition=\"we\\\"ird\"} "
	    "1"), "partitions: a label value escaped");
	ok(t_has(text, "gbatch_partition_gpu_seconds_total{partition=\"long\"} "
	    "7"), "partitions: GPU-seconds of one with none now");
	free(text);
	ok(t_reset_clears(&g, "partition"), "reset: no partition's "
	    "GPU-seconds");
}

/* Accounts: as partitions, jobs of no account under account="". */
static void
test_accounts(void)
{
	struct metrics_group	 a[3] = {
		{ "", 1, 0, 0 },
		{ "phys", 2, 3, 5 },
		{ "we\\ird", 0, 0, 0 },
	};
	struct metrics_gauges	 g = { .nqueues = 1 };
	char			*text;

	g.groups[METRICS_BY_ACCOUNT] = a;
	g.ngroups[METRICS_BY_ACCOUNT] = 3;
	metrics_reset();
	t_count("gpu", "phys", "normal", 30);
	t_count("gpu", "", "normal", 4);
	t_count("gpu", "phys", "normal", 12);
	text = t_write(&g);
	ok(t_group_has(text, "account", "phys", 2, 3, 5, 42), "accounts: "
	    "jobs, GPUs, GPU-seconds summed by account");
	ok(t_group_has(text, "account", "", 1, 0, 0, 4), "accounts: jobs of "
	    "none");
	ok(t_has(text, "gbatch_account_gpus_allocated{account=\"we\\\\ird\"} "
	    "0"), "accounts: a label value escaped");
	free(text);
	ok(t_reset_clears(&g, "account"), "reset: no account's GPU-seconds");
}

/* QOS: as accounts, by the QOS a job is of; one run counts for its
 * partition, account and QOS alike. */
static void
test_qos(void)
{
	struct metrics_group	 q[2] = {
		{ "normal", 4, 1, 2 },
		{ "scavenger", 0, 2, 8 },
	};
	struct metrics_gauges	 g = { .nqueues = 1 };
	char			*text;

	g.groups[METRICS_BY_QOS] = q;
	g.ngroups[METRICS_BY_QOS] = 2;
	metrics_reset();
	t_count("gpu", "phys", "scavenger", 80);
	t_count("long", "", "normal", 5);
	t_count("gpu", "chem", "scavenger", 16);
	text = t_write(&g);
	ok(t_has(text, "# TYPE gbatch_qos_jobs gauge") && t_has(text,
	    "# TYPE gbatch_qos_gpu_seconds_total counter"), "qos: its "
	    "families");
	ok(t_group_has(text, "qos", "scavenger", 0, 2, 8, 96) &&
	    t_group_has(text, "qos", "normal", 4, 1, 2, 5), "qos: jobs, GPUs, "
	    "GPU-seconds summed by QOS");
	ok(t_has(text, "gbatch_account_gpu_seconds_total{account=\"chem\"} "
	    "16") && t_has(text, "gbatch_partition_gpu_seconds_total{"
	    "partition=\"gpu\"} 96"), "one run counted for its partition "
	    "and account too");
	free(text);
	ok(t_reset_clears(&g, "qos"), "reset: no QOS's GPU-seconds");
}

/* The family a sample line belongs to: its name, less a histogram's
 * suffix when full has no family of the whole name. */
static void
t_family(const char *full, const char *line, char *fam, size_t size)
{
	static const char *const suffix[] = { "_bucket", "_sum", "_count" };
	char			 want[160];
	size_t			 len = strcspn(line, "{ "), i, k;

	snprintf(fam, size, "%.*s", (int)len, line);
	snprintf(want, sizeof want, "# TYPE %s ", fam);
	if (strstr(full, want) != NULL)
		return;
	for (k = 0; k < 3; k++) {
		i = strlen(suffix[k]);
		if (len > i && strcmp(fam + len - i, suffix[k]) == 0) {
			fam[len - i] = '\0';
			return;
		}
	}
}

/* Every sample's family has HELP and TYPE lines before it. */
static void
test_families(void)
{
	struct metrics_node	 n[1] = { { "n1", "idle", 1, 0, 0 } };
	struct metrics_gauges	 g = { .nqueues = 3, .nodes = n, .nnodes = 1 };
	char			*full, *text, *line, *save, fam[128];
	char			 help[160], type[160];
	const char		*h, *t;
	int			 good = 1, samples = 0, types = 0;

	full = t_write(&g);
	text = strdup(full);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "# TYPE ", 7) == 0)
			types++;
		if (line[0] == '#')
			continue;
		samples++;
		t_family(full, line, fam, sizeof fam);
		snprintf(help, sizeof help, "# HELP %s ", fam);
		snprintf(type, sizeof type, "# TYPE %s ", fam);
		h = strstr(full, help);
		t = strstr(full, type);
		if (h == NULL || t == NULL || h > t ||
		    t > full + (line - text)) {
			printf("# no HELP and TYPE before %s\n", line);
			good = 0;
		}
	}
	ok(good && samples > 40, "families: each of %d samples has its HELP "
	    "and TYPE before it", samples);
	is_int(types, 26, "families: twenty-six families");
	free(text);
	free(full);
}

int
main(void)
{
	test_histogram();
	test_labels();
	test_gauges();
	test_counters();
	test_partitions();
	test_accounts();
	test_qos();
	test_families();
	return (tap_done());
}
