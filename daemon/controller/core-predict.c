/* core-predict.c: the controller's duration predictor (policy/predict.h):
 * what the completed jobs ran, learned from the store at first use (the
 * last CORE_PREDICT_HISTORY of them) and then as each completes, and what
 * that predicts of a job's run time. Backfill leans on it where a job has
 * no time limit; a listing shows it, and how it was made. Only completed
 * jobs teach it: a failed or cancelled job's run says little of how long
 * its like would have run, and one that timed out was cut short. */
#include <stdbool.h>
#include <stdint.h>

#include "common/log.h"
#include "daemon/controller/core-int.h"
#include "daemon/controller/core.h"
#include "daemon/controller/job.h"
#include "daemon/controller/store.h"
#include "policy/predict.h"

/* The completed jobs read at start: PREDICT_WINDOW runs of every key
 * the recent past has, and more than the predictor keeps of most. */
#define CORE_PREDICT_HISTORY	100000

static void
core_predict_load_one(const char *user, const char *name, uint32_t gpus,
    uint64_t run_ms, void *arg)
{
	struct predict_job	pj = { user, name, gpus };

	predict_learn(arg, &pj, run_ms, run_ms * gpus);
}

/* The predictor, read from the store the first time it is needed. */
static struct predict *
core_predict(void)
{
	if (core.predict == NULL) {
		core.predict = predict_create(PREDICT_MAX_KEYS);
		if (store_job_history(CORE_PREDICT_HISTORY,
		    core_predict_load_one, core.predict) != 0)
			log_warn("schedule: run times are predicted from the "
			    "jobs that complete from now on");
	}
	return (core.predict);
}

static void
core_predict_job(const struct job *j, struct predict_job *pj)
{
	pj->user = job_user(j);
	pj->name = job_name(j);
	pj->gpus = job_gpus(j);
}

bool
core_predict_guess(const struct job *j, struct predict_guess *g)
{
	struct predict_job	pj;

	core_predict_job(j, &pj);
	return (predict_guess(core_predict(), &pj, g));
}

int64_t
core_predict_run_ms(const struct job *j)
{
	struct predict_guess	g;

	if (!core_predict_guess(j, &g) || g.run_ms > INT64_MAX)
		return (0);
	return ((int64_t)g.run_ms);
}

int64_t
core_predict_run_for(const struct job *j)
{
	int64_t	ms;

	if (job_time_limit(j) > 0)
		return ((int64_t)job_time_limit(j) * 1000);
	if ((ms = core_predict_run_ms(j)) == 0)
		return (CORE_PREDICT_NEVER);
	/* A prediction is of the run time in all: less what ran before. */
	ms -= job_service(j)->run_total;
	return (ms > 0 ? ms : 0);
}

int64_t
core_predict_end(const struct job *j)
{
	int64_t	run = core_predict_run_for(j);

	if (run == CORE_PREDICT_NEVER)
		return (CORE_PREDICT_NEVER);
	return (job_start_time(j) * 1000 + run);
}

size_t
core_predict_similar(const struct job *j, uint64_t *out, size_t max)
{
	struct predict_job	pj;

	core_predict_job(j, &pj);
	return (predict_similar(core_predict(), &pj, out, max));
}

void
core_predict_learn(const struct job *j, const struct store_job *row)
{
	struct predict_job	pj;

	if (row->run_total <= 0)
		return;
	core_predict_job(j, &pj);
	predict_learn(core_predict(), &pj, (uint64_t)row->run_total,
	    (uint64_t)row->run_total * job_gpus(j));
}
