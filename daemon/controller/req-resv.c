/* req-resv.c: RESV (operators: create, update or delete an advance
 * reservation; gctl reservation, scontrol create reservation) and
 * RESV_LIST (anyone: the reservations, or one). A change is checked by
 * resv-tab.h's rules against the nodes as the controller knows them,
 * written in the group transaction and audited, and the core is rebuilt
 * under it before the next pass; its reply leaves after the commit
 * (commit.h). The members of "set" are in docs/protocol.md. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hostlist.h"
#include "common/label.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/job.h"
#include "daemon/controller/launch.h"
#include "daemon/controller/node.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"
#include "daemon/controller/resv.h"

/* The members "set" may have. */
static const char *const req_resv_keys[] = { "start_time", "end_time",
    "duration", "nodes", "gpus", "users", "accounts", "flags", NULL };

/* A string member of set into *out, when there. */
static int
req_resv_string(const json_t *set, const char *key, const char **out,
    char *err, size_t errlen)
{
	json_t	*v = json_object_get(set, key);

	if (v == NULL)
		return (0);
	if (!json_is_string(v) || strlen(json_string_value(v)) !=
	    json_string_length(v)) {
		snprintf(err, errlen, "%s: expected a string", key);
		return (-1);
	}
	*out = json_string_value(v);
	return (0);
}

/* Whether set has only the members RESV knows. */
static int
req_resv_known(const json_t *set, char *err, size_t errlen)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	json_object_foreach((json_t *)set, key, v) {
		for (i = 0; req_resv_keys[i] != NULL; i++) {
			if (strcmp(req_resv_keys[i], key) == 0)
				break;
		}
		if (req_resv_keys[i] == NULL) {
			snprintf(err, errlen, "set: unknown member \"%s\"; "
			    "expected start_time, end_time, duration, nodes, "
			    "gpus, users, accounts or flags", key);
			return (-1);
		}
	}
	return (0);
}

/* Whether every node of r is one the controller knows. */
static int
req_resv_nodes_known(const struct resv *r, char *err, size_t errlen)
{
	size_t	i;

	for (i = 0; i < r->nnames; i++) {
		if (node_find(r->names[i]) == NULL) {
			snprintf(err, errlen, "nodes: no node %s (gnodes lists "
			    "them)", label_ok(r->names[i]) ? r->names[i] :
			    "of that name");
			return (-1);
		}
	}
	return (0);
}

/* Chooses r's nodes for gpus GPUs in all (resv-tab.h's resv_tab_pick): of
 * the nodes up and not drained, those that no other reservation holds
 * over r's time, unless r or it is a maintenance. */
static int
req_resv_pick(struct resv *r, uint32_t gpus, char *err, size_t errlen)
{
	const struct resv_tab	*t = core_resv();
	const struct resv	*o;
	struct resv_node	*cand;
	struct node		*n;
	char			**names, *list;
	size_t			 nn = 0, i, k, *out;
	int			 rc = -1;

	for (n = node_first(); n != NULL; n = node_next(n))
		nn++;
	cand = xcalloc(nn + 1, sizeof *cand);
	out = xcalloc(nn + 1, sizeof *out);
	for (n = node_first(), i = 0; n != NULL; n = node_next(n), i++) {
		cand[i].name = node_name(n);
		cand[i].gpus = node_gpus_total(n);
		cand[i].usable = node_is_up(n) && !node_is_drained(n);
		for (k = 0; k < t->n && cand[i].usable; k++) {
			o = &t->v[k];
			if (o->id != r->id && !(o->flags & RESV_F_MAINT) &&
			    !(r->flags & RESV_F_MAINT) && o->start < r->end &&
			    r->start < o->end && resv_tab_has_node(o, cand[i].name))
				cand[i].usable = false;
		}
	}
	if ((k = resv_tab_pick(cand, nn, gpus, out, err, errlen)) > 0) {
		names = xcalloc(k + 1, sizeof *names);
		for (i = 0; i < k; i++)
			names[i] = (char *)(uintptr_t)cand[out[i]].name;
		/* As a host list, which resv_tab_set_nodes reads back sorted. */
		list = hostlist_compress(names, k);
		rc = resv_tab_set_nodes(r, list, err, errlen);
		free(list);
		free(names);
	}
	free(out);
	free(cand);
	return (rc);
}

/* Reads set into r (as it is, for an update): its times, nodes, users,
 * accounts and flags. */
static int
req_resv_read(const json_t *set, struct resv *r, bool create, int64_t now,
    char *err, size_t errlen)
{
	unsigned long long	 start, end = 0, duration = 0, gpus = 0;
	const char		*nodes = NULL, *users = NULL, *accounts = NULL;
	const char		*flags = NULL;
	bool			 has_end, has_dur, has_start;

	if (req_resv_known(set, err, errlen) != 0)
		return (-1);
	start = (unsigned long long)(create ? now : r->start);
	if (req_get_uint(set, "start_time", INT64_C(253402300799), &start,
	    err, errlen) != 0 || req_get_uint(set, "end_time",
	    INT64_C(253402300799), &end, err, errlen) != 0 ||
	    req_get_uint(set, "duration", RESV_MAX_DURATION, &duration, err,
	    errlen) != 0 || req_get_uint(set, "gpus", 65536, &gpus, err,
	    errlen) != 0 || req_resv_string(set, "nodes", &nodes, err,
	    errlen) != 0 || req_resv_string(set, "users", &users, err,
	    errlen) != 0 || req_resv_string(set, "accounts", &accounts, err,
	    errlen) != 0 || req_resv_string(set, "flags", &flags, err,
	    errlen) != 0)
		return (-1);
	has_start = json_object_get(set, "start_time") != NULL;
	has_end = json_object_get(set, "end_time") != NULL;
	has_dur = json_object_get(set, "duration") != NULL;
	if (has_end && has_dur) {
		snprintf(err, errlen, "give end_time or duration, not both");
		return (-1);
	}
	if (create && !has_end && !has_dur) {
		snprintf(err, errlen, "a reservation needs an end: end_time or "
		    "duration");
		return (-1);
	}
	if (nodes != NULL && gpus != 0) {
		snprintf(err, errlen, "give nodes or gpus, not both");
		return (-1);
	}
	if (create && nodes == NULL && gpus == 0) {
		snprintf(err, errlen, "a reservation needs nodes: nodes (a host "
		    "list) or gpus (a number of GPUs, whole nodes chosen)");
		return (-1);
	}
	/* A new start keeps the duration, unless an end is given. */
	if (has_end)
		r->end = (int64_t)end;
	else if (has_dur)
		r->end = (int64_t)start + (int64_t)duration;
	else if (has_start)
		r->end = (int64_t)start + (r->end - r->start);
	r->start = (int64_t)start;
	if (flags != NULL && resv_tab_flags_parse(flags, &r->flags, err,
	    errlen) != 0)
		return (-1);
	if (users != NULL) {
		free(r->users);
		r->users = xstrdup(users);
	}
	if (accounts != NULL) {
		free(r->accounts);
		r->accounts = xstrdup(accounts);
	}
	if (nodes != NULL && (resv_tab_set_nodes(r, nodes, err, errlen) != 0 ||
	    req_resv_nodes_known(r, err, errlen) != 0))
		return (-1);
	if (gpus != 0 && req_resv_pick(r, (uint32_t)gpus, err, errlen) != 0)
		return (-1);
	return (0);
}

/* Whether every user of r's is one gbatchd knows (a typo otherwise). */
static int
req_resv_users_known(const struct resv *r, char *err, size_t errlen)
{
	char	*copy = xstrdup(r->users), *u, *save = NULL;
	int	 rc = 0;

	for (u = strtok_r(copy, ",", &save); u != NULL;
	    u = strtok_r(NULL, ",", &save)) {
		if (label_ok(u) && !req_user_exists(u)) {
			snprintf(err, errlen, "users: no such user \"%s\"", u);
			rc = -1;
			break;
		}
	}
	free(copy);
	return (rc);
}

/* The first job running in reservation name, or NULL. */
static struct job *
req_resv_running(const char *name)
{
	struct job	*j;

	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (job_state_on_node(job_state(j)) && strcmp(job_reservation(j), name) == 0)
			return (j);
	}
	return (NULL);
}

/* Tells the nodes of the jobs running in reservation name their time
 * limit again: its end moved (core_resv_limit). */
static void
req_resv_limits(const char *name)
{
	struct job	*j;

	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (job_state(j) == JOB_RUNNING &&
		    strcmp(job_reservation(j), name) == 0)
			(void)launch_limit(j);
	}
}

/* The GPUs of r's nodes, as their nodes say now. */
static uint64_t
req_resv_gpus(const struct resv *r)
{
	struct node	*n;
	uint64_t	 g = 0;
	size_t		 i;

	for (i = 0; i < r->nnames; i++) {
		if ((n = node_find(r->names[i])) != NULL)
			g += node_gpus_total(n);
	}
	return (g);
}

/* r as the replies give it: resv_tab_json and its GPUs. */
static json_t *
req_resv_json(const struct resv *r, int64_t now)
{
	json_t	*o = resv_tab_json(r, now);

	json_object_set_new(o, "gpus", json_integer((json_int_t)
	    req_resv_gpus(r)));
	return (o);
}

static void
req_resv_change(struct peer *p, const json_t *msg)
{
	const struct resv	*old;
	struct resv		 r;
	const char		*action, *name, *code = PROTO_E_INVALID;
	const json_t		*set;
	struct job		*j;
	json_t			*reply, *none = NULL;
	char			 err[512], target[128], made[128], *detail;
	int64_t			 now = ctx_now();
	uint64_t		 id;
	int			 rc;

	memset(&r, 0, sizeof r);
	action = json_string_value(json_object_get(msg, "action"));
	name = json_string_value(json_object_get(msg, "name"));
	set = json_object_get(msg, "set");
	if (action == NULL || (strcmp(action, "create") != 0 &&
	    strcmp(action, "update") != 0 && strcmp(action, "delete") != 0)) {
		snprintf(err, sizeof err, "action: expected create, update or "
		    "delete");
		goto refused;
	}
	if (set != NULL && !json_is_object(set)) {
		snprintf(err, sizeof err, "set: expected an object");
		goto refused;
	}
	if (name != NULL && !label_ok(name)) {
		snprintf(err, sizeof err, "name: expected 1 to %d letters, "
		    "digits, '.', '-' or '_'", LABEL_MAX);
		goto refused;
	}
	if (strcmp(action, "create") != 0) {
		if (name == NULL) {
			snprintf(err, sizeof err, "name: expected the "
			    "reservation's name");
			goto refused;
		}
		if ((old = resv_tab_find(core_resv(), name)) == NULL) {
			code = PROTO_E_NOT_FOUND;
			snprintf(err, sizeof err, "no reservation %s (gctl "
			    "reservation list shows them)", name);
			goto refused;
		}
	} else
		old = NULL;
	snprintf(target, sizeof target, "reservation %s", name != NULL ? name :
	    "(new)");
	if (strcmp(action, "delete") == 0) {
		/* As Slurm's: one in use stays. */
		if ((j = req_resv_running(name)) != NULL) {
			snprintf(err, sizeof err, "reservation %s is in use: "
			    "job %" PRIu64 " runs in it (cancel it, or wait for "
			    "its end)", name, job_id(j));
			goto refused;
		}
		if ((rc = resv_delete(core_resv(), name)) != 0)
			goto store;
		audit_done(p, "reservation_delete", target, NULL);
		goto done;
	}
	if (old != NULL)
		resv_tab_copy(&r, old);
	else {
		r.name = xstrdup(name != NULL ? name :
		    resv_tab_name(core_resv(), peer_user(p), made,
		    sizeof made));
		r.users = xstrdup("");
		r.accounts = xstrdup("");
	}
	if (set == NULL)
		set = none = json_object();
	rc = req_resv_read(set, &r, old == NULL, now, err, sizeof err);
	if (none != NULL)
		set = NULL;
	json_decref(none);
	if (rc != 0 || req_resv_users_known(&r, err, sizeof err) != 0)
		goto refused;
	if ((rc = resv_set(core_resv(), &r, now, &id, err, sizeof err)) ==
	    RESV_REFUSED)
		goto refused;
	if (rc != 0)
		goto store;
	detail = set != NULL ? json_dumps(set, JSON_COMPACT |
	    JSON_SORT_KEYS) : NULL;
	snprintf(target, sizeof target, "reservation %s", r.name);
	audit_done(p, old == NULL ? "reservation_create" :
	    "reservation_update", target, detail != NULL ? "%s" : NULL,
	    detail);
	free(detail);
	/* Its jobs running are held to its end as it now stands. */
	if (old != NULL)
		req_resv_limits(r.name);
done:
	core_resv_changed();
	reply = proto_reply_ok(msg);
	if (strcmp(action, "delete") != 0)
		json_object_set_new(reply, "reservation", req_resv_json(
		    resv_tab_find_id(core_resv(), id), now));
	peer_send(p, reply);
	json_decref(reply);
	resv_tab_entry_clear(&r);
	return;
store:
	resv_tab_entry_clear(&r);
	req_error(p, msg, PROTO_E_INTERNAL, "the store failed; see gbatchd's "
	    "log");
	return;
refused:
	resv_tab_entry_clear(&r);
	req_error(p, msg, code, "%s", err);
}

static void
req_resv_list(struct peer *p, const json_t *msg)
{
	const struct resv_tab	*t = core_resv();
	const struct resv	*r;
	const char		*name;
	json_t			*reply, *list;
	int64_t			 now = ctx_now();
	size_t			 i;

	name = json_string_value(json_object_get(msg, "name"));
	if (name != NULL && ((r = resv_tab_find(t, name)) == NULL ||
	    r->end <= now)) {
		req_error(p, msg, PROTO_E_NOT_FOUND, "no reservation %s",
		    label_ok(name) ? name : "of that name");
		return;
	}
	list = json_array();
	for (i = 0; i < t->n; i++) {
		/* One that ended goes before the next pass; not shown. */
		if (t->v[i].end <= now || (name != NULL &&
		    strcmp(t->v[i].name, name) != 0))
			continue;
		json_array_append_new(list, req_resv_json(&t->v[i], now));
	}
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "now", json_integer(now));
	json_object_set_new(reply, "reservations", list);
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_resv_entry = {
	MSG_RESV, "RESV", REQ_CLIENT, true, true, req_resv_change, false
};

const struct req_entry req_resv_list_entry = {
	MSG_RESV_LIST, "RESV_LIST", REQ_CLIENT, false, true, req_resv_list, false
};
