/* job-wait.c: waiting for jobs to end (job-wait.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "client/client.h"
#include "client/job-wait.h"
#include "common/duration.h"
#include "common/job-state.h"
#include "common/proto.h"

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

/* Reads the jobs of a JOB_LIST reply into ends. Returns how many of them
 * have ended, or -1 with err set when one does not exist. */
static int
job_wait_read(const json_t *reply, const uint64_t *ids, size_t n,
    struct job_wait_end *ends, char *err, size_t errlen)
{
	const json_t	*jobs = json_object_get(reply, "jobs"), *j, *v;
	const json_t	*missing = json_object_get(reply, "missing");
	enum job_state	 s;
	const char	*state;
	size_t		 i, k;
	int		 ended = 0;

	if (json_array_size(missing) > 0) {
		snprintf(err, errlen, "job %lld: no such job",
		    (long long)json_integer_value(json_array_get(missing, 0)));
		return (-1);
	}
	json_array_foreach(jobs, i, j) {
		v = json_object_get(j, "id");
		for (k = 0; k < n && (uint64_t)json_integer_value(v) != ids[k];
		    k++)
			/* nothing */;
		state = json_string_value(json_object_get(j, "state"));
		if (k == n || state == NULL || job_state_parse(state, &s) != 0 ||
		    !job_state_is_terminal(s))
			continue;
		ends[k].id = ids[k];
		snprintf(ends[k].state, sizeof ends[k].state, "%s",
		    job_state_name(s));
		v = json_object_get(j, "exit_code");
		ends[k].has_exit = json_is_integer(v);
		ends[k].exit_code = (int)json_integer_value(v);
		ends[k].signal = (int)json_integer_value(json_object_get(j,
		    "signal"));
		ends[k].time_limit = (uint64_t)json_integer_value(
		    json_object_get(j, "time_limit"));
		snprintf(ends[k].message, sizeof ends[k].message, "%s",
		    json_string_value(json_object_get(j, "message")) != NULL ?
		    json_string_value(json_object_get(j, "message")) : "");
		ended++;
	}
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
	size_t		 i;
	bool		 told = false;
	int		 r, ended;

	memset(ends, 0, n * sizeof *ends);
	arr = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_integer((json_int_t)ids[i]));
	req = json_pack("{s:i,s:o,s:[sssss]}", "type", MSG_JOB_LIST, "ids",
	    arr, "fields", "state", "exit_code", "signal", "time_limit",
	    "message");
	for (;;) {
		if (c == NULL && (r = client_open(timeout_s, &c, err,
		    errlen)) != 0 && r != EXIT_UNREACHABLE)
			break;
		if (c != NULL && (r = client_call(c, req, &reply, err,
		    errlen)) == 0) {
			ended = job_wait_read(reply, ids, n, ends, err, errlen);
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
	return (r);
}

int
job_wait_status(const struct job_wait_end *e, char *why, size_t len)
{
	char	limit[32];
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
	if (e->message[0] != '\0')
		snprintf(why, len, "job %llu %s: %s", (unsigned long long)e->id,
		    e->state, e->message);
	else if (strcmp(e->state, "TIMEOUT") == 0)
		snprintf(why, len, "job %llu TIMEOUT: time limit of %s reached",
		    (unsigned long long)e->id, duration_format(e->time_limit,
		    limit, sizeof limit));
	else if (e->has_exit && e->exit_code != 0)
		snprintf(why, len, "job %llu %s: exited with status %d",
		    (unsigned long long)e->id, e->state, e->exit_code);
	else if (e->signal > 0)
		snprintf(why, len, "job %llu %s: killed by signal %d",
		    (unsigned long long)e->id, e->state, e->signal);
	else
		snprintf(why, len, "job %llu %s", (unsigned long long)e->id,
		    e->state);
	return (status);
}
