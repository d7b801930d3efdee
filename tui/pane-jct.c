/* pane-jct.c: job completion times and queueing delays of the jobs that
 * ended in a window (1, 2, 3: the last hour, day or week), from the
 * cluster report gacct --report cluster prints for the same window:
 *
 * - sparklines of the GPU use and the jobs waiting over the window (the
 *   report's series, PANE_JCT_BINS bins: gacct --report timeline);
 * - for the whole cluster, each queue level and each GPU-count bucket,
 *   the report's rows in its columns (client/acct-row.h);
 * - the JCT histogram: the jobs of each JCT range (its "jct" rows). */
#include <stdio.h>
#include <string.h>

#include "client/acct-row.h"
#include "tui/chart.h"
#include "tui/pane.h"

#define PANE_JCT_COLS	"group,key,jobs,jct_avg,jct_median,jct_p95," \
			"wait_avg,wait_median,wait_p95,gpu_hours,utilization"
/* Under PANE_JCT_WIDE columns (beside the queues, say) the table leaves
 * out what the sparkline above it shows, and the median wait. */
#define PANE_JCT_NARROW	"group,key,jobs,jct_avg,jct_median,jct_p95," \
			"wait_avg,wait_p95"
#define PANE_JCT_WIDE	100
/* The sparklines' and the histogram's labels. */
#define PANE_JCT_LABEL	9

static const char *const pane_jct_names[] = { "1 h", "24 h", "7 d" };
/* A bin of each window (PANE_JCT_BINS of them). */
static const char *const pane_jct_bins[] = { "1 min", "24 min", "2.8 h" };

static const char *
pane_jct_bin_name(int window)
{
	return (pane_jct_bins[window]);
}
const int64_t pane_jct_windows[PANE_JCT_WINDOWS] = { 3600, 86400,
    7 * 86400 };

struct pane_jct_draw {
	struct grid		*g;
	const struct rect	*r;
	int			 y;	/* where the table's heading goes */
};

static void
pane_jct_line(void *arg, long row, const char *s, size_t len)
{
	struct pane_jct_draw	*d = arg;
	int			 y = d->y + 1 + (int)row;

	if (y >= d->r->y + d->r->h)
		return;
	grid_put(d->g, y, d->r->x + 1, d->r->w - 1, s, len, row < 0 ?
	    ROLE_HEADING : ROLE_NORMAL);
}

/* Whether a report row is the histogram's (group "jct"). */
static bool
pane_jct_is_range(const json_t *row)
{
	const char	*group = json_string_value(json_object_get(row,
			    "group"));

	return (group != NULL && strcmp(group, "jct") == 0);
}

/* The rows of the table and of the histogram. */
static void
pane_jct_count(const json_t *rows, int *table, int *ranges)
{
	size_t	i;

	*table = *ranges = 0;
	for (i = 0; i < json_array_size(rows); i++) {
		if (pane_jct_is_range(json_array_get(rows, i)))
			(*ranges)++;
		else
			(*table)++;
	}
}

int
pane_jct_rows(const struct view *v)
{
	const json_t	*rows = json_object_get(v->m->acct[MODEL_ACCT_WINDOW],
			    "rows");
	int		 table, ranges;

	pane_jct_count(rows, &table, &ranges);
	/* The title, two sparklines, the table's heading and rows, and
	 * the histogram's heading and ranges. */
	return (1 + 2 + 1 + table + (ranges > 0 ? 1 + ranges : 0));
}

/* A sparkline of the series' member key (a number per bin; null is not
 * known), then what it says now, at y. */
static void
pane_jct_spark(struct grid *g, const struct rect *r, int y,
    const struct view *v, const char *label, const char *key, bool pct,
    const json_t *all)
{
	const json_t	*series = json_object_get(
			    v->m->acct[MODEL_ACCT_WINDOW], "series");
	double		 vals[PANE_JCT_BINS], max = 0, last = -1;
	size_t		 n = json_array_size(series), i;
	const json_t	*x;
	char		 tail[96];
	int		 w, drawn, x0 = r->x + 1 + PANE_JCT_LABEL;

	grid_puts(g, y, r->x + 1, PANE_JCT_LABEL, label, ROLE_HEADING);
	if (n > PANE_JCT_BINS)
		n = PANE_JCT_BINS;
	for (i = 0; i < n; i++) {
		x = json_object_get(json_array_get(series, i), key);
		vals[i] = json_is_number(x) ? json_number_value(x) : -1;
		if (vals[i] > max)
			max = vals[i];
	}
	if (n > 0)
		last = vals[n - 1];
	if (pct) {
		max = 100;
		x = json_object_get(all, "utilization");
		/* Not the header's count of GPUs held now: the share of
		 * GPU-time held over the last bin, and over the window. */
		if (last < 0)
			snprintf(tail, sizeof tail, " no GPUs up now");
		else
			snprintf(tail, sizeof tail, " %.0f%% in the last %s",
			    last, pane_jct_bin_name(v->window));
		if (json_is_number(x))
			snprintf(tail + strlen(tail), sizeof tail -
			    strlen(tail), ", %.1f%% over %s",
			    json_number_value(x), pane_jct_names[v->window]);
	} else
		snprintf(tail, sizeof tail, " now %.1f, at most %.1f",
		    last > 0 ? last : 0, max);
	w = r->x + r->w - x0 - (int)strlen(tail);
	if (w < 8)
		w = r->x + r->w - x0;
	drawn = chart_spark(g, y, x0, w, vals, n, max, v->utf8, ROLE_METER);
	if (n == 0)
		drawn = grid_puts(g, y, x0, r->x + r->w - x0,
		    "(asking gbatchd)", ROLE_DIM);
	grid_puts(g, y, x0 + drawn, r->x + r->w - x0 - drawn, tail, ROLE_DIM);
}

/* The jobs of each JCT range, from y: a bar scaled to the largest, the
 * count and its share of the jobs. */
static void
pane_jct_histogram(struct grid *g, const struct rect *r, int y,
    const struct view *v, const json_t *rows, const json_t *all)
{
	const json_t	*row;
	double		 most = 0, n, total;
	char		 tail[48];
	size_t		 i;
	int		 w, x = r->x + 1 + PANE_JCT_LABEL, end = r->x + r->w;

	total = (double)json_integer_value(json_object_get(all, "jobs"));
	for (i = 0; i < json_array_size(rows); i++) {
		row = json_array_get(rows, i);
		n = (double)json_integer_value(json_object_get(row, "jobs"));
		if (pane_jct_is_range(row) && n > most)
			most = n;
	}
	if (y >= r->y + r->h)
		return;
	grid_puts(g, y++, r->x + 1, r->w - 1, "JCT      jobs that ended, by "
	    "completion time", ROLE_HEADING);
	for (i = 0; i < json_array_size(rows) && y < r->y + r->h; i++) {
		row = json_array_get(rows, i);
		if (!pane_jct_is_range(row))
			continue;
		n = (double)json_integer_value(json_object_get(row, "jobs"));
		grid_puts(g, y, r->x + 1, PANE_JCT_LABEL, json_string_value(
		    json_object_get(row, "key")), ROLE_NORMAL);
		snprintf(tail, sizeof tail, " %7.0f %5.1f%%", n, total > 0 ?
		    100 * n / total : 0);
		w = end - x - (int)strlen(tail);
		if (w > 40)
			w = 40;
		chart_bar(g, y, x, w, n, most, v->utf8, ROLE_METER);
		grid_puts(g, y, x + (w > 0 ? w : 0), end - x - (w > 0 ? w : 0),
		    tail, ROLE_NORMAL);
		y++;
	}
}

static void
pane_jct_draw(struct grid *g, const struct rect *r, struct view *v)
{
	static struct table	*wide, *narrow;
	struct table		*t;
	struct pane_jct_draw	 d = { g, r, r->y + 3 };
	const json_t		*rows = json_object_get(
				    v->m->acct[MODEL_ACCT_WINDOW], "rows");
	const json_t		*all = json_array_get(rows, 0);
	char			 title[160];
	int			 table, ranges;
	size_t			 i;

	snprintf(title, sizeof title, "JCT, waits (s): jobs that ended in "
	    "the last %s  [1 2 3: hour, day, week]",
	    pane_jct_names[v->window]);
	pane_title(g, r, title, false);
	if (rows == NULL) {
		grid_puts(g, r->y + 1, r->x + 1, r->w - 1, "asking gbatchd...",
		    ROLE_DIM);
		return;
	}
	if (r->h > 1)
		pane_jct_spark(g, r, r->y + 1, v, "GPU time", "utilization",
		    true, all);
	if (r->h > 2)
		pane_jct_spark(g, r, r->y + 2, v, "waiting", "waiting", false,
		    all);
	if (wide == NULL) {
		wide = acct_row_table(ACCT_ROW_CLUSTER, PANE_JCT_COLS);
		narrow = acct_row_table(ACCT_ROW_CLUSTER, PANE_JCT_NARROW);
	}
	t = r->w < PANE_JCT_WIDE ? narrow : wide;
	table_clear(t);
	for (i = 0; i < json_array_size(rows); i++) {
		if (json_is_object(json_array_get(rows, i)) &&
		    !pane_jct_is_range(json_array_get(rows, i)))
			table_add(t, json_array_get(rows, i), NULL);
	}
	table_render(t, true, pane_jct_line, &d);
	pane_jct_count(rows, &table, &ranges);
	if (ranges > 0)
		pane_jct_histogram(g, r, d.y + 1 + table, v, rows, all);
}

static int
pane_jct_key(struct view *v, int ch)
{
	(void)v;
	(void)ch;
	return (0);
}

const struct pane_ops pane_jct = {
	"jct", pane_jct_draw, pane_jct_key
};
