/* schedule.c: snapshot, pass, starts. The snapshot arrays are kept between
 * passes so a pass allocates nothing once the queue stopped growing. A pass
 * walks the pending queue and the nodes, never the finished jobs. */
#include <stdlib.h>

#include "common/xmalloc.h"
#include "daemon/controller/commit.h"
#include "daemon/controller/job-change.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/node.h"
#include "daemon/controller/schedule.h"
#include "policy/sched.h"

static bool			 schedule_dirty;
static struct sched_job		*schedule_jobs;
static struct job		**schedule_ptrs;
static enum sched_reason	*schedule_reasons;
static struct sched_start	*schedule_starts;
static size_t			 schedule_jobs_size;
static struct sched_node	*schedule_nodes;
static struct node		**schedule_nptrs;
static size_t			 schedule_nodes_size;

void
schedule_mark_dirty(void)
{
	schedule_dirty = true;
	commit_want();
}

bool
schedule_is_dirty(void)
{
	return (schedule_dirty);
}

static void
schedule_grow(size_t njobs, size_t nnodes)
{
	if (njobs > schedule_jobs_size) {
		schedule_jobs_size = njobs + njobs / 2 + 64;
		schedule_jobs = xreallocarray(schedule_jobs,
		    schedule_jobs_size, sizeof *schedule_jobs);
		schedule_ptrs = xreallocarray(schedule_ptrs,
		    schedule_jobs_size, sizeof *schedule_ptrs);
		schedule_reasons = xreallocarray(schedule_reasons,
		    schedule_jobs_size, sizeof *schedule_reasons);
		schedule_starts = xreallocarray(schedule_starts,
		    schedule_jobs_size, sizeof *schedule_starts);
	}
	if (nnodes > schedule_nodes_size) {
		schedule_nodes_size = nnodes + 16;
		schedule_nodes = xreallocarray(schedule_nodes,
		    schedule_nodes_size, sizeof *schedule_nodes);
		schedule_nptrs = xreallocarray(schedule_nptrs,
		    schedule_nodes_size, sizeof *schedule_nptrs);
	}
}

void
schedule_run(void)
{
	struct job		*j;
	struct node		*n;
	struct job_change	 how = { 0 };
	size_t			 njobs, nnodes, nstarts, i;

	schedule_dirty = false;
	njobs = job_count(JOB_PENDING);
	if (njobs == 0)
		return;
	schedule_grow(njobs, node_count());

	nnodes = 0;
	for (n = node_first(); n != NULL; n = node_next(n)) {
		schedule_nptrs[nnodes] = n;
		schedule_nodes[nnodes].gpus_total = node_gpus_total(n);
		schedule_nodes[nnodes].free_mask = node_free_mask(n);
		schedule_nodes[nnodes].schedulable = node_is_schedulable(n);
		nnodes++;
	}
	i = 0;
	for (j = job_pending_first(); j != NULL && i < njobs;
	    j = job_pending_next(j)) {
		schedule_ptrs[i] = j;
		schedule_jobs[i].id = job_id(j);
		schedule_jobs[i].gpus = job_gpus(j);
		i++;
	}
	njobs = i;

	nstarts = sched_fifo_pass(schedule_jobs, njobs, schedule_nodes,
	    nnodes, schedule_starts, njobs, schedule_reasons);
	for (i = 0; i < njobs; i++) {
		if (schedule_reasons[i] != SCHED_REASON_NONE)
			job_set_reason(schedule_ptrs[i], job_reason_intern(
			    sched_reason_name(schedule_reasons[i])));
	}
	for (i = 0; i < nstarts; i++) {
		j = schedule_ptrs[schedule_starts[i].job];
		how.node = schedule_nptrs[schedule_starts[i].node];
		how.mask = schedule_starts[i].gpu_mask;
		if (job_change_state(j, JOB_RUNNING, &how) == 0)
			launch_job(j);
	}
}

void
schedule_reconfigure(void)
{
	schedule_mark_dirty();
}

void
schedule_free(void)
{
	free(schedule_jobs);
	free(schedule_ptrs);
	free(schedule_reasons);
	free(schedule_starts);
	free(schedule_nodes);
	free(schedule_nptrs);
	schedule_jobs_size = schedule_nodes_size = 0;
}
