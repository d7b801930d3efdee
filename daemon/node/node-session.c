/* node-session.c: HELLO, heartbeats and the controller's requests. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/node/node-cgroup.h"
#include "daemon/node/node-cpus.h"
#include "daemon/node/node-io.h"
#include "daemon/node/node-jobs.h"
#include "daemon/node/node-mps.h"
#include "daemon/common/dial.h"
#include "daemon/node/node-msg.h"
#include "daemon/node/node-relay.h"
#include "daemon/node/node-session.h"
#include "daemon/node/node-steps.h"
#include "daemon/node/node-usage.h"

struct node_session {
	struct event_base		*base;
	const struct node_conf		*conf;
	struct node_gpus		*gpus;
	struct dial		*link;
	struct node_jobs		*jobs;
	struct node_relay		*relay;		/* or NULL */
	struct node_ios			*ios;		/* interactive streams */
	struct node_steps		*steps;
	struct event			*heartbeat;
	bool				 welcomed;	/* HELLO accepted */
	/* Seconds between heartbeats: heartbeat_interval until the
	 * controller names its own in the HELLO reply. */
	unsigned			 beat;
};

static void
node_session_send(struct node_session *s, json_t *msg)
{
	dial_send(s->link, msg);
	json_decref(msg);
}

static void
node_session_up(void *arg)
{
	struct node_session	*s = arg;
	struct timeval		 tv = { (time_t)s->beat, 0 };
	json_t			*msg;

	s->welcomed = false;
	msg = proto_msg(MSG_HELLO);
	json_object_set_new(msg, "version", json_integer(PROTO_VERSION));
	json_object_set_new(msg, "role", json_string("node"));
	json_object_set_new(msg, "name", json_string(s->conf->name));
	if (*s->conf->switch_name != '\0')
		json_object_set_new(msg, "switch",
		    json_string(s->conf->switch_name));
	json_object_set_new(msg, "gpu_source",
	    json_string(node_gpu_source(s->gpus)));
	json_object_set_new(msg, "gpus", node_gpu_json(s->gpus));
	if (node_conf_cpus(s->conf) > 0)
		json_object_set_new(msg, "cpus",
		    json_integer(node_conf_cpus(s->conf)));
	if (node_conf_memory_mb(s->conf) > 0)
		json_object_set_new(msg, "memory_mb",
		    json_integer(node_conf_memory_mb(s->conf)));
	/* Its GPUs in shards, for jobs of gsub --gpu-share. */
	if (s->conf->gpu_shards > 1)
		json_object_set_new(msg, "gpu_shards",
		    json_integer(s->conf->gpu_shards));
	/* Whether its jobs can be suspended (gctl suspend). */
	json_object_set_new(msg, "freezer", json_boolean(
	    node_cgroup_sys_can_freeze(s->conf->cgroup_sys)));
	json_object_set_new(msg, "jobs", node_jobs_report(s->jobs));
	node_session_send(s, msg);
	event_add(s->heartbeat, &tv);
}

/* A session's streams went with the link: what ran in them ends. */
static void
node_session_lost(uint64_t job, uint32_t step, void *arg)
{
	struct node_session	*s = arg;

	if (step == 0)
		node_jobs_cancel_interactive(s->jobs, job);
	else
		node_steps_lost(s->steps, job, step);
}

static void
node_session_down(void *arg)
{
	struct node_session	*s = arg;

	s->welcomed = false;
	node_io_lost(s->ios, node_session_lost, s);
	if (s->relay != NULL)
		node_relay_link_down(s->relay);
	event_del(s->heartbeat);
}

static void
node_session_heartbeat_cb(evutil_socket_t fd, short what, void *arg)
{
	struct node_session	*s = arg;
	json_t			*msg, *running, *usage, *progress, *v, *r;
	size_t			 i;

	msg = proto_msg(MSG_NODE_HEARTBEAT);
	running = node_jobs_running(s->jobs);
	if ((usage = node_usage_json(s->conf->cgroup_sys, running)) != NULL)
		json_object_set_new(msg, "usage", usage);
	progress = json_array();
	json_array_foreach(running, i, v) {
		if ((r = node_progress_report(node_jobs_progress(s->jobs,
		    (uint64_t)json_integer_value(v)),
		    (uint64_t)json_integer_value(v))) != NULL)
			json_array_append_new(progress, r);
	}
	if (json_array_size(progress) > 0)
		json_object_set(msg, "progress", progress);
	json_decref(progress);
	json_object_set_new(msg, "running", running);
	json_object_set_new(msg, "gpus", node_gpu_use_json(s->gpus, s->conf));
	node_session_send(s, msg);
}

static void
node_session_hello_reply(struct node_session *s, const struct node_msg *m)
{
	struct timeval	tv = { 0, 0 };

	if (!m->accepted) {
		log_error("node %s: %s", s->conf->name, m->refusal);
		dial_reset(s->link, m->refusal);
		return;
	}
	s->welcomed = true;
	dial_backoff_reset(s->link);
	log_info("node %s: registered with %zu GPUs (%s)", s->conf->name,
	    node_gpu_count(s->gpus), node_gpu_source(s->gpus));
	/* The controller judges silence by the interval it names: beat at
	 * that one, not at heartbeat_interval's, from now on. */
	if (m->heartbeat != 0 && m->heartbeat != s->beat) {
		log_info("node %s: a heartbeat every %u s, as the controller "
		    "asks (heartbeat_interval is %u s)", s->conf->name,
		    m->heartbeat, s->conf->heartbeat_interval);
		s->beat = m->heartbeat;
		tv.tv_sec = (time_t)s->beat;
		event_add(s->heartbeat, &tv);
	}
}

static void
node_session_message(const json_t *msg, void *arg)
{
	struct node_session	*s = arg;
	struct node_msg		 m;
	char			 why[512];

	if (node_msg_decode(msg, &m, why, sizeof why) == -1) {
		dial_reset(s->link, why);
		return;
	}
	switch (m.type) {
	case NODE_MSG_HELLO_REPLY:
		if (!s->welcomed) {
			node_session_hello_reply(s, &m);
			break;
		}
		log_debug("node %s: ignoring a reply to %d", s->conf->name,
		    MSG_HELLO);
		break;
	case NODE_MSG_OTHER_REPLY:
		log_debug("node %s: ignoring a reply to %lld", s->conf->name,
		    m.re);
		break;
	case NODE_MSG_LAUNCH:
		if (node_jobs_launch(s->jobs, msg, why, sizeof why) == -1)
			dial_reset(s->link, why);
		break;
	case NODE_MSG_SIGNAL:
		node_jobs_signal(s->jobs, m.id, m.sig, m.cancel);
		break;
	case NODE_MSG_PREEMPT:
		node_jobs_preempt(s->jobs, m.id);
		break;
	case NODE_MSG_LIMIT:
		node_jobs_limit(s->jobs, m.id, m.limit);
		break;
	case NODE_MSG_SUSPEND:
		/* The controller asks only where HELLO said "freezer"; a
		 * freeze the kernel refuses leaves the job running. */
		if (node_jobs_suspend(s->jobs, m.id, m.suspend, m.limit, why,
		    sizeof why) == -1)
			log_error("job %llu: cannot %s: %s",
			    (unsigned long long)m.id, m.suspend ? "suspend" :
			    "resume", why);
		break;
	case NODE_MSG_RELAY_REPLY:
		if (s->relay == NULL)
			dial_reset(s->link, "RELAY_REPLY, but this node "
			    "relays nothing");
		else
			node_relay_reply(s->relay, m.chan, m.close);
		break;
	case NODE_MSG_ENDED_ACK:
		node_jobs_ack(s->jobs, m.id);
		break;
	case NODE_MSG_IO:
		node_io_msg(s->ios, msg);
		break;
	case NODE_MSG_IO_CONTROL:
		if (json_object_get(msg, "rows") != NULL)
			node_io_winsize(s->ios, m.id, m.step,
			    (unsigned)json_integer_value(json_object_get(msg,
			    "rows")), (unsigned)json_integer_value(
			    json_object_get(msg, "cols")));
		if (m.step != 0)
			node_steps_control(s->steps, msg);
		break;
	case NODE_MSG_STEP_LAUNCH:
		node_steps_launch(s->steps, msg);
		break;
	}
}

static void
node_session_started(uint64_t id, pid_t pid, time_t start_time, void *arg)
{
	struct node_session	*s = arg;

	node_session_send(s, json_pack("{s:i,s:I,s:i,s:I}",
	    "type", MSG_JOB_STARTED, "id", (json_int_t)id, "pid", (int)pid,
	    "start_time", (json_int_t)start_time));
}

static void
node_session_ended(const json_t *report, void *arg)
{
	struct node_session	*s = arg;
	json_t			*msg;
	uint64_t		 id;

	id = (uint64_t)json_integer_value(json_object_get(report, "id"));
	node_steps_job_ended(s->steps, id);
	/* When the link is down the end goes out in the next HELLO. */
	if (!dial_is_up(s->link)) {
		node_io_close(s->ios, id, 0);
		return;
	}
	msg = json_copy((json_t *)report);
	json_object_set_new(msg, "type", json_integer(MSG_JOB_ENDED));
	/* After the last of an interactive job's output. */
	node_io_defer(s->ios, id, 0, msg);
	json_decref(msg);
}

static void
node_session_raw(struct evbuffer *frame, void *arg)
{
	struct node_session	*s = arg;

	node_relay_frame(s->relay, frame);
}

static void
node_session_io_send(const json_t *msg, void *arg)
{
	struct node_session	*s = arg;

	if (dial_is_up(s->link))
		dial_send(s->link, msg);
}

static void
node_session_io_frames(struct evbuffer *frames, void *arg)
{
	struct node_session	*s = arg;

	if (dial_send_buffer(s->link, frames) == -1)
		evbuffer_drain(frames, evbuffer_get_length(frames));
}

static const struct node_ios_cb node_session_ios_cb = {
	.send = node_session_io_send,
	.send_frames = node_session_io_frames,
};

static const struct dial_cb node_session_link_cb = {
	.up = node_session_up,
	.message = node_session_message,
	.down = node_session_down,
	.raw = node_session_raw,
};

static const struct node_jobs_cb node_session_jobs_cb = {
	.started = node_session_started,
	.ended = node_session_ended,
};

/* Tells the job table which CPUs are near each GPU: node.gpu_cpus where
 * it says, else NVML's. */
static void
node_session_near(struct node_session *s)
{
	const struct node_gpu	*g;
	const char		*list, *from = NULL;
	cpu_set_t		 set;
	size_t			 i, n = node_gpu_count(s->gpus);

	for (i = 0; i < n; i++) {
		g = node_gpu_at(s->gpus, i);
		if (i < s->conf->gpu_cpus.n && *s->conf->gpu_cpus.v[i] != '\0')
			list = s->conf->gpu_cpus.v[i];
		else
			list = g->cpus;
		if (*list == '\0' || node_cpus_parse(list, &set) == -1)
			continue;
		node_jobs_set_near(s->jobs, i, &set);
		from = list == g->cpus ? "NVML" : "node.gpu_cpus";
		log_debug("node %s: GPU %zu is near CPUs %s (%s)",
		    s->conf->name, i, list, from);
	}
	if (from != NULL)
		log_info("node %s: jobs get CPUs near their GPUs where they "
		    "are pinned", s->conf->name);
}

void
node_session_recheck(struct node_session *s)
{
	dial_recheck(s->link);
}

struct node_session *
node_session_create(struct event_base *base, const struct node_conf *conf,
    struct node_gpus *gpus, char *err, size_t errlen)
{
	struct node_session	*s;
	char			 why[512];

	s = xcalloc(1, sizeof *s);
	s->base = base;
	s->conf = conf;
	s->gpus = gpus;
	s->beat = conf->heartbeat_interval;
	s->heartbeat = event_new(base, -1, EV_PERSIST,
	    node_session_heartbeat_cb, s);
	s->link = dial_create(base, conf->controllers.v,
	    conf->controllers.n, conf->tls_ctx, conf->tls.controller_name,
	    &node_session_link_cb, s, err, errlen);
	if (s->link == NULL)
		goto fail;
	s->jobs = node_jobs_create(base, conf, node_gpu_count(gpus),
	    &node_session_jobs_cb, s);
	node_session_near(s);
	node_jobs_set_mps(s->jobs, node_mps_create(conf, gpus));
	s->ios = node_io_create(base, &node_session_ios_cb, s);
	node_jobs_set_ios(s->jobs, s->ios);
	s->steps = node_steps_create(base, conf, s->jobs, s->ios);
	if (node_jobs_recover(s->jobs, err, errlen) == -1)
		goto fail;
	/* Without its socket the node still runs jobs: say so and go on. */
	if (*conf->socket != '\0' && (s->relay = node_relay_create(base,
	    conf->socket, s->link, why, sizeof why)) == NULL)
		log_warn("node %s: commands on this host cannot reach gbatchd "
		    "through gnoded: %s", conf->name, why);
	dial_start(s->link);
	return (s);
fail:
	node_session_free(s);
	return (NULL);
}

void
node_session_free(struct node_session *s)
{
	if (s == NULL)
		return;
	/* The link first, for good, then one more pass of the loop: a
	 * connect that failed at once (refused on this host) leaves libevent
	 * a deferred callback holding the link's bufferevent and its TLS,
	 * which only a pass of the loop runs and frees. The rest is still
	 * whole for whatever else that pass runs. */
	dial_stop(s->link);
	(void)event_base_loop(s->base, EVLOOP_NONBLOCK);
	node_relay_free(s->relay);
	node_steps_free(s->steps);
	node_jobs_free(s->jobs);
	node_io_free(s->ios);
	dial_free(s->link);
	event_free(s->heartbeat);
	free(s);
}
