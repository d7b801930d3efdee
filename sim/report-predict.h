/* report-predict.h: how well the run times predicted at submit
 * (policy/predict.h; gsim --predictions) matched the runs they were made
 * for, per rule that made them, a cold start's "none" among them, and in
 * all: as figures worked out from arrays, as rows of a text table and as
 * JSON. No I/O but the table's printing to the FILE it is given. */
#ifndef GB_SIM_REPORT_PREDICT_H
#define GB_SIM_REPORT_PREDICT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "policy/predict.h"

/* The rules, indexed by enum predict_how: PREDICT_NONE and the three. */
#define REPORT_PREDICT_RULES	(PREDICT_BY_GPUS + 1)

/* The figures of a set of jobs. Errors are |predicted - ran|; a figure
 * over no job is NAN (a cold start's jobs have no prediction to measure,
 * so all of "none"'s are). */
struct report_predict_row {
	size_t		jobs;
	double		share;		/* of all the jobs; NAN of none */
	size_t		predicted;	/* jobs the errors are over */
	double		median_abs;	/* seconds */
	double		mean_abs;	/* seconds */
	/* The median of |predicted - ran| / ran, over the jobs that ran
	 * longer than 0 (of 0, no ratio is defined). */
	double		median_rel;
	double		within2;	/* share within a factor of 2 */
	double		under;		/* share predicted shorter than ran */
};

struct report_predict {
	struct report_predict_row	rules[REPORT_PREDICT_RULES];
	/* Every job; its errors are over the jobs predicted. */
	struct report_predict_row	total;
};

/* The figures of n jobs: job i was guessed guesses[i] (its run_ms and
 * how) and ran ran_ms[i]. */
void	report_predict_figures(const struct predict_guess *guesses,
	    const int64_t *ran_ms, size_t n, struct report_predict *out);

/* Prints, after a blank line, the figures of nruns runs as one table: a
 * heading naming the runs (labels, borrowed), a line per rule, then the
 * total. Runs whose guesses say the same, job for job, share their lines
 * (whose jobs ended alike before each submit were guessed alike); a run
 * of NULL guesses (not asked) has none. guesses[k] and ran_ms have n
 * entries, as report_predict_figures takes them. */
void	report_predict_text(const struct predict_guess *const *guesses,
	    const char *const *labels, size_t nruns, const int64_t *ran_ms,
	    size_t n, FILE *fp);

/* One set's {"total": {...}, "by_rule": [{"rule": ..., ...}, ...]}, a
 * new reference; the rules by predict_how_name, "none" last. */
json_t	*report_predict_json(const struct report_predict *);

#endif
