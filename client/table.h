/* table.h: the column output of gq, gnodes and gacct. A command describes
 * its fields once (name, header, how to format a cell); the table lets the
 * user pick fields with -o and prints every row in one of four formats:
 *
 * TABLE_ALIGNED (the default; gq, gnodes, gacct on a terminal): columns
 *	sized to their widest cell and separated by two spaces, no trailing
 *	blanks; a single column (-o id) is not padded at all. Rows are kept until table_end() (or table_flush()),
 *	formatted once into one arena, so 10,000 rows cost a few
 *	allocations, not 80,000.
 * TABLE_PLAIN (gacct when stdout is not a terminal): the same cells, one
 *	TAB between them and no padding.
 * TABLE_PARSABLE (sacct -P): cells separated by '|', no trailing '|'.
 * TABLE_CSV: RFC 4180, with its CRLF line ends.
 *
 * The last three are streamed: table_add() writes the row at once (into
 * the stream's buffer), so a million rows cost no memory.
 *
 * What a cell holds is made safe for where it goes:
 * - ALIGNED and PLAIN escape control characters and bytes that are not
 *   UTF-8 as safe-text.h does ("\t" for a TAB, "\n" for a newline, "\e"
 *   for ESC, \xHH, \u0080 to \u009f), so a job name can neither steer the
 *   terminal nor split a row; an empty cell is "-", so awk's $N finds every
 *   column; a fixed width (-o name:10) cuts the escaped cell.
 * - PARSABLE escapes as safe-text.h does and also writes a '|' in a cell as
 *   "\x7c" and a backslash as "\\". No '|' is left inside a cell, so
 *   cut -d'|', awk -F'|' or IFS='|' read split every line into exactly one
 *   field per column,
 *   and the escaping reverses: "\\" is a backslash, "\n" "\r" "\t" "\e" a
 *   newline, return, TAB and ESC, "\xHH" the byte HH (7c: '|') and "\u00HH"
 *   the character U+00HH. An empty cell is empty.
 * - CSV writes cells as they are, so the data round-trips: a cell holding
 *   a comma, a double quote, CR, LF, or a space or TAB at either end is
 *   quoted, its quotes doubled; a newline stays a newline inside the
 *   quotes. An empty cell is empty (quoted, "", when it is the only
 *   column, so the row is not a blank line that readers skip). When the
 *   stream is a terminal, control characters are escaped first, as for
 *   ALIGNED: text from users never reaches a terminal raw.
 * Widths cut only in ALIGNED and PLAIN: the machine formats carry whole
 * cells. The header line holds the columns' headers in ALIGNED and PLAIN
 * and the field names (what -o takes) in PARSABLE and CSV. */
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

enum table_format {
	TABLE_ALIGNED,
	TABLE_PLAIN,
	TABLE_PARSABLE,
	TABLE_CSV,
};

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

/* Picks the format, the stream and whether a header line comes first.
 * Call it before the first row; without it a table is TABLE_ALIGNED on
 * stdout with a header. For CSV, whether out is a terminal is asked here. */
void		 table_set_format(struct table *, enum table_format, FILE *out,
		     bool header);

/* A quicker way to a cell: span gives the cell's bytes where they already
 * lie (*p and the length returned, not NUL-terminated), which the table
 * takes as they are rather than have get() copy them; (size_t)-1 sends
 * that cell to get(). For rows that point into a reply (gq's). */
typedef size_t	(*table_span_fn)(const void *row, const struct table_col *col,
		    const char **p);
void		 table_set_span(struct table *, table_span_fn);
/* A cell's form for a machine, in CSV alone: raw gives it (into buf) for
 * the columns whose text for people is not a number a spreadsheet reads
 * as the same (a duration "1:22" it takes for a time of day: 82), or
 * NULL to take get()'s. */
typedef const char *(*table_raw_fn)(const void *row, const void *ctx,
		    const struct table_col *col, char *buf, size_t len);
void		 table_set_raw(struct table *, table_raw_fn);

/* Formats one row's selected cells (see above); row need not outlive the
 * call. Select fields before the first row. An aligned table keeps the
 * row; the other formats write it now, the header line before the first.
 * May block on the stream. */
void		 table_add(struct table *, const void *row, const void *ctx);

/* Finishes the table: an aligned table prints its header and rows; a
 * streamed one prints the header if no row came (so a listing that matched
 * nothing is still a header). Then flushes the stream. A second call only
 * flushes; add no row after it. Returns 0, or -1 when writing failed (a
 * full disk, a closed pipe; errno says why). */
int		 table_end(struct table *);

/* Prints an aligned table's header (unless header is false) and rows to f,
 * as table_end() does without table_set_format(). */
void		 table_print(struct table *, FILE *, bool header);

/* Prints an aligned table's header (unless header is false) and the rows
 * kept so far to f, as table_print() does, and drops them; from then on
 * each row added is formatted at once, at the widths reached (a wider
 * cell widens its column from its own row on), and written in 64 KiB
 * writes, the rest at the next table_flush() or table_end(). For a
 * listing that arrives in parts (gq): its first rows size the columns,
 * and memory stays flat whatever the rows that follow. table_end() calls
 * it. */
void		 table_flush(struct table *, FILE *, bool header);

/* Hands an aligned table's lines, as table_print() writes them but without
 * their newlines, to fn: the header (row -1, unless header is false), then
 * each row by its index. s is valid during the call only. For a caller
 * that draws the lines itself (gtop, into a curses window). */
typedef void	(*table_line_fn)(void *arg, long row, const char *s,
		    size_t len);
void		 table_render(struct table *, bool header, table_line_fn fn,
		     void *arg);
/* Drops an aligned table's rows, keeping its fields, for the next
 * refresh's. */
void		 table_clear(struct table *);
size_t		 table_nrows(const struct table *);

/* The selected columns, in order: how many, and the i-th (borrowed). */
size_t		 table_nselected(const struct table *);
const struct table_col *table_selected(const struct table *, size_t i);
/* Returns the field names as "a, b, c" (a new string the caller frees). */
char		*table_field_names(const struct table_col *, size_t);

#endif
