/* depend-judge.c: how a job's dependencies stand (depend-judge.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/array.h"
#include "daemon/controller/depend-judge.h"
#include "daemon/controller/job.h"

void
depend_judge_array_start(struct depend_judge_array *a, enum depend_type type,
    int32_t task)
{
	memset(a, 0, sizeof *a);
	a->type = type;
	a->task = task;
	a->st = DEPEND_MET;
	a->state = JOB_COMPLETED;
}

bool
depend_judge_array_wants(const struct depend_judge_array *a, int task,
    const char *tasks)
{
	struct array_set	set;
	char			err[128];
	bool			has;

	if (a->task < 0 || task == a->task)
		return (true);
	/* Another task, or a row that stands for no task. */
	if (task >= 0 || tasks == NULL || *tasks == '\0' ||
	    array_parse(tasks, &set, err, sizeof err) != 0)
		return (false);
	has = array_has(&set, (uint32_t)a->task);
	array_free(&set);
	return (has);
}

void
depend_judge_array_add(struct depend_judge_array *a, enum job_state state,
    bool started)
{
	enum depend_state	st = depend_judge(a->type, state, started);

	a->found = true;
	if (!job_state_is_terminal(state))
		a->active = true;
	if (st == DEPEND_NEVER && a->st != DEPEND_NEVER) {
		a->st = DEPEND_NEVER;
		a->state = state;
	} else if (st == DEPEND_WAIT && a->st == DEPEND_MET) {
		a->st = DEPEND_WAIT;
		a->state = state;
	}
}

bool
depend_judge_array_result(const struct depend_judge_array *a,
    enum depend_state *st, enum job_state *state, bool *final)
{
	if (!a->found)
		return (false);
	*st = a->st;
	*state = a->state;
	*final = !a->active;
	return (true);
}

enum depend_state
depend_judge_found(int found, enum depend_state st, enum job_state *state,
    bool final, struct depend_judge_kept *kept)
{
	if (found < 0)
		return (DEPEND_WAIT);
	if (found == 0) {
		*state = JOB_STATE_COUNT;
		st = DEPEND_NEVER;
		final = true;
	}
	if (final) {
		kept->st = st;
		kept->state = *state;
	}
	return (st);
}

bool
depend_judge_earlier_twin(uint64_t id, uint32_t uid, const char *name,
    uint64_t other, uint32_t other_uid, const char *other_name,
    enum job_state other_state)
{
	return (other < id && other_uid == uid &&
	    strcmp(other_name, name) == 0 &&
	    !job_state_is_terminal(other_state));
}

void
depend_judge_why(const struct depend_item *it, enum job_state state,
    char *why, size_t len)
{
	char	task[16];

	task[0] = '\0';
	if (it->task >= 0)
		snprintf(task, sizeof task, "_%d", (int)it->task);
	snprintf(why, len, "%s:%" PRIu64 "%s: job %" PRIu64 "%s %s",
	    depend_type_name(it->type), it->job, task, it->job, task,
	    state == JOB_STATE_COUNT ? "is gone (purged)" :
	    job_state_name(state));
}

bool
depend_judge_kills(uint32_t flags, bool kill_invalid_depend)
{
	if (flags & (JOB_F_KILL_INVALID_DEP | JOB_F_KEEP_INVALID_DEP))
		return ((flags & JOB_F_KILL_INVALID_DEP) != 0);
	return (kill_invalid_depend);
}

void
depend_judge_never_text(const char *why, char *msg, size_t len)
{
	snprintf(msg, len, "its dependency can never be satisfied (%s)", why);
}
