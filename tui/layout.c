/* layout.c: where gtop's panes go (layout.h). */
#include <string.h>

#include "tui/layout.h"

#define LAYOUT_HEADER_H	2
/* The queues keep at least a title, a heading and this many rows. */
#define LAYOUT_MIN_QUEUE_ROWS	3

static struct rect
layout_rect(int y, int x, int h, int w)
{
	struct rect	r = { y, x, h, w };

	return (r);
}

void
layout_compute(int h, int w, int gpu_rows, struct layout *l)
{
	int	body_y = LAYOUT_HEADER_H, body_h = h - LAYOUT_HEADER_H - 1;
	int	gh, qw;

	memset(l, 0, sizeof *l);
	if (h < LAYOUT_MIN_H || w < LAYOUT_MIN_W) {
		l->too_small = true;
		return;
	}
	l->header = layout_rect(0, 0, LAYOUT_HEADER_H, w);
	l->footer = layout_rect(h - 1, 0, 1, w);
	if (gpu_rows < 2)
		gpu_rows = 2;
	if (w >= LAYOUT_WIDE_W) {
		/* Side by side: the queues take three fifths. */
		qw = w * 3 / 5;
		l->queues = layout_rect(body_y, 0, body_h, qw);
		l->gpus = layout_rect(body_y, qw + 1, body_h, w - qw - 1);
		return;
	}
	gh = gpu_rows;
	if (gh > body_h / 2)
		gh = body_h / 2;
	if (body_h - gh < LAYOUT_MIN_QUEUE_ROWS + 2)
		gh = body_h - LAYOUT_MIN_QUEUE_ROWS - 2;
	l->queues = layout_rect(body_y, 0, body_h - gh, w);
	l->gpus = layout_rect(body_y + body_h - gh, 0, gh, w);
}
