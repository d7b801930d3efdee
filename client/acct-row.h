/* acct-row.h: the rows of a JOB_ACCT report (docs/protocol.md: a row per
 * user, per group of jobs, per node, per account, partition or QOS, as
 * JSON objects, and the bins of a cluster report's series), described
 * once as table columns: gacct --report prints them, gtop's JCT pane
 * shows the cluster report's. */
#ifndef GB_ACCT_ROW_H
#define GB_ACCT_ROW_H

#include <stddef.h>

#include <jansson.h>

#include "client/table.h"

/* The reports, as acct_row_parse gives them. */
#define ACCT_ROW_USERS		0
#define ACCT_ROW_CLUSTER	1
#define ACCT_ROW_NODES		2
/* The "series" of a cluster report asked with "bins". */
#define ACCT_ROW_TIMELINE	3
/* A row per account (with its month's budget and use), per partition
 * and per QOS (with its usage factor). */
#define ACCT_ROW_ACCOUNTS	4
#define ACCT_ROW_PARTITIONS	5
#define ACCT_ROW_QOS		6
/* Fair share's standing of each account and user's association, now
 * (ASSOC_LIST's "fairshare", not a JOB_ACCT report). */
#define ACCT_ROW_FAIRSHARE	7

/* The report called name (users, cluster, nodes, timeline, accounts,
 * partitions, qos, fairshare) as an index, or -1 with err naming the accepted
 * ones. */
int		 acct_row_parse(const char *name, char *err, size_t errlen);
const char	*acct_row_name(int kind);
/* A table of the report's columns with its default selection, or with
 * fields (a list as -o takes it) when not NULL. */
struct table	*acct_row_table(int kind, const char *fields);
/* Its field names, "a, b, c" (the caller frees it). */
char		*acct_row_fields(int kind);

#endif
