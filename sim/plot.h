/* plot.h: the JCT CDF of each run of a report as a PNG, drawn by gnuplot
 * (plot.c). */
#ifndef GB_SIM_PLOT_H
#define GB_SIM_PLOT_H

#include <stddef.h>

#include "sim/report.h"

/* Whether gnuplot is on PATH. */
int	plot_available(void);
/* The JCT CDF of each run of r into png through gnuplot. Returns 0, or -1
 * with the reason in err. */
int	plot_jct_cdf(const struct report *r, const char *png, char *err,
	    size_t errlen);

#endif
