/* gen-fair-trace.c (bench): writes a saturated trace for gsim's fairness
 * figures, deterministically, from the job sizes and durations of a real
 * trace (read where it lies, never copied: the Tiresias 60_job.csv has
 * them; the Pollux workloads give no durations).
 *   gen-fair-trace CASE SOURCE.csv CLUSTER_GPUS [JOBS] [LOAD] [SEED]
 * Each job is a source job drawn at random (its num_gpu and duration; jobs
 * larger than the cluster are left out); arrivals are Poisson at the rate
 * that offers LOAD percent (default 130) of the cluster's GPU-time, so
 * the queue grows and users compete. CASE says whose jobs they are:
 *   ten-to-one  users a and b in account lab, a submitting ten jobs for
 *               each of b's (every eleventh job is b's)
 *   tree        accounts vision (users v1, v2), nlp (user n1) and speech
 *               (user s1), speech under nlp in bench/fairness's shares;
 *               v1 and s1 submit 40% of the jobs each, v2 and n1 10%
 * Prints job_id,submit_time,num_gpus,duration,user,account. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/gen-util.h"
#include "common/xmalloc.h"
#include "sim/csv.h"

struct gen_fair_job {
	unsigned	gpus;
	double		duration;
};

/* Whose job is a draw, by case: the user and account of the first entry
 * whose cumulative weight passes it. */
struct gen_fair_owner {
	const char	*user;
	const char	*account;
	double		 weight;
};

static const struct gen_fair_owner gen_fair_ten[] = {
	{ "a", "lab", 10 }, { "b", "lab", 1 },
};
static const struct gen_fair_owner gen_fair_tree[] = {
	{ "v1", "vision", 4 }, { "v2", "vision", 1 }, { "n1", "nlp", 1 },
	{ "s1", "speech", 4 },
};

/* The source's jobs that fit gpus GPUs; exits 1 naming what is wrong. */
static struct gen_fair_job *
gen_fair_read(const char *path, long gpus, size_t *n)
{
	static const char *const cgpus[] = { "num_gpus", "num_gpu", NULL };
	static const char *const cdur[] = { "duration", NULL };
	struct gen_fair_job	*v = NULL;
	struct csv		 c;
	uint64_t		 g;
	int64_t			 ms;
	char			 err[1024], *have;
	size_t			 size = 0;
	int			 cg, cd, r;

	if (csv_open(&c, path, err, sizeof err) != 0)
		goto fail;
	if ((cg = csv_column(&c, cgpus)) < 0 ||
	    (cd = csv_column(&c, cdur)) < 0) {
		have = csv_header(&c);
		snprintf(err, sizeof err, "%s:1: the header has: %s (expected "
		    "num_gpus or num_gpu, and duration)", path, have);
		free(have);
		goto fail;
	}
	*n = 0;
	while ((r = csv_next(&c, err, sizeof err)) == 1) {
		if (csv_uint(&c, cg, "num_gpus", 0, UINT32_MAX, &g, err,
		    sizeof err) != 0 || csv_seconds(&c, cd, "duration", 1,
		    &ms, err, sizeof err) != 0)
			goto fail;
		if (g == 0 || g > (uint64_t)gpus)
			continue;
		if (*n == size) {
			size = size != 0 ? size * 2 : 256;
			v = xreallocarray(v, size, sizeof *v);
		}
		v[*n].gpus = (unsigned)g;
		v[(*n)++].duration = (double)ms / 1000;
	}
	if (r < 0)
		goto fail;
	if (*n == 0) {
		snprintf(err, sizeof err, "%s: no job of 1 to %ld GPUs", path,
		    gpus);
		goto fail;
	}
	csv_close(&c);
	return (v);
fail:
	fprintf(stderr, "gen-fair-trace: %s\n", err);
	exit(1);
}

int
main(int argc, char **argv)
{
	const char			*prog = "gen-fair-trace";
	const struct gen_fair_owner	*own;
	struct gen_fair_job		*src, *j;
	size_t				 nsrc, nown, k;
	double				 load = 1.3, mean = 0, rate, t = 0, u;
	double				 total = 0;
	long				 gpus, jobs = 3000, i;
	uint64_t			 state = GEN_UTIL_STATE;

	if (argc < 4 || argc > 7 || (strcmp(argv[1], "ten-to-one") != 0 &&
	    strcmp(argv[1], "tree") != 0)) {
		fprintf(stderr, "usage: gen-fair-trace ten-to-one|tree "
		    "SOURCE.csv CLUSTER_GPUS [JOBS] [LOAD] [SEED]\n");
		return (2);
	}
	own = strcmp(argv[1], "tree") == 0 ? gen_fair_tree : gen_fair_ten;
	nown = strcmp(argv[1], "tree") == 0 ?
	    sizeof gen_fair_tree / sizeof gen_fair_tree[0] :
	    sizeof gen_fair_ten / sizeof gen_fair_ten[0];
	gpus = gen_util_arg(prog, argv[3], "CLUSTER_GPUS", 1, 10000000);
	if (argc > 4)
		jobs = gen_util_arg(prog, argv[4], "JOBS", 1, 10000000);
	if (argc > 5)
		load = (double)gen_util_arg(prog, argv[5], "LOAD (percent)", 1,
		    1000) / 100;
	if (argc > 6)
		state += (uint64_t)gen_util_arg(prog, argv[6], "SEED", 0,
		    LONG_MAX);
	src = gen_fair_read(argv[2], gpus, &nsrc);
	for (k = 0; k < nsrc; k++)
		mean += src[k].gpus * src[k].duration / (double)nsrc;
	for (k = 0; k < nown; k++)
		total += own[k].weight;
	rate = load * (double)gpus / mean;

	printf("job_id,submit_time,num_gpus,duration,user,account\n");
	for (i = 0; i < jobs; i++) {
		j = &src[(size_t)(gen_util_uniform(&state) * (double)nsrc) %
		    nsrc];
		/* ten-to-one is exact (every eleventh job is b's); tree
		 * draws its owners by weight. */
		if (own == gen_fair_ten)
			k = i % 11 == 10;
		else {
			u = gen_util_uniform(&state) * total;
			for (k = 0; k + 1 < nown && (u -= own[k].weight) > 0;
			    k++)
				;
		}
		printf("%ld,%.0f,%u,%.0f,%s,%s\n", i, floor(t), j->gpus,
		    ceil(j->duration), own[k].user, own[k].account);
		t += -log(gen_util_uniform(&state)) / rate;
	}
	free(src);
	return (0);
}
