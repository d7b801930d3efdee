/* assoc-list.c: ASSOC_LIST's reply read and its tree laid out
 * (assoc-list.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/assoc-list.h"
#include "common/xmalloc.h"

static const char *
assoc_list_str(const json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return (s != NULL ? s : "");
}

static uint64_t
assoc_list_uint(const json_t *o, const char *key)
{
	json_int_t	v = json_integer_value(json_object_get(o, key));

	return (v > 0 ? (uint64_t)v : 0);
}

static void
assoc_list_limits(const json_t *o, struct assoc_list_limits *lim)
{
	lim->max_gpus = assoc_list_uint(o, "max_gpus");
	lim->max_jobs = assoc_list_uint(o, "max_jobs");
	lim->max_pending = assoc_list_uint(o, "max_pending");
	lim->max_time = assoc_list_uint(o, "max_time");
}

static int
assoc_list_by_name_cb(const void *a, const void *b)
{
	return (strcmp(((const struct assoc_list_account *)a)->name,
	    ((const struct assoc_list_account *)b)->name));
}

static int
assoc_list_by_user_cb(const void *a, const void *b)
{
	const struct assoc_list_user	*x = a, *y = b;
	int				 c = strcmp(x->user, y->user);

	return (c != 0 ? c : strcmp(x->account, y->account));
}

/* Users' associations by account, then user: the order of a tree's
 * lines under each account. */
static int
assoc_list_by_account_cb(const void *a, const void *b)
{
	const struct assoc_list_user	*x = *(const struct assoc_list_user *
					    const *)a;
	const struct assoc_list_user	*y = *(const struct assoc_list_user *
					    const *)b;
	int				 c = strcmp(x->account, y->account);

	return (c != 0 ? c : strcmp(x->user, y->user));
}

const struct assoc_list_account *
assoc_list_account(const struct assoc_list *l, const char *name)
{
	struct assoc_list_account	key = { .name = name };

	if (l->nacc == 0)
		return (NULL);
	return (bsearch(&key, l->acc, l->nacc, sizeof *l->acc,
	    assoc_list_by_name_cb));
}

const struct assoc_list_user *
assoc_list_user(const struct assoc_list *l, const char *user,
    const char *account)
{
	struct assoc_list_user	key = { .user = user, .account = account };

	if (l->nusr == 0)
		return (NULL);
	return (bsearch(&key, l->usr, l->nusr, sizeof *l->usr,
	    assoc_list_by_user_cb));
}

const char *
assoc_list_default(const struct assoc_list *l, const char *user)
{
	size_t	i;

	for (i = 0; i < l->nusr; i++) {
		if (strcmp(l->usr[i].user, user) == 0 && l->usr[i].is_default)
			return (l->usr[i].account);
	}
	return (NULL);
}

/* Accounts by parent, then name: the order of the accounts below each
 * one. */
static int
assoc_list_by_parent_cb(const void *a, const void *b)
{
	const struct assoc_list_account	*x = *(const struct
					    assoc_list_account *const *)a;
	const struct assoc_list_account	*y = *(const struct
					    assoc_list_account *const *)b;
	int				 c = strcmp(x->parent, y->parent);

	return (c != 0 ? c : strcmp(x->name, y->name));
}

/* The walk's state: the users' associations by account, the accounts by
 * parent, and the accounts already laid out. */
struct assoc_list_walk {
	struct assoc_list		 *l;
	const struct assoc_list_user	**by_acct;
	const struct assoc_list_account	**by_parent;
	bool				 *seen;		/* per account */
};

/* The first of the n sorted pointers in v whose key (got by key_of) is
 * not below key. */
static size_t
assoc_list_lower(const void *const *v, size_t n, const char *key,
    const char *(*key_of)(const void *))
{
	size_t	lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(key_of(v[mid]), key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

static const char *
assoc_list_account_of(const void *u)
{
	return (((const struct assoc_list_user *)u)->account);
}

static const char *
assoc_list_parent_of(const void *a)
{
	return (((const struct assoc_list_account *)a)->parent);
}

/* Adds account a's line, its users' and, depth first, those of the
 * accounts below it. */
static void
assoc_list_walk(struct assoc_list_walk *w, const struct assoc_list_account *a,
    size_t up, int depth)
{
	struct assoc_list	*l = w->l;
	size_t			 me = l->nrows, i;

	w->seen[a - l->acc] = true;
	l->rows[l->nrows++] = (struct assoc_list_row){ a, NULL, up, depth };
	i = assoc_list_lower((const void *const *)w->by_acct, l->nusr,
	    a->name, assoc_list_account_of);
	for (; i < l->nusr && strcmp(w->by_acct[i]->account, a->name) == 0;
	    i++)
		l->rows[l->nrows++] = (struct assoc_list_row){ a,
		    w->by_acct[i], me, depth + 1 };
	i = assoc_list_lower((const void *const *)w->by_parent, l->nacc,
	    a->name, assoc_list_parent_of);
	for (; i < l->nacc && strcmp(w->by_parent[i]->parent, a->name) == 0;
	    i++) {
		if (!w->seen[w->by_parent[i] - l->acc])
			assoc_list_walk(w, w->by_parent[i], me, depth + 1);
	}
}

/* Whether a is a top account: no parent, or one not listed, or itself. */
static bool
assoc_list_is_top(const struct assoc_list *l,
    const struct assoc_list_account *a)
{
	return (a->parent[0] == '\0' || strcmp(a->parent, a->name) == 0 ||
	    assoc_list_account(l, a->parent) == NULL);
}

static void
assoc_list_tree(struct assoc_list *l)
{
	struct assoc_list_walk	 w = { .l = l };
	size_t			 i;

	l->rows = xcalloc(l->nacc + l->nusr + 1, sizeof *l->rows);
	w.by_acct = xcalloc(l->nusr + 1, sizeof *w.by_acct);
	w.by_parent = xcalloc(l->nacc + 1, sizeof *w.by_parent);
	w.seen = xcalloc(l->nacc + 1, sizeof *w.seen);
	for (i = 0; i < l->nusr; i++)
		w.by_acct[i] = &l->usr[i];
	qsort(w.by_acct, l->nusr, sizeof *w.by_acct,
	    assoc_list_by_account_cb);
	for (i = 0; i < l->nacc; i++)
		w.by_parent[i] = &l->acc[i];
	qsort(w.by_parent, l->nacc, sizeof *w.by_parent,
	    assoc_list_by_parent_cb);
	/* The top accounts, by name (acc is). An account in a loop of
	 * parents, which gbatchd never makes, has no line. */
	for (i = 0; i < l->nacc; i++) {
		if (!w.seen[i] && assoc_list_is_top(l, &l->acc[i]))
			assoc_list_walk(&w, &l->acc[i], ASSOC_LIST_TOP, 0);
	}
	free(w.by_acct);
	free(w.by_parent);
	free(w.seen);
}

/* Fair share's lines, when the controller sends them. */
static void
assoc_list_read_fs(struct assoc_list *l, const json_t *rows)
{
	struct assoc_list_fs	*f;
	const json_t		*o, *lf;
	size_t			 i;

	if (!json_is_array(rows))
		return;
	l->fs = xcalloc(json_array_size(rows) + 1, sizeof *l->fs);
	json_array_foreach(rows, i, o) {
		if (json_string_value(json_object_get(o, "account")) == NULL)
			continue;
		f = &l->fs[l->nfs++];
		f->account = assoc_list_str(o, "account");
		f->user = json_string_value(json_object_get(o, "user"));
		f->shares = assoc_list_uint(o, "shares");
		f->norm_shares = json_number_value(json_object_get(o,
		    "norm_shares"));
		f->raw_usage = json_number_value(json_object_get(o,
		    "raw_usage"));
		f->norm_usage = json_number_value(json_object_get(o,
		    "norm_usage"));
		f->effective_usage = json_number_value(json_object_get(o,
		    "effective_usage"));
		lf = json_object_get(o, "level_fs");
		f->level_fs = json_is_number(lf) ? json_number_value(lf) :
		    INFINITY;
		f->factor = json_number_value(json_object_get(o, "factor"));
		f->standing = assoc_list_uint(o, "standing");
	}
}

const struct assoc_list_fs *
assoc_list_fairshare(const struct assoc_list *l, const char *account,
    const char *user)
{
	size_t	i;

	for (i = 0; i < l->nfs; i++) {
		if (strcmp(l->fs[i].account, account) == 0 &&
		    ((user == NULL && l->fs[i].user == NULL) ||
		    (user != NULL && l->fs[i].user != NULL &&
		    strcmp(l->fs[i].user, user) == 0)))
			return (&l->fs[i]);
	}
	return (NULL);
}

int
assoc_list_read(struct assoc_list *l, json_t *reply, char *err,
    size_t errlen)
{
	const json_t	*accounts, *users, *o;
	size_t		 i;

	memset(l, 0, sizeof *l);
	accounts = json_object_get(reply, "accounts");
	users = json_object_get(reply, "users");
	if (!json_is_array(accounts) || !json_is_array(users)) {
		snprintf(err, errlen, "the controller's reply lists no accounts "
		    "and users");
		json_decref(reply);
		return (-1);
	}
	l->reply = reply;
	l->month = assoc_list_str(reply, "month");
	l->acc = xcalloc(json_array_size(accounts) + 1, sizeof *l->acc);
	l->usr = xcalloc(json_array_size(users) + 1, sizeof *l->usr);
	json_array_foreach(accounts, i, o) {
		struct assoc_list_account	*a = &l->acc[l->nacc];

		if (json_string_value(json_object_get(o, "name")) == NULL)
			continue;
		a->name = assoc_list_str(o, "name");
		a->parent = assoc_list_str(o, "parent");
		a->description = assoc_list_str(o, "description");
		a->shares = assoc_list_uint(o, "shares");
		/* GPU-hours on the wire, GPU-seconds in gbatchd: whole ones
		 * again. */
		if (json_number_value(json_object_get(o, "gpu_hours")) > 0)
			a->budget_s = (uint64_t)(json_number_value(
			    json_object_get(o, "gpu_hours")) * 3600 + 0.5);
		assoc_list_limits(o, &a->lim);
		a->used_s = assoc_list_uint(o, "used_gpu_seconds");
		a->used_charged_s = json_number_value(json_object_get(o,
		    "used_gpu_seconds_charged"));
		a->spent = json_is_true(json_object_get(o, "spent"));
		a->running_jobs = assoc_list_uint(o, "running_jobs");
		a->running_gpus = assoc_list_uint(o, "running_gpus");
		l->nacc++;
	}
	json_array_foreach(users, i, o) {
		struct assoc_list_user	*u = &l->usr[l->nusr];

		if (json_string_value(json_object_get(o, "user")) == NULL ||
		    json_string_value(json_object_get(o, "account")) == NULL)
			continue;
		u->user = assoc_list_str(o, "user");
		u->account = assoc_list_str(o, "account");
		u->is_default = json_is_true(json_object_get(o, "default"));
		assoc_list_limits(o, &u->lim);
		l->nusr++;
	}
	assoc_list_read_fs(l, json_object_get(reply, "fairshare"));
	/* Sorted here too, whatever the order came: lookups bisect. */
	qsort(l->acc, l->nacc, sizeof *l->acc, assoc_list_by_name_cb);
	qsort(l->usr, l->nusr, sizeof *l->usr, assoc_list_by_user_cb);
	assoc_list_tree(l);
	return (0);
}

void
assoc_list_free(struct assoc_list *l)
{
	free(l->acc);
	free(l->usr);
	free(l->rows);
	free(l->fs);
	json_decref(l->reply);
	memset(l, 0, sizeof *l);
}

char *
assoc_list_hours(uint64_t secs, char *buf, size_t len)
{
	char	*z;

	if (secs % 3600 == 0) {
		snprintf(buf, len, "%llu", (unsigned long long)(secs / 3600));
		return (buf);
	}
	snprintf(buf, len, "%.6f", (double)secs / 3600);
	for (z = buf + strlen(buf) - 1; z > buf && *z == '0'; z--)
		*z = '\0';
	if (*z == '.')
		*z = '\0';
	return (buf);
}

double
assoc_list_norm_shares(const struct assoc_list *l,
    const struct assoc_list_account *a)
{
	bool		 top = assoc_list_is_top(l, a);
	uint64_t	 sum = 0;
	size_t		 i;

	for (i = 0; i < l->nacc; i++) {
		if (top ? assoc_list_is_top(l, &l->acc[i]) :
		    strcmp(l->acc[i].parent, a->parent) == 0)
			sum += l->acc[i].shares;
	}
	return (sum == 0 ? 0.0 : (double)a->shares / (double)sum);
}

void
assoc_list_indent(const struct assoc_list *l, const bool *shown,
    bool top_shown, int *indent)
{
	size_t	i, up;

	/* A line comes after the line above it: one pass. */
	for (i = 0; i < l->nrows; i++) {
		up = l->rows[i].up;
		if (up == ASSOC_LIST_TOP)
			indent[i] = top_shown ? 1 : 0;
		else
			indent[i] = shown[up] ? indent[up] + 1 : 0;
	}
}
