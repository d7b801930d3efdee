/* fair.c: the fairness figures of one replay, window by window; see
 * fair.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "sim/fair.h"

#define FAIR_WAITED	0x1
#define FAIR_RAN	0x2

/* One window: per tree node (users only are written), GPU-ms run,
 * GPU-ms wanted (its jobs' GPUs while waiting or running) and whether it
 * waited or ran. */
struct fair_window {
	uint64_t	*gpu_ms;
	uint64_t	*want_ms;
	uint8_t		*state;
};

struct fair_usage {
	const struct fair_tree	*tree;
	size_t			 nnodes;
	int64_t			 origin_ms, window_ms;
	struct fair_window	*w;
	size_t			 nwindows, size;
};

struct fair_usage *
fair_usage_create(const struct fair_tree *t, int64_t origin_ms,
    int64_t window_ms)
{
	struct fair_usage	*u = xcalloc(1, sizeof *u);

	u->tree = t;
	u->nnodes = fair_tree_size(t);
	u->origin_ms = origin_ms;
	u->window_ms = window_ms > 0 ? window_ms : 1;
	return (u);
}

void
fair_usage_free(struct fair_usage *u)
{
	size_t	k;

	if (u == NULL)
		return;
	for (k = 0; k < u->nwindows; k++) {
		free(u->w[k].gpu_ms);
		free(u->w[k].want_ms);
		free(u->w[k].state);
	}
	free(u->w);
	free(u);
}

/* Window k, made (with those before it) when new. */
static struct fair_window *
fair_usage_window(struct fair_usage *u, size_t k)
{
	while (u->nwindows <= k) {
		if (u->nwindows == u->size) {
			u->size = u->size != 0 ? u->size * 2 : 16;
			u->w = xreallocarray(u->w, u->size, sizeof *u->w);
		}
		u->w[u->nwindows].gpu_ms = xcalloc(u->nnodes,
		    sizeof *u->w[0].gpu_ms);
		u->w[u->nwindows].want_ms = xcalloc(u->nnodes,
		    sizeof *u->w[0].want_ms);
		u->w[u->nwindows].state = xcalloc(u->nnodes,
		    sizeof *u->w[0].state);
		u->nwindows++;
	}
	return (&u->w[k]);
}

/* Marks node over [from, to) in each window it overlaps, adding gpus x
 * the overlap to what it wanted there, and to what it ran when it ran. */
static void
fair_usage_mark(struct fair_usage *u, size_t node, double gpus,
    int64_t from, int64_t to, uint8_t state)
{
	struct fair_window	*w;
	int64_t			 end;
	uint64_t		 ms;
	size_t			 k;

	if (from < u->origin_ms)
		from = u->origin_ms;
	for (; from < to; from = end) {
		k = (size_t)((from - u->origin_ms) / u->window_ms);
		end = u->origin_ms + (int64_t)(k + 1) * u->window_ms;
		if (end > to)
			end = to;
		w = fair_usage_window(u, k);
		ms = (uint64_t)llround((double)(end - from) * gpus);
		w->want_ms[node] += ms;
		if (state == FAIR_RAN)
			w->gpu_ms[node] += ms;
		w->state[node] |= state;
	}
}

void
fair_usage_ran(struct fair_usage *u, size_t node, double gpus,
    int64_t from, int64_t to)
{
	fair_usage_mark(u, node, gpus, from, to, FAIR_RAN);
}

void
fair_usage_waited(struct fair_usage *u, size_t node, double gpus,
    int64_t from, int64_t to)
{
	fair_usage_mark(u, node, gpus, from, to, FAIR_WAITED);
}

size_t
fair_usage_windows(const struct fair_usage *u)
{
	return (u->nwindows);
}

uint64_t
fair_usage_gpu_ms(const struct fair_usage *u, size_t node, size_t w)
{
	return (w < u->nwindows ? u->w[w].gpu_ms[node] : 0);
}

uint64_t
fair_usage_want_ms(const struct fair_usage *u, size_t node, size_t w)
{
	return (w < u->nwindows ? u->w[w].want_ms[node] : 0);
}

double
fair_jain(const double *x, size_t n)
{
	double	sum = 0, sq = 0;
	size_t	i;

	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	if (n == 0 || sq == 0)
		return (NAN);
	return (sum * sum / ((double)n * sq));
}

/* Adds window w's pairs that count to f: see fair.h. want and due are
 * scratch of the tree's size. */
static void
fair_usage_window_figures(const struct fair_usage *u,
    const struct fair_window *w, double *want, double *due,
    struct fair_figures *f)
{
	double	delivered = 0, e, ratio;
	size_t	i, competing = 0;

	for (i = 0; i < u->nnodes; i++) {
		want[i] = (double)w->want_ms[i];
		competing += fair_tree_is_user(u->tree, i) && w->state[i] != 0;
		delivered += (double)w->gpu_ms[i];
		f->gpu_ms[i] += w->gpu_ms[i];
	}
	if (competing < 2 || delivered == 0)
		return;
	f->windows_counted++;
	fair_tree_fill(u->tree, want, delivered, due);
	for (i = 0; i < u->nnodes; i++) {
		if (!fair_tree_is_user(u->tree, i) ||
		    !(w->state[i] & FAIR_WAITED) || !(due[i] > 0))
			continue;
		e = due[i];
		f->received[i] += (double)w->gpu_ms[i];
		f->entitled[i] += e;
		ratio = (double)w->gpu_ms[i] / e;
		if (isnan(f->min_share) || ratio < f->min_share)
			f->min_share = ratio;
	}
}

void
fair_usage_figures(const struct fair_usage *u, struct fair_figures *f)
{
	double	*want, *due, *x;
	size_t	 i, k, n = u->nnodes, nx = 0;

	memset(f, 0, sizeof *f);
	f->nnodes = n;
	f->received = xcalloc(n, sizeof *f->received);
	f->entitled = xcalloc(n, sizeof *f->entitled);
	f->gpu_ms = xcalloc(n, sizeof *f->gpu_ms);
	f->min_share = NAN;
	f->windows = u->nwindows;
	want = xcalloc(n, sizeof *want);
	due = xcalloc(n, sizeof *due);
	x = xcalloc(n, sizeof *x);
	for (k = 0; k < u->nwindows; k++)
		fair_usage_window_figures(u, &u->w[k], want, due, f);
	for (i = 0; i < n; i++) {
		if (fair_tree_is_user(u->tree, i) && f->entitled[i] > 0)
			x[nx++] = f->received[i] / f->entitled[i];
	}
	f->jain = fair_jain(x, nx);
	/* An account's figures are its users' sums; parents come first, so
	 * a walk backwards has each node complete before it is added up. */
	for (i = n; i-- > 1;) {
		k = fair_tree_parent(u->tree, i);
		f->received[k] += f->received[i];
		f->entitled[k] += f->entitled[i];
		f->gpu_ms[k] += f->gpu_ms[i];
	}
	free(x);
	free(due);
	free(want);
}

void
fair_figures_free(struct fair_figures *f)
{
	if (f == NULL)
		return;
	free(f->received);
	free(f->entitled);
	free(f->gpu_ms);
	memset(f, 0, sizeof *f);
}
