/* schedule.c: the scheduling passes and what they decide. A pass runs at
 * the end of a loop pass that changed something (core_mark_dirty; commit.c
 * runs it before the commit, so its writes join the requests') and when the
 * core asked to be woken (the next demotion, promotion or begin time: a
 * timer, never a poll). It hands the core the jobs whose begin time or
 * dependencies came, cancels those whose dependencies never can, and
 * carries out the core's actions: start a job on its GPUs and launch it,
 * preempt a job, freeze or thaw one for time-slicing's turns. What the core holds is core.c's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "common/log.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/depend-judge.h"
#include "daemon/controller/depend-wait.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/metrics.h"
#include "daemon/controller/node-health.h"
#include "daemon/controller/schedule.h"
#include "policy/sched-core.h"

/* Judges waiting job j again: into the core when its conditions are met,
 * cancelled when they never can be and that is asked for. */
static void
schedule_deps_one(struct job *j, int64_t now)
{
	struct job_change	how;
	char			why[512], msg[640];

	if (job_state(j) != JOB_PENDING || job_sched(j)->cjob != NULL ||
	    *job_dependency(j) == '\0')
		return;
	core_submit(j, now);
	if (job_sched(j)->cjob != NULL || !depend_judge_kills(job_flags(j),
	    ctx_conf()->kill_invalid_depend) ||
	    depend_wait_judge(j, why, sizeof why) != DEPEND_NEVER)
		return;
	depend_judge_never_text(why, msg, sizeof msg);
	memset(&how, 0, sizeof how);
	how.message = msg;
	how.detail = msg;
	if (job_change_state(j, JOB_CANCELLED, &how) != 0)
		log_error("job %" PRIu64 ": cannot cancel it: the store failed",
		    job_id(j));
}

/* After jobs changed: judges the jobs waiting for others again, hands the
 * core those whose conditions are met, and cancels those that can never
 * start where that is asked for. */
static void
schedule_deps_due(int64_t now)
{
	struct job	*j, *next;
	uint64_t	*ids;
	size_t		 n, i;

	/* Taken first: the changes below add ids of their own, for the
	 * next pass. */
	n = depend_wait_take(&ids);
	if (core_take_deps_all()) {
		for (j = job_table_first(); j != NULL; j = next) {
			next = job_table_next(j);
			schedule_deps_one(j, now);
		}
	} else {
		for (i = 0; i < n; i++) {
			if ((j = job_table_find(ids[i])) != NULL)
				schedule_deps_one(j, now);
		}
	}
	free(ids);
}

static void
schedule_start(struct job *j, int64_t now)
{
	struct job_change	 how = { 0 };
	struct job_part		*parts;
	size_t			 na;

	parts = core_alloc(j, &na);
	how.parts = parts;
	how.nparts = na;
	if (job_change_state(j, JOB_RUNNING, &how) != 0) {
		free(parts);
		core_not_started(j, now);
		return;
	}
	free(parts);
	metrics_count_start();
	launch_job(j);
}

/* The job that starts when the core starts j: j, or for a job array's
 * row that stands for more than one task, its lowest task split off it,
 * which takes j's handle; the row goes back in the queue for the rest,
 * at its place (its submit time and id), and a pass follows for them. */
static struct job *
schedule_task(struct job *j, int64_t now)
{
	struct job	*t;

	if (!job_array_is_row(j))
		return (j);
	if ((t = job_array_split(j, array_min(job_array_left(j)))) == NULL)
		return (j);
	if (t == j)
		return (j);
	core_hand_over(j, t, now);
	return (t);
}

static void
schedule_preempt(struct job *j)
{
	struct job_change	how = { 0 };
	char			detail[96];

	/* Preempting already (a restarted controller asks again): the
	 * node ignores a second request, and the end requeues the job. */
	if (job_state(j) != JOB_PREEMPTING) {
		snprintf(detail, sizeof detail, "preempted in queue %u for a "
		    "job of a higher queue",
		    sched_cjob_queue(job_sched(j)->cjob));
		how.detail = detail;
		if (job_change_state(j, JOB_PREEMPTING, &how) != 0)
			return;
		metrics_count_preempt();
	}
	(void)launch_preempt(j);
}

/* An elastic job grows: stopped at its checkpoint as a preempted job is,
 * it restarts on its new count at the next pass (sched-core-elastic.c). */
static void
schedule_resize(struct job *j)
{
	struct job_change	how = { 0 };
	char			detail[128];

	if (job_state(j) != JOB_PREEMPTING) {
		snprintf(detail, sizeof detail, "resized: stopped at its "
		    "checkpoint to restart on more GPUs (elastic, %u-%u)",
		    job_gpus(j), job_gpus_max(j));
		how.detail = detail;
		if (job_change_state(j, JOB_PREEMPTING, &how) != 0)
			return;
		metrics_count_resize();
	}
	(void)launch_preempt(j);
}

/* Time-slicing (policy/sched-core-slice.c): a job frozen for another's
 * turn on its GPUs, or thawed for its own. The core has it so already;
 * the store, the listings and the node follow. */
static void
schedule_turn(struct job *j, bool suspend)
{
	struct job_change	how = { 0 };

	how.reason = "TimeSlice";
	how.detail = suspend ? "suspended for another job's turn on its GPUs "
	    "(time-slicing)" : "resumed for its turn on its GPUs "
	    "(time-slicing)";
	if (job_change_state(j, suspend ? JOB_SUSPENDED : JOB_RUNNING,
	    &how) != 0)
		return;
	if (suspend)
		metrics_count_switch();
	(void)launch_suspend(j, suspend);
}

void
schedule_run(void)
{
	const struct sched_action	*acts;
	size_t				 n, i;
	int64_t				 now, wait, t0 = metrics_clock_us();

	core_prepare();
	now = ctx_now_ms();
	/* After a restart, no pass until the nodes of running jobs are back
	 * (node-health.c owns the window). */
	if ((wait = node_health_restart_wait(now)) > 0) {
		/* A HELLO marks the schedule dirty; this is the backstop. */
		core_wake_in(wait);
		return;
	}
	core_begin_due(now);
	schedule_deps_due(now);
	n = core_pass(now, &acts);
	for (i = 0; i < n; i++) {
		if (acts[i].type == SCHED_ACT_START)
			schedule_start(schedule_task(sched_cjob_arg(
			    acts[i].job), now), now);
		else if (acts[i].type == SCHED_ACT_RESIZE)
			schedule_resize(sched_cjob_arg(acts[i].job));
		else if (acts[i].type == SCHED_ACT_SUSPEND ||
		    acts[i].type == SCHED_ACT_RESUME)
			schedule_turn(sched_cjob_arg(acts[i].job),
			    acts[i].type == SCHED_ACT_SUSPEND);
		else
			schedule_preempt(sched_cjob_arg(acts[i].job));
	}
	core_wake_arm(now);
	metrics_observe_pass_us(metrics_clock_us() - t0);
}
