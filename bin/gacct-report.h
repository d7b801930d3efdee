/* gacct-report.h: gacct --report's columns and printing (gacct-report.c). */
#ifndef GB_GACCT_REPORT_H
#define GB_GACCT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct table;

/* The report called name (users, cluster, nodes) as an index, or -1 with
 * err naming the accepted ones. */
int		 gacct_report_parse(const char *name, char *err, size_t errlen);
const char	*gacct_report_name(int kind);
/* A table of the report's columns with its default selection. */
struct table	*gacct_report_table(int kind);
/* Its field names, "a, b, c" (the caller frees it). */
char		*gacct_report_fields(int kind);
/* Prints the reply's rows into t, or as JSON. Returns 0, or -1 after
 * saying what was wrong with the reply. */
int		 gacct_report_print(json_t *reply, struct table *t,
		     bool json);

#endif
