/* gacct-report.h: gacct --report's printing (gacct-report.c); the columns
 * are client/acct-row.h's. */
#ifndef GB_GACCT_REPORT_H
#define GB_GACCT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct table;

/* Prints the reply's rows (its array member, "rows" or "series") into
 * t, or as JSON. Returns 0, or -1 after saying what was wrong with the
 * reply. */
int		 gacct_report_print(json_t *reply, const char *member,
		     struct table *t, bool json);

#endif
