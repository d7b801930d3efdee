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
 * dependency, ...) are in a block of the job's. Which fields go where is
 * common/job-field.h's to say (JFF_SHARED, JFF_OWN): the blocks, and
 * job.c's copies between a job and its row, follow from it. */
#ifndef GB_CTL_JOB_STRS_H
#define GB_CTL_JOB_STRS_H

#include <stddef.h>
#include <stdint.h>

#include "common/job-field.h"

struct store_job;

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

/* What the controller keeps of a job in memory, from common/job-field.h:
 * the fields with JFF_SHARED (strings and numbers) are one block shared by
 * every job that has them all the same, those with JFF_OWN a block of the
 * job's own. A new field is kept by adding the flag to its row. */
#define JOB_STRS_IS_TEXT(k)						\
	((k) == JFK_TEXT || (k) == JFK_TEXT0 || (k) == JFK_TEXTREF)
#define JOB_STRS_N_SHARED_STR(e, m, t, c, w, k, f)			\
	+ (((f) & JFF_SHARED) != 0 && JOB_STRS_IS_TEXT(k))
#define JOB_STRS_N_SHARED_NUM(e, m, t, c, w, k, f)			\
	+ (((f) & JFF_SHARED) != 0 && !JOB_STRS_IS_TEXT(k))
#define JOB_STRS_N_OWN(e, m, t, c, w, k, f)	+ (((f) & JFF_OWN) != 0)
#define JOB_STRS_N_NONE(e, w)
enum {
	/* The strings and the numbers jobs share, a job's own strings. */
	JSH_COUNT = 0 JOB_FIELDS(JOB_STRS_N_SHARED_STR, JOB_STRS_N_NONE),
	JSH_NUMS = 0 JOB_FIELDS(JOB_STRS_N_SHARED_NUM, JOB_STRS_N_NONE),
	JOB_OWN_COUNT = 0 JOB_FIELDS(JOB_STRS_N_OWN, JOB_STRS_N_NONE),
};

/* Field f's place among the shared strings, the shared numbers or a job's
 * own strings, whichever block keeps it; -1 for a field none keeps. */
int		 job_strs_slot(enum job_field f);

/* The numbers of a job's request that are shared with its strings, each
 * as 64 bits, by job_strs_slot. None changes once the job is made. Hashed
 * and compared byte for byte. */
struct job_ask {
	uint64_t	 n[JSH_NUMS];
};

struct job_shared;

/* The shared block of these JSH_COUNT strings (NULL for "") and ask: the
 * one already made when another job has them all the same, counted once
 * more, else a new one. Never fails (xmalloc). */
const struct job_shared *job_shared_get(const char *const *src,
		    const struct job_ask *ask);
/* The same, of the JFF_SHARED fields of row. */
const struct job_shared *job_shared_get_row(const struct store_job *row);
/* Counts a job out of s; the last one frees it. NULL is ignored. */
void		 job_shared_put(const struct job_shared *s);
/* String k of s (by job_strs_slot). */
const char	*job_shared_str(const struct job_shared *s, int k);
/* Field f of s, a string or a number. */
const char	*job_shared_text(const struct job_shared *s, enum job_field f);
uint64_t	 job_shared_num(const struct job_shared *s, enum job_field f);
/* The numbers of s. */
const struct job_ask *job_shared_ask(const struct job_shared *s);
/* Sets the JFF_SHARED fields of row from s (strings borrowed from s). */
void		 job_shared_to_row(const struct job_shared *s,
		    struct store_job *row);
/* Blocks in use (distinct sets of strings and numbers), and the jobs
 * counted in them. */
size_t		 job_shared_count(size_t *refs);

/* A job's own strings: the JFF_OWN fields of row, in src (JOB_OWN_COUNT,
 * borrowed from row, NULL for ""), for strs_plan; and back into row from
 * the block made of them (strings borrowed from the block). */
void		 job_own_src(const struct store_job *row, const char **src);
void		 job_own_to_row(const char *block, uint8_t width,
		    struct store_job *row);
/* Field f of a job's own block. */
const char	*job_own_text(const char *block, uint8_t width,
		    enum job_field f);

#endif
