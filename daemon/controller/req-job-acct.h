/* req-job-acct.h: what req-job-acct.c, the JOB_ACCT handler, hands to
 * req-job-acct-report.c when the request asks for a report, and what
 * that file and req-job-acct-group.c, which writes the rows by account,
 * partition and QOS, share. */
#ifndef GB_CTL_REQ_JOB_ACCT_H
#define GB_CTL_REQ_JOB_ACCT_H

#include <stdbool.h>
#include <stdint.h>

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

/* For the rows of a report (req-job-acct-report.c): sets o's members of
 * a group of jobs: the state counts and the statistics (JCT in seconds;
 * waits are kept in ms and sent in seconds; wait_all: the median and 95th
 * percentile too). */
struct acct_stat;
void	req_job_acct_report_jobs(json_t *o, uint64_t jobs,
	    const uint64_t *by_state, const struct acct_stat *jct,
	    const struct acct_stat *wait, uint64_t preemptions, bool wait_all);
/* A percentage, null when the whole is 0. */
json_t	*req_job_acct_report_pct(uint64_t part, uint64_t whole);

/* The rows of the reports by account, partition and QOS
 * (req-job-acct-group.c), from r, finished, keyed so: one for each
 * account of the table (with its budget and the month's use at now),
 * partition of the settings or QOS of qs (with its usage factor), and
 * for each other the jobs named; only those named in only (a JSON array;
 * NULL: all). The month the accounts' use is of, into reply. */
struct acct_report;
struct qoses;
void	req_job_acct_group_accounts(const struct acct_report *r,
	    const json_t *only, int64_t now, json_t *rows);
void	req_job_acct_group_partitions(const struct acct_report *r,
	    const json_t *only, json_t *rows);
void	req_job_acct_group_qos(const struct acct_report *r,
	    const struct qoses *qs, json_t *rows);
void	req_job_acct_group_month(json_t *reply, int64_t now);

#endif
