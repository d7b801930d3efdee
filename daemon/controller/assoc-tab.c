/* assoc-tab.c: accounts and users in memory, and their rules
 * (assoc-tab.h). A cluster has tens or hundreds of accounts and a few
 * users each, changed by hand: sorted arrays are plenty and keep the
 * listings in order for free; accounts are found by halving. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "common/label.h"
#include "common/xmalloc.h"
#include "daemon/controller/assoc-tab.h"

static void
assoc_tab_account_clear(struct assoc_account *a)
{
	free(a->name);
	free(a->parent);
	free(a->description);
}

static void
assoc_tab_user_clear(struct assoc_user *u)
{
	free(u->user);
	free(u->account);
}

void
assoc_tab_free(struct assoc_tab *t)
{
	size_t	i;

	for (i = 0; i < t->nacc; i++)
		assoc_tab_account_clear(&t->acc[i]);
	for (i = 0; i < t->nusr; i++)
		assoc_tab_user_clear(&t->usr[i]);
	free(t->acc);
	free(t->usr);
	memset(t, 0, sizeof *t);
}

const struct assoc_account *
assoc_tab_account(const struct assoc_tab *t, const char *name)
{
	size_t	lo = 0, hi = t->nacc, mid;
	int	c;

	/* Sorted by name (assoc_tab_account_put): a budget's judgment
	 * walks each account's parents at every pass (assoc-usage.h). */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(t->acc[mid].name, name)) == 0)
			return (&t->acc[mid]);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (NULL);
}

const struct assoc_user *
assoc_tab_user(const struct assoc_tab *t, const char *user,
    const char *account)
{
	size_t	i;

	for (i = 0; i < t->nusr; i++) {
		if (strcmp(t->usr[i].user, user) == 0 &&
		    strcmp(t->usr[i].account, account) == 0)
			return (&t->usr[i]);
	}
	return (NULL);
}

const char *
assoc_tab_default(const struct assoc_tab *t, const char *user)
{
	size_t	i;

	for (i = 0; i < t->nusr; i++) {
		if (strcmp(t->usr[i].user, user) == 0 && t->usr[i].is_default)
			return (t->usr[i].account);
	}
	return (NULL);
}

bool
assoc_tab_is_within(const struct assoc_tab *t, const char *account,
    const char *top)
{
	const struct assoc_account	*a;
	size_t				 hops;

	/* The tree has no cycle (assoc_tab_account_check), but a bound
	 * costs nothing against a database edited by hand. */
	for (hops = 0; hops <= t->nacc && *account != '\0'; hops++) {
		if (strcmp(account, top) == 0)
			return (true);
		if ((a = assoc_tab_account(t, account)) == NULL)
			return (false);
		account = a->parent;
	}
	return (false);
}

size_t
assoc_tab_children(const struct assoc_tab *t, const char *parent)
{
	size_t	i, n = 0;

	for (i = 0; i < t->nacc; i++)
		n += strcmp(t->acc[i].parent, parent) == 0;
	return (n);
}

size_t
assoc_tab_users_of(const struct assoc_tab *t, const char *account)
{
	size_t	i, n = 0;

	for (i = 0; i < t->nusr; i++)
		n += strcmp(t->usr[i].account, account) == 0;
	return (n);
}

int
assoc_tab_account_check(const struct assoc_tab *t,
    const struct assoc_account *a, char *err, size_t errlen)
{
	if (!label_ok(a->name)) {
		snprintf(err, errlen, "account name: expected 1 to %d letters, "
		    "digits, '.', '-' or '_', got \"%s\"", LABEL_MAX, a->name);
		return (-1);
	}
	if (*a->parent != '\0') {
		if (assoc_tab_account(t, a->parent) == NULL) {
			snprintf(err, errlen, "parent: no account %s; add it "
			    "first", a->parent);
			return (-1);
		}
		/* The parent below the account would close a loop. */
		if (assoc_tab_is_within(t, a->parent, a->name)) {
			snprintf(err, errlen, "parent: %s is %s or below it; "
			    "expected an account outside %s's subtree",
			    a->parent, a->name, a->name);
			return (-1);
		}
	}
	if (a->shares == 0) {
		snprintf(err, errlen, "shares: expected 1 or more");
		return (-1);
	}
	if (strlen(a->description) > ASSOC_DESCRIPTION_MAX) {
		snprintf(err, errlen, "description: longer than %d bytes",
		    ASSOC_DESCRIPTION_MAX);
		return (-1);
	}
	return (0);
}

void
assoc_tab_account_put(struct assoc_tab *t, const struct assoc_account *a)
{
	struct assoc_account	 copy;
	size_t			 i;

	copy = *a;
	copy.name = xstrdup(a->name);
	copy.parent = xstrdup(a->parent);
	copy.description = xstrdup(a->description);
	for (i = 0; i < t->nacc; i++) {
		if (strcmp(t->acc[i].name, a->name) == 0) {
			assoc_tab_account_clear(&t->acc[i]);
			t->acc[i] = copy;
			return;
		}
		if (strcmp(t->acc[i].name, a->name) > 0)
			break;
	}
	t->acc = xreallocarray(t->acc, t->nacc + 1, sizeof *t->acc);
	memmove(&t->acc[i + 1], &t->acc[i], (t->nacc - i) * sizeof *t->acc);
	t->acc[i] = copy;
	t->nacc++;
}

/* Appends the names (of accounts below parent, or of users of account)
 * to buf, ", " between, "..." past a few. */
static void
assoc_tab_names(const struct assoc_tab *t, const char *parent,
    const char *account, char *buf, size_t len)
{
	const char	*name;
	size_t		 i, n = 0, all;
	int		 used;

	*buf = '\0';
	all = parent != NULL ? t->nacc : t->nusr;
	for (i = 0; i < all; i++) {
		if (parent != NULL) {
			if (strcmp(t->acc[i].parent, parent) != 0)
				continue;
			name = t->acc[i].name;
		} else {
			if (strcmp(t->usr[i].account, account) != 0)
				continue;
			name = t->usr[i].user;
		}
		if (n++ == 5) {
			strncat(buf, ", ...", len - strlen(buf) - 1);
			break;
		}
		used = (int)strlen(buf);
		snprintf(buf + used, len - (size_t)used, "%s%s", n > 1 ? ", " :
		    "", name);
	}
}

int
assoc_tab_account_can_delete(const struct assoc_tab *t, const char *name,
    char *err, size_t errlen)
{
	char	names[400];
	size_t	n;

	if (assoc_tab_account(t, name) == NULL) {
		snprintf(err, errlen, "no account %s", name);
		return (-1);
	}
	if ((n = assoc_tab_children(t, name)) > 0) {
		assoc_tab_names(t, name, NULL, names, sizeof names);
		snprintf(err, errlen, "account %s has %zu account%s below it "
		    "(%s); delete or move them first", name, n, n == 1 ? "" :
		    "s", names);
		return (-1);
	}
	if ((n = assoc_tab_users_of(t, name)) > 0) {
		assoc_tab_names(t, NULL, name, names, sizeof names);
		snprintf(err, errlen, "account %s has %zu user%s (%s); delete "
		    "them from it first", name, n, n == 1 ? "" : "s", names);
		return (-1);
	}
	return (0);
}

void
assoc_tab_account_remove(struct assoc_tab *t, const char *name)
{
	size_t	i;

	for (i = 0; i < t->nacc; i++) {
		if (strcmp(t->acc[i].name, name) != 0)
			continue;
		assoc_tab_account_clear(&t->acc[i]);
		memmove(&t->acc[i], &t->acc[i + 1], (t->nacc - i - 1) *
		    sizeof *t->acc);
		t->nacc--;
		return;
	}
}

int
assoc_tab_user_check(const struct assoc_tab *t, const struct assoc_user *u,
    char *err, size_t errlen)
{
	if (!label_ok(u->user)) {
		snprintf(err, errlen, "user name: expected 1 to %d letters, "
		    "digits, '.', '-' or '_', got \"%s\"", LABEL_MAX, u->user);
		return (-1);
	}
	if (assoc_tab_account(t, u->account) == NULL) {
		snprintf(err, errlen, "account: no account %s; an operator "
		    "adds it with gctl account add %s", u->account,
		    u->account);
		return (-1);
	}
	return (0);
}

/* Orders associations by user, then account. */
static int
assoc_tab_user_cmp(const struct assoc_user *a, const char *user,
    const char *account)
{
	int	c;

	if ((c = strcmp(a->user, user)) != 0)
		return (c);
	return (strcmp(a->account, account));
}

void
assoc_tab_user_put(struct assoc_tab *t, const struct assoc_user *u)
{
	struct assoc_user	 copy;
	const char		*def;
	size_t			 i;
	int			 c = 1;

	def = assoc_tab_default(t, u->user);
	copy = *u;
	/* The first becomes the default; the default stays one until
	 * another takes it. */
	if (def == NULL || strcmp(def, u->account) == 0)
		copy.is_default = true;
	if (copy.is_default && def != NULL && strcmp(def, u->account) != 0) {
		for (i = 0; i < t->nusr; i++) {
			if (strcmp(t->usr[i].user, u->user) == 0)
				t->usr[i].is_default = false;
		}
	}
	for (i = 0; i < t->nusr; i++) {
		if ((c = assoc_tab_user_cmp(&t->usr[i], u->user,
		    u->account)) >= 0)
			break;
	}
	if (i < t->nusr && c == 0) {
		t->usr[i].is_default = copy.is_default;
		t->usr[i].lim = copy.lim;
		return;
	}
	copy.user = xstrdup(u->user);
	copy.account = xstrdup(u->account);
	t->usr = xreallocarray(t->usr, t->nusr + 1, sizeof *t->usr);
	memmove(&t->usr[i + 1], &t->usr[i], (t->nusr - i) * sizeof *t->usr);
	t->usr[i] = copy;
	t->nusr++;
}

size_t
assoc_tab_user_remove(struct assoc_tab *t, const char *user,
    const char *account)
{
	size_t	i = 0, n = 0;
	bool	lost = false;

	while (i < t->nusr) {
		if (strcmp(t->usr[i].user, user) != 0 || (account != NULL &&
		    strcmp(t->usr[i].account, account) != 0)) {
			i++;
			continue;
		}
		lost |= t->usr[i].is_default;
		assoc_tab_user_clear(&t->usr[i]);
		memmove(&t->usr[i], &t->usr[i + 1], (t->nusr - i - 1) *
		    sizeof *t->usr);
		t->nusr--;
		n++;
	}
	if (!lost)
		return (n);
	/* Sorted: the user's first left is the first by account name. */
	for (i = 0; i < t->nusr; i++) {
		if (strcmp(t->usr[i].user, user) == 0) {
			t->usr[i].is_default = true;
			break;
		}
	}
	return (n);
}

/* The accounts of user, ", " between, into buf. */
static void
assoc_tab_accounts_of(const struct assoc_tab *t, const char *user,
    char *buf, size_t len)
{
	size_t	i;
	int	used;

	*buf = '\0';
	for (i = 0; i < t->nusr; i++) {
		if (strcmp(t->usr[i].user, user) != 0)
			continue;
		used = (int)strlen(buf);
		if ((size_t)used + 1 >= len)
			break;
		snprintf(buf + used, len - (size_t)used, "%s%s", used > 0 ?
		    ", " : "", t->usr[i].account);
	}
}

int
assoc_tab_resolve(const struct assoc_tab *t, const char *user,
    const char *asked, bool enforce, const char **out, char *err,
    size_t errlen)
{
	const char	*def = assoc_tab_default(t, user);
	char		 names[400];

	if (asked == NULL)
		asked = "";
	*out = asked;
	if (*asked == '\0' && def != NULL)
		*out = def;
	if (!enforce)
		return (0);
	if (def == NULL) {
		snprintf(err, errlen, "%s has no account; an operator adds one "
		    "with gctl user add %s account=NAME", user, user);
		return (-1);
	}
	if (assoc_tab_user(t, user, *out) == NULL) {
		assoc_tab_accounts_of(t, user, names, sizeof names);
		snprintf(err, errlen, "account %s: %s is not one of its users; "
		    "%s's accounts: %s", *out, user, user, names);
		return (-1);
	}
	return (0);
}

/* Whether lim takes the job; who says whose limit it is ("user alice's
 * in account a", "account a's"). */
static int
assoc_tab_limits_take(const struct assoc_limits *lim, const char *who,
    uint64_t time_limit, uint32_t gpus, size_t waiting, char *err,
    size_t errlen)
{
	char	max[32], asked[32];

	/* More GPUs than it may ever hold at once: it would wait for ever. */
	if (lim->max_gpus > 0 && gpus > lim->max_gpus) {
		snprintf(err, errlen, "%u GPUs: above %s max_gpus, %u (the GPUs "
		    "its running jobs hold at once)", gpus, who,
		    lim->max_gpus);
		return (-1);
	}
	if (lim->max_time > 0 && (time_limit == 0 ||
	    time_limit > lim->max_time)) {
		duration_format(lim->max_time, max, sizeof max);
		if (time_limit == 0)
			snprintf(err, errlen, "time limit: none given, but %s "
			    "max_time is %s; ask for %s or less with -t", who,
			    max, max);
		else
			snprintf(err, errlen, "time limit %s: above %s "
			    "max_time, %s", duration_format(time_limit, asked,
			    sizeof asked), who, max);
		return (-1);
	}
	if (lim->max_pending > 0 && waiting >= lim->max_pending) {
		snprintf(err, errlen, "%zu jobs waiting to start (pending or "
		    "held): %s max_pending is %u; submit more once some have "
		    "started or were cancelled", waiting, who,
		    lim->max_pending);
		return (-1);
	}
	return (0);
}

int
assoc_tab_submit_check(const struct assoc_tab *t, const char *user,
    const char *account, uint64_t time_limit, uint32_t gpus,
    assoc_tab_waiting_fn waiting, void *arg, char *err, size_t errlen)
{
	const struct assoc_user		*u;
	const struct assoc_account	*a;
	char				 who[200];
	size_t				 hops, n;

	if ((u = assoc_tab_user(t, user, account)) != NULL) {
		n = u->lim.max_pending > 0 ? waiting(user, account, arg) : 0;
		snprintf(who, sizeof who, "user %s's in account %s", user,
		    account);
		if (assoc_tab_limits_take(&u->lim, who, time_limit, gpus, n,
		    err, errlen) != 0)
			return (-1);
	}
	for (hops = 0; hops <= t->nacc && *account != '\0'; hops++) {
		if ((a = assoc_tab_account(t, account)) == NULL)
			break;
		n = a->lim.max_pending > 0 ? waiting(NULL, account, arg) : 0;
		snprintf(who, sizeof who, "account %s's", account);
		if (assoc_tab_limits_take(&a->lim, who, time_limit, gpus, n,
		    err, errlen) != 0)
			return (-1);
		account = a->parent;
	}
	return (0);
}
