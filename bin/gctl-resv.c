/* gctl-resv.c: gctl reservation, Slurm's advance reservations (scontrol
 * create reservation): named windows of time on nodes for some users or
 * accounts, a maintenance or not. create, update and delete are for
 * operators (RESV); anyone may list them (RESV_LIST). Options are read by
 * client/resv-words.c, as scontrol's Slurm keywords are, so a typo is a
 * usage error (2), not a round trip. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bin/gctl.h"
#include "client/resv-list.h"
#include "client/resv-words.h"
#include "common/cmd.h"
#include "common/duration.h"
#include "common/proto.h"
#include "common/safe-text.h"

static void
gctl_resv_usage(FILE *f)
{
	fputs(
"usage: gctl reservation create [--name NAME] [--start TIME]\n"
"           (--end TIME | --duration D) (--nodes LIST | --gpus N)\n"
"           [--users U,...] [--accounts A,...] [--flags maint]\n"
"       gctl reservation update NAME [the options of create]\n"
"       gctl reservation delete NAME\n"
"       gctl reservation list [NAME] [--json]\n"
"Advance reservations (Slurm's scontrol create reservation): nodes kept for\n"
"some users or accounts from a start to an end. A job runs in one with\n"
"gsub --reservation NAME; any other job may start on a reserved node only\n"
"if its time limit ends it by the reservation's start (a job without one,\n"
"never). A maintenance (--flags maint) thus drains its nodes by its start.\n"
"create, update and delete are for operators; anyone may list.\n"
"\n"
"  --name NAME        its name (default: YOURNAME_N, as Slurm's)\n"
"  --start TIME       when it starts (default now): now, now+1hour,\n"
"                     2026-12-01T10:00, 22:00 (the next), @EPOCH\n"
"  --end TIME         when it ends, in the same forms\n"
"  --duration D       or how long it lasts: minutes, or [D-]H:M[:S]\n"
"  --nodes LIST       its nodes, a host list: n[1-4],gpu7\n"
"  --gpus N           or whole nodes holding N GPUs, chosen now: the\n"
"                     fewest of those up, not drained, not reserved then\n"
"  --users U,...      the users whose jobs may use it\n"
"  --accounts A,...   the accounts whose jobs may use it (one or both)\n"
"  --flags F,...      maint: a maintenance (it may overlap another\n"
"                     reservation; nodes read maint); ignore_jobs is\n"
"                     taken and always so: running jobs are not stopped\n"
"  --json             list: the reservations as gbatchd has them\n"
"\n"
"update changes what it is given; a new start keeps the duration unless\n"
"an end or duration is given too.\n"
"\n"
"Exit status: 0 ok, 1 refused by gbatchd (no such reservation, nodes in\n"
"another reservation, one in use deleted), 2 usage error, 3 cannot reach\n"
"gbatchd, 4 permission denied (operators only).\n", f);
}

static const struct cmd gctl_resv_cmd = {
	.name = "gctl",
	.verb = "reservation",
	.usage = gctl_resv_usage,
};

/* The options, and the key each sets. */
static const struct {
	const char		*opt;
	enum resv_words_key	 key;
} gctl_resv_opts[] = {
	{ "--name", RESV_WORDS_NAME },
	{ "--start", RESV_WORDS_START },
	{ "--end", RESV_WORDS_END },
	{ "--duration", RESV_WORDS_DURATION },
	{ "--nodes", RESV_WORDS_NODES },
	{ "--gpus", RESV_WORDS_GPUS },
	{ "--users", RESV_WORDS_USERS },
	{ "--accounts", RESV_WORDS_ACCOUNTS },
	{ "--flags", RESV_WORDS_FLAGS },
};
#define GCTL_RESV_NOPTS	(sizeof gctl_resv_opts / sizeof gctl_resv_opts[0])

/* Reads argv[0..argc) (--OPT VALUE or --OPT=VALUE) into *name and set;
 * an update takes no --name. */
static int
gctl_resv_read(int argc, char **argv, bool update, const char **name,
    json_t *set)
{
	const char	*arg, *val, *eq;
	char		 err[512];
	size_t		 k, len;
	time_t		 now = time(NULL);
	int		 i;

	for (i = 0; i < argc; i++) {
		arg = argv[i];
		eq = strchr(arg, '=');
		len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
		for (k = 0; k < GCTL_RESV_NOPTS; k++) {
			if (strlen(gctl_resv_opts[k].opt) == len &&
			    strncmp(arg, gctl_resv_opts[k].opt, len) == 0)
				break;
		}
		if (k == GCTL_RESV_NOPTS || (update &&
		    gctl_resv_opts[k].key == RESV_WORDS_NAME))
			return (cmd_usage_error(&gctl_resv_cmd, "%s: unknown "
			    "option \"%.*s\"; expected %s--start, --end, "
			    "--duration, --nodes, --gpus, --users, --accounts "
			    "or --flags", update ? "update" : "create",
			    (int)len, arg, update ? "" : "--name, "));
		if (eq != NULL)
			val = eq + 1;
		else if (++i < argc)
			val = argv[i];
		else
			return (cmd_usage_error(&gctl_resv_cmd, "%s: expects "
			    "a value", gctl_resv_opts[k].opt));
		if (resv_words_put(set, name, gctl_resv_opts[k].key, val, now,
		    err, sizeof err) != 0)
			return (cmd_usage_error(&gctl_resv_cmd, "%s", err));
	}
	return (EXIT_OK);
}

/* A reservation's window as a line says it. */
static void
gctl_resv_window(const struct resv_list_entry *e, char *buf, size_t len)
{
	char	s[32], t[32], d[32];

	snprintf(buf, len, "%s to %s (%s)", resv_list_time(e->start, s,
	    sizeof s), resv_list_time(e->end, t, sizeof t),
	    duration_format((uint64_t)e->duration, d, sizeof d));
}

/* The reply's reservation as create and update print it. */
static void
gctl_resv_said(const char *what, json_t *reply)
{
	struct resv_list	 l;
	json_t			*one, *copy;
	char			 err[128], win[128], nodes[512];

	one = json_object_get(reply, "reservation");
	copy = json_pack("{s:[O]}", "reservations", one != NULL ? one :
	    json_null());
	if (one == NULL || resv_list_read(&l, copy, err, sizeof err) != 0 ||
	    l.n != 1) {
		printf("reservation: %s\n", what);
		if (one == NULL)
			json_decref(copy);
		else
			resv_list_free(&l);
		return;
	}
	gctl_resv_window(&l.v[0], win, sizeof win);
	printf("reservation %s: %s, %s on %s (%lld GPU%s)%s\n", l.v[0].name,
	    what, win, safe_text_str(l.v[0].nodes, nodes, sizeof nodes),
	    (long long)l.v[0].gpus, l.v[0].gpus == 1 ? "" : "s",
	    strstr(l.v[0].flags, "MAINT") != NULL ? ", maintenance" : "");
	resv_list_free(&l);
}

/* list [NAME] [--json]: a line a reservation, the soonest first. */
static int
gctl_resv_list(int argc, char **argv)
{
	struct resv_list		 l;
	const struct resv_list_entry	*e;
	const char			*name = NULL;
	json_t				*req, *reply;
	bool				 json = false;
	char				 err[256], s[32], t[32], d[32];
	char				 nodes[256], users[256], accts[256];
	int				 i, r, wn = 4, wnodes = 5;
	size_t				 k;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (name == NULL && argv[i][0] != '-')
			name = argv[i];
		else
			return (cmd_usage_error(&gctl_resv_cmd, "list: "
			    "unexpected argument \"%s\"", argv[i]));
	}
	req = proto_msg(MSG_RESV_LIST);
	if (name != NULL)
		json_object_set_new(req, "name", json_string(name));
	if ((r = gctl_call(req, &reply, "reservation list")) != 0)
		return (r);
	if (json) {
		cmd_json_print(json_object_get(reply, "reservations"),
		    JSON_INDENT(2));
		json_decref(reply);
		return (EXIT_OK);
	}
	if (resv_list_read(&l, reply, err, sizeof err) != 0) {
		fprintf(stderr, "gctl: reservation list: %s\n", err);
		return (EXIT_UNREACHABLE);
	}
	for (k = 0; k < l.n; k++) {
		if ((int)strlen(l.v[k].name) > wn)
			wn = (int)strlen(l.v[k].name);
		if ((int)safe_text_len(l.v[k].nodes, strlen(l.v[k].nodes)) >
		    wnodes)
			wnodes = (int)safe_text_len(l.v[k].nodes,
			    strlen(l.v[k].nodes));
	}
	if (wnodes > 40)
		wnodes = 40;
	printf("%-*s %-8s %-19s %-19s %11s %-*s %5s %-17s %s %s\n", wn, "NAME",
	    "STATE", "START", "END", "DURATION", wnodes, "NODES", "GPUS",
	    "FLAGS", "USERS", "ACCOUNTS");
	for (k = 0; k < l.n; k++) {
		e = &l.v[k];
		printf("%-*s %-8s %-19s %-19s %11s %-*s %5lld %-17s %s %s\n",
		    wn, e->name, e->state, resv_list_time(e->start, s,
		    sizeof s), resv_list_time(e->end, t, sizeof t),
		    duration_format((uint64_t)e->duration, d, sizeof d),
		    wnodes, safe_text_str(e->nodes, nodes, sizeof nodes),
		    (long long)e->gpus, *e->flags != '\0' ? e->flags : "-",
		    *e->users != '\0' ? safe_text_str(e->users, users,
		    sizeof users) : "-", *e->accounts != '\0' ?
		    safe_text_str(e->accounts, accts, sizeof accts) : "-");
	}
	resv_list_free(&l);
	return (EXIT_OK);
}

int
gctl_resv(int argc, char **argv)
{
	const char	*sub = argc > 1 ? argv[1] : "", *name = NULL;
	json_t		*set, *reply;
	char		 what[64];
	int		 r;

	if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 ||
	    (argc > 2 && (strcmp(argv[2], "--help") == 0 ||
	    strcmp(argv[2], "-h") == 0)))
		return (cmd_help(&gctl_resv_cmd));
	if (strcmp(sub, "list") == 0 || strcmp(sub, "show") == 0)
		return (gctl_resv_list(argc - 1, argv + 1));
	if (strcmp(sub, "create") != 0 && strcmp(sub, "update") != 0 &&
	    strcmp(sub, "delete") != 0)
		return (cmd_usage_error(&gctl_resv_cmd, "expected create, "
		    "update, delete or list, got \"%s\"", sub));
	snprintf(what, sizeof what, "reservation %s", sub);
	if (strcmp(sub, "delete") == 0) {
		if (argc != 3 || argv[2][0] == '-')
			return (cmd_usage_error(&gctl_resv_cmd, "delete: "
			    "expected the reservation's name alone"));
		if ((r = gctl_call(resv_words_request("delete", argv[2], NULL),
		    NULL, what)) == 0)
			printf("reservation %s: deleted\n", argv[2]);
		return (r);
	}
	set = json_object();
	if (strcmp(sub, "update") == 0) {
		if (argc < 4 || argv[2][0] == '-') {
			json_decref(set);
			return (cmd_usage_error(&gctl_resv_cmd, "update: "
			    "expected NAME and what to change (--start, "
			    "--duration, ...)"));
		}
		name = argv[2];
		r = gctl_resv_read(argc - 3, argv + 3, true, &name, set);
	} else
		r = gctl_resv_read(argc - 2, argv + 2, false, &name, set);
	if (r != EXIT_OK) {
		json_decref(set);
		return (r);
	}
	if ((r = gctl_call(resv_words_request(sub, name, set), &reply,
	    what)) != 0)
		return (r);
	gctl_resv_said(strcmp(sub, "create") == 0 ? "created" : "updated",
	    reply);
	json_decref(reply);
	return (EXIT_OK);
}
