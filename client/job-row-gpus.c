/* job-row-gpus.c: a job's GPU columns (job-row-int.h). */
#include <stdio.h>
#include <string.h>

#include "client/job-row.h"
#include "client/job-row-int.h"

/* Writes an alloc array as "n1:0,1;n2:0,1" at buf + *n. */
static void
job_row_alloc_text(const struct jscan_val *alloc, char *buf, size_t len,
    size_t *n)
{
	struct jscan_val	 part, node, gpus, g;
	size_t			 apos = 0, gpos, start = *n;
	char			 name[256];
	int			 first;

	while (*n < len && jscan_element(alloc, &apos, &part) == 1) {
		jscan_get(&part, "node", &node);
		jscan_get(&part, "gpus", &gpus);
		jscan_string(&node, name, sizeof name);
		*n += (size_t)snprintf(buf + *n, len - *n, "%s%s:", *n > start ?
		    ";" : "", name);
		first = 1;
		gpos = 0;
		while (*n < len && jscan_element(&gpus, &gpos, &g) == 1) {
			*n += (size_t)snprintf(buf + *n, len - *n, "%s%.*s",
			    first ? "" : ",", (int)g.n, g.p);
			first = 0;
		}
	}
}

/* The GPUs of an alloc array, counted. */
static unsigned
job_row_alloc_count(const struct jscan_val *alloc)
{
	struct jscan_val	 part, gpus, g;
	size_t			 apos = 0, gpos;
	unsigned		 n = 0;

	while (jscan_element(alloc, &apos, &part) == 1) {
		if (jscan_get(&part, "gpus", &gpus) == -1)
			continue;
		gpos = 0;
		while (jscan_element(&gpus, &gpos, &g) == 1)
			n++;
	}
	return (n);
}

long long
job_row_gpus_held(const struct job_row *row)
{
	long long	gpus, max;
	unsigned	held;

	if (jscan_int(job_row_v(row, JF_GPUS), &gpus) != 0)
		return (-1);
	if (jscan_int(job_row_v(row, JF_GPUS_MAX), &max) == 0 && max > 0 &&
	    (held = job_row_alloc_count(job_row_v(row, JF_ALLOC))) > 0)
		return (held);
	return (gpus);
}

/* The step time a running job last reported (GBATCH_PROGRESS), in
 * seconds to the millisecond; "" for none. */
const char *
job_row_gpus_step_time(const void *row, const void *ctx, char *buf,
    size_t len)
{
	long long	us;

	(void)ctx;
	if (jscan_int(job_row_v(row, JF_STEP_US), &us) != 0 || us <= 0)
		return ("");
	snprintf(buf, len, "%lld.%03lld", us / 1000000, us / 1000 % 1000);
	return (buf);
}

/* The goodput its model expects (samples a second); "" for none. */
const char *
job_row_gpus_goodput(const void *row, const void *ctx, char *buf, size_t len)
{
	long long	g;

	(void)ctx;
	if (jscan_int(job_row_v(row, JF_GOODPUT), &g) != 0 || g <= 0)
		return ("");
	snprintf(buf, len, "%lld", g);
	return (buf);
}

/* An elastic job's range, "MIN-MAX"; "" for a rigid job. */
const char *
job_row_gpus_range(const void *row, const void *ctx, char *buf,
    size_t len)
{
	long long	min, max;

	(void)ctx;
	if (jscan_int(job_row_v(row, JF_GPUS_MAX), &max) != 0 || max <= 0 ||
	    jscan_int(job_row_v(row, JF_GPUS), &min) != 0)
		return ("");
	snprintf(buf, len, "%lld-%lld", min, max);
	return (buf);
}

/* The GPUs a job asks for; an elastic job's while it holds them (its
 * alloc), else its range. */
const char *
job_row_gpus_col(const void *row, const void *ctx, char *buf, size_t len)
{
	unsigned	held;

	if (*job_row_gpus_range(row, ctx, buf, len) == '\0')
		return (job_row_text(row, JF_GPUS, buf, len));
	if ((held = job_row_alloc_count(job_row_v(row, JF_ALLOC))) > 0)
		snprintf(buf, len, "%u", held);
	return (buf);
}

/* Every run's GPUs, oldest first, "/" between runs: "n1:0,1/n2:0,1;n3:0".
 * Only gacct's records carry runs. */
const char *
job_row_gpus_runs(const void *row, const void *ctx, char *buf, size_t len)
{
	const struct job_row	*r = row;
	struct jscan_val	 runs, run, alloc;
	size_t			 pos = 0, n = 0;

	buf[0] = '\0';
	if (jscan_get(&r->obj, "runs", &runs) == -1)
		return ("");
	while (n + 1 < len && jscan_element(&runs, &pos, &run) == 1) {
		if (n > 0)
			buf[n++] = '/';
		buf[n] = '\0';
		jscan_get(&run, "alloc", &alloc);
		job_row_alloc_text(&alloc, buf, len, &n);
	}
	return (buf);
}

/* "n1:0,1" per node, ";" between nodes: no blanks, so awk still splits
 * gq's columns right. */
const char *
job_row_gpus_ids(const void *row, const void *ctx, char *buf, size_t len)
{
	size_t	n = 0;

	buf[0] = '\0';
	job_row_alloc_text(job_row_v(row, JF_ALLOC), buf, len, &n);
	return (buf);
}

