/* sacctmgr-plan.c: sacctmgr's changes as ASSOC requests and their undo
 * (sacctmgr-plan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/assoc-words.h"
#include "client/sacctmgr-keys.h"
#include "common/cmd.h"
#include "common/proto.h"
#include "common/safe-text.h"
#include "common/xmalloc.h"
#include "slurm/sacctmgr-plan.h"
#include "slurm/slurm-fmt.h"

/* A step: req, and undo (both taken over). */
static void
sacctmgr_plan_step(struct sacctmgr_plan *p, json_t *req, json_t *undo)
{
	p->v = xreallocarray(p->v, p->n + 1, sizeof *p->v);
	p->v[p->n].req = req;
	p->v[p->n].undo = undo;
	p->n++;
}

static json_t *
sacctmgr_plan_limits(json_t *o, const struct assoc_list_limits *lim)
{
	json_object_set_new(o, "max_gpus", json_integer(
	    (json_int_t)lim->max_gpus));
	json_object_set_new(o, "max_jobs", json_integer(
	    (json_int_t)lim->max_jobs));
	json_object_set_new(o, "max_pending", json_integer(
	    (json_int_t)lim->max_pending));
	json_object_set_new(o, "max_time", json_integer(
	    (json_int_t)lim->max_time));
	return (o);
}

/* Every member of account a, as its add would set them. */
static json_t *
sacctmgr_plan_account(const struct assoc_list_account *a)
{
	json_t	*o;
	char	 err[128];

	o = sacctmgr_plan_limits(json_pack("{s:s,s:I,s:s}", "parent",
	    a->parent, "shares", (json_int_t)a->shares, "description",
	    a->description), &a->lim);
	/* The budget gbatchd holds, its GPU-second: within bounds. */
	(void)assoc_words_put_budget(o, a->budget_s, err, sizeof err);
	return (o);
}

/* Of all, the members set names: what a change of set replaces. */
static json_t *
sacctmgr_plan_before(json_t *all, const json_t *set)
{
	json_t		*o = json_object();
	const char	*key;
	json_t		*v;

	json_object_foreach((json_t *)set, key, v) {
		if (json_object_get(all, key) != NULL)
			json_object_set(o, key, json_object_get(all, key));
	}
	json_decref(all);
	return (o);
}

/* The request that makes account the user's default again; NULL when the
 * user had none. */
static json_t *
sacctmgr_plan_default(const char *user, const char *account)
{
	if (account == NULL)
		return (NULL);
	return (assoc_words_request("user_modify", user, account,
	    json_pack("{s:b}", "default", 1)));
}

/* The undo list of reqs (NULL ones left out). */
static json_t *
sacctmgr_plan_undo(json_t *a, json_t *b)
{
	json_t	*undo = json_array();

	if (a != NULL)
		json_array_append_new(undo, a);
	if (b != NULL)
		json_array_append_new(undo, b);
	return (undo);
}

/* The report's "  KEY = VALUE" lines of set's members, Slurm's keywords
 * for them (of's). */
static void
sacctmgr_plan_settings(FILE *f, const json_t *set, int of)
{
	const char	*member, *key, *s;
	json_t		*v;
	char		 buf[1100], safe[4400];

	json_object_foreach((json_t *)set, member, v) {
		if ((key = sacctmgr_keys_key(member, of)) == NULL)
			continue;
		if ((s = json_string_value(v)) != NULL)
			s = strcmp(member, "parent") == 0 && *s == '\0' ? "root" :
			    s;
		else if ((s = slurm_fmt_member(member, strcmp(member,
		    "gpu_hours") == 0 ? (uint64_t)(json_number_value(v) *
		    3600 + 0.5) : (uint64_t)json_integer_value(v), buf,
		    sizeof buf))[0] == '\0')
			s = "NONE";
		fprintf(f, "  %-14s= %s\n", key, safe_text_str(s, safe,
		    sizeof safe));
	}
}

static const char *
sacctmgr_plan_name(const json_t *names, size_t i, char *safe, size_t len)
{
	return (safe_text_str(json_string_value(json_array_get(names, i)),
	    safe, len));
}

/* How deep the account named names[i] lies in the tree (0: at the top,
 * or not listed). */
static int
sacctmgr_plan_depth(const struct assoc_list *l, const json_t *names,
    size_t i)
{
	const char	*name = json_string_value(json_array_get(names, i));
	size_t		 r;

	for (r = 0; r < l->nrows; r++) {
		if (l->rows[r].user == NULL && strcmp(l->rows[r].acct->name,
		    name) == 0)
			return (l->rows[r].depth);
	}
	return (0);
}

static int
sacctmgr_plan_accounts(const struct sacctmgr_words *w,
    const struct assoc_list *l, struct sacctmgr_plan *p, FILE *f, char *err,
    size_t errlen)
{
	const struct assoc_list_account	*a;
	const char			*name;
	size_t				 i, k, *order;
	char				 safe[1100];

	fprintf(f, w->verb == SACCTMGR_ADD ? " Adding Account(s)\n" :
	    w->verb == SACCTMGR_MODIFY ? " Modified account associations...\n" :
	    " Deleting accounts...\n");
	/* Delete the accounts below before those above them: the deepest
	 * first, the order given otherwise. */
	order = xcalloc(json_array_size(w->names) + 1, sizeof *order);
	for (i = 0; i < json_array_size(w->names); i++) {
		for (k = i; w->verb == SACCTMGR_DELETE && k > 0 &&
		    sacctmgr_plan_depth(l, w->names, order[k - 1]) <
		    sacctmgr_plan_depth(l, w->names, i); k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	for (k = 0; k < json_array_size(w->names); k++) {
		i = order[k];
		name = json_string_value(json_array_get(w->names, i));
		a = assoc_list_account(l, name);
		if (w->verb != SACCTMGR_ADD && a == NULL) {
			snprintf(err, errlen, "no account %s", safe_text_str(name,
			    safe, sizeof safe));
			free(order);
			return (-1);
		}
		fprintf(f, "  %s%s\n", w->verb == SACCTMGR_MODIFY ? "A = " : "",
		    sacctmgr_plan_name(w->names, i, safe, sizeof safe));
		if (w->verb == SACCTMGR_ADD)
			sacctmgr_plan_step(p, assoc_words_request("account_add",
			    name, NULL, json_deep_copy(w->set)), sacctmgr_plan_undo(
			    assoc_words_request("account_delete", name, NULL, NULL),
			    NULL));
		else if (w->verb == SACCTMGR_MODIFY)
			sacctmgr_plan_step(p, assoc_words_request("account_modify",
			    name, NULL, json_deep_copy(w->set)), sacctmgr_plan_undo(
			    assoc_words_request("account_modify", name, NULL,
			    sacctmgr_plan_before(sacctmgr_plan_account(a), w->set)),
			    NULL));
		else
			sacctmgr_plan_step(p, assoc_words_request("account_delete",
			    name, NULL, NULL), sacctmgr_plan_undo(
			    assoc_words_request("account_add", name, NULL,
			    sacctmgr_plan_account(a)), NULL));
	}
	free(order);
	if (json_object_size(w->set) > 0) {
		fprintf(f, " Settings\n");
		sacctmgr_plan_settings(f, w->set, ASSOC_WORDS_ACCOUNT);
	}
	return (0);
}

/* Whether the association u is one w's Accounts= selects (any, when it
 * names none). */
static bool
sacctmgr_plan_selects(const struct sacctmgr_words *w,
    const struct assoc_list_user *u)
{
	return (json_array_size(w->accounts) == 0 || cmd_list_has(w->accounts,
	    u->account));
}

/* user's associations as their adds would make them again. */
static json_t *
sacctmgr_plan_readd(const struct assoc_list *l, const char *user,
    const char *only)
{
	json_t	*undo = json_array();
	size_t	 i;

	for (i = 0; i < l->nusr; i++) {
		if (strcmp(l->usr[i].user, user) != 0 || (only != NULL &&
		    strcmp(l->usr[i].account, only) != 0))
			continue;
		json_array_append_new(undo, assoc_words_request("user_add",
		    user, l->usr[i].account, sacctmgr_plan_limits(json_pack(
		    "{s:b}", "default", l->usr[i].is_default), &l->usr[i].lim)));
	}
	return (undo);
}

/* One user's changes; its associations changed go to pairs, as
 * [user, account]. */
static int
sacctmgr_plan_user(const struct sacctmgr_words *w, const struct assoc_list *l,
    const char *user, struct sacctmgr_plan *p, json_t *pairs, char *err,
    size_t errlen)
{
	const char	*prev = assoc_list_default(l, user), *acct;
	const struct assoc_list_user *u;
	json_t		*set;
	size_t		 i;
	char		 safe[1100];

	if (w->verb != SACCTMGR_ADD && prev == NULL) {
		snprintf(err, errlen, "no user %s: not in any account",
		    safe_text_str(user, safe, sizeof safe));
		return (-1);
	}
	for (i = 0; w->verb == SACCTMGR_ADD && i < json_array_size(w->accounts);
	    i++) {
		acct = json_string_value(json_array_get(w->accounts, i));
		set = json_deep_copy(w->set);
		if (w->def_account != NULL && strcmp(acct, w->def_account) == 0)
			json_object_set_new(set, "default", json_true());
		sacctmgr_plan_step(p, assoc_words_request("user_add", user, acct,
		    set), sacctmgr_plan_undo(assoc_words_request("user_delete",
		    user, acct, NULL), sacctmgr_plan_default(user, prev)));
		json_array_append_new(pairs, json_pack("[s,s]", user, acct));
	}
	for (i = 0; w->verb != SACCTMGR_ADD && i < l->nusr; i++) {
		u = &l->usr[i];
		if (strcmp(u->user, user) != 0 || !sacctmgr_plan_selects(w, u))
			continue;
		json_array_append_new(pairs, json_pack("[s,s]", user,
		    u->account));
		if (w->verb == SACCTMGR_MODIFY && json_object_size(w->set) > 0)
			sacctmgr_plan_step(p, assoc_words_request("user_modify",
			    user, u->account, json_deep_copy(w->set)),
			    sacctmgr_plan_undo(assoc_words_request("user_modify",
			    user, u->account, sacctmgr_plan_before(
			    sacctmgr_plan_limits(json_object(), &u->lim), w->set)),
			    NULL));
		else if (w->verb == SACCTMGR_DELETE &&
		    json_array_size(w->accounts) > 0) {
			set = sacctmgr_plan_readd(l, user, u->account);
			json_array_append_new(set, sacctmgr_plan_default(user,
			    prev));
			sacctmgr_plan_step(p, assoc_words_request("user_delete",
			    user, u->account, NULL), set);
		}
	}
	/* Every association of the user at once. */
	if (w->verb == SACCTMGR_DELETE && json_array_size(w->accounts) == 0)
		sacctmgr_plan_step(p, assoc_words_request("user_delete", user,
		    NULL, NULL), sacctmgr_plan_readd(l, user, NULL));
	/* The default account: one of the user's, before or by this add. */
	if (w->def_account == NULL || (w->verb == SACCTMGR_ADD &&
	    cmd_list_has(w->accounts, w->def_account)))
		return (0);
	if (assoc_list_user(l, user, w->def_account) == NULL) {
		snprintf(err, errlen, "DefaultAccount=%s: user %s is not in "
		    "account %s%s", w->def_account, user, w->def_account,
		    w->verb == SACCTMGR_ADD ? "; give it in Account= too" : "");
		return (-1);
	}
	sacctmgr_plan_step(p, sacctmgr_plan_default(user, w->def_account),
	    sacctmgr_plan_undo(sacctmgr_plan_default(user, prev), NULL));
	return (0);
}

static int
sacctmgr_plan_users(const struct sacctmgr_words *w,
    const struct assoc_list *l, struct sacctmgr_plan *p, FILE *f, char *err,
    size_t errlen)
{
	json_t		*pairs = json_array(), *pair;
	size_t		 i;
	char		 safe[1100], safe2[1100];
	int		 r = -1;

	for (i = 0; i < json_array_size(w->names); i++) {
		if (sacctmgr_plan_user(w, l, json_string_value(json_array_get(
		    w->names, i)), p, pairs, err, errlen) != 0)
			goto out;
	}
	if (w->verb != SACCTMGR_ADD && json_array_size(pairs) == 0 &&
	    w->def_account == NULL) {
		snprintf(err, errlen, "no association of %s in %s: nothing to "
		    "%s", json_array_size(w->names) == 1 ? json_string_value(
		    json_array_get(w->names, 0)) : "those users",
		    json_array_size(w->accounts) == 1 ? json_string_value(
		    json_array_get(w->accounts, 0)) : "those accounts",
		    w->verb == SACCTMGR_MODIFY ? "modify" : "delete");
		goto out;
	}
	if (w->verb == SACCTMGR_ADD) {
		fprintf(f, " Adding User(s)\n");
		for (i = 0; i < json_array_size(w->names); i++)
			fprintf(f, "  %s\n", sacctmgr_plan_name(w->names, i, safe,
			    sizeof safe));
		if (w->def_account != NULL)
			fprintf(f, " Settings =\n  Default Account = %s\n",
			    safe_text_str(w->def_account, safe, sizeof safe));
		fprintf(f, " Associations =\n");
	} else if (w->verb == SACCTMGR_DELETE &&
	    json_array_size(w->accounts) == 0) {
		fprintf(f, " Deleting users...\n");
		for (i = 0; i < json_array_size(w->names); i++)
			fprintf(f, "  %s\n", sacctmgr_plan_name(w->names, i, safe,
			    sizeof safe));
		json_array_clear(pairs);
	} else
		fprintf(f, w->verb == SACCTMGR_MODIFY ? " Modified user "
		    "associations...\n" : " Deleting user associations...\n");
	json_array_foreach(pairs, i, pair)
		fprintf(f, "  U = %-9s A = %s\n", sacctmgr_plan_name(pair, 0,
		    safe, sizeof safe), sacctmgr_plan_name(pair, 1, safe2,
		    sizeof safe2));
	if (json_object_size(w->set) > 0 || (w->def_account != NULL &&
	    w->verb == SACCTMGR_MODIFY)) {
		fprintf(f, w->verb == SACCTMGR_ADD ? " Non Default Settings\n" :
		    " Settings\n");
		sacctmgr_plan_settings(f, w->set, ASSOC_WORDS_USER);
		if (w->def_account != NULL && w->verb == SACCTMGR_MODIFY)
			fprintf(f, "  Default Account = %s\n", safe_text_str(
			    w->def_account, safe, sizeof safe));
	}
	r = 0;
out:
	json_decref(pairs);
	return (r);
}

int
sacctmgr_plan_make(const struct sacctmgr_words *w, const struct assoc_list *l,
    struct sacctmgr_plan *p, char *err, size_t errlen)
{
	FILE	*f;
	size_t	 len;
	int	 r;

	memset(p, 0, sizeof *p);
	if ((f = open_memstream(&p->report, &len)) == NULL)
		abort();
	r = w->entity == SACCTMGR_ACCOUNT ? sacctmgr_plan_accounts(w, l, p, f,
	    err, errlen) : sacctmgr_plan_users(w, l, p, f, err, errlen);
	fclose(f);
	if (r != 0)
		sacctmgr_plan_free(p);
	return (r);
}

int
sacctmgr_plan_run(const struct sacctmgr_plan *p, struct model *m, char *err,
    size_t errlen)
{
	json_t	*reply, *req;
	size_t	 i, k, undone = 0, failed = 0;
	int	 r = 0;

	for (i = 0; i < p->n; i++) {
		if ((r = model_request(m, p->v[i].req, &reply)) != 0)
			break;
		json_decref(reply);
	}
	if (r == 0)
		return (0);
	snprintf(err, errlen, "%s", m->err);
	/* Put back what came before, the last change first. */
	while (i-- > 0) {
		json_array_foreach(p->v[i].undo, k, req) {
			if (model_request(m, req, &reply) != 0) {
				failed++;
				fprintf(stderr, "sacctmgr: undoing a change: %s\n",
				    m->err);
				continue;
			}
			json_decref(reply);
		}
		undone++;
	}
	if (undone > 0)
		snprintf(err + strlen(err), errlen - strlen(err), "%s",
		    failed == 0 ? " (the changes before it were undone)" :
		    " (the changes before it could not all be undone)");
	return (r);
}

void
sacctmgr_plan_free(struct sacctmgr_plan *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++) {
		json_decref(p->v[i].req);
		json_decref(p->v[i].undo);
	}
	free(p->v);
	free(p->report);
	memset(p, 0, sizeof *p);
}
