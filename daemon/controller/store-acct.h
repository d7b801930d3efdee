/* store-acct.h: accounting queries over finished jobs (gacct). They run on
 * a second, read-only connection to the database, so a query read over
 * many loop passes sees one snapshot and never holds up the writes of the
 * group commit (WAL lets both go on). */
#ifndef GB_CTL_STORE_ACCT_H
#define GB_CTL_STORE_ACCT_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/controller/store.h"

/* Finished jobs whose end_time is in [since, until), of these users,
 * states and ids (each a JSON array's text, or NULL for any), by end time
 * then id. */
struct store_acct_query {
	int64_t		 since;
	int64_t		 until;
	const char	*users;
	const char	*states;
	const char	*ids;
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

#endif
