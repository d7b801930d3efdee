/* part.h: partitions, as gbatch.conf's partitions group names them: named
 * sets of nodes with their own defaults and limits, and a priority tier.
 * A node may be in several; one is the default. Without any, gbatch has
 * one, JOB_REQ_PARTITION, of every node and no limit, as before. Pure
 * settings and the rules that read them: no I/O, no clock. See
 * gbatch.conf(5) and docs/scheduling.md. */
#ifndef GB_CTL_PART_H
#define GB_CTL_PART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/common/conf-file.h"

/* Partitions gbatch.conf may have, and how many a job may list. */
#define PART_MAX		256
#define PART_MAX_ASKED		16

struct part {
	char		*name;
	/* Its nodes as written (a host list, "n[1-4],gpu7"), expanded and
	 * sorted into names; NULL and none: every node. */
	char		*nodes;
	char		**names;
	size_t		 nnames;
	bool		 is_default;
	/* Seconds: the time limit of a job that gives none (0: max_time,
	 * else none), the most a job may ask (0: no cap). */
	uint64_t	 default_time;
	uint64_t	 max_time;
	uint32_t	 max_gpus;	/* per job; 0: no cap */
	uint32_t	 max_nodes;	/* per job; 0: no cap */
	/* The accounts whose jobs may run here (sbatch's -A); none: any. */
	struct conf_file_list accounts;
	/* The QOS whose jobs may run here (--qos); none: any. */
	struct conf_file_list qos;
	uint32_t	 tier;		/* higher first; 0 to 255 */
};

struct parts {
	struct part	*v;
	size_t		 n;
};

/* What a job asks that a partition's limits judge. */
struct part_ask {
	uint64_t	 time_limit;	/* s; 0: none given */
	uint32_t	 gpus;
	uint32_t	 nodes;		/* its -N; 0: not fixed */
	const char	*account;	/* '' : none */
	const char	*qos;		/* '' : any */
};

/* Why a partition refuses a job: PART_OK when it does not. The words
 * (part_refusal_word) are the pending reasons Slurm users know. */
enum part_refusal {
	PART_OK = 0,
	PART_TIME_LIMIT,	/* PartitionTimeLimit */
	PART_GPU_LIMIT,		/* PartitionGPULimit */
	PART_NODE_LIMIT,	/* PartitionNodeLimit */
	PART_ACCOUNT,		/* PartitionAccount */
	PART_GONE,		/* PartitionConfig: no such partition now */
	PART_QOS,		/* PartitionQOS */
};

/* Reads m, one member of gbatch.conf's partitions group (gpu = { ... };),
 * into a new partition at the end of ps. Returns 0, or -1 with err as
 * "line N: partitions.gpu.KEY: ..." naming what is accepted. */
int		 part_read(struct parts *ps, const struct config_setting_t *m,
		     char *err, size_t errlen);
/* The rules that tie partitions together (at most one default). Returns
 * 0, or -1 with err. */
int		 part_check(const struct parts *ps, int line, char *err,
		     size_t errlen);

/* Frees what ps holds; empty after. */
void		 part_clear(struct parts *ps);
/* A copy of src in dst (empty before). */
void		 part_copy(struct parts *dst, const struct parts *src);
/* Whether a and b say the same. */
bool		 part_equal(const struct parts *a, const struct parts *b);

/* The partition named name, or NULL. */
const struct part *part_find(const struct parts *ps, const char *name);
/* The default: the one marked so, else the first; NULL without any. */
const struct part *part_default(const struct parts *ps);
/* Whether node (its name) is one of p's. */
bool		 part_has_node(const struct part *p, const char *node);

/* Reads a time limit as Slurm writes it ("2-00:00:00", "30" minutes,
 * "UNLIMITED") or a whole number of minutes, into *out (s). Returns 0,
 * or -1 with why saying what is expected (for conf_file's CUSTOM keys,
 * the QOS' too). */
int		 part_time_setting(const struct config_setting_t *s,
		     uint64_t *out, char *why, size_t len);

/* A conf_file_key's valid for a list of accounts' or QOS' names: labels
 * (common/label.h). */
int		 part_label_valid(const char *v, char *why, size_t len);

/* Checks a job's list of partitions, NAME[,NAME...], against ps: each
 * name known, none twice, at most PART_MAX_ASKED. '' asks for the
 * default. Writes the list as gbatch keeps it into out ("gpu,long"; the
 * default's name for ''; JOB_REQ_PARTITION, alone, without partitions).
 * Returns 0, or -1 with err naming the bad name and the partitions
 * there are. */
int		 part_resolve(const struct parts *ps, const char *asked,
		     char *out, size_t outlen, char *err, size_t errlen);

/* Whether p takes a job asking a (time_limit 0 taking p's default):
 * PART_OK, or why not, with detail saying it in words ("the time limit
 * 3-00:00:00 is over gpu's MaxTime 2-00:00:00"). */
enum part_refusal part_admits(const struct part *p, const struct part_ask *a,
		     char *detail, size_t detlen);
/* The partitions of a job's list (part_resolve's; '' the default), in its
 * order, into out (up to PART_MAX_ASKED): those that exist now. Returns
 * their count; *gone (if not NULL) gets how many the list names that no
 * longer exist. Without partitions: 0, none gone. */
size_t		 part_listed(const struct parts *ps, const char *list,
		     const struct part **out, size_t *gone);

/* Of the partitions of list, the first that takes a job asking a (and
 * holds every node of its -w list, req_nodes, names joined by ','):
 * NULL when none does, with *why (if not NULL) the first refusal (or
 * PART_GONE when the list names none that exists) and err each, as
 * "gpu: ...; long: ...". Without partitions: NULL and PART_OK. */
const struct part *part_choose(const struct parts *ps, const char *list,
		     const struct part_ask *a, const char *req_nodes,
		     enum part_refusal *why, char *err, size_t errlen);

/* The pending reason a refusal gives ("PartitionTimeLimit"). */
const char	*part_refusal_word(enum part_refusal);

/* The time limit a job asking a gets in p: its own, else p's default,
 * else p's max_time, else none (0). */
uint64_t	 part_time_limit(const struct part *p, const struct part_ask *a);

/* The partitions as gctl show config and the Slurm views read them: an
 * object of {nodes, default, default_time, max_time, max_gpus, max_nodes,
 * accounts, qos, tier} by name, in gbatch.conf's order (a new reference). */
json_t		*part_json(const struct parts *ps);

#endif
