/* chart.c: sparklines and bars (chart.h). */
#include <stddef.h>

#include "tui/chart.h"

static const char *const chart_blocks[CHART_LEVELS] = {
	"\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
	"\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"
};
static const char *const chart_ascii[CHART_LEVELS] = {
	"_", ".", "-", "=", "+", "*", "#", "@"
};

const char *
chart_level(double v, double max, bool utf8)
{
	int	level = 0;

	if (v < 0)
		return (" ");
	if (max > 0) {
		level = (int)(v / max * (CHART_LEVELS - 1) + 0.5);
		if (level > CHART_LEVELS - 1)
			level = CHART_LEVELS - 1;
		if (level < 0)
			level = 0;
	}
	return (utf8 ? chart_blocks[level] : chart_ascii[level]);
}

int
chart_spark(struct grid *g, int y, int x, int w, const double *v, size_t n,
    double max, bool utf8, enum color_role role)
{
	size_t	cells, c, i, lo, hi, known;
	double	sum;

	if (w <= 0 || n == 0)
		return (0);
	cells = n < (size_t)w ? n : (size_t)w;
	for (c = 0; c < cells; c++) {
		/* The values of cell c: [c n / cells, (c + 1) n / cells). */
		lo = c * n / cells;
		hi = (c + 1) * n / cells;
		sum = 0;
		known = 0;
		for (i = lo; i < hi; i++) {
			if (v[i] >= 0) {
				sum += v[i];
				known++;
			}
		}
		grid_puts(g, y, x + (int)c, 1, chart_level(known > 0 ?
		    sum / (double)known : -1, max, utf8), role);
	}
	return ((int)cells);
}

void
chart_bar(struct grid *g, int y, int x, int w, double part, double whole,
    bool utf8, enum color_role role)
{
	int	n = 0, i;

	if (w <= 0)
		return;
	if (whole > 0 && part > 0) {
		n = (int)(part / whole * w + 0.5);
		if (n < 1)
			n = 1;
		if (n > w)
			n = w;
	}
	for (i = 0; i < n; i++)
		grid_puts(g, y, x + i, 1, utf8 ? chart_blocks[CHART_LEVELS - 1] :
		    "#", role);
	grid_erase(g, y, x + n, 1, w - n);
}
