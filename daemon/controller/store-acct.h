/* store-acct.h: accounting queries over finished jobs (gacct). They run on
 * a second, read-only connection to the database, so a query read over
 * many loop passes sees one snapshot and never holds up the writes of the
 * group commit (WAL lets both go on). */
#ifndef GB_CTL_STORE_ACCT_H
#define GB_CTL_STORE_ACCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-field.h"
#include "daemon/controller/store.h"

/* Finished jobs whose end_time is in [since, until), of these users,
 * states, ids, accounts and partitions (each a JSON array's text, or NULL
 * for any), by
 * end time then id. */
struct store_acct_query {
	int64_t		 since;
	int64_t		 until;
	const char	*users;
	const char	*states;
	const char	*ids;
	struct job_field_set fields;	/* the store fields read */
	bool		 alive;		/* a report: the jobs alive at until too */
	const char	*accounts;	/* a listing: of these accounts only */
	/* A listing: of jobs that listed one of these partitions only. */
	const char	*partitions;
	/* A report: what a GPU-second of a run of QOS qos is charged, in
	 * thousandths (qos_weight; the reports by account and QOS; NULL:
	 * as run), called with weigh_arg; and the QOS a job of '' is of
	 * (NULL: JOB_REQ_QOS). Borrowed until the report is closed. */
	uint32_t	(*weigh)(const char *qos, const void *arg);
	const void	*weigh_arg;
	const char	*qos_default;
};

struct store_acct;

/* Starts a query. Returns it, or NULL with err set. */
struct store_acct *store_acct_open(const struct store_acct_query *,
		     char *err, size_t errlen);
/* The next job: 1 with *row (its strings valid until the next call), 0 at
 * the end, -1 with err set. */
int		 store_acct_next(struct store_acct *, struct store_job *row,
		     char *err, size_t errlen);
/* The runs of job id, oldest first, read in the query's snapshot. */
int		 store_acct_runs(struct store_acct *, uint64_t id,
		     store_run_cb, void *);
void		 store_acct_close(struct store_acct *);

/* A report (acct-report.h) is read in steps, so that the loop serves
 * others between them: the jobs that ended in [since, until) of the
 * query's users and states (all but nodes), the runs overlapping
 * [since, until) of every user (all), the nodes table with the state
 * each node's last events before since left, and the node events of the
 * range (cluster and nodes), and with alive the submit times of the jobs
 * not ended by until (a cluster report's series). until is min(END,
 * now).
 *
 * The reports by user, account, partition and QOS feed acct-report.h's
 * rows by user, each job and run keyed by what the report groups by: its
 * user; the account it is charged to; the partition a run ran in (a
 * job's, where its last run ran, its list's first if it never ran); the
 * QOS a run ran in (a job's, its own at its end), '' read as the
 * default's name. The runs of the reports by account and QOS carry their
 * weight, q->weigh's for their QOS. */
enum store_acct_report {
	STORE_ACCT_USERS,
	STORE_ACCT_CLUSTER,
	STORE_ACCT_NODES,
	STORE_ACCT_ACCOUNTS,
	STORE_ACCT_PARTITIONS,
	STORE_ACCT_QOS,
};
#define STORE_ACCT_NREPORTS	(STORE_ACCT_QOS + 1)
struct acct_report;
struct store_acct_rep;

/* What a report query reads: the jobs, the rest (runs, nodes, node
 * events), or both; with PART_OWN, on a connection of its own, so that
 * another thread can read it (one thread at a time) while the loop reads
 * the other part. */
#define STORE_ACCT_PART_JOBS	0x1
#define STORE_ACCT_PART_REST	0x2
#define STORE_ACCT_PART_OWN	0x4
struct store_acct_rep *store_acct_report_open(const struct store_acct_query *,
		     enum store_acct_report, unsigned parts, char *err,
		     size_t errlen);
/* Feeds up to max rows into r. Returns 1 when rows are left, 0 when all
 * were fed, -1 with err set. */
int		 store_acct_report_step(struct store_acct_rep *,
		     struct acct_report *r, size_t max, char *err,
		     size_t errlen);
/* Makes a step running on another thread return -1 soon ("interrupted").
 * Safe from any thread. */
void		 store_acct_report_interrupt(struct store_acct_rep *);
void		 store_acct_report_close(struct store_acct_rep *);

#endif
