/* node-conf.h: gnoded's settings, from the `node` group of gbatch.conf
 * (gbatch.conf(5)) and then the command line. A plain record: every module
 * reads it, only gnoded.c fills it. */
#ifndef GB_NODE_CONF_H
#define GB_NODE_CONF_H

#include <stdbool.h>
#include <stddef.h>

#include "common/log.h"

enum node_gpu_source {
	NODE_GPU_AUTO = 0,	/* NVML when libnvidia-ml.so.1 loads, else gpus */
	NODE_GPU_NVML,		/* NVML or fail */
	NODE_GPU_SIMULATED,	/* gpus fake GPUs */
};

struct node_conf {
	char			*name;		/* default: the host name */
	char			*controller;	/* "HOST:PORT" */
	char			*state_dir;
	char			*switch_name;	/* topology label, "" for none */
	unsigned		 gpus;		/* simulated GPU count */
	enum node_gpu_source	 gpu_source;
	unsigned		 heartbeat_interval;	/* seconds, >= 1 */
	unsigned		 kill_wait;	/* seconds, SIGTERM to SIGKILL */
	bool			 allow_root_jobs;
	enum log_level		 log_level;

	/* Not from the file: where gnoded logs, so shepherds log there too. */
	int			 log_syslog;
};

/* Whether s is a label a node may carry (name, switch): 1-64 letters,
 * digits, '-', '_' or '.'. */
bool	node_conf_label_ok(const char *s);

/* Fills conf with the built-in defaults. */
void	node_conf_defaults(struct node_conf *);

/* Reads the node group of the config file into conf. path NULL means the
 * default place ($GBATCH_CONF, else SYSCONFDIR/gbatch/gbatch.conf); a
 * missing default file is not an error, a missing named one is. Returns 0,
 * or -1 with err naming the file, line and key. */
int	node_conf_load(struct node_conf *, const char *path, char *err,
	    size_t errlen);

/* Splits "HOST:PORT" (host may be "[v6]") into new strings the caller
 * frees. Returns 0, or -1 with err saying what is accepted. */
int	node_conf_split_addr(const char *, char **host, char **port, char *err,
	    size_t errlen);

/* Parses a whole number in [min, max]; -1 on anything else. */
int	node_conf_parse_uint(const char *, unsigned min, unsigned max,
	    unsigned *);

void	node_conf_clear(struct node_conf *);

#endif
