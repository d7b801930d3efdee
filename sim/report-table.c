/* report-table.c: gsim's text table; see report-table.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "sim/report-table.h"

/* The narrowest label column and cell, as gsim has always printed them:
 * a report without a wider label or cell prints as before. */
#define REPORT_TABLE_LABEL	18
#define REPORT_TABLE_CELL	10

struct report_table_row {
	char	*label;
	char	**cells;	/* ncols; NULL past those given */
	size_t	 ncells;
};

struct report_table {
	size_t			 ncols;
	char			**heads;
	struct report_table_row	*rows;
	size_t			 nrows, size;
};

struct report_table *
report_table_create(size_t ncols, const char *const *heads)
{
	struct report_table	*t = xcalloc(1, sizeof *t);
	size_t			 k;

	t->ncols = ncols;
	t->heads = xcalloc(ncols != 0 ? ncols : 1, sizeof *t->heads);
	for (k = 0; k < ncols; k++)
		t->heads[k] = xstrdup(heads[k]);
	return (t);
}

void
report_table_free(struct report_table *t)
{
	size_t	i, k;

	if (t == NULL)
		return;
	for (i = 0; i < t->nrows; i++) {
		for (k = 0; k < t->rows[i].ncells; k++)
			free(t->rows[i].cells[k]);
		free(t->rows[i].cells);
		free(t->rows[i].label);
	}
	for (k = 0; k < t->ncols; k++)
		free(t->heads[k]);
	free(t->heads);
	free(t->rows);
	free(t);
}

void
report_table_row(struct report_table *t, const char *label)
{
	struct report_table_row	*row;

	if (t->nrows == t->size) {
		t->size = t->size != 0 ? t->size * 2 : 32;
		t->rows = xreallocarray(t->rows, t->size, sizeof *t->rows);
	}
	row = &t->rows[t->nrows++];
	row->label = xstrdup(label);
	row->cells = xcalloc(t->ncols != 0 ? t->ncols : 1,
	    sizeof *row->cells);
	row->ncells = 0;
}

void
report_table_cell(struct report_table *t, const char *fmt, ...)
{
	struct report_table_row	*row = &t->rows[t->nrows - 1];
	va_list			 ap;
	char			 buf[128];

	if (row->ncells == t->ncols)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	row->cells[row->ncells++] = xstrdup(buf);
}

static size_t
report_table_max(size_t a, size_t b)
{
	return (a > b ? a : b);
}

void
report_table_print(const struct report_table *t, FILE *fp)
{
	const struct report_table_row	*row;
	size_t				 i, k, lw = REPORT_TABLE_LABEL;
	size_t				 cw = REPORT_TABLE_CELL;

	for (k = 0; k < t->ncols; k++)
		cw = report_table_max(cw, strlen(t->heads[k]));
	for (i = 0; i < t->nrows; i++) {
		row = &t->rows[i];
		if (row->ncells == 0)
			continue;
		lw = report_table_max(lw, strlen(row->label));
		for (k = 0; k < row->ncells; k++)
			cw = report_table_max(cw, strlen(row->cells[k]));
	}
	fprintf(fp, "%-*s", (int)lw, "");
	for (k = 0; k < t->ncols; k++)
		fprintf(fp, "  %*s", (int)cw, t->heads[k]);
	fputc('\n', fp);
	for (i = 0; i < t->nrows; i++) {
		row = &t->rows[i];
		if (row->ncells == 0) {
			fprintf(fp, "%s\n", row->label);
			continue;
		}
		fprintf(fp, "%-*s", (int)lw, row->label);
		for (k = 0; k < t->ncols; k++)
			fprintf(fp, "  %*s", (int)cw, k < row->ncells ?
			    row->cells[k] : "");
		fputc('\n', fp);
	}
}
