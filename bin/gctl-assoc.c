/* gctl-assoc.c: gctl account and gctl user, sacctmgr's associations:
 * accounts (a tree with shares and limits) and the users of each, one
 * account a user's default. Changes are for operators (ASSOC); anyone
 * may list (ASSOC_LIST), and the listing is cut to what was asked here.
 * Words are KEY=VALUE, keys in any case, each value checked here against
 * what it accepts, so a typo is a usage error (2), not a round trip. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bin/gctl.h"
#include "client/assoc-list.h"
#include "client/assoc-words.h"
#include "common/cmd.h"
#include "common/duration.h"
#include "common/proto.h"
#include "common/safe-text.h"

/* What a word of gctl account's or gctl user's may say, for messages:
 * the members (assoc-words.h), and for a user the account too. */
static void
gctl_assoc_keys(int of, char *buf, size_t len)
{
	char	names[256];

	assoc_words_names(of, names, sizeof names);
	snprintf(buf, len, "%s%s", of == ASSOC_WORDS_USER ? "account, " : "",
	    names);
}

/* Reads word (KEY=VALUE, or "default" alone for a user) into set; with
 * account, account= goes to *account instead. Returns 0, or -1 with err. */
static int
gctl_assoc_word(const char *word, int of, json_t *set, const char **account,
    char *err, size_t errlen)
{
	const struct assoc_words_member	*m;
	const char			*eq, *val;
	char				 key[32], keys[300];
	size_t				 len;

	gctl_assoc_keys(of, keys, sizeof keys);
	if (of == ASSOC_WORDS_USER && strcasecmp(word, "default") == 0)
		word = "default=yes";
	if ((eq = strchr(word, '=')) == NULL || eq == word ||
	    (len = (size_t)(eq - word)) >= sizeof key) {
		snprintf(err, errlen, "\"%s\": expected KEY=VALUE, KEY one of "
		    "%s", word, keys);
		return (-1);
	}
	memcpy(key, word, len);
	key[len] = '\0';
	val = eq + 1;
	if (account != NULL && strcasecmp(key, "account") == 0) {
		if (*val == '\0') {
			snprintf(err, errlen, "account: expected an account "
			    "name");
			return (-1);
		}
		*account = val;
		return (0);
	}
	if ((m = assoc_words_find(key, of)) == NULL) {
		snprintf(err, errlen, "%s: unknown key; expected %s", key, keys);
		return (-1);
	}
	return (assoc_words_put(set, m, val, err, errlen));
}

/* Sends an ASSOC of action for name; set (consumed) may be NULL. */
static int
gctl_assoc_send(const char *what, const char *action, const char *name,
    const char *account, json_t *set, json_t **reply)
{
	return (gctl_call(assoc_words_request(action, name, account, set),
	    reply, what));
}

/* A limit as listings show it: "-" for none. */
static const char *
gctl_assoc_limit(uint64_t v, bool is_time, char *buf, size_t len)
{
	if (v == 0)
		return ("-");
	if (is_time)
		return (duration_format(v, buf, len));
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return (buf);
}

/* A budget as listings show it: "-" for none, else GPU-hours, which may
 * have a fraction (assoc_list_hours). */
static const char *
gctl_assoc_budget(uint64_t secs, char *buf, size_t len)
{
	return (secs == 0 ? "-" : assoc_list_hours(secs, buf, len));
}

/* Fetches every account and association into l. */
static int
gctl_assoc_list(const char *what, struct assoc_list *l)
{
	json_t	*reply;
	char	 err[256];
	int	 r;

	if ((r = gctl_call(proto_msg(MSG_ASSOC_LIST), &reply, what)) != 0)
		return (r);
	if (assoc_list_read(l, reply, err, sizeof err) != 0) {
		fprintf(stderr, "gctl: %s: %s\n", what, err);
		return (EXIT_UNREACHABLE);
	}
	return (EXIT_OK);
}

/* How many users account has. */
static size_t
gctl_assoc_users_of(const struct assoc_list *l, const char *account)
{
	size_t	i, n = 0;

	for (i = 0; i < l->nusr; i++)
		n += strcmp(l->usr[i].account, account) == 0;
	return (n);
}

static void
gctl_assoc_print_accounts(const struct assoc_list *l)
{
	const struct assoc_list_account	*a;
	size_t				 i;
	char				 g[24], j[24], p[24], t[32], h[24];

	printf("%-16s %-16s %6s %8s %8s %11s %11s %9s %5s\n", "ACCOUNT",
	    "PARENT", "SHARES", "MAX_GPUS", "MAX_JOBS", "MAX_PENDING",
	    "MAX_TIME", "GPU_HOURS", "USERS");
	for (i = 0; i < l->nacc; i++) {
		a = &l->acc[i];
		printf("%-16s %-16s %6llu %8s %8s %11s %11s %9s %5zu\n",
		    a->name, a->parent[0] != '\0' ? a->parent : "-",
		    (unsigned long long)a->shares,
		    gctl_assoc_limit(a->lim.max_gpus, false, g, sizeof g),
		    gctl_assoc_limit(a->lim.max_jobs, false, j, sizeof j),
		    gctl_assoc_limit(a->lim.max_pending, false, p, sizeof p),
		    gctl_assoc_limit(a->lim.max_time, true, t, sizeof t),
		    gctl_assoc_budget(a->budget_s, h, sizeof h),
		    gctl_assoc_users_of(l, a->name));
	}
}

static void
gctl_assoc_print_users(const struct assoc_list *l, const char *only)
{
	const struct assoc_list_user	*u;
	size_t				 i;
	char				 g[24], j[24], p[24], t[32];

	printf("%-16s %-16s %7s %8s %8s %11s %11s\n", "USER", "ACCOUNT",
	    "DEFAULT", "MAX_GPUS", "MAX_JOBS", "MAX_PENDING", "MAX_TIME");
	for (i = 0; i < l->nusr; i++) {
		u = &l->usr[i];
		if (only != NULL && strcmp(u->user, only) != 0)
			continue;
		printf("%-16s %-16s %7s %8s %8s %11s %11s\n", u->user,
		    u->account, u->is_default ? "yes" : "no",
		    gctl_assoc_limit(u->lim.max_gpus, false, g, sizeof g),
		    gctl_assoc_limit(u->lim.max_jobs, false, j, sizeof j),
		    gctl_assoc_limit(u->lim.max_pending, false, p, sizeof p),
		    gctl_assoc_limit(u->lim.max_time, true, t, sizeof t));
	}
}

/* A count in use against its limit key: "2 (max_jobs 4)". */
static void
gctl_assoc_show_use(const char *label, uint64_t n, const char *key,
    uint64_t max)
{
	if (max > 0)
		printf("%s: %llu (%s %llu)\n", label, (unsigned long long)n, key,
		    (unsigned long long)max);
	else
		printf("%s: %llu (no %s)\n", label, (unsigned long long)n, key);
}

/* What account a (and the accounts below it) used this month, as run
 * and charged (each QOS's usage factor applied) against its budget, and
 * what its running jobs hold against its limits. */
static void
gctl_assoc_show_usage(const struct assoc_list *l,
    const struct assoc_list_account *a)
{
	double	used = (double)a->used_s / 3600;
	double	charged = a->used_charged_s / 3600;

	printf("month: %s (UTC)\n", l->month);
	printf("used_gpu_hours: %.2f\n", used);
	if (a->budget_s == 0)
		printf("used_gpu_hours_charged: %.2f (no budget)\n", charged);
	else
		printf("used_gpu_hours_charged: %.2f (%.1f%% of gpu_hours%s)\n",
		    charged, 100 * a->used_charged_s / (double)a->budget_s,
		    a->spent ? "; spent: its jobs wait, AssocGPUHoursSpent" :
		    "");
	gctl_assoc_show_use("running_jobs", a->running_jobs, "max_jobs",
	    a->lim.max_jobs);
	gctl_assoc_show_use("running_gpus", a->running_gpus, "max_gpus",
	    a->lim.max_gpus);
}

/* gctl account show NAME: its fields, what it used this month and holds
 * now, its users, its children (the lines just below its own in the
 * tree). */
static int
gctl_assoc_show(const char *name)
{
	const struct assoc_list_account	*a;
	const struct assoc_list_row	*row;
	struct assoc_list		 l;
	const char			*sep;
	size_t				 i, me;
	char				 buf[32], safe[1100];
	int				 r;

	if ((r = gctl_assoc_list("account show", &l)) != 0)
		return (r);
	if ((a = assoc_list_account(&l, name)) == NULL) {
		assoc_list_free(&l);
		fprintf(stderr, "gctl: account show: no account %s\n",
		    safe_text_str(name, safe, sizeof safe));
		return (EXIT_REFUSED);
	}
	printf("account: %s\nparent: %s\nshares: %llu\ndescription: %s\n",
	    name, a->parent[0] != '\0' ? a->parent : "-",
	    (unsigned long long)a->shares, safe_text_str(a->description, safe,
	    sizeof safe));
	printf("max_gpus: %s\n", gctl_assoc_limit(a->lim.max_gpus, false, buf,
	    sizeof buf));
	printf("max_jobs: %s\n", gctl_assoc_limit(a->lim.max_jobs, false, buf,
	    sizeof buf));
	printf("max_pending: %s\n", gctl_assoc_limit(a->lim.max_pending,
	    false, buf, sizeof buf));
	printf("max_time: %s\n", gctl_assoc_limit(a->lim.max_time, true, buf,
	    sizeof buf));
	printf("gpu_hours: %s\n", gctl_assoc_budget(a->budget_s, buf,
	    sizeof buf));
	gctl_assoc_show_usage(&l, a);
	for (me = 0; me < l.nrows && (l.rows[me].acct != a ||
	    l.rows[me].user != NULL); me++)
		continue;
	/* Its users come first below it, then its children. */
	printf("users:");
	sep = " ";
	for (i = me + 1; i < l.nrows && l.rows[i].up == me &&
	    l.rows[i].user != NULL; i++) {
		row = &l.rows[i];
		printf("%s%s%s", sep, row->user->user, row->user->is_default ?
		    " (default)" : "");
		sep = ", ";
	}
	printf("%s\nchildren:", *sep == ' ' ? " -" : "");
	sep = " ";
	for (; i < l.nrows; i++) {
		if (l.rows[i].up != me || l.rows[i].user != NULL)
			continue;
		printf("%s%s", sep, l.rows[i].acct->name);
		sep = ", ";
	}
	printf("%s\n", *sep == ' ' ? " -" : "");
	assoc_list_free(&l);
	return (EXIT_OK);
}

int
gctl_assoc_account(int argc, char **argv)
{
	const struct cmd	 verb = { .name = "gctl", .verb = "account" };
	const char		*sub = argc > 1 ? argv[1] : "", *action, *name;
	struct assoc_list	 l;
	json_t			*set;
	char			 err[512], what[64];
	int			 i, r;

	if (strcmp(sub, "list") == 0) {
		if (argc > 2)
			return (cmd_usage_error(&verb, "list: unexpected "
			    "argument \"%s\"", argv[2]));
		if ((r = gctl_assoc_list("account list", &l)) != 0)
			return (r);
		gctl_assoc_print_accounts(&l);
		assoc_list_free(&l);
		return (EXIT_OK);
	}
	if (strcmp(sub, "add") == 0)
		action = "account_add";
	else if (strcmp(sub, "modify") == 0)
		action = "account_modify";
	else if (strcmp(sub, "delete") == 0)
		action = "account_delete";
	else if (strcmp(sub, "show") != 0)
		return (cmd_usage_error(&verb, "expected add, modify, delete, "
		    "list or show, got \"%s\"", sub));
	else
		action = NULL;
	if (argc < 3)
		return (cmd_usage_error(&verb, "%s: expected an account name",
		    sub));
	name = argv[2];
	if (action == NULL || strcmp(action, "account_delete") == 0) {
		if (argc > 3)
			return (cmd_usage_error(&verb, "%s: unexpected "
			    "argument \"%s\"", sub, argv[3]));
		if (action == NULL)
			return (gctl_assoc_show(name));
	}
	if (strcmp(action, "account_modify") == 0 && argc < 4) {
		gctl_assoc_keys(ASSOC_WORDS_ACCOUNT, err, sizeof err);
		return (cmd_usage_error(&verb, "modify: expected KEY=VALUE, "
		    "KEY one of %s", err));
	}
	set = json_object();
	for (i = 3; i < argc; i++) {
		if (gctl_assoc_word(argv[i], ASSOC_WORDS_ACCOUNT, set, NULL,
		    err, sizeof err) != 0) {
			json_decref(set);
			return (cmd_usage_error(&verb, "%s: %s", sub, err));
		}
	}
	snprintf(what, sizeof what, "account %s", sub);
	if ((r = gctl_assoc_send(what, action, name, NULL, set, NULL)) == 0)
		printf("account %s: %s\n", name, strcmp(sub, "add") == 0 ?
		    "added" : strcmp(sub, "modify") == 0 ? "modified" :
		    "deleted");
	return (r);
}

int
gctl_assoc_user(int argc, char **argv)
{
	const struct cmd	 verb = { .name = "gctl", .verb = "user" };
	const char		*sub = argc > 1 ? argv[1] : "", *action;
	const char		*name, *account = NULL;
	struct assoc_list	 l;
	json_t			*set, *reply;
	char			 err[512], what[64];
	int			 i, r;

	if (strcmp(sub, "list") == 0) {
		if (argc > 3)
			return (cmd_usage_error(&verb, "list: unexpected "
			    "argument \"%s\"", argv[3]));
		if ((r = gctl_assoc_list("user list", &l)) != 0)
			return (r);
		gctl_assoc_print_users(&l, argc > 2 ? argv[2] : NULL);
		assoc_list_free(&l);
		return (EXIT_OK);
	}
	if (strcmp(sub, "add") == 0)
		action = "user_add";
	else if (strcmp(sub, "modify") == 0)
		action = "user_modify";
	else if (strcmp(sub, "delete") == 0)
		action = "user_delete";
	else
		return (cmd_usage_error(&verb, "expected add, modify, delete "
		    "or list, got \"%s\"", sub));
	if (argc < 3)
		return (cmd_usage_error(&verb, "%s: expected a user name",
		    sub));
	name = argv[2];
	set = json_object();
	for (i = 3; i < argc; i++) {
		if (gctl_assoc_word(argv[i], ASSOC_WORDS_USER, set, &account,
		    err, sizeof err) != 0) {
			json_decref(set);
			return (cmd_usage_error(&verb, "%s: %s", sub, err));
		}
	}
	if (strcmp(sub, "delete") == 0 && json_object_size(set) > 0) {
		json_decref(set);
		return (cmd_usage_error(&verb, "delete: expected only "
		    "account=NAME"));
	}
	if (strcmp(sub, "delete") != 0 && account == NULL) {
		json_decref(set);
		return (cmd_usage_error(&verb, "%s: expected account=NAME",
		    sub));
	}
	snprintf(what, sizeof what, "user %s", sub);
	if ((r = gctl_assoc_send(what, action, name, account, set,
	    &reply)) != 0)
		return (r);
	if (strcmp(sub, "delete") == 0)
		printf("user %s: deleted from %lld account%s\n", name,
		    (long long)json_integer_value(json_object_get(reply,
		    "deleted")), json_integer_value(json_object_get(reply,
		    "deleted")) == 1 ? "" : "s");
	else
		printf("user %s: %s account %s\n", name, strcmp(sub, "add") ==
		    0 ? "added to" : "modified in", account);
	json_decref(reply);
	return (EXIT_OK);
}
