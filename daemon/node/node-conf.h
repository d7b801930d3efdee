/* node-conf.h: gnoded's settings, from the `node` group of gbatch.conf
 * (gbatch.conf(5)) and then the command line. A plain record: every module
 * reads it, only gnoded.c fills it. */
#ifndef GB_NODE_CONF_H
#define GB_NODE_CONF_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/log.h"
#include "daemon/common/conf-file.h"
#include "daemon/common/tls-settings.h"

struct node_cgroup_sys;

enum node_gpu_source {
	NODE_GPU_AUTO = 0,	/* NVML when libnvidia-ml.so.1 loads, else gpus */
	NODE_GPU_NVML,		/* NVML or fail */
	NODE_GPU_SIMULATED,	/* gpus fake GPUs */
};

struct node_conf {
	char			*name;		/* NULL until node_conf_finish */
	/* "HOST:PORT" of each controller, tried in turn; at least one. */
	struct conf_file_list	 controllers;
	char			*state_dir;
	char			*socket;	/* relay for commands, "" none */
	char			*switch_name;	/* topology label, "" for none */
	unsigned		 gpus;		/* simulated GPU count */
	/* Simulated GPUs' use, read at each heartbeat: "INDEX UTIL% MEM_MB"
	 * lines; "" for none (they report 0). */
	char			*gpu_use_file;
	/* Simulated GPUs' model, as NVML would name it ("Simulated GPU"). */
	char			*gpu_model;
	bool			 gpus_set;	/* written, so 0 is meant */
	/* The CPUs and memory (MB) jobs may have, as offered to the
	 * scheduler; 0: the host's own (node_conf_cpus, _memory_mb). */
	unsigned		 cpus;
	unsigned		 memory_mb;
	/* The shards each GPU is offered in to jobs of --gpu-share (0 or
	 * 1: none, a job takes a GPU whole). */
	unsigned		 gpu_shards;
	/* The MPS control program for shared GPUs (node-mps.h): a name
	 * looked for on PATH, or a path; "": none. */
	char			*mps_control;
	/* Each job in a cgroup of its own where the host allows
	 * (node-confine.h); false: never. */
	bool			 cgroups;
	/* The jobs' parent cgroup is "<cgroup>-<node name>" (one per node,
	 * so that nodes sharing a host never share a job's cgroup). */
	char			*cgroup;
	unsigned		 job_pids_max;	/* a job's processes; 0: any */
	/* A GPU's device file, %u its minor number ("/dev/nvidia%u"): a
	 * job may open its own GPUs' alone. */
	char			*gpu_device;
	/* node.gpu_cpus: the CPUs near each GPU, by index, where NVML does
	 * not say (or says wrong): CPU lists, "" for not known. */
	struct conf_file_list	 gpu_cpus;
	enum node_gpu_source	 gpu_source;
	unsigned		 heartbeat_interval;	/* seconds, >= 1 */
	unsigned		 kill_wait;	/* seconds, SIGTERM to SIGKILL */
	bool			 allow_root_jobs;
	/* Jobs also see the SLURM_* variables of the GBATCH_* ones, for
	 * the scripts and libraries that read Slurm's. */
	bool			 slurm_env;
	/* Remove what a user left in /dev/shm once the last of the user's
	 * jobs on the node ends (node-shm.h). */
	bool			 clean_shm;
	enum log_level		 log_level;

	/* The tls group: this node's key and certificate, the CA, the CRL,
	 * the controller's name. */
	struct tls_settings	 tls;

	/* Not from the file: where gnoded logs, so shepherds log there too. */
	int			 log_syslog;
	/* Not from the file: the TLS context for the link to the controller
	 * (tls.h), made and checked at start by node_conf_tls; before each
	 * connection, tls_expect_name(ssl, tls.controller_name or the host
	 * part of the address dialed). Freed by node_conf_clear. */
	SSL_CTX			*tls_ctx;
	struct tls_conf		 tls_files;
	/* Not from the file: the jobs' cgroups (NULL: jobs run unconfined)
	 * and each GPU's device number, by index (gpu_dev_known's bit i:
	 * GPU i has one), found at start by node_confine_setup. */
	struct node_cgroup_sys	*cgroup_sys;
	dev_t			 gpu_dev[64];
	uint64_t		 gpu_dev_known;
};

/* What the node offers: node.cpus, else the CPUs online; node.memory_mb,
 * else the host's memory. */
unsigned	node_conf_cpus(const struct node_conf *);
unsigned	node_conf_memory_mb(const struct node_conf *);

/* Whether s is a label a node may carry (name, switch): 1-64 letters,
 * digits, '-', '_' or '.'. */
bool	node_conf_label_ok(const char *s);
/* The same, as 0, or -1 with why saying what is accepted and what s is. */
/* A simulated GPU model name: 1-64 letters, digits, ' ', '-', '_', '.'. */
int	node_conf_model_check(const char *, char *why, size_t len);
int	node_conf_label_check(const char *s, char *why, size_t len);

/* Fills conf with the built-in defaults (no name yet). */
void	node_conf_defaults(struct node_conf *);

/* Reads the node group of the file at path into conf, refusing any key it
 * does not have. Returns 0, 1 when there is no file and must_exist is
 * false (conf untouched), or -1 with err naming the file, line and key. */
int	node_conf_load(struct node_conf *, const char *path, bool must_exist,
	    char *err, size_t errlen);

/* Completes conf once the file and the flags are in: a node without a name
 * takes the host name, which must then be a valid label. Returns 0, or -1
 * with err saying what to set. */
int	node_conf_finish(struct node_conf *, char *err, size_t errlen);

/* Parses a whole number in [min, max]; -1 on anything else. */
int	node_conf_parse_uint(const char *, unsigned min, unsigned max,
	    unsigned *);

/* Makes conf->tls_ctx from the tls group, once the name is known: the
 * node's key and certificate are checked now. Returns 0, or -1 with err
 * naming the file and the fix. */
int	node_conf_tls(struct node_conf *, char *err, size_t errlen);

/* SIGHUP: reads the CA and the CRL again into conf->tls_ctx (a CRL that
 * gctl cert revoke wrote, or the default one copied in since the start),
 * so a revoked controller certificate is refused from the next connection
 * on. Nothing when TLS is off. Returns 0, or -1 with err (the context in
 * force unchanged). */
int	node_conf_tls_reload(struct node_conf *, char *err, size_t errlen);

void	node_conf_clear(struct node_conf *);

#endif
