/* report-fair.c: the fairness part of gsim's report; see report-fair.h
 * and, for the figures, fair.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "sim/report-fair.h"

/* Users listed by name in the text table; past this many, --json has
 * the rest (a site trace may have hundreds). */
#define REPORT_FAIR_TEXT_USERS	40

/* A user in an account, named: what the trace's jobs are sorted by to
 * find each user's node once, and the rows by. */
struct report_fair_key {
	const char	*user;
	const char	*account;
	size_t		 i;		/* a job, or a node */
};

static int
report_fair_key_cmp(const void *a, const void *b)
{
	const struct report_fair_key	*x = a, *y = b;
	int				 c;

	if ((c = strcmp(x->user, y->user)) != 0)
		return (c);
	return (strcmp(x->account, y->account));
}

void
report_fair_init(struct report_fair *rf, struct fair_tree *tree,
    const struct sim_trace *trace)
{
	struct report_fair_key	*k;
	const struct sim_job	*j;
	size_t			 i, node = 0, n = trace->njobs;

	memset(rf, 0, sizeof *rf);
	rf->tree = tree;
	rf->njobs = n;
	rf->job_user = xcalloc(n != 0 ? n : 1, sizeof *rf->job_user);
	if (n > 0)
		rf->origin_ms = trace->jobs[0].submit_ms;
	k = xcalloc(n != 0 ? n : 1, sizeof *k);
	for (i = 0; i < n; i++) {
		j = &trace->jobs[i];
		k[i].user = j->user != NULL ? j->user : "";
		k[i].account = j->account != NULL ? j->account : "";
		k[i].i = i;
	}
	qsort(k, n, sizeof *k, report_fair_key_cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || report_fair_key_cmp(&k[i - 1], &k[i]) != 0)
			node = fair_tree_leaf(tree, k[i].account, k[i].user);
		if (i == 0 || strcmp(k[i - 1].user, k[i].user) != 0)
			rf->users++;
		rf->job_user[k[i].i] = trace->jobs[k[i].i].gpus > 0 ? node :
		    SIZE_MAX;
	}
	free(k);
	/* What has a GPU job at or below it; parents come first. */
	rf->listed = xcalloc(fair_tree_size(tree), sizeof *rf->listed);
	for (i = 0; i < n; i++) {
		if (rf->job_user[i] != SIZE_MAX)
			rf->listed[rf->job_user[i]] = true;
	}
	for (i = fair_tree_size(tree); i-- > 1;) {
		if (rf->listed[i])
			rf->listed[fair_tree_parent(tree, i)] = true;
	}
}

void
report_fair_free(struct report_fair *rf)
{
	if (rf == NULL)
		return;
	fair_tree_free(rf->tree);
	free(rf->job_user);
	free(rf->listed);
	memset(rf, 0, sizeof *rf);
}

void
report_fair_figures(const struct report_fair *rf,
    const struct sim_trace *trace, const struct sim_cluster *c,
    const struct sim_result *res, struct fair_figures *f)
{
	struct fair_usage	*u;
	const struct sim_span	*s;
	const struct sim_job	*j;
	int64_t			*last;
	double			 held;
	size_t			 i, node;

	u = fair_usage_create(rf->tree, rf->origin_ms, FAIR_WINDOW_MS);
	/* A job waits from its submit to its first run, and between runs;
	 * a job's spans come in time order. */
	last = xcalloc(trace->njobs != 0 ? trace->njobs : 1, sizeof *last);
	for (i = 0; i < trace->njobs; i++)
		last[i] = trace->jobs[i].submit_ms;
	for (i = 0; i < res->nspans; i++) {
		s = &res->spans[i];
		if ((node = rf->job_user[s->job]) == SIZE_MAX)
			continue;
		j = &trace->jobs[s->job];
		held = sim_cluster_held(c, j->gpus, j->shards);
		fair_usage_waited(u, node, held, last[s->job], s->start_ms);
		fair_usage_ran(u, node, held, s->start_ms, s->end_ms);
		last[s->job] = s->end_ms;
	}
	free(last);
	fair_usage_figures(u, f);
	fair_usage_free(u);
}

/* The listed users, sorted by name then account; *n of them. */
static struct report_fair_key *
report_fair_users(const struct report_fair *rf, size_t *n)
{
	struct report_fair_key	*k;
	size_t			 i, size = fair_tree_size(rf->tree);

	k = xcalloc(size, sizeof *k);
	for (i = *n = 0; i < size; i++) {
		if (!rf->listed[i] || !fair_tree_is_user(rf->tree, i))
			continue;
		k[*n].user = fair_tree_name(rf->tree, i);
		k[*n].account = fair_tree_name(rf->tree,
		    fair_tree_parent(rf->tree, i));
		k[(*n)++].i = i;
	}
	qsort(k, *n, sizeof *k, report_fair_key_cmp);
	return (k);
}

static int
report_fair_name_cmp(const void *a, const void *b)
{
	const struct report_fair_key	*x = a, *y = b;

	return (strcmp(x->account, y->account));
}

/* Appends to v the listed accounts below node p, depth first, siblings by
 * name, each before the accounts below it. */
static void
report_fair_walk(const struct report_fair *rf, size_t p, size_t *v,
    size_t *n)
{
	struct report_fair_key	*k;
	size_t			 i, nk = 0, size = fair_tree_size(rf->tree);

	k = xcalloc(size, sizeof *k);
	for (i = p + 1; i < size; i++) {
		if (rf->listed[i] && !fair_tree_is_user(rf->tree, i) &&
		    fair_tree_parent(rf->tree, i) == p) {
			k[nk].account = fair_tree_name(rf->tree, i);
			k[nk++].i = i;
		}
	}
	qsort(k, nk, sizeof *k, report_fair_name_cmp);
	for (i = 0; i < nk; i++) {
		v[(*n)++] = k[i].i;
		report_fair_walk(rf, k[i].i, v, n);
	}
	free(k);
}

/* The accounts that have a GPU job below them, in tree order; *n of
 * them. */
static size_t *
report_fair_accounts(const struct report_fair *rf, size_t *n)
{
	size_t	*v = xcalloc(fair_tree_size(rf->tree), sizeof *v);

	*n = 0;
	report_fair_walk(rf, FAIR_TREE_ROOT, v, n);
	return (v);
}

static const char *
report_fair_name(const char *s)
{
	return (*s != '\0' ? s : "(none)");
}

/* "account A/B" for account B under A; a new string. */
static char *
report_fair_path(const struct report_fair *rf, size_t i)
{
	char	*path, *up;

	path = xstrdup(report_fair_name(fair_tree_name(rf->tree, i)));
	while ((i = fair_tree_parent(rf->tree, i)) != FAIR_TREE_ROOT) {
		up = xasprintf("%s/%s", fair_tree_name(rf->tree, i), path);
		free(path);
		path = up;
	}
	up = xasprintf("account %s", path);
	free(path);
	return (up);
}

/* A cell of three places, or "-" for NAN: nothing to measure. */
static void
report_fair_cell(struct report_table *t, double v)
{
	if (isnan(v))
		report_table_cell(t, "-");
	else
		report_table_cell(t, "%.3f", v);
}

/* Node i's row: its received / entitled in each run. */
static void
report_fair_ratio_row(const struct fair_figures *f, size_t nruns, size_t i,
    const char *label, struct report_table *t)
{
	size_t	k;

	report_table_row(t, label);
	for (k = 0; k < nruns; k++)
		report_fair_cell(t, f[k].entitled[i] > 0 ? f[k].received[i] /
		    f[k].entitled[i] : NAN);
}

void
report_fair_rows(const struct report_fair *rf, const struct fair_figures *f,
    size_t nruns, struct report_table *t)
{
	struct report_fair_key	*users;
	size_t			*accounts, i, k, n, nacc, top;
	char			*label;

	if (rf->users < 2)
		return;
	report_table_row(t, "");
	report_table_row(t, "fairness, 6 h windows (users, accounts: GPU-time "
	    "received / entitled)");
	report_table_row(t, "Jain's index");
	for (k = 0; k < nruns; k++)
		report_fair_cell(t, f[k].jain);
	report_table_row(t, "min window share");
	for (k = 0; k < nruns; k++)
		report_fair_cell(t, f[k].min_share);
	accounts = report_fair_accounts(rf, &nacc);
	users = report_fair_users(rf, &n);
	/* An account's row says something when it has siblings: other
	 * accounts, or users of no account beside it under the root. */
	for (i = 0, top = nacc; i < n; i++)
		top += *users[i].account == '\0';
	for (i = 0; i < n && i < REPORT_FAIR_TEXT_USERS; i++) {
		label = *users[i].account != '\0' ? xasprintf("user %s (%s)",
		    report_fair_name(users[i].user), users[i].account) :
		    xasprintf("user %s", report_fair_name(users[i].user));
		report_fair_ratio_row(f, nruns, users[i].i, label, t);
		free(label);
	}
	if (n > REPORT_FAIR_TEXT_USERS) {
		label = xasprintf("... %zu more users (gsim --json lists "
		    "them)", n - REPORT_FAIR_TEXT_USERS);
		report_table_row(t, label);
		free(label);
	}
	free(users);
	for (i = 0; top > 1 && i < nacc; i++) {
		label = report_fair_path(rf, accounts[i]);
		report_fair_ratio_row(f, nruns, accounts[i], label, t);
		free(label);
	}
	free(accounts);
}

/* A figure rounded to six places, or null when it is NAN. */
static json_t *
report_fair_real(double v)
{
	return (isnan(v) ? json_null() : json_real(round(v * 1e6) / 1e6));
}

static json_t *
report_fair_str(const char *s)
{
	return (s != NULL && *s != '\0' ? json_string(s) : json_null());
}

/* Node i's GPU-hours: run, received and entitled, and their ratio. */
static void
report_fair_hours(json_t *o, const struct fair_figures *f, size_t i)
{
	json_object_set_new(o, "gpu_hours",
	    report_fair_real((double)f->gpu_ms[i] / 3.6e6));
	json_object_set_new(o, "received",
	    report_fair_real(f->received[i] / 3.6e6));
	json_object_set_new(o, "entitled",
	    report_fair_real(f->entitled[i] / 3.6e6));
	json_object_set_new(o, "ratio", report_fair_real(f->entitled[i] > 0 ?
	    f->received[i] / f->entitled[i] : NAN));
}

json_t *
report_fair_json(const struct report_fair *rf, const struct fair_figures *f)
{
	struct report_fair_key	*users;
	json_t			*o, *list, *row;
	size_t			*accounts, i, n, p;

	o = json_pack("{s:I, s:I, s:I}", "window",
	    (json_int_t)(FAIR_WINDOW_MS / 1000), "windows",
	    (json_int_t)f->windows, "windows_counted",
	    (json_int_t)f->windows_counted);
	json_object_set_new(o, "jain", report_fair_real(f->jain));
	json_object_set_new(o, "min_window_share",
	    report_fair_real(f->min_share));
	list = json_array();
	users = report_fair_users(rf, &n);
	for (i = 0; i < n; i++) {
		row = json_pack("{s:o, s:o, s:I}", "user",
		    report_fair_str(users[i].user), "account",
		    report_fair_str(users[i].account), "shares",
		    (json_int_t)fair_tree_shares(rf->tree, users[i].i));
		report_fair_hours(row, f, users[i].i);
		json_array_append_new(list, row);
	}
	free(users);
	json_object_set_new(o, "users", list);
	list = json_array();
	accounts = report_fair_accounts(rf, &n);
	for (i = 0; i < n; i++) {
		p = fair_tree_parent(rf->tree, accounts[i]);
		row = json_pack("{s:o, s:o, s:I}", "account",
		    report_fair_str(fair_tree_name(rf->tree, accounts[i])),
		    "parent", report_fair_str(p != FAIR_TREE_ROOT ?
		    fair_tree_name(rf->tree, p) : NULL), "shares",
		    (json_int_t)fair_tree_shares(rf->tree, accounts[i]));
		report_fair_hours(row, f, accounts[i]);
		json_array_append_new(list, row);
	}
	free(accounts);
	json_object_set_new(o, "accounts", list);
	return (o);
}
