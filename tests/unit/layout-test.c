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
	return (a->h == 0 || b->h == 0 || a->y + a->h <= b->y ||
	    b->y + b->h <= a->y || a->x + a->w <= b->x || b->x + b->w <= a->x);
}

static void
t_valid(int h, int w, int gpu_rows, int jct_rows)
{
	struct layout		 l;
	const struct rect	*r[5];
	bool			 good = true;
	int			 i, j;

	layout_compute(h, w, gpu_rows, jct_rows, &l);
	r[0] = &l.header;
	r[1] = &l.queues;
	r[2] = &l.jct;
	r[3] = &l.gpus;
	r[4] = &l.footer;
	for (i = 0; i < 5; i++) {
		if (r[i]->h != 0 && !inside(r[i], h, w))
			good = false;
		for (j = i + 1; j < 5; j++)
			good = good && apart(r[i], r[j]);
	}
	ok(!l.too_small && good, "%dx%d, %d GPU rows, %d JCT rows: every "
	    "pane on the screen, none overlapping", w, h, gpu_rows, jct_rows);
	ok(l.queues.h >= 5 && l.gpus.h >= 2, "%dx%d: the queues keep a "
	    "title, a heading and 3 rows, the GPUs 2", w, h);
}

int
main(void)
{
	struct layout	l;

	layout_compute(24, 80, 3, 8, &l);
	is_int(l.header.y, 0, "80x24: the header on top");
	is_int(l.footer.y, 23, "80x24: the footer at the bottom");
	is_int(l.gpus.h, 3, "80x24: two nodes take their rows");
	is_int(l.gpus.y + l.gpus.h, 23, "80x24: the GPUs above the footer");
	is_int(l.jct.h, 5, "80x24: the JCT pane a quarter of the body");
	is_int(l.jct.y + l.jct.h, l.gpus.y, "80x24: above the GPUs");
	is_int(l.queues.h, 24 - 2 - 1 - 3 - 5, "80x24: the queues the rest");
	is_int(l.queues.w, 80, "80x24: stacked, full width");
	layout_compute(24, 80, 100, 8, &l);
	is_int(l.gpus.h, 10, "80x24: a hundred nodes get half the body");
	layout_compute(16, 80, 3, 8, &l);
	is_int(l.jct.h, 0, "80x16: no room for the JCT pane");
	layout_compute(60, 200, 40, 10, &l);
	is_int(l.queues.x, 0, "200x60: the queues on the left");
	is_int(l.gpus.x, l.queues.w + 1, "200x60: the GPUs beside them");
	is_int(l.queues.w, 120, "200x60: the queues three fifths");
	is_int(l.jct.h, 10, "200x60: the JCT pane its rows");
	is_int(l.gpus.h + l.jct.h, 57, "200x60: GPUs and JCT fill the right");
	is_int(l.jct.x, l.gpus.x, "200x60: the JCT pane under the GPUs");
	layout_compute(11, 80, 2, 8, &l);
	ok(l.too_small, "80x11 is too small");
	layout_compute(24, 59, 2, 8, &l);
	ok(l.too_small, "59x24 is too small");
	layout_compute(12, 60, 2, 8, &l);
	ok(!l.too_small, "60x12 is the least that fits");
	t_valid(24, 80, 3, 8);
	t_valid(24, 80, 1000, 8);
	t_valid(12, 60, 2, 8);
	t_valid(12, 60, 50, 50);
	t_valid(60, 200, 40, 10);
	t_valid(60, 200, 1, 1);
	t_valid(300, 400, 1001, 12);
	t_valid(40, 100, 5, 30);
	return (tap_done());
}
