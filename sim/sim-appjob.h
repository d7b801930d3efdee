/* sim-appjob.h: a job that trains an application (sim-app.h) for its
 * epochs, as Pollux's simulator study runs its jobs: what it has done, and
 * how fast it goes on a placement at a total batch size. Pure: the clock is the
 * caller's, in milliseconds of run time.
 *
 * The run's configuration on R GPUs at a total batch size B (Pollux's
 * rigid jobs): local = ceil(B / R); accumulation steps a = ceil(local /
 * the application's largest local batch size) - 1, at least 1 on one GPU
 * when B is over the application's first validated batch size; the atomic
 * batch size b = ceil(local / (a + 1)), at most the largest validated
 * batch size / (R (a + 1)); the batch trained is R b (a + 1). One step
 * takes step + (step - sync) a seconds (the tables' step and sync time of
 * the placement at b: the gradient's synchronisation once a step).
 *
 * Progress: the validation files' units (iterations at the first
 * validated batch size). Training at batch size B' during epoch e gains
 * (var + sqr) / (var / s + sqr) a step, s = B' / the first validated
 * batch size, sqr and var the gradient's statistics at B' in epoch e (its
 * statistical efficiency times s): a larger batch makes fewer steps count
 * for more, by less than its size. The job ends with its last epoch. */
#ifndef GB_SIM_SIM_APPJOB_H
#define GB_SIM_SIM_APPJOB_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim-app.h"

struct sim_appjob {
	const struct sim_app	*app;
	uint32_t		 batch;		/* asked: total batch size */
	uint32_t		 epoch;		/* epochs done */
	double			 progress;	/* done, the app's units */
	/* The run's configuration (sim_appjob_place): GPUs, atomic batch
	 * size, accumulation steps, batch trained, seconds a step; 0 GPUs:
	 * not placed. */
	uint32_t		 gpus;
	uint32_t		 atomic;
	uint32_t		 accum;
	uint32_t		 trained;
	double			 step_s;
	double			 raw_step, raw_sync;	/* the tables' */
};

/* A job of app at total batch size batch (0: the app's first validated
 * size), nothing done. */
void	sim_appjob_init(struct sim_appjob *, const struct sim_app *app,
	    uint32_t batch);
/* The atomic batch size and accumulation steps of batch on r GPUs (the
 * rules above). */
void	sim_appjob_config(const struct sim_app *, uint32_t batch, uint32_t r,
	    uint32_t *atomic, uint32_t *accum);
/* Works the run's configuration out for gpus[0..n) GPUs on each node
 * (zeros skipped). Returns 0, or -1 when they hold no GPU. */
int	sim_appjob_place(struct sim_appjob *, const uint32_t *gpus, size_t n);
/* Progress per second during epoch e on the configuration placed. */
double	sim_appjob_rate(const struct sim_appjob *, uint32_t e);
/* Milliseconds of run on the configuration placed until the job is done
 * (rounded up; 0 when it is). */
int64_t	sim_appjob_left_ms(const struct sim_appjob *);
/* Milliseconds of run on the configuration placed until its epoch ends
 * (rounded up, one at least, so that running that long always ends it;
 * 0 when the job is done; INT64_MAX / 4 when it makes no progress). */
int64_t	sim_appjob_epoch_ms(const struct sim_appjob *);
/* The job ran ms on the configuration placed: its epochs and progress
 * move on (none past the last). */
void	sim_appjob_advance(struct sim_appjob *, int64_t ms);
/* Whether every epoch is done. */
int	sim_appjob_done(const struct sim_appjob *);

#endif
