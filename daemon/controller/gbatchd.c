/* gbatchd.c: the controller as a whole, for gbatchd-main.c (and a fuzz
 * target) to run: its settings, the clock, start-up in order (settings and
 * TLS, then store, memory, listeners), a clean stop and the tear-down. */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/common/conf-file.h"
#include "daemon/common/dirmode.h"
#include "common/hostport.h"
#include "daemon/common/logfile.h"
#include "daemon/common/notify.h"
#include "daemon/common/pidfile.h"
#include "daemon/common/tls-settings.h"
#include "daemon/controller/core.h"
#include "daemon/controller/depend-wait.h"
#include "daemon/controller/assoc.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/gbatchd.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/listener.h"
#include "daemon/controller/metrics-http.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/node-health.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer-limit.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/purge.h"
#include "daemon/controller/recover.h"
#include "daemon/controller/replica.h"
#include "daemon/controller/req.h"
#include "daemon/controller/resv.h"
#include "daemon/controller/schedule.h"
#include "daemon/controller/service.h"
#include "daemon/controller/session.h"
#include "daemon/controller/store.h"

/* Longest a stop waits for replies to drain to slow peers. */
#define GBATCHD_STOP_WAIT	3

/* The controller of this process: its settings, what it was started with
 * and on, and what a stop and a reload need. Global: the composition root
 * holds the objects it made (listeners, limits, the metrics endpoint) for
 * gbatchd_close, and the root's operations (ctx.h) reach them. */
static struct {
	struct conf		 settings;
	struct event_base	*base;
	struct event		*stop_ev;
	/* What a reload reads again, and the flags that stay over the
	 * file. */
	struct gbatchd_flags	 flags;
	/* The TLS context and the files it was made from
	 * (tls-settings.h). */
	SSL_CTX			*tls;
	SSL_CTX			*replica_tls;	/* dialling other replicas */
	struct tls_conf		 tls_files;
	/* Replicas (NULL: none), and whether the process starts again once
	 * the loop stops. */
	struct replica		*replica;
	bool			 restart;
	/* What it owns (NULL: off, or not open): the clients' Unix socket,
	 * the nodes' TCP listener, their connections' limits, the metrics
	 * endpoint. */
	struct listener		*clients;
	struct listener		*nodes;
	struct peer_limits	*limits;	/* what connections may hold */
	struct metrics_http	*metrics_http;
	/* Judges the nodes' connections again now and then: a certificate
	 * expires, or a CRL read again revokes it, while it is up. */
	struct event		*recheck_ev;
} gbatchd;

/* How often connected nodes' certificates are judged again (seconds),
 * beside every reload of the CRL. */
#define GBATCHD_RECHECK_S	60

static void
gbatchd_recheck_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	(void)peer_recheck(listener_tls_peer_ok);
}

/* Resolves the tls group's files and makes the context; -1 with err. */
static int
gbatchd_tls_open(const struct conf *c, char *err, size_t errlen)
{
	char	self[256];

	if (!c->tls.enabled)
		return (0);
	if (tls_settings_files(&c->tls, TLS_ROLE_CONTROLLER, NULL,
	    &gbatchd.tls_files, err, errlen) == -1 ||
	    tls_settings_self(&c->tls, TLS_ROLE_CONTROLLER, NULL, self,
	    sizeof self, err, errlen) == -1)
		return (-1);
	gbatchd.tls = tls_settings_ctx(&gbatchd.tls_files, TLS_ROLE_CONTROLLER,
	    self, err, errlen);
	if (gbatchd.tls == NULL)
		return (-1);
	if (replica_configured(c) && (gbatchd.replica_tls =
	    tls_ctx_replica(&gbatchd.tls_files, err, errlen)) == NULL)
		return (-1);
	return (0);
}
static void
gbatchd_stop_cb(evutil_socket_t fd, short what, void *arg)
{
	log_warn("gbatchd: peers did not read their replies within %d s",
	    GBATCHD_STOP_WAIT);
	event_base_loopbreak(gbatchd.base);
}

void
gbatchd_stop(const char *why)
{
	struct timeval	tv = { GBATCHD_STOP_WAIT, 0 };

	if (ctx_stopping())
		return;
	ctx_set_stopping(true);
	log_info("gbatchd: stopping (%s); running jobs keep running", why);
	service_stopping(why);
	listener_disable(gbatchd.clients);
	listener_disable(gbatchd.nodes);
	peer_stop_reading_all();
	gbatchd.stop_ev = evtimer_new(gbatchd.base, gbatchd_stop_cb, NULL);
	evtimer_add(gbatchd.stop_ev, &tv);
	commit_want();
}

void
gbatchd_check_stop(void)
{
	if (ctx_stopping() && !commit_pending() && peer_all_flushed())
		event_base_loopbreak(gbatchd.base);
}

/* What requests ask of the controller as a whole (ctx.h). */
static const struct ctx_root gbatchd_root = {
	.stop = gbatchd_stop,
	.reconfigure = gbatchd_reconfigure,
};

/* After a commit's frames are written: the peers that waited for them. */
static void
gbatchd_flushed(void)
{
	peer_close_flushed();
	peer_reap();
}

static bool
gbatchd_shipping(void)
{
	return (replica_shipping(gbatchd.replica));
}

static int
gbatchd_ship(const void *cs, size_t len, void (*shipped)(void *, int),
    void *arg)
{
	return (replica_ship(gbatchd.replica, cs, len, shipped, arg));
}

/* The end of each loop pass (commit.h): the scheduling pass joins the
 * requests' transaction, replies leave once it is on disk (and, with
 * replicas, once a majority holds it). */
static const struct commit_hooks gbatchd_commit_hooks = {
	.dirty = core_is_dirty,
	.pass = schedule_run,
	.write = peer_write_now,
	.drop = peer_close,
	.flushed = gbatchd_flushed,
	.done = gbatchd_check_stop,
	.shipping = gbatchd_shipping,
	.ship = gbatchd_ship,
};

/* A peer sent what is not a frame; it is closed next. */
static void
gbatchd_bad_frame(struct peer *p, const char *err)
{
	audit_refused(p, "frame", NULL, "%s", err);
}

/* A peer is closing: its sessions and its node let it go. */
static void
gbatchd_peer_gone(struct peer *p)
{
	session_peer_gone(p);
	if (peer_node(p) != NULL)
		node_peer_gone(peer_node(p), p);
	if (peer_role(p) == PEER_REPLICA)
		replica_peer_gone(gbatchd.replica, peer_replica(p));
}

/* What the controller does with what peers send (peer.h). */
static const struct peer_hooks gbatchd_peer_hooks = {
	.message = req_dispatch,
	.bad_frame = gbatchd_bad_frame,
	.gone = gbatchd_peer_gone,
};

/* What the connection limits do to peers (peer-limit.h). */
static const struct peer_limit_hooks gbatchd_peer_limit_hooks = {
	.close = peer_close,
	.resume = peer_resume,
};

/* What launching asks of the sessions above it (launch.h). */
static const struct launch_hooks gbatchd_launch_hooks = {
	.interactive = session_launch_spec,
};

/* The file's settings with the command line's over them. Returns 0, 1
 * when there was no file (defaults stand), or -1 with err set. */
static int
gbatchd_read_conf(struct conf *c, char *err, size_t errlen)
{
	char	why[256];
	int	rc;

	conf_defaults(c);
	if ((rc = conf_load(c, gbatchd.flags.conf_path,
	    gbatchd.flags.conf_must_exist, err, errlen)) == -1)
		return (-1);
	if (gbatchd.flags.socket != NULL)
		conf_set(&c->socket, gbatchd.flags.socket);
	if (gbatchd.flags.listen != NULL) {
		if (hostport_check(gbatchd.flags.listen, 0, why,
		    sizeof why) == -1) {
			snprintf(err, errlen, "-l: %s", why);
			return (-1);
		}
		conf_set(&c->listen, gbatchd.flags.listen);
	}
	if (gbatchd.flags.state_dir != NULL)
		conf_set(&c->state_dir, gbatchd.flags.state_dir);
	if (gbatchd.flags.debug)
		c->log_level = LOG_LEVEL_DEBUG;
	return (rc);
}

int
gbatchd_reconfigure(json_t *changed, json_t *restart, json_t *notes,
    char *err, size_t errlen)
{
	struct conf	fresh;
	char		why[1024];

	if (gbatchd_read_conf(&fresh, why, sizeof why) == -1) {
		conf_clear(&fresh);
		snprintf(err, errlen, "%s; the settings in force are unchanged",
		    why);
		log_error("gbatchd: reconfigure: %s", err);
		return (-1);
	}
	/* gctl cert revoke wrote a new CRL: refuse its certificates from
	 * the next handshake on, and cut the nodes already connected with
	 * one (and the commands they relay) now. */
	if (gbatchd.tls != NULL && tls_ctx_reload(gbatchd.tls,
	    &gbatchd.tls_files, why, sizeof why) == -1) {
		conf_clear(&fresh);
		snprintf(err, errlen, "tls: %s; the settings in force are "
		    "unchanged", why);
		log_error("gbatchd: reconfigure: %s", err);
		return (-1);
	}
	if (gbatchd.tls != NULL)
		(void)peer_recheck(listener_tls_peer_ok);
	/* Registered nodes beat at the interval they were told at start:
	 * the new node_timeout must suit that one too. */
	if (conf_heartbeat_check(fresh.node_timeout, node_health_interval(),
	    why, sizeof why) == -1) {
		conf_clear(&fresh);
		snprintf(err, errlen, "%s: %s (nodes keep the interval they "
		    "were told until gbatchd restarts); the settings in force "
		    "are unchanged", gbatchd.flags.conf_path, why);
		log_error("gbatchd: reconfigure: %s", err);
		return (-1);
	}
	conf_reload_apply(&gbatchd.settings, &fresh, changed, restart);
	conf_clear(&fresh);
	log_set_level(gbatchd.settings.log_level);
	/* A reload reopens the audit log: after a rotation, or at its new
	 * path. Failing that, the old file stays in use. */
	if (audit_open(&gbatchd.settings, why, sizeof why) != 0)
		log_error("gbatchd: %s; still writing the audit log where it "
		    "was", why);
	/* A replica that follows has no memory to reschedule yet. */
	if (replica_serving(gbatchd.replica)) {
		core_reconfigure();
		core_part_notes(notes);
		purge_reconfigure();
	}
	log_info("gbatchd: reloaded %s: %zu setting%s changed%s",
	    gbatchd.flags.conf_path, json_array_size(changed),
	    json_array_size(changed) == 1 ? "" : "s",
	    json_array_size(restart) > 0 ? "; some take effect at the next "
	    "start" : "");
	return (0);
}

/* mkdir -p path, mode 0755: the state directory, the socket's directory.
 * The error names the directory that could not be made and the setting
 * (what) whose value (from) chose it. */
static int
gbatchd_mkdirs(const char *path, const char *what, const char *from,
    char *err, size_t errlen)
{
	char	*copy = xstrdup(path), *p;

	for (p = copy + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "directory %s is missing and "
			    "cannot be created (%s); %s is \"%s\"", copy,
			    strerror(errno), what, from);
			free(copy);
			return (-1);
		}
		if (p[0] == '\0' && path[p - copy] == '\0')
			break;
		*p = '/';
	}
	free(copy);
	return (0);
}

int
gbatchd_configure(const struct gbatchd_flags *flags, char *err,
    size_t errlen)
{
	struct conf	*c = &gbatchd.settings;
	int		 found;

	gbatchd.flags = *flags;
	ctx_configure(c, flags->conf_path, &gbatchd_root);
	if ((found = gbatchd_read_conf(c, err, errlen)) == -1) {
		conf_clear(c);
		return (-1);
	}
	if (gbatchd_tls_open(c, err, errlen) == -1) {
		tls_conf_clear(&gbatchd.tls_files);
		conf_clear(c);
		return (-1);
	}
	return (found);
}

void
gbatchd_unconfigure(void)
{
	tls_ctx_free(gbatchd.tls);
	tls_ctx_free(gbatchd.replica_tls);
	gbatchd.tls = gbatchd.replica_tls = NULL;
	tls_conf_clear(&gbatchd.tls_files);
	conf_clear(&gbatchd.settings);
}

/* The memory from the store: the accounts first (the jobs' limits are
 * theirs), the reservations (the core is built with their windows), the
 * jobs, then the month's use of the budgets (the runs ended, and those
 * the load found under way). */
static int
gbatchd_load(char *err, size_t errlen)
{
	if (assoc_load(core_assoc()) != 0) {
		snprintf(err, errlen, "cannot read the accounts; see the log");
		return (-1);
	}
	if (resv_load(core_resv()) != 0) {
		snprintf(err, errlen, "cannot read the reservations; see the "
		    "log");
		return (-1);
	}
	if (recover_load(session_recover) != 0) {
		snprintf(err, errlen, "cannot read the job database; see the "
		    "log");
		return (-1);
	}
	if (assoc_load_usage(core_usage(), ctx_now()) != 0) {
		snprintf(err, errlen, "cannot read the accounts' use of their "
		    "budgets; see the log");
		return (-1);
	}
	return (0);
}

/* What runs while the controller serves: silence of nodes, retention,
 * and a first scheduling pass. */
static void
gbatchd_serve(void)
{
	node_health_init(gbatchd.base);
	purge_init(gbatchd.base);
	core_mark_dirty();
}

void
gbatchd_restart(const char *why)
{
	if (gbatchd.restart)
		return;
	log_warn("gbatchd: %s; starting again, to rebuild the store from "
	    "the replicas' log", why);
	gbatchd.restart = true;
	ctx_set_stopping(true);
	event_base_loopbreak(gbatchd.base);
}

bool
gbatchd_restarting(void)
{
	return (gbatchd.restart);
}

/* Elected, with every committed entry in the store: serve as a start
 * does. */
static void
gbatchd_lead(void)
{
	char	err[512];

	if (gbatchd_load(err, sizeof err) != 0) {
		log_error("gbatchd: leading: %s", err);
		gbatchd_restart("the store could not be read");
		return;
	}
	gbatchd_serve();
	log_info("gbatchd: leading: %zu jobs pending, %zu running",
	    job_table_count(JOB_PENDING) + job_table_count(JOB_HELD),
	    job_table_count(JOB_RUNNING) + job_table_count(JOB_PREEMPTING));
}

static const struct replica_hooks gbatchd_replica_hooks = {
	.lead = gbatchd_lead,
	.restart = gbatchd_restart,
};

int
gbatchd_open(struct event_base *base, char *err, size_t errlen)
{
	const struct conf	*c = &gbatchd.settings;
	struct timeval		 recheck_tv = { GBATCHD_RECHECK_S, 0 };
	char			*addr_file, *sockdir, *p;
	bool			 replicated = replica_configured(c), had_log;

	gbatchd.base = base;
	gbatchd.restart = false;
	ctx_open(base, ctx_now());
	metrics_reset();
	ctx_set_stopping(false);
	if (gbatchd_mkdirs(c->state_dir, "controller.state_dir (or -d)",
	    c->state_dir, err, errlen) != 0 ||
	    dirmode_limit(c->state_dir, DIRMODE_STATE, err, errlen) != 0)
		return (-1);
	sockdir = xstrdup(c->socket);
	if ((p = strrchr(sockdir, '/')) != NULL && p != sockdir) {
		*p = '\0';
		if (gbatchd_mkdirs(sockdir, "controller.socket (or -s)",
		    c->socket, err, errlen) != 0) {
			free(sockdir);
			return (-1);
		}
	}
	free(sockdir);
	job_table_set_dep_free(depend_wait_forget);
	commit_init(base, &gbatchd_commit_hooks);
	peer_init(&gbatchd_peer_hooks);
	launch_init(&gbatchd_launch_hooks);
	/* The scheduler hears of a change first: a session's client is
	 * told of a start the core already counts. */
	job_table_listen(core_job_changed);
	job_table_listen(session_job_changed);
	if (audit_open(c, err, errlen) != 0)
		return (-1);
	/* A replica's store is rebuilt from raft's log, which is what
	 * reaches the disk: the store itself needs no fsync, not even at
	 * its checkpoints (which, with "normal", flushed megabytes of WAL
	 * at once and held the loop for milliseconds). */
	if (replicated && replica_wipe(c->state_dir, &had_log, err,
	    errlen) != 0)
		return (-1);
	if (store_open(c->state_dir, replicated ? STORE_SYNC_OFF :
	    c->sync_full ? STORE_SYNC_FULL : STORE_SYNC_NORMAL, commit_want,
	    err, errlen) != 0)
		return (-1);
	if (replicated && !had_log && store_job_peek_id() > 1) {
		snprintf(err, errlen, "%s/gbatch.db holds a controller's jobs, "
		    "but there is no raft log (raft.db) beside it: a replica "
		    "builds its store from the log alone, so they would be "
		    "lost. To carry them into the replica set, run gbatchd "
		    "--seed here and copy the raft.db it writes to every "
		    "other replica (gbatchd(8)); to start empty, move "
		    "gbatch.db away; or leave controller.replicas unset",
		    c->state_dir);
		return (-1);
	}
	/* A replica builds its memory once it leads (gbatchd_lead). */
	if (!replicated && gbatchd_load(err, errlen) != 0)
		return (-1);
	/* The listeners count their peers in it; it starts counting
	 * descriptors once they are open. */
	gbatchd.limits = peer_limit_create(base, &gbatchd_peer_limit_hooks);
	if ((gbatchd.clients = listener_unix(base, c->socket, gbatchd.limits,
	    err, errlen)) == NULL)
		return (-1);
	/* The address file stays at exit: the next start takes its port
	 * again. */
	addr_file = xasprintf("%s/gbatchd.addr", c->state_dir);
	gbatchd.nodes = listener_tcp(base, c->listen, addr_file, gbatchd.tls,
	    gbatchd.limits, err, errlen);
	free(addr_file);
	if (gbatchd.nodes == NULL)
		return (-1);
	if (c->metrics_listen != NULL && (gbatchd.metrics_http =
	    metrics_http_open(base, c->metrics_listen, err, errlen)) == NULL)
		return (-1);
	if (gbatchd.tls != NULL) {
		gbatchd.recheck_ev = event_new(base, -1, EV_PERSIST,
		    gbatchd_recheck_cb, NULL);
		event_add(gbatchd.recheck_ev, &recheck_tv);
	}
	peer_limit_start(gbatchd.limits);
	if (replicated) {
		if ((gbatchd.replica = replica_open(base, c,
		    gbatchd.replica_tls, &gbatchd_replica_hooks, err,
		    errlen)) == NULL)
			return (-1);
		ctx_set_replica(gbatchd.replica);
		return (0);
	}
	gbatchd_serve();
	return (0);
}

void
gbatchd_close(void)
{
	commit_run();
	/* Before the peers: commits raft still holds are refused to their
	 * clients as it closes. */
	replica_close(gbatchd.replica);
	gbatchd.replica = NULL;
	ctx_set_replica(NULL);
	listener_free(gbatchd.clients);
	listener_free(gbatchd.nodes);
	gbatchd.clients = gbatchd.nodes = NULL;
	metrics_http_close(gbatchd.metrics_http);
	gbatchd.metrics_http = NULL;
	peer_free_all();
	session_free_all();
	peer_limit_free(gbatchd.limits);
	gbatchd.limits = NULL;
	/* After the peers: a purge asked for by one answers no one. */
	purge_free();
	commit_free();
	/* After the last frame that could refer to it is gone. */
	req_job_list_free();
	req_job_acct_free();
	node_health_free();
	store_close();
	audit_close();
	if (gbatchd.stop_ev != NULL)
		event_free(gbatchd.stop_ev);
	gbatchd.stop_ev = NULL;
	if (gbatchd.recheck_ev != NULL)
		event_free(gbatchd.recheck_ev);
	gbatchd.recheck_ev = NULL;
	core_free();
	job_table_free_all();
	assoc_tab_free(core_assoc());
	depend_wait_free();
	node_free_all();
	gbatchd.base = NULL;
	ctx_open(NULL, 0);
}
