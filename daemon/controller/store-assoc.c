/* store-assoc.c: accounts and account_users (store-assoc.h). They are
 * read once at start and written when an operator changes them, a few
 * times a day: each statement is prepared when it runs, not kept with
 * the job statements store_open prepares for the hot paths. */
#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "common/alloc-text.h"
#include "common/log.h"
#include "daemon/controller/budget.h"
#include "daemon/controller/store-assoc.h"
#include "daemon/controller/store-int.h"

/* The limit columns, in the order the SELECTs below read them and the
 * binds name them. */
#define STORE_ASSOC_LIMITS	"max_gpus, max_jobs, max_pending, max_time"

/* The budget column's GPU-hours (a whole number, or a fraction since
 * budgets may be) as GPU-seconds, rounded to the nearest. */
static uint64_t
store_assoc_budget(double hours)
{
	return (hours > 0 ? (uint64_t)(hours * 3600 + 0.5) : 0);
}

/* Prepares sql on the write connection: NULL after logging. */
static sqlite3_stmt *
store_assoc_prepare(const char *sql)
{
	sqlite3_stmt	*st;

	if (sqlite3_prepare_v2(store_handle(), sql, -1, &st, NULL) !=
	    SQLITE_OK) {
		log_error("store: preparing \"%s\": %s", sql,
		    sqlite3_errmsg(store_handle()));
		return (NULL);
	}
	return (st);
}

/* Runs st (no rows) in the group transaction and finalizes it. */
static int
store_assoc_run(sqlite3_stmt *st, const char *what)
{
	int	rc;

	rc = store_step_done(st, what);
	sqlite3_finalize(st);
	return (rc);
}

static void
store_assoc_bind_limits(sqlite3_stmt *st, const struct assoc_limits *l)
{
	sqlite3_bind_int64(st, store_param(st, ":max_gpus"), l->max_gpus);
	sqlite3_bind_int64(st, store_param(st, ":max_jobs"), l->max_jobs);
	sqlite3_bind_int64(st, store_param(st, ":max_pending"),
	    l->max_pending);
	sqlite3_bind_int64(st, store_param(st, ":max_time"),
	    (sqlite3_int64)l->max_time);
}

/* The limits at column i on of st's row. */
static void
store_assoc_read_limits(sqlite3_stmt *st, int i, struct assoc_limits *l)
{
	l->max_gpus = (uint32_t)sqlite3_column_int64(st, i);
	l->max_jobs = (uint32_t)sqlite3_column_int64(st, i + 1);
	l->max_pending = (uint32_t)sqlite3_column_int64(st, i + 2);
	l->max_time = (uint64_t)sqlite3_column_int64(st, i + 3);
}

int
store_assoc_load(store_assoc_account_cb acb, store_assoc_user_cb ucb,
    void *arg)
{
	struct assoc_account	 a;
	struct assoc_user	 u;
	sqlite3_stmt		*st;
	int			 rc;

	if ((st = store_assoc_prepare("SELECT name, parent, shares,"
	    " description, gpu_hours, " STORE_ASSOC_LIMITS " FROM accounts"
	    " ORDER BY name")) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		a.name = (char *)store_column_text(st, 0);
		a.parent = (char *)store_column_text(st, 1);
		a.shares = (uint32_t)sqlite3_column_int64(st, 2);
		a.description = (char *)store_column_text(st, 3);
		a.budget = store_assoc_budget(sqlite3_column_double(st, 4));
		store_assoc_read_limits(st, 5, &a.lim);
		acb(&a, arg);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto fail;
	if ((st = store_assoc_prepare("SELECT user, account, is_default, "
	    STORE_ASSOC_LIMITS " FROM account_users ORDER BY user,"
	    " account")) == NULL)
		return (-1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		u.user = (char *)store_column_text(st, 0);
		u.account = (char *)store_column_text(st, 1);
		u.is_default = sqlite3_column_int(st, 2) != 0;
		store_assoc_read_limits(st, 3, &u.lim);
		ucb(&u, arg);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto fail;
	return (0);
fail:
	log_error("store: reading accounts: %s",
	    sqlite3_errmsg(store_handle()));
	return (-1);
}

int
store_assoc_account_save(const struct assoc_account *a)
{
	sqlite3_stmt	*st;

	if (store_begin() != 0 || (st = store_assoc_prepare("INSERT OR"
	    " REPLACE INTO accounts (name, parent, shares, description,"
	    " gpu_hours, " STORE_ASSOC_LIMITS ") VALUES (:name, :parent,"
	    " :shares, :description, :gpu_hours, :max_gpus, :max_jobs,"
	    " :max_pending, :max_time)")) == NULL)
		return (-1);
	store_bind_text(st, store_param(st, ":name"), a->name);
	store_bind_text(st, store_param(st, ":parent"), a->parent);
	sqlite3_bind_int64(st, store_param(st, ":shares"), a->shares);
	store_bind_text(st, store_param(st, ":description"), a->description);
	/* GPU-hours as a REAL: a whole number stays an INTEGER in the
	 * column (its affinity), as before budgets could be fractional. */
	sqlite3_bind_double(st, store_param(st, ":gpu_hours"),
	    budget_hours(a->budget));
	store_assoc_bind_limits(st, &a->lim);
	return (store_assoc_run(st, "save account"));
}

int
store_assoc_account_delete(const char *name)
{
	sqlite3_stmt	*st;

	if (store_begin() != 0 || (st = store_assoc_prepare("DELETE FROM"
	    " accounts WHERE name = :name")) == NULL)
		return (-1);
	store_bind_text(st, store_param(st, ":name"), name);
	return (store_assoc_run(st, "delete account"));
}

int
store_assoc_user_save(const struct assoc_user *u)
{
	sqlite3_stmt	*st;

	if (store_begin() != 0 || (st = store_assoc_prepare("INSERT OR"
	    " REPLACE INTO account_users (user, account, is_default, "
	    STORE_ASSOC_LIMITS ") VALUES (:user, :account, :is_default,"
	    " :max_gpus, :max_jobs, :max_pending, :max_time)")) == NULL)
		return (-1);
	store_bind_text(st, store_param(st, ":user"), u->user);
	store_bind_text(st, store_param(st, ":account"), u->account);
	sqlite3_bind_int(st, store_param(st, ":is_default"), u->is_default);
	store_assoc_bind_limits(st, &u->lim);
	return (store_assoc_run(st, "save account user"));
}

int
store_assoc_user_delete(const char *user, const char *account)
{
	sqlite3_stmt	*st;

	if (store_begin() != 0 || (st = store_assoc_prepare("DELETE FROM"
	    " account_users WHERE user = :user AND (:account IS NULL OR"
	    " account = :account)")) == NULL)
		return (-1);
	store_bind_text(st, store_param(st, ":user"), user);
	store_bind_text(st, store_param(st, ":account"), account);
	return (store_assoc_run(st, "delete account user"));
}

int
store_assoc_runs(int64_t since, store_assoc_run_cb cb, void *arg)
{
	sqlite3_stmt	*st;
	uint64_t	 milli_s;
	int		 rc;

	/* job_runs_end answers the range; a run still open has no end.
	 * A run of shards is charged its share (its alloc says it). */
	if ((st = store_assoc_prepare("SELECT user, account, qos, gpus,"
	    " end_time - start_time, end_time, alloc FROM job_runs WHERE"
	    " end_time >= :since ORDER BY end_time")) == NULL)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":since"), since);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_int64(st, 4) <= 0)
			continue;
		if ((milli_s = alloc_text_milli_s(store_column_text(st, 6),
		    (uint32_t)sqlite3_column_int64(st, 3),
		    (uint64_t)sqlite3_column_int64(st, 4))) > 0)
			cb(store_column_text(st, 0), store_column_text(st, 1),
			    store_column_text(st, 2), milli_s,
			    sqlite3_column_int64(st, 5), arg);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		log_error("store: reading the runs fair share counts: %s",
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	return (0);
}

/* The month's runs of shards (an alloc with a '*', alloc-text.h), each
 * charged its share: few, and read row by row. */
static int
store_assoc_month_shards(int64_t month, store_assoc_used_cb cb, void *arg)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((st = store_assoc_prepare("SELECT account, qos, gpus,"
	    " end_time - MAX(start_time, :month), alloc FROM job_runs WHERE"
	    " end_time > :month AND account != '' AND alloc GLOB '*[*]*'")) ==
	    NULL)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":month"), month);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_int64(st, 3) > 0)
			cb(store_column_text(st, 0), store_column_text(st, 1),
			    alloc_text_milli_s(store_column_text(st, 4),
			    (uint32_t)sqlite3_column_int64(st, 2),
			    (uint64_t)sqlite3_column_int64(st, 3)), arg);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		log_error("store: reading the month's use of shards: %s",
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	return (0);
}

int
store_assoc_month(int64_t month, store_assoc_used_cb cb, void *arg)
{
	sqlite3_stmt	*st;
	int		 rc;

	/* Runs ended since the month began (job_runs_end), each counted
	 * from the month's start or its own, whichever is later, in
	 * thousandths; those of no account are no budget's. Runs of shards
	 * are summed apart. */
	if (store_assoc_month_shards(month, cb, arg) != 0 ||
	    (st = store_assoc_prepare("SELECT account, qos, SUM(gpus * 1000 *"
	    " (end_time - MAX(start_time, :month))) FROM job_runs WHERE"
	    " end_time > :month AND account != '' AND alloc NOT GLOB"
	    " '*[*]*' GROUP BY account, qos")) == NULL)
		return (-1);
	sqlite3_bind_int64(st, store_param(st, ":month"), month);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_int64(st, 2) > 0)
			cb(store_column_text(st, 0), store_column_text(st, 1),
			    (uint64_t)sqlite3_column_int64(st, 2), arg);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		log_error("store: reading the month's use of the accounts: %s",
		    sqlite3_errmsg(store_handle()));
		return (-1);
	}
	return (0);
}
