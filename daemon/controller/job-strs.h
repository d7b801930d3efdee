/* job-strs.h: a job's strings, kept small. A block of strings is a table
 * of offsets, each 8, 16 or 32 bits (the smallest that holds them), then
 * the strings, NUL-ended, one after the other.
 *
 * Where a job runs, as whom and with what (its user, command, directory,
 * output files, account, node and GPU constraints, and the numbers of its
 * request: GPUs, nodes, CPUs, memory, time limit, flags) is the same for
 * most jobs of a queue: a user's sweep or array, a pipeline's steps. Those
 * are one block shared by every job that has them all the same
 * (job-shared.h); the strings each job has its own (name, arguments,
 * dependency, ...) are in a block of the job's (here). Which fields go where is
 * common/job-field.h's to say (JFF_SHARED, JFF_OWN): the blocks, and
 * job.c's copies between a job and its row, follow from it. */
#ifndef GB_CTL_JOB_STRS_H
#define GB_CTL_JOB_STRS_H

#include <stddef.h>
#include <stdint.h>

#include "common/job-field.h"

struct store_job;

/* How a block of n strings is laid out (strs_plan). */
#define JOB_STRS_MAX	16
struct job_strs_plan {
	size_t		 len[JOB_STRS_MAX];
	size_t		 text;		/* bytes of the strings, NULs too */
	uint8_t		 width;		/* of an offset: 1, 2 or 4 */
};

/* Plans a block of n (<= JOB_STRS_MAX) strings, src[k] NULL for ""; returns
 * its size in bytes. */
size_t		 job_strs_plan(const char *const *src, size_t n,
		    struct job_strs_plan *);
/* Writes the block planned into block (of strs_plan's size). */
void		 job_strs_fill(char *block, const char *const *src, size_t n,
		    const struct job_strs_plan *);
/* String k of a block of n strings of offsets of width bytes. */
const char	*job_strs_get(const char *block, uint8_t width, size_t n,
		    size_t k);

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

/* Which block keeps a field: the shared strings, the shared numbers (in
 * struct job_ask) or a job's own strings. */
enum job_strs_kind {
	JOB_STRS_SHARED_STR,
	JOB_STRS_SHARED_NUM,
	JOB_STRS_OWN,
};
/* The field at slot k of a block of that kind (the inverse of
 * job_strs_slot). */
enum job_field	 job_strs_field(enum job_strs_kind kind, int k);
/* Field f of row r: a number of its kind, widened; a string (borrowed).
 * And setting them. */
uint64_t	 job_strs_num_of(const struct store_job *r, int f);
void		 job_strs_num_to(struct store_job *r, int f, uint64_t n);
const char	*job_strs_str_of(const struct store_job *r, int f);
void		 job_strs_str_to(struct store_job *r, int f, const char *s);

/* A job's own strings: the JFF_OWN fields of row, in src (JOB_OWN_COUNT,
 * borrowed from row, NULL for ""), for job_strs_plan; and back into row from
 * the block made of them (strings borrowed from the block). */
void		 job_strs_own_src(const struct store_job *row,
		    const char **src);
void		 job_strs_own_to_row(const char *block, uint8_t width,
		    struct store_job *row);
/* Field f of a job's own block. */
const char	*job_strs_own_text(const char *block, uint8_t width,
		    enum job_field f);

#endif
