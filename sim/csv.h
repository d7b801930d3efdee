/* csv.h: the CSV files gsim reads (traces, GPU-time samples, cluster
 * specs): a header line naming the columns, then one record per line.
 * Fields may be double-quoted ("a, b" and "say ""hi"""); spaces around an
 * unquoted field are dropped; blank lines are skipped. Errors read
 * "FILE:LINE: what was wrong". */
#ifndef GB_SIM_CSV_H
#define GB_SIM_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct csv {
	FILE		 *fp;
	const char	 *path;
	unsigned	  line;		/* of the record last read */
	char		 *buf;
	size_t		  bufsize;
	char		**fields;	/* into buf */
	size_t		  nfields, fieldsize;
	char		**names;	/* the header's, owned */
	size_t		  nnames;
};

/* Opens path and reads its header. Returns 0, or -1 with the reason. */
int		 csv_open(struct csv *, const char *path, char *, size_t);
void		 csv_close(struct csv *);
/* The index of the first column named one of names (a NULL-terminated
 * list, compared without case), or -1. */
int		 csv_column(const struct csv *, const char *const *names);
/* The header's names as "a, b, c", for messages; a new string. */
char		*csv_header(const struct csv *);
/* Reads the next record: 1, 0 at the end, -1 with the reason. */
int		 csv_next(struct csv *, char *, size_t);
const char	*csv_field(const struct csv *, int);

/* Field parsers for record values; each returns 0, or -1 with
 * "FILE:LINE: column: what was wrong, what is accepted" in err. */
/* Seconds, fractions allowed, >= 0 (or > 0 when positive), as ms. */
int		 csv_seconds(const struct csv *, int col, const char *colname,
		     int positive, int64_t *ms, char *, size_t);
/* A whole number in [min, max]. */
int		 csv_uint(const struct csv *, int col, const char *colname,
		     uint64_t min, uint64_t max, uint64_t *, char *, size_t);

#endif
