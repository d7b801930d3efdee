/* layout.h: where gtop's panes go, a pure function of the terminal's size
 * and of how many rows the GPU pane wants (a title and a row per node) and
 * the JCT pane wants (a title, a heading, a row per group), so a C test
 * checks it at any size without a terminal. Below LAYOUT_MIN_H x
 * LAYOUT_MIN_W the screen says it is too small instead. */
#ifndef GB_LAYOUT_H
#define GB_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MIN_H	12
#define LAYOUT_MIN_W	60
/* From this width the GPU and JCT panes stand beside the queues. */
#define LAYOUT_WIDE_W	160
/* Below this body height, stacked panes leave the JCT pane out. */
#define LAYOUT_JCT_MIN_BODY	15

struct rect {
	int	y, x, h, w;
};

struct layout {
	bool		too_small;
	struct rect	header;		/* the cluster at a glance */
	struct rect	queues;		/* jobs by queue level */
	struct rect	jct;		/* JCT and waits (h 0: not shown) */
	struct rect	gpus;		/* a cell per GPU, a row per node */
	struct rect	footer;		/* the keys, or a message */
};

/* Lays out an h x w screen. Stacked, the GPU pane gets at most half the
 * body and the JCT pane at most a quarter (at least 3 rows); side by
 * side, the GPUs take the right column's top, the JCT pane at most half
 * of it below. */
void	layout_compute(int h, int w, int gpu_rows, int jct_rows,
	    struct layout *);

#endif
