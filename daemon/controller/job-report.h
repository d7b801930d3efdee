/* job-report.h: what node daemons report about their jobs (in HELLO and
 * JOB_ENDED), reconciled with what the controller believes. */
#ifndef GB_CTL_JOB_REPORT_H
#define GB_CTL_JOB_REPORT_H

#include <jansson.h>

struct job;
struct job_change;
struct node;
struct peer;

/* A job report of state RUNNING from node: re-adopts the job, or tells the
 * node to stop a copy the controller no longer runs there (a stale copy:
 * checkpoint signal first, its GPUs kept from other jobs until it ends). */
void	job_report_running(struct node *, struct peer *, const json_t *report);
/* Forgets the stale copies node n was stopping (n went down, or says HELLO
 * again and reports them anew): their jobs may run again. */
void	job_report_stale_forget(struct node *);
/* A report of a finished job: records the end (committed before the ACK
 * goes out, since the ACK waits in the commit queue) and acknowledges it. */
void	job_report_ended(struct node *, struct peer *, const json_t *report);
/* Requeues the jobs the controller has running on node that are not in
 * the HELLO's report list. */
void	job_report_missing(struct node *, const json_t *reports);
/* A running job lost node n: it is requeued as a whole. The other parts
 * of a multi-node job are told to stop and the job waits PREEMPTING for
 * their ends before it is requeued. */
void	job_report_lost(struct job *, struct node *,
	    const struct job_change *);

#endif
