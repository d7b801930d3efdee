/* job-wait.c: waiting for jobs to end (job-wait.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "client/client.h"
#include "client/job-wait.h"
#include "common/duration.h"
#include "common/job-state.h"
#include "common/proto.h"
#include "common/xmalloc.h"

/* The first ask comes this long after the submit, the next ones half as
 * late again each time, up to once a second: a short job is seen ending
 * at once, a day-long one costs the controller an ask a second. */
#define JOB_WAIT_FIRST_MS	50
#define JOB_WAIT_MOST_MS	1000

static void
job_wait_sleep(long ms)
{
	struct timespec	ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		/* the rest */;
}

/* Which of ids job j answers for: its own id, or its array's; n if none. */
static size_t
job_wait_which(const json_t *j, const uint64_t *ids, size_t n)
{
	uint64_t	id = (uint64_t)json_integer_value(json_object_get(j,
			    "id"));
	uint64_t	array = (uint64_t)json_integer_value(json_object_get(j,
			    "array_job_id"));
	size_t		k;

	for (k = 0; k < n; k++) {
		if (id == ids[k] || (array != 0 && array == ids[k]))
			return (k);
	}
	return (n);
}

/* Reads the jobs of a JOB_LIST reply into ends (left[k]: the jobs of
 * ids[k] not ended yet). Returns how many of ids have ended, every job of
 * theirs, or -1 with err set when one does not exist. */
static int
job_wait_read(const json_t *reply, const uint64_t *ids, size_t n,
    struct job_wait_end *ends, size_t *left, char *err, size_t errlen)
{
	const json_t	*jobs = json_object_get(reply, "jobs"), *j, *v;
	const json_t	*missing = json_object_get(reply, "missing");
	struct job_wait_end *e;
	enum job_state	 s;
	const char	*state;
	long long	 task;
	size_t		 i, k;
	int		 ended = 0;

	if (json_array_size(missing) > 0) {
		snprintf(err, errlen, "job %lld: no such job",
		    (long long)json_integer_value(json_array_get(missing, 0)));
		return (-1);
	}
	memset(left, 0, n * sizeof *left);
	memset(ends, 0, n * sizeof *ends);
	json_array_foreach(jobs, i, j) {
		if ((k = job_wait_which(j, ids, n)) == n)
			continue;
		state = json_string_value(json_object_get(j, "state"));
		if (state == NULL || job_state_parse(state, &s) != 0 ||
		    !job_state_is_terminal(s)) {
			left[k]++;
			continue;
		}
		/* An array's first task that did not complete speaks for
		 * it; else its last. */
		e = &ends[k];
		if (strcmp(e->state, "") != 0 && strcmp(e->state,
		    "COMPLETED") != 0)
			continue;
		e->id = ids[k];
		task = json_integer_value(json_object_get(j,
		    "array_task_id"));
		if (json_integer_value(json_object_get(j, "array_job_id")) ==
		    (json_int_t)ids[k] && task >= 0)
			snprintf(e->name, sizeof e->name, "%llu_%lld",
			    (unsigned long long)ids[k], task);
		else
			snprintf(e->name, sizeof e->name, "%llu",
			    (unsigned long long)ids[k]);
		snprintf(e->state, sizeof e->state, "%s", job_state_name(s));
		v = json_object_get(j, "exit_code");
		e->has_exit = json_is_integer(v);
		e->exit_code = (int)json_integer_value(v);
		e->signal = (int)json_integer_value(json_object_get(j,
		    "signal"));
		e->time_limit = (uint64_t)json_integer_value(
		    json_object_get(j, "time_limit"));
		snprintf(e->message, sizeof e->message, "%s",
		    json_string_value(json_object_get(j, "message")) != NULL ?
		    json_string_value(json_object_get(j, "message")) : "");
	}
	for (k = 0; k < n; k++)
		ended += left[k] == 0 && ends[k].state[0] != '\0';
	return (ended);
}

int
job_wait(const uint64_t *ids, size_t n, unsigned timeout_s,
    void (*notice)(const char *), struct job_wait_end *ends, char *err,
    size_t errlen)
{
	struct client	*c = NULL;
	json_t		*req, *arr, *reply;
	long		 ms = JOB_WAIT_FIRST_MS;
	size_t		 i, *left;
	bool		 told = false;
	int		 r, ended;

	memset(ends, 0, n * sizeof *ends);
	arr = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_integer((json_int_t)ids[i]));
	req = json_pack("{s:i,s:o,s:[sssssss]}", "type", MSG_JOB_LIST, "ids",
	    arr, "fields", "state", "exit_code", "signal", "time_limit",
	    "message", "array_job_id", "array_task_id");
	left = xcalloc(n, sizeof *left);
	for (;;) {
		if (c == NULL && (r = client_open(timeout_s, &c, err,
		    errlen)) != 0 && r != EXIT_UNREACHABLE)
			break;
		if (c != NULL && (r = client_call(c, req, &reply, err,
		    errlen)) == 0) {
			ended = job_wait_read(reply, ids, n, ends, left, err,
			    errlen);
			json_decref(reply);
			if (ended == -1) {
				r = EXIT_REFUSED;
				break;
			}
			if ((size_t)ended == n)
				break;
		} else if (r != EXIT_UNREACHABLE)
			break;
		else {
			/* Gone, or restarting: a new connection next time. */
			client_free(c);
			c = NULL;
			if (!told && notice != NULL)
				notice(err);
			told = true;
			ms = JOB_WAIT_MOST_MS;
		}
		job_wait_sleep(ms);
		ms = ms * 3 / 2 < JOB_WAIT_MOST_MS ? ms * 3 / 2 :
		    JOB_WAIT_MOST_MS;
	}
	client_free(c);
	json_decref(req);
	free(left);
	return (r);
}

int
job_wait_status(const struct job_wait_end *e, char *why, size_t len)
{
	char	limit[32], name[32];
	int	status;

	why[0] = '\0';
	if (strcmp(e->state, "COMPLETED") == 0)
		return (0);
	if (e->has_exit && e->exit_code != 0)
		status = e->exit_code & 0xff;
	else if (e->signal > 0)
		status = 128 + e->signal;
	else
		status = 1;
	/* The controller's own word says it best ("cancelled by alice",
	 * "time limit of 5:00 reached"); without one, the state's. */
	if (e->name[0] == '\0')
		snprintf(name, sizeof name, "%llu", (unsigned long long)e->id);
	else
		snprintf(name, sizeof name, "%s", e->name);
	if (e->message[0] != '\0')
		snprintf(why, len, "job %s %s: %s", name, e->state, e->message);
	else if (strcmp(e->state, "TIMEOUT") == 0)
		snprintf(why, len, "job %s TIMEOUT: time limit of %s reached",
		    name, duration_format(e->time_limit, limit, sizeof limit));
	else if (e->has_exit && e->exit_code != 0)
		snprintf(why, len, "job %s %s: exited with status %d", name,
		    e->state, e->exit_code);
	else if (e->signal > 0)
		snprintf(why, len, "job %s %s: killed by signal %d", name,
		    e->state, e->signal);
	else
		snprintf(why, len, "job %s %s", name, e->state);
	return (status);
}
