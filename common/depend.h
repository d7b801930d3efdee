/* depend.h: job dependencies as sbatch's --dependency writes them, parsed
 * and judged. Pure: gsub checks a user's text with it, gbatchd parses the
 * stored text again and judges each condition from the other job's state.
 *
 *	after:ID[:ID...]	the jobs have started (or ended without)
 *				(ID: a job, a job array (all its tasks),
 *				or ID_TASK one task of one)
 *	afterany:ID[:ID...]	the jobs have ended, however
 *	afterok:ID[:ID...]	the jobs have completed (exit 0)
 *	afternotok:ID[:ID...]	the jobs have ended otherwise (failed,
 *				timed out, cancelled, lost)
 *	singleton		no earlier job of the same user and name is
 *				still to end
 *
 * Conditions are joined by ',' (all must hold) or by '?' (one must), not
 * both in one text. */
#ifndef GB_DEPEND_H
#define GB_DEPEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-state.h"

/* At most this many conditions in one job's text. */
#define DEPEND_MAX	1024

enum depend_type {
	DEPEND_AFTER,
	DEPEND_AFTERANY,
	DEPEND_AFTEROK,
	DEPEND_AFTERNOTOK,
	DEPEND_SINGLETON,
};

/* One condition on one job (job 0 for singleton): a job, a whole job
 * array (its id; every task must meet it), or one task of an array
 * (ID_TASK; task -1 for none). */
struct depend_item {
	enum depend_type	 type;
	uint64_t		 job;
	int32_t			 task;
};

struct depend {
	struct depend_item	*items;
	size_t			 n;
	bool			 any;		/* joined by '?' */
};

/* How a condition, or a whole text, stands. */
enum depend_state {
	DEPEND_WAIT,		/* not yet */
	DEPEND_MET,
	DEPEND_NEVER,		/* can never be met */
};

/* Parses s into d (its items freed with depend_free). Returns 0, or -1
 * with err saying what is wrong and what is accepted. */
int		 depend_parse(const char *s, struct depend *d, char *err,
		     size_t errlen);
void		 depend_free(struct depend *);
/* Whether a condition of d waits for job, or with task >= 0, for task
 * task of job array job: one naming the job (or the whole array), or that
 * task; with task -1, any naming job at all. */
bool		 depend_waits_for(const struct depend *d, uint64_t job,
		     int32_t task);
/* The text of d, as depend_parse reads it, into buf (cut to len). */
void		 depend_format(const struct depend *d, char *buf, size_t len);

/* How a condition of type on a job now in state stands; started: that job
 * has run (a start time). Not for singleton. */
enum depend_state depend_judge(enum depend_type type, enum job_state state,
		     bool started);
/* Joins the states of d's items (one per item, in order). */
enum depend_state depend_combine(const struct depend *d,
		     const enum depend_state *each);

/* "afterok", ... */
const char	*depend_type_name(enum depend_type);

#endif
