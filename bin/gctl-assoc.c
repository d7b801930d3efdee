/* gctl-assoc.c: gctl account and gctl user, sacctmgr's associations:
 * accounts (a tree with shares and limits) and the users of each, one
 * account a user's default. Changes are for operators (ASSOC); anyone
 * may list (ASSOC_LIST), and the listing is cut to what was asked here.
 * Words are KEY=VALUE, keys in any case, each value checked here against
 * what it accepts, so a typo is a usage error (2), not a round trip. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bin/gctl.h"
#include "common/cmd.h"
#include "common/duration.h"
#include "common/job-req.h"
#include "common/proto.h"
#include "common/safe-text.h"

/* The keys a word may give, and what each takes. */
enum gctl_assoc_kind {
	GCTL_ASSOC_COUNT,	/* a whole number, 0: none */
	GCTL_ASSOC_SHARES,	/* a whole number, 1 or more */
	GCTL_ASSOC_TIME,	/* Slurm's time forms, seconds on the wire */
	GCTL_ASSOC_TEXT,
	GCTL_ASSOC_YESNO,
	GCTL_ASSOC_HOURS,	/* a decimal number of GPU-hours, 0: none */
};

#define GCTL_ASSOC_ACCOUNT	0x1	/* a key of gctl account's */
#define GCTL_ASSOC_USER		0x2	/* of gctl user's */

static const struct {
	const char		*key;
	enum gctl_assoc_kind	 kind;
	int			 of;
} gctl_assoc_keys[] = {
	{ "parent", GCTL_ASSOC_TEXT, GCTL_ASSOC_ACCOUNT },
	{ "shares", GCTL_ASSOC_SHARES, GCTL_ASSOC_ACCOUNT },
	{ "description", GCTL_ASSOC_TEXT, GCTL_ASSOC_ACCOUNT },
	{ "gpu_hours", GCTL_ASSOC_HOURS, GCTL_ASSOC_ACCOUNT },
	{ "default", GCTL_ASSOC_YESNO, GCTL_ASSOC_USER },
	{ "max_gpus", GCTL_ASSOC_COUNT, GCTL_ASSOC_ACCOUNT | GCTL_ASSOC_USER },
	{ "max_jobs", GCTL_ASSOC_COUNT, GCTL_ASSOC_ACCOUNT | GCTL_ASSOC_USER },
	{ "max_pending", GCTL_ASSOC_COUNT, GCTL_ASSOC_ACCOUNT |
	    GCTL_ASSOC_USER },
	{ "max_time", GCTL_ASSOC_TIME, GCTL_ASSOC_ACCOUNT | GCTL_ASSOC_USER },
};
#define GCTL_ASSOC_NKEYS	(sizeof gctl_assoc_keys / sizeof gctl_assoc_keys[0])

#define GCTL_ASSOC_ACCOUNT_KEYS						\
	"parent, shares, description, max_gpus, max_jobs, max_pending, "	\
	"max_time or gpu_hours"
#define GCTL_ASSOC_USER_KEYS						\
	"account, default, max_gpus, max_jobs, max_pending or max_time"

/* The most a count may be, as gbatchd takes it. */
#define GCTL_ASSOC_COUNT_MAX	1000000000ULL

/* A budget in GPU-hours, digits with a decimal fraction or not ("500",
 * "0.25"), into set's gpu_hours: a whole number as one, so that the
 * wire and the audit log read as they did. gbatchd keeps it to the
 * GPU-second and refuses one smaller. */
static int
gctl_assoc_hours_parse(const char *val, json_t *set, char *err,
    size_t errlen)
{
	const char	*p = val;
	char		*end;
	double		 h;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p != val && *p == '.' && p[1] >= '0' && p[1] <= '9') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	}
	errno = 0;
	h = strtod(val, &end);
	if (p == val || *p != '\0' || end != p || errno != 0 ||
	    h > GCTL_ASSOC_COUNT_MAX) {
		snprintf(err, errlen, "gpu_hours: expected GPU-hours a month, "
		    "a number from 0 (no budget) to %llu such as 500 or 0.25, "
		    "got \"%s\"", GCTL_ASSOC_COUNT_MAX, val);
		return (-1);
	}
	if (strchr(val, '.') == NULL)
		json_object_set_new(set, "gpu_hours", json_integer(
		    (json_int_t)h));
	else
		json_object_set_new(set, "gpu_hours", json_real(h));
	return (0);
}

/* Reads word (KEY=VALUE, or "default" alone for a user) into set; with
 * account, account= goes to *account instead. Returns 0, or -1 with err. */
static int
gctl_assoc_word(const char *word, int of, json_t *set, const char **account,
    char *err, size_t errlen)
{
	const char		*eq, *val;
	char			 key[32], detail[256], *end;
	unsigned long long	 n;
	uint64_t		 secs;
	size_t			 k, len;

	if (of == GCTL_ASSOC_USER && strcasecmp(word, "default") == 0)
		word = "default=yes";
	if ((eq = strchr(word, '=')) == NULL || eq == word ||
	    (len = (size_t)(eq - word)) >= sizeof key) {
		snprintf(err, errlen, "\"%s\": expected KEY=VALUE, KEY one of "
		    "%s", word, of == GCTL_ASSOC_USER ? GCTL_ASSOC_USER_KEYS :
		    GCTL_ASSOC_ACCOUNT_KEYS);
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
	for (k = 0; k < GCTL_ASSOC_NKEYS; k++) {
		if ((gctl_assoc_keys[k].of & of) != 0 &&
		    strcasecmp(gctl_assoc_keys[k].key, key) == 0)
			break;
	}
	if (k == GCTL_ASSOC_NKEYS) {
		snprintf(err, errlen, "%s: unknown key; expected %s", key,
		    of == GCTL_ASSOC_USER ? GCTL_ASSOC_USER_KEYS :
		    GCTL_ASSOC_ACCOUNT_KEYS);
		return (-1);
	}
	if (json_object_get(set, gctl_assoc_keys[k].key) != NULL) {
		snprintf(err, errlen, "%s: given twice; expected each key "
		    "once", gctl_assoc_keys[k].key);
		return (-1);
	}
	switch (gctl_assoc_keys[k].kind) {
	case GCTL_ASSOC_COUNT:
	case GCTL_ASSOC_SHARES:
		errno = 0;
		n = strtoull(val, &end, 10);
		if (*val < '0' || *val > '9' || *end != '\0' || errno != 0 ||
		    n > GCTL_ASSOC_COUNT_MAX || (n == 0 &&
		    gctl_assoc_keys[k].kind == GCTL_ASSOC_SHARES)) {
			snprintf(err, errlen, "%s: expected a whole number from "
			    "%d to %llu%s, got \"%s\"", gctl_assoc_keys[k].key,
			    gctl_assoc_keys[k].kind == GCTL_ASSOC_SHARES ? 1 : 0,
			    GCTL_ASSOC_COUNT_MAX, gctl_assoc_keys[k].kind ==
			    GCTL_ASSOC_COUNT ? " (0: no limit)" : "", val);
			return (-1);
		}
		json_object_set_new(set, gctl_assoc_keys[k].key,
		    json_integer((json_int_t)n));
		break;
	case GCTL_ASSOC_TIME:
		if (duration_parse(val, JOB_REQ_MAX_TIME, &secs, detail,
		    sizeof detail) != 0) {
			snprintf(err, errlen, "%s: %s", gctl_assoc_keys[k].key,
			    detail);
			return (-1);
		}
		json_object_set_new(set, gctl_assoc_keys[k].key,
		    json_integer((json_int_t)secs));
		break;
	case GCTL_ASSOC_HOURS:
		if (gctl_assoc_hours_parse(val, set, err, errlen) != 0)
			return (-1);
		break;
	case GCTL_ASSOC_TEXT:
		json_object_set_new(set, gctl_assoc_keys[k].key,
		    json_string(val));
		break;
	case GCTL_ASSOC_YESNO:
		if (strcasecmp(val, "yes") != 0 && strcasecmp(val, "no") != 0) {
			snprintf(err, errlen, "%s: expected yes or no, got "
			    "\"%s\"", gctl_assoc_keys[k].key, val);
			return (-1);
		}
		json_object_set_new(set, gctl_assoc_keys[k].key,
		    json_boolean(strcasecmp(val, "yes") == 0));
		break;
	}
	return (0);
}

/* Sends an ASSOC of action for name; set (consumed) may be NULL. */
static int
gctl_assoc_send(const char *what, const char *action, const char *name,
    const char *account, json_t *set, json_t **reply)
{
	json_t	*req = proto_msg(MSG_ASSOC);

	json_object_set_new(req, "action", json_string(action));
	json_object_set_new(req, "name", json_string(name));
	if (account != NULL)
		json_object_set_new(req, "account", json_string(account));
	if (set != NULL)
		json_object_set_new(req, "set", set);
	return (gctl_call(req, reply, what));
}

/* A limit as listings show it: "-" for none. A budget's GPU-hours may
 * have a fraction: up to 6 decimals (a GPU-second is 0.000278),
 * trailing zeros dropped. */
static const char *
gctl_assoc_limit(const json_t *o, const char *key, char *buf, size_t len)
{
	const json_t	*n = json_object_get(o, key);
	json_int_t	 v = json_integer_value(n);
	char		*z;

	if (json_is_real(n) && json_real_value(n) > 0) {
		snprintf(buf, len, "%.6f", json_real_value(n));
		for (z = buf + strlen(buf) - 1; z > buf && *z == '0'; z--)
			*z = '\0';
		if (*z == '.')
			*z = '\0';
		return (buf);
	}
	if (v <= 0)
		return ("-");
	if (strcmp(key, "max_time") == 0)
		return (duration_format((uint64_t)v, buf, len));
	snprintf(buf, len, "%lld", (long long)v);
	return (buf);
}

/* Fetches every account and association. */
static int
gctl_assoc_list(const char *what, json_t **reply)
{
	return (gctl_call(proto_msg(MSG_ASSOC_LIST), reply, what));
}

static const char *
gctl_assoc_str(const json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return (s != NULL ? s : "");
}

static void
gctl_assoc_print_accounts(const json_t *accounts)
{
	const json_t	*a;
	size_t		 i;
	char		 g[24], j[24], p[24], t[32], h[24];

	printf("%-16s %-16s %6s %8s %8s %11s %11s %9s %5s\n", "ACCOUNT",
	    "PARENT", "SHARES", "MAX_GPUS", "MAX_JOBS", "MAX_PENDING",
	    "MAX_TIME", "GPU_HOURS", "USERS");
	json_array_foreach(accounts, i, a) {
		printf("%-16s %-16s %6lld %8s %8s %11s %11s %9s %5lld\n",
		    gctl_assoc_str(a, "name"), *gctl_assoc_str(a, "parent") !=
		    '\0' ? gctl_assoc_str(a, "parent") : "-",
		    (long long)json_integer_value(json_object_get(a,
		    "shares")), gctl_assoc_limit(a, "max_gpus", g, sizeof g),
		    gctl_assoc_limit(a, "max_jobs", j, sizeof j),
		    gctl_assoc_limit(a, "max_pending", p, sizeof p),
		    gctl_assoc_limit(a, "max_time", t, sizeof t),
		    gctl_assoc_limit(a, "gpu_hours", h, sizeof h),
		    (long long)json_integer_value(json_object_get(a,
		    "users")));
	}
}

static void
gctl_assoc_print_users(const json_t *users, const char *only)
{
	const json_t	*u;
	size_t		 i;
	char		 g[24], j[24], p[24], t[32];

	printf("%-16s %-16s %7s %8s %8s %11s %11s\n", "USER", "ACCOUNT",
	    "DEFAULT", "MAX_GPUS", "MAX_JOBS", "MAX_PENDING", "MAX_TIME");
	json_array_foreach(users, i, u) {
		if (only != NULL && strcmp(gctl_assoc_str(u, "user"),
		    only) != 0)
			continue;
		printf("%-16s %-16s %7s %8s %8s %11s %11s\n",
		    gctl_assoc_str(u, "user"), gctl_assoc_str(u, "account"),
		    json_is_true(json_object_get(u, "default")) ? "yes" : "no",
		    gctl_assoc_limit(u, "max_gpus", g, sizeof g),
		    gctl_assoc_limit(u, "max_jobs", j, sizeof j),
		    gctl_assoc_limit(u, "max_pending", p, sizeof p),
		    gctl_assoc_limit(u, "max_time", t, sizeof t));
	}
}

/* A count in use against its limit key: "2 (max_jobs 4)". */
static void
gctl_assoc_show_use(const char *label, json_int_t n, const json_t *a,
    const char *key)
{
	json_int_t	max = json_integer_value(json_object_get(a, key));

	if (max > 0)
		printf("%s: %lld (%s %lld)\n", label, (long long)n, key,
		    (long long)max);
	else
		printf("%s: %lld (no %s)\n", label, (long long)n, key);
}

/* What account a (and the accounts below it) used this month, as run
 * and charged (each QOS's usage factor applied) against its budget, and
 * what its running jobs hold against its limits. */
static void
gctl_assoc_show_usage(const json_t *reply, const json_t *a)
{
	const json_t	*b = json_object_get(a, "gpu_hours");
	double		 used, charged, budget;

	used = (double)json_integer_value(json_object_get(a,
	    "used_gpu_seconds")) / 3600;
	charged = json_number_value(json_object_get(a,
	    "used_gpu_seconds_charged")) / 3600;
	budget = json_number_value(b);
	printf("month: %s (UTC)\n", gctl_assoc_str(reply, "month"));
	printf("used_gpu_hours: %.2f\n", used);
	if (budget <= 0)
		printf("used_gpu_hours_charged: %.2f (no budget)\n", charged);
	else
		printf("used_gpu_hours_charged: %.2f (%.1f%% of gpu_hours%s)\n",
		    charged, 100 * charged / budget, json_is_true(
		    json_object_get(a, "spent")) ? "; spent: its jobs wait, "
		    "AssocGPUHoursSpent" : "");
	gctl_assoc_show_use("running_jobs", json_integer_value(
	    json_object_get(a, "running_jobs")), a, "max_jobs");
	gctl_assoc_show_use("running_gpus", json_integer_value(
	    json_object_get(a, "running_gpus")), a, "max_gpus");
}

/* gctl account show NAME: its fields, what it used this month and holds
 * now, its users, its children. */
static int
gctl_assoc_show(const struct cmd *verb, const char *name)
{
	const json_t	*a = NULL, *e;
	json_t		*reply;
	const char	*sep;
	size_t		 i;
	char		 buf[32], safe[1100];
	int		 r;

	if ((r = gctl_assoc_list("account show", &reply)) != 0)
		return (r);
	json_array_foreach(json_object_get(reply, "accounts"), i, e) {
		if (strcmp(gctl_assoc_str(e, "name"), name) == 0)
			a = e;
	}
	if (a == NULL) {
		json_decref(reply);
		fprintf(stderr, "gctl: account show: no account %s\n",
		    safe_text_str(name, safe, sizeof safe));
		return (EXIT_REFUSED);
	}
	printf("account: %s\nparent: %s\nshares: %lld\ndescription: %s\n",
	    name, *gctl_assoc_str(a, "parent") != '\0' ?
	    gctl_assoc_str(a, "parent") : "-",
	    (long long)json_integer_value(json_object_get(a, "shares")),
	    safe_text_str(gctl_assoc_str(a, "description"), safe,
	    sizeof safe));
	printf("max_gpus: %s\n", gctl_assoc_limit(a, "max_gpus", buf,
	    sizeof buf));
	printf("max_jobs: %s\n", gctl_assoc_limit(a, "max_jobs", buf,
	    sizeof buf));
	printf("max_pending: %s\n", gctl_assoc_limit(a, "max_pending", buf,
	    sizeof buf));
	printf("max_time: %s\n", gctl_assoc_limit(a, "max_time", buf,
	    sizeof buf));
	printf("gpu_hours: %s\n", gctl_assoc_limit(a, "gpu_hours", buf,
	    sizeof buf));
	gctl_assoc_show_usage(reply, a);
	printf("users:");
	sep = " ";
	json_array_foreach(json_object_get(reply, "users"), i, e) {
		if (strcmp(gctl_assoc_str(e, "account"), name) != 0)
			continue;
		printf("%s%s%s", sep, gctl_assoc_str(e, "user"),
		    json_is_true(json_object_get(e, "default")) ?
		    " (default)" : "");
		sep = ", ";
	}
	printf("%s\nchildren:", *sep == ' ' ? " -" : "");
	sep = " ";
	json_array_foreach(json_object_get(reply, "accounts"), i, e) {
		if (strcmp(gctl_assoc_str(e, "parent"), name) != 0)
			continue;
		printf("%s%s", sep, gctl_assoc_str(e, "name"));
		sep = ", ";
	}
	printf("%s\n", *sep == ' ' ? " -" : "");
	json_decref(reply);
	(void)verb;
	return (EXIT_OK);
}

int
gctl_assoc_account(int argc, char **argv)
{
	const struct cmd	 verb = { .name = "gctl", .verb = "account" };
	const char		*sub = argc > 1 ? argv[1] : "", *action, *name;
	json_t			*set, *reply;
	char			 err[512], what[64];
	int			 i, r;

	if (strcmp(sub, "list") == 0) {
		if (argc > 2)
			return (cmd_usage_error(&verb, "list: unexpected "
			    "argument \"%s\"", argv[2]));
		if ((r = gctl_assoc_list("account list", &reply)) != 0)
			return (r);
		gctl_assoc_print_accounts(json_object_get(reply,
		    "accounts"));
		json_decref(reply);
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
			return (gctl_assoc_show(&verb, name));
	}
	if (strcmp(action, "account_modify") == 0 && argc < 4)
		return (cmd_usage_error(&verb, "modify: expected KEY=VALUE, "
		    "KEY one of " GCTL_ASSOC_ACCOUNT_KEYS));
	set = json_object();
	for (i = 3; i < argc; i++) {
		if (gctl_assoc_word(argv[i], GCTL_ASSOC_ACCOUNT, set, NULL,
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
	json_t			*set, *reply;
	char			 err[512], what[64];
	int			 i, r;

	if (strcmp(sub, "list") == 0) {
		if (argc > 3)
			return (cmd_usage_error(&verb, "list: unexpected "
			    "argument \"%s\"", argv[3]));
		if ((r = gctl_assoc_list("user list", &reply)) != 0)
			return (r);
		gctl_assoc_print_users(json_object_get(reply, "users"),
		    argc > 2 ? argv[2] : NULL);
		json_decref(reply);
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
		if (gctl_assoc_word(argv[i], GCTL_ASSOC_USER, set, &account,
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
