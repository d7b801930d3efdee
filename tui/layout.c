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

static int
layout_min(int a, int b)
{
	return (a < b ? a : b);
}

void
layout_compute(int h, int w, int gpu_rows, int jct_rows, struct layout *l)
{
	int	body_y = LAYOUT_HEADER_H, body_h = h - LAYOUT_HEADER_H - 1;
	int	gh, jh, qh, qw, rx, rw;

	memset(l, 0, sizeof *l);
	if (h < LAYOUT_MIN_H || w < LAYOUT_MIN_W) {
		l->too_small = true;
		return;
	}
	l->header = layout_rect(0, 0, LAYOUT_HEADER_H, w);
	l->footer = layout_rect(h - 1, 0, 1, w);
	if (gpu_rows < 2)
		gpu_rows = 2;
	if (jct_rows < 3)
		jct_rows = 3;
	if (w >= LAYOUT_WIDE_W) {
		/* Side by side: the queues take three fifths. */
		qw = w * 3 / 5;
		rx = qw + 1;
		rw = w - qw - 1;
		l->queues = layout_rect(body_y, 0, body_h, qw);
		jh = layout_min(jct_rows, body_h / 2);
		gh = body_h - jh;
		l->gpus = layout_rect(body_y, rx, gh, rw);
		l->jct = layout_rect(body_y + gh, rx, jh, rw);
		return;
	}
	gh = layout_min(gpu_rows, body_h / 2);
	jh = body_h < LAYOUT_JCT_MIN_BODY ? 0 :
	    layout_min(jct_rows, body_h / 4 > 3 ? body_h / 4 : 3);
	qh = body_h - gh - jh;
	if (qh < LAYOUT_MIN_QUEUE_ROWS + 2) {
		/* The queues first, then the GPUs: the JCT pane goes. */
		jh = 0;
		qh = body_h - gh;
		if (qh < LAYOUT_MIN_QUEUE_ROWS + 2) {
			qh = LAYOUT_MIN_QUEUE_ROWS + 2;
			gh = body_h - qh;
		}
	}
	l->queues = layout_rect(body_y, 0, qh, w);
	if (jh > 0)
		l->jct = layout_rect(body_y + qh, 0, jh, w);
	l->gpus = layout_rect(body_y + qh + jh, 0, gh, w);
}
