/* store-int.h: what store.c shares with the other files of the store
 * (store-acct.c), and no one else: reading a jobs row the way the field
 * table says. */
#ifndef GB_CTL_STORE_INT_H
#define GB_CTL_STORE_INT_H

#include <sqlite3.h>

#include "common/job-field.h"
#include "daemon/controller/store.h"

/* Where a jobs SELECT written by store_sql_job_select puts each field. */
extern int	 store_job_pos[JF_COUNT];
/* Fills r from st's current row (strings borrowed from st). */
void		 store_job_read(sqlite3_stmt *, struct store_job *r);
const char	*store_column_text(sqlite3_stmt *, int);
/* Fills r from a row of SELECT run, start_time, end_time, gpus, alloc,
 * end_state, exit_code, signal, preempt_time FROM job_runs. */
void		 store_run_read(sqlite3_stmt *, struct store_run *r);
/* The database file, while the store is open. */
const char	*store_path(void);
/* Ends every accounting query (store_close). */
void		 store_acct_close_all(void);

#endif
