/* assoc.c: the controller's accounts and users (assoc.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "daemon/controller/assoc-usage.h"
#include "daemon/controller/assoc.h"
#include "daemon/controller/job.h"
#include "daemon/controller/store-assoc.h"

static void
assoc_load_account(const struct assoc_account *a, void *arg)
{
	assoc_tab_account_put(arg, a);
}

static void
assoc_load_user(const struct assoc_user *u, void *arg)
{
	assoc_tab_user_put(arg, u);
}

int
assoc_load(struct assoc_tab *t)
{
	assoc_tab_free(t);
	if (store_assoc_load(assoc_load_account, assoc_load_user, t) != 0)
		return (-1);
	if (t->nacc > 0)
		log_info("accounts: %zu, with %zu users' associations",
		    t->nacc, t->nusr);
	return (0);
}

struct assoc_load {
	struct assoc_usage	*u;
	int64_t			 now;
};

static void
assoc_load_used(const char *account, const char *qos, uint64_t milli_s,
    void *arg)
{
	struct assoc_load	*l = arg;

	assoc_usage_add(l->u, account, qos, milli_s, l->now);
}

int
assoc_load_usage(struct assoc_usage *u, int64_t now)
{
	struct assoc_load	 l = { u, now };
	struct job		*j;
	int64_t			 from;

	if (store_assoc_month(assoc_usage_month(u, now), assoc_load_used,
	    &l) != 0)
		return (-1);
	/* The runs under way, open in the store: counted from their
	 * start (put off by the time they were suspended), as those that
	 * start from now on; a suspended one's up to its suspension. */
	for (j = job_table_first(); j != NULL; j = job_table_next(j)) {
		if (!job_state_on_node(job_state(j)))
			continue;
		/* A suspended one's, as it was when it was suspended. */
		from = job_run_from_ms(j, job_state(j) == JOB_SUSPENDED ?
		    job_service(j)->suspend_since : now * 1000) / 1000;
		assoc_usage_run_start(u, job_account(j), job_qos(j),
		    job_run_milli(j), from, now);
		if (job_state(j) == JOB_SUSPENDED)
			assoc_usage_run_end(u, job_account(j), job_qos(j),
			    job_run_milli(j), from,
			    job_service(j)->suspend_since / 1000);
	}
	return (0);
}

int
assoc_account_set(struct assoc_tab *t, const struct assoc_account *a,
    char *err, size_t errlen)
{
	if (assoc_tab_account_check(t, a, err, errlen) != 0)
		return (ASSOC_REFUSED);
	if (store_assoc_account_save(a) != 0)
		return (ASSOC_STORE_FAILED);
	assoc_tab_account_put(t, a);
	return (0);
}

int
assoc_account_delete(struct assoc_tab *t, const char *name, char *err,
    size_t errlen)
{
	if (assoc_tab_account_can_delete(t, name, err, errlen) != 0)
		return (ASSOC_REFUSED);
	if (store_assoc_account_delete(name) != 0)
		return (ASSOC_STORE_FAILED);
	assoc_tab_account_remove(t, name);
	return (0);
}

/* Writes every association of user's as the table has it: after a
 * change that may have moved its default. */
static int
assoc_save_user(const struct assoc_tab *t, const char *user)
{
	size_t	i;

	for (i = 0; i < t->nusr; i++) {
		if (strcmp(t->usr[i].user, user) == 0 &&
		    store_assoc_user_save(&t->usr[i]) != 0)
			return (ASSOC_STORE_FAILED);
	}
	return (0);
}

int
assoc_user_set(struct assoc_tab *t, const struct assoc_user *u, char *err,
    size_t errlen)
{
	if (assoc_tab_user_check(t, u, err, errlen) != 0)
		return (ASSOC_REFUSED);
	/* The table decides the default; the store is told after, and a
	 * failed write fails the commit, whose failure closes the peers
	 * that waited on it (commit.h). */
	assoc_tab_user_put(t, u);
	return (assoc_save_user(t, u->user));
}

int
assoc_user_delete(struct assoc_tab *t, const char *user,
    const char *account, size_t *n,
    char *err, size_t errlen)
{
	*n = 0;
	if ((account != NULL && assoc_tab_user(t, user, account) ==
	    NULL) || (account == NULL && assoc_tab_default(t, user) ==
	    NULL)) {
		if (account != NULL)
			snprintf(err, errlen, "user %s is not in account %s",
			    user, account);
		else
			snprintf(err, errlen, "user %s has no account", user);
		return (ASSOC_REFUSED);
	}
	if (store_assoc_user_delete(user, account) != 0)
		return (ASSOC_STORE_FAILED);
	*n = assoc_tab_user_remove(t, user, account);
	return (assoc_save_user(t, user));
}
