/* job-detail.h: everything about one job, line by line: every field of
 * job_row_cols ("label: text"), its output files as its nodes open them
 * (the patterns expanded, a file per part when they name the part),
 * members a newer controller sends that this client has no field for, and
 * the history of its state changes (starts, preemptions, requeues, with
 * their nodes). gq -l prints the lines; gtop's detail view shows them.
 * Lines hold text from users as it is: the caller makes it safe for where
 * it goes. */
#ifndef GB_JOB_DETAIL_H
#define GB_JOB_DETAIL_H

#include <stddef.h>

#include "client/job-row.h"

typedef void	(*job_detail_fn)(void *arg, const char *line);

/* Hands fn each line of row's detail (a JOB_LIST job with every member
 * and its history), in order. */
void	job_detail(const struct job_row *row, job_detail_fn fn, void *arg);

/* The file output field k (JF_STDOUT, JF_STDERR) names, rank 0's for a
 * multi-node job, into out. Returns 0, or -1 when the job has none. */
int	job_detail_file(const struct job_row *row, enum job_field k,
	    char *out, size_t len);

#endif
