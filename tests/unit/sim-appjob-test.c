/* sim-appjob-test.c: a job training an application (sim/sim-appjob.c):
 * its configuration on a placement at a batch size, its progress a second
 * by epoch, what it has left and how it moves on, on small tables written
 * to a temporary folder; every figure worked out by hand beside it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/sim-appjob.h"
#include "tests/unit/tap.h"

#define is_near(got, want, ...) do {					\
	double t_g = (got), t_w = (want);				\
	if (!ok(fabs(t_g - t_w) <= 1e-9 * fmax(1, fabs(t_w)), __VA_ARGS__)) \
		printf("#   got %.17g, want %.17g\n", t_g, t_w);	\
} while (0)

static char	t_dir[] = "/tmp/gbt-sim-appjob.XXXXXX";

static const char *const t_files[][2] = {
	/* One GPU: a step at local batch size 4 takes 1 s, at 8 2 s, no
	 * sync; two GPUs of a node: 1.1 s and 2.2 s, 0.2 of it syncing. */
	{ "placements.csv", "placement,local_bsz,step_time,sync_time\n"
	    "1,4,1.0,0.0\n1,8,2.0,0.0\n2,4,1.1,0.2\n2,8,2.2,0.2\n" },
	{ "scalability.csv", "num_nodes,num_replicas,local_bsz,step_time,"
	    "sync_time\n6,6,4,3.0,1.0\n6,6,8,4.0,1.0\n" },
	/* Two epochs of 10 units; in the first grad_sqr 1 and grad_var 3,
	 * in the second 1 and 1, at batch sizes 8 and 32 alike. */
	{ "validation-8.csv", "progress,iteration,metric,grad_sqr,grad_var\n"
	    "10,10,0.5,1,3\n20,20,0.6,1,1\n" },
	{ "validation-32.csv", "progress,iteration,metric,grad_sqr,grad_var\n"
	    "10,3,0.5,1,3\n20,6,0.6,1,1\n" },
};

static struct sim_app *
t_app(void)
{
	char		 path[512], err[512] = "";
	struct sim_app	*app;
	FILE		*fp;
	size_t		 i;

	if (mkdtemp(t_dir) == NULL)
		return (NULL);
	snprintf(path, sizeof path, "%s/toy", t_dir);
	mkdir(path, 0700);
	for (i = 0; i < sizeof t_files / sizeof t_files[0]; i++) {
		snprintf(path, sizeof path, "%s/toy/%s", t_dir, t_files[i][0]);
		if ((fp = fopen(path, "w")) == NULL ||
		    fputs(t_files[i][1], fp) == EOF || fclose(fp) == EOF)
			return (NULL);
	}
	if ((app = sim_app_load(t_dir, "toy", 0, err, sizeof err)) == NULL)
		printf("# %s\n", err);
	return (app);
}

static void
t_clean(void)
{
	char	path[512];
	size_t	i;

	for (i = 0; i < sizeof t_files / sizeof t_files[0]; i++) {
		snprintf(path, sizeof path, "%s/toy/%s", t_dir, t_files[i][0]);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/toy", t_dir);
	rmdir(path);
	rmdir(t_dir);
}

/* The configurations of Pollux's rigid jobs. The first validated batch
 * size is 8, the largest 32, local batch sizes up to 8. */
static void
test_place(const struct sim_app *app)
{
	static const uint32_t	one[] = { 1 }, two[] = { 2 }, none[] = { 0 };
	struct sim_appjob	j;

	/* 1 GPU, batch 8: local 8, no accumulation (8 is the first
	 * validated size), atomic 8: a step of 2 s. */
	sim_appjob_init(&j, app, 8);
	ok(sim_appjob_place(&j, one, 1) == 0 && j.gpus == 1 && j.accum == 0 &&
	    j.atomic == 8 && j.trained == 8, "1 GPU, batch 8: 8 at once");
	is_near(j.step_s, 2.0, "1 GPU, batch 8: 2 s a step");
	/* Batch 16: local 16 over 8 at most: one accumulation step,
	 * atomic 8, 16 trained; 2 + (2 - 0) = 4 s a step. */
	sim_appjob_init(&j, app, 16);
	ok(sim_appjob_place(&j, one, 1) == 0 && j.accum == 1 && j.atomic == 8 &&
	    j.trained == 16, "1 GPU, batch 16: 8 twice");
	is_near(j.step_s, 4.0, "1 GPU, batch 16: 4 s a step");
	/* Batch 12, above the first validated size on one GPU: one
	 * accumulation step though 12 would fit at once; atomic 6, a step
	 * 1.5 s (between 4 and 8), 1.5 + 1.5 = 3 s. */
	sim_appjob_init(&j, app, 12);
	ok(sim_appjob_place(&j, one, 1) == 0 && j.accum == 1 && j.atomic == 6 &&
	    j.trained == 12, "1 GPU, batch 12: 6 twice");
	is_near(j.step_s, 3.0, "1 GPU, batch 12: 3 s a step");
	/* 2 GPUs of a node, batch 32: local 16, one accumulation step,
	 * atomic 8 (the cap, 32 / (2 x 2), lets it); 2.2 + 2.0 = 4.2 s. */
	sim_appjob_init(&j, app, 32);
	ok(sim_appjob_place(&j, two, 1) == 0 && j.gpus == 2 && j.accum == 1 &&
	    j.atomic == 8 && j.trained == 32, "2 GPUs, batch 32: 8 twice each");
	is_near(j.step_s, 4.2, "2 GPUs, batch 32: 4.2 s a step");
	/* Batch 40, above the largest validated: local 20, two
	 * accumulation steps, atomic 7 capped to 32 / (2 x 3) = 5: 30
	 * trained. */
	sim_appjob_init(&j, app, 40);
	ok(sim_appjob_place(&j, two, 1) == 0 && j.accum == 2 && j.atomic == 5 &&
	    j.trained == 30, "2 GPUs, batch 40: capped at 5 thrice each");
	/* No batch: the first validated, 8. No GPU: refused. */
	sim_appjob_init(&j, app, 0);
	ok(j.batch == 8, "no batch size: the first validated");
	ok(sim_appjob_place(&j, none, 1) == -1 && j.gpus == 0,
	    "no GPU: no configuration");
	ok(sim_appjob_rate(&j, 0) == 0, "no configuration: no progress");
	ok(sim_appjob_epoch_ms(&j) == INT64_MAX / 4, "no progress: no end");
}

/* Progress by epoch. 1 GPU at batch 16 (scale 2): in the first epoch
 * (sqr 1, var 3) a step gains (3 + 1) / (3 / 2 + 1) = 1.6, 0.4 a second at
 * 4 s a step; in the second (1, 1) 2 / 1.5 = 4/3, 1/3 a second. Left:
 * 10 / 0.4 + 10 x 3 = 55 s. After 30 s: the first epoch took 25, 5 s of
 * the second made 5/3: 11.667 done, (20 - 11.667) x 3 = 25 s left. */
static void
test_progress(const struct sim_app *app)
{
	static const uint32_t	one[] = { 1 };
	struct sim_appjob	j;
	int64_t			left;

	sim_appjob_init(&j, app, 16);
	(void)sim_appjob_place(&j, one, 1);
	is_near(sim_appjob_rate(&j, 0), 0.4, "epoch 1: 0.4 a second");
	is_near(sim_appjob_rate(&j, 1), 1.0 / 3, "epoch 2: 1/3 a second");
	is_int(sim_appjob_left_ms(&j), 55000, "55 s left at the start");
	is_int(sim_appjob_epoch_ms(&j), 25000, "the first epoch: 10 / 0.4 s");
	sim_appjob_advance(&j, 30000);
	ok(j.epoch == 1, "after 30 s: one epoch done");
	is_near(j.progress, 10 + 5.0 / 3, "after 30 s: 11.667 units");
	left = sim_appjob_left_ms(&j);
	ok(left >= 25000 && left <= 25001, "after 30 s: 25 s left (%lld)",
	    (long long)left);
	is_int(sim_appjob_epoch_ms(&j), left, "its last epoch: the same");
	ok(!sim_appjob_done(&j), "not done");
	sim_appjob_advance(&j, 100000);
	ok(sim_appjob_done(&j) && j.epoch == 2 && j.progress == 20,
	    "past its end: done, at the last epoch's progress");
	is_int(sim_appjob_left_ms(&j), 0, "done: nothing left");
	is_int(sim_appjob_epoch_ms(&j), 0, "done: no epoch left");
	/* Placed elsewhere, it goes on from where it was: 2 GPUs at batch
	 * 16 run local 8 at once, 2.2 s a step, the same gain. */
	sim_appjob_init(&j, app, 16);
	(void)sim_appjob_place(&j, one, 1);
	sim_appjob_advance(&j, 20000);
	is_near(j.progress, 8, "1 GPU for 20 s: 8 units");
	(void)sim_appjob_place(&j, (const uint32_t[]){ 2 }, 1);
	is_near(sim_appjob_rate(&j, 0), 1.6 / 2.2, "then 2 GPUs: 1.6 / 2.2");
	ok(j.progress == 8 && j.epoch == 0, "a new placement keeps the work");
}

int
main(void)
{
	struct sim_app	*app = t_app();

	if (!ok(app != NULL, "the toy application loads"))
		return (tap_done());
	test_place(app);
	test_progress(app);
	sim_app_free(app);
	t_clean();
	return (tap_done());
}
