/* job-list.h: job records as JOB_LIST sends them, written as text into one
 * buffer. A listing of 10,000 pending jobs must take milliseconds, which
 * building a jansson tree (or many small evbuffer appends) per job does
 * not. */
#ifndef GB_CTL_JOB_LIST_H
#define GB_CTL_JOB_LIST_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct store_job;

/* The members of a record, in the order records list them
 * (docs/protocol.md, JOB_LIST). */
enum job_list_field {
	JOB_LIST_ID,
	JOB_LIST_NAME,
	JOB_LIST_USER,
	JOB_LIST_UID,
	JOB_LIST_STATE,
	JOB_LIST_REASON,
	JOB_LIST_GPUS,
	JOB_LIST_ALLOC,
	JOB_LIST_NODES,
	JOB_LIST_TIME_LIMIT,
	JOB_LIST_SUBMIT_TIME,
	JOB_LIST_START_TIME,
	JOB_LIST_END_TIME,
	JOB_LIST_ELAPSED,
	JOB_LIST_EXIT_CODE,
	JOB_LIST_SIGNAL,
	JOB_LIST_WORKDIR,
	JOB_LIST_STDOUT,
	JOB_LIST_STDERR,
	JOB_LIST_COMMAND,
	JOB_LIST_ARGV,
	JOB_LIST_MESSAGE,
	JOB_LIST_QUEUE,
	JOB_LIST_ATTAINED,
	JOB_LIST_RESTARTS,
	JOB_LIST_PREEMPTIONS,
	JOB_LIST_PROMOTIONS,
	JOB_LIST_NFIELDS
};
#define JOB_LIST_ALL	((UINT32_C(1) << JOB_LIST_NFIELDS) - 1)

/* What controller.private_data keeps from users other than a job's owner
 * (and operators): what the job runs and where, the files it writes, and
 * its end message, which may quote any of them. The rest (id, user, name,
 * state, GPUs, nodes, times, queue) stays: users share the cluster and
 * must see why their own jobs wait. As Slurm's PrivateData=jobs, but
 * other users' jobs stay in the listing. */
#define JOB_LIST_PRIVATE	((UINT32_C(1) << JOB_LIST_WORKDIR) |	\
				 (UINT32_C(1) << JOB_LIST_STDOUT) |	\
				 (UINT32_C(1) << JOB_LIST_STDERR) |	\
				 (UINT32_C(1) << JOB_LIST_COMMAND) |	\
				 (UINT32_C(1) << JOB_LIST_ARGV) |	\
				 (UINT32_C(1) << JOB_LIST_MESSAGE))

/* A growing text buffer: zero it (or job_list_init it) to start; free buf
 * when done, or hand it to someone who will. */
struct job_list_buf {
	char	*buf;
	size_t	 len;
	size_t	 size;
};

/* Starts b empty with room for size bytes (a guess: it grows past it). */
void	job_list_init(struct job_list_buf *, size_t size);
/* Makes room for n more bytes. */
void	job_list_reserve(struct job_list_buf *, size_t n);
void	job_list_add(struct job_list_buf *, const char *s, size_t n);
void	job_list_int(struct job_list_buf *, int64_t v);
/* Appends s as a JSON string (quoted, escaped); NULL is "". */
void	job_list_string(struct job_list_buf *, const char *s);

/* Reads a request's "fields" member (NULL or null: every field) into a
 * mask of 1 << enum job_list_field; "id" is always in it. Returns 0, or
 * -1 with err naming the accepted fields. */
int	job_list_fields(const json_t *names, uint32_t *fields, char *err,
	    size_t errlen);
/* Appends the JOB_LIST record of row with the members in fields; now
 * computes a running job's elapsed time. */
void	job_list_row(struct job_list_buf *, const struct store_job *row,
	    int64_t now, uint32_t fields);

#endif
