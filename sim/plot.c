/* plot.c: the JCT CDF of each run as a PNG, drawn by gnuplot (the
 * gnuplot-nox package). The data goes to a temporary file, one block per
 * run; the script goes down a pipe. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "sim/plot.h"

int
plot_available(void)
{
	const char	*path = getenv("PATH");
	char		*copy, *dir, *next, *f;
	int		 found = 0;

	if (path == NULL || *path == '\0')
		path = "/usr/bin:/bin";
	copy = xstrdup(path);
	for (dir = copy; dir != NULL && !found; dir = next) {
		if ((next = strchr(dir, ':')) != NULL)
			*next++ = '\0';
		f = xasprintf("%s/gnuplot", *dir != '\0' ? dir : ".");
		found = (access(f, X_OK) == 0);
		free(f);
	}
	free(copy);
	return (found);
}

/* Writes each run's sorted JCTs with their cumulative fraction, runs
 * separated by two blank lines (gnuplot's "index"). */
static int
plot_data(const struct report *r, FILE *fp)
{
	int64_t		*jct;
	size_t		 k, i, n = r->trace->njobs;

	for (k = 0; k < r->nruns; k++) {
		jct = report_sorted_jcts(r, &r->runs[k]);
		fprintf(fp, "# %s\n0 0\n", r->runs[k].label);
		for (i = 0; i < n; i++)
			fprintf(fp, "%.3f %.6f\n", (double)jct[i] / 1000,
			    (double)(i + 1) / (double)n);
		fputs("\n\n", fp);
		free(jct);
	}
	return (fflush(fp) == 0 && !ferror(fp) ? 0 : -1);
}

/* gnuplot reads strings in double quotes; a label or path with one (or a
 * backslash) is refused rather than escaped. */
static int
plot_quotable(const char *s)
{
	return (strpbrk(s, "\"\\\n") == NULL);
}

int
plot_jct_cdf(const struct report *r, const char *png, char *err, size_t errlen)
{
	FILE		*data = NULL, *gp = NULL;
	const char	*tmpdir;
	char		*path = NULL;
	size_t		 k;
	int		 fd, status, ret = -1;

	if (!plot_quotable(png)) {
		snprintf(err, errlen, "--plot %s: a file name with a quote, "
		    "backslash or line break cannot be handed to gnuplot", png);
		return (-1);
	}
	for (k = 0; k < r->nruns; k++) {
		if (!plot_quotable(r->runs[k].label)) {
			snprintf(err, errlen, "policy label \"%s\" cannot be "
			    "handed to gnuplot", r->runs[k].label);
			return (-1);
		}
	}
	if ((tmpdir = getenv("TMPDIR")) != NULL && *tmpdir != '\0' &&
	    plot_quotable(tmpdir))
		path = xasprintf("%s/gsim-plot.XXXXXX", tmpdir);
	else
		path = xstrdup("/tmp/gsim-plot.XXXXXX");
	if ((fd = mkstemp(path)) < 0 || (data = fdopen(fd, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (plot_data(r, data) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	fclose(data);
	data = NULL;

	/* gnuplot's own messages go to our stderr. */
	if ((gp = popen("gnuplot", "w")) == NULL) {
		snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
		goto out;
	}
	fprintf(gp, "set terminal png size 900,600\n"
	    "set output \"%s\"\n"
	    "set title \"JCT CDF, %zu jobs\"\n"
	    "set xlabel \"job completion time (s)\"\n"
	    "set ylabel \"fraction of jobs\"\n"
	    "set logscale x\n"
	    "set yrange [0:1]\n"
	    "set key bottom right\n"
	    "set grid\n"
	    "plot ", png, r->trace->njobs);
	for (k = 0; k < r->nruns; k++)
		fprintf(gp, "%s\"%s\" index %zu using ($1 > 0 ? $1 : 1/0):2 "
		    "with steps lw 2 title \"%s\"", k > 0 ? ", " : "", path, k,
		    r->runs[k].label);
	fputc('\n', gp);
	status = pclose(gp);
	gp = NULL;
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, errlen, "gnuplot failed drawing %s (its messages "
		    "are above)", png);
		goto out;
	}
	ret = 0;
out:
	if (data != NULL)
		fclose(data);
	if (gp != NULL)
		pclose(gp);
	if (path != NULL) {
		unlink(path);
		free(path);
	}
	return (ret);
}
