/* screen.c: gtop's whole screen, drawn into a grid (screen.h). */
#include <stdio.h>

#include "tui/screen.h"
#include "tui/keys.h"
#include "tui/layout.h"

static int
screen_gpu_rows(const struct view *v)
{
	return (1 + (int)v->m->nodes.n);
}

/* The keys, in a box over the panes. */
static void
screen_help(struct grid *g, const struct layout *l)
{
	int	n, i, w = 74, y, x;

	for (n = 0; keys_help[n] != NULL; n++)
		continue;
	if (w > l->queues.w - 2)
		w = l->queues.w - 2;
	y = l->queues.y + 1;
	x = l->queues.x + 1;
	/* The box blanks what the panes drew under it. */
	grid_erase(g, y, x, n + 2, w);
	for (i = 0; i <= n; i++)
		grid_paint(g, y + 1 + i, x, w, ROLE_SELECTED);
	grid_paint(g, y, x, w, ROLE_TITLE);
	grid_puts(g, y, x + 1, w - 1, "gtop keys (any key closes this)",
	    ROLE_TITLE);
	for (i = 0; i < n; i++)
		grid_puts(g, y + 1 + i, x + 2, w - 2, keys_help[i],
		    ROLE_SELECTED);
}

void
screen_draw(struct grid *g, struct view *v)
{
	struct layout	l;
	struct rect	body;
	char		msg[128], footer[1024];

	grid_clear(g);
	layout_compute(g->h, g->w, screen_gpu_rows(v), pane_jct_rows(v), &l);
	v->layout = l;
	if (l.too_small) {
		snprintf(msg, sizeof msg, "terminal too small: %dx%d, gtop "
		    "needs %dx%d", g->w, g->h, LAYOUT_MIN_W, LAYOUT_MIN_H);
		grid_puts(g, 0, 0, g->w, msg, ROLE_ALERT);
		return;
	}
	pane_header.draw(g, &l.header, v);
	pane_queues.draw(g, &l.queues, v);
	pane_gpus.draw(g, &l.gpus, v);
	if (l.jct.h > 0)
		pane_jct.draw(g, &l.jct, v);
	if (v->mode == VIEW_DETAIL) {
		/* Over both panes, from the queues' top to the footer. */
		body = l.queues;
		body.w = g->w;
		body.h = l.footer.y - body.y;
		pane_detail.draw(g, &body, v);
	}
	if (v->mode == VIEW_HELP)
		screen_help(g, &l);
	if (v->once)
		return;
	grid_puts(g, l.footer.y, l.footer.x, l.footer.w,
	    keys_footer(v, footer, sizeof footer),
	    v->mode == VIEW_CONFIRM ? ROLE_ALERT : v->status[0] != '\0' &&
	    v->mode == VIEW_NORMAL ? ROLE_NORMAL : ROLE_DIM);
}

int
screen_full_height(const struct view *v, int w)
{
	int	q = 2 + (int)v->m->jobs.n, n = screen_gpu_rows(v);
	int	j = pane_jct_rows(v), most, h;

	/* Stacked, the GPU pane gets at most half the body and the JCT
	 * pane a quarter; side by side, the JCT pane half the right. */
	most = q > n ? q : n;
	most = most > j ? most : j;
	h = 3 + (w >= LAYOUT_WIDE_W ? 2 * most : 4 * most);
	return (h < LAYOUT_MIN_H ? LAYOUT_MIN_H : h);
}
