/* gen-trace.c (bench): writes a synthetic cluster trace in the Tiresias
 * format, deterministically (the same arguments, the same bytes), for the
 * gsim benchmarks.
 *   gen-trace JOBS CLUSTER_GPUS [LOAD] [SEED]
 * Job sizes follow deep-learning clusters (half of them 1 GPU, a few 16 or
 * 32); run times are log-uniform from 1 minute to 2 days; arrivals are
 * Poisson at the rate that keeps LOAD (default 0.9) of the GPUs busy. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>

#include "bench/gen-util.h"

int
main(int argc, char **argv)
{
	static const struct { double p; unsigned g; } sizes[] = {
		{ 0.50, 1 }, { 0.15, 2 }, { 0.15, 4 }, { 0.15, 8 },
		{ 0.04, 16 }, { 0.01, 32 },
	};
	static const char *const models[] = { "resnet50", "vgg16",
	    "inception3", "bert", "gpt2", "alexnet" };
	const double	 dmin = 60, dmax = 2 * 86400;
	double		 load = 0.9, mean_g = 0, mean_d, rate, t = 0, u, d;
	long		 jobs, gpus, i;
	unsigned	 g, k;
	uint64_t	 state = GEN_UTIL_STATE;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: gen-trace JOBS CLUSTER_GPUS [LOAD] "
		    "[SEED]\n");
		return (2);
	}
	jobs = gen_util_arg("gen-trace", argv[1], "JOBS", 1, 10000000);
	gpus = gen_util_arg("gen-trace", argv[2], "CLUSTER_GPUS", 32,
	    10000000);
	if (argc > 3)
		load = (double)gen_util_arg("gen-trace", argv[3],
		    "LOAD (percent)", 1, 200) / 100;
	if (argc > 4)
		state += (uint64_t)gen_util_arg("gen-trace", argv[4], "SEED",
		    0, LONG_MAX);
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
		mean_g += sizes[k].p * sizes[k].g;
	mean_d = (dmax - dmin) / log(dmax / dmin);
	rate = load * (double)gpus / (mean_g * mean_d);

	printf("job_id,num_gpu,submit_time,iterations,model_name,duration,"
	    "interval\n");
	for (i = 0; i < jobs; i++) {
		u = gen_util_uniform(&state);
		g = sizes[0].g;
		for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
			g = sizes[k].g;
			if ((u -= sizes[k].p) <= 0)
				break;
		}
		d = dmin * exp(gen_util_uniform(&state) * log(dmax / dmin));
		printf("%ld,%u,%.0f,%ld,%s,%.0f,0\n", i, g, floor(t),
		    (long)(d * 3), models[i % 6], ceil(d));
		t += -log(gen_util_uniform(&state)) / rate;
	}
	return (0);
}
