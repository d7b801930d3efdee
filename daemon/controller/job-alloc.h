/* job-alloc.h: the text of a running job's allocation (common/alloc-text.h,
 * "n1:0x3,n2:0xc") from its parts, for the store's jobs and job_runs rows
 * and the listings. */
#ifndef GB_CTL_JOB_ALLOC_H
#define GB_CTL_JOB_ALLOC_H

#include <stddef.h>
#include <stdint.h>

struct job_part;

/* The jobs row's text of n parts, rank 0 first: a new string, or NULL
 * for one part (the row keeps its node and GPU mask in columns of their
 * own). */
char	*job_alloc_text(const struct job_part *, size_t n);
/* The text of every part, one too: what job_runs records of a run, with
 * a job of shards' share of its node's (job_gpu_share; 0: whole GPUs),
 * which accounting charges. A new string. */
char	*job_alloc_text_all(const struct job_part *, size_t n,
	    uint32_t share);

#endif
