/* req-job-list.c: JOB_LIST. Jobs not yet finished come from memory;
 * finished ones (asked by id or by state) from the store. The reply is
 * written as text (job-list.c), not built as a jansson tree.
 *
 * One frame: the whole reply in one buffer, header included; the output
 * takes it by reference, without a copy, and gives it back when it is
 * written, so the next listing reuses it rather than growing a new one by
 * doubling.
 *
 * "stream": frames of up to REQ_STREAM_JOBS jobs, one frame per loop
 * pass, the in-memory jobs walked in id order from where the last frame
 * stopped; the next frame waits while the client has not read the last
 * ones. The client prints the first jobs while the controller writes the
 * next, both sides' memory stays flat whatever the queue's size, and the
 * controller keeps scheduling in between. A job appears once, as it was
 * when its frame was written. */
#include <sys/types.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "common/array.h"
#include "common/frame.h"
#include "common/log.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job-list.h"
#include "daemon/controller/job-array.h"
#include "daemon/controller/job-alloc.h"
#include "daemon/controller/job.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req-int.h"
#include "daemon/controller/req.h"
#include "daemon/controller/store.h"

/* Leave room for the reply's tail under the client's frame limit. */
#define REQ_JOB_LIST_MAX	(FRAME_MAX_REPLY - (1U << 20))

/* The buffer of a one-frame listing is kept for the next (gtop asks
 * every few seconds) up to this size. */
#define REQ_JOB_LIST_SPARE_MAX	(16U << 20)

/* The most users one listing names (gq -u a,b,...). */
#define REQ_JOB_LIST_USERS	64

/* A streamed frame holds REQ_STREAM_JOBS jobs or REQ_STREAM_BYTES (req.h),
 * the first fewer jobs; the next waits while the client has
 * REQ_JOB_LIST_BACKLOG unread. */
#define REQ_JOB_LIST_FIRST_ROWS	512
#define REQ_JOB_LIST_BACKLOG	(2U << 20)

struct req_job_list {
	struct jtext	 out;
	struct job_field_set fields;
	/* What each record holds: the fields asked for, and those less the
	 * private ones (another user's job under private_data). */
	struct job_list_plan plan;
	struct job_list_plan plan_public;
	/* The users asked for (borrowed from the request); none: all. */
	const char	*users[REQ_JOB_LIST_USERS];
	size_t		 nusers;
	bool		 states[JOB_STATE_COUNT];
	bool		 any_state;
	int64_t		 ended_since;	/* finished jobs: ended then or later */
	/* Jobs asked for by id that ended before this are answered as
	 * missing (forget_finished: controller.min_job_age); 0: none. */
	int64_t		 forget_before;
	int64_t		 now;
	int64_t		 now_ms;	/* the scheduler's clock */
	size_t		 count;
	bool		 truncated;
	bool		 history;	/* each job's state changes too */
	bool		 predict;	/* predicted run times asked for */
	bool		 rows;		/* each job an array of values */
	/* controller.private_data for a user who is not an operator: other
	 * users' jobs go out without job_field_private_set(), their history
	 * without details. */
	bool		 private;
	uid_t		 viewer;
	bool		 hide_detail;	/* for the row being written */
	uint64_t	*missing;	/* ids asked for that do not exist */
	size_t		 nmissing;
	/* Arrays' tasks asked for ("42_7") that no job is or was. */
	char		**missing_tasks;
	size_t		 nmissing_tasks;
	/* A stream (req_job_list_step): the request (l->users point into
	 * it), its peer, the jobs in the frame being written, the frames
	 * sent, and the last in-memory job written. */
	json_t		*msg;
	bool		 stream;
	uint64_t	 peer;		/* peer_serial */
	size_t		 nframe;
	size_t		 sent;
	uint64_t	 cursor;
	struct event	*ev;
	struct req_job_list *next;
};

static const struct timeval	 req_job_list_at_once = { 0, 0 };

static void	req_job_list_begin(struct req_job_list *);
static void	req_job_list_flush(struct req_job_list *);

static bool
req_job_list_wanted(const struct req_job_list *l, const struct store_job *r)
{
	size_t	i;

	for (i = 0; i < l->nusers; i++) {
		if (r->user != NULL && strcmp(r->user, l->users[i]) == 0)
			break;
	}
	if (l->nusers > 0 && i == l->nusers)
		return (false);
	if (l->any_state && !l->states[r->state])
		return (false);
	return (true);
}

static void
req_job_list_event(int64_t when, const char *from, const char *to,
    const char *detail, void *arg)
{
	struct req_job_list	*l = arg;

	if (l->out.buf[l->out.len - 1] != '[')
		jtext_add(&l->out, ",", 1);
	jtext_add(&l->out, "{\"time\":", 8);
	jtext_int(&l->out, when);
	jtext_add(&l->out, ",\"from\":", 8);
	jtext_string(&l->out, from);
	jtext_add(&l->out, ",\"to\":", 6);
	jtext_string(&l->out, to);
	jtext_add(&l->out, ",\"detail\":", 10);
	jtext_string(&l->out, l->hide_detail ? "" : detail);
	jtext_add(&l->out, "}", 1);
}

static void
req_job_list_add(const struct store_job *r, void *arg)
{
	struct req_job_list	*l = arg;

	if (!req_job_list_wanted(l, r))
		return;
	if (!l->stream && l->out.len > REQ_JOB_LIST_MAX) {
		l->truncated = true;
		return;
	}
	l->count++;
	if (l->nframe++ != 0)
		jtext_add(&l->out, ",", 1);
	l->hide_detail = l->private && r->uid != l->viewer;
	if (l->rows) {
		job_list_values(&l->out, r, l->now, &l->plan, l->hide_detail ?
		    job_field_private_set() : jfs_none());
	} else {
		job_list_row(&l->out, r, l->now, l->hide_detail ?
		    &l->plan_public : &l->plan);
		if (l->history) {
			/* The record's closing brace moves past its
			 * history. */
			l->out.len--;
			jtext_add(&l->out, ",\"history\":[", 12);
			(void)store_job_events(r->id, req_job_list_event, l);
			jtext_add(&l->out, "]}", 2);
		}
	}
	/* The first frame is short, so the client starts on it while the
	 * next is written. */
	if (l->stream && (l->nframe >= (l->sent == 0 ?
	    REQ_JOB_LIST_FIRST_ROWS : REQ_STREAM_JOBS) ||
	    l->out.len >= REQ_STREAM_BYTES))
		req_job_list_flush(l);
}

static void
req_job_list_memory(struct req_job_list *l, struct job *j)
{
	struct store_job	row;
	char			*alloc;

	job_to_row(j, &row);
	job_row_add_live(j, &row);
	row.node = job_node(j) != NULL ? node_name(job_node(j)) : NULL;
	row.alloc = alloc = job_alloc_text(job_part_const(j, 0),
	    job_nparts(j));
	core_job_view(j, &row, l->now_ms, l->predict);
	req_job_list_add(&row, l);
	free(alloc);
}


static void
req_job_list_free_missing(struct req_job_list *l)
{
	size_t	i;

	for (i = 0; i < l->nmissing_tasks; i++)
		free(l->missing_tasks[i]);
	free(l->missing_tasks);
	free(l->missing);
}

static int
req_job_list_parse(struct req_job_list *l, const json_t *msg, char *err,
    size_t errlen)
{
	json_t			*v;
	enum job_state		 s;
	unsigned long long	 since = 0;
	size_t			 i;

	/* "user", one name and not checked, from before "users". */
	v = json_object_get(msg, "user");
	if (v != NULL && !json_is_null(v)) {
		if ((l->users[0] = json_string_value(v)) == NULL) {
			snprintf(err, errlen, "user: expected a user name");
			return (-1);
		}
		l->nusers = 1;
	}
	if (json_object_get(msg, "users") != NULL && l->nusers > 0) {
		snprintf(err, errlen, "user and users exclude each other");
		return (-1);
	}
	if (l->nusers == 0 && req_get_users(msg, "users", l->users,
	    REQ_JOB_LIST_USERS, &l->nusers, err, errlen) != 0)
		return (-1);
	v = json_object_get(msg, "states");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_array(v)) {
			snprintf(err, errlen, "states: expected an array of "
			    "state names");
			return (-1);
		}
		l->any_state = true;
		for (i = 0; i < json_array_size(v); i++) {
			if (!json_is_string(json_array_get(v, i)) ||
			    job_state_parse(json_string_value(
			    json_array_get(v, i)), &s) != 0) {
				snprintf(err, errlen, "states: element %zu is "
				    "not a job state (PENDING, RUNNING, "
				    "COMPLETED, ...)", i + 1);
				return (-1);
			}
			l->states[s] = true;
		}
	}
	if (job_list_fields(json_object_get(msg, "fields"), &l->fields, err,
	    errlen) != 0)
		return (-1);
	job_list_plan(&l->plan, l->fields);
	job_preempt_modes(&l->plan.preempt, &ctx_conf()->qos,
	    ctx_conf()->preempt_plain);
	job_list_plan(&l->plan_public, jfs_minus(l->fields,
	    job_field_private_set()));
	l->plan_public.preempt = l->plan.preempt;
	if (req_get_uint(msg, "ended_since", INT64_MAX, &since, err,
	    errlen) != 0)
		return (-1);
	l->ended_since = (int64_t)since;
	v = json_object_get(msg, "forget_finished");
	if (v != NULL && !json_is_boolean(v)) {
		snprintf(err, errlen, "forget_finished: expected true or false");
		return (-1);
	}
	if (json_is_true(v) && ctx_conf()->min_job_age > 0)
		l->forget_before = ctx_now() - ctx_conf()->min_job_age;
	/* A listing of finished states forgets them alike: squeue -t CD
	 * shows the last min_job_age seconds', as Slurm's does. */
	if (l->forget_before > l->ended_since)
		l->ended_since = l->forget_before;
	v = json_object_get(msg, "history");
	if (v != NULL && !json_is_boolean(v)) {
		snprintf(err, errlen, "history: expected true or false");
		return (-1);
	}
	/* A history is a few reads per job: only for jobs asked by id. */
	l->history = json_is_true(v) && json_array_size(json_object_get(msg,
	    "ids")) > 0;
	v = json_object_get(msg, "rows");
	if (v != NULL && !json_is_boolean(v)) {
		snprintf(err, errlen, "rows: expected true or false");
		return (-1);
	}
	l->rows = json_is_true(v);
	v = json_object_get(msg, "stream");
	if (v != NULL && !json_is_boolean(v)) {
		snprintf(err, errlen, "stream: expected true or false");
		return (-1);
	}
	l->stream = json_is_true(v);
	if (l->rows && json_is_true(json_object_get(msg, "history"))) {
		snprintf(err, errlen, "rows and history exclude each other: "
		    "a history belongs to a job object");
		return (-1);
	}
	v = json_object_get(msg, "ids");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_array(v)) {
			snprintf(err, errlen, "ids: expected an array of job "
			    "ids");
			return (-1);
		}
		for (i = 0; i < json_array_size(v); i++) {
			if (!req_is_job_id(json_array_get(v, i))) {
				snprintf(err, errlen, "ids: element %zu is not "
				    "a job id (a whole number >= 1, or an "
				    "array's tasks as a string: \"42_7\", "
				    "\"42_[3-5]\")", i + 1);
				return (-1);
			}
		}
	}
	return (0);
}

static void
req_job_list_give_back(const void *data, size_t len, void *arg)
{
	struct req_state	*rs = req_state();
	size_t			 size = (size_t)(uintptr_t)arg;

	/* A larger one (every member of 100,000 jobs is 60 MB) is not
	 * kept: it would stay in gbatchd's memory for good. */
	if (size > REQ_JOB_LIST_SPARE_MAX) {
		free((void *)data);
		return;
	}
	if (rs->list_spare == NULL || size > rs->list_spare_size) {
		free(rs->list_spare);
		rs->list_spare = (char *)data;
		rs->list_spare_size = size;
	} else
		free((void *)data);
}

/* Starts l->out with room for about the last listing (plus a margin), or
 * little when only a few ids are asked for. */
static void
req_job_list_start(struct req_job_list *l, size_t nids)
{
	struct req_state	*rs = req_state();
	size_t			 want = nids > 0 ? 4096 + 2048 * nids :
	    rs->list_last_len + rs->list_last_len / 8;

	if (rs->list_spare != NULL && (want <= rs->list_spare_size ||
	    nids == 0)) {
		l->out.buf = rs->list_spare;
		l->out.size = rs->list_spare_size;
		l->out.len = 0;
		rs->list_spare = NULL;
		jtext_reserve(&l->out, want);
	} else
		jtext_init(&l->out, want);
}

static void
req_job_list_array_active(struct job *j, void *arg)
{
	req_job_list_memory(arg, j);
}

static void
req_job_list_array_ended(const struct store_job *row, void *arg)
{
	if (job_state_is_terminal(row->state))
		req_job_list_add(row, arg);
}

/* Every job of array id, asked for by the array's id (squeue -j 42): the
 * active ones from memory, then those that ended from the store. */
static void
req_job_list_array(struct req_job_list *l, uint64_t id)
{
	job_array_each(id, req_job_list_array_active, l);
	(void)store_job_each_of_array(id, req_job_list_array_ended, l);
}

/* Starts the next frame: its head, up to the first job. */
static void
req_job_list_begin(struct req_job_list *l)
{
	if (l->stream)
		jtext_init(&l->out, 65536);
	req_text_begin(&l->out, l->msg);
	jtext_add(&l->out, ",\"now\":", 7);
	jtext_int(&l->out, l->now);
	if (l->rows) {
		jtext_add(&l->out, ",\"columns\":", 11);
		job_list_columns(&l->out, l->fields);
	}
	jtext_add(&l->out, ",\"jobs\":[", 9);
	l->nframe = 0;
}

/* A stream: sends the frame being written, with more to come, and starts
 * the next. Its peer is there: frames are written within a pass that
 * found it. */
static void
req_job_list_flush(struct req_job_list *l)
{
	jtext_add(&l->out, "],\"more\":true}", 14);
	req_text_send(peer_by_serial(l->peer), &l->out);
	l->sent++;
	req_job_list_begin(l);
}

/* Ends the last frame: the ids not found, whether it was cut short, and
 * for a stream that nothing follows. */
static void
req_job_list_tail(struct req_job_list *l)
{
	size_t	i;

	jtext_add(&l->out, "],\"missing\":[", 13);
	for (i = 0; i < l->nmissing; i++) {
		if (i != 0)
			jtext_add(&l->out, ",", 1);
		jtext_int(&l->out, (int64_t)l->missing[i]);
	}
	for (i = 0; i < l->nmissing_tasks; i++) {
		if (i != 0 || l->nmissing != 0)
			jtext_add(&l->out, ",", 1);
		jtext_string(&l->out, l->missing_tasks[i]);
	}
	jtext_add(&l->out, "]", 1);
	if (l->truncated)
		jtext_add(&l->out, ",\"truncated\":true", 17);
	if (l->stream)
		jtext_add(&l->out, ",\"more\":false", 13);
	jtext_add(&l->out, "}", 1);
}

/* What req_job_list_task looks for: array id's task, whether listed. */
struct req_job_list_find {
	struct req_job_list	*l;
	uint32_t		 task;
	bool			 found;
};

static void
req_job_list_task_active(struct job *j, void *arg)
{
	struct req_job_list_find	*f = arg;

	if (f->found)
		return;
	/* The task itself, or the array's row while it stands for it (a
	 * waiting task: gq -r shows it on its own). */
	if ((job_array_is_row(j) && array_has(job_array_left(j), f->task)) ||
	    (!job_array_is_row(j) && job_array_task_id(j) == (int64_t)f->task)) {
		req_job_list_memory(f->l, j);
		f->found = true;
	}
}

static void
req_job_list_task_ended(const struct store_job *row, void *arg)
{
	struct req_job_list_find	*f = arg;

	if (!f->found && job_state_is_terminal(row->state) &&
	    row->array_task_id == (int64_t)f->task) {
		req_job_list_add(row, f->l);
		f->found = true;
	}
}

/* Task task of array id, as users name it ("42_7"): the active job that
 * is it or stands for it, else the record of its last run. Returns
 * whether there was one. */
static bool
req_job_list_task(struct req_job_list *l, uint64_t id, uint32_t task)
{
	struct req_job_list_find	f = { l, task, false };

	job_array_each(id, req_job_list_task_active, &f);
	if (!f.found)
		(void)store_job_each_of_array(id, req_job_list_task_ended, &f);
	return (f.found);
}

/* The tasks a string of ids names ("42_7", "42_[3-5]"); those no job is or
 * was go to l->missing_tasks, as "ID_TASK". */
static void
req_job_list_tasks(struct req_job_list *l, const char *text)
{
	struct array_set	tasks;
	uint64_t		id;
	uint32_t		t;
	char			err[256], name[48];
	bool			ok;

	if (array_jobid_parse(text, &id, &tasks, err, sizeof err) == -1)
		return;
	for (ok = array_next(&tasks, 0, true, &t); ok;
	    ok = array_next(&tasks, t, false, &t)) {
		if (req_job_list_task(l, id, t))
			continue;
		snprintf(name, sizeof name, "%llu_%u", (unsigned long long)id,
		    t);
		l->missing_tasks = xreallocarray(l->missing_tasks,
		    l->nmissing_tasks + 1, sizeof *l->missing_tasks);
		l->missing_tasks[l->nmissing_tasks++] = xstrdup(name);
	}
	array_free(&tasks);
}

/* The jobs asked for by id, in the order asked; those not found go to
 * l->missing. */
static void
req_job_list_missing(struct req_job_list *l, uint64_t id)
{
	l->missing = xreallocarray(l->missing, l->nmissing + 1,
	    sizeof *l->missing);
	l->missing[l->nmissing++] = id;
}

static void
req_job_list_ids(struct req_job_list *l, const json_t *ids)
{
	struct store_job	 row;
	struct job		*j;
	uint64_t		 id;
	size_t			 i;

	for (i = 0; i < json_array_size(ids); i++) {
		if (json_is_string(json_array_get(ids, i))) {
			req_job_list_tasks(l, json_string_value(
			    json_array_get(ids, i)));
			continue;
		}
		id = (uint64_t)json_integer_value(json_array_get(ids, i));
		if ((j = job_table_find(id)) != NULL) {
			if (job_array_job_id(j) == id)
				req_job_list_array(l, id);
			else
				req_job_list_memory(l, j);
		} else if (store_job_get(id, &row) == 1) {
			if (row.array_job_id == id) {
				store_job_done();
				req_job_list_array(l, id);
				continue;
			}
			if (job_state_is_terminal(row.state) &&
			    row.end_time > 0 && row.end_time < l->forget_before) {
				store_job_done();
				req_job_list_missing(l, id);
				continue;
			}
			req_job_list_add(&row, l);
			store_job_done();
		} else
			req_job_list_missing(l, id);
	}
}

/* The finished jobs in the states asked for, from the store: of each
 * user asked for, or of all. */
static void
req_job_list_stored(struct req_job_list *l)
{
	size_t	i;
	int	s;

	for (s = 0; l->any_state && s < JOB_STATE_COUNT; s++) {
		if (!l->states[s] || !job_state_is_terminal(s))
			continue;
		i = 0;
		do {
			(void)store_job_each_in_state(s, l->nusers > 0 ?
			    l->users[i] : NULL, l->ended_since,
			    req_job_list_add, l);
		} while (++i < l->nusers);
	}
}

static void
req_job_list_end(struct req_job_list *l)
{
	struct req_state	*rs = req_state();
	struct req_job_list	**pp;

	for (pp = &rs->lists; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			break;
		}
	}
	if (l->ev != NULL)
		event_free(l->ev);
	free(l->out.buf);
	req_job_list_free_missing(l);
	json_decref(l->msg);
	free(l);
}

/* A stream's pass: the in-memory jobs after l->cursor until a frame has
 * gone out, then, once they are all written, the stored ones and the
 * last frame. */
static void
req_job_list_step(evutil_socket_t fd, short what, void *arg)
{
	struct req_job_list	*l = arg;
	struct timeval		 later = { 0, 2000 };
	struct peer		*p;
	struct job		*j;
	size_t			 sent = l->sent;

	(void)fd;
	(void)what;
	if ((p = peer_by_serial(l->peer)) == NULL) {
		req_job_list_end(l);
		return;
	}
	if (peer_backlog(p) > REQ_JOB_LIST_BACKLOG) {
		evtimer_add(l->ev, &later);
		return;
	}
	/* Ids only grow along the list (job.c), so the job after the
	 * cursor is found again even when the cursor's own job has gone. */
	if (l->cursor == 0)
		j = job_table_first();
	else if ((j = job_table_find(l->cursor)) != NULL)
		j = job_table_next(j);
	else {
		for (j = job_table_first(); j != NULL && job_id(j) < l->cursor;
		    j = job_table_next(j))
			;
	}
	for (; j != NULL && l->sent == sent; j = job_table_next(j)) {
		l->cursor = job_id(j);
		if (!l->any_state && job_state_is_terminal(job_state(j)))
			continue;
		req_job_list_memory(l, j);
	}
	if (j != NULL) {
		/* A timer due at once, not event_active: libevent runs the
		 * events activated during a pass in that same pass. */
		evtimer_add(l->ev, &req_job_list_at_once);
		return;
	}
	req_job_list_stored(l);
	req_job_list_tail(l);
	req_text_send(p, &l->out);
	log_debug("peer %s: JOB_LIST: %zu jobs in %zu frames", peer_addr(p),
	    l->count, l->sent + 1);
	req_job_list_end(l);
}

/* A listing asked with "stream": its frames go out from the loop. */
static void
req_job_list_stream(struct peer *p, struct req_job_list *l)
{
	struct req_state	*rs = req_state();
	struct req_job_list	*s = xmalloc(sizeof *s);

	*s = *l;
	s->msg = json_incref(s->msg);
	s->peer = peer_serial(p);
	s->ev = event_new(ctx_base(), -1, 0, req_job_list_step, s);
	s->next = rs->lists;
	rs->lists = s;
	req_job_list_begin(s);
	if (json_array_size(json_object_get(s->msg, "ids")) > 0) {
		/* A few jobs named by id: written at once. */
		req_job_list_ids(s, json_object_get(s->msg, "ids"));
		req_job_list_tail(s);
		req_text_send(p, &s->out);
		req_job_list_end(s);
		return;
	}
	req_job_list_step(-1, 0, s);
}

static void
req_job_list(struct peer *p, const json_t *msg)
{
	struct req_state	*rs = req_state();
	struct req_job_list	 l;
	struct evbuffer		*frame;
	struct job		*j;
	struct timespec		 t0, t1;
	json_t			*ids;
	char			 err[512];
	size_t			 len;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(&l, 0, sizeof l);
	if (req_job_list_parse(&l, msg, err, sizeof err) != 0) {
		req_error(p, msg, PROTO_E_INVALID, "%s", err);
		return;
	}
	l.msg = (json_t *)msg;
	l.now = ctx_now();
	l.now_ms = ctx_now_ms();
	/* The scheduling order costs a walk of the pending jobs: only for
	 * a listing that shows it. */
	if (jfs_has(l.fields, JF_RANK))
		core_rank();
	l.predict = jfs_has(l.fields, JF_PREDICTED) ||
	    jfs_has(l.fields, JF_PREDICTED_BY) ||
	    jfs_has(l.fields, JF_PREDICTED_RUNS);
	l.private = ctx_conf()->private_data && !peer_is_operator(p);
	l.viewer = peer_uid(p);
	if (l.stream) {
		req_job_list_stream(p, &l);
		return;
	}
	ids = json_object_get(msg, "ids");
	req_job_list_start(&l, json_array_size(ids));
	req_job_list_begin(&l);
	if (json_array_size(ids) > 0)
		req_job_list_ids(&l, ids);
	else {
		for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
			if (!l.any_state && job_state_is_terminal(job_state(j)))
				continue;
			req_job_list_memory(&l, j);
		}
		req_job_list_stored(&l);
	}
	req_job_list_tail(&l);
	req_job_list_free_missing(&l);

	len = l.out.len - FRAME_HEADER;
	req_text_end(&l.out);
	rs->list_last_len = l.out.len;
	frame = evbuffer_new();
	if (evbuffer_add_reference(frame, l.out.buf, l.out.len,
	    req_job_list_give_back, (void *)(uintptr_t)l.out.size) != 0) {
		evbuffer_add(frame, l.out.buf, l.out.len);
		free(l.out.buf);
	}
	peer_send_frame(p, frame);
	evbuffer_free(frame);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log_debug("peer %s: JOB_LIST: %zu jobs, %zu bytes in %.1f ms",
	    peer_addr(p), l.count, len, (t1.tv_sec - t0.tv_sec) * 1e3 +
	    (t1.tv_nsec - t0.tv_nsec) / 1e6);
}

/* Frees the kept buffer and the streams under way (at exit, for leak
 * checkers). */
void
req_job_list_free(void)
{
	struct req_state	*rs = req_state();

	while (rs->lists != NULL)
		req_job_list_end(rs->lists);
	free(rs->list_spare);
	rs->list_spare = NULL;
	rs->list_spare_size = 0;
}

const struct req_entry req_job_list_entry = {
	MSG_JOB_LIST, "JOB_LIST", REQ_CLIENT, false, true, req_job_list, false
};
