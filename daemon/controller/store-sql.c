/* store-sql.c: the jobs table's row layout and statements, written from
 * job_fields. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/store-row.h"
#include "daemon/controller/store-sql.h"

/* Each field's place in struct store_job; its C type must be what its
 * kind reads and writes. */
#define STORE_JOB_OFFSET(e, m, t, c, w, k, f)				\
	[JF_##e] = offsetof(struct store_job, m),
#define STORE_JOB_NO_OFFSET(e, w)
const size_t store_job_offset[JF_COUNT] = {
	JOB_FIELDS(STORE_JOB_OFFSET, STORE_JOB_NO_OFFSET)
};
#define STORE_JOB_TYPE_CHECK(e, m, t, c, w, k, f)			\
	_Static_assert(((k) != JFK_U64 && (k) != JFK_I64) ||		\
	    sizeof(t) == 8, #m ": a 64-bit kind needs a 64-bit member");	\
	_Static_assert(((k) != JFK_U32 && (k) != JFK_INT &&		\
	    (k) != JFK_EXIT && (k) != JFK_NULLINT && (k) != JFK_STATE) ||	\
	    sizeof(t) == 4, #m ": a 32-bit kind needs a 32-bit member");	\
	_Static_assert(((k) != JFK_TEXT && (k) != JFK_TEXT0 &&		\
	    (k) != JFK_TEXTREF) || sizeof(t) == sizeof(char *),		\
	    #m ": a text kind needs a string member");
JOB_FIELDS(STORE_JOB_TYPE_CHECK, STORE_JOB_NO_OFFSET)

/* A growing string. */
struct store_sql_buf {
	char	*s;
	size_t	 len;
	size_t	 size;
};

static void
store_sql_add(struct store_sql_buf *b, const char *a, const char *c,
    const char *d)
{
	const char	*parts[3] = { a, c, d };
	size_t		 i, n;

	for (i = 0; i < 3; i++) {
		if (parts[i] == NULL)
			continue;
		n = strlen(parts[i]);
		if (b->len + n + 1 > b->size) {
			b->size = (b->len + n + 1) * 2;
			b->s = xrealloc(b->s, b->size);
		}
		memcpy(b->s + b->len, parts[i], n + 1);
		b->len += n;
	}
}

/* INSERT INTO jobs of every stored field: from bound values, or (copy)
 * from job :from's row with its own :id, :array_task_id and :array_tasks;
 * a job_texts reference is bound, or the copy shares the row's. */
static char *
store_sql_job_write(bool copy)
{
	struct store_sql_buf	 cols = { NULL, 0, 0 }, vals = { NULL, 0, 0 };
	const struct job_field_desc *d;
	int			 f;
	bool			 bound;
	char			*sql;

	for (f = 0; f < JF_COUNT; f++) {
		d = &job_fields[f];
		if (d->column == NULL)
			continue;
		bound = !copy || f == JF_ID || f == JF_ARRAY_TASK_ID ||
		    f == JF_ARRAY_TASKS;
		store_sql_add(&cols, cols.len > 0 ? ", " : "", d->column, NULL);
		if (d->kind == JFK_TEXTREF) {
			/* The row keeps '' and points at job_texts. */
			store_sql_add(&cols, ", ", d->column, "_id");
			store_sql_add(&vals, vals.len > 0 ? ", " : "", "''",
			    NULL);
			if (copy)
				store_sql_add(&vals, ", ", d->column, "_id");
			else
				store_sql_add(&vals, ", :", d->column, "_id");
		} else if (bound)
			store_sql_add(&vals, vals.len > 0 ? ", :" : ":",
			    d->column, NULL);
		else
			store_sql_add(&vals, vals.len > 0 ? ", " : "",
			    d->column, NULL);
	}
	sql = copy ? xasprintf("INSERT INTO jobs (%s) SELECT %s FROM jobs WHERE"
	    " id = :from", cols.s, vals.s) : xasprintf("INSERT INTO jobs (%s)"
	    " VALUES (%s)", cols.s, vals.s);
	free(cols.s);
	free(vals.s);
	return (sql);
}

char *
store_sql_job_insert(void)
{
	return (store_sql_job_write(false));
}

char *
store_sql_job_copy(void)
{
	return (store_sql_job_write(true));
}

char *
store_sql_job_update(unsigned flag)
{
	struct store_sql_buf	 set = { NULL, 0, 0 };
	const struct job_field_desc *d;
	int			 f;
	char			*sql;

	for (f = 0; f < JF_COUNT; f++) {
		d = &job_fields[f];
		if (d->column == NULL || (d->flags & flag) == 0)
			continue;
		store_sql_add(&set, set.len > 0 ? ", " : "", d->column,
		    " = :");
		store_sql_add(&set, d->column, NULL, NULL);
	}
	sql = xasprintf("UPDATE jobs SET %s WHERE id = :id", set.s);
	free(set.s);
	return (sql);
}

char *
store_sql_job_select(bool texts, const char *tail, int pos[JF_COUNT])
{
	return (store_sql_job_select_only(texts, jfs_all(), tail, pos));
}

char *
store_sql_job_select_only(bool texts, struct job_field_set set,
    const char *tail, int pos[JF_COUNT])
{
	struct store_sql_buf	 cols = { NULL, 0, 0 };
	const struct job_field_desc *d;
	const char		*c;
	int			 f, n = 0;
	char			*sql;

	for (f = 0; f < JF_COUNT; f++) {
		d = &job_fields[f];
		pos[f] = -1;
		if ((c = d->column) == NULL || !jfs_has(set, f))
			continue;
		pos[f] = n++;
		store_sql_add(&cols, cols.len > 0 ? ", " : "", NULL, NULL);
		if (d->kind != JFK_TEXTREF)
			store_sql_add(&cols, c, NULL, NULL);
		else if (!texts)
			store_sql_add(&cols, "''", NULL, NULL);
		else {
			/* A job of schema 1 has its text inline, id 0. */
			store_sql_add(&cols, "CASE WHEN ", c, "_id = 0 THEN ");
			store_sql_add(&cols, c, " ELSE (SELECT text FROM "
			    "job_texts WHERE job_texts.id = ", c);
			store_sql_add(&cols, "_id) END", NULL, NULL);
		}
	}
	sql = xasprintf("SELECT %s FROM jobs%s", cols.s, tail);
	free(cols.s);
	return (sql);
}
