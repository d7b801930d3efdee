/* goodput.c: an elastic job's throughput and efficiency, as its reports
 * teach them; see goodput.h. */
#include <string.h>

#include "policy/goodput.h"

void
goodput_init(struct goodput_model *m)
{
	memset(m, 0, sizeof *m);
}

/* Least squares of y = a + b x over (x[i], y[i]), i < n; one distinct x:
 * b 0 and a their mean (or, proportional, a 0 and b the mean of y / x).
 * Neither goes below 0. */
static void
goodput_line(const double *x, const double *y, size_t n, bool proportional,
    double *a, double *b)
{
	double	sx = 0, sy = 0, sxx = 0, sxy = 0, d;
	size_t	i;

	*a = *b = 0;
	if (n == 0)
		return;
	for (i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
	}
	d = n * sxx - sx * sx;
	if (d > 1e-9 * (sxx > 1 ? sxx : 1)) {
		*b = (n * sxy - sx * sy) / d;
		*a = (sy - *b * sx) / n;
	} else if (proportional && sx > 0)
		*b = sy / sx;
	else
		*a = sy / n;
	if (*b < 0) {
		*b = 0;
		*a = sy / n;
	}
	if (*a < 0) {
		*a = 0;
		*b = sx > 0 ? sy / sx : 0;
	}
}

/* Fits the model again from its reports. */
static void
goodput_fit(struct goodput_model *m)
{
	double	x[GOODPUT_REPORTS], y[GOODPUT_REPORTS];
	size_t	i, k;
	int	net;

	for (i = 0; i < m->n; i++) {
		x[i] = m->r[i].local;
		y[i] = m->r[i].step_s - m->r[i].sync_s;
		if (y[i] < 0)
			y[i] = 0;
	}
	goodput_line(x, y, m->n, true, &m->ac, &m->bc);
	for (net = 0; net <= 1; net++) {
		for (i = k = 0; i < m->n; i++) {
			if (m->r[i].replicas < 2 || (m->r[i].nodes > 1) != net)
				continue;
			x[k] = m->r[i].replicas - 2.0;
			y[k++] = m->r[i].sync_s;
		}
		if (net) {
			goodput_line(x, y, k, false, &m->ar, &m->br);
			m->net = k > 0;
		} else {
			goodput_line(x, y, k, false, &m->an, &m->bn);
			m->node = k > 0;
		}
	}
}

void
goodput_report(struct goodput_model *m, const struct goodput_report *r)
{
	size_t	i;

	if (r->replicas == 0 || r->nodes == 0 || r->local == 0 ||
	    !(r->step_s > 0))
		return;
	for (i = 0; i < m->n; i++) {
		if (m->r[i].nodes == r->nodes &&
		    m->r[i].replicas == r->replicas &&
		    m->r[i].local == r->local)
			break;
	}
	if (i == m->n) {
		if (m->n < GOODPUT_REPORTS)
			i = m->n++;
		else {
			i = m->next;
			m->next = (m->next + 1) % GOODPUT_REPORTS;
		}
	}
	m->r[i] = *r;
	if (r->replicas > m->most)
		m->most = r->replicas;
	goodput_fit(m);
}

void
goodput_grads(struct goodput_model *m, double sqr, double var)
{
	if (!(sqr >= 0) || !(var >= 0))
		return;
	m->sqr = sqr;
	m->var = var;
	m->grads = true;
}

bool
goodput_known(const struct goodput_model *m)
{
	return (m->n > 0);
}

uint32_t
goodput_explore(const struct goodput_model *m)
{
	return (m->most > 0 ? 2 * m->most : 1);
}

double
goodput_step(const struct goodput_model *m, uint32_t nodes,
    uint32_t replicas, uint32_t b, uint32_t a)
{
	double	compute, sync = 0;
	bool	net = nodes > 1;

	if (m->n == 0)
		return (0);
	compute = m->ac + m->bc * b;
	if (replicas >= 2) {
		/* A kind never seen borrows the other's. */
		if (net ? m->net || !m->node : !m->node && m->net)
			sync = m->ar + m->br * (replicas - 2.0);
		else
			sync = m->an + m->bn * (replicas - 2.0);
	}
	return (compute * (a + 1) + sync);
}

size_t
goodput_speedups(const struct goodput_model *m, uint64_t batch, uint32_t gpn,
    uint32_t most, uint32_t init_batch, double *s, size_t max)
{
	uint32_t	n, top = goodput_explore(m);
	double		one = 0, r;

	if (gpn == 0 || batch == 0 || max < 2)
		return (0);
	if (top > most)
		top = most;
	if (top > max - 1)
		top = (uint32_t)(max - 1);
	for (n = 1; n <= top; n++) {
		r = goodput_rate(m, (n + gpn - 1) / gpn, n,
		    (uint32_t)((batch + n - 1) / n), 0, init_batch);
		if (n == 1 && (one = r) <= 0)
			return (0);
		s[n] = r / one;
	}
	s[0] = 0;
	return ((size_t)top + 1);
}

double
goodput_rate(const struct goodput_model *m, uint32_t nodes,
    uint32_t replicas, uint32_t b, uint32_t a, uint32_t init_batch)
{
	double	step = goodput_step(m, nodes, replicas, b, a), s, gain;

	if (!(step > 0) || init_batch == 0)
		return (0);
	s = (double)replicas * b * (a + 1) / init_batch;
	gain = m->grads && m->var + m->sqr > 0 ? (m->var + m->sqr) /
	    (m->var / s + m->sqr) : s;
	return (gain / step);
}
