/* report-table.h: gsim's text table: a label column, then one column a
 * run, right-aligned. Columns are as wide as their widest cell (10 at
 * least) and labels as the widest label (18 at least), so the rows of
 * every section line up; a heading row (a label and no cell) widens
 * nothing. */
#ifndef GB_SIM_REPORT_TABLE_H
#define GB_SIM_REPORT_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct report_table;

/* A table of ncols columns, headed by heads (ncols strings, copied). */
struct report_table	*report_table_create(size_t ncols,
			    const char *const *heads);
void			 report_table_free(struct report_table *);

/* Starts a row labelled label (copied). A row given no cell prints its
 * label alone: a heading, or a blank line with "". */
void	report_table_row(struct report_table *, const char *label);
/* The next cell of the row last started, formatted as printf. */
void	report_table_cell(struct report_table *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	report_table_print(const struct report_table *, FILE *);

#endif
