/* store-assoc.h: accounts and account_users (schema 18), sacctmgr's
 * associations: their rows, which assoc-tab.h keeps in memory, and
 * reading and writing them (store-assoc.c); and what each account used
 * of its budget in a month, from job_runs (schemas 21 and 22), read at
 * start. Writes go into the group
 * transaction as every other (store.h); each returns 0, or -1 after
 * logging what failed. */
#ifndef GB_CTL_STORE_ASSOC_H
#define GB_CTL_STORE_ASSOC_H

#include <stdbool.h>
#include <stdint.h>

/* Limits of an account or of a user's association; 0 is none. */
struct assoc_limits {
	uint32_t	 max_gpus;
	uint32_t	 max_jobs;
	uint32_t	 max_pending;	/* waiting jobs: pending or held */
	uint64_t	 max_time;	/* seconds */
};

struct assoc_account {
	char			*name;
	char			*parent;	/* "": a root */
	uint32_t		 shares;
	char			*description;
	struct assoc_limits	 lim;
	/* A month's budget of GPU-seconds, 0 for none: given and shown in
	 * GPU-hours, kept to the GPU-second (budget.h). */
	uint64_t		 budget;
};

struct assoc_user {
	char			*user;
	char			*account;
	bool			 is_default;
	struct assoc_limits	 lim;
};

typedef void	(*store_assoc_account_cb)(const struct assoc_account *,
		    void *);
typedef void	(*store_assoc_user_cb)(const struct assoc_user *, void *);

/* Calls acb for every account (by name), then ucb for every user's
 * association (by user, then account); strings are borrowed for the
 * call. Returns 0, or -1 after logging. */
int	store_assoc_load(store_assoc_account_cb acb, store_assoc_user_cb ucb,
	    void *arg);
/* Inserts a, or replaces the account of its name. */
int	store_assoc_account_save(const struct assoc_account *a);
int	store_assoc_account_delete(const char *name);
/* Inserts u, or replaces the association of its user and account. */
int	store_assoc_user_save(const struct assoc_user *u);
/* Deletes user's association with account, or all of user's (NULL). */
int	store_assoc_user_delete(const char *user, const char *account);

/* The thousandths of GPU-seconds of the runs that ended since month
 * (seconds since the epoch, a month's start; a run of shards its share,
 * alloc-text.h), by the account they were charged to and the
 * QOS they ran in: cb for each pair that used some (the names borrowed
 * for the call), counting a run that began before month from month on.
 * Returns 0, or -1 after logging. */
typedef void	(*store_assoc_used_cb)(const char *account, const char *qos,
		    uint64_t milli_s, void *);
int	store_assoc_month(int64_t month, store_assoc_used_cb cb, void *arg);

/* The runs that ended at since (seconds since the epoch) or later, the
 * earliest end first: cb with each one's user, account and QOS (borrowed
 * for the call), thousandths of GPU-seconds run (a run of shards its
 * share, alloc-text.h) and end. Fair share's usage, read
 * again at start. Returns 0, or -1 after logging. */
typedef void	(*store_assoc_run_cb)(const char *user, const char *account,
		    const char *qos, uint64_t milli_s, int64_t end, void *);
int	store_assoc_runs(int64_t since, store_assoc_run_cb cb, void *arg);

#endif
