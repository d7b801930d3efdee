/* acct-series.c: the cluster over time (acct-series.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "daemon/controller/acct-series.h"

/* The sums kept per bin, each as seconds x a weight (SERIES_GPU's in
 * thousandths of GPUs). */
enum acct_series_sum {
	SERIES_GPU,
	SERIES_CAPACITY,
	SERIES_RUN,
	SERIES_ALIVE,
	SERIES_NSUMS
};

struct acct_series {
	int64_t			 since;
	int64_t			 len;		/* until - since */
	size_t			 n;		/* bins */
	/* Per sum: what partly covered bins got, and the weights of
	 * intervals covering whole bins, as differences (full[i] - full[i-1]
	 * is the weight starting at bin i). */
	int64_t			*part[SERIES_NSUMS];
	int64_t			*full[SERIES_NSUMS];
	uint64_t		*ended;
	struct acct_series_bin	*bins;		/* made by acct_series_bins */
};

struct acct_series *
acct_series_create(int64_t since, int64_t until, int bins)
{
	struct acct_series	*s = xcalloc(1, sizeof *s);
	int			 k;

	s->since = since;
	s->len = until > since ? until - since : 0;
	if (bins < 1)
		bins = 1;
	if (bins > ACCT_SERIES_MAX_BINS)
		bins = ACCT_SERIES_MAX_BINS;
	s->n = (size_t)bins < (uint64_t)s->len ? (size_t)bins :
	    (size_t)s->len;
	for (k = 0; k < SERIES_NSUMS; k++) {
		s->part[k] = xcalloc(s->n + 1, sizeof *s->part[k]);
		s->full[k] = xcalloc(s->n + 1, sizeof *s->full[k]);
	}
	s->ended = xcalloc(s->n + 1, sizeof *s->ended);
	return (s);
}

void
acct_series_free(struct acct_series *s)
{
	int	k;

	if (s == NULL)
		return;
	for (k = 0; k < SERIES_NSUMS; k++) {
		free(s->part[k]);
		free(s->full[k]);
	}
	free(s->ended);
	free(s->bins);
	free(s);
}

/* Where bin i starts, i in [0, n]: since + ceil(i x len / n). */
static int64_t
acct_series_edge(const struct acct_series *s, size_t i)
{
	return (s->since + ((int64_t)i * s->len + (int64_t)s->n - 1) /
	    (int64_t)s->n);
}

/* The bin of t, since <= t < since + len: ceil edges make it exact,
 * edge(i) <= t exactly when i <= (t - since) x n / len. */
static size_t
acct_series_bin_of(const struct acct_series *s, int64_t t)
{
	return ((size_t)((t - s->since) * (int64_t)s->n / s->len));
}

/* Adds w for each second of [a, b) inside the range to sum k. */
static void
acct_series_add(struct acct_series *s, enum acct_series_sum k, int64_t a,
    int64_t b, int64_t w)
{
	size_t	ia, ib;

	if (s->n == 0 || w == 0)
		return;
	if (a < s->since)
		a = s->since;
	if (b > s->since + s->len)
		b = s->since + s->len;
	if (b <= a)
		return;
	ia = acct_series_bin_of(s, a);
	ib = acct_series_bin_of(s, b - 1);
	if (ia == ib) {
		s->part[k][ia] += w * (b - a);
		return;
	}
	s->part[k][ia] += w * (acct_series_edge(s, ia + 1) - a);
	s->part[k][ib] += w * (b - acct_series_edge(s, ib));
	s->full[k][ia + 1] += w;
	s->full[k][ib] -= w;
}

void
acct_series_job(struct acct_series *s, int64_t submit, int64_t end)
{
	int64_t	until = s->since + s->len;

	if (end != 0 && end >= s->since && end < until && s->n != 0)
		s->ended[acct_series_bin_of(s, end)]++;
	acct_series_add(s, SERIES_ALIVE, submit, end != 0 ? end : until, 1);
}

void
acct_series_run(struct acct_series *s, int64_t start, int64_t end,
    uint32_t milli)
{
	int64_t	until = s->since + s->len;

	if (end == 0)
		end = until;
	acct_series_add(s, SERIES_RUN, start, end, 1);
	acct_series_add(s, SERIES_GPU, start, end, milli);
}

void
acct_series_capacity(struct acct_series *s, int64_t start, int64_t end,
    uint32_t gpus)
{
	acct_series_add(s, SERIES_CAPACITY, start, end, gpus);
}

void
acct_series_merge(struct acct_series *into, const struct acct_series *from)
{
	size_t	i;
	int	k;

	if (into->n != from->n || into->since != from->since ||
	    into->len != from->len)
		return;
	for (k = 0; k < SERIES_NSUMS; k++) {
		for (i = 0; i <= into->n; i++) {
			into->part[k][i] += from->part[k][i];
			into->full[k][i] += from->full[k][i];
		}
	}
	for (i = 0; i < into->n; i++)
		into->ended[i] += from->ended[i];
}

static uint64_t
acct_series_nonneg(int64_t v)
{
	return (v > 0 ? (uint64_t)v : 0);
}

size_t
acct_series_bins(struct acct_series *s, const struct acct_series_bin **out)
{
	int64_t			 w[SERIES_NSUMS] = { 0 }, v[SERIES_NSUMS];
	int64_t			 secs;
	struct acct_series_bin	*b;
	size_t			 i;
	int			 k;

	if (s->bins == NULL) {
		s->bins = xcalloc(s->n + 1, sizeof *s->bins);
		for (i = 0; i < s->n; i++) {
			b = &s->bins[i];
			b->start = acct_series_edge(s, i);
			b->end = acct_series_edge(s, i + 1);
			secs = b->end - b->start;
			for (k = 0; k < SERIES_NSUMS; k++) {
				w[k] += s->full[k][i];
				v[k] = s->part[k][i] + w[k] * secs;
			}
			b->jobs = s->ended[i];
			b->gpu_s = (acct_series_nonneg(v[SERIES_GPU]) +
			    500) / 1000;
			b->capacity_s = acct_series_nonneg(v[SERIES_CAPACITY]);
			b->run_s = acct_series_nonneg(v[SERIES_RUN]);
			/* A run outside every job fed (the jobs filtered,
			 * say) must not make waiting negative. */
			b->wait_s = acct_series_nonneg(v[SERIES_ALIVE] -
			    v[SERIES_RUN]);
		}
	}
	*out = s->bins;
	return (s->n);
}
