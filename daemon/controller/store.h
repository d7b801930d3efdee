/* store.h: gbatchd's SQLite database (state_dir/gbatch.db, WAL, mode 0600).
 * Writes go into one transaction that the first write opens and
 * commit.c closes once per loop pass (group commit), so every write function
 * here only queues work in that transaction. Statements are prepared once
 * at open and reused. Nothing here blocks except store_commit (fsync). */
#ifndef GB_CTL_STORE_H
#define GB_CTL_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-field.h"
#include "common/job-state.h"
#include "daemon/controller/store-row.h"

/* The store's files in its state directory: the database, and SQLite's
 * WAL and shared memory beside it (a replica removes them at its start,
 * gbatchd --seed keeps them under another name). */
#define STORE_DB	"gbatch.db"
#define STORE_FILES	{ STORE_DB, STORE_DB "-wal", STORE_DB "-shm" }

typedef void	(*store_job_cb)(const struct store_job *, void *);
typedef void	(*store_run_cb)(const struct store_run *, void *);
typedef void	(*store_node_cb)(const struct store_node *, void *);
typedef void	(*store_event_cb)(int64_t when, const char *from,
		    const char *to, const char *detail, void *);

/* How a commit reaches the disk (SQLite's synchronous): FULL, fsynced
 * before it returns (controller.sync "full"); NORMAL, fsynced at the
 * WAL's checkpoints only ("normal"); OFF, never, for a replica's store,
 * which is rebuilt from raft's log at every start. */
enum store_sync {
	STORE_SYNC_OFF,
	STORE_SYNC_NORMAL,
	STORE_SYNC_FULL,
};

/* Sets SQLite up for this process: call before any other SQLite call. */
void	 store_tune(void);

/* Opens (creating) dir/gbatch.db, runs the pending migrations and prepares
 * the statements. begin_cb is called whenever a write opens a transaction,
 * so the caller can schedule the commit. Returns 0, or -1 with err set. */
int	 store_open(const char *dir, enum store_sync, void (*begin_cb)(void),
	     char *err, size_t errlen);
void	 store_close(void);

/* Whether a transaction is open (writes not yet committed). */
bool	 store_in_txn(void);
/* Commits the open transaction, if any (fsyncs with sync "full"). Returns
 * 0, or -1 with err set after rolling back. */
int	 store_commit(char *err, size_t errlen);

/* Replicas (store-log.h): with capture on, each commit leaves the
 * changeset it wrote, taken right after store_commit (free with
 * store_log_free; NULL with *len 0 when it wrote nothing). A follower
 * applies others' changesets and installs images; both need no
 * transaction open, and return 0 or -1 with err set and nothing
 * changed. */
void	 store_capture(bool on);
void	*store_changeset_take(size_t *len);
/* Frees a changeset or an image of the store. */
void	 store_changeset_free(void *);
int	 store_changeset_apply(const void *, size_t len, char *err,
	     size_t errlen);
/* n changesets, in order, in one transaction: all or none. */
int	 store_changesets_apply(const void *const *, const size_t *lens,
	     size_t n, char *err, size_t errlen);
void	*store_image(size_t *len, char *err, size_t errlen);
int	 store_restore(const void *, size_t len, char *err, size_t errlen);

/* The id for the next job; ids are never reused, even across restarts. */
uint64_t store_job_next_id(void);
/* The id the next job will get, without taking it. */
uint64_t store_job_peek_id(void);

/* Writes; each returns 0, or -1 after logging what failed. */
int	 store_job_insert(const struct store_job *);
/* Writes a copy of job from, script and environment included, as job id,
 * task task of its array (job-array.c splits a task off its array). */
int	 store_job_copy(uint64_t from, uint64_t id, int task);
/* Updates the columns a transition changes (state onwards). */
int	 store_job_update(const struct store_job *);
/* Updates the columns of a waiting job's request that may change
 * (JFF_EDIT: name, comment, dependency, time limit, nodes, flags). */
int	 store_job_edit(const struct store_job *);
int	 store_event_insert(uint64_t job, int64_t when, const char *from,
	     const char *to, const char *detail);
int	 store_node_save(const struct store_node *);
/* A node went DOWN or came UP, was DRAINED or RESUMED, at when (seconds):
 * node_events, what gacct --report counts capacity from. */
int	 store_node_event(const char *node, int64_t when, const char *state,
	     const char *detail);
/* job_runs, written by job-change.c with the transition they record: a
 * run starts; the job's open run ends (state: a finished state,
 * PREEMPTED or REQUEUED); its preemption begins; a run thought ended
 * goes on (a re-adopted job). A run starts in partition (the one of its
 * job's list it runs in), and is charged to its job's account in its
 * job's QOS, as they are at its start. */
int	 store_run_start(uint64_t job, uint32_t run, int64_t start,
	     uint32_t gpus, const char *alloc, const char *partition);
int	 store_run_end(uint64_t job, int64_t end, const char *state,
	     bool has_exit, int exit_code, int signal);
int	 store_run_preempt(uint64_t job, int64_t when);
int	 store_run_reopen(uint64_t job);
/* The allocation text (alloc-text.h) of job's open run into buf (len
 * bytes): 0, or -1 when it has none, it does not fit or the store
 * failed (logged). */
int	 store_run_open_alloc(uint64_t job, char *buf, size_t len);

/* job_steps (store-step.c): a task of a step of a running job, a row a
 * task. */
struct store_step {
	uint64_t	 job;
	uint32_t	 step;		/* the task's own number */
	uint32_t	 first;		/* its step's first task's: the step */
	const char	*user;
	const char	*node;
	uint32_t	 task;		/* its rank in the step */
	uint32_t	 ntasks;	/* the step's */
	const char	*command;
	int64_t		 start_time;
	int64_t		 end_time;	/* 0: it runs */
	const char	*state;
	bool		 has_exit;
	int		 exit_code;
	int		 signal;
};
typedef void	(*store_step_cb)(const struct store_step *, void *);
/* A task started (its row), ended (state COMPLETED, FAILED, CANCELLED),
 * or, its job ended, every task of job not yet ended ends so at end. */
int	 store_step_start(const struct store_step *);
int	 store_step_end(uint64_t job, uint32_t step, int64_t end,
	     const char *state, int exit_code, int signal);
int	 store_step_close(uint64_t job, int64_t end, const char *state);
/* The highest task number recorded (0: none): numbers go on from it
 * after a restart. */
uint32_t store_step_max(void);
/* Calls cb for each task of job's steps, by number. Returns 0, or -1
 * after logging the failure. */
int	 store_step_list(uint64_t job, store_step_cb cb, void *arg);

/* Reads. Each returns 0, or -1 after logging the failure. */
/* Every job not finished, in no order (read on threads, store-load.c):
 * an ORDER BY id would have SQLite sort whole rows, which costs more than
 * reading them (job_load_end sorts the jobs made of them). */
int	 store_job_each_active(store_job_cb, void *);
/* Whether any job, finished or not, is user's: 1, 0, or -1 on failure. */
int	 store_user_has_jobs(const char *user);
/* Jobs in state (and of user, unless NULL) that ended at ended_since or
 * later (0: all), in id order. */
int	 store_job_each_in_state(enum job_state, const char *user,
	     int64_t ended_since, store_job_cb, void *);
/* Returns 1 with *row filled, 0 when no such job, -1 on failure. */
int	 store_job_get(uint64_t id, struct store_job *row);
/* Each job of array id (its row and its tasks), in id order. */
int	 store_job_each_of_array(uint64_t id, store_job_cb, void *);
/* Ends the use of the strings store_job_get returned. */
void	 store_job_done(void);
int	 store_node_each(store_node_cb, void *);
/* A job's state changes, oldest first (its history of runs). */
int	 store_job_events(uint64_t id, store_event_cb, void *);
/* The GPU-times (GPU-ms) of the last max completed jobs, newest first,
 * into a malloc'd array: the Gittins index's distribution. */
int	 store_job_gpu_times(size_t max, uint64_t **out, size_t *n);
/* The last max completed jobs, oldest first: cb with each one's user,
 * name (borrowed for the call), GPUs and run time in all (ms). */
typedef void	(*store_history_cb)(const char *user, const char *name,
		    uint32_t gpus, uint64_t run_ms, void *);
int	 store_job_history(size_t max, store_history_cb, void *);

/* Retention (store-purge.c): deleting the finished jobs that ended before
 * cutoff (seconds), in batches of the oldest first. pos is where the next
 * batch starts; zero it for the first. */
struct store_purge_pos {
	int64_t		 end_time;
	uint64_t	 id;
};
/* Deletes up to max such jobs after pos, with their runs, their events
 * and the scripts and environments no job uses any more, all or none (a
 * savepoint in the open transaction), and moves pos past them. Sets *n to
 * how many went: fewer than max means none is left. Jobs in any other
 * state than a finished one are never touched. Returns 0, or -1 after
 * logging (nothing of the batch is deleted). */
int	 store_purge_jobs(int64_t cutoff, size_t max,
	     struct store_purge_pos *pos, size_t *n);
/* Counts them instead (gctl purge --dry-run): looks at up to max jobs
 * that ended before cutoff after pos, sets *n to how many of them are
 * finished and moves pos past them; *more: there may be others. Returns 0, or -1
 * after logging. */
int	 store_purge_count(int64_t cutoff, size_t max,
	     struct store_purge_pos *pos, size_t *n, bool *more);
/* Deletes up to max node events older than cutoff; *n: how many. Returns
 * 0, or -1 after logging. */
int	 store_purge_node_events(int64_t cutoff, size_t max, size_t *n);

#endif
