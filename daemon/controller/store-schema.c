/* store-schema.c: the database's schema, as an ordered list of
 * migrations, and running the ones a database has not seen (store.c does
 * at open). */
#include <stdio.h>

#include <sqlite3.h>

#include "common/log.h"
#include "daemon/controller/store-int.h"

/* The schema, as an ordered list of migrations. PRAGMA user_version holds
 * how many have run; a new version appends an entry, never edits one. */
static const char *const store_schema_migrations[] = {
	/* 1: jobs, their event log, nodes. */
	"CREATE TABLE jobs ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" name TEXT NOT NULL, user TEXT NOT NULL,"
	" uid INTEGER NOT NULL, gid INTEGER NOT NULL,"
	" state TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '',"
	" gpus INTEGER NOT NULL, time_limit INTEGER NOT NULL,"
	" script TEXT NOT NULL, command TEXT NOT NULL,"
	" argv TEXT NOT NULL, env TEXT NOT NULL,"
	" workdir TEXT NOT NULL, stdout TEXT NOT NULL, stderr TEXT NOT NULL,"
	" submit_time INTEGER NOT NULL, start_time INTEGER NOT NULL DEFAULT 0,"
	" end_time INTEGER NOT NULL DEFAULT 0,"
	" exit_code INTEGER, signal INTEGER, message TEXT NOT NULL DEFAULT '',"
	" node TEXT, gpu_mask INTEGER NOT NULL DEFAULT 0,"
	" restarts INTEGER NOT NULL DEFAULT 0);"
	"CREATE INDEX jobs_state ON jobs (state);"
	"CREATE TABLE job_events ("
	" id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL,"
	" time INTEGER NOT NULL, from_state TEXT NOT NULL,"
	" to_state TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '');"
	"CREATE INDEX job_events_job ON job_events (job_id);"
	"CREATE TABLE nodes ("
	" name TEXT PRIMARY KEY, gpus INTEGER NOT NULL,"
	" drained INTEGER NOT NULL DEFAULT 0, reason TEXT NOT NULL DEFAULT '',"
	" last_seen INTEGER NOT NULL DEFAULT 0);",
	/* 2: scripts and environments out of the rows, shared (see above).
	 * Rows of version 1 keep their text inline, with ids 0. */
	"CREATE TABLE job_texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
	"ALTER TABLE jobs ADD COLUMN script_id INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN env_id INTEGER NOT NULL DEFAULT 0;",
	/* 3: scheduling (Tiresias). Service in GPU-ms, times in ms since
	 * the epoch as of the job's last start or stop; the per-job
	 * checkpoint settings and flags of gsub; the nodes of a multi-node
	 * allocation ("n1:0x0f,n2:0x0f", '' when node and gpu_mask say it).
	 * Finished jobs' GPU-times feed the Gittins index. */
	"ALTER TABLE jobs ADD COLUMN attained INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN executed INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN run_total INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN first_start INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN last_stop INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN preemptions INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN promotions INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN ckpt_signal INTEGER NOT NULL DEFAULT 10;"
	"ALTER TABLE jobs ADD COLUMN ckpt_grace INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN alloc TEXT NOT NULL DEFAULT '';",
	/* 4: the submitter's umask, for the job's files. NULL for the jobs
	 * of earlier versions, whose launch then carries none and gnoded
	 * picks (node-launch.h). */
	"ALTER TABLE jobs ADD COLUMN umask INTEGER;",
	/* 5: accounting. Each run of a job in job_runs (its nodes and GPUs
	 * as "n1:0x3,n2:0x3", how it ended: a finished state, PREEMPTED or
	 * REQUEUED), written with the transition that starts or ends it;
	 * node_events for the time nodes spent down or drained; the time a
	 * job waited; indexes for time ranges over finished jobs. Jobs of
	 * earlier versions get their last run, and as their wait the time
	 * to their first start. */
	"ALTER TABLE jobs ADD COLUMN queue_delay INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN pending_since INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN last_queue INTEGER NOT NULL DEFAULT 0;"
	"UPDATE jobs SET queue_delay = MAX(first_start - submit_time * 1000,"
	" 0) WHERE first_start > 0;"
	"UPDATE jobs SET pending_since = MAX(last_stop, submit_time * 1000)"
	" WHERE state = 'PENDING';"
	/* jobs_acct covers what gacct --report reads of a job, so a
	 * year of jobs is read from the index alone, in end-time order. */
	"CREATE INDEX jobs_acct ON jobs (end_time, user, state, gpus,"
	" submit_time, queue_delay, preemptions, last_queue);"
	"CREATE INDEX jobs_user_end ON jobs (user, end_time);"
	"CREATE TABLE job_runs ("
	" id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL,"
	" user TEXT NOT NULL, run INTEGER NOT NULL,"
	" start_time INTEGER NOT NULL,"
	" end_time INTEGER NOT NULL DEFAULT 0, gpus INTEGER NOT NULL,"
	" alloc TEXT NOT NULL, end_state TEXT NOT NULL DEFAULT '',"
	" exit_code INTEGER, signal INTEGER,"
	" preempt_time INTEGER NOT NULL DEFAULT 0);"
	"CREATE INDEX job_runs_job ON job_runs (job_id);"
	/* job_runs_end covers what the reports read of a run. */
	"CREATE INDEX job_runs_end ON job_runs (end_time, start_time, user,"
	" gpus, alloc);"
	"INSERT INTO job_runs (job_id, user, run, start_time, end_time, gpus,"
	" alloc, end_state, exit_code, signal) SELECT id, user, restarts,"
	" start_time,"
	" end_time, gpus, CASE WHEN alloc != '' THEN alloc ELSE node ||"
	" printf(':0x%x', gpu_mask) END, CASE WHEN end_time > 0 THEN state"
	" ELSE '' END, exit_code, signal FROM jobs WHERE start_time > 0 AND"
	" node IS NOT NULL ORDER BY id;"
	"CREATE TABLE node_events ("
	" id INTEGER PRIMARY KEY, node TEXT NOT NULL, time INTEGER NOT NULL,"
	" state TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '');"
	"CREATE INDEX node_events_node ON node_events (node, time);",
	/* 6: retention (store-purge.c). Whether a purged job's script or
	 * environment is still some job's, and which node events are old,
	 * become searches instead of scans. */
	"CREATE INDEX jobs_script ON jobs (script_id);"
	"CREATE INDEX jobs_env ON jobs (env_id);"
	"CREATE INDEX node_events_time ON node_events (time);",
	/* 7: gacct lists jobs by end time, then id. With id second in
	 * jobs_acct the index hands them over in that order; after end_time
	 * alone, SQLite sorted every second's jobs by id, which was a third
	 * of a million-job listing. */
	"DROP INDEX jobs_acct;"
	"CREATE INDEX jobs_acct ON jobs (end_time, id, user, state, gpus,"
	" submit_time, queue_delay, preemptions, last_queue);",
	/* 8: the account a job is charged to and the submitter's comment
	 * (sbatch's -A and --comment), '' for the jobs before. */
	"ALTER TABLE jobs ADD COLUMN account TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE jobs ADD COLUMN comment TEXT NOT NULL DEFAULT '';",
	/* 9: when a job may start at the earliest (sbatch's --begin), 0
	 * for at once, as every job before. */
	"ALTER TABLE jobs ADD COLUMN begin_time INTEGER NOT NULL DEFAULT 0;",
	/* 10: what a job waits for (sbatch's --dependency), '' for
	 * nothing, as every job before. */
	"ALTER TABLE jobs ADD COLUMN dependency TEXT NOT NULL DEFAULT '';",
	/* 11: the signal sent before the time limit (sbatch's --signal),
	 * none for the jobs before. */
	"ALTER TABLE jobs ADD COLUMN warn_signal INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN warn_time INTEGER NOT NULL DEFAULT 0;",
	/* 12: job arrays (sbatch's --array): the array a job is a task of
	 * and its task, the tasks an array's own row still stands for, and
	 * the whole array as submitted; no array for the jobs before. The
	 * index finds an array's tasks (gcancel 42). */
	"ALTER TABLE jobs ADD COLUMN array_job_id INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN array_task_id INTEGER;"
	"ALTER TABLE jobs ADD COLUMN array_tasks TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE jobs ADD COLUMN array_spec TEXT NOT NULL DEFAULT '';"
	"CREATE INDEX jobs_array ON jobs (array_job_id) WHERE"
	" array_job_id != 0;",
	/* 13: the nodes a job may run on, those it may not, and its GPU
	 * type (sbatch's -w, -x, --gres=gpu:TYPE:N); none for the jobs
	 * before. */
	"ALTER TABLE jobs ADD COLUMN req_nodes TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE jobs ADD COLUMN exclude_nodes TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE jobs ADD COLUMN gpu_type TEXT NOT NULL DEFAULT '';",
	/* 14: shapes and tasks (sbatch's -N, --ntasks-per-node), the
	 * rendezvous port of a running job, and CPUs and memory (sbatch's
	 * -c, --cpus-per-gpu, --mem, --mem-per-gpu; none asked: the node's
	 * share), and what its cgroups counted (none for the jobs before). The jobs before took GPUs split
	 * any way, and keep doing so (JOB_F_ANY_SHAPE); one process per
	 * node; a job running now keeps its port (launch.c picks the same
	 * one for its id, 0 here). */
	"ALTER TABLE jobs ADD COLUMN num_nodes INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN tasks_per_node TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE jobs ADD COLUMN master_port INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN cpus_per_gpu INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN cpus_per_task INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN mem INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN mem_per_gpu INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN mem_peak INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN cpu_time INTEGER NOT NULL DEFAULT 0;"
	"UPDATE jobs SET flags = flags | 128;",
	/* 15: the CPUs a job's run held (sacct's AllocCPUS, squeue's %C);
	 * the jobs before, 0: not known. */
	"ALTER TABLE jobs ADD COLUMN alloc_cpus INTEGER NOT NULL DEFAULT 0;",
	/* 16: job steps, a row a task of each (srun's in a batch script,
	 * grun --jobid): its number, the number of its step's first task
	 * (which names the step, JOBID.FIRST), where it ran and how it
	 * ended (end_time 0 while it runs). */
	"CREATE TABLE job_steps ("
	" job_id INTEGER NOT NULL, step INTEGER NOT NULL,"
	" first INTEGER NOT NULL, user TEXT NOT NULL, node TEXT NOT NULL,"
	" task INTEGER NOT NULL DEFAULT 0, ntasks INTEGER NOT NULL DEFAULT 1,"
	" command TEXT NOT NULL DEFAULT '', start_time INTEGER NOT NULL,"
	" end_time INTEGER NOT NULL DEFAULT 0,"
	" state TEXT NOT NULL DEFAULT 'RUNNING', exit_code INTEGER,"
	" signal INTEGER, PRIMARY KEY (job_id, step));"
	/* The highest number, where they go on from after a restart,
	 * without a scan. */
	"CREATE INDEX job_steps_step ON job_steps (step);",
	/* 17: the partitions a job may run in (sbatch's -p); '' for the
	 * jobs before, which the default partition takes. */
	"ALTER TABLE jobs ADD COLUMN partition TEXT NOT NULL DEFAULT '';",
	/* 18: accounts and users (sacctmgr's associations, store-assoc.c):
	 * the account tree ('' the parent of a root) with its shares, and
	 * each user's accounts, one of them the default. Limits are 0 for
	 * none; max_time in seconds, gpu_hours a month's budget. */
	"CREATE TABLE accounts ("
	" name TEXT PRIMARY KEY, parent TEXT NOT NULL DEFAULT '',"
	" shares INTEGER NOT NULL DEFAULT 1,"
	" description TEXT NOT NULL DEFAULT '',"
	" max_gpus INTEGER NOT NULL DEFAULT 0,"
	" max_jobs INTEGER NOT NULL DEFAULT 0,"
	" max_pending INTEGER NOT NULL DEFAULT 0,"
	" max_time INTEGER NOT NULL DEFAULT 0,"
	" gpu_hours INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE account_users ("
	" user TEXT NOT NULL, account TEXT NOT NULL,"
	" is_default INTEGER NOT NULL DEFAULT 0,"
	" max_gpus INTEGER NOT NULL DEFAULT 0,"
	" max_jobs INTEGER NOT NULL DEFAULT 0,"
	" max_pending INTEGER NOT NULL DEFAULT 0,"
	" max_time INTEGER NOT NULL DEFAULT 0,"
	" PRIMARY KEY (user, account));",
	/* 19: a job's QOS (gsub --qos); '' for the jobs before, which the
	 * default QOS takes. */
	"ALTER TABLE jobs ADD COLUMN qos TEXT NOT NULL DEFAULT '';",
	/* 20: a job's nice and priority (gsub --nice, --priority). */
	"ALTER TABLE jobs ADD COLUMN nice INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;",
	/* 21: what a run was charged to and where it ran, kept with it from
	 * its start: the account (budgets, gacct --report accounts) and the
	 * partition of its job's list it ran in (gacct --report
	 * partitions). Runs before get their job's account and the first
	 * partition of its list (the default's name, gbatch, for none). */
	"ALTER TABLE job_runs ADD COLUMN account TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE job_runs ADD COLUMN partition TEXT NOT NULL DEFAULT '';"
	"UPDATE job_runs SET (account, partition) = (SELECT account, CASE"
	" WHEN partition = '' THEN 'gbatch' WHEN instr(partition, ',') > 0"
	" THEN substr(partition, 1, instr(partition, ',') - 1) ELSE"
	" partition END FROM jobs WHERE jobs.id = job_runs.job_id) WHERE"
	" EXISTS (SELECT 1 FROM jobs WHERE jobs.id = job_runs.job_id);",
	/* 22: the QOS a run ran in, kept with it from its start as its
	 * account is (gacct --report qos, the usage factor a budget and
	 * a report charge it at), so that a job moved to another QOS
	 * later does not rewrite its runs. Runs before get their job's
	 * QOS: '' for a job from before QOS, which the reports take as
	 * the default's. */
	"ALTER TABLE job_runs ADD COLUMN qos TEXT NOT NULL DEFAULT '';"
	"UPDATE job_runs SET qos = (SELECT qos FROM jobs WHERE jobs.id ="
	" job_runs.job_id) WHERE EXISTS (SELECT 1 FROM jobs WHERE jobs.id ="
	" job_runs.job_id);",
	/* 23: advance reservations (gctl reservation, scontrol create
	 * reservation; store-resv.c): a name, a window of time (seconds
	 * since the epoch, from start_time to end_time), its nodes as a
	 * host list, the users and accounts it is for (names joined by
	 * ','), its flags (resv-tab.h's RESV_F_*). AUTOINCREMENT: an id is
	 * never given twice, so a name made of it (root_7) never comes
	 * back for the jobs still asking for the one deleted. And the
	 * reservation a job asked for (gsub --reservation), '' for none,
	 * as every job before. */
	"CREATE TABLE reservations ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,"
	" start_time INTEGER NOT NULL, end_time INTEGER NOT NULL,"
	" nodes TEXT NOT NULL, users TEXT NOT NULL DEFAULT '',"
	" accounts TEXT NOT NULL DEFAULT '',"
	" flags INTEGER NOT NULL DEFAULT 0);"
	"ALTER TABLE jobs ADD COLUMN reservation TEXT NOT NULL DEFAULT '';",
	/* 24: an elastic job's most GPUs (gsub -G MIN-MAX: gpus is MIN),
	 * 0 for a rigid job, as every job before, and its resizes. */
	"ALTER TABLE jobs ADD COLUMN gpus_max INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN resizes INTEGER NOT NULL DEFAULT 0;",
	/* 25: time suspended (gctl suspend), ms: over every run, in the
	 * current run (its time limit is put off by it), and since when it
	 * is now (0: it is not); none for every job before. */
	"ALTER TABLE jobs ADD COLUMN suspended INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN run_suspended INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN suspend_since INTEGER NOT NULL DEFAULT 0;",
	/* 26: time-slicing (gsub --time-slice: 1 asks it) and the GPU
	 * memory a job declares (gsub --gpu-mem, MB; 0: not said); neither
	 * for every job before. */
	"ALTER TABLE jobs ADD COLUMN time_slice INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE jobs ADD COLUMN gpu_mem INTEGER NOT NULL DEFAULT 0;",
	/* 27: the shards of its one GPU a job takes (gsub --gpu-share; 0:
	 * the whole GPU, as for every job before). */
	"ALTER TABLE jobs ADD COLUMN gpu_share INTEGER NOT NULL DEFAULT 0;",
};
#define STORE_SCHEMA_VERSION \
	((int)(sizeof store_schema_migrations /				\
	sizeof store_schema_migrations[0]))


/* Runs the migrations the database has not seen, each in its own
 * transaction with the version bump, so a crash leaves a whole version. */
int
store_schema_migrate(char *err, size_t errlen)
{
	char	 sql[64], detail[160];
	int	 v;

	v = (int)store_int("PRAGMA user_version");
	if (v > STORE_SCHEMA_VERSION) {
		snprintf(err, errlen, "the database has schema version %d, "
		    "newer than this gbatchd knows (%d); run a newer gbatchd",
		    v, STORE_SCHEMA_VERSION);
		return (-1);
	}
	for (; v < STORE_SCHEMA_VERSION; v++) {
		snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
		if (store_exec("BEGIN", detail, sizeof detail) != 0 ||
		    store_exec(store_schema_migrations[v], detail,
		    sizeof detail) != 0 ||
		    store_exec(sql, detail, sizeof detail) != 0 ||
		    store_exec("COMMIT", detail, sizeof detail) != 0) {
			snprintf(err, errlen, "schema migration to version %d: "
			    "%s", v + 1, detail);
			(void)store_exec("ROLLBACK", detail, sizeof detail);
			return (-1);
		}
		log_info("store: schema migrated to version %d", v + 1);
	}
	return (0);
}
