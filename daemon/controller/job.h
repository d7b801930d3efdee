/* job.h: the controller's in-memory jobs: every job not yet finished, found
 * by id (hash), walked in id order, and the pending ones in queue order.
 * Finished jobs live only in the store, so nothing here grows with them.
 * Scripts and environments stay in the store too (launch reads them), which
 * keeps a pending job at a few hundred bytes. */
#ifndef GB_CTL_JOB_H
#define GB_CTL_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/job-state.h"
#include "daemon/controller/store.h"

struct job;
struct node;

/* Adds a job built from row (copied) to the table, the id-ordered list and,
 * when PENDING, the queue. Returns it; the table owns it. */
struct job	*job_create(const struct store_job *row);
/* Removes job from every list and frees it (after it finished). */
void		 job_free(struct job *);
/* Frees every job (at exit). */
void		 job_free_all(void);

struct job	*job_find(uint64_t id);
/* Active jobs in id order. */
struct job	*job_first(void);
struct job	*job_next(const struct job *);
/* Pending (not held) jobs in queue order. */
struct job	*job_pending_first(void);
struct job	*job_pending_next(const struct job *);
size_t		 job_count(enum job_state);

/* Fills row from job; strings are borrowed from job. Script and env are
 * NULL: only the store has them. */
void		 job_to_row(const struct job *, struct store_job *row);

uint64_t	 job_id(const struct job *);
enum job_state	 job_state(const struct job *);
const char	*job_name(const struct job *);
const char	*job_user(const struct job *);
uint32_t	 job_uid(const struct job *);
uint32_t	 job_gpus(const struct job *);
uint64_t	 job_time_limit(const struct job *);
struct node	*job_node(const struct job *);
uint64_t	 job_gpu_mask(const struct job *);
int64_t		 job_start_time(const struct job *);
const char	*job_reason(const struct job *);
bool		 job_cancel_requested(const struct job *);

/* reason must be a string that outlives the job (a literal), or one of the
 * names job_reason_intern returns. */
void		 job_set_reason(struct job *, const char *reason);
const char	*job_reason_intern(const char *);
void		 job_set_cancel_requested(struct job *, bool);

/* For job-change.c only: the fields a transition changes. The queue and
 * counters follow the state. */
void		 job_set_state(struct job *, enum job_state);
void		 job_set_run(struct job *, struct node *, uint64_t mask,
		     int64_t start_time);
void		 job_set_end(struct job *, int64_t end_time, bool has_exit,
		     int exit_code, int signal, const char *message);
void		 job_set_requeued(struct job *);

#endif
