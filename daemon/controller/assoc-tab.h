/* assoc-tab.h: accounts and users (sacctmgr's associations) in memory,
 * and their rules: the account tree through parent, each user's
 * accounts with exactly one default, what may be deleted, what account
 * a submit is charged to and whether the limits take it. Pure: no
 * clock, no store, no job table (the caller counts waiting jobs); tested
 * alone (tests/unit/assoc-tab-test.c). assoc.c keeps the controller's
 * table in step with the store. */
#ifndef GB_CTL_ASSOC_TAB_H
#define GB_CTL_ASSOC_TAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/controller/store-assoc.h"

/* Both arrays sorted (accounts by name, users by user then account),
 * so listings come out in order. */
struct assoc_tab {
	struct assoc_account	*acc;
	size_t			 nacc;
	struct assoc_user	*usr;
	size_t			 nusr;
};

/* The most bytes of an account's description. */
#define ASSOC_DESCRIPTION_MAX	256

void	assoc_tab_free(struct assoc_tab *);

/* Lookups: borrowed until the table changes; NULL when none. */
const struct assoc_account *assoc_tab_account(const struct assoc_tab *,
	    const char *name);
const struct assoc_user *assoc_tab_user(const struct assoc_tab *,
	    const char *user, const char *account);
/* user's default account's name, or NULL when user has no account. */
const char *assoc_tab_default(const struct assoc_tab *, const char *user);
/* Whether account is under (or is) top in the tree. */
bool	assoc_tab_is_within(const struct assoc_tab *, const char *account,
	    const char *top);
/* How many accounts have parent as their parent, how many users
 * account has. */
size_t	assoc_tab_children(const struct assoc_tab *, const char *parent);
size_t	assoc_tab_users_of(const struct assoc_tab *, const char *account);

/* Whether a may go in the table, replacing the account of its name
 * when there is one: a valid name, a parent that exists and is not the
 * account itself or below it, at least one share, a short description.
 * Returns 0, or -1 with err saying what is wrong. */
int	assoc_tab_account_check(const struct assoc_tab *,
	    const struct assoc_account *a, char *err, size_t errlen);
/* Puts a copy of a (checked) in the table, replacing its namesake. */
void	assoc_tab_account_put(struct assoc_tab *,
	    const struct assoc_account *a);
/* Whether account name may be deleted: it exists, and no account
 * below it and no user of it holds it (err names them). 0 or -1. */
int	assoc_tab_account_can_delete(const struct assoc_tab *,
	    const char *name, char *err, size_t errlen);
void	assoc_tab_account_remove(struct assoc_tab *, const char *name);

/* Whether u may go in the table: a valid user name, an account that
 * exists. 0, or -1 with err. */
int	assoc_tab_user_check(const struct assoc_tab *,
	    const struct assoc_user *u, char *err, size_t errlen);
/* Puts a copy of u (checked) in the table, replacing its namesake. A
 * user's first association becomes the default whatever u says; one
 * that is made the default takes it from the user's others; the
 * default is never taken off without moving it (u->is_default false on
 * the default keeps it). */
void	assoc_tab_user_put(struct assoc_tab *, const struct assoc_user *u);
/* Removes user's association with account (NULL: all of user's).
 * When the default goes and others stay, the first of them by name
 * becomes the default. Returns how many went. */
size_t	assoc_tab_user_remove(struct assoc_tab *, const char *user,
	    const char *account);

/* What a submit of user's asking for account asked ("" or NULL: none)
 * is charged to. With enforce, a user with no association is refused,
 * and so is an account the user is not associated with (err names
 * theirs); without it, an account not asked is the user's default if
 * any, and whatever was asked is taken. *out is borrowed: asked, an
 * entry of the table, or "" for none. Returns 0, or -1 with err. */
int	assoc_tab_resolve(const struct assoc_tab *, const char *user,
	    const char *asked, bool enforce, const char **out, char *err,
	    size_t errlen);

/* How many jobs wait (pending or held) of user (NULL: anyone's) charged
 * to account or to an account below it (user given: to account
 * itself). */
typedef size_t	(*assoc_tab_waiting_fn)(const char *user,
		    const char *account, void *arg);

/* Whether user's job charged to account, with time_limit seconds (0:
 * none) and gpus GPUs, may be submitted: the user's association's
 * max_gpus (a job larger could never start), max_time and max_pending,
 * then each account's from account up the tree. The
 * account need not be in the table (then nothing limits it). Returns 0,
 * or -1 with err naming the limit. */
int	assoc_tab_submit_check(const struct assoc_tab *, const char *user,
	    const char *account, uint64_t time_limit, uint32_t gpus,
	    assoc_tab_waiting_fn waiting, void *arg, char *err, size_t errlen);

#endif
