/* store-sql.h: the row and SQL of the jobs table, derived from common/job-field.h
 * so that no statement lists the columns by hand. Parameters are named
 * after their columns (":state"); a field kept in job_texts is bound as
 * ":script_id". Pure text building: store.c prepares what this writes. */
#ifndef GB_CTL_STORE_SQL_H
#define GB_CTL_STORE_SQL_H

#include <stdbool.h>

#include "common/job-field.h"

/* Where each field sits in struct store_job (store-row.h); JFK_DERIVED
 * fields have none. Its C type is what the field's kind reads. */
extern const size_t store_job_offset[JF_COUNT];

/* Each returns a new string the caller frees. */
/* INSERT INTO jobs of every stored field. */
char	*store_sql_job_insert(void);
/* INSERT INTO jobs a copy of job :from under :id, with its own
 * :array_task_id and :array_tasks (a job array's task split off). */
char	*store_sql_job_copy(void);
/* UPDATE jobs of the fields with flag, by :id: JFF_UPDATE, those a
 * transition changes, or JFF_EDIT, those of a request that may change. */
char	*store_sql_job_update(unsigned flag);
/* SELECT of every stored field FROM jobs, then tail (" WHERE ..."). texts:
 * script and env read from job_texts; otherwise '' (listings need
 * neither). pos[f] gets field f's result column, or -1. */
char	*store_sql_job_select(bool texts, const char *tail, int pos[JF_COUNT]);
/* The same, reading only the fields of set: the others get pos -1 and
 * are left as store_job_read_at leaves them (0, NULL). */
char	*store_sql_job_select_only(bool texts, struct job_field_set set,
	    const char *tail, int pos[JF_COUNT]);

#endif
