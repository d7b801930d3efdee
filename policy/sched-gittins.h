/* sched-gittins.h: the Gittins index, 2D-Gittins' order within a queue:
 * how likely a job is to finish within its quantum, for the service it
 * has, against what it will cost, judged from the GPU-times of finished
 * jobs. The samples are kept sorted with their prefix sums, so an index
 * costs two binary searches. Pure: no I/O, no clock. */
#ifndef GB_SCHED_GITTINS_H
#define GB_SCHED_GITTINS_H

#include <stddef.h>
#include <stdint.h>

struct sched_gittins {
	uint64_t	*samples;	/* GPU-ms, sorted */
	double		*prefix;	/* prefix sums of samples, n + 1 */
	size_t		 n;
};

/* Keeps a sorted copy of samples[0..n) (GPU-times in GPU-ms, any order;
 * borrowed) and their prefix sums; n 0 keeps none. Aborts when memory is
 * out. */
void		 sched_gittins_init(struct sched_gittins *,
		     const uint64_t *samples, size_t n);
void		 sched_gittins_free(struct sched_gittins *);

/* The Gittins index of a job with attained service a (GPU-ms) given the
 * sorted samples and the quantum delta (GPU-ms; 0: no upper bound):
 * P(S - a <= delta | S > a) / E[min(S - a, delta) | S > a]; 0 for a job
 * older than every sample. Takes the arrays, not the struct, for the
 * tests. */
double		 sched_gittins_index(const uint64_t *sorted,
		     const double *prefix, size_t n, uint64_t a,
		     uint64_t delta);

#endif
