/* slurm-part.h: gbatch's partitions as the Slurm-named commands show them
 * and take them in -p (sinfo, squeue, scontrol, scancel): those of
 * CONFIG_SHOW's reply ("partitions", by name in gbatch.conf's order), or,
 * where gbatch.conf has none, the one partition gbatch has then,
 * JOB_REQ_PARTITION: the default, of every node, without limits. A job's
 * and a node's partitions come as names joined by ',' (JOB_LIST's
 * "partition", NODE_LIST's "partitions"). Pure: model_fetch_parts asks
 * gbatchd for them. */
#ifndef GB_SLURM_PART_H
#define GB_SLURM_PART_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct slurm_part {
	const char	*name;
	/* Its nodes as gbatch.conf writes them ("n[1-2]"); NULL: every
	 * node. */
	const char	*nodes;
	bool		 is_default;
	long long	 default_time;	/* s; 0: none */
	long long	 max_time;	/* s; 0: none */
	long long	 max_gpus;	/* per job; 0: no cap */
	long long	 max_nodes;	/* per job; 0: no cap */
	const json_t	*accounts;	/* their names; none: any account */
	const json_t	*qos;		/* their names; none: any QOS */
	long long	 tier;
};

struct slurm_parts {
	json_t			*reply;		/* owns the strings */
	struct slurm_part	*v;
	size_t			 n;
	/* Whether gbatch.conf names them; false: JOB_REQ_PARTITION alone. */
	bool			 configured;
};

/* Reads CONFIG_SHOW's reply into ps, which takes it over (the caller's
 * reference). Returns 0, or -1 with err when its partitions are not
 * CONFIG_SHOW's; ps then holds gbatch's one and owns nothing. */
int		 slurm_part_read(struct slurm_parts *ps, json_t *reply,
		     char *err, size_t errlen);
/* Frees what ps holds; slurm_part_free of a zeroed ps does nothing. */
void		 slurm_part_free(struct slurm_parts *ps);

/* The partition of that name, or NULL; borrowed from ps. */
const struct slurm_part *slurm_part_find(const struct slurm_parts *ps,
		     const char *name);

/* A job's partitions (JOB_LIST's "partition") as the commands name them:
 * list, or JOB_REQ_PARTITION for '', a job from before partitions, which
 * ran in gbatch's one partition as the commands named it then. */
const char	*slurm_part_of_job(const char *list);
/* A job's QOS (JOB_LIST's "qos") likewise: qos, or JOB_REQ_QOS for '', a
 * job from before QOS. */
const char	*slurm_part_qos_of_job(const char *qos);
/* Whether list, names joined by ',', has name. */
bool		 slurm_part_listed(const char *list, const char *name);
/* Whether a job whose partitions are list shares one with want (a JSON
 * array of names, -p's; empty or NULL: every job does). */
bool		 slurm_part_job_in(const char *list, const json_t *want);
/* Whether a node whose partitions are list (NODE_LIST's, '' without
 * partitions) is one of p's. */
bool		 slurm_part_node_in(const struct slurm_parts *ps,
		     const char *list, const struct slurm_part *p);

/* Checks the names of want (-p's list): 0 when each is a partition of ps,
 * else -1 with err as 'no partition "gpx" (the partitions: gpu, long)'. */
int		 slurm_part_check(const struct slurm_parts *ps,
		     const json_t *want, char *err, size_t errlen);

#endif
