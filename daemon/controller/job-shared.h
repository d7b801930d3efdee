/* job-shared.h: the block of a job's strings and numbers that the jobs
 * with all of them the same share (job-strs.h says which fields; common/
 * job-field.h's JFF_SHARED), interned and counted here. */
#ifndef GB_CTL_JOB_SHARED_H
#define GB_CTL_JOB_SHARED_H

#include <stddef.h>
#include <stdint.h>

#include "common/job-field.h"
#include "daemon/controller/job-strs.h"

struct store_job;

/* The numbers of a job's request that are shared with its strings, each
 * as 64 bits, by job_strs_slot. None changes once the job is made. Hashed
 * and compared byte for byte. */
struct job_ask {
	uint64_t	 n[JSH_NUMS];
};

struct job_shared;

/* The blocks in use, by hash: a table of them, which the job table holds
 * for the controller's jobs (job-table.c) and a test for its own. Zeroed
 * is empty; it frees its buckets with its last block. */
struct job_shared_tab {
	struct job_shared	**hash;
	size_t			  size;		/* buckets, a power of two */
	size_t			  count, refs;	/* blocks, and jobs in them */
};

/* The shared block of these JSH_COUNT strings (NULL for "") and ask: the
 * one already made when another job has them all the same, counted once
 * more, else a new one. Never fails (xmalloc). */
const struct job_shared *job_shared_get(struct job_shared_tab *,
		    const char *const *src, const struct job_ask *ask);
/* The same, of the JFF_SHARED fields of row. */
const struct job_shared *job_shared_get_row(struct job_shared_tab *,
		    const struct store_job *row);
/* Counts a job out of s; the last one frees it. NULL is ignored. */
void		 job_shared_put(struct job_shared_tab *,
		    const struct job_shared *s);
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
size_t		 job_shared_count(const struct job_shared_tab *, size_t *refs);

#endif
