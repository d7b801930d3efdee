/* layout.h: where gtop's panes go, a pure function of the terminal's size
 * and of how many rows the GPU pane wants (one per node), so a C test
 * checks it at any size without a terminal. Below LAYOUT_MIN_H x
 * LAYOUT_MIN_W the screen says it is too small instead. */
#ifndef GB_LAYOUT_H
#define GB_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MIN_H	12
#define LAYOUT_MIN_W	60
/* From this width the GPU pane stands beside the queues, not under. */
#define LAYOUT_WIDE_W	160

struct rect {
	int	y, x, h, w;
};

struct layout {
	bool		too_small;
	struct rect	header;		/* the cluster at a glance */
	struct rect	queues;		/* jobs by queue level */
	struct rect	gpus;		/* a cell per GPU, a row per node */
	struct rect	footer;		/* the keys, or a message */
};

/* Lays out an h x w screen. gpu_rows is the rows the GPU pane would fill
 * (its title and a row per node); it gets at most half the body when the
 * panes are stacked. */
void	layout_compute(int h, int w, int gpu_rows, struct layout *);

#endif
