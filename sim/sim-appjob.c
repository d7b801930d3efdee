/* sim-appjob.c: a job training an application, its configuration on a
 * placement and its progress; see sim-appjob.h. */
#include <math.h>
#include <string.h>

#include "sim/sim-appjob.h"

void
sim_appjob_init(struct sim_appjob *j, const struct sim_app *app,
    uint32_t batch)
{
	memset(j, 0, sizeof *j);
	j->app = app;
	j->batch = batch != 0 ? batch : sim_app_init_batch(app);
}

/* ceil(a / b) for whole numbers, b > 0. */
static uint32_t
sim_appjob_ceil(uint32_t a, uint32_t b)
{
	return (a / b + (a % b != 0));
}

void
sim_appjob_config(const struct sim_app *app, uint32_t batch, uint32_t r,
    uint32_t *atomic, uint32_t *accum)
{
	uint32_t	local, cap, maxl = sim_app_max_local(app);

	local = sim_appjob_ceil(batch, r > 0 ? r : 1);
	*accum = sim_appjob_ceil(local, maxl > 0 ? maxl : 1) - 1;
	if (r == 1 && batch > sim_app_init_batch(app) && *accum < 1)
		*accum = 1;
	*atomic = sim_appjob_ceil(local, *accum + 1);
	cap = sim_app_max_batch(app) / ((r > 0 ? r : 1) * (*accum + 1));
	if (*atomic > cap)
		*atomic = cap;
	if (*atomic == 0)
		*atomic = 1;
}

int
sim_appjob_place(struct sim_appjob *j, const uint32_t *gpus, size_t n)
{
	uint32_t	r = 0, accum, atomic;
	double		step, sync;
	size_t		i;

	for (i = 0; i < n; i++)
		r += gpus[i];
	j->gpus = 0;
	if (r == 0)
		return (-1);
	sim_appjob_config(j->app, j->batch, r, &atomic, &accum);
	if (sim_app_step(j->app, gpus, n, atomic, &step, &sync) != 0)
		return (-1);
	j->gpus = r;
	j->atomic = atomic;
	j->accum = accum;
	j->trained = r * atomic * (accum + 1);
	j->step_s = step + (step - sync) * accum;
	j->raw_step = step;
	j->raw_sync = sync;
	return (0);
}

double
sim_appjob_rate(const struct sim_appjob *j, uint32_t e)
{
	double	sqr, var, scale, gain;

	if (j->gpus == 0 || !(j->step_s > 0))
		return (0);
	sim_app_grad(j->app, j->trained, e, &sqr, &var);
	scale = (double)j->trained / sim_app_init_batch(j->app);
	gain = var / scale + sqr > 0 ? (var + sqr) / (var / scale + sqr) : 1;
	return (gain / j->step_s);
}

int
sim_appjob_done(const struct sim_appjob *j)
{
	return (j->epoch >= sim_app_epochs(j->app));
}

int64_t
sim_appjob_left_ms(const struct sim_appjob *j)
{
	double		s = 0, rate, p = j->progress;
	uint32_t	e;

	for (e = j->epoch; e < sim_app_epochs(j->app); e++) {
		if (!((rate = sim_appjob_rate(j, e)) > 0))
			return (INT64_MAX / 4);
		s += (sim_app_progress(j->app, e + 1) - p) / rate;
		p = sim_app_progress(j->app, e + 1);
	}
	return ((int64_t)ceil(s * 1000));
}

int64_t
sim_appjob_epoch_ms(const struct sim_appjob *j)
{
	double	rate;
	int64_t	ms;

	if (sim_appjob_done(j))
		return (0);
	if (!((rate = sim_appjob_rate(j, j->epoch)) > 0))
		return (INT64_MAX / 4);
	ms = (int64_t)ceil((sim_app_progress(j->app, j->epoch + 1) -
	    j->progress) / rate * 1000);
	return (ms > 0 ? ms : 1);
}

void
sim_appjob_advance(struct sim_appjob *j, int64_t ms)
{
	double	s = (double)ms / 1000, need, rate;

	while (s > 0 && !sim_appjob_done(j)) {
		if (!((rate = sim_appjob_rate(j, j->epoch)) > 0))
			return;
		need = (sim_app_progress(j->app, j->epoch + 1) - j->progress) /
		    rate;
		if (need > s) {
			j->progress += rate * s;
			return;
		}
		s -= need;
		j->epoch++;
		j->progress = sim_app_progress(j->app, j->epoch);
	}
}
