/* sched-gittins.c: the Gittins index over the GPU-times of finished jobs
 * (see sched-gittins.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched-gittins.h"

static int
sched_gittins_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

void
sched_gittins_init(struct sched_gittins *g, const uint64_t *samples,
    size_t n)
{
	size_t	i;

	memset(g, 0, sizeof *g);
	if (n == 0)
		return;
	if ((g->samples = calloc(n, sizeof *g->samples)) == NULL ||
	    (g->prefix = calloc(n + 1, sizeof *g->prefix)) == NULL)
		abort();
	g->n = n;
	memcpy(g->samples, samples, n * sizeof *g->samples);
	qsort(g->samples, n, sizeof *g->samples, sched_gittins_cmp);
	g->prefix[0] = 0;
	for (i = 0; i < n; i++)
		g->prefix[i + 1] = g->prefix[i] + (double)g->samples[i];
}

void
sched_gittins_free(struct sched_gittins *g)
{
	free(g->samples);
	free(g->prefix);
	memset(g, 0, sizeof *g);
}

/* Binary search: the first sample above v. */
static size_t
sched_gittins_upper(const uint64_t *s, size_t n, uint64_t v)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

double
sched_gittins_index(const uint64_t *s, const double *prefix, size_t n,
    uint64_t a, uint64_t delta)
{
	size_t	lo, hi;
	double	done, sum, beyond, denom;

	lo = sched_gittins_upper(s, n, a);
	if (lo == n)
		return (0);	/* older than every sample: nothing known */
	hi = delta == 0 || a > UINT64_MAX - delta ? n :
	    sched_gittins_upper(s, n, a + delta);
	/* Among samples above a: those ending within delta count fully in
	 * the probability and by their remaining service in the expectation;
	 * the others count delta each. The common 1/|S > a| cancels. */
	done = (double)(hi - lo);
	sum = prefix[hi] - prefix[lo] - done * (double)a;
	beyond = (double)(n - hi) * (double)delta;
	denom = sum + beyond;
	if (denom <= 0)
		return (HUGE_VAL);
	return (done / denom);
}
