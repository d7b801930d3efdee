/* req-assoc.c: ASSOC (operators: add, modify or delete an account or a
 * user's association, gctl account and gctl user) and ASSOC_LIST
 * (anyone: every account, with what it and the accounts below it used
 * of its budget this month and hold now, and every association). A
 * change is checked by
 * assoc-tab.h's rules, written in the group transaction and audited;
 * its reply leaves after the commit (commit.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/job-req.h"
#include "common/proto.h"
#include "common/xmalloc.h"
#include "daemon/controller/assoc-usage.h"
#include "daemon/controller/assoc.h"
#include "daemon/controller/audit.h"
#include "daemon/controller/budget.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/peer.h"
#include "daemon/controller/req.h"
#include "policy/fairshare.h"

/* The most a count limit may be: far past any cluster. */
#define REQ_ASSOC_COUNT_MAX	1000000000ULL

/* Reads set's limit members into l (absent ones unchanged). */
static int
req_assoc_limits(const json_t *set, struct assoc_limits *l, char *err,
    size_t errlen)
{
	unsigned long long	v;

	v = l->max_gpus;
	if (req_get_uint(set, "max_gpus", REQ_ASSOC_COUNT_MAX, &v, err,
	    errlen) != 0)
		return (-1);
	l->max_gpus = (uint32_t)v;
	v = l->max_jobs;
	if (req_get_uint(set, "max_jobs", REQ_ASSOC_COUNT_MAX, &v, err,
	    errlen) != 0)
		return (-1);
	l->max_jobs = (uint32_t)v;
	v = l->max_pending;
	if (req_get_uint(set, "max_pending", REQ_ASSOC_COUNT_MAX, &v, err,
	    errlen) != 0)
		return (-1);
	l->max_pending = (uint32_t)v;
	v = l->max_time;
	if (req_get_uint(set, "max_time", JOB_REQ_MAX_TIME, &v, err,
	    errlen) != 0)
		return (-1);
	l->max_time = v;
	return (0);
}

/* Whether set has only members of keys (NULL-ended). */
static int
req_assoc_known(const json_t *set, const char *const *keys, char *err,
    size_t errlen)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	json_object_foreach((json_t *)set, key, v) {
		for (i = 0; keys[i] != NULL; i++) {
			if (strcmp(keys[i], key) == 0)
				break;
		}
		if (keys[i] == NULL) {
			snprintf(err, errlen, "set: unknown member \"%s\"",
			    key);
			return (-1);
		}
	}
	return (0);
}

/* A string member of set into *out, when there. */
static int
req_assoc_string(const json_t *set, const char *key, const char **out,
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

/* set's gpu_hours (a number of GPU-hours, 0 for none) into *budget
 * (GPU-seconds), when there. */
static int
req_assoc_budget(const json_t *set, uint64_t *budget, char *err,
    size_t errlen)
{
	json_t	*v = json_object_get(set, "gpu_hours");

	if (v == NULL)
		return (0);
	if (!json_is_number(v)) {
		snprintf(err, errlen, "gpu_hours: expected a number of "
		    "GPU-hours, 0 for no budget");
		return (-1);
	}
	return (budget_from_hours(json_number_value(v), budget, err, errlen));
}

/* account_add and account_modify: the account as it will be, in a. */
static int
req_assoc_account(const char *action, const char *name, const json_t *set,
    struct assoc_account *a, const char **code, char *err, size_t errlen)
{
	static const char *const keys[] = { "parent", "shares",
	    "description", "max_gpus", "max_jobs", "max_pending", "max_time",
	    "gpu_hours", NULL };
	const struct assoc_account	*old;
	const char			*parent, *description;
	unsigned long long		 shares;

	old = assoc_tab_account(core_assoc(), name);
	if (strcmp(action, "account_add") == 0 && old != NULL) {
		*code = PROTO_E_INVALID;
		snprintf(err, errlen, "account %s exists already; change it "
		    "with gctl account modify", name);
		return (-1);
	}
	if (strcmp(action, "account_modify") == 0 && old == NULL) {
		*code = PROTO_E_NOT_FOUND;
		snprintf(err, errlen, "no account %s", name);
		return (-1);
	}
	*code = PROTO_E_INVALID;
	memset(a, 0, sizeof *a);
	a->shares = 1;
	if (old != NULL)
		*a = *old;
	a->name = (char *)name;
	parent = old != NULL ? old->parent : "";
	description = old != NULL ? old->description : "";
	shares = a->shares;
	if (req_assoc_known(set, keys, err, errlen) != 0 ||
	    req_assoc_string(set, "parent", &parent, err, errlen) != 0 ||
	    req_assoc_string(set, "description", &description, err,
	    errlen) != 0 ||
	    req_get_uint(set, "shares", REQ_ASSOC_COUNT_MAX, &shares, err,
	    errlen) != 0 ||
	    req_assoc_budget(set, &a->budget, err, errlen) != 0 ||
	    req_assoc_limits(set, &a->lim, err, errlen) != 0)
		return (-1);
	a->parent = (char *)parent;
	a->description = (char *)description;
	a->shares = (uint32_t)shares;
	return (0);
}

/* user_add and user_modify: the association as it will be, in u. */
static int
req_assoc_user(const char *action, const char *name, const char *account,
    const json_t *set, struct assoc_user *u, const char **code, char *err,
    size_t errlen)
{
	static const char *const keys[] = { "default", "max_gpus",
	    "max_jobs", "max_pending", "max_time", NULL };
	const struct assoc_user	*old;
	json_t			*def;

	*code = PROTO_E_INVALID;
	if (account == NULL) {
		snprintf(err, errlen, "account: expected the account's name");
		return (-1);
	}
	old = assoc_tab_user(core_assoc(), name, account);
	if (strcmp(action, "user_add") == 0 && old != NULL) {
		snprintf(err, errlen, "user %s is in account %s already; change "
		    "it with gctl user modify", name, account);
		return (-1);
	}
	if (strcmp(action, "user_modify") == 0 && old == NULL) {
		*code = PROTO_E_NOT_FOUND;
		snprintf(err, errlen, "user %s is not in account %s", name,
		    account);
		return (-1);
	}
	memset(u, 0, sizeof *u);
	if (old != NULL)
		*u = *old;
	u->user = (char *)name;
	u->account = (char *)account;
	u->is_default = false;
	if ((def = json_object_get(set, "default")) != NULL &&
	    !json_is_boolean(def)) {
		snprintf(err, errlen, "default: expected true or false");
		return (-1);
	}
	/* default false on the default keeps it: it moves only when
	 * another account takes it. */
	if (json_is_true(def))
		u->is_default = true;
	return (req_assoc_known(set, keys, err, errlen) != 0 ||
	    req_assoc_limits(set, &u->lim, err, errlen) != 0 ? -1 : 0);
}

static void
req_assoc_change(struct peer *p, const json_t *msg)
{
	struct assoc_account	 a;
	struct assoc_user	 u;
	const char		*action, *name, *account, *code;
	const json_t		*set;
	json_t			*reply;
	char			 err[512], target[200], *detail = NULL;
	size_t			 n = 0;
	int			 rc;

	action = json_string_value(json_object_get(msg, "action"));
	name = json_string_value(json_object_get(msg, "name"));
	account = json_string_value(json_object_get(msg, "account"));
	set = json_object_get(msg, "set");
	code = PROTO_E_INVALID;
	if (action == NULL) {
		snprintf(err, sizeof err, "action: expected account_add, "
		    "account_modify, account_delete, user_add, user_modify or "
		    "user_delete");
		goto refused;
	}
	if (name == NULL || *name == '\0') {
		snprintf(err, sizeof err, "name: expected an account or user "
		    "name");
		goto refused;
	}
	if (set != NULL && !json_is_object(set)) {
		snprintf(err, sizeof err, "set: expected an object");
		goto refused;
	}
	if (set == NULL)
		set = json_object();
	else
		json_incref((json_t *)set);
	if (strcmp(action, "account_add") == 0 ||
	    strcmp(action, "account_modify") == 0) {
		if ((rc = req_assoc_account(action, name, set, &a, &code, err,
		    sizeof err)) == 0)
			rc = assoc_account_set(core_assoc(), &a, err,
			    sizeof err);
		snprintf(target, sizeof target, "account %s", name);
	} else if (strcmp(action, "account_delete") == 0) {
		if ((rc = assoc_account_delete(core_assoc(), name, err,
		    sizeof err)) != 0 && assoc_tab_account(core_assoc(),
		    name) == NULL)
			code = PROTO_E_NOT_FOUND;
		snprintf(target, sizeof target, "account %s", name);
	} else if (strcmp(action, "user_add") == 0 ||
	    strcmp(action, "user_modify") == 0) {
		if ((rc = req_assoc_user(action, name, account, set, &u, &code,
		    err, sizeof err)) == 0)
			rc = assoc_user_set(core_assoc(), &u, err, sizeof err);
		snprintf(target, sizeof target, "user %s in account %s", name,
		    account != NULL ? account : "");
	} else if (strcmp(action, "user_delete") == 0) {
		if ((rc = assoc_user_delete(core_assoc(), name, account, &n,
		    err, sizeof err)) == ASSOC_REFUSED)
			code = PROTO_E_NOT_FOUND;
		snprintf(target, sizeof target, "user %s%s%s", name,
		    account != NULL ? " in account " : "", account != NULL ?
		    account : "");
	} else {
		json_decref((json_t *)set);
		snprintf(err, sizeof err, "action: expected account_add, "
		    "account_modify, account_delete, user_add, user_modify or "
		    "user_delete, got \"%s\"", action);
		goto refused;
	}
	if (json_object_size(set) > 0)
		detail = json_dumps(set, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref((json_t *)set);
	if (rc == ASSOC_STORE_FAILED) {
		free(detail);
		req_error(p, msg, PROTO_E_INTERNAL, "the store failed; see "
		    "gbatchd's log");
		return;
	}
	if (rc != 0) {
		free(detail);
		goto refused;
	}
	audit_done(p, action, target, detail != NULL ? "%s" : NULL, detail);
	free(detail);
	/* The jobs' groups take the limits as they now stand. */
	core_reconfigure();
	reply = proto_reply_ok(msg);
	if (strcmp(action, "user_delete") == 0)
		json_object_set_new(reply, "deleted", json_integer((json_int_t)n));
	peer_send(p, reply);
	json_decref(reply);
	return;
refused:
	req_error(p, msg, code, "%s", err);
}

static json_t *
req_assoc_list_limits(json_t *o, const struct assoc_limits *l)
{
	json_object_set_new(o, "max_gpus", json_integer(l->max_gpus));
	json_object_set_new(o, "max_jobs", json_integer(l->max_jobs));
	json_object_set_new(o, "max_pending", json_integer(l->max_pending));
	json_object_set_new(o, "max_time",
	    json_integer((json_int_t)l->max_time));
	return (o);
}

/* GPU-seconds as GPU-hours: a whole number when they are whole. */
static json_t *
req_assoc_hours(uint64_t secs)
{
	if (secs % 3600 == 0)
		return (json_integer((json_int_t)(secs / 3600)));
	return (json_real(budget_hours(secs)));
}

/* What account a's subtree (sum) uses this month, as run and charged
 * (what its budget counts), and holds now. */
static json_t *
req_assoc_list_usage(json_t *o, const struct assoc_account *a,
    const struct assoc_usage_sum *sum, int64_t now)
{
	json_object_set_new(o, "used_gpu_seconds",
	    json_integer((json_int_t)(budget_used(&sum->use, now) /
	    BUDGET_MILLI)));
	json_object_set_new(o, "used_gpu_seconds_charged", json_real(
	    budget_charged_seconds(assoc_usage_charged(sum, now))));
	json_object_set_new(o, "spent", json_boolean(
	    assoc_usage_is_spent(sum, a->budget, now)));
	json_object_set_new(o, "running_jobs", json_integer(sum->jobs));
	/* Jobs of shards hold their fractions of GPUs: rounded up. */
	json_object_set_new(o, "running_gpus", json_integer((json_int_t)
	    ((sum->use.rate + BUDGET_MILLI * BUDGET_MILLI - 1) /
	    (BUDGET_MILLI * BUDGET_MILLI))));
	return (o);
}

/* Fair share's figures (scheduler.fairshare), a line an account and a
 * user's association, in tree order; null while it is off. */
static json_t *
req_assoc_list_fairshare(int64_t now_ms)
{
	struct fairshare_row	*rows;
	json_t			*a, *o;
	size_t			 n, i;

	if ((rows = core_fairshare_report(now_ms, &n)) == NULL)
		return (json_null());
	a = json_array();
	for (i = 0; i < n; i++) {
		o = json_pack("{s:s, s:s?, s:I, s:f, s:f, s:f, s:f, s:f, s:I}",
		    "account", rows[i].account, "user", rows[i].user,
		    "shares", (json_int_t)rows[i].shares,
		    "norm_shares", rows[i].norm_shares,
		    "raw_usage", rows[i].raw_usage_s,
		    "norm_usage", rows[i].norm_usage,
		    "effective_usage", rows[i].effective_usage,
		    "factor", rows[i].factor,
		    "standing", (json_int_t)rows[i].standing);
		/* No usage: a level fair share past any number. */
		json_object_set_new(o, "level_fs", isinf(rows[i].level_fs) ?
		    json_null() : json_real(rows[i].level_fs));
		json_array_append_new(a, o);
	}
	free(rows);
	return (a);
}

static void
req_assoc_list(struct peer *p, const json_t *msg)
{
	const struct assoc_tab	*t = core_assoc();
	const struct assoc_account *a;
	const struct assoc_user	*u;
	struct assoc_usage_sum	*sums;
	json_t			*reply, *accounts, *users, *o;
	int64_t			 now = ctx_now(), month;
	size_t			 i;
	char			 name[16];

	sums = xcalloc(t->nacc + 1, sizeof *sums);
	assoc_usage_tree(core_usage(), t, now, sums);
	month = assoc_usage_month(core_usage(), now);
	accounts = json_array();
	for (i = 0; i < t->nacc; i++) {
		a = &t->acc[i];
		o = json_pack("{s:s, s:s, s:I, s:s, s:o, s:I}", "name", a->name,
		    "parent", a->parent, "shares", (json_int_t)a->shares,
		    "description", a->description, "gpu_hours",
		    req_assoc_hours(a->budget), "users",
		    (json_int_t)assoc_tab_users_of(t, a->name));
		req_assoc_list_usage(o, a, &sums[i], now);
		json_array_append_new(accounts, req_assoc_list_limits(o,
		    &a->lim));
	}
	free(sums);
	users = json_array();
	for (i = 0; i < t->nusr; i++) {
		u = &t->usr[i];
		json_array_append_new(users, req_assoc_list_limits(json_pack(
		    "{s:s, s:s, s:b}", "user", u->user, "account", u->account,
		    "default", u->is_default), &u->lim));
	}
	reply = proto_reply_ok(msg);
	json_object_set_new(reply, "month", json_string(budget_month_name(
	    month, name, sizeof name)));
	json_object_set_new(reply, "month_start", json_integer(month));
	json_object_set_new(reply, "accounts", accounts);
	json_object_set_new(reply, "users", users);
	json_object_set_new(reply, "fairshare",
	    req_assoc_list_fairshare(ctx_now_ms()));
	peer_send(p, reply);
	json_decref(reply);
}

const struct req_entry req_assoc_entry = {
	MSG_ASSOC, "ASSOC", REQ_CLIENT, true, true, req_assoc_change, false
};

const struct req_entry req_assoc_list_entry = {
	MSG_ASSOC_LIST, "ASSOC_LIST", REQ_CLIENT, false, true, req_assoc_list,
	false
};
