/* assoc-tab-test.c: accounts and users' rules (daemon/controller/
 * assoc-tab.c): the tree, the one default, deletes refused, what a
 * submit is charged to and the limits it meets. */
#include <string.h>

#include "daemon/controller/assoc-tab.h"
#include "tests/unit/tap.h"

static void
add_account(struct assoc_tab *t, const char *name, const char *parent)
{
	struct assoc_account	a;

	memset(&a, 0, sizeof a);
	a.name = (char *)name;
	a.parent = (char *)parent;
	a.description = (char *)"";
	a.shares = 1;
	assoc_tab_account_put(t, &a);
}

static void
add_user(struct assoc_tab *t, const char *user, const char *account,
    bool is_default)
{
	struct assoc_user	u;

	memset(&u, 0, sizeof u);
	u.user = (char *)user;
	u.account = (char *)account;
	u.is_default = is_default;
	assoc_tab_user_put(t, &u);
}

/* Waiting jobs, as the job table would count them: alice has 2 in
 * phys, bob 1 in chem; account-wide counts take the subtree. */
static size_t
waiting(const char *user, const char *account, void *arg)
{
	const struct assoc_tab	*t = arg;
	size_t			 n = 0;

	if (user != NULL)
		return (strcmp(user, "alice") == 0 &&
		    strcmp(account, "phys") == 0 ? 2 : 0);
	n += assoc_tab_is_within(t, "phys", account) ? 2 : 0;
	n += assoc_tab_is_within(t, "chem", account) ? 1 : 0;
	return (n);
}

static void
test_tree(void)
{
	struct assoc_tab	 t;
	struct assoc_account	 a;
	char			 err[512];

	memset(&t, 0, sizeof t);
	add_account(&t, "science", "");
	add_account(&t, "phys", "science");
	add_account(&t, "chem", "science");
	ok(t.nacc == 3 && strcmp(t.acc[0].name, "chem") == 0 &&
	    strcmp(t.acc[2].name, "science") == 0, "accounts kept by name");
	ok(assoc_tab_is_within(&t, "phys", "science") &&
	    assoc_tab_is_within(&t, "phys", "phys") &&
	    !assoc_tab_is_within(&t, "science", "phys"), "the tree");
	memset(&a, 0, sizeof a);
	a.name = "bio";
	a.parent = "nowhere";
	a.description = "";
	a.shares = 1;
	ok(assoc_tab_account_check(&t, &a, err, sizeof err) == -1 &&
	    strcmp(err, "parent: no account nowhere; add it first") == 0,
	    "a parent must exist: %s", err);
	a.name = "science";
	a.parent = "phys";
	ok(assoc_tab_account_check(&t, &a, err, sizeof err) == -1 &&
	    strstr(err, "phys is science or below it") != NULL,
	    "no loop: %s", err);
	a.name = "bad name";
	a.parent = "";
	ok(assoc_tab_account_check(&t, &a, err, sizeof err) == -1 &&
	    strstr(err, "account name: expected 1 to 64 letters") != NULL,
	    "a name is a label: %s", err);
	a.name = "bio";
	a.shares = 0;
	ok(assoc_tab_account_check(&t, &a, err, sizeof err) == -1 &&
	    strcmp(err, "shares: expected 1 or more") == 0, "shares >= 1");
	a.shares = 5;
	ok(assoc_tab_account_check(&t, &a, err, sizeof err) == 0,
	    "a root account is fine");
	ok(assoc_tab_account_can_delete(&t, "science", err, sizeof err) ==
	    -1 && strcmp(err, "account science has 2 accounts below it "
	    "(chem, phys); delete or move them first") == 0,
	    "a parent is not deleted: %s", err);
	add_user(&t, "alice", "chem", false);
	ok(assoc_tab_account_can_delete(&t, "chem", err, sizeof err) == -1 &&
	    strcmp(err, "account chem has 1 user (alice); delete them from "
	    "it first") == 0, "nor an account with users: %s", err);
	ok(assoc_tab_account_can_delete(&t, "phys", err, sizeof err) == 0,
	    "a leaf without users is");
	assoc_tab_account_remove(&t, "phys");
	ok(t.nacc == 2 && assoc_tab_account(&t, "phys") == NULL &&
	    assoc_tab_children(&t, "science") == 1, "and goes");
	ok(assoc_tab_account_can_delete(&t, "phys", err, sizeof err) == -1 &&
	    strcmp(err, "no account phys") == 0, "gone is not found");
	assoc_tab_free(&t);
}

static void
test_defaults(void)
{
	struct assoc_tab	 t;
	struct assoc_user	 u;
	char			 err[512];

	memset(&t, 0, sizeof t);
	add_account(&t, "a", "");
	add_account(&t, "b", "");
	add_account(&t, "c", "");
	memset(&u, 0, sizeof u);
	u.user = "alice";
	u.account = "zz";
	ok(assoc_tab_user_check(&t, &u, err, sizeof err) == -1 &&
	    strcmp(err, "account: no account zz; an operator adds it with "
	    "gctl account add zz") == 0, "the account must exist");
	ok(assoc_tab_default(&t, "alice") == NULL, "no account, no default");
	add_user(&t, "alice", "b", false);
	ok(strcmp(assoc_tab_default(&t, "alice"), "b") == 0,
	    "the first association becomes the default");
	add_user(&t, "alice", "a", false);
	ok(strcmp(assoc_tab_default(&t, "alice"), "b") == 0,
	    "a second does not take it");
	add_user(&t, "alice", "c", true);
	ok(strcmp(assoc_tab_default(&t, "alice"), "c") == 0 &&
	    !assoc_tab_user(&t, "alice", "b")->is_default,
	    "one made the default takes it from the others");
	add_user(&t, "alice", "c", false);
	ok(strcmp(assoc_tab_default(&t, "alice"), "c") == 0,
	    "the default stays until another takes it");
	ok(assoc_tab_user_remove(&t, "alice", "c") == 1 &&
	    strcmp(assoc_tab_default(&t, "alice"), "a") == 0,
	    "the default deleted, the first other by name takes it");
	add_user(&t, "bob", "a", false);
	ok(assoc_tab_user_remove(&t, "alice", NULL) == 2 &&
	    assoc_tab_default(&t, "alice") == NULL &&
	    strcmp(assoc_tab_default(&t, "bob"), "a") == 0,
	    "all of a user's go, another's stay");
	assoc_tab_free(&t);
}

static void
test_resolve(void)
{
	struct assoc_tab	 t;
	const char		*out;
	char			 err[512];

	memset(&t, 0, sizeof t);
	add_account(&t, "a", "");
	add_account(&t, "b", "");
	add_user(&t, "alice", "b", false);
	add_user(&t, "alice", "a", false);
	ok(assoc_tab_resolve(&t, "alice", NULL, false, &out, err,
	    sizeof err) == 0 && strcmp(out, "b") == 0,
	    "no -A: the default account");
	ok(assoc_tab_resolve(&t, "alice", "a", true, &out, err,
	    sizeof err) == 0 && strcmp(out, "a") == 0, "-A of one's own");
	ok(assoc_tab_resolve(&t, "bob", "", false, &out, err,
	    sizeof err) == 0 && strcmp(out, "") == 0,
	    "not enforced: no association, no account");
	ok(assoc_tab_resolve(&t, "bob", "x", false, &out, err,
	    sizeof err) == 0 && strcmp(out, "x") == 0,
	    "not enforced: any account");
	ok(assoc_tab_resolve(&t, "bob", NULL, true, &out, err,
	    sizeof err) == -1 && strcmp(err, "bob has no account; an "
	    "operator adds one with gctl user add bob account=NAME") == 0,
	    "enforced: a user without an association is refused");
	ok(assoc_tab_resolve(&t, "alice", "x", true, &out, err,
	    sizeof err) == -1 && strcmp(err, "account x: alice is not one of "
	    "its users; alice's accounts: a, b") == 0,
	    "enforced: another account is refused: %s", err);
	assoc_tab_free(&t);
}

static void
test_limits(void)
{
	struct assoc_tab	 t;
	struct assoc_account	 a;
	struct assoc_user	 u;
	char			 err[512];

	memset(&t, 0, sizeof t);
	memset(&a, 0, sizeof a);
	a.name = "science";
	a.parent = "";
	a.description = "";
	a.shares = 1;
	a.lim.max_time = 7200;
	assoc_tab_account_put(&t, &a);
	add_account(&t, "phys", "science");
	add_account(&t, "chem", "science");
	memset(&u, 0, sizeof u);
	u.user = "alice";
	u.account = "phys";
	u.lim.max_time = 3600;
	assoc_tab_user_put(&t, &u);
	ok(assoc_tab_submit_check(&t, "alice", "phys", 3600, 1, waiting, &t,
	    err, sizeof err) == 0, "at the limit: taken");
	ok(assoc_tab_submit_check(&t, "alice", "phys", 3601, 1, waiting, &t,
	    err, sizeof err) == -1 && strcmp(err, "time limit 1:00:01: "
	    "above user alice's in account phys max_time, 1:00:00") == 0,
	    "the association's max_time first: %s", err);
	ok(assoc_tab_submit_check(&t, "alice", "phys", 0, 1, waiting, &t,
	    err, sizeof err) == -1 && strcmp(err, "time limit: none given, "
	    "but user alice's in account phys max_time is 1:00:00; ask for "
	    "1:00:00 or less with -t") == 0, "no limit under a cap: %s", err);
	ok(assoc_tab_submit_check(&t, "bob", "chem", 7201, 1, waiting, &t,
	    err, sizeof err) == -1 && strcmp(err, "time limit 2:00:01: "
	    "above account science's max_time, 2:00:00") == 0,
	    "a parent's max_time: %s", err);
	ok(assoc_tab_submit_check(&t, "bob", "elsewhere", 0, 1, waiting, &t,
	    err, sizeof err) == 0, "an account not in the table: no limit");
	u.lim.max_time = 0;
	u.lim.max_pending = 2;
	assoc_tab_user_put(&t, &u);
	ok(assoc_tab_submit_check(&t, "alice", "phys", 60, 1, waiting, &t,
	    err, sizeof err) == -1 && strcmp(err, "2 jobs waiting to start "
	    "(pending or held): user alice's in account phys max_pending is "
	    "2; submit more once some have started or were cancelled") == 0,
	    "the association's max_pending: %s", err);
	u.lim.max_pending = 3;
	assoc_tab_user_put(&t, &u);
	ok(assoc_tab_submit_check(&t, "alice", "phys", 60, 1, waiting, &t,
	    err, sizeof err) == 0, "under it: taken");
	a.lim.max_pending = 3;
	assoc_tab_account_put(&t, &a);
	ok(assoc_tab_submit_check(&t, "bob", "chem", 60, 1, waiting, &t,
	    err, sizeof err) == -1 && strstr(err, "3 jobs waiting to start "
	    "(pending or held): account science's max_pending is 3") != NULL,
	    "an account's counts its subtree's jobs: %s", err);
	a.lim.max_pending = 0;
	a.lim.max_gpus = 4;
	assoc_tab_account_put(&t, &a);
	ok(assoc_tab_submit_check(&t, "bob", "chem", 60, 4, waiting, &t,
	    err, sizeof err) == 0, "GPUs at an account's max_gpus: taken");
	ok(assoc_tab_submit_check(&t, "bob", "chem", 60, 5, waiting, &t,
	    err, sizeof err) == -1 && strcmp(err, "5 GPUs: above account "
	    "science's max_gpus, 4 (the GPUs its running jobs hold at once)") ==
	    0, "more than it may ever hold: %s", err);
	assoc_tab_free(&t);
}

int
main(void)
{
	test_tree();
	test_defaults();
	test_resolve();
	test_limits();
	return (tap_done());
}
