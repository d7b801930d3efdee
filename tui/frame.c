/* frame.c: one frame of gtop (frame.h). */
#include <stdio.h>

#include "tui/frame.h"
#include "tui/layout.h"

static int
frame_gpu_rows(const struct view *v)
{
	return (1 + (int)json_array_size(v->m->nodes));
}

void
frame_draw(struct grid *g, struct view *v, const char *footer)
{
	struct layout	l;
	char		msg[128];

	grid_clear(g);
	layout_compute(g->h, g->w, frame_gpu_rows(v), &l);
	if (l.too_small) {
		snprintf(msg, sizeof msg, "terminal too small: %dx%d, gtop "
		    "needs %dx%d", g->w, g->h, LAYOUT_MIN_W, LAYOUT_MIN_H);
		grid_puts(g, 0, 0, g->w, msg, ROLE_ALERT);
		return;
	}
	pane_header.draw(g, &l.header, v);
	pane_queues.draw(g, &l.queues, v);
	pane_gpus.draw(g, &l.gpus, v);
	grid_puts(g, l.footer.y, l.footer.x, l.footer.w, footer, ROLE_DIM);
}

int
frame_full_height(const struct view *v, int w)
{
	int	q = 2 + (int)v->m->jobs.n, n = frame_gpu_rows(v), h;

	/* Stacked, the GPU pane gets at most half the body. */
	h = 3 + (w >= LAYOUT_WIDE_W ? (q > n ? q : n) : 2 * (q > n ? q : n));
	return (h < LAYOUT_MIN_H ? LAYOUT_MIN_H : h);
}
