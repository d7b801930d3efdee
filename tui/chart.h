/* chart.h: sparklines and bars drawn into a grid (grid.h), for the JCT
 * pane's GPU use, waiting jobs and JCT histogram. Pure: values in, cells
 * out, so a C test reads a chart back. On a terminal whose character set
 * is UTF-8 the levels are block elements; elsewhere ASCII that still
 * rises from low to high. */
#ifndef GB_CHART_H
#define GB_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/grid.h"

/* Levels a sparkline cell shows. */
#define CHART_LEVELS	8

/* The cell for v on a scale of 0 to max: level round(v / max x 7) of
 * CHART_LEVELS, the lowest for 0 (or when max is 0); a blank for a value
 * that is not known (v < 0). */
const char	*chart_level(double v, double max, bool utf8);

/* Draws the n values into w cells from (y, x): one cell per value when
 * they fit, else each cell the average of the values it covers (those
 * not known left out; a cell with none is blank). Returns the cells
 * drawn. */
int		 chart_spark(struct grid *, int y, int x, int w,
		     const double *v, size_t n, double max, bool utf8,
		     enum color_role);

/* A bar of part / whole of w cells from (y, x), the rest blank; any part
 * above 0 shows at least one cell. */
void		 chart_bar(struct grid *, int y, int x, int w, double part,
		     double whole, bool utf8, enum color_role);

#endif
