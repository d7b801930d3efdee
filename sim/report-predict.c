/* report-predict.c: how well the predictions at submit matched the runs;
 * see report-predict.h.
 *
 * The figures are those a reader of "predicted 2h13m" wants: the median
 * and mean absolute error (durations are heavy-tailed, so the mean shows
 * what a few long misses cost and the median what a job usually sees),
 * the median relative error (a miss of ten minutes is nothing on a day's
 * run and everything on a minute's), the share within a factor of two (a
 * backfill promise survives that much) and the share predicted short (a
 * job backfilled on a short guess is the one that breaks a promise). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "sim/report-predict.h"
#include "sim/report-table.h"

/* The order of the rows: the most specific rule first, a cold start
 * last. */
static const enum predict_how report_predict_order[REPORT_PREDICT_RULES] = {
	PREDICT_BY_NAME, PREDICT_BY_USER_GPUS, PREDICT_BY_GPUS, PREDICT_NONE
};

static const char *const report_predict_heads[] = { "jobs", "share",
    "med |err|", "avg |err|", "med rel", "within 2x", "under" };

static int
report_predict_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* The median of v[0..n), sorting v; of an even count the mean of the
 * middle two, as report.c's quantiles; NAN of none. */
static double
report_predict_median(double *v, size_t n)
{
	if (n == 0)
		return (NAN);
	qsort(v, n, sizeof *v, report_predict_cmp);
	if (n % 2 == 1)
		return (v[n / 2]);
	return ((v[n / 2 - 1] + v[n / 2]) / 2);
}

/* The figures of the jobs of rule how, or of every job for how -1. abs
 * and rel are room for n figures. */
static void
report_predict_row(const struct predict_guess *g, const int64_t *ran,
    size_t n, int how, double *abs, double *rel,
    struct report_predict_row *row)
{
	double	err, sum = 0;
	size_t	i, nrel = 0, within = 0, under = 0;
	int64_t	p;

	memset(row, 0, sizeof *row);
	for (i = 0; i < n; i++) {
		if (how >= 0 && (int)g[i].how != how)
			continue;
		row->jobs++;
		if (g[i].how == PREDICT_NONE)
			continue;
		p = (int64_t)g[i].run_ms;
		err = (double)(p > ran[i] ? p - ran[i] : ran[i] - p);
		abs[row->predicted++] = err / 1000;
		sum += err;
		if (ran[i] > 0)
			rel[nrel++] = err / (double)ran[i];
		within += p * 2 >= ran[i] && p <= ran[i] * 2;
		under += p < ran[i];
	}
	row->share = n > 0 ? (double)row->jobs / (double)n : NAN;
	row->median_abs = report_predict_median(abs, row->predicted);
	row->median_rel = report_predict_median(rel, nrel);
	if (row->predicted == 0) {
		row->mean_abs = row->within2 = row->under = NAN;
		return;
	}
	row->mean_abs = sum / (double)row->predicted / 1000;
	row->within2 = (double)within / (double)row->predicted;
	row->under = (double)under / (double)row->predicted;
}

void
report_predict_figures(const struct predict_guess *guesses,
    const int64_t *ran_ms, size_t n, struct report_predict *out)
{
	double	*abs, *rel;
	int	 how;

	abs = xcalloc(n != 0 ? n : 1, sizeof *abs);
	rel = xcalloc(n != 0 ? n : 1, sizeof *rel);
	for (how = 0; how < REPORT_PREDICT_RULES; how++)
		report_predict_row(guesses, ran_ms, n, how, abs, rel,
		    &out->rules[how]);
	report_predict_row(guesses, ran_ms, n, -1, abs, rel, &out->total);
	free(rel);
	free(abs);
}

/* Whether the n guesses of a and b say the same, job for job. */
static int
report_predict_same(const struct predict_guess *a,
    const struct predict_guess *b, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (a[i].how != b[i].how || a[i].run_ms != b[i].run_ms ||
		    a[i].samples != b[i].samples)
			return (0);
	}
	return (1);
}

/* A cell of fmt for v, or "-" for NAN: nothing to measure. */
static void
report_predict_cell(struct report_table *t, const char *fmt, double v)
{
	if (isnan(v))
		report_table_cell(t, "-");
	else
		report_table_cell(t, fmt, v);
}

static void
report_predict_cells(struct report_table *t, const char *label,
    const struct report_predict_row *row)
{
	report_table_row(t, label);
	report_table_cell(t, "%zu", row->jobs);
	report_predict_cell(t, "%.1f%%", 100 * row->share);
	report_predict_cell(t, "%.1f", row->median_abs);
	report_predict_cell(t, "%.1f", row->mean_abs);
	report_predict_cell(t, "%.3f", row->median_rel);
	report_predict_cell(t, "%.1f%%", 100 * row->within2);
	report_predict_cell(t, "%.1f%%", 100 * row->under);
}

/* "run time predicted at submit, errors in s: a, b", of runs [from, to);
 * a new string. */
static char *
report_predict_title(const char *const *labels, size_t from, size_t to)
{
	char	*title, *more;
	size_t	 k;

	title = xasprintf("run time predicted at submit, errors in s: %s",
	    labels[from]);
	for (k = from + 1; k < to; k++) {
		more = xasprintf("%s, %s", title, labels[k]);
		free(title);
		title = more;
	}
	return (title);
}

void
report_predict_text(const struct predict_guess *const *guesses,
    const char *const *labels, size_t nruns, const int64_t *ran_ms, size_t n,
    FILE *fp)
{
	struct report_predict	 f;
	struct report_table	*t = NULL;
	char			*title;
	size_t			 k, m, i;

	for (k = 0; k < nruns; k = m) {
		for (m = k + 1; m < nruns && guesses[k] != NULL &&
		    guesses[m] != NULL && report_predict_same(guesses[k],
		    guesses[m], n); m++)
			;
		if (guesses[k] == NULL)
			continue;
		if (t == NULL)
			t = report_table_create(sizeof report_predict_heads /
			    sizeof report_predict_heads[0],
			    report_predict_heads);
		else
			report_table_row(t, "");
		title = report_predict_title(labels, k, m);
		report_table_row(t, title);
		free(title);
		report_predict_figures(guesses[k], ran_ms, n, &f);
		for (i = 0; i < REPORT_PREDICT_RULES; i++)
			report_predict_cells(t, predict_how_name(
			    report_predict_order[i]),
			    &f.rules[report_predict_order[i]]);
		report_predict_cells(t, "total", &f.total);
	}
	if (t == NULL)
		return;
	fputc('\n', fp);
	report_table_print(t, fp);
	report_table_free(t);
}

/* A figure rounded to six places, or null when it is NAN. */
static json_t *
report_predict_real(double v)
{
	return (isnan(v) ? json_null() : json_real(round(v * 1e6) / 1e6));
}

/* A row's object, named rule first where it has one. */
static json_t *
report_predict_row_json(const char *rule,
    const struct report_predict_row *row)
{
	json_t	*o = json_object();

	if (rule != NULL)
		json_object_set_new(o, "rule", json_string(rule));
	json_object_set_new(o, "jobs", json_integer((json_int_t)row->jobs));
	json_object_set_new(o, "predicted",
	    json_integer((json_int_t)row->predicted));
	json_object_set_new(o, "share", report_predict_real(row->share));
	json_object_set_new(o, "median_abs_error",
	    report_predict_real(row->median_abs));
	json_object_set_new(o, "mean_abs_error",
	    report_predict_real(row->mean_abs));
	json_object_set_new(o, "median_rel_error",
	    report_predict_real(row->median_rel));
	json_object_set_new(o, "within_2x", report_predict_real(row->within2));
	json_object_set_new(o, "under", report_predict_real(row->under));
	return (o);
}

json_t *
report_predict_json(const struct report_predict *f)
{
	json_t			*rules;
	enum predict_how	 how;
	size_t			 i;

	rules = json_array();
	for (i = 0; i < REPORT_PREDICT_RULES; i++) {
		how = report_predict_order[i];
		json_array_append_new(rules, report_predict_row_json(
		    predict_how_name(how), &f->rules[how]));
	}
	return (json_pack("{s:o, s:o}", "total", report_predict_row_json(NULL,
	    &f->total), "by_rule", rules));
}
