/* layout-test.c: tui/layout.c at the sizes gtop meets: 80x24 over ssh,
 * 200x60 on a large screen, and too small; panes never overlap and stay
 * on the screen. */
#include <stdbool.h>

#include "tui/layout.h"
#include "tests/unit/tap.h"

static bool
inside(const struct rect *r, int h, int w)
{
	return (r->y >= 0 && r->x >= 0 && r->h >= 1 && r->w >= 1 &&
	    r->y + r->h <= h && r->x + r->w <= w);
}

static bool
apart(const struct rect *a, const struct rect *b)
{
	return (a->y + a->h <= b->y || b->y + b->h <= a->y ||
	    a->x + a->w <= b->x || b->x + b->w <= a->x);
}

static void
t_valid(int h, int w, int gpu_rows)
{
	struct layout	l;

	layout_compute(h, w, gpu_rows, &l);
	ok(!l.too_small && inside(&l.header, h, w) && inside(&l.queues, h, w) &&
	    inside(&l.gpus, h, w) && inside(&l.footer, h, w) &&
	    apart(&l.header, &l.queues) && apart(&l.queues, &l.gpus) &&
	    apart(&l.gpus, &l.footer) && apart(&l.header, &l.gpus) &&
	    apart(&l.queues, &l.footer), "%dx%d with %d GPU rows: every pane "
	    "on the screen, none overlapping", w, h, gpu_rows);
	ok(l.queues.h >= 5, "%dx%d: the queues keep a title, a heading and "
	    "3 rows", w, h);
}

int
main(void)
{
	struct layout	l;

	layout_compute(24, 80, 3, &l);
	is_int(l.header.y, 0, "80x24: the header on top");
	is_int(l.footer.y, 23, "80x24: the footer at the bottom");
	is_int(l.gpus.h, 3, "80x24: two nodes take their rows");
	is_int(l.gpus.y + l.gpus.h, 23, "80x24: the GPUs above the footer");
	is_int(l.queues.h, 24 - 2 - 1 - 3, "80x24: the queues the rest");
	is_int(l.queues.w, 80, "80x24: stacked, full width");
	layout_compute(24, 80, 100, &l);
	is_int(l.gpus.h, 10, "80x24: a hundred nodes get half the body");
	layout_compute(60, 200, 40, &l);
	is_int(l.queues.x, 0, "200x60: the queues on the left");
	is_int(l.gpus.x, l.queues.w + 1, "200x60: the GPUs beside them");
	is_int(l.gpus.h, 57, "200x60: the GPUs take the body's height");
	is_int(l.queues.w, 120, "200x60: the queues three fifths");
	layout_compute(11, 80, 2, &l);
	ok(l.too_small, "80x11 is too small");
	layout_compute(24, 59, 2, &l);
	ok(l.too_small, "59x24 is too small");
	layout_compute(12, 60, 2, &l);
	ok(!l.too_small, "60x12 is the least that fits");
	t_valid(24, 80, 3);
	t_valid(24, 80, 1000);
	t_valid(12, 60, 2);
	t_valid(12, 60, 50);
	t_valid(60, 200, 40);
	t_valid(60, 200, 1);
	t_valid(300, 400, 1001);
	return (tap_done());
}
