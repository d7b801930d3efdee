/* conf.c: the controller and scheduler groups of gbatch.conf, as tables
 * of keys for daemon/common/conf-file.c, which checks every key so a typo
 * stops gbatchd at start with the line that holds it, instead of surfacing
 * later as odd behaviour. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libconfig.h>

#include "common/job-req.h"
#include "common/label.h"
#include "common/paths.h"
#include "common/xmalloc.h"
#include "daemon/common/conf-file.h"
#include "common/hostport.h"
#include "daemon/controller/conf.h"

void
conf_set(char **slot, const char *value)
{
	free(*slot);
	*slot = xstrdup(value);
}

/* The default cluster name: this host's name up to its first dot, or
 * "gbatch" for a host without one. */
static char *
conf_default_cluster_name(void)
{
	char	host[256];

	if (gethostname(host, sizeof host) == -1 || host[0] == '\0')
		return (xstrdup("gbatch"));
	host[sizeof host - 1] = '\0';
	host[strcspn(host, ".")] = '\0';
	host[LABEL_MAX] = '\0';
	return (xstrdup(host));
}

void
conf_defaults(struct conf *c)
{
	memset(c, 0, sizeof *c);
	c->cluster_name = conf_default_cluster_name();
	c->socket = xstrdup(GB_PATH_SOCKET);
	c->listen = xstrdup("0.0.0.0:6820");
	c->state_dir = xstrdup(GB_PATH_STATE_DIR);
	c->node_timeout = 30;
	c->log_level = LOG_LEVEL_INFO;
	c->sync_full = true;
	sched_conf_default(&c->sched);
	c->ckpt_grace = CONF_CKPT_GRACE;
	c->max_ckpt_grace = CONF_MAX_CKPT_GRACE;
	/* Slurm's PriorityDecayHalfLife: 7 days. */
	c->fairshare_half_life = 7 * 86400;
	tls_settings_defaults(&c->tls);
	c->max_connections_per_user = CONF_MAX_CONNECTIONS_PER_USER;
	c->connection_reserve = CONF_CONNECTION_RESERVE;
	c->max_buffered_mib = CONF_MAX_BUFFERED_MIB;
	c->max_requests_per_second = CONF_MAX_REQUESTS_PER_SECOND;
	c->frame_timeout = CONF_FRAME_TIMEOUT;
	c->idle_timeout = CONF_IDLE_TIMEOUT;
	c->max_pending_per_user = CONF_MAX_PENDING_PER_USER;
	c->keep_finished_days = CONF_KEEP_FINISHED_DAYS;
	c->min_job_age = CONF_MIN_JOB_AGE;
	c->master_port_first = 20000;
	c->master_port_count = 20000;
	c->election_timeout = CONF_ELECTION_TIMEOUT;
	c->snapshot_every = CONF_SNAPSHOT_EVERY;
}

/* controller.replicas: two to CONF_MAX_REPLICAS addresses, each a port
 * others dial, none twice. */
static int
conf_replicas_check(const struct conf *c, char *why, size_t len)
{
	char	what[300];
	size_t	i, j;

	if (c->replicas.n == 0)
		return (0);
	if (c->replicas.n < 2 || c->replicas.n > CONF_MAX_REPLICAS) {
		snprintf(why, len, "replicas: expected 2 to %d addresses (3 "
		    "or 5 survive the loss of 1 or 2), got %zu; leave it out "
		    "for a controller of its own", CONF_MAX_REPLICAS,
		    c->replicas.n);
		return (-1);
	}
	for (i = 0; i < c->replicas.n; i++) {
		if (hostport_check(c->replicas.v[i], 1, what,
		    sizeof what) == -1) {
			snprintf(why, len, "replicas[%zu]: %s", i, what);
			return (-1);
		}
		for (j = 0; j < i; j++) {
			if (strcmp(c->replicas.v[i], c->replicas.v[j]) == 0) {
				snprintf(why, len, "replicas: \"%s\" is "
				    "listed twice", c->replicas.v[i]);
				return (-1);
			}
		}
	}
	return (0);
}

/* controller.listen: a port of 0 picks a free one. */
static int
conf_listen_valid(const char *v, char *why, size_t len)
{
	return (hostport_check(v, 0, why, len));
}

/* controller.metrics_listen: a port a scraper is told, so never 0. */
static int
conf_metrics_listen_valid(const char *v, char *why, size_t len)
{
	return (hostport_check(v, 1, why, len));
}

/* controller.cluster_name: shown on terminals, so plain letters only. */
static int
conf_cluster_name_valid(const char *v, char *why, size_t len)
{
	if (!label_ok(v)) {
		snprintf(why, len, "expected 1 to %d letters, digits, '.', "
		    "'-' or '_'", LABEL_MAX);
		return (-1);
	}
	return (0);
}

/* controller.sync: how hard a commit reaches the disk. */
static int
conf_sync(void *settings, const config_setting_t *s, char *why, size_t len)
{
	static const char *const words[] = { "full", "normal", NULL };
	struct conf		*c = settings;
	int			 i;

	if (conf_file_choice(s, words, &i, why, len) == -1)
		return (-1);
	c->sync_full = i == 0;
	return (0);
}

/* controller.master_ports: "LOW-HIGH", the ports MASTER_PORT comes from;
 * each gang running with the same first node gets one of its own. */
static int
conf_master_ports(void *settings, const config_setting_t *s, char *why,
    size_t len)
{
	struct conf	*c = settings;
	const char	*v;
	unsigned	 lo, hi;
	int		 n = 0;

	if (conf_file_string(s, &v, why, len) == -1)
		return (-1);
	if (sscanf(v, "%5u-%5u%n", &lo, &hi, &n) != 2 || v[n] != '\0' ||
	    lo < 1024 || hi > 65535 || lo > hi) {
		snprintf(why, len, "expected LOW-HIGH, ports from 1024 to "
		    "65535 with LOW at most HIGH (\"20000-39999\"), got "
		    "\"%s\"", v);
		return (-1);
	}
	c->master_port_first = (int)lo;
	c->master_port_count = (int)(hi - lo + 1);
	return (0);
}

int
conf_heartbeat_interval(const struct conf *c)
{
	int	i = c->node_timeout / 3;

	if (c->heartbeat_interval > 0)
		return (c->heartbeat_interval);
	return (i < 1 ? 1 : i > 5 ? 5 : i);
}

int
conf_heartbeat_check(int node_timeout, int interval, char *err,
    size_t errlen)
{
	if (node_timeout >= 3 * interval)
		return (0);
	snprintf(err, errlen, "controller.node_timeout (%d s) must be at "
	    "least three times controller.heartbeat_interval (%d s): nodes "
	    "send a heartbeat every heartbeat_interval, and one silent for "
	    "node_timeout is marked down", node_timeout, interval);
	return (-1);
}

/* The rules that tie controller keys together. */
static int
conf_controller_check(void *settings, const config_setting_t *g, char *err,
    size_t errlen)
{
	struct conf		*c = settings;
	config_setting_t	*s;
	char			 why[400];

	if (conf_replicas_check(c, why, sizeof why) == -1) {
		s = config_setting_get_member(g, "replicas");
		snprintf(err, errlen, "line %d: %s",
		    s != NULL ? config_setting_source_line(s) : 0, why);
		return (-1);
	}
	if (conf_heartbeat_check(c->node_timeout, conf_heartbeat_interval(c),
	    why, sizeof why) == 0)
		return (0);
	if ((s = config_setting_get_member(g, "node_timeout")) == NULL)
		s = config_setting_get_member(g, "heartbeat_interval");
	snprintf(err, errlen, "line %d: %s%s",
	    s != NULL ? config_setting_source_line(s) : 0, why,
	    c->heartbeat_interval == 0 ? " (heartbeat_interval is not set: "
	    "a third of node_timeout, 1 to 5 s)" : "");
	return (-1);
}

static const struct conf_file_key conf_controller_keys[] = {
	{ .name = "socket", .type = CONF_FILE_STRING,
	  .off = offsetof(struct conf, socket), .what = "a path" },
	{ .name = "listen", .type = CONF_FILE_STRING,
	  .off = offsetof(struct conf, listen), .what = "HOST:PORT",
	  .valid = conf_listen_valid },
	{ .name = "metrics_listen", .type = CONF_FILE_STRING,
	  .off = offsetof(struct conf, metrics_listen), .what = "HOST:PORT",
	  .valid = conf_metrics_listen_valid },
	{ .name = "state_dir", .type = CONF_FILE_STRING,
	  .off = offsetof(struct conf, state_dir), .what = "a directory" },
	{ .name = "node_timeout", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, node_timeout), .min = 1, .max = 86400,
	  .what = "seconds" },
	{ .name = "heartbeat_interval", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, heartbeat_interval), .min = 1,
	  .max = CONF_MAX_HEARTBEAT, .what = "seconds" },
	{ .name = "operators", .type = CONF_FILE_LIST,
	  .off = offsetof(struct conf, operators), .what = "user names",
	  .example = "[ \"alice\", \"bob\" ]" },
	{ .name = "allow_root_jobs", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, allow_root_jobs) },
	{ .name = "enforce_accounts", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, enforce_accounts) },
	{ .name = "private_data", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, private_data) },
	{ .name = "audit_log", .type = CONF_FILE_STRING,
	  .off = offsetof(struct conf, audit_log), .what = "a path" },
	{ .name = "log_level", .type = CONF_FILE_LOG_LEVEL,
	  .off = offsetof(struct conf, log_level) },
	{ .name = "sync", .type = CONF_FILE_CUSTOM, .read = conf_sync },
	{ .name = "master_ports", .type = CONF_FILE_CUSTOM,
	  .read = conf_master_ports },
	{ .name = "max_connections", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, max_connections), .min = 0,
	  .max = 1 << 24, .what = "connections (0: as the file limit allows)" },
	{ .name = "max_connections_per_user", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, max_connections_per_user), .min = 0,
	  .max = 1 << 24, .what = "connections (0: no limit)" },
	{ .name = "connection_reserve", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, connection_reserve), .min = 0,
	  .max = 1 << 20, .what = "file descriptors" },
	{ .name = "max_buffered_mib", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, max_buffered_mib), .min = 4,
	  .max = 1 << 20, .what = "MiB" },
	{ .name = "max_requests_per_second", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, max_requests_per_second), .min = 0,
	  .max = 1 << 24, .what = "requests a second (0: no limit)" },
	{ .name = "frame_timeout", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, frame_timeout), .min = 1, .max = 3600,
	  .what = "seconds" },
	{ .name = "idle_timeout", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, idle_timeout), .min = 1,
	  .max = 86400 * 7, .what = "seconds" },
	{ .name = "max_pending_per_user", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, max_pending_per_user), .min = 0,
	  .max = 1 << 30, .what = "jobs (0: no limit)" },
	{ .name = "keep_finished_days", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, keep_finished_days), .min = 0,
	  .max = CONF_MAX_KEEP_FINISHED_DAYS,
	  .what = "days (0: keep finished jobs for ever)" },
	{ .name = "min_job_age", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, min_job_age), .min = 0,
	  .max = CONF_MAX_MIN_JOB_AGE,
	  .what = "seconds (0: Slurm's names never forget a finished job)" },
	{ .name = "cluster_name", .type = CONF_FILE_STRING,
	  .off = offsetof(struct conf, cluster_name), .what = "a name",
	  .valid = conf_cluster_name_valid },
	{ .name = "replicas", .type = CONF_FILE_LIST,
	  .off = offsetof(struct conf, replicas),
	  .what = "HOST:PORT of each replica",
	  .example = "[ \"ctl1:6820\", \"ctl2:6820\", \"ctl3:6820\" ]" },
	{ .name = "replica_id", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, replica_id), .min = 1, .max = 65535,
	  .what = "a replica's number" },
	{ .name = "election_timeout", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, election_timeout), .min = 100,
	  .max = 60000, .what = "milliseconds" },
	{ .name = "snapshot_every", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, snapshot_every), .min = 16,
	  .max = 1000000, .what = "commits between two snapshots" },
};

static int
conf_policy(void *settings, const config_setting_t *s, char *why, size_t len)
{
	struct conf		*c = settings;
	enum sched_policy	 p;
	const char		*v;

	if (conf_file_string(s, &v, why, len) == -1 ||
	    sched_conf_policy_parse(v, &p, why, len) == -1)
		return (-1);
	if (p == SCHED_SRTF) {
		snprintf(why, len, "srtf needs every job's run time in "
		    "advance: it is gsim's oracle, not a live policy; expected "
		    "fifo, dlas or gittins");
		return (-1);
	}
	c->sched.policy = p;
	return (0);
}

static int
conf_placement(void *settings, const config_setting_t *s, char *why,
    size_t len)
{
	struct conf	*c = settings;
	const char	*v;

	if (conf_file_string(s, &v, why, len) == -1)
		return (-1);
	return (sched_conf_placement_parse(v, &c->sched.placement, why, len));
}

/* scheduler.gittins_history: "cluster" (every completed job's GPU-time)
 * or "similar" (those of the jobs like each one). */
static int
conf_gittins_history(void *settings, const config_setting_t *s, char *why,
    size_t len)
{
	struct conf	*c = settings;
	const char	*v;

	if (conf_file_string(s, &v, why, len) == -1)
		return (-1);
	if (strcmp(v, "cluster") != 0 && strcmp(v, "similar") != 0) {
		snprintf(why, len, "expected cluster or similar, got \"%s\"",
		    v);
		return (-1);
	}
	c->sched.gittins_similar = strcmp(v, "similar") == 0;
	return (0);
}

/* scheduler.queues: K alone, thresholds at their defaults. Read before
 * thresholds, which replace them; conf_scheduler_check ties the two. */
static int
conf_queues(void *settings, const config_setting_t *s, char *why, size_t len)
{
	struct conf	*c = settings;
	long long	 k;

	if (conf_file_whole(s, 1, SCHED_MAX_QUEUES, "the number of queues",
	    &k, why, len) == -1)
		return (-1);
	sched_conf_set_queues(&c->sched, (unsigned)k);
	return (0);
}

/* Reads a number setting (whole or not). */
static int
conf_number(const config_setting_t *s, double *out)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		*out = (double)config_setting_get_int64(s);
		return (0);
	case CONFIG_TYPE_FLOAT:
		*out = config_setting_get_float(s);
		return (0);
	default:
		return (-1);
	}
}

/* scheduler.thresholds: a list of GPU-seconds, rising. */
static int
conf_thresholds(void *settings, const config_setting_t *s, char *why,
    size_t len)
{
	struct sched_conf	*sc = &((struct conf *)settings)->sched;
	uint64_t		 t[SCHED_MAX_QUEUES - 1];
	config_setting_t	*e;
	double			 d;
	int			 i, n = -1;

	if (config_setting_type(s) == CONFIG_TYPE_LIST ||
	    config_setting_type(s) == CONFIG_TYPE_ARRAY)
		n = config_setting_length(s);
	if (n < 0 || n > SCHED_MAX_QUEUES - 1) {
		snprintf(why, len, "expected a list of up to %d GPU-second "
		    "values, rising, as [ 3600 ] or [ 3250, 7200, 18000 ]",
		    SCHED_MAX_QUEUES - 1);
		return (-1);
	}
	for (i = 0; i < n; i++) {
		e = config_setting_get_elem(s, (unsigned)i);
		if (conf_number(e, &d) != 0 || !(d > 0) || d > 1e15 ||
		    (t[i] = (uint64_t)(d * 1000 + 0.5)) == 0 ||
		    (i > 0 && t[i] <= t[i - 1])) {
			snprintf(why, len, "element %d: expected GPU-seconds "
			    "above 0 and above the one before", i + 1);
			return (-1);
		}
	}
	memcpy(sc->thresholds, t, (size_t)n * sizeof t[0]);
	sc->nqueues = (unsigned)n + 1;
	return (0);
}

/* The rules that tie scheduler keys together. */
static int
conf_scheduler_check(void *settings, const config_setting_t *g, char *err,
    size_t errlen)
{
	struct conf		*c = settings;
	config_setting_t	*q, *t, *s;

	q = config_setting_get_member(g, "queues");
	t = config_setting_get_member(g, "thresholds");
	if (q != NULL && t != NULL &&
	    config_setting_get_int64(q) != (long long)c->sched.nqueues) {
		snprintf(err, errlen, "line %d: scheduler.thresholds: %u values "
		    "make %u queues, but scheduler.queues is %lld",
		    config_setting_source_line(t), c->sched.nqueues - 1,
		    c->sched.nqueues, config_setting_get_int64(q));
		return (-1);
	}
	if (c->ckpt_grace > c->max_ckpt_grace) {
		if ((s = config_setting_get_member(g, "ckpt_grace")) == NULL)
			s = config_setting_get_member(g, "max_ckpt_grace");
		snprintf(err, errlen, "line %d: scheduler.ckpt_grace (%d s) is "
		    "above scheduler.max_ckpt_grace (%d s)",
		    s != NULL ? config_setting_source_line(s) : 0,
		    c->ckpt_grace, c->max_ckpt_grace);
		return (-1);
	}
	return (0);
}

static const struct conf_file_key conf_scheduler_keys[] = {
	{ .name = "policy", .type = CONF_FILE_CUSTOM, .read = conf_policy },
	{ .name = "queues", .type = CONF_FILE_CUSTOM, .read = conf_queues },
	{ .name = "thresholds", .type = CONF_FILE_CUSTOM,
	  .read = conf_thresholds },
	{ .name = "promote_knob", .type = CONF_FILE_NUMBER,
	  .off = offsetof(struct conf, sched.promote_knob), .min = 0,
	  .max = 1000000000, .what = "0 (never promote) or a factor" },
	{ .name = "placement", .type = CONF_FILE_CUSTOM,
	  .read = conf_placement },
	{ .name = "gittins_history", .type = CONF_FILE_CUSTOM,
	  .read = conf_gittins_history },
	{ .name = "strict", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, sched.strict) },
	{ .name = "backfill_depth", .type = CONF_FILE_UINT,
	  .off = offsetof(struct conf, sched.backfill_depth), .min = 0,
	  .max = 64, .what = "jobs promised their start (0: no backfill)" },
	{ .name = "fairshare", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, sched.fairshare) },
	{ .name = "fairshare_queue_weight", .type = CONF_FILE_UINT,
	  .off = offsetof(struct conf, sched.fairshare_queue_weight),
	  .min = 0, .max = 1000000000,
	  .what = "places of fair-share standing a queue level counts as" },
	{ .name = "fairshare_preempt", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, sched.fairshare_preempt) },
	{ .name = "elastic_interval", .type = CONF_FILE_UINT,
	  .off = offsetof(struct conf, sched.elastic_interval), .min = 0,
	  .max = 30 * 86400,
	  .what = "seconds an elastic job runs before a resize (0: never)" },
	{ .name = "avoid_interference", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, sched.avoid_interference) },
	{ .name = "elastic_overhead", .type = CONF_FILE_UINT,
	  .off = offsetof(struct conf, sched.elastic_overhead), .min = 0,
	  .max = 86400, .what = "seconds a resize costs a job" },
	{ .name = "time_slice", .type = CONF_FILE_UINT,
	  .off = offsetof(struct conf, sched.time_slice), .min = 0,
	  .max = 86400,
	  .what = "seconds a turn of time-slicing lasts (0: none)" },
	{ .name = "slice_jobs", .type = CONF_FILE_UINT,
	  .off = offsetof(struct conf, sched.slice_jobs), .min = 2,
	  .max = 64, .what = "jobs that share the same GPUs in turns" },
	{ .name = "fairshare_half_life", .type = CONF_FILE_UINT,
	  .off = offsetof(struct conf, fairshare_half_life), .min = 0,
	  .max = 10 * 365 * 86400, .what = "seconds (0: usage never decays)" },
	{ .name = "backfill_window", .type = CONF_FILE_UINT,
	  .off = offsetof(struct conf, sched.backfill_window), .min = 0,
	  .max = 1000000, .what = "running jobs a promise looks at (0: all)" },
	{ .name = "ckpt_grace", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, ckpt_grace), .min = 1,
	  .max = JOB_REQ_MAX_CKPT_GRACE, .what = "seconds" },
	{ .name = "max_ckpt_grace", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, max_ckpt_grace), .min = 1,
	  .max = JOB_REQ_MAX_CKPT_GRACE, .what = "seconds" },
	{ .name = "kill_invalid_depend", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, kill_invalid_depend) },
	{ .name = "preempt_plain", .type = CONF_FILE_BOOL,
	  .off = offsetof(struct conf, preempt_plain) },
	{ .name = "cpus_per_gpu", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, cpus_per_gpu), .min = 0, .max = 65536,
	  .what = "CPUs (0: the node's CPUs over its GPUs)" },
	{ .name = "mem_per_gpu", .type = CONF_FILE_INT,
	  .off = offsetof(struct conf, mem_per_gpu), .min = 0,
	  .max = 1 << 30, .what = "MB (0: the node's memory over its GPUs)" },
};

static int
conf_partition(void *settings, const config_setting_t *m, char *err,
    size_t errlen)
{
	return (part_read(&((struct conf *)settings)->parts, m, err, errlen));
}

static int
conf_partitions_check(void *settings, const config_setting_t *g, char *err,
    size_t errlen)
{
	struct conf	*c = settings;
	int		 line = config_setting_source_line(g);

	if (part_check(&c->parts, line, err, errlen) == -1)
		return (-1);
	return (qos_check_parts(&c->qos, &c->parts, line, err, errlen));
}

static int
conf_qos(void *settings, const config_setting_t *m, char *err,
    size_t errlen)
{
	return (qos_read(&((struct conf *)settings)->qos, m, err, errlen));
}

static int
conf_qos_check(void *settings, const config_setting_t *g, char *err,
    size_t errlen)
{
	return (qos_check(&((struct conf *)settings)->qos,
	    config_setting_source_line(g), err, errlen));
}

/* What gbatchd reads of gbatch.conf. */
static const struct conf_file_group conf_groups[] = {
	{ "controller", conf_controller_keys,
	  sizeof conf_controller_keys / sizeof conf_controller_keys[0],
	  conf_controller_check, NULL },
	{ "scheduler", conf_scheduler_keys,
	  sizeof conf_scheduler_keys / sizeof conf_scheduler_keys[0],
	  conf_scheduler_check, NULL },
	/* Before the partitions, which may name QOS. */
	{ "qos", NULL, 0, conf_qos_check, conf_qos },
	{ "partitions", NULL, 0, conf_partitions_check, conf_partition },
};

int
conf_load(struct conf *c, const char *path, bool must_exist, char *err,
    size_t errlen)
{
	int	rc;

	rc = conf_file_read(path, must_exist, conf_groups,
	    sizeof conf_groups / sizeof conf_groups[0], c, err, errlen);
	if (rc == 0 && tls_settings_load(&c->tls, path, must_exist, err,
	    errlen) == -1)
		return (-1);
	return (rc);
}

char *
conf_audit_path(const struct conf *c)
{
	if (c->audit_log != NULL)
		return (xstrdup(c->audit_log));
	return (xasprintf("%s/audit.log", c->state_dir));
}

bool
conf_is_operator(const struct conf *c, uid_t uid, const char *user)
{
	size_t	i;

	if (uid == 0)
		return (true);
	for (i = 0; i < c->operators.n; i++) {
		if (user != NULL && strcmp(c->operators.v[i], user) == 0)
			return (true);
	}
	return (false);
}

void
conf_clear(struct conf *c)
{
	free(c->socket);
	free(c->listen);
	free(c->metrics_listen);
	free(c->cluster_name);
	free(c->state_dir);
	free(c->audit_log);
	conf_file_list_clear(&c->operators);
	conf_file_list_clear(&c->replicas);
	part_clear(&c->parts);
	qos_clear(&c->qos);
	tls_settings_clear(&c->tls);
	memset(c, 0, sizeof *c);
}
