/* conf-reload.c: the settings as JSON (gctl show config) and what a reload
 * changes (gctl reconfigure, SIGHUP). Both compare through the JSON, so the
 * list of keys lives in one place: conf_reload_json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/xmalloc.h"
#include "daemon/controller/conf.h"

/* Keys whose new value takes effect only at the next start: the sockets
 * are bound and the store is open. */
static const char *const conf_restart_keys[] = {
	"controller.socket", "controller.listen", "controller.metrics_listen",
	"controller.state_dir", "controller.sync",
	/* The replicas' membership is raft's from the first start on
	 * (gctl replica add, remove). */
	"controller.replicas", "controller.replica_id",
	"controller.election_timeout", "controller.snapshot_every",
	/* Nodes learn it as they register (node_health_interval). */
	"controller.heartbeat_interval",
};

static json_t *
conf_secs(uint64_t ms)
{
	if (ms % 1000 == 0)
		return (json_integer((json_int_t)(ms / 1000)));
	return (json_real((double)ms / 1000));
}

json_t *
conf_reload_json(const struct conf *c)
{
	const struct sched_conf	*sc = &c->sched;
	json_t			*ctl, *sch, *ops, *th, *lim;
	char			*audit, ports[32];
	size_t			 i;

	ops = json_array();
	for (i = 0; i < c->operators.n; i++)
		json_array_append_new(ops, json_string(c->operators.v[i]));
	ctl = json_pack("{s:s, s:s, s:s, s:i, s:o, s:b, s:s, s:s}",
	    "socket", c->socket, "listen", c->listen,
	    "state_dir", c->state_dir, "node_timeout", c->node_timeout,
	    "operators", ops, "allow_root_jobs", c->allow_root_jobs,
	    "log_level", log_level_name(c->log_level),
	    "sync", c->sync_full ? "full" : "normal");
	json_object_set_new(ctl, "metrics_listen", c->metrics_listen != NULL ?
	    json_string(c->metrics_listen) : json_null());
	ops = json_array();
	for (i = 0; i < c->replicas.n; i++)
		json_array_append_new(ops, json_string(c->replicas.v[i]));
	json_object_set_new(ctl, "replicas", ops);
	json_object_set_new(ctl, "replica_id", json_integer(c->replica_id));
	json_object_set_new(ctl, "election_timeout",
	    json_integer(c->election_timeout));
	json_object_set_new(ctl, "snapshot_every",
	    json_integer(c->snapshot_every));
	json_object_set_new(ctl, "heartbeat_interval",
	    json_integer(conf_heartbeat_interval(c)));
	json_object_set_new(ctl, "private_data", json_boolean(c->private_data));
	json_object_set_new(ctl, "enforce_accounts",
	    json_boolean(c->enforce_accounts));
	json_object_set_new(ctl, "cluster_name", json_string(c->cluster_name));
	audit = conf_audit_path(c);
	json_object_set_new(ctl, "audit_log", json_string(audit));
	free(audit);
	lim = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, "
	    "s:i, s:i, s:i, s:i}", "max_connections", c->max_connections,
	    "max_connections_per_user", c->max_connections_per_user,
	    "connection_reserve", c->connection_reserve,
	    "max_buffered_mib", c->max_buffered_mib,
	    "max_requests_per_second", c->max_requests_per_second,
	    "frame_timeout", c->frame_timeout,
	    "idle_timeout", c->idle_timeout,
	    "max_pending_per_user", c->max_pending_per_user,
	    "keep_finished_days", c->keep_finished_days,
	    "min_job_age", c->min_job_age);
	json_object_update(ctl, lim);
	json_decref(lim);
	snprintf(ports, sizeof ports, "%d-%d", c->master_port_first,
	    c->master_port_first + c->master_port_count - 1);
	json_object_set_new(ctl, "master_ports", json_string(ports));
	th = json_array();
	for (i = 0; i + 1 < sc->nqueues; i++)
		json_array_append_new(th, conf_secs(sc->thresholds[i]));
	sch = json_pack("{s:s, s:i, s:o, s:f, s:s, s:b, s:i, s:i, s:b}",
	    "policy", sched_conf_policy_name(sc->policy),
	    "queues", (int)sc->nqueues, "thresholds", th,
	    "promote_knob", sc->promote_knob,
	    "placement", sched_conf_placement_name(sc->placement),
	    "strict", sc->strict, "ckpt_grace", c->ckpt_grace,
	    "max_ckpt_grace", c->max_ckpt_grace,
	    "kill_invalid_depend", c->kill_invalid_depend);
	json_object_set_new(sch, "cpus_per_gpu", json_integer(c->cpus_per_gpu));
	json_object_set_new(sch, "mem_per_gpu", json_integer(c->mem_per_gpu));
	json_object_set_new(sch, "preempt_plain", json_boolean(c->preempt_plain));
	json_object_set_new(sch, "backfill_depth",
	    json_integer(sc->backfill_depth));
	json_object_set_new(sch, "backfill_window",
	    json_integer(sc->backfill_window));
	json_object_set_new(sch, "fairshare", json_boolean(sc->fairshare));
	json_object_set_new(sch, "gittins_history",
	    json_string(sc->gittins_similar ? "similar" : "cluster"));
	json_object_set_new(sch, "fairshare_queue_weight",
	    json_integer(sc->fairshare_queue_weight));
	json_object_set_new(sch, "fairshare_preempt",
	    json_boolean(sc->fairshare_preempt));
	json_object_set_new(sch, "elastic_interval",
	    json_integer(sc->elastic_interval));
	json_object_set_new(sch, "elastic_overhead",
	    json_integer(sc->elastic_overhead));
	json_object_set_new(sch, "time_slice", json_integer(sc->time_slice));
	json_object_set_new(sch, "slice_jobs", json_integer(sc->slice_jobs));
	json_object_set_new(sch, "avoid_interference",
	    json_boolean(sc->avoid_interference));
	json_object_set_new(sch, "fairshare_half_life",
	    json_integer(c->fairshare_half_life));
	return (json_pack("{s:o, s:o, s:o, s:o}", "controller", ctl,
	    "scheduler", sch, "partitions", part_json(&c->parts), "qos",
	    qos_json(&c->qos)));
}

static bool
conf_needs_restart(const char *key)
{
	size_t	i;

	for (i = 0; i < sizeof conf_restart_keys / sizeof conf_restart_keys[0];
	    i++) {
		if (strcmp(key, conf_restart_keys[i]) == 0)
			return (true);
	}
	return (false);
}

void
conf_reload_apply(struct conf *c, const struct conf *fresh, json_t *changed,
    json_t *restart)
{
	json_t		*old = conf_reload_json(c);
	json_t		*new = conf_reload_json(fresh);
	json_t		*og, *ng, *ov;
	const char	*group, *key;
	char		 name[128];
	size_t		 i;

	json_object_foreach(new, group, ng) {
		og = json_object_get(old, group);
		json_object_foreach(ng, key, ov) {
			if (json_equal(json_object_get(og, key), ov))
				continue;
			snprintf(name, sizeof name, "%s.%s", group, key);
			/* An unset audit_log follows state_dir, which
			 * changes only at a restart. */
			json_array_append_new(conf_needs_restart(name) ||
			    (strcmp(name, "controller.audit_log") == 0 &&
			    fresh->audit_log == NULL) ? restart : changed,
			    json_string(name));
		}
	}
	/* What is gone (a partition removed) changed too. */
	json_object_foreach(old, group, og) {
		ng = json_object_get(new, group);
		json_object_foreach(og, key, ov) {
			if (json_object_get(ng, key) != NULL)
				continue;
			snprintf(name, sizeof name, "%s.%s", group, key);
			json_array_append_new(changed, json_string(name));
		}
	}
	json_decref(old);
	json_decref(new);

	c->node_timeout = fresh->node_timeout;
	conf_file_list_clear(&c->operators);
	for (i = 0; i < fresh->operators.n; i++)
		conf_file_list_add(&c->operators, fresh->operators.v[i]);
	c->allow_root_jobs = fresh->allow_root_jobs;
	c->private_data = fresh->private_data;
	c->enforce_accounts = fresh->enforce_accounts;
	free(c->cluster_name);
	c->cluster_name = xstrdup(fresh->cluster_name);
	/* The audit log is reopened, at this path, after the reload. */
	free(c->audit_log);
	c->audit_log = fresh->audit_log != NULL ? xstrdup(fresh->audit_log) :
	    NULL;
	c->log_level = fresh->log_level;
	c->sched = fresh->sched;
	c->ckpt_grace = fresh->ckpt_grace;
	c->max_ckpt_grace = fresh->max_ckpt_grace;
	c->kill_invalid_depend = fresh->kill_invalid_depend;
	c->cpus_per_gpu = fresh->cpus_per_gpu;
	c->mem_per_gpu = fresh->mem_per_gpu;
	c->preempt_plain = fresh->preempt_plain;
	c->fairshare_half_life = fresh->fairshare_half_life;
	c->max_connections = fresh->max_connections;
	c->max_connections_per_user = fresh->max_connections_per_user;
	c->connection_reserve = fresh->connection_reserve;
	c->max_buffered_mib = fresh->max_buffered_mib;
	c->max_requests_per_second = fresh->max_requests_per_second;
	c->frame_timeout = fresh->frame_timeout;
	c->idle_timeout = fresh->idle_timeout;
	c->max_pending_per_user = fresh->max_pending_per_user;
	c->keep_finished_days = fresh->keep_finished_days;
	c->min_job_age = fresh->min_job_age;
	c->master_port_first = fresh->master_port_first;
	c->master_port_count = fresh->master_port_count;
	part_clear(&c->parts);
	part_copy(&c->parts, &fresh->parts);
	qos_clear(&c->qos);
	qos_copy(&c->qos, &fresh->qos);
}
