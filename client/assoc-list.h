/* assoc-list.h: ASSOC_LIST's reply (docs/protocol.md, 109) as the
 * commands read it: every account and every user's association, looked
 * up by name, and the account tree walked in Slurm's order (an account,
 * its users, then the accounts below it, each by name), which gctl
 * account show, sacctmgr and sshare print. Pure: the caller asks gbatchd
 * and hands the reply over; tested alone (tests/unit/assoc-list-test.c). */
#ifndef GB_ASSOC_LIST_H
#define GB_ASSOC_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* An account's or an association's limits; 0 is none. */
struct assoc_list_limits {
	uint64_t	 max_gpus;
	uint64_t	 max_jobs;
	uint64_t	 max_pending;
	uint64_t	 max_time;	/* seconds */
};

struct assoc_list_account {
	const char		*name;
	const char		*parent;	/* "": a top account */
	const char		*description;
	uint64_t		 shares;
	uint64_t		 budget_s;	/* a month's GPU-seconds; 0: none */
	struct assoc_list_limits lim;
	/* What it and the accounts below it used in the month (GPU-seconds,
	 * runs under way to now) and hold now. */
	uint64_t		 used_s;
	/* The same with each run's QOS usage factor applied: what the
	 * budget is judged against (spent: it reached budget_s). */
	double			 used_charged_s;
	bool			 spent;
	uint64_t		 running_jobs;
	uint64_t		 running_gpus;
};

struct assoc_list_user {
	const char		*user;
	const char		*account;
	bool			 is_default;
	struct assoc_list_limits lim;
};

/* One line of the tree: an account's own (user NULL) or one of its
 * users'. up is the index of the line above it in the tree (the parent
 * account's, or the account's for a user's line), ASSOC_LIST_TOP for a
 * top account's. */
#define ASSOC_LIST_TOP	((size_t)-1)
struct assoc_list_row {
	const struct assoc_list_account	*acct;
	const struct assoc_list_user	*user;
	size_t				 up;
	int				 depth;	/* 0: a top account */
};

/* Fair share's figures of an account (user NULL) or a user's
 * association, as gbatchd ranks them (policy/fairshare.h's rows); the
 * root's has account "". */
struct assoc_list_fs {
	const char			*account;
	const char			*user;
	uint64_t			 shares;
	double				 norm_shares;
	double				 raw_usage;	/* GPU-s, decayed */
	double				 norm_usage;
	double				 effective_usage;
	double				 level_fs;	/* INFINITY: no usage */
	double				 factor;
	uint64_t			 standing;
};

struct assoc_list {
	json_t				*reply;	/* owns the strings */
	const char			*month;	/* of used_s: "2024-03", UTC */
	struct assoc_list_account	*acc;	/* by name, as listed */
	size_t				 nacc;
	struct assoc_list_user		*usr;	/* by user, then account */
	size_t				 nusr;
	struct assoc_list_row		*rows;	/* the tree, in order */
	size_t				 nrows;
	/* Fair share's, in the controller's tree order; NULL while its
	 * scheduler.fairshare is off. */
	struct assoc_list_fs		*fs;
	size_t				 nfs;
};

/* Reads ASSOC_LIST's reply into l, which takes it over (the caller's
 * reference), and lays out the tree. An account whose parent is not
 * listed is taken as a top one, and a user's association with an account
 * not listed is left out of the tree (not out of usr), so that a reply
 * never makes a walk loop. Returns 0, or -1 with err when the reply holds
 * no lists; l is then empty. */
int	assoc_list_read(struct assoc_list *l, json_t *reply, char *err,
	    size_t errlen);
/* Frees what l holds; assoc_list_free of a zeroed l does nothing. */
void	assoc_list_free(struct assoc_list *l);

/* Lookups, borrowed from l; NULL when there is none. */
const struct assoc_list_account *assoc_list_account(
	    const struct assoc_list *l, const char *name);
const struct assoc_list_user *assoc_list_user(const struct assoc_list *l,
	    const char *user, const char *account);
/* Fair share's line of account's (user NULL) or user's under account. */
const struct assoc_list_fs *assoc_list_fairshare(const struct assoc_list *l,
	    const char *account, const char *user);
/* user's default account's name, or NULL when user has no account. */
const char *assoc_list_default(const struct assoc_list *l,
	    const char *user);

/* A budget of secs GPU-seconds in GPU-hours, as gctl writes them: a
 * whole number, or up to 6 decimals without trailing zeros ("0.25",
 * "0.001111"). Into buf; returns buf. */
char	*assoc_list_hours(uint64_t secs, char *buf, size_t len);

/* a's shares over the sum of its siblings' (those of its parent, or the
 * top accounts), a's own included: Slurm's NormShares under fair tree. */
double	assoc_list_norm_shares(const struct assoc_list *l,
	    const struct assoc_list_account *a);

/* How far each line of the tree shown is indented when only some are
 * shown (shown[i], for l->rows[i]), as Slurm's sshare and sacctmgr's tree
 * indent them: one space more than the line above it when that one is
 * shown, none when it is not; a top account's line one space when
 * top_shown (the root's line above it, which sshare prints), else none.
 * Writes indent[i] for each line. */
void	assoc_list_indent(const struct assoc_list *l, const bool *shown,
	    bool top_shown, int *indent);

#endif
