/* sim-app.c: the lookups of an application's measured speed and
 * statistics, pure and cheap (gsim asks at each job start); see
 * sim-app.h. sim-app-load.c reads the tables. */
#include <stdlib.h>

#include "sim/sim-app-int.h"
#include "sim/sim-app.h"

void
sim_app_free(struct sim_app *app)
{
	struct sim_app_table	*t[2];
	size_t			 i;

	if (app == NULL)
		return;
	t[0] = &app->place;
	t[1] = &app->scale;
	for (i = 0; i < 2; i++) {
		free(t[i]->outer);
		free(t[i]->inner);
		free(t[i]->pts);
	}
	free(app->grad);
	free(app->progress);
	free(app->name);
	free(app);
}

const char *
sim_app_name(const struct sim_app *app)
{
	return (app->name);
}

uint32_t
sim_app_epochs(const struct sim_app *app)
{
	return (app->epochs);
}

uint32_t
sim_app_init_batch(const struct sim_app *app)
{
	return ((uint32_t)app->grad[0].x);
}

uint32_t
sim_app_max_batch(const struct sim_app *app)
{
	return ((uint32_t)app->grad[app->nval - 1].x);
}

uint32_t
sim_app_min_local(const struct sim_app *app)
{
	return (app->min_local);
}

uint32_t
sim_app_max_local(const struct sim_app *app)
{
	return (app->max_local);
}

double
sim_app_progress(const struct sim_app *app, uint32_t e)
{
	return (app->progress[e < app->epochs ? e : app->epochs]);
}

int
sim_app_key(const uint32_t *counts, size_t n, uint64_t *key)
{
	uint32_t	c[SIM_APP_MAX_NODES];
	uint64_t	k;
	size_t		i, m = 0, r;

	for (i = 0; i < n; i++) {
		if (counts[i] == 0)
			continue;
		if (counts[i] > 9 || m == SIM_APP_MAX_NODES)
			return (-1);
		c[m++] = counts[i];
	}
	if (m == 0)
		return (-1);
	/* Rotations have as many digits, so the least as a string is the
	 * least as a number. */
	*key = UINT64_MAX;
	for (r = 0; r < m; r++) {
		k = 0;
		for (i = 0; i < m; i++)
			k = k * 10 + c[(r + i) % m];
		if (k < *key)
			*key = k;
	}
	return (0);
}

/* The first of s[0..n) (sorted) whose key is at least key, or n. */
static size_t
sim_app_lower(const struct sim_app_span *s, size_t n, uint64_t key)
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* The spans of s[0..n) (n >= 1, sorted) nearest key at or below it (*lo)
 * and at or above it (*hi), both the end one beyond them. Returns the
 * weight of *hi in a linear mix, 0 when both are one. */
static double
sim_app_around(const struct sim_app_span *s, size_t n, uint64_t key,
    size_t *lo, size_t *hi)
{
	size_t	i = sim_app_lower(s, n, key);

	if (i == n)
		i = n - 1;
	if (i == 0 || s[i].key <= key) {
		*lo = *hi = i;
		return (0);
	}
	*lo = i - 1;
	*hi = i;
	return ((double)(key - s[i - 1].key) / (double)(s[i].key -
	    s[i - 1].key));
}

/* The two values at x over p[0..n) (n >= 1, sorted by x): linear between
 * the points around x, a point's own at its x (exactly, so a measured
 * row reads back as the file has it), the end one's beyond them. */
static void
sim_app_lerp(const struct sim_app_pt *p, size_t n, double x, double *a,
    double *b)
{
	size_t	lo = 0, hi = n, mid;
	double	w;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p[mid].x < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || lo == 0 || p[lo].x == x) {
		lo = lo == n ? n - 1 : lo;
		*a = p[lo].a;
		*b = p[lo].b;
		return;
	}
	w = (x - p[lo - 1].x) / (p[lo].x - p[lo - 1].x);
	*a = p[lo - 1].a + w * (p[lo].a - p[lo - 1].a);
	*b = p[lo - 1].b + w * (p[lo].b - p[lo - 1].b);
}

/* Rule 3 of sim_app_step: over S, at the levels of nodes around nodes,
 * at the replicas around gpus at each, linear in bsz, then in gpus, then
 * in nodes. */
static void
sim_app_fallback(const struct sim_app_table *t, uint64_t nodes, uint64_t gpus,
    double bsz, double *step, double *sync)
{
	const struct sim_app_span	*in;
	size_t				 l[2], g[2], i, j;
	double				 wn, wr, a[2], b[2], la[2], lb[2];

	wn = sim_app_around(t->outer, t->nouter, nodes, &l[0], &l[1]);
	for (i = 0; i < 2; i++) {
		in = t->inner + t->outer[l[i]].first;
		wr = sim_app_around(in, t->outer[l[i]].n, gpus, &g[0], &g[1]);
		for (j = 0; j < 2; j++)
			sim_app_lerp(t->pts + in[g[j]].first, in[g[j]].n, bsz,
			    &a[j], &b[j]);
		la[i] = a[0] + wr * (a[1] - a[0]);
		lb[i] = b[0] + wr * (b[1] - b[0]);
	}
	*step = la[0] + wn * (la[1] - la[0]);
	*sync = lb[0] + wn * (lb[1] - lb[0]);
}

int
sim_app_step(const struct sim_app *app, const uint32_t *gpus, size_t n,
    double bsz, double *step, double *sync)
{
	const struct sim_app_table	*t = &app->place;
	const struct sim_app_span	*in;
	uint64_t			 key, nodes = 0, total = 0;
	size_t				 i;

	for (i = 0; i < n; i++) {
		nodes += gpus[i] != 0;
		total += gpus[i];
	}
	if (total == 0) {
		*step = *sync = 0;
		return (-1);
	}
	if (sim_app_key(gpus, n, &key) == 0 &&
	    (i = sim_app_lower(t->outer, t->nouter, key)) < t->nouter &&
	    t->outer[i].key == key) {
		in = t->inner + t->outer[i].first;
		sim_app_lerp(t->pts + in->first, in->n, bsz, step, sync);
		return (0);
	}
	if (nodes > SIM_APP_MAX_NODES)
		nodes = SIM_APP_MAX_NODES;
	sim_app_fallback(&app->scale, nodes, total, bsz, step, sync);
	return (0);
}

void
sim_app_grad(const struct sim_app *app, double b, uint32_t e, double *sqr,
    double *var)
{
	size_t	r = e < app->nrows ? e : app->nrows - 1;

	sim_app_lerp(app->grad + r * app->nval, app->nval, b, sqr, var);
}
