/* table.h: the column output of gq and gnodes. A command describes its
 * fields once (name, header, how to format a cell); the table lets the user
 * pick fields with -o, sizes columns to their widest cell, and prints every
 * row through one buffered stream. Cells are formatted once into one arena,
 * so 10,000 rows cost a few allocations, not 80,000. */
#ifndef GB_TABLE_H
#define GB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct table_col {
	const char	*name;		/* what -o accepts */
	const char	*header;
	bool		 right;		/* align right (numbers) */
	/* Formats row's cell: returns buf (filled) or a string borrowed
	 * from row. ctx is what table_add() was given. */
	const char	*(*get)(const void *row, const void *ctx, char *buf,
			    size_t len);
};

struct table;

/* cols must outlive the table. Selects the fields in defaults, a list as
 * -o takes it. */
struct table	*table_create(const struct table_col *cols, size_t ncols,
		     const char *defaults);
void		 table_free(struct table *);

/* Replaces the selection with format, "FIELD[:WIDTH][,FIELD[:WIDTH]...]".
 * A WIDTH fixes the column's width and cuts longer cells. Returns 0, or -1
 * with err naming the bad field and listing the accepted ones. */
int		 table_select(struct table *, const char *format, char *err,
		     size_t errlen);

/* Formats one row's selected cells now; row need not outlive the call.
 * Select fields before the first row. Cells are escaped (safe-text.h:
 * "\e" for ESC, "\n" for a newline), so a job name cannot move the cursor
 * or break a row, and widths count the escaped form; an empty cell prints
 * as "-", so awk's $N still finds every column. */
void		 table_add(struct table *, const void *row, const void *ctx);

/* Prints the header (unless header is false) and the rows, columns
 * separated by two spaces, no trailing blanks. */
void		 table_print(struct table *, FILE *, bool header);

/* The selected columns, in order: how many, and the i-th (borrowed). */
size_t		 table_nselected(const struct table *);
const struct table_col *table_selected(const struct table *, size_t i);
/* Returns the field names as "a, b, c" (a new string the caller frees). */
char		*table_field_names(const struct table_col *, size_t);

#endif
