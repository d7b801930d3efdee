/* assoc-list-test.c: ASSOC_LIST's reply as the commands read it
 * (client/assoc-list.c): lookups, the tree in Slurm's order (an account,
 * its users, the accounts below it, each by name), Slurm's NormShares and
 * sshare's indentation when only some lines are shown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "client/assoc-list.h"
#include "tests/unit/tap.h"

/* The reply of a cluster: science (10 shares) with chem (3) and phys (1)
 * below it, bio (30) and orphan (whose parent is gone) at the top; users
 * in any order, carol in an account that is not listed. */
static json_t *
t_reply(void)
{
	return (json_pack("{s:s,s:[{s:s,s:s,s:i,s:s,s:i,s:i,s:i,s:i,s:b,"
	    "s:i,s:i},{s:s,s:s,s:i,s:f},{s:s,s:s,s:i},{s:s,s:s,s:i},"
	    "{s:s,s:s,s:i}],"
	    "s:[{s:s,s:s,s:b,s:i},{s:s,s:s,s:b},{s:s,s:s,s:b},"
	    "{s:s,s:s,s:b}]}",
	    "month", "2024-03",
	    "accounts",
	    "name", "science", "parent", "", "shares", 10, "description",
	    "All of science", "gpu_hours", 500, "max_gpus", 8, "max_time",
	    7200, "used_gpu_seconds", 7200, "spent", 0, "running_jobs", 2,
	    "running_gpus", 3,
	    "name", "phys", "parent", "science", "shares", 1, "gpu_hours",
	    4.0 / 3600,
	    "name", "chem", "parent", "science", "shares", 3,
	    "name", "bio", "parent", "", "shares", 30,
	    "name", "orphan", "parent", "gone", "shares", 1,
	    "users",
	    "user", "alice", "account", "phys", "default", 1, "max_jobs", 4,
	    "user", "bob", "account", "science", "default", 1,
	    "user", "alice", "account", "chem", "default", 0,
	    "user", "carol", "account", "zz", "default", 1));
}

/* The tree's lines as "name" and "account/user", each with its depth. */
static void
t_tree(const struct assoc_list *l, char *buf, size_t len)
{
	const struct assoc_list_row	*r;
	size_t				 i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < l->nrows && used < len; i++) {
		r = &l->rows[i];
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s:%d",
		    i > 0 ? " " : "", r->acct->name, r->user != NULL ? "/" : "",
		    r->user != NULL ? r->user->user : "", r->depth);
	}
}

int
main(void)
{
	struct assoc_list		 l;
	const struct assoc_list_account	*a;
	const struct assoc_list_user	*u;
	bool				 shown[16];
	int				 indent[16];
	char				 buf[512], err[256];
	size_t				 i;

	ok(assoc_list_read(&l, t_reply(), err, sizeof err) == 0, "read");
	is_int(l.nacc, 5, "every account");
	is_int(l.nusr, 4, "every association, carol's too");

	/* Lookups. */
	a = assoc_list_account(&l, "science");
	ok(a != NULL && a->shares == 10 && a->budget_s == 500 * 3600 &&
	    a->lim.max_gpus == 8 && a->lim.max_time == 7200 &&
	    a->lim.max_jobs == 0 && strcmp(a->description, "All of science") ==
	    0 && strcmp(a->parent, "") == 0, "an account's members");
	ok(a->used_s == 7200 && !a->spent && a->running_jobs == 2 &&
	    a->running_gpus == 3 && strcmp(l.month, "2024-03") == 0,
	    "what it used this month and holds now");
	/* A budget with a fraction comes in GPU-hours: its GPU-seconds
	 * again, whole. */
	is_int(assoc_list_account(&l, "phys")->budget_s, 4,
	    "0.001111 GPU-hours are 4 GPU-seconds");
	is_str(assoc_list_hours(4, buf, sizeof buf), "0.001111",
	    "as gctl writes them");
	is_str(assoc_list_hours(900, buf, sizeof buf), "0.25", "trailing zeros "
	    "dropped");
	is_str(assoc_list_hours(1800000, buf, sizeof buf), "500", "whole "
	    "hours as a whole number");
	ok(assoc_list_account(&l, "nope") == NULL, "no such account");
	u = assoc_list_user(&l, "alice", "phys");
	ok(u != NULL && u->is_default && u->lim.max_jobs == 4,
	    "an association's members");
	ok(assoc_list_user(&l, "alice", "science") == NULL,
	    "no such association");
	is_str(assoc_list_default(&l, "alice"), "phys", "alice's default");
	ok(assoc_list_default(&l, "dave") == NULL, "dave has none");

	/* The tree: top accounts by name (one whose parent is gone among
	 * them), each account's users before the accounts below it. */
	t_tree(&l, buf, sizeof buf);
	is_str(buf, "bio:0 orphan:0 science:0 science/bob:1 chem:1 "
	    "chem/alice:2 phys:1 phys/alice:2", "Slurm's order");
	ok(l.rows[3].up == 2 && l.rows[4].up == 2 && l.rows[5].up == 4 &&
	    l.rows[2].up == ASSOC_LIST_TOP, "each line knows the one above");

	/* NormShares: over the siblings' shares, its own included. */
	ok(assoc_list_norm_shares(&l, assoc_list_account(&l, "chem")) == 0.75,
	    "chem: 3 of chem's and phys's 4");
	ok(assoc_list_norm_shares(&l, assoc_list_account(&l, "phys")) == 0.25,
	    "phys: 1 of 4");
	ok(assoc_list_norm_shares(&l, assoc_list_account(&l, "science")) ==
	    10.0 / 41, "science: 10 of the top accounts' 41, orphan's "
	    "included");

	/* Indentation: all shown under sshare's root line... */
	for (i = 0; i < l.nrows; i++)
		shown[i] = true;
	assoc_list_indent(&l, shown, true, indent);
	ok(indent[0] == 1 && indent[2] == 1 && indent[3] == 2 &&
	    indent[4] == 2 && indent[5] == 3 && indent[7] == 3,
	    "under the root, one space a level");
	assoc_list_indent(&l, shown, false, indent);
	ok(indent[0] == 0 && indent[3] == 1 && indent[5] == 2,
	    "without it, the top accounts at the margin");
	/* ...and some: a line whose upper line is hidden starts again. */
	for (i = 0; i < l.nrows; i++)
		shown[i] = i >= 6 || i == 4;
	assoc_list_indent(&l, shown, true, indent);
	ok(indent[4] == 0 && indent[6] == 0 && indent[7] == 1,
	    "science hidden: chem and phys at the margin, phys's user below");
	assoc_list_free(&l);
	assoc_list_free(&l);
	ok(l.nrows == 0 && l.reply == NULL, "freed twice, harmlessly");

	/* Parents in a loop, which gbatchd never makes: no line, no hang. */
	ok(assoc_list_read(&l, json_pack("{s:[{s:s,s:s,s:i},{s:s,s:s,s:i},"
	    "{s:s,s:s,s:i}],s:[]}", "accounts", "name", "x", "parent", "y",
	    "shares", 1, "name", "y", "parent", "x", "shares", 1, "name", "z",
	    "parent", "z", "shares", 2, "users"), err, sizeof err) == 0,
	    "a loop read");
	t_tree(&l, buf, sizeof buf);
	is_str(buf, "z:0", "only the account that is its own parent, at the "
	    "top");
	assoc_list_free(&l);

	/* Not a listing. */
	ok(assoc_list_read(&l, json_pack("{s:b}", "ok", 1), err,
	    sizeof err) == -1 && strstr(err, "no accounts") != NULL &&
	    l.nacc == 0, "a reply without lists is refused (%s)", err);
	return (tap_done());
}
