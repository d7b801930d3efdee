/* conf.h: gbatchd's settings: the controller group of gbatch.conf
 * (libconfig), with built-in defaults under it and command-line flags over
 * it. A plain value struct: everything reads it, nothing changes it after
 * start-up. */
#ifndef GB_CTL_CONF_H
#define GB_CTL_CONF_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/log.h"
#include "daemon/common/conf-file.h"
#include "daemon/common/tls-settings.h"
#include "daemon/controller/part.h"
#include "daemon/controller/qos.h"
#include "policy/sched-conf.h"

/* Checkpoint grace (seconds): a job's default, and the most it may ask. */
#define CONF_CKPT_GRACE		60
#define CONF_MAX_CKPT_GRACE	600

/* Defaults of the connection limits; gbatch.conf(5) says why each. */
#define CONF_MAX_CONNECTIONS_PER_USER	256
#define CONF_CONNECTION_RESERVE		64
#define CONF_MAX_BUFFERED_MIB		64
#define CONF_MAX_REQUESTS_PER_SECOND	1000
#define CONF_FRAME_TIMEOUT		10
#define CONF_IDLE_TIMEOUT		300
#define CONF_MAX_PENDING_PER_USER	100000

/* The longest heartbeat interval gbatchd asks of nodes (seconds). */
#define CONF_MAX_HEARTBEAT		3600

/* Finished jobs are kept this many days (purge.h); 0: for ever. */
#define CONF_KEEP_FINISHED_DAYS		365
#define CONF_MAX_KEEP_FINISHED_DAYS	36500
/* Seconds after its end that a finished job is forgotten by a listing
 * that asks so (squeue -j: Slurm's MinJobAge); 0: never. */
#define CONF_MIN_JOB_AGE		300
#define CONF_MAX_MIN_JOB_AGE		(86400 * 365)

/* Replicas: the most a controller has, and the election timeout's
 * default (milliseconds). */
#define CONF_MAX_REPLICAS		9
#define CONF_ELECTION_TIMEOUT		700
/* Log entries (commits) between two snapshots of a replica's store. */
#define CONF_SNAPSHOT_EVERY		1024

struct conf {
	/* What gtop and the reports call the cluster; the controller's
	 * host name (up to its first dot) by default. */
	char		*cluster_name;
	char		*socket;	/* Unix socket for clients */
	char		*listen;	/* "HOST:PORT" for node daemons */
	/* "HOST:PORT" serving Prometheus metrics over HTTP (metrics.h);
	 * NULL: off. */
	char		*metrics_listen;
	char		*state_dir;	/* holds gbatch.db and gbatchd.addr */
	int		 node_timeout;	/* seconds */
	/* Seconds between a node's heartbeats, told to each node as it
	 * registers; 0: conf_heartbeat_interval derives it. */
	int		 heartbeat_interval;
	struct conf_file_list operators;	/* user names */
	bool		 allow_root_jobs;
	/* A job must be charged to one of its user's accounts (assoc.h);
	 * off, any account (or none) is taken, the default filled in. */
	bool		 enforce_accounts;
	/* Other users' jobs are listed without their command, arguments,
	 * directories, output files and messages (job-list.h). */
	bool		 private_data;
	char		*audit_log;	/* NULL: state_dir/audit.log */
	enum log_level	 log_level;
	bool		 sync_full;	/* fsync every commit */

	/* What connections may hold of gbatchd (peer-limit.c). 0 turns a
	 * count limit off. */
	int		 max_connections;	/* all peers; 0: the fd limit */
	int		 max_connections_per_user;
	int		 connection_reserve;	/* fds kept for root, operators
						 * and node daemons */
	int		 max_buffered_mib;	/* half-read frames, in all */
	int		 max_requests_per_second; /* per connection */
	int		 frame_timeout;		/* seconds to finish a frame */
	int		 idle_timeout;		/* seconds a client may idle */
	int		 max_pending_per_user;	/* waiting jobs; 0: no limit */
	/* Days a finished job stays in the store before the purge deletes
	 * it (purge.h); 0: for ever. */
	int		 keep_finished_days;
	/* Seconds a finished job stays in listings that forget (JOB_LIST's
	 * forget_finished: squeue -j), as Slurm's MinJobAge; 0: never. */
	int		 min_job_age;
	/* The ports MASTER_PORT is picked from (launch_pick_port):
	 * master_port_first and the count of them. */
	int		 master_port_first;
	int		 master_port_count;

	/* A replicated controller (replica.h): every replica's "HOST:PORT"
	 * (its listen address), none for a controller of its own; this
	 * one's id (0: its place in replicas, found by listen); how long a
	 * follower waits for the leader before it stands (milliseconds);
	 * how many commits between two snapshots of the store. */
	struct conf_file_list replicas;
	int		 replica_id;
	int		 election_timeout;
	int		 snapshot_every;

	/* The scheduler group: policy, queues, promotion, placement. Its
	 * samples stay NULL here: gittins takes them from the store. */
	struct sched_conf sched;
	int		 ckpt_grace;	/* seconds, for jobs that name none */
	int		 max_ckpt_grace; /* seconds, the cap on any job's */
	/* A job whose dependency can never be met is cancelled (Slurm's
	 * kill_invalid_depend), unless it says otherwise. */
	bool		 kill_invalid_depend;
	/* What a job that asks for none gets beside each GPU: CPUs and MB
	 * (0: the node's share, its CPUs or memory over its GPUs). */
	int		 cpus_per_gpu;
	int		 mem_per_gpu;
	/* Whether a batch job that gave no checkpoint signal may be
	 * preempted (requeued to start over): off, such a job is never
	 * preempted, as it would lose its work (job_preempt_mode). */
	bool		 preempt_plain;
	/* Fair share's half-life, in seconds (0: usage never decays); on or
	 * off and the queue's weight are sched's. */
	unsigned	 fairshare_half_life;

	/* The partitions group: none, one partition of every node. */
	struct parts	 parts;
	/* The qos group: none, one QOS (JOB_REQ_QOS) of no limit. */
	struct qoses	 qos;

	/* The tls group: where the key, certificates and CRL are. Read at
	 * start; a reload reads the CRL again, the rest waits for a
	 * restart. */
	struct tls_settings tls;
};

/* Fills c with the built-in defaults (strings are the struct's own). */
void	conf_defaults(struct conf *c);

/* Reads the controller, scheduler and tls groups of path into c over what it
 * holds, refusing any key they do not have. A missing file is fine
 * (defaults stand) unless must_exist. Returns 0, 1 when there is no file
 * (and none is required), or -1 with err naming the file, the line and the
 * key. */
int	conf_load(struct conf *c, const char *path, bool must_exist,
	    char *err, size_t errlen);

/* Replaces a string setting with a copy of value. */
void	conf_set(char **slot, const char *value);

/* The audit log's path: controller.audit_log, or audit.log in the state
 * directory. A new string the caller frees. */
char	*conf_audit_path(const struct conf *c);

/* Whether user (uid) may act on every job: root and the operators list. */
bool	conf_is_operator(const struct conf *c, uid_t uid, const char *user);

/* The settings as {"controller": {...}, "scheduler": {...},
 * "partitions": {...}} (a new reference), as gctl show config prints
 * them. */
json_t	*conf_reload_json(const struct conf *c);

/* Takes from fresh (a reload of the file) the settings that apply without
 * a restart. Appends to changed the names ("scheduler.policy") of those
 * that differ, and to restart those that differ but wait for the next
 * start (the sockets, the state directory, sync); c keeps their values. */
void	conf_reload_apply(struct conf *c, const struct conf *fresh,
	    json_t *changed, json_t *restart);

/* Frees what c holds; c itself belongs to the caller. */
void	conf_clear(struct conf *c);

/* The heartbeat interval c asks of nodes: controller.heartbeat_interval,
 * or when not set a third of node_timeout, 1 to 5 s. */
int	conf_heartbeat_interval(const struct conf *c);
/* Whether nodes beating every interval seconds can be judged by a
 * node_timeout: it must be at least three intervals, so that one lost or
 * late heartbeat never marks a healthy node down. Returns 0, or -1 with
 * err naming both keys. */
int	conf_heartbeat_check(int node_timeout, int interval, char *err,
	    size_t errlen);

#endif
