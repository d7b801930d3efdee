/* req-int.h: what the request handlers (req.c and the req-*.c files
 * it lists) share and no one else: the request layer's state, one struct
 * req.c holds (req_state). A handler that answers over several turns of
 * the loop (a streamed listing, an accounting query, a report) keeps its
 * reply here until it is sent or its peer goes, so this one place says
 * what a request leaves behind once its handler returns;
 * req_job_list_free and req_job_acct_free drop them all at shutdown. */
#ifndef GB_CTL_REQ_INT_H
#define GB_CTL_REQ_INT_H

#include <stddef.h>
#include <stdint.h>

/* The most entries the request table may hold (req.c checks it). */
#define REQ_ENTRIES_MAX		64

struct req_job_acct;
struct req_job_acct_report;
struct req_job_list;

struct req_state {
	/* Requests handled of each entry of the table, and the time their
	 * handlers took (req_stats). */
	uint64_t			 count[REQ_ENTRIES_MAX];
	uint64_t			 us[REQ_ENTRIES_MAX];
	/* The listings being streamed (req-job-list.c), and the buffer of
	 * the last one, once written, kept for the next: listings of the
	 * same queue come out the same size. */
	struct req_job_list		*lists;
	char				*list_spare;
	size_t				 list_spare_size;
	size_t				 list_last_len;
	/* The accounting queries being streamed (req-job-acct.c). */
	struct req_job_acct		*accts;
	/* The reports being made (req-job-acct-report.c), and how many
	 * read their jobs on threads. */
	struct req_job_acct_report	*reports;
	int				 report_threads;
	/* The last node listing's size, to start the next one's buffer
	 * with (req-node-list.c). */
	size_t				 node_list_last;
};

struct req_state *req_state(void);

#endif
