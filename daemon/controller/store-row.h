/* store-row.h: the rows gbatchd's database reads and writes (store.h): a
 * job's row, derived from common/job-field.h, a node's and a run's. Apart
 * from store.h so that the SQL built from the same field list
 * (store-sql.c) needs the row's layout alone. */
#ifndef GB_CTL_STORE_ROW_H
#define GB_CTL_STORE_ROW_H

#include <stdbool.h>
#include <stdint.h>

#include "common/job-field.h"
#include "common/job-state.h"

/* One row of the jobs table: the fields of common/job-field.h, under their
 * member names. Strings are borrowed: from the caller when writing, from
 * SQLite when reading (valid until the next store call). Times are seconds
 * since the epoch (0: never), except the scheduling fields' milliseconds
 * (attained in GPU-ms, executed, run_total, first_start, last_stop). */
#define STORE_JOB_MEMBER(e, m, t, c, w, k, f)	t m;
#define STORE_JOB_NO_MEMBER(e, w)
struct store_job {
	JOB_FIELDS(STORE_JOB_MEMBER, STORE_JOB_NO_MEMBER)
	bool		 has_exit;	/* exit_code and signal are known */
};
#undef STORE_JOB_MEMBER
#undef STORE_JOB_NO_MEMBER

struct store_node {
	const char	*name;
	uint32_t	 gpus;
	bool		 drained;
	const char	*reason;
	int64_t		 last_seen;
};

/* One run of a job (job_runs): from a start to the stop that ended it.
 * alloc is every part, "n1:0x3,n2:0x3"; end_state is a finished state,
 * PREEMPTED or REQUEUED, '' while it runs. Times in seconds, 0: none. */
struct store_run {
	uint32_t	 run;		/* the job's restarts at its start */
	int64_t		 start_time;
	int64_t		 end_time;
	uint32_t	 gpus;
	const char	*alloc;
	const char	*end_state;
	bool		 has_exit;
	int		 exit_code;
	int		 signal;
	int64_t		 preempt_time;	/* when preemption began, 0: never */
};

#endif
