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

#include "common/job-state.h"

/* One row of the jobs table. Strings are borrowed: from the caller when
 * writing, from SQLite when reading (valid until the next store call). */
struct store_job {
	uint64_t	 id;
	const char	*name;
	const char	*user;
	uint32_t	 uid;
	uint32_t	 gid;
	enum job_state	 state;
	const char	*reason;
	uint32_t	 gpus;
	uint64_t	 time_limit;
	const char	*script;
	const char	*command;
	const char	*argv;		/* JSON array text */
	const char	*env;		/* JSON object text */
	const char	*workdir;
	const char	*stdout_path;
	const char	*stderr_path;
	int64_t		 submit_time;
	int64_t		 start_time;	/* 0 when never started */
	int64_t		 end_time;	/* 0 when not finished */
	bool		 has_exit;	/* exit_code and signal are known */
	int		 exit_code;
	int		 signal;
	const char	*message;
	const char	*node;		/* NULL when not placed */
	uint64_t	 gpu_mask;
	uint32_t	 restarts;

	/* Scheduling, as of the job's last start or stop (schema 3):
	 * service in GPU-ms, times in ms since the epoch (0: never). */
	uint64_t	 attained;
	int64_t		 executed;	/* ms run since the last promotion */
	int64_t		 run_total;	/* ms run in all */
	int64_t		 first_start;
	int64_t		 last_stop;
	uint32_t	 preemptions;
	uint32_t	 promotions;
	uint32_t	 flags;		/* JOB_F_* (job.h) */
	int		 ckpt_signal;	/* 0 reads as SIGUSR1 */
	uint32_t	 ckpt_grace;	/* seconds; 0: the config's */
	const char	*alloc;		/* multi-node GPUs, or NULL / "" */
	int		 umask;		/* the submitter's; -1 none sent */

	/* Not stored: the scheduler's queue for listings, -1 unknown. */
	int		 queue;
};

struct store_node {
	const char	*name;
	uint32_t	 gpus;
	bool		 drained;
	const char	*reason;
	int64_t		 last_seen;
};

typedef void	(*store_job_cb)(const struct store_job *, void *);
typedef void	(*store_node_cb)(const struct store_node *, void *);
typedef void	(*store_event_cb)(int64_t when, const char *from,
		    const char *to, const char *detail, void *);

/* Opens (creating) dir/gbatch.db, runs the pending migrations and prepares
 * the statements. begin_cb is called whenever a write opens a transaction,
 * so the caller can schedule the commit. Returns 0, or -1 with err set. */
int	 store_open(const char *dir, bool sync_full, void (*begin_cb)(void),
	     char *err, size_t errlen);
void	 store_close(void);

/* Whether a transaction is open (writes not yet committed). */
bool	 store_in_txn(void);
/* Commits the open transaction, if any (fsyncs with sync "full"). Returns
 * 0, or -1 with err set after rolling back. */
int	 store_commit(char *err, size_t errlen);

/* The id for the next job; ids are never reused, even across restarts. */
uint64_t store_job_next_id(void);

/* Writes; each returns 0, or -1 after logging what failed. */
int	 store_job_insert(const struct store_job *);
/* Updates the columns a transition changes (state onwards). */
int	 store_job_update(const struct store_job *);
int	 store_event_insert(uint64_t job, int64_t when, const char *from,
	     const char *to, const char *detail);
int	 store_node_save(const struct store_node *);

/* Reads. Each returns 0, or -1 after logging the failure. */
int	 store_job_each_active(store_job_cb, void *);
/* Jobs in state (and of user, unless NULL), in id order. */
int	 store_job_each_in_state(enum job_state, const char *user,
	     store_job_cb, void *);
/* Returns 1 with *row filled, 0 when no such job, -1 on failure. */
int	 store_job_get(uint64_t id, struct store_job *row);
/* Ends the use of the strings store_job_get returned. */
void	 store_job_done(void);
int	 store_node_each(store_node_cb, void *);
/* A job's state changes, oldest first (its history of runs). */
int	 store_job_events(uint64_t id, store_event_cb, void *);
/* The GPU-times (GPU-ms) of the last max completed jobs, newest first,
 * into a malloc'd array: the Gittins index's distribution. */
int	 store_job_gpu_times(size_t max, uint64_t **out, size_t *n);

#endif
