/* report-predict-test.c: gsim's figures of how well run times were
 * predicted (sim/report-predict.c): per rule and in all, on jobs whose
 * errors are worked out by hand; a cold start's jobs and a job that ran
 * 0 s, which no ratio measures; the table, where runs guessed alike share
 * their lines; and the JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "sim/report-predict.h"
#include "tests/unit/tap.h"

#define S	INT64_C(1000)

/* Whether got is want to 1e-9, or both are NAN (nothing measured). */
#define is_real(got, want, ...) do {					\
	double t_g = (got), t_w = (want);				\
	if (!ok(isnan(t_w) ? isnan(t_g) : fabs(t_g - t_w) < 1e-9,	\
	    __VA_ARGS__))						\
		printf("#   got %.12g, want %.12g\n", t_g, t_w);	\
} while (0)

/* Eight jobs: guessed (rule, run time), then how long they ran. */
static const struct predict_guess t_guesses[] = {
	{ 100 * S, 0, PREDICT_BY_NAME, 1 },		/* ran 100: exact */
	{ 50 * S, 0, PREDICT_BY_NAME, 2 },		/* ran 200: short */
	{ 300 * S, 0, PREDICT_BY_NAME, 3 },		/* ran 100: long */
	{ 60 * S, 0, PREDICT_BY_USER_GPUS, 2 },		/* ran 40 */
	{ 10 * S, 0, PREDICT_BY_USER_GPUS, 2 },		/* ran 0 */
	{ 0, 0, PREDICT_NONE, 0 },			/* ran 500 */
	{ 0, 0, PREDICT_NONE, 0 },			/* ran 30 */
	{ 90 * S, 0, PREDICT_BY_GPUS, 5 },		/* ran 100: short */
};
static const int64_t t_ran[] = { 100 * S, 200 * S, 100 * S, 40 * S, 0,
    500 * S, 30 * S, 100 * S };
#define T_N	(sizeof t_ran / sizeof t_ran[0])

static void
t_figures(void)
{
	struct report_predict		 f;
	const struct report_predict_row	*r;

	report_predict_figures(t_guesses, t_ran, T_N, &f);

	/* By name: errors 0, 150, 200 s; relative 0, 0.75, 2; only the
	 * first within a factor of 2 (50 is a quarter of 200, 300 three
	 * times 100); the second short. */
	r = &f.rules[PREDICT_BY_NAME];
	is_int(r->jobs, 3, "by name: 3 jobs");
	is_int(r->predicted, 3, "by name: 3 predicted");
	is_real(r->share, 3.0 / 8, "by name: 3 of 8");
	is_real(r->median_abs, 150, "by name: median |err| of 0, 150, 200");
	is_real(r->mean_abs, 350.0 / 3, "by name: mean |err| 350 / 3");
	is_real(r->median_rel, 0.75, "by name: median of 0, 0.75, 2");
	is_real(r->within2, 1.0 / 3, "by name: 1 of 3 within 2x");
	is_real(r->under, 1.0 / 3, "by name: 1 of 3 short");

	/* By user and GPUs: errors 20 and 10 s; 60 for 40 is within 2x;
	 * 10 for a run of 0 s has no ratio, is not within 2x of 0 and is
	 * not short. */
	r = &f.rules[PREDICT_BY_USER_GPUS];
	is_int(r->jobs, 2, "by user's GPUs: 2 jobs");
	is_real(r->share, 0.25, "by user's GPUs: 2 of 8");
	is_real(r->median_abs, 15, "by user's GPUs: median of 10, 20");
	is_real(r->mean_abs, 15, "by user's GPUs: mean of 10, 20");
	is_real(r->median_rel, 0.5, "by user's GPUs: a run of 0 s has no "
	    "ratio: 20 / 40 alone");
	is_real(r->within2, 0.5, "by user's GPUs: 60 for 40 within 2x, 10 "
	    "for 0 not");
	is_real(r->under, 0, "by user's GPUs: none short");

	r = &f.rules[PREDICT_BY_GPUS];
	is_int(r->jobs, 1, "by GPUs: 1 job");
	is_real(r->median_abs, 10, "by GPUs: 90 for 100");
	is_real(r->median_rel, 0.1, "by GPUs: 10 / 100");
	is_real(r->within2, 1, "by GPUs: within 2x");
	is_real(r->under, 1, "by GPUs: short");

	/* A cold start: counted, measured not at all. */
	r = &f.rules[PREDICT_NONE];
	is_int(r->jobs, 2, "none: 2 jobs");
	is_int(r->predicted, 0, "none: nothing predicted");
	is_real(r->share, 0.25, "none: 2 of 8");
	is_real(r->median_abs, NAN, "none: no median error");
	is_real(r->mean_abs, NAN, "none: no mean error");
	is_real(r->median_rel, NAN, "none: no relative error");
	is_real(r->within2, NAN, "none: no share within 2x");
	is_real(r->under, NAN, "none: no share short");

	/* In all: 8 jobs, the 6 predicted measured. Errors 0, 10, 10, 20,
	 * 150, 200: median 15, mean 65; ratios 0, 0.1, 0.5, 0.75, 2:
	 * median 0.5; within 2x jobs 1, 4, 8; short 2 and 8. */
	r = &f.total;
	is_int(r->jobs, 8, "total: 8 jobs");
	is_int(r->predicted, 6, "total: 6 predicted");
	is_real(r->share, 1, "total: all");
	is_real(r->median_abs, 15, "total: median |err| (10 + 20) / 2");
	is_real(r->mean_abs, 65, "total: mean |err| 390 / 6");
	is_real(r->median_rel, 0.5, "total: median ratio of five");
	is_real(r->within2, 0.5, "total: 3 of 6 within 2x");
	is_real(r->under, 2.0 / 6, "total: 2 of 6 short");

	/* No job at all: nothing is a share of nothing. */
	report_predict_figures(t_guesses, t_ran, 0, &f);
	is_int(f.total.jobs, 0, "no jobs: none counted");
	is_real(f.total.share, NAN, "no jobs: no share");
	is_real(f.rules[PREDICT_BY_NAME].median_abs, NAN, "no jobs: no error");
}

/* The lines of s that start with prefix, counted. */
static int
t_lines(const char *s, const char *prefix)
{
	const char	*p;
	int		 n = 0;
	size_t		 len = strlen(prefix);

	for (p = s; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL)
		n += strncmp(p, prefix, len) == 0;
	return (n);
}

/* Whether s has line, its runs of spaces read as one (the columns' widths
 * are report-table.c's to test). */
static int
t_has_line(const char *s, const char *line)
{
	char	*squeezed = malloc(strlen(s) + 2), *q = squeezed, *want;
	int	 found;

	*q++ = '\n';
	for (; *s != '\0'; s++) {
		if (*s != ' ' || q[-1] != ' ')
			*q++ = *s;
	}
	*q = '\0';
	if (asprintf(&want, "\n%s\n", line) == -1)
		abort();
	found = strstr(squeezed, want) != NULL;
	free(want);
	free(squeezed);
	return (found);
}

static char *
t_text(const struct predict_guess *const *g, const char *const *labels,
    size_t nruns)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp;

	fp = open_memstream(&buf, &len);
	report_predict_text(g, labels, nruns, t_ran, T_N, fp);
	fclose(fp);
	return (buf);
}

static void
t_text_runs(void)
{
	struct predict_guess		 other[T_N];
	const struct predict_guess	*g[4];
	const char			*labels[] = { "fifo", "dlas", "gittins",
					    "srtf" };
	char				*s;

	/* Not asked: nothing. */
	g[0] = g[1] = NULL;
	s = t_text(g, labels, 2);
	is_str(s, "", "no guesses: no table");
	free(s);

	/* fifo and dlas guessed alike share their lines; gittins was not
	 * asked; srtf guessed one job otherwise and has its own. */
	memcpy(other, t_guesses, sizeof other);
	other[7].run_ms = 100 * S;
	g[0] = g[1] = t_guesses;
	g[2] = NULL;
	g[3] = other;
	s = t_text(g, labels, 4);
	ok(s[0] == '\n', "the table comes after a blank line");
	is_int(t_lines(s, "run time predicted at submit, errors in s: fifo, "
	    "dlas\n"), 1, "runs guessed alike share a heading");
	is_int(t_lines(s, "run time predicted at submit, errors in s: srtf\n"),
	    1, "a run guessed otherwise has its own");
	is_int(t_lines(s, "run time predicted at submit"), 2,
	    "a run not asked has none");
	is_int(t_lines(s, "user's similar name "), 2, "a line a rule and run");
	is_int(t_lines(s, "none "), 2, "a cold start's line");
	ok(t_has_line(s, "user's similar name 3 37.5% 150.0 116.7 0.750 "
	    "33.3% 33.3%"), "by name: jobs, share, errors, within 2x, short");
	ok(t_has_line(s, "none 2 25.0% - - - - -"), "none: nothing measured");
	ok(t_has_line(s, "total 8 100.0% 15.0 65.0 0.500 50.0% 33.3%"),
	    "fifo and dlas: the total");
	/* srtf's last job exact: errors 0, 0, 10, 20, 150, 200 (median 15,
	 * mean 380 / 6), ratios 0, 0, 0.5, 0.75, 2; within 2x jobs 1, 4
	 * and 8; short job 2 alone. */
	ok(t_has_line(s, "total 8 100.0% 15.0 63.3 0.500 50.0% 16.7%"),
	    "srtf: its own total");
	free(s);
}

static void
t_json(void)
{
	struct report_predict	 f;
	json_t			*o, *rules;

	report_predict_figures(t_guesses, t_ran, T_N, &f);
	o = report_predict_json(&f);
	is_int(json_integer_value(json_object_get(json_object_get(o, "total"),
	    "predicted")), 6, "json: the total's predicted");
	is_real(json_real_value(json_object_get(json_object_get(o, "total"),
	    "mean_abs_error")), 65, "json: the total's mean error");
	rules = json_object_get(o, "by_rule");
	is_int(json_array_size(rules), 4, "json: four rules");
	is_str(json_string_value(json_object_get(json_array_get(rules, 0),
	    "rule")), "user's similar name", "json: the name first");
	is_str(json_string_value(json_object_get(json_array_get(rules, 3),
	    "rule")), "none", "json: a cold start last");
	ok(json_is_null(json_object_get(json_array_get(rules, 3),
	    "median_abs_error")), "json: none's error null");
	is_real(json_real_value(json_object_get(json_array_get(rules, 1),
	    "median_rel_error")), 0.5, "json: by user's GPUs' ratio");
	json_decref(o);
}

int
main(void)
{
	t_figures();
	t_text_runs();
	t_json();
	return (tap_done());
}
