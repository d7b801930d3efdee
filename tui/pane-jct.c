/* pane-jct.c: job completion times and queueing delays of the jobs that
 * ended in a window (1, 2, 3: the last hour, day or week), for the whole
 * cluster, each queue level and each GPU-count bucket, with the GPU-hours
 * used and the utilization: the rows gacct --report cluster prints for the
 * same window, in its columns (client/acct-row.h). */
#include <stdio.h>

#include "client/acct-row.h"
#include "tui/pane.h"

#define PANE_JCT_COLS	"group,key,jobs,jct_avg,jct_median,jct_p95," \
			"wait_avg,wait_median,wait_p95,gpu_hours,utilization"

static const char *const pane_jct_names[] = { "1 h", "24 h", "7 d" };
const int64_t pane_jct_windows[PANE_JCT_WINDOWS] = { 3600, 86400,
    7 * 86400 };

struct pane_jct_draw {
	struct grid		*g;
	const struct rect	*r;
};

static void
pane_jct_line(void *arg, long row, const char *s, size_t len)
{
	struct pane_jct_draw	*d = arg;
	int			 y = d->r->y + 2 + (int)row;

	if (y >= d->r->y + d->r->h)
		return;
	grid_put(d->g, y, d->r->x + 1, d->r->w - 1, s, len, row < 0 ?
	    ROLE_HEADING : ROLE_NORMAL);
}

int
pane_jct_rows(const struct view *v)
{
	return (2 + (int)json_array_size(json_object_get(
	    v->m->acct[MODEL_ACCT_WINDOW], "rows")));
}

static void
pane_jct_draw(struct grid *g, const struct rect *r, struct view *v)
{
	static struct table	*t;
	struct pane_jct_draw	 d = { g, r };
	const json_t		*rows = json_object_get(
				    v->m->acct[MODEL_ACCT_WINDOW], "rows");
	char			 title[160];
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
	if (t == NULL)
		t = acct_row_table(ACCT_ROW_CLUSTER, PANE_JCT_COLS);
	table_clear(t);
	for (i = 0; i < json_array_size(rows); i++) {
		if (json_is_object(json_array_get(rows, i)))
			table_add(t, json_array_get(rows, i), NULL);
	}
	table_render(t, true, pane_jct_line, &d);
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
