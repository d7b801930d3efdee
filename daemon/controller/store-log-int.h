/* store-log-int.h: what store-log.c (recording) and store-log-apply.c
 * (applying) share: a table as both see it, and the log's format.
 *
 * A change log is a format byte (STORE_LOG_FORMAT) and the number of
 * changes (u32), then the changes:
 *   'D' table key...    the row with this key is gone
 *   'P' table values... the row is now this (every column, in order)
 * A table is a u16 length and its name (numbers are little endian); a count of values (u16) comes
 * before the values; a value is a type byte (SQLITE_INTEGER, _FLOAT,
 * _TEXT, _BLOB, _NULL) and then 8 bytes (an integer or a double, little
 * endian) or a u32 length and the bytes (text, blob) or nothing (null).
 * Every deletion comes before every row written, so a unique value that
 * moved from one row to another in a transaction is free when it is
 * written. */
#ifndef GB_CTL_STORE_LOG_INT_H
#define GB_CTL_STORE_LOG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "daemon/controller/store-log.h"

#define STORE_LOG_FORMAT	1
#define STORE_LOG_HEAD		5

/* A growing buffer. */
struct store_log_buf {
	uint8_t	*p;
	size_t	 len, cap;
};

/* A key the open transaction touched: where its bytes (encoded values)
 * are in the table's arena, and whether the row was there before. */
struct store_log_key {
	size_t	 off, len;
	bool	 existed;
};

struct store_log_table {
	char			*name;
	int			 n_col;
	int			 n_pk;
	int			*pk;	/* the key's columns, in the key's order */
	sqlite3_stmt		*get;	/* SELECT * ... WHERE key = ?1.. */
	sqlite3_stmt		*put;	/* INSERT ... ON CONFLICT (key) DO UPDATE */
	sqlite3_stmt		*del;	/* DELETE ... WHERE key = ?1.. */
	/* The keys touched, in order, with a hash index on them (slots
	 * hold an index + 1; 0 is free). */
	struct store_log_key	*keys;
	size_t			 n_keys, cap_keys;
	uint32_t		*slots;
	size_t			 n_slots;
	struct store_log_buf	 arena;
};

/* The table named so, read from the schema and its statements prepared
 * on first use. NULL with err set if there is no such table or it has no
 * primary key. */
struct store_log_table *store_log_table(struct store_log *, sqlite3 *,
	    const char *name, char *err, size_t errlen);

/* A reader over a log's bytes. */
struct store_log_in {
	const uint8_t	*p, *end;
};

/* Binds the next value in to parameter i of st and moves past it:
 * SQLite's code, SQLITE_CORRUPT with err set when the bytes end inside
 * the value or its type is unknown. */
int	store_log_bind(struct store_log_in *, sqlite3_stmt *, int i,
	    char *err, size_t errlen);

/* 0 if db has no transaction open, else -1 with err set: logs apply,
 * and images are read and written, outside any. */
int	store_log_idle(sqlite3 *, char *err, size_t errlen);

void	store_log_put(struct store_log_buf *, const void *, size_t);
void	store_log_put_u16(struct store_log_buf *, unsigned);
/* v NULL writes a null. */
void	store_log_put_value(struct store_log_buf *, sqlite3_value *);

#endif
