/* job-row.h: one job of a JOB_LIST reply, as gq and gtop show it. A row
 * points into the reply's text (jscan), so a listing of 10,000 jobs is one
 * buffer and one array, and the fields are formatted only when printed. */
#ifndef GB_JOB_ROW_H
#define GB_JOB_ROW_H

#include <stddef.h>

#include <jansson.h>

#include "client/jscan.h"
#include "common/job-field.h"
#include "client/table.h"

struct array_set;

/* The members of one job object, indexed by enum job_field (common/
 * job-field.h names them); a member the reply lacks, or a field that is
 * never sent, has type JSCAN_NONE. */
struct job_row {
	struct jscan_val	v[JF_COUNT];
	struct jscan_val	obj;		/* the whole object */
};

/* Fills row from a job object. Returns 0, or -1 when obj is malformed. */
int	job_row_scan(const struct jscan_val *obj, struct job_row *row);
/* Fills row from a job of a listing asked with "rows": an array whose
 * element i is the field columns[i] (-1: a member job_row does not
 * know), ncolumns of them. Only those members are written: clear the row
 * once (memset to 0) and reuse it for every job under the same columns,
 * as a listing's walk does, rather than clear 60 members a job. Returns
 * 0, or -1 when arr is malformed or does not have ncolumns elements. */
int	job_row_scan_values(const struct jscan_val *arr, const int *columns,
	    size_t ncolumns, struct job_row *row);
/* A listing's rows hold at most this many values (JF_COUNT, and room for
 * the members a newer controller adds). */
#define JOB_ROW_MAX_COLUMNS	128

/* Appends to fields (a JSON array) the job members column col reads, so a
 * listing can ask the controller for just those (JOB_LIST "fields"). */
void	job_row_wire_fields(const char *col, json_t *fields);

/* The member a column (a name of job_row_cols) shows and sorts by, as an
 * enum job_field, or -1 for a name that is no column. */
int	job_row_sort_key(const char *col);

/* Compares two rows on one member (job_row_sort_key()): integers as
 * numbers (a time limit of 0, none, after every limit), strings as text,
 * a missing value before any other. Returns <0, 0 or >0. */
int	job_row_compare(const struct job_row *a, const struct job_row *b,
	    int key);

/* Whether key (a member name of a job object) is one job_row knows. */
int	job_row_knows(const struct jscan_val *key);

/* The fields gq -o accepts, in the order gq -l prints them. Their ctx is
 * NULL, or a job array's row shown a task at a time (gq -r): a pointer to
 * the task (uint32_t), which id, array_task_id and array_tasks show. */
extern const struct table_col	job_row_cols[];
extern const size_t		job_row_ncols;

/* A cell of the columns that print one member as it is, where it lies in
 * the reply (table_set_span): its length, with *p set, or (size_t)-1 for
 * a column or a value (escaped text) that takes job_row_cols' get. */
size_t	job_row_span(const void *row, const struct table_col *col,
	    const char **p);

/* For table_set_raw: in CSV, durations (run_time, queue_delay, cpu_time,
 * jct) as whole seconds and gpu_hours to six decimals; NULL for the
 * other columns. */
const char *job_row_raw(const void *row, const void *ctx,
	    const struct table_col *col, char *buf, size_t len);

/* A reason's short form, for a column too narrow for it (gtop at 80
 * columns): "Res" for Resources, "Begin" for BeginTime, "DepNever" for
 * DependencyNeverSatisfied, at most 8 characters; reason itself when it
 * is short already or not known. */
const char *job_row_reason_short(const char *reason);

/* The job's attained service in GPU-hours to six decimals, for CSV and
 * JSON (into buf); "" when the row has none. */
const char *job_row_gpu_hours_exact(const struct job_row *, char *buf,
	    size_t len);

/* gq's default columns. */
#define JOB_ROW_DEFAULT \
	"id,user,name,state,gpus,nodes,time,queue,attained,restarts," \
	"preemptions,reason"

/* The job's id as users write it (into buf, cut to len; returns the
 * length it needed): "42", a job array's task "42_7", or an array's row
 * standing for the tasks not yet started "42_[7-99%8]". */
size_t		job_row_jobid(const struct job_row *, char *buf, size_t len);
/* The GPUs a job holds (its alloc: an elastic job's count) or asks for;
 * -1 where the row has no gpus member. */
long long	job_row_gpus_held(const struct job_row *);
/* The tasks a job array's row stands for (gq -r, squeue -r unfold them)
 * into *tasks, freed with array_free. Returns 0, or -1 for any other job
 * (tasks then untouched). */
int		job_row_tasks(const struct job_row *, struct array_set *tasks);

#endif
