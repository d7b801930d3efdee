/* goodput.h: what an elastic job's reports teach the scheduler (issue
 * 36): a throughput model fitted from the steps it measured, and its
 * statistical efficiency from the gradient statistics it reported, as
 * Pollux models its jobs, simplified. Pure: no clock, no I/O.
 *
 * A report is one configuration the job ran: its nodes, replicas (GPUs),
 * local (atomic) batch size, and the seconds of one step and of the
 * gradient's synchronisation within it. The model:
 *
 *   compute(b)  = ac + bc b           (a step's time less its sync), by
 *                                      least squares over the reports'
 *                                      local batch sizes; one size seen:
 *                                      proportional to b
 *   sync(N, R)  = 0 on one GPU; an + bn (R - 2) on one node, ar + br (R
 *                 - 2) across nodes, each fitted on its own reports
 *                 (one R seen: flat); a kind never seen is taken from
 *                 the other, or as 0 while neither is (the job has only
 *                 run alone: it will learn by growing)
 *   step(N, R, b, a) = compute(b) (a + 1) + sync(N, R): a accumulation
 *                 steps compute without syncing
 *
 * Statistical efficiency: with gradient statistics sqr and var reported,
 * a batch B trained at scale s = B / the first validated batch size gains
 * (var + sqr) / (var / s + sqr) a step (var 0 or none reported: s, a
 * perfectly efficient batch). Progress a second is that over the step.
 *
 * Exploration: a job is offered at most twice the most replicas it has
 * reported (Pollux's rule; one before any report), so that a model fitted
 * on one GPU is not trusted on sixty-four. */
#ifndef GB_POLICY_GOODPUT_H
#define GB_POLICY_GOODPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most distinct configurations a model keeps (the newest replace the
 * oldest). */
#define GOODPUT_REPORTS	32

struct goodput_report {
	uint32_t	nodes;
	uint32_t	replicas;
	uint32_t	local;		/* atomic batch size on each GPU */
	double		step_s;		/* one step */
	double		sync_s;		/* of it, syncing gradients */
};

struct goodput_model {
	struct goodput_report	 r[GOODPUT_REPORTS];
	size_t			 n, next;
	double			 sqr, var;	/* gradient statistics */
	bool			 grads;		/* reported */
	/* Fitted at each report. */
	double			 ac, bc, an, bn, ar, br;
	bool			 node, net;	/* sync kinds seen */
	uint32_t		 most;		/* replicas reported, the most */
};

/* An empty model: nothing known. */
void	goodput_init(struct goodput_model *);
/* The job reports a configuration it ran (one it reported before is
 * replaced), or its gradient statistics; the model is fitted again. */
void	goodput_report(struct goodput_model *, const struct goodput_report *);
void	goodput_grads(struct goodput_model *, double sqr, double var);
/* Whether anything was reported, and the most replicas to offer. */
bool	goodput_known(const struct goodput_model *);
uint32_t goodput_explore(const struct goodput_model *);
/* Seconds of a step on nodes x replicas at local batch size b with a
 * accumulation steps (0 while nothing is known). */
double	goodput_step(const struct goodput_model *, uint32_t nodes,
	    uint32_t replicas, uint32_t b, uint32_t a);
/* Progress a second (in steps at the first validated batch size,
 * init_batch) training batch trained = replicas x b x (a + 1) on that
 * configuration; 0 while nothing is known. */
double	goodput_rate(const struct goodput_model *, uint32_t nodes,
	    uint32_t replicas, uint32_t b, uint32_t a, uint32_t init_batch);

/* A job's speedups by GPU count over one GPU, s[1..top] (s[0] 0), its
 * global batch `batch` split over the GPUs (ceil(batch / n) each), packed
 * on nodes of gpn GPUs; top is the least of most, the GPUs the model may
 * be trusted on (goodput_explore) and max - 1. Returns top + 1, or 0
 * where the model gives no rate on one GPU. */
size_t	goodput_speedups(const struct goodput_model *, uint64_t batch,
	    uint32_t gpn, uint32_t most, uint32_t init_batch, double *s,
	    size_t max);

#endif
