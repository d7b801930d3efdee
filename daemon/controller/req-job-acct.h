/* req-job-acct.h: what req-job-acct.c, the JOB_ACCT handler, hands to
 * req-job-acct-report.c when the request asks for a report. */
#ifndef GB_CTL_REQ_JOB_ACCT_H
#define GB_CTL_REQ_JOB_ACCT_H

#include <jansson.h>

#include "daemon/controller/store-acct.h"

struct peer;

/* Answers msg, a JOB_ACCT with "report": name, over q's range, users
 * (already narrowed to the peer's own for an ordinary user) and states.
 * The reply comes from a later loop pass; q may change. */
void	req_job_acct_report(struct peer *, const json_t *msg, const char *name,
	    struct store_acct_query *q);
/* Ends the reports still being read (at exit). */
void	req_job_acct_report_free(void);

#endif
