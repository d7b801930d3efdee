/* fake-nodes.c (bench): a cluster of many nodes in one process, for the
 * figures that need 1,000 nodes on a machine that cannot run 1,000
 * gnoded. Each node is a real node link (daemon/common/dial.c, TLS as
 * gbatch.conf's tls group says, each node with its own certificate) and
 * says what gnoded says: HELLO with its GPUs and switch, a heartbeat at the
 * interval gbatchd asks for (with each GPU's use), JOB_STARTED for every
 * launch, JOB_ENDED for a cancel or a preemption. No job runs: a started
 * job holds its GPUs until gbatchd cancels or preempts it, or, with -t,
 * for that many seconds, then ends COMPLETED. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <jansson.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/common/conf-file.h"
#include "daemon/common/tls-settings.h"
#include "daemon/common/dial.h"

static const char *fake_usage =
    "usage: fake-nodes -c HOST:PORT [-n NODES] [-g GPUS] [-s SWITCHES]\n"
    "                  [-p PREFIX] [-t SECONDS] [-f CONF]\n"
    "  -c HOST:PORT  gbatchd's node listener\n"
    "  -n NODES      nodes (default 1000), named PREFIX1 to PREFIXn\n"
    "  -g GPUS       GPUs per node (default 8)\n"
    "  -s SWITCHES   switches the nodes are spread over, in runs (default 25)\n"
    "  -p PREFIX     the nodes' names (default f)\n"
    "  -t SECONDS    a job ends COMPLETED this long after it started\n"
    "                (default: never; only a cancel or preemption ends it)\n"
    "  -f CONF       gbatch.conf (default $GBATCH_CONF): its tls group;\n"
    "                node NAME's key and certificate are tls.dir/NAME.*\n"
    "Prints \"up N\" once every node is registered; runs until SIGTERM.\n";

struct fake_job {
	uint64_t	 id;
	time_t		 start;
	json_t		*gpus;		/* the launch's */
	struct fake_node *node;
	struct event	*end;		/* -t, else NULL */
};

struct fake_node {
	char		 name[64];
	char		 switch_name[32];
	unsigned	 index;
	struct dial *link;
	SSL_CTX		*tls;
	struct event	*heartbeat;
	bool		 welcomed;
	struct fake_job	**jobs;
	size_t		 njobs, jobs_size;
};

static struct event_base	*fake_base;
static unsigned			 fake_gpus = 8, fake_up, fake_nodes = 1000;
static long			 fake_duration = -1;

static void
fake_send(struct fake_node *n, json_t *msg)
{
	(void)dial_send(n->link, msg);
	json_decref(msg);
}

static json_t *
fake_job_report(const struct fake_job *j)
{
	return (json_pack("{s:I,s:s,s:O,s:i,s:I,s:i,s:i}", "id",
	    (json_int_t)j->id, "state", "RUNNING", "gpus", j->gpus, "pid",
	    (int)(j->id % 4000000 + 1), "start_time", (json_int_t)j->start,
	    "restarts", 0, "num_nodes", 1));
}

static void
fake_hello(void *arg)
{
	struct fake_node	*n = arg;
	json_t			*gpus = json_array(), *jobs = json_array();
	unsigned		 i;
	size_t			 k;
	char			 uuid[96];

	n->welcomed = false;
	for (i = 0; i < fake_gpus; i++) {
		snprintf(uuid, sizeof uuid, "GPU-fake-%s-%u", n->name, i);
		json_array_append_new(gpus, json_pack("{s:i,s:s,s:s,s:i}",
		    "index", (int)i, "name", "Simulated GPU", "uuid", uuid,
		    "memory_mb", 81920));
	}
	for (k = 0; k < n->njobs; k++)
		json_array_append_new(jobs, fake_job_report(n->jobs[k]));
	fake_send(n, json_pack("{s:i,s:i,s:s,s:s,s:s,s:s,s:o,s:o}", "type",
	    MSG_HELLO, "version", PROTO_VERSION, "role", "node", "name",
	    n->name, "switch", n->switch_name, "gpu_source", "config",
	    "gpus", gpus, "jobs", jobs));
}

static void
fake_down(void *arg)
{
	struct fake_node	*n = arg;

	if (n->welcomed && fake_up > 0)
		fake_up--;
	n->welcomed = false;
	event_del(n->heartbeat);
}

/* A GPU's use, as NVML would give it: steady per GPU and slowly moving,
 * so the dashboard has figures to draw. */
static json_t *
fake_gpu_use(const struct fake_node *n, time_t now)
{
	json_t		*a = json_array();
	unsigned	 i, seed;

	for (i = 0; i < fake_gpus; i++) {
		seed = (n->index * 31 + i * 7 + (unsigned)(now / 60)) % 101;
		json_array_append_new(a, json_pack("{s:i,s:i,s:i}", "index",
		    (int)i, "util", (int)seed, "mem_used_mb",
		    (int)(seed * 800)));
	}
	return (a);
}

static void
fake_heartbeat_cb(evutil_socket_t fd, short what, void *arg)
{
	struct fake_node	*n = arg;
	json_t			*running = json_array();
	size_t			 k;

	(void)fd;
	(void)what;
	for (k = 0; k < n->njobs; k++)
		json_array_append_new(running,
		    json_integer((json_int_t)n->jobs[k]->id));
	fake_send(n, json_pack("{s:i,s:o,s:o}", "type", MSG_NODE_HEARTBEAT,
	    "running", running, "gpus", fake_gpu_use(n, time(NULL))));
}

static struct fake_job *
fake_job_find(struct fake_node *n, uint64_t id, size_t *at)
{
	size_t	k;

	for (k = 0; k < n->njobs; k++) {
		if (n->jobs[k]->id == id) {
			*at = k;
			return (n->jobs[k]);
		}
	}
	return (NULL);
}

static void
fake_job_free(struct fake_job *j)
{
	if (j->end != NULL)
		event_free(j->end);
	json_decref(j->gpus);
	free(j);
}

/* Ends job k of n: reports it (gbatchd acknowledges; the node keeps no
 * record, as nothing can crash in between) and forgets it. */
static void
fake_job_end(struct fake_node *n, size_t k, const char *state,
    const char *message, bool preempted)
{
	struct fake_job	*j = n->jobs[k];
	json_t		*msg;

	msg = json_pack("{s:i,s:I,s:s,s:i,s:i,s:I,s:I,s:s}", "type",
	    MSG_JOB_ENDED, "id", (json_int_t)j->id, "state", state,
	    "exit_code", 0, "signal", 0, "start_time", (json_int_t)j->start,
	    "end_time", (json_int_t)time(NULL), "message", message);
	if (preempted)
		json_object_set_new(msg, "preempted", json_true());
	fake_send(n, msg);
	fake_job_free(j);
	n->jobs[k] = n->jobs[--n->njobs];
}

static void
fake_job_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct fake_job		*j = arg;
	struct fake_node	*n = j->node;
	size_t			 k;

	(void)fd;
	(void)what;
	if (fake_job_find(n, j->id, &k) != NULL)
		fake_job_end(n, k, "COMPLETED", "", false);
}

static void
fake_launch(struct fake_node *n, uint64_t id, json_t *gpus)
{
	struct fake_job	*j;
	struct timeval	 tv = { 0, 0 };
	size_t		 k;

	if (fake_job_find(n, id, &k) != NULL)
		return;
	j = xcalloc(1, sizeof *j);
	j->id = id;
	j->gpus = json_is_array(gpus) ? json_incref(gpus) : json_array();
	j->node = n;
	j->start = time(NULL);
	if (n->njobs == n->jobs_size) {
		n->jobs_size = n->jobs_size != 0 ? n->jobs_size * 2 : 8;
		n->jobs = xreallocarray(n->jobs, n->jobs_size,
		    sizeof *n->jobs);
	}
	n->jobs[n->njobs++] = j;
	fake_send(n, json_pack("{s:i,s:I,s:i,s:I}", "type", MSG_JOB_STARTED,
	    "id", (json_int_t)id, "pid", (int)(id % 4000000 + 1),
	    "start_time", (json_int_t)j->start));
	if (fake_duration >= 0) {
		tv.tv_sec = fake_duration;
		j->end = evtimer_new(fake_base, fake_job_timer_cb, j);
		evtimer_add(j->end, &tv);
	}
}

static void
fake_welcome(struct fake_node *n, const json_t *msg)
{
	const char	*why = json_string_value(json_object_get(msg,
			    "message"));
	json_int_t	 hb;
	struct timeval	 tv;

	if (!json_is_true(json_object_get(msg, "ok"))) {
		fprintf(stderr, "fake-nodes: %s: HELLO refused: %s\n",
		    n->name, why != NULL ? why : "no message");
		dial_reset(n->link, "HELLO refused");
		return;
	}
	hb = json_integer_value(json_object_get(msg, "heartbeat_interval"));
	if (hb <= 0)
		hb = 5;
	n->welcomed = true;
	dial_backoff_reset(n->link);
	/* The nodes register over a second or more (a TLS handshake each),
	 * which spreads their heartbeats over the interval. */
	tv.tv_sec = (time_t)hb;
	tv.tv_usec = 0;
	event_add(n->heartbeat, &tv);
	if (++fake_up == fake_nodes) {
		printf("up %u\n", fake_up);
		fflush(stdout);
	}
}

static void
fake_message(const json_t *msg, void *arg)
{
	struct fake_node	*n = arg;
	json_t			*re = json_object_get(msg, "re"), *job;
	uint64_t		 id;
	size_t			 k;

	if (re != NULL) {
		if (json_integer_value(re) == MSG_HELLO && !n->welcomed)
			fake_welcome(n, msg);
		return;
	}
	id = (uint64_t)json_integer_value(json_object_get(msg, "id"));
	switch (proto_type(msg)) {
	case MSG_JOB_LAUNCH:
		job = json_object_get(msg, "job");
		id = (uint64_t)json_integer_value(json_object_get(job, "id"));
		if (id > 0)
			fake_launch(n, id, json_object_get(job, "gpus"));
		break;
	case MSG_JOB_SIGNAL:
		if (json_is_true(json_object_get(msg, "cancel")) &&
		    fake_job_find(n, id, &k) != NULL)
			fake_job_end(n, k, "CANCELLED", "cancelled", false);
		break;
	case MSG_JOB_PREEMPT:
		if (fake_job_find(n, id, &k) != NULL)
			fake_job_end(n, k, "COMPLETED", "preempted: "
			    "checkpointed", true);
		break;
	default:
		break;
	}
}

static const struct dial_cb fake_link_cb = {
	.up = fake_hello,
	.message = fake_message,
	.down = fake_down,
};

static void
fake_stop_cb(evutil_socket_t sig, short what, void *arg)
{
	(void)sig;
	(void)what;
	(void)arg;
	event_base_loopbreak(fake_base);
}

static unsigned
fake_number(const char *s, const char *what, unsigned min, unsigned max)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || end == s || v < min || v > max) {
		fprintf(stderr, "fake-nodes: %s: expected %u to %u, got "
		    "\"%s\"\n%s", what, min, max, s, fake_usage);
		exit(2);
	}
	return ((unsigned)v);
}

int
main(int argc, char **argv)
{
	struct tls_settings	 ts;
	struct tls_conf		 tc;
	struct fake_node	*nodes;
	struct event		*sigterm, *sigint;
	const char		*conf = NULL, *prefix = "f";
	char			*addr = NULL, err[1024];
	unsigned		 switches = 25, i, per_switch;
	bool			 must_exist = true;
	int			 ch;

	while ((ch = getopt(argc, argv, "c:n:g:s:p:t:f:h")) != -1) {
		switch (ch) {
		case 'c':
			addr = optarg;
			break;
		case 'n':
			fake_nodes = fake_number(optarg, "-n", 1, 100000);
			break;
		case 'g':
			fake_gpus = fake_number(optarg, "-g", 1, 64);
			break;
		case 's':
			switches = fake_number(optarg, "-s", 1, 100000);
			break;
		case 'p':
			prefix = optarg;
			break;
		case 't':
			fake_duration = fake_number(optarg, "-t", 0, 86400);
			break;
		case 'f':
			conf = optarg;
			break;
		default:
			fputs(fake_usage, ch == 'h' ? stdout : stderr);
			return (ch == 'h' ? 0 : 2);
		}
	}
	if (addr == NULL || optind != argc) {
		fputs(fake_usage, stderr);
		return (2);
	}
	signal(SIGPIPE, SIG_IGN);
	log_open("fake-nodes", 0, LOG_LEVEL_WARN);
	conf = conf_file_path(conf, &must_exist);
	tls_settings_defaults(&ts);
	if (tls_settings_load(&ts, conf, must_exist, err, sizeof err) == -1) {
		fprintf(stderr, "fake-nodes: %s\n", err);
		return (1);
	}
	fake_base = event_base_new();
	nodes = xcalloc(fake_nodes, sizeof *nodes);
	per_switch = (fake_nodes + switches - 1) / switches;
	for (i = 0; i < fake_nodes; i++) {
		struct fake_node	*n = &nodes[i];

		n->index = i;
		snprintf(n->name, sizeof n->name, "%s%u", prefix, i + 1);
		snprintf(n->switch_name, sizeof n->switch_name, "sw%u",
		    i / per_switch + 1);
		n->heartbeat = event_new(fake_base, -1, EV_PERSIST,
		    fake_heartbeat_cb, n);
		if (ts.enabled) {
			if (tls_settings_files(&ts, TLS_ROLE_NODE, n->name, &tc,
			    err, sizeof err) == -1 || (n->tls =
			    tls_settings_ctx(&tc, TLS_ROLE_NODE, n->name, err,
			    sizeof err)) == NULL) {
				fprintf(stderr, "fake-nodes: %s\n", err);
				return (1);
			}
			tls_conf_clear(&tc);
		}
		n->link = dial_create(fake_base, &addr, 1, n->tls,
		    ts.controller_name, &fake_link_cb, n, err, sizeof err);
		if (n->link == NULL) {
			fprintf(stderr, "fake-nodes: %s\n", err);
			return (1);
		}
		dial_start(n->link);
	}
	sigterm = evsignal_new(fake_base, SIGTERM, fake_stop_cb, NULL);
	sigint = evsignal_new(fake_base, SIGINT, fake_stop_cb, NULL);
	evsignal_add(sigterm, NULL);
	evsignal_add(sigint, NULL);
	event_base_dispatch(fake_base);
	for (i = 0; i < fake_nodes; i++) {
		dial_free(nodes[i].link);
		tls_ctx_free(nodes[i].tls);
		event_free(nodes[i].heartbeat);
		while (nodes[i].njobs > 0)
			fake_job_free(nodes[i].jobs[--nodes[i].njobs]);
		free(nodes[i].jobs);
	}
	free(nodes);
	event_free(sigterm);
	event_free(sigint);
	event_base_free(fake_base);
	tls_settings_clear(&ts);
	return (0);
}
