/* job-list.h: job records as JOB_LIST sends them, written as text into one
 * growing buffer. A listing of 10,000 pending jobs must take milliseconds,
 * which building a jansson tree (or many small evbuffer appends) per job
 * does not. */
#ifndef GB_CTL_JOB_LIST_H
#define GB_CTL_JOB_LIST_H

#include <stddef.h>
#include <stdint.h>

struct store_job;

/* A growing text buffer; zero it to start, free buf when done. */
struct job_list_buf {
	char	*buf;
	size_t	 len;
	size_t	 size;
};

void	job_list_add(struct job_list_buf *, const char *s, size_t n);
void	job_list_int(struct job_list_buf *, int64_t v);
/* Appends s as a JSON string (quoted, escaped). */
void	job_list_string(struct job_list_buf *, const char *s);
/* Appends the JOB_LIST record of row; now computes a running job's
 * elapsed time. */
void	job_list_row(struct job_list_buf *, const struct store_job *row,
	    int64_t now);

#endif
