/* req-step-list.c: STEP_LIST (gq -l, sacct): the steps of jobs asked for
 * by id, a record a task (docs/protocol.md). */
#include <inttypes.h>
#include <string.h>

#include "common/proto.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req-int.h"
#include "daemon/controller/req.h"
#include "daemon/controller/store.h"

/* The most ids one request names: a listing's worth. */
#define REQ_STEP_LIST_MAX	1000

struct req_step_list {
	json_t		*steps;
	const char	*viewer;	/* NULL: sees every command */
};

static void
req_step_list_one(const struct store_step *s, void *arg)
{
	struct req_step_list	*l = arg;
	json_t			*o;

	o = json_pack("{s:I,s:I,s:I,s:s,s:s,s:I,s:I,s:s,s:I,s:I,s:s}",
	    "job", (json_int_t)s->job, "step", (json_int_t)s->step,
	    "first", (json_int_t)s->first, "user", s->user, "node", s->node,
	    "task", (json_int_t)s->task, "ntasks", (json_int_t)s->ntasks,
	    /* Under private_data another user's command is theirs. */
	    "command", l->viewer == NULL || strcmp(l->viewer, s->user) == 0 ?
	    s->command : "", "start_time", (json_int_t)s->start_time,
	    "end_time", (json_int_t)s->end_time, "state", s->state);
	if (o == NULL)
		return;
	if (s->has_exit) {
		json_object_set_new(o, "exit_code", json_integer(s->exit_code));
		json_object_set_new(o, "signal", json_integer(s->signal));
	}
	json_array_append_new(l->steps, o);
}

static void
req_step_list(struct peer *p, const json_t *msg)
{
	const json_t		*ids = json_object_get(msg, "ids"), *v;
	struct req_step_list	 l;
	json_t			*reply;
	size_t			 i;

	if (!json_is_array(ids) || json_array_size(ids) > REQ_STEP_LIST_MAX) {
		req_error(p, msg, PROTO_E_INVALID, "ids: expected an array of "
		    "at most %d job ids", REQ_STEP_LIST_MAX);
		return;
	}
	json_array_foreach(ids, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1) {
			req_error(p, msg, PROTO_E_INVALID, "ids: expected job "
			    "ids (whole numbers from 1)");
			return;
		}
	}
	l.steps = json_array();
	l.viewer = ctx_conf()->private_data && !peer_is_operator(p) ?
	    peer_user(p) : NULL;
	json_array_foreach(ids, i, v)
		(void)store_step_list((uint64_t)json_integer_value(v),
		    req_step_list_one, &l);
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "steps", l.steps);
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_step_list_entry = {
	MSG_STEP_LIST, "STEP_LIST", REQ_CLIENT, false, true, req_step_list, false
};
