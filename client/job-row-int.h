/* job-row-int.h: what job-row.c and job-row-gpus.c share: a row's
 * member, its text, and the columns of a job's GPUs (job-row-gpus.c): the
 * count it holds or asks for, an elastic job's range, the GPU ids of its
 * last run and of each run, and what its progress reports said. */
#ifndef GB_JOB_ROW_INT_H
#define GB_JOB_ROW_INT_H

#include <stddef.h>

#include "client/jscan.h"
#include "common/job-field.h"

const struct jscan_val *job_row_v(const void *row, enum job_field);
/* A string or number member as text; absent and null give "". */
const char	*job_row_text(const void *row, enum job_field, char *buf,
		    size_t len);

const char	*job_row_gpus_col(const void *, const void *, char *, size_t);
const char	*job_row_gpus_range(const void *, const void *, char *,
		    size_t);
const char	*job_row_gpus_ids(const void *, const void *, char *, size_t);
const char	*job_row_gpus_runs(const void *, const void *, char *, size_t);
const char	*job_row_gpus_step_time(const void *, const void *, char *,
		    size_t);
const char	*job_row_gpus_goodput(const void *, const void *, char *,
		    size_t);

#endif
