/* node-jobs-recover.c: a gnoded started again finds its jobs in the state
 * directory: it re-attaches to the shepherds still running and loads the
 * ends not yet acknowledged; a shepherd that died without recording an end
 * gives a FAILED end. Jobs run on under their shepherds meanwhile. */
#include <stdlib.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "daemon/node/node-jobs-int.h"
#include "daemon/node/node-proc.h"
#include "daemon/node/node-progress.h"
#include "daemon/node/node-record.h"

/* Re-attaches to the job's shepherd from its run record, or ends the job
 * when the shepherd is gone. */
static void
node_jobs_reattach(struct node_jobs *jobs, struct node_job *job, json_t *run)
{
	json_int_t	pid, ticks;

	node_jobs_set_gpus(job, json_object_get(run, "gpus"));
	job->progress = node_progress_attach(jobs->conf->state_dir, job->id);
	pid = json_integer_value(json_object_get(run, "shepherd_pid"));
	ticks = json_integer_value(json_object_get(run, "shepherd_start"));
	job->shep_pid = (pid_t)pid;
	job->shep_ticks = (uint64_t)ticks;
	job->pid = (pid_t)json_integer_value(json_object_get(run, "pid"));
	job->start_time = (time_t)json_integer_value(json_object_get(run,
	    "start_time"));
	job->state = job->pid > 0 ? NODE_JOB_RUNNING : NODE_JOB_STARTING;
	job->preempted = json_is_true(json_object_get(run, "preempted"));
	if (json_is_integer(json_object_get(run, "uid")))
		job->uid = json_integer_value(json_object_get(run, "uid"));
	job->restarts = (unsigned)json_integer_value(json_object_get(run,
	    "restarts"));
	job->num_nodes = (unsigned)json_integer_value(json_object_get(run,
	    "num_nodes"));
	/* Shards of its GPU, beside others (0: the GPU whole). */
	job->gpu_share = (unsigned)json_integer_value(json_object_get(run,
	    "gpu_share"));
	/* Its GPU's MPS daemon outlived the last gnoded. */
	if (json_is_true(json_object_get(run, "mps")) &&
	    json_array_size(job->gpus) == 1 && job->uid >= 0) {
		job->mps = true;
		node_mps_rejoin(jobs->mps, (unsigned)json_integer_value(
		    json_array_get(job->gpus, 0)), (uid_t)job->uid);
	}
	if (json_is_string(json_object_get(run, "cpuset")))
		job->cpuset = xstrdup(json_string_value(json_object_get(run,
		    "cpuset")));
	if (pid > 0 && node_proc_matches(job->shep_pid, job->shep_ticks)) {
		job->pidfd = node_proc_pidfd_open(job->shep_pid);
		/* Checked again with the pidfd held: it cannot now come to
		 * mean another process. */
		if (node_proc_matches(job->shep_pid, job->shep_ticks)) {
			log_info("job %llu: re-attached to shepherd %ld",
			    (unsigned long long)job->id, (long)job->shep_pid);
			node_jobs_watch(job);
			/* Its terminal or pipes went with the last gnoded:
			 * nobody can reach it any more. */
			if (json_is_true(json_object_get(run, "interactive"))) {
				job->interactive = true;
				node_jobs_cancel_interactive(jobs, job->id);
			}
			return;
		}
	}
	node_jobs_reap(job);
}

int
node_jobs_recover(struct node_jobs *jobs, char *err, size_t errlen)
{
	const char	*state_dir = jobs->conf->state_dir;
	struct node_job	*job;
	uint64_t	*ids;
	json_t		*rec;
	size_t		 n, i;
	char		 why[512];

	if (node_record_scan(state_dir, &ids, &n, err, errlen) == -1)
		return (-1);
	for (i = 0; i < n; i++) {
		job = node_jobs_new_job(jobs, ids[i]);
		rec = node_record_read(state_dir, ids[i], NODE_RECORD_END, why,
		    sizeof why);
		if (rec != NULL &&
		    json_is_string(json_object_get(rec, "state"))) {
			job->state = NODE_JOB_ENDED;
			job->end = rec;
			log_info("job %llu: ended %s while gnoded was away",
			    (unsigned long long)job->id,
			    json_string_value(json_object_get(rec, "state")));
			continue;
		}
		json_decref(rec);
		rec = node_record_read(state_dir, ids[i], NODE_RECORD_RUN, why,
		    sizeof why);
		if (rec == NULL) {
			log_warn("job %llu: unreadable record, dropped: %s",
			    (unsigned long long)job->id, why);
			node_record_remove(state_dir, ids[i]);
			node_jobs_free_job(job);
			continue;
		}
		node_jobs_reattach(jobs, job, rec);
		json_decref(rec);
	}
	free(ids);
	node_mps_sweep(jobs->mps);
	return (0);
}

