/* job-strs.h: a job's strings, kept small. A block of strings is a table
 * of offsets, each 8, 16 or 32 bits (the smallest that holds them), then
 * the strings, NUL-ended, one after the other.
 *
 * Where a job runs, as whom and with what (its user, command, directory,
 * output files, account, node and GPU constraints, and the numbers of its
 * request: GPUs, nodes, CPUs, memory, time limit, flags) is the same for
 * most jobs of a queue: a user's sweep or array, a pipeline's steps. Those
 * are one block shared by every job that has them all the same (interned
 * and counted here); the strings each job has its own (name, arguments,
 * dependency, ...) are in a block of the job's. */
#ifndef GB_CTL_JOB_STRS_H
#define GB_CTL_JOB_STRS_H

#include <stddef.h>
#include <stdint.h>

/* How a block of n strings is laid out (strs_plan). */
#define STRS_MAX	16
struct strs_plan {
	size_t		 len[STRS_MAX];
	size_t		 text;		/* bytes of the strings, NULs too */
	uint8_t		 width;		/* of an offset: 1, 2 or 4 */
};

/* Plans a block of n (<= STRS_MAX) strings, src[k] NULL for ""; returns
 * its size in bytes. */
size_t		 strs_plan(const char *const *src, size_t n,
		    struct strs_plan *);
/* Writes the block planned into block (of strs_plan's size). */
void		 strs_fill(char *block, const char *const *src, size_t n,
		    const struct strs_plan *);
/* String k of a block of n strings of offsets of width bytes. */
const char	*strs_get(const char *block, uint8_t width, size_t n, size_t k);

/* The strings jobs share, in this order. */
enum job_shared_str {
	JSH_USER, JSH_COMMAND, JSH_WORKDIR, JSH_STDOUT, JSH_STDERR,
	JSH_ACCOUNT, JSH_REQ_NODES, JSH_EXCLUDE_NODES, JSH_GPU_TYPE,
	JSH_TASKS_PER_NODE, JSH_COUNT
};
/* The numbers of a job's request that are shared with its strings. None
 * changes once the job is made. Hashed and compared byte for byte, so it
 * has no padding and a caller clears it before setting its members. */
struct job_ask {
	uint64_t	 time_limit;	/* seconds, 0: none */
	uint64_t	 mem;		/* MB a node, 0: not asked */
	uint32_t	 uid;
	uint32_t	 gid;
	uint32_t	 gpus;
	uint32_t	 num_nodes;	/* -N; 0: any */
	uint32_t	 cpus_per_task;	/* 0: not asked */
	uint32_t	 flags;		/* job.h's JOB_F_* */
	int32_t		 ckpt_signal;	/* 0: SIGUSR1 */
	uint32_t	 ckpt_grace;	/* seconds, 0: the config's */
};

struct job_shared;

/* The shared block of these JSH_COUNT strings (NULL for "") and ask: the
 * one already made when another job has them all the same, counted once
 * more, else a new one. Never fails (xmalloc). */
const struct job_shared *job_shared_get(const char *const *src,
		    const struct job_ask *ask);
/* Counts a job out of s; the last one frees it. NULL is ignored. */
void		 job_shared_put(const struct job_shared *s);
/* String k of s. */
const char	*job_shared_str(const struct job_shared *s,
		    enum job_shared_str k);
/* The numbers of s. */
const struct job_ask *job_shared_ask(const struct job_shared *s);
/* Blocks in use (distinct sets of strings and numbers), and the jobs
 * counted in them. */
size_t		 job_shared_count(size_t *refs);

#endif
