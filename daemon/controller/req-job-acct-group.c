/* req-job-acct-group.c: the rows of JOB_ACCT's reports by account,
 * partition and QOS (gacct --report accounts, partitions, qos;
 * req-job-acct.h). The report's rows come keyed by account, partition or
 * QOS (store-acct.h); here each becomes a row, with one more for each
 * account of the table, each partition and each QOS of the settings that
 * had no job, so that a budget shows before it is used. An account's row
 * also carries its month's budget and its use of it (assoc-usage.h): the
 * month's, now, whatever the range, and the account's with those below
 * it, as the budget counts. Rows by account and QOS give their runs'
 * GPU-seconds as run and charged (each run's QOS's usage factor
 * applied, the factors of the settings at the request). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/job-req.h"
#include "common/xmalloc.h"
#include "daemon/controller/acct-report.h"
#include "daemon/controller/assoc-tab.h"
#include "daemon/controller/assoc-usage.h"
#include "daemon/controller/budget.h"
#include "daemon/controller/conf.h"
#include "daemon/controller/core.h"
#include "daemon/controller/ctx.h"
#include "daemon/controller/part.h"
#include "daemon/controller/qos.h"
#include "daemon/controller/req-job-acct.h"

/* Whether name is one of only's (NULL: all are). */
static bool
req_job_acct_group_wanted(const json_t *only, const char *name)
{
	size_t	i;

	if (only == NULL)
		return (true);
	for (i = 0; i < json_array_size(only); i++) {
		if (strcmp(json_string_value(json_array_get(only, i)),
		    name) == 0)
			return (true);
	}
	return (false);
}

/* A row keyed key of the report's figures u (zero for none); with
 * charged, the GPU-seconds charged too. */
static json_t *
req_job_acct_group_row(const char *key, const char *name,
    const struct acct_report_user *u, uint64_t cluster_gpu_s, bool charged)
{
	json_t	*o = json_pack("{s:s}", key, name);

	req_job_acct_report_jobs(o, u->jobs, u->by_state, &u->jct, &u->wait,
	    u->preemptions, false);
	json_object_set_new(o, "gpu_seconds", json_integer(
	    (json_int_t)u->gpu_s));
	if (charged)
		json_object_set_new(o, "gpu_seconds_charged", json_real(
		    budget_charged_seconds(u->charged)));
	json_object_set_new(o, "share", req_job_acct_report_pct(u->gpu_s,
	    cluster_gpu_s));
	return (o);
}

static int
req_job_acct_group_cmp(const void *a, const void *b)
{
	return (strcmp(*(const char *const *)a, *(const char *const *)b));
}

/* Calls emit for each name of the report's rows and of names (sorted),
 * in order, once each, with its figures (zero when the report has none):
 * the union of two sorted lists. */
typedef void	(*req_job_acct_group_fn)(const char *name,
		    const struct acct_report_user *u, void *arg);
static void
req_job_acct_group_union(const struct acct_report *r, const char **names,
    size_t nnames, req_job_acct_group_fn emit, void *arg)
{
	static const struct acct_report_user	 zero;
	const struct acct_report_user		*u;
	size_t					 nu, i = 0, k = 0;
	int					 c;

	nu = acct_report_users(r, &u);
	while (i < nu || k < nnames) {
		if (i == nu)
			c = 1;
		else if (k == nnames)
			c = -1;
		else
			c = strcmp(u[i].user, names[k]);
		if (c <= 0) {
			emit(u[i].user, &u[i], arg);
			i++;
			k += c == 0;
		} else
			emit(names[k++], &zero, arg);
	}
}

struct req_job_acct_group {
	const json_t			*only;
	json_t				*rows;
	uint64_t			 cluster_gpu_s;
	const struct assoc_tab		*tab;
	const struct assoc_usage_sum	*sums;
	const struct qoses		*qos;
	int64_t				 now;
};

static void
req_job_acct_group_account(const char *name, const struct acct_report_user *u,
    void *arg)
{
	struct req_job_acct_group	*g = arg;
	const struct assoc_account	*a;
	const struct assoc_usage_sum	*sum;
	json_t				*o;
	uint64_t			 charged;

	if (!req_job_acct_group_wanted(g->only, name))
		return;
	o = req_job_acct_group_row("account", name, u, g->cluster_gpu_s,
	    true);
	a = assoc_tab_account(g->tab, name);
	json_object_set_new(o, "parent", a != NULL ? json_string(a->parent) :
	    json_null());
	/* Accounts outside the table (controller.enforce_accounts off)
	 * have no budget, and their use is no budget's. */
	if (a == NULL) {
		json_object_set_new(o, "budget_seconds", json_null());
		json_object_set_new(o, "used_seconds", json_null());
		json_object_set_new(o, "used_seconds_charged", json_null());
		json_object_set_new(o, "used_pct", json_null());
		json_object_set_new(o, "spent", json_false());
	} else {
		/* The budget counts the charged use. */
		sum = &g->sums[a - g->tab->acc];
		charged = assoc_usage_charged(sum, g->now);
		json_object_set_new(o, "budget_seconds", a->budget > 0 ?
		    json_integer((json_int_t)a->budget) : json_null());
		json_object_set_new(o, "used_seconds", json_integer(
		    (json_int_t)(budget_used(&sum->use, g->now) /
		    BUDGET_MILLI)));
		json_object_set_new(o, "used_seconds_charged", json_real(
		    budget_charged_seconds(charged)));
		json_object_set_new(o, "used_pct", req_job_acct_report_pct(
		    charged, a->budget * BUDGET_MILLI));
		json_object_set_new(o, "spent", json_boolean(
		    assoc_usage_is_spent(sum, a->budget, g->now)));
	}
	json_array_append_new(g->rows, o);
}

void
req_job_acct_group_accounts(const struct acct_report *r, const json_t *only,
    int64_t now, json_t *rows)
{
	struct req_job_acct_group	 g;
	struct assoc_usage_sum		*sums;
	const char			**names;
	size_t				 i;

	memset(&g, 0, sizeof g);
	g.only = only;
	g.rows = rows;
	g.cluster_gpu_s = acct_report_cluster(r)->gpu_s;
	g.tab = core_assoc();
	g.now = now;
	sums = xcalloc(g.tab->nacc + 1, sizeof *sums);
	assoc_usage_tree(core_usage(), g.tab, now, sums);
	g.sums = sums;
	/* The table is sorted by name already. */
	names = xcalloc(g.tab->nacc + 1, sizeof *names);
	for (i = 0; i < g.tab->nacc; i++)
		names[i] = g.tab->acc[i].name;
	req_job_acct_group_union(r, names, g.tab->nacc,
	    req_job_acct_group_account, &g);
	free(names);
	free(sums);
}

static void
req_job_acct_group_partition(const char *name,
    const struct acct_report_user *u, void *arg)
{
	struct req_job_acct_group	*g = arg;

	if (req_job_acct_group_wanted(g->only, name))
		json_array_append_new(g->rows, req_job_acct_group_row(
		    "partition", name, u, g->cluster_gpu_s, false));
}

void
req_job_acct_group_partitions(const struct acct_report *r,
    const json_t *only, json_t *rows)
{
	const struct parts		*ps = &ctx_conf()->parts;
	struct req_job_acct_group	 g;
	const char			**names;
	size_t				 n, i;

	memset(&g, 0, sizeof g);
	g.only = only;
	g.rows = rows;
	g.cluster_gpu_s = acct_report_cluster(r)->gpu_s;
	/* The settings' partitions, or the one of a cluster without. */
	n = ps->n > 0 ? ps->n : 1;
	names = xcalloc(n, sizeof *names);
	for (i = 0; i < ps->n; i++)
		names[i] = ps->v[i].name;
	if (ps->n == 0)
		names[0] = JOB_REQ_PARTITION;
	qsort(names, n, sizeof *names, req_job_acct_group_cmp);
	req_job_acct_group_union(r, names, n, req_job_acct_group_partition,
	    &g);
	free(names);
}

static void
req_job_acct_group_qos_row(const char *name, const struct acct_report_user *u,
    void *arg)
{
	struct req_job_acct_group	*g = arg;
	json_t				*o;

	o = req_job_acct_group_row("qos", name, u, g->cluster_gpu_s, true);
	json_object_set_new(o, "usage_factor", json_real((double)qos_weight(
	    g->qos, name) / BUDGET_MILLI));
	json_array_append_new(g->rows, o);
}

void
req_job_acct_group_qos(const struct acct_report *r, const struct qoses *qs,
    json_t *rows)
{
	struct req_job_acct_group	 g;
	const char			**names;
	size_t				 n, i;

	memset(&g, 0, sizeof g);
	g.rows = rows;
	g.cluster_gpu_s = acct_report_cluster(r)->gpu_s;
	g.qos = qs;
	/* The settings' QOS, or the one of a cluster without. */
	n = qs->n > 0 ? qs->n : 1;
	names = xcalloc(n, sizeof *names);
	for (i = 0; i < qs->n; i++)
		names[i] = qs->v[i].name;
	if (qs->n == 0)
		names[0] = qos_default(qs)->name;
	qsort(names, n, sizeof *names, req_job_acct_group_cmp);
	req_job_acct_group_union(r, names, n, req_job_acct_group_qos_row, &g);
	free(names);
}

void
req_job_acct_group_month(json_t *reply, int64_t now)
{
	char	name[16];
	int64_t	month = assoc_usage_month(core_usage(), now);

	json_object_set_new(reply, "month", json_string(budget_month_name(
	    month, name, sizeof name)));
	json_object_set_new(reply, "month_start", json_integer(month));
}
