/* job-filter.c: which jobs a listing shows (job-filter.h). */
#include <sys/types.h>

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "client/job-filter.h"
#include "client/slurm-part.h"
#include "common/xmalloc.h"

void
job_filter_init(struct job_filter *f)
{
	memset(f, 0, sizeof *f);
}

void
job_filter_clear(struct job_filter *f)
{
	int	i;

	for (i = 0; i < f->nusers; i++)
		free(f->users[i]);
	json_decref(f->ids);
	free(f->name);
	json_decref(f->partitions);
	job_filter_init(f);
}

int
job_filter_add_user(struct job_filter *f, const char *name, char *err,
    size_t errlen)
{
	if (f->nusers == JOB_FILTER_MAX_USERS) {
		snprintf(err, errlen, "more than %d users",
		    JOB_FILTER_MAX_USERS);
		return (-1);
	}
	if (*name == '\0') {
		snprintf(err, errlen, "an empty user name");
		return (-1);
	}
	f->users[f->nusers++] = xstrdup(name);
	return (0);
}

void
job_filter_add_me(struct job_filter *f)
{
	f->me = true;
}

int
job_filter_add_state(struct job_filter *f, const char *item, char *err,
    size_t errlen)
{
	enum job_state	s;
	int		i;

	if (strcasecmp(item, "all") == 0) {
		for (i = 0; i < JOB_STATE_COUNT; i++)
			f->state[i] = true;
		f->states_set = true;
		return (0);
	}
	if (job_state_parse(item, &s) == -1) {
		snprintf(err, errlen, "unknown state \"%s\"; accepted: "
		    "PENDING (PD), HELD (H), RUNNING (R), PREEMPTING (PR), "
		    "COMPLETED (CD), FAILED (F), TIMEOUT (TO), CANCELLED (CA), "
		    "NODE_FAIL (NF), OUT_OF_MEMORY (OOM), or all", item);
		return (-1);
	}
	f->state[s] = true;
	f->states_set = true;
	return (0);
}

void
job_filter_add_id(struct job_filter *f, uint64_t id)
{
	if (f->ids == NULL)
		f->ids = json_array();
	json_array_append_new(f->ids, json_integer((json_int_t)id));
}

void
job_filter_set_name(struct job_filter *f, const char *substring)
{
	free(f->name);
	f->name = substring != NULL && *substring != '\0' ?
	    xstrdup(substring) : NULL;
}

void
job_filter_set_partitions(struct job_filter *f, const char *list)
{
	const char	*w, *end;

	json_decref(f->partitions);
	f->partitions = NULL;
	if (list == NULL || *list == '\0')
		return;
	f->partitions = json_array();
	for (w = list; *w != '\0'; w = *end != '\0' ? end + 1 : end) {
		end = w + strcspn(w, ",");
		json_array_append_new(f->partitions,
		    json_stringn(w, (size_t)(end - w)));
	}
}

void
job_filter_wire_fields(const struct job_filter *f, json_t *fields)
{
	if (f->partitions != NULL)
		json_array_append_new(fields, json_string("partition"));
}

bool
job_filter_finished(const struct job_filter *f)
{
	int	i;

	for (i = 0; f->states_set && i < JOB_STATE_COUNT; i++) {
		if (f->state[i] && job_state_is_terminal((enum job_state)i))
			return (true);
	}
	return (false);
}

void
job_filter_request(const struct job_filter *f, json_t *req)
{
	json_t	*states, *users;
	int	 i;

	if (json_array_size(f->ids) > 0)
		json_object_set(req, "ids", f->ids);
	if (f->states_set) {
		states = json_array();
		for (i = 0; i < JOB_STATE_COUNT; i++) {
			if (f->state[i])
				json_array_append_new(states, json_string(
				    job_state_name((enum job_state)i)));
		}
		json_object_set_new(req, "states", states);
	}
	if (f->nusers > 0) {
		users = json_array();
		for (i = 0; i < f->nusers; i++)
			json_array_append_new(users, json_string(f->users[i]));
		json_object_set_new(req, "users", users);
	}
	if (f->ended_since > 0)
		json_object_set_new(req, "ended_since",
		    json_integer((json_int_t)f->ended_since));
	if (f->forget_finished)
		json_object_set_new(req, "forget_finished", json_true());
}

/* Whether state and name (NULL: absent) pass: the controller filtered
 * the users. */
static bool
job_filter_pass(const struct job_filter *f, const char *state,
    const char *name)
{
	enum job_state	s;

	if (f->states_set && (state == NULL || job_state_parse(state,
	    &s) == -1 || !f->state[s]))
		return (false);
	if (f->name != NULL && (name == NULL || strstr(name, f->name) ==
	    NULL))
		return (false);
	return (true);
}

bool
job_filter_trivial(const struct job_filter *f)
{
	return (!f->states_set && f->name == NULL && f->partitions == NULL);
}

bool
job_filter_match(const struct job_filter *f, const struct job_row *row)
{
	char	state[32], name[1024], part[1100];

	/* Most listings have nothing left to filter. */
	if (job_filter_trivial(f))
		return (true);
	if (f->partitions != NULL) {
		part[0] = '\0';
		jscan_string(&row->v[JF_PARTITION], part, sizeof part);
		if (!slurm_part_job_in(part, f->partitions))
			return (false);
	}
	jscan_string(&row->v[JF_STATE], state, sizeof state);
	if (f->name != NULL)
		jscan_string(&row->v[JF_NAME], name, sizeof name);
	return (job_filter_pass(f, row->v[JF_STATE].type == JSCAN_NONE ? NULL :
	    state, f->name == NULL || row->v[JF_NAME].type == JSCAN_NONE ?
	    NULL : name));
}
