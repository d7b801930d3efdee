/* store-plans.c (bench): the query plan of every statement gbatchd's store
 * runs, on a given database.
 *   store-plans DIR
 * Opens DIR/gbatch.db with the controller's own store module (store_open,
 * which prepares its statements and runs its start-up queries), starts
 * an accounting query (store_acct_open, gacct's) and the reports, reads
 * the month's use of the accounts' budgets, then prints SQLite's
 * EXPLAIN QUERY PLAN for each statement. The statements are not listed
 * here: an auto-extension sees every connection the store opens, and
 * each connection's prepared statements (sqlite3_next_stmt) and the
 * one-off ones it ran (a trace) are what is explained, so a statement
 * added to the store shows up without an edit here.
 *
 * A plan line "SCAN t" of a table that grows with the history (any but
 * nodes and sqlite_sequence) is marked "<- full scan": that statement's
 * time grows with the number of finished jobs. The last line counts them.
 * A SEARCH can still visit every finished job (an index on state, asked
 * for every finished state): the plans are printed for a reader to judge. Exit 0 whatever the
 * plans say (bench/ reports, it does not judge); 1 if the database
 * cannot be opened, 2 on a usage error. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/controller/store-acct.h"
#include "daemon/controller/store-assoc.h"
#include "daemon/controller/store.h"

#define PLANS_MAX_CONN	4

static sqlite3	*plans_conn[PLANS_MAX_CONN];
static unsigned	 plans_nconn;

/* The one-off statements each connection ran, in order, once each. */
static char	**plans_ran;
static size_t	  plans_nran;

static bool
plans_seen(const char *sql)
{
	size_t	i;

	for (i = 0; i < plans_nran; i++) {
		if (strcmp(plans_ran[i], sql) == 0)
			return (true);
	}
	return (false);
}

static int
plans_trace_cb(unsigned type, void *ctx, void *p, void *x)
{
	const char	*sql = x;

	if (type != SQLITE_TRACE_STMT || sql == NULL || plans_seen(sql))
		return (0);
	plans_ran = xreallocarray(plans_ran, plans_nran + 1, sizeof *plans_ran);
	plans_ran[plans_nran++] = xstrdup(sql);
	return (0);
}

/* Called by SQLite for every connection opened in this process. */
static int
plans_connect_cb(sqlite3 *db, char **err,
    const struct sqlite3_api_routines *api)
{
	if (plans_nconn < PLANS_MAX_CONN)
		plans_conn[plans_nconn++] = db;
	sqlite3_trace_v2(db, SQLITE_TRACE_STMT, plans_trace_cb, NULL);
	return (SQLITE_OK);
}

static void
plans_used_cb(const char *account, const char *qos, uint64_t gpu_s,
    void *arg)
{
	(void)account;
	(void)qos;
	(void)gpu_s;
	(void)arg;
}

/* Statements that are not queries of tables: nothing to plan. */
static bool
plans_is_query(const char *sql)
{
	static const char *const skip[] = { "PRAGMA", "BEGIN", "COMMIT",
	    "ROLLBACK", "--", NULL };
	unsigned	i;

	for (i = 0; skip[i] != NULL; i++) {
		if (strncmp(sql, skip[i], strlen(skip[i])) == 0)
			return (false);
	}
	return (true);
}

/* A statement's text, the middle of a long one elided (a jobs SELECT
 * names every column). */
static void
plans_print_sql(unsigned n, const char *what, const char *sql)
{
	size_t	len = strlen(sql);

	if (len <= 200)
		printf("[%u] %s: %s\n", n, what, sql);
	else
		printf("[%u] %s: %.80s ... %s\n", n, what, sql, sql + len - 100);
}

/* Prints sql's plan; returns how many of its lines are a full scan of a
 * table that grows with the history, or -1 if it cannot be planned. */
static int
plans_explain(sqlite3 *db, const char *sql)
{
	sqlite3_stmt	*st;
	const char	*detail, *name;
	char		*q;
	int		 scans = 0, rc, depth, parent[64], id, up, i;
	unsigned	 nparent = 0;

	q = xasprintf("EXPLAIN QUERY PLAN %s", sql);
	rc = sqlite3_prepare_v2(db, q, -1, &st, NULL);
	free(q);
	if (rc != SQLITE_OK) {
		printf("    (cannot plan: %s)\n", sqlite3_errmsg(db));
		return (-1);
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		id = sqlite3_column_int(st, 0);
		up = sqlite3_column_int(st, 1);
		detail = (const char *)sqlite3_column_text(st, 3);
		/* Indent under the parent row, as the sqlite3 shell does. */
		while (nparent > 0 && parent[nparent - 1] != up)
			nparent--;
		depth = (int)nparent;
		if (nparent < sizeof parent / sizeof parent[0])
			parent[nparent++] = id;
		for (i = 0; i < depth; i++)
			fputs("  ", stdout);
		printf("    %s", detail != NULL ? detail : "");
		if (detail != NULL && strncmp(detail, "SCAN ", 5) == 0) {
			name = detail + 5;
			if (strncmp(name, "nodes", 5) != 0 &&
			    strncmp(name, "sqlite_sequence", 15) != 0 &&
			    strncmp(name, "json_each", 9) != 0 &&
			    strncmp(name, "CONSTANT ROW", 12) != 0) {
				fputs("  <- full scan", stdout);
				scans++;
			}
		}
		putchar('\n');
	}
	sqlite3_finalize(st);
	return (scans);
}

int
main(int argc, char **argv)
{
	struct store_acct_query	 all = { 0, INT64_MAX, NULL, NULL, NULL,
	    jfs_all(), true, NULL, NULL, NULL, NULL, NULL };
	/* The reports whose statements differ: the cluster's (every
	 * statement but the keys'), by account, by partition and by
	 * QOS. */
	static const enum store_acct_report kinds[] = { STORE_ACCT_CLUSTER,
	    STORE_ACCT_ACCOUNTS, STORE_ACCT_PARTITIONS, STORE_ACCT_QOS };
	struct store_acct	*acct = NULL;
	struct store_acct_rep	*rep[sizeof kinds / sizeof kinds[0]] = { 0 };
	sqlite3_stmt		*st;
	const char		*sql;
	char			 err[512];
	unsigned		 c, n = 0, scanning = 0, unplanned = 0;
	size_t			 i;
	int			 s;

	if (argc != 2) {
		fprintf(stderr, "usage: store-plans DIR\n"
		    "Prints the query plan of each statement gbatchd's store "
		    "runs on DIR/gbatch.db.\n");
		return (2);
	}
	log_open("store-plans", 0, LOG_LEVEL_WARN);
	sqlite3_auto_extension((void (*)(void))plans_connect_cb);
	if (store_open(argv[1], STORE_SYNC_NORMAL, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "store-plans: %s\n", err);
		return (1);
	}
	/* The listing's statements, and a cluster report's with its
	 * series (every statement a report may read), and those of the
	 * reports by account, partition and QOS; the month's use of each
	 * account's budget, read at start (a one-off the trace sees). */
	acct = store_acct_open(&all, err, sizeof err);
	for (i = 0; acct != NULL && i < sizeof kinds / sizeof kinds[0] &&
	    (i == 0 || rep[i - 1] != NULL); i++)
		rep[i] = store_acct_report_open(&all, kinds[i],
		    STORE_ACCT_PART_JOBS | STORE_ACCT_PART_REST, err,
		    sizeof err);
	if (acct == NULL || rep[i - 1] == NULL ||
	    store_assoc_month(0, plans_used_cb, NULL) != 0) {
		fprintf(stderr, "store-plans: %s\n", err);
		for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
			store_acct_report_close(rep[i]);
		store_acct_close(acct);
		store_close();
		return (1);
	}
	/* Planning adds statements of its own: list the store's first. */
	for (c = 0; c < plans_nconn; c++) {
		sqlite3_trace_v2(plans_conn[c], 0, NULL, NULL);
		for (st = sqlite3_next_stmt(plans_conn[c], NULL); st != NULL;
		    st = sqlite3_next_stmt(plans_conn[c], st)) {
			sql = sqlite3_sql(st);
			if (sql == NULL || !plans_is_query(sql) ||
			    plans_seen(sql))
				continue;
			plans_ran = xreallocarray(plans_ran, plans_nran + 1,
			    sizeof *plans_ran);
			plans_ran[plans_nran++] = xstrdup(sql);
		}
	}
	for (i = 0; i < plans_nran; i++) {
		if (!plans_is_query(plans_ran[i]))
			continue;
		plans_print_sql(++n, "statement", plans_ran[i]);
		/* Any connection plans it the same: the schema is one. */
		if ((s = plans_explain(plans_conn[0], plans_ran[i])) < 0)
			unplanned++;
		else if (s > 0)
			scanning++;
	}
	printf("store-plans: %u statements, %u with a full scan of a table "
	    "that grows with the history, %u not planned\n", n, scanning,
	    unplanned);
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		store_acct_report_close(rep[i]);
	store_acct_close(acct);
	store_close();
	for (i = 0; i < plans_nran; i++)
		free(plans_ran[i]);
	free(plans_ran);
	return (0);
}
