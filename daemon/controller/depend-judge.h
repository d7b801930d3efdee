/* depend-judge.h: how a job's dependencies stand, from what is known of the
 * jobs they name (sbatch's --dependency; common/depend.h judges one
 * condition on one job and joins them). What this adds: a condition on a
 * job array holds when it holds for every member (the array's row and its
 * tasks, or the one task named); an outcome, once final, is kept, and a
 * job gone from the store (purged) can never meet one; singleton waits
 * for the earlier jobs of its user and name; the text that says why a job
 * can never start; and whether such a job is cancelled.
 *
 * Pure: depend-wait.c looks the jobs up (in memory, in the store) and
 * hands the rules what it found. tests/unit/depend-judge-test.c covers
 * them. */
#ifndef GB_CTL_DEPEND_JUDGE_H
#define GB_CTL_DEPEND_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/depend.h"
#include "common/job-state.h"

/* A condition over a job array's members, judged member by member. */
struct depend_judge_array {
	enum depend_type	 type;
	int32_t			 task;		/* -1: every task */
	enum depend_state	 st;
	enum job_state		 state;		/* the member that decided */
	bool			 active;	/* a member is still active */
	bool			 found;		/* any member */
};

/* Starts judging a condition of type on an array's task (-1: all). */
void	depend_judge_array_start(struct depend_judge_array *,
	    enum depend_type type, int32_t task);
/* Whether a job of the array stands for the task asked for: it is that
 * task (task), or the array's row that still stands for it (task -1,
 * tasks the text of the tasks it stands for), or every task is asked. */
bool	depend_judge_array_wants(const struct depend_judge_array *,
	    int task, const char *tasks);
/* Adds a member in state (started: it has run): one that can never meet
 * the condition decides it, else one that waits. */
void	depend_judge_array_add(struct depend_judge_array *,
	    enum job_state state, bool started);
/* The condition's state, the state of the member that decided it (to name
 * in a message; COMPLETED when all met it) and whether it is final (no
 * member is still active). Returns false when no member was found (no
 * such task). */
bool	depend_judge_array_result(const struct depend_judge_array *,
	    enum depend_state *st, enum job_state *state, bool *final);

/* A condition's outcome, kept once final (the job it names ended, or is
 * gone): such a job is read once. */
struct depend_judge_kept {
	enum depend_state	 st;		/* DEPEND_WAIT: not final yet */
	enum job_state		 state;		/* JOB_STATE_COUNT: purged */
};

/* A condition's state from what its look-up found: found 1 (the job is
 * known: st, *state, final), 0 (no such job: purged since, its outcome
 * gone with it; *state becomes JOB_STATE_COUNT) or -1 (the store failed:
 * it waits, judged again next time). A final outcome is kept in kept. */
enum depend_state depend_judge_found(int found, enum depend_state st,
	    enum job_state *state, bool final, struct depend_judge_kept *kept);

/* Whether job other (id, uid, name, state) is an earlier job of the same
 * user and name as job id still to end: a singleton waits for it. */
bool	depend_judge_earlier_twin(uint64_t id, uint32_t uid, const char *name,
	    uint64_t other, uint32_t other_uid, const char *other_name,
	    enum job_state other_state);

/* Why condition it can never be met, the job it names being in state
 * (JOB_STATE_COUNT: purged): "afterok:12: job 12 FAILED", into why. */
void	depend_judge_why(const struct depend_item *it, enum job_state state,
	    char *why, size_t len);

/* Whether a job that can never start is cancelled: its own word (gsub
 * --kill-on-invalid-dep: the JOB_F_KILL_INVALID_DEP and
 * JOB_F_KEEP_INVALID_DEP flags), else the cluster's
 * (scheduler.kill_invalid_depend). */
bool	depend_judge_kills(uint32_t flags, bool kill_invalid_depend);
/* The message of such a job cancelled, why being depend_judge_why's
 * text. */
void	depend_judge_never_text(const char *why, char *msg, size_t len);

#endif
